"""The mutable part of a game: boards, variables, decks, dice, flow position.

A State is plain data (lists, dicts, tuples, strings, ints), so a clone is a
few list copies and the JSON round trip is exact. Only `interpreter.flow`
changes a State, and only through moves.
"""

from __future__ import annotations

import random

import attrs

FORMAT_VERSION = 1


class LazyRandom:
    """A seeded generator whose state is only copied into a live generator
    when a chance step uses it: most states of a game never roll a die, and
    cloning a live generator is a large part of the cost of a move."""

    __slots__ = ("_state", "_live")

    def __init__(self, state):
        self._state = state
        self._live = None

    @classmethod
    def seeded(cls, seed) -> "LazyRandom":
        return cls(random.Random(seed).getstate())

    def getstate(self):
        return self._live.getstate() if self._live is not None else self._state

    def setstate(self, state):
        self._state, self._live = state, None

    def _generator(self) -> random.Random:
        if self._live is None:
            self._live = random.Random(0)
            self._live.setstate(self._state)
        return self._live

    def __getattr__(self, name):  # choice, shuffle, sample, random, randrange...
        return getattr(self._generator(), name)


@attrs.define(eq=False)
class Pending:
    """One seat's open decision in the current step."""

    actions: tuple  # action names
    repeat: bool
    choice: object = None  # (move, options, optional, answer type) while an effect asks
    moved: bool = False  # has taken at least one action this step
    required: bool = False  # repeated while any action is legal, with no `done`


@attrs.define(eq=False)
class State:
    seats: int
    players: tuple  # occupied seats, in seat order
    options: dict
    kind: list  # per board: list of piece kind or None
    owner: list  # per board: list of seat or None
    attrs: list  # per board: {cell: {attribute: value}}
    held: list  # per board: {cell: tuple of kinds}
    tokens: list  # per board: {cell: tuple of token kinds}
    vars: dict
    pvars: list  # per seat: {name: value}
    points: list  # per seat: list of [label, value]
    dice: dict
    decks: dict  # name -> list, top of the deck last
    rng: random.Random
    phase: str = "setup"  # setup, round, over
    step: int = 0
    round: int = 0
    queue: tuple = ()
    pending: dict = attrs.field(factory=dict)  # seat -> Pending
    finished: list = attrs.field(factory=list)  # seats in the order they finished
    log: list = attrs.field(factory=list)  # chance outcomes and moves, in order
    steps_run: int = 0
    # how deep triggers are nested right now (a guard while an effect runs)
    trigger_depth: int = attrs.field(default=0, eq=False, metadata={"transient": True})
    snapshot: object = None  # boards as a simultaneous step began (what others may see)
    # legal action moves per seat, valid until an effect changes this state
    moves_cache: dict = attrs.field(factory=dict, eq=False, repr=False, metadata={"transient": True})
    # moves made in the step now open, as (phase, round, step, count): a guard against endless repeats
    step_moves: tuple = attrs.field(default=("", 0, 0, 0), eq=False, repr=False, metadata={"transient": True})

    def clone(self) -> "State":
        rng = LazyRandom(self.rng.getstate())
        return State(
            self.seats, self.players, self.options,
            [list(b) for b in self.kind], [list(b) for b in self.owner],
            [dict(b) for b in self.attrs], [dict(b) for b in self.held], [dict(b) for b in self.tokens],
            dict(self.vars), [dict(p) for p in self.pvars], [list(p) for p in self.points],
            dict(self.dice), {k: list(v) for k, v in self.decks.items()}, rng,
            self.phase, self.step, self.round, self.queue,
            {s: Pending(p.actions, p.repeat, p.choice, p.moved, p.required) for s, p in self.pending.items()},
            list(self.finished), list(self.log), self.steps_run, 0, self.snapshot,
            step_moves=self.step_moves)
