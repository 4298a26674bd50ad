"""The evaluation context that compiled closures read and write."""

from __future__ import annotations

from boardrule.interpreter.runtime.budget import Meter
from boardrule.interpreter.runtime.values import PLAYERS


class Ctx:
    """Everything a compiled expression or statement may look at.

    `me` is the player a rule runs for, `self_` the cell a piece rule is
    about, `it` the element being filtered, `env` the named locals, `board`
    the board that bare `cells` means. `answers` feeds `choose` statements.
    """

    __slots__ = ("game", "state", "me", "self_", "it", "env", "board", "answers", "marks", "event", "meter")

    def __init__(self, game, state, me=None, self_=None):
        self.game = game
        self.state = state
        self.me = me
        self.self_ = self_
        self.it = None
        self.env = {}
        self.board = 0 if me is None or game.shared_board else int(me)  # game.board_of_seat, inlined
        self.answers = None
        self.marks = None
        self.event = None
        self.meter = state.meter if state is not None else Meter()  # the work budget (budget.py)

    def for_player(self, seat):
        """Switch `me` (and the current board) to another seat."""
        self.me = PLAYERS[seat] if seat is not None else None
        self.board = 0 if seat is None or self.game.shared_board else int(seat)  # game.board_of_seat, inlined
