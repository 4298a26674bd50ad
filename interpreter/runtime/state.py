"""The mutable part of a game: boards, variables, decks, dice, flow position.

A State is plain data (lists, dicts, tuples, strings, ints), so a clone is a
few list copies (deck lists are shared until changed) and the JSON round trip
is exact. Only `interpreter.flow` changes a State, and only through moves.
"""

from __future__ import annotations

import random

import attrs

from boardrule.interpreter.runtime.budget import Meter

FORMAT_VERSION = 1


class LazyRandom:
    """A seeded generator that is cheap to clone.

    Its state is a base (a seed, or a saved generator state) plus the calls
    made since (`_calls`), and a live generator in that state is built only
    when a chance step rolls: most states of a game never roll a die, and
    reading a live generator's state out (625 words) costs more than a move.
    A clone takes the live generator over; the parent rebuilds one by
    replaying its calls only if it is used again (saves, previews). Use it
    through attribute calls (`rng.choice(...)`): a bound method kept across a
    `split` would move the clone's.
    """

    __slots__ = ("_base", "_calls", "_live")
    MAX_CALLS = 64  # beyond, the live state becomes the new base: replays stay short

    def __init__(self, state):
        self._base, self._calls, self._live = state, (), None

    @classmethod
    def seeded(cls, seed) -> "LazyRandom":
        """A generator seeded with `seed`: the seed is its base, read out as a
        generator state only when a save asks, and seeded only when a chance
        step first rolls (many games roll nothing)."""
        return cls(seed)

    def getstate(self):
        if type(self._base) is tuple and not self._calls:
            return self._base
        state = self._generator().getstate()
        self._base, self._calls = state, ()
        return state

    def setstate(self, state):
        self._base, self._calls, self._live = state, (), None

    def split(self) -> "LazyRandom":
        """An independent generator in the same state, for a clone: the live
        generator (if any) moves to the copy, the one likely to roll next."""
        copy = LazyRandom(self._base)
        copy._calls, copy._live, self._live = self._calls, self._live, None
        return copy

    def _generator(self) -> random.Random:
        live = self._live
        if live is None:
            if type(self._base) is not tuple:  # a seed
                live = self._live = random.Random(self._base)
            else:
                live = self._live = random.Random(0)
                live.setstate(self._base)
            for name, args, kwargs in self._calls:
                try:
                    getattr(live, name)(*args, **kwargs)
                except Exception:  # it failed the first time too, after the same draws
                    pass
        return live

    def __getattr__(self, name):  # choice, shuffle, sample, random, randrange...
        live = self._generator()
        method = getattr(live, name)
        if not callable(method):
            return method

        def call(*args, **kwargs):
            if len(self._calls) >= self.MAX_CALLS:
                self._base, self._calls = live.getstate(), ()
            try:
                return method(*args, **kwargs)
            finally:  # lists are copied: what a call draws depends on their lengths, which may change later
                self._calls += ((name, tuple(_frozen(a) for a in args), {k: _frozen(v) for k, v in kwargs.items()}),)
        return call


