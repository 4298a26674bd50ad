"""A game's timeline: its states one after each decision, with undo and redo for a player.

A front end keeps the states of a game as they come (`add`) and says which
states each person at the table was shown (`shown`). `undo(seat)` goes back
to the state just before that player's last decision, across the other
players' replies and the steps the flow ran on its own (rolls, draws, passes):
the undone states are kept, and `redo(seat)` brings them back as they were.
A new decision forgets what was undone.

Chance is part of a state (its generator and the decks' order), so a decision
taken again after an undo meets the same rolls and draws as the first time:
undoing cannot fish for another roll. With several people at the table, a
player's undo stops at the first state another person was shown that differs,
for them, from what they saw before that decision: nobody takes back what
someone else has seen.

    >>> from boardrule.interpreter import api
    >>> game = api.open_game("tictactoe")
    >>> line = Timeline(game, [api.new_game(game, 2, seed=1)])
    >>> state = line.current
    >>> line.add(api.apply(game, state, api.legal_moves(game, state, 0)[4]), 0)
    >>> line.add(api.apply(game, line.current, api.legal_moves(game, line.current, 1)[0]), 1)
    >>> [text for _, text in line.undo(0).moves]
    ['play B2', 'play A1']
    >>> len(line.states), [text for _, text in line.redo(0).moves]
    (1, ['play B2', 'play A1'])
"""

from __future__ import annotations

import attrs

from boardrule.dsl.diagnostics import BoardruleError, SaveError
from boardrule.interpreter.runtime import flow
from boardrule.interpreter.runtime.values import PLAYERS


@attrs.frozen
class Undone:
    """What an undo (or a redo) took back (or brought back)."""

    moves: tuple  # (seat, move text) of the moves taken back, in order
    chance: int  # chance outcomes among them (rolls, draws, shuffles, passes...)
    own: tuple  # the texts of the player's own moves among them


class Timeline:
    """The states of one game, the seat whose decision led to each, and what each viewer was shown."""

    def __init__(self, game, states, movers=None):
        if not states:
            raise ValueError("a timeline starts with a state")
        self.game = game
        self.states = list(states)
        self.movers = list(movers) if movers is not None else [None] * len(self.states)
        self.future = []  # undone segments, the last undone last: (seat, states, movers)
        self.seen = {}  # viewer -> indices of the states they were shown

    @property
    def current(self):
        return self.states[-1]

    def add(self, state, seat) -> None:
        """The state after a decision of `seat` (a new decision: what was undone is forgotten)."""
        self.states.append(state)
        self.movers.append(seat)
        self.future = []

    def step_start(self):
        """The log index at which the open decision all players make at once began, or None (the
        others' moves from there are not told yet: views.events)."""
        snapshot = self.current.snapshot
        if snapshot is None:
            return None
        start = len(self.current.log)
        for earlier in reversed(self.states):
            if earlier.snapshot is not snapshot:
                break
            start = len(earlier.log)
        return start

    def shown(self, viewer) -> None:
        """The current state was shown to `viewer` (a seat)."""
        self.seen.setdefault(viewer, set()).add(len(self.states) - 1)

    # ------------------------------------------------------------ undo
    def undo_target(self, seat, others=()):
        """The index of the state before `seat`'s last decision, or a text saying why there is none.

        `others` are the other people at the table: a state one of them was shown after that decision
        that shows them something else than the state before it stops the undo."""
        for index in range(len(self.states) - 2, -1, -1):
            if self.movers[index + 1] != seat:
                continue
            for other in others:
                if other != seat and self._saw_since(other, index):
                    return f"{PLAYERS[other]!r} has seen the game since your last decision"
            return index
        if any(self.movers[i] is not None for i in range(1, len(self.states))):
            return "you have made no decision yet that can be taken back"
        return "nothing has been played yet"

    def _saw_since(self, viewer, index) -> bool:
        later = [i for i in self.seen.get(viewer, ()) if i > index]
        if not later:
            return False
        before = _sight(self.game, self.states[index], viewer)
        return any(_sight(self.game, self.states[i], viewer) != before for i in later)

    def undo(self, seat, others=()):
        """Go back to the state before `seat`'s last decision: an Undone, or a text saying why not."""
        target = self.undo_target(seat, others)
        if isinstance(target, str):
            return target
        taken = Undone(*_between(self.game, self.states[target], self.current, seat))
        self.future.append((seat, self.states[target + 1:], self.movers[target + 1:]))
        del self.states[target + 1:], self.movers[target + 1:]
        for viewer, indices in self.seen.items():
            self.seen[viewer] = {i for i in indices if i <= target}
        return taken

    def redo(self, seat):
        """Bring back what `seat`'s last undo took back: an Undone, or a text saying why not."""
        if not self.future or self.future[-1][0] != seat:
            return "nothing to redo: `redo` plays again what `undo` took back, until you make another move"
        _, states, movers = self.future.pop()
        before = self.current
        self.states.extend(states)
        self.movers.extend(movers)
        return Undone(*_between(self.game, before, self.current, seat))


def _between(game, before, after, seat):
    """(moves, chance, own) of the log entries from `before` to `after`; a move whose choice is still
    open in `after` (it is not in the log yet) counts as one of `seat`'s."""
    from boardrule.interpreter.runtime.moves import move_text
    entries = after.log[len(before.log):]
    moves = tuple((entry[1], entry[2]) for entry in entries if entry[0] == "move")
    chance = sum(1 for entry in entries if entry[0] != "move")
    own = tuple(text for who, text in moves if who == seat)
    asking = after.pending.get(seat)
    if asking is not None and asking.choice is not None:
        moves += ((seat, move_text(asking.choice[0], game)),)
        own += (move_text(asking.choice[0], game),)
    return moves, chance, own


def _sight(game, state, viewer):
    """What `viewer` sees of `state`: the picture of their view, and the log they may read."""
    from boardrule.interpreter.runtime import picture as pictures
    from boardrule.interpreter.runtime.views import view
    seen = view(game, state, viewer)
    return pictures.picture(game, state, viewer), tuple(tuple(map(str, entry)) for entry in seen.log)


# ------------------------------------------------------------ from a saved game
def from_log(game, log: dict, meter=None) -> Timeline:
    """The timeline of a saved game: a state after each of its moves (so that `undo` works after
    resuming), checked by replaying it (gamelog.replay: SaveError when it no longer replays)."""
    from boardrule.interpreter.records import gamelog
    final = gamelog.replay(game, log, meter=meter)
    state = flow.initial_state(game, log["players"], log["seed"], log.get("options", {}), meter=final.meter)
    states, movers = [state], [None]
    try:
        for seat, text in log["moves"]:
            state = flow.play_text(game, state, seat, text)
            states.append(state)
            movers.append(seat)
    except (BoardruleError, SaveError):
        return Timeline(game, [final])
    if log.get("pending") or states[-1].log != final.log:  # a choice half answered: the replay has it
        states.append(final)
        movers.append(log["pending"][-1][0] if log.get("pending") else None)
    return Timeline(game, states, movers)
