"""The compiled pack: `Game`, frozen once compiled, and its one cache.

`Game` declares every field the compiler fills (game.py builds one, field
by field, while it compiles: a compiled rule reads the tables compiled
before it); `compile_game` seals it at the end, after which setting any
field is an error, and a field nobody declared cannot be set at all. What
play works out from a game on first use (the order of a decision's actions,
the texts of moves, a pattern's index, the pictures' looks) lives in
`Game.cache`, a `GameCache`: its entries depend on the game alone, which
never changes, so none is ever invalidated; each table is bounded and
starts afresh when full.

    >>> from boardrule.interpreter.api import open_game
    >>> game = open_game("tictactoe")
    >>> game.id = "other"
    Traceback (most recent call last):
    ...
    boardrule.interpreter.compiler.compiled.SealedGameError: Game is sealed once compiled; `id` cannot change
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import attrs

from boardrule import __version__
from boardrule.interpreter.runtime import shapes as shape_lib
from boardrule.interpreter.runtime.context import Ctx
from boardrule.interpreter.runtime.values import CELL_BITS

_MISSING = object()


@lru_cache(maxsize=256)
def placements(grid, shape):
    """Every placement of a shape on a grid (shapes.py), kept for the grids and shapes met last."""
    return shape_lib.compile_placements(grid, shape)


class GameCache:
    """Tables of values worked out from a game on first use (see the module's docstring)."""

    MAX_ENTRIES = 100_000  # per table: past it, the table starts afresh

    __slots__ = ("_tables",)

    def __init__(self):
        self._tables = {}

    def table(self, name: str) -> dict:
        """The table `name` itself, for a hot path that reads it directly (it must call `bounded`
        before it adds an entry)."""
        found = self._tables.get(name)
        if found is None:
            found = self._tables[name] = {}
        return found

    def bounded(self, table: dict) -> dict:
        """`table`, emptied first when it is full."""
        if len(table) >= self.MAX_ENTRIES:
            table.clear()
        return table

    def remember(self, name: str, key, make):
        """The entry `key` of table `name`, made by `make()` the first time."""
        table = self.table(name)
        found = table.get(key, _MISSING)
        if found is _MISSING:
            found = self.bounded(table)[key] = make()
        return found


class SealedGameError(AttributeError):
    """A field of a compiled game was set: an engine bug (a game never changes once compiled)."""


def _sealed_guard(game, attribute, value):
    if game._sealed:
        raise SealedGameError(f"Game is sealed once compiled; `{attribute.name}` cannot change")
    return value


def _compiled():
    """A field the compiler fills (None until it does)."""
    return attrs.field(default=None, init=False)


@attrs.define(slots=True, eq=False, repr=False, on_setattr=_sealed_guard)
class Game:
    """A compiled pack. Build it with `compile_game(pack)` (game.py)."""

    pack: Any = attrs.field()
    grid: Any = attrs.field()
    seats_max: int = attrs.field()
    # from the pack
    model: Any = attrs.field(init=False)
    id: str = attrs.field(init=False)
    name: str = attrs.field(init=False)
    pack_hash: str = attrs.field(init=False)
    engine_version: str = attrs.field(init=False, default=__version__)
    shared_board: bool = attrs.field(init=False)
    boards: int = attrs.field(init=False)
    players_range: tuple = attrs.field(init=False)
    cache: GameCache = attrs.field(init=False, factory=GameCache)
    # the board's tables
    board_cells = _compiled()
    direction_tables = _compiled()
    direction_names = _compiled()
    cell_tables = _compiled()
    regions = _compiled()
    # plain data the rules read
    defines = _compiled()
    symbol_sets = _compiled()
    charts_ast = _compiled()
    dice_faces = _compiled()
    shape_dice = _compiled()
    record_kinds = _compiled()
    named_fields = _compiled()
    choice_types = _compiled()
    warnings = _compiled()
    # shapes
    shapes = _compiled()
    shape_defs = _compiled()
    legends = _compiled()
    families = _compiled()
    # pieces
    kind_names = _compiled()
    static_attrs = _compiled()
    variable_attributes = _compiled()
    per_piece_attributes = _compiled()  # the attributes a piece may hold for itself (variables, `place ... with`)
    static_attribute_names = _compiled()
    token_kinds = _compiled()
    symbols = _compiled()
    mark_names = _compiled()
    mark_uses = _compiled()
    piece_scores = _compiled()
    place_rules = _compiled()
    place_whys = _compiled()
    piece_rules = _compiled()
    marks = _compiled()
    triggers = _compiled()
    trigger_spans = _compiled()
    # components
    decks = _compiled()
    options = _compiled()
    vars = _compiled()
    private_vars = _compiled()
    player_vars = _compiled()
    scoring = _compiled()
    verdict = _compiled()
    evaluation_hint = _compiled()
    status = _compiled()
    player_status = _compiled()
    # actions and flow
    actions = _compiled()
    action_index = _compiled()
    param_types = _compiled()
    setup_steps = _compiled()
    round_steps = _compiled()
    end = _compiled()
    end_span = _compiled()
    check_end = _compiled()
    max_rounds = _compiled()
    ranking = _compiled()
    facts = _compiled()  # what the rewrite passes found and made (rewrites/tree.py), for every compiler of the game
    reads_to_move = _compiled()  # whether a rule reads `to_move`: the state then keeps who was to move at the end
    keeps_positions = _compiled()  # whether a rule reads `repeated`: the state then keeps the positions it was in
    _sealed: bool = attrs.field(init=False, default=False)

    def __attrs_post_init__(self):
        game = self.pack.model.game
        self.model = self.pack.model
        self.id = game.id
        self.name = game.name or game.id
        self.pack_hash = self.pack.content_hash
        self.shared_board = self.pack.model.board.shared
        self.boards = 1 if self.shared_board else self.seats_max
        self.players_range = (game.players.low, game.players.high)

    def seal(self) -> Game:
        """No field changes after this (compile_game calls it last)."""
        object.__setattr__(self, "_sealed", True)
        return self

    def board_of_seat(self, seat) -> int:
        return 0 if self.shared_board else int(seat)

    def default_marks(self, ctx):
        from boardrule.interpreter.runtime.scoring import first_choice_marks
        return first_choice_marks(self, ctx.state, ctx.me)

    def score_total(self, state, seat) -> int:
        from boardrule.interpreter.runtime.scoring import score_sheet
        return score_sheet(self, state, seat).total

    def placement_table(self, shape):
        return placements(self.grid, shape)

    def slot_test(self, shape, ctx, base):
        legend = self.legends.get(shape.name, {})
        kinds = self.static_attrs
        state_kinds = ctx.state.kind[base >> CELL_BITS]

        def test(symbol, cell):
            rule = legend.get(symbol)
            if rule is not None:
                saved = ctx.it
                ctx.it = base | cell
                try:
                    return bool(rule(ctx))
                finally:
                    ctx.it = saved
            if symbol in kinds:
                return state_kinds[cell] == symbol
            return True
        return test

    def ctx(self, state, me=None, self_=None) -> Ctx:
        return Ctx(self, state, me, self_)