def _frozen(value):
    return list(value) if type(value) is list else value


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
    decks: dict  # name -> list, top of the deck last; shared with clones: change one only through own_deck
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
    # the seat whose decision was open when the game ended (`to_move` once it is over); kept, and saved, only
    # for a pack whose rules read `to_move` (an optional field: saved when set, read as None when missing)
    to_move_at_end: int | None = attrs.field(default=None, metadata={"optional": True})
    # the digests of the positions the boards were in as each move was made (runtime/after.py), in order; kept,
    # and saved, only for a pack whose rules read `repeated` (optional, as above); replays make it again
    positions: tuple = attrs.field(default=(), metadata={"optional": True})
    # legal action moves per seat, valid until an effect changes this state
    moves_cache: dict = attrs.field(factory=dict, eq=False, repr=False, metadata={"transient": True})
    # moves made in the step now open, as (phase, round, step, count): a guard against endless repeats
    step_moves: tuple = attrs.field(default=("", 0, 0, 0), eq=False, repr=False, metadata={"transient": True})
    # the decks whose list no clone shares (see own_deck)
    owned_decks: set = attrs.field(factory=set, eq=False, repr=False, metadata={"transient": True})
    # the work this game's rules may still do, shared by its states (budget.py)
    meter: Meter = attrs.field(factory=Meter, eq=False, repr=False, metadata={"transient": True})
    # definitions' values worked out while the state cannot change: listing moves, scoring (memo.py)
    memo: dict | None = attrs.field(default=None, eq=False, repr=False, metadata={"transient": True})
    # per board, {kind or None: bitmask of the cells holding it}, bit i for cell i (`kind_masks`); None until
    # a rule asks, then kept up to date by `set_kind`, through which every change of a cell's kind goes
    masks: list | None = attrs.field(default=None, eq=False, repr=False, metadata={"transient": True})

    def own_deck(self, name) -> list:
        """Deck `name`'s list, safe to change in place.

        A clone shares its parent's deck lists (most decks never change after
        setup), so the first change of a deck in either copies it first.
        """
        cards = self.decks[name]
        if name not in self.owned_decks:
            cards = self.decks[name] = list(cards)
            self.owned_decks.add(name)
        return cards

    def clone(self) -> "State":
        """A copy that moves may change. Every field is set here, without the generated
        `__init__` (a clone per move: a third of its cost); tests/test_state_sharing.py
        checks that no field is missed."""
        rng = self.rng.split() if type(self.rng) is LazyRandom else LazyRandom(self.rng.getstate())
        self.owned_decks.clear()  # the deck lists are shared from now on
        new = _new_state(State)
        new.seats, new.players, new.options = self.seats, self.players, self.options
        new.kind, new.owner = [list(b) for b in self.kind], [list(b) for b in self.owner]
        new.attrs, new.held = [dict(b) for b in self.attrs], [dict(b) for b in self.held]
        new.tokens = [dict(b) for b in self.tokens]
        new.vars, new.pvars, new.points = dict(self.vars), [dict(p) for p in self.pvars], [list(p) for p in self.points]
        new.dice, new.decks, new.rng = dict(self.dice), dict(self.decks), rng
        new.phase, new.step, new.round, new.queue = self.phase, self.step, self.round, self.queue
        new.pending = {seat: Pending(p.actions, p.repeat, p.choice, p.moved, p.required)
                       for seat, p in self.pending.items()}
        new.finished, new.log, new.steps_run = list(self.finished), list(self.log), self.steps_run
        new.to_move_at_end, new.positions = self.to_move_at_end, self.positions
        new.trigger_depth, new.snapshot, new.moves_cache = 0, self.snapshot, {}
        new.step_moves, new.owned_decks, new.meter, new.memo = self.step_moves, set(), self.meter, None
        new.masks = None if self.masks is None else [dict(m) for m in self.masks]
        return new


def kind_masks(state, board: int) -> dict:
    """{kind: bitmask} of one board: bit i is set in the mask of the kind on cell i, `None` standing
    for no piece. Built from the board's kinds the first time a rule asks, then kept by `set_kind`.

    >>> s = State(1, (0,), {}, [["a", None, "a"]], [[None] * 3], [{}], [{}], [{}], {}, [{}], [[]], {}, {}, None)
    >>> kind_masks(s, 0) == {"a": 0b101, None: 0b010}
    True
    >>> set_kind(s, 0, 1, "b"); kind_masks(s, 0) == {"a": 0b101, None: 0, "b": 0b010}
    True
    """
    masks = state.masks
    if masks is None:
        masks = state.masks = [_masks_of(kinds) for kinds in state.kind]
    return masks[board]


def _masks_of(kinds) -> dict:
    masks: dict = {}
    bit = 1
    for kind in kinds:
        masks[kind] = masks.get(kind, 0) | bit
        bit <<= 1
    return masks


def set_kind(state, board: int, index: int, kind) -> None:
    """Cell `index` of `board` holds a piece of `kind` now (None: no piece): the one way a cell's
    kind changes, so that the masks a rule reads stay true."""
    kinds = state.kind[board]
    old = kinds[index]
    kinds[index] = kind
    if state.masks is not None and old != kind:
        masks, bit = state.masks[board], 1 << index
        masks[old] ^= bit
        masks[kind] = masks.get(kind, 0) | bit


def forget_masks(state) -> None:
    """The boards were replaced wholesale (a view, a position): the masks are built again when asked."""
    state.masks = None


_new_state = object.__new__


def player_to_move(state):
    """`to_move`: the player whose decision is open now; none when no decision is open or several players
    decide at once; once the game is over, the one whose decision was open when it ended."""
    from boardrule.interpreter.runtime.values import PLAYERS
    if state.phase == "over":
        seat = state.to_move_at_end
        return None if seat is None else PLAYERS[seat]
    pending = state.pending
    if len(pending) != 1:
        return None
    for seat in pending:
        return PLAYERS[seat]
