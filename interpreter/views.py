"""What one player may see: a copy of the state with the rest hidden.

Hidden from a player: the private variables of the others, the order of the
decks and the random generator, and, during a decision all players make at
once, what the others have done so far in it.
"""

from __future__ import annotations

import random

from boardrule.interpreter.state import State

HIDDEN = "?"


def view(game, state: State, seat: int) -> State:
    """The state as `seat` sees it."""
    seen = state.clone()
    seen.rng = random.Random(0)
    seen.decks = {name: [HIDDEN] * len(cards) for name, cards in state.decks.items()}
    if state.snapshot is not None:
        _others_from_snapshot(game, seen, state.snapshot, seat)
    for other in range(state.seats):
        if other == seat:
            continue
        for name in game.private_vars:
            if name in seen.pvars[other]:
                seen.pvars[other][name] = HIDDEN
    # a simultaneous step: the others' moves in it stay hidden until it closes (saves made
    # before the log length was kept in the snapshot hide none)
    began = state.snapshot[7] if state.snapshot is not None and len(state.snapshot) > 7 else len(seen.log)
    seen.log = [entry for index, entry in enumerate(seen.log)
                if not _private_entry(entry, seat) and not (index >= began and _others_move(entry, seat))]
    return seen


def _others_move(entry, seat) -> bool:
    return entry[0] == "move" and entry[1] != seat


def _others_from_snapshot(game, seen, snapshot, seat):
    kind, owner, attrs, held, tokens, points, pvars = snapshot[:7]
    mine = game.board_of_seat(seat)
    for board in range(len(seen.kind)):
        if game.shared_board or board == mine:
            continue
        seen.kind[board], seen.owner[board] = list(kind[board]), list(owner[board])
        seen.attrs[board], seen.held[board] = dict(attrs[board]), dict(held[board])
        seen.tokens[board] = dict(tokens[board])
    for other in range(len(seen.points)):
        if other != seat:
            seen.points[other] = list(points[other])
            seen.pvars[other] = dict(pvars[other])


def _private_entry(entry, seat) -> bool:
    # draws from a deck are chance outcomes the table does not see in order, and
    # the cards put into a deck would tell its order
    return entry[0] in ("shuffle", "draw", "put")
