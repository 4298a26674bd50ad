"""Tiles with sides: `side`, `side_of`, `feature`, `complete`, `joined`, `first_side`, and their corners
and centre: `corner`, `corner_of`, `centre`, `centre_of`, at run time.

A piece kind with `sides:` is a tile: one value per side direction
(dsl/builtins.SIDE_DIRECTIONS: a square's four, a hex's six), clockwise from
the top, turned by the piece's `turn` attribute (steps clockwise). A
**feature** is what matching sides make across tiles (a road, a city): the
sides of one tile that show the same value are joined (unless the value is
in the kind's `apart:`), and a side is joined to the side of the tile next
to it that faces it when the two show the same value. A feature is
**complete** when each of its sides meets such a side.

A square tile may also give `corners:` (one value per corner direction,
dsl/builtins.CORNER_DIRECTIONS, clockwise from the top right), turned with
it like its sides, and a `centre:` value, which no turn moves. Neither is
part of a feature: rules read them where they are.

A slot is (encoded cell, index of the side direction).

    >>> from boardrule.interpreter.api import evaluate, new_game, open_game
    >>> game = open_game("tictactoe")
    >>> evaluate(game, new_game(game, 2), 'side_directions')[0]
    ('north', 'east', 'south', 'west')
"""

from __future__ import annotations

from boardrule.dsl.builtins import CORNER_DIRECTIONS, SIDE_DIRECTIONS, direction_family
from boardrule.dsl.sections import TURN
from boardrule.interpreter.compiler.directions import opposites
from boardrule.interpreter.runtime.values import CELL_BITS, CELL_MASK


class Tiles:
    """What a game's tiles need, worked out once: each kind's sides, the side directions."""

    def __init__(self, game):
        grid = game.grid
        self.directions = SIDE_DIRECTIONS[direction_family(grid.kind, grid.hex_layout)]
        self.index = {d: i for i, d in enumerate(self.directions)}
        self.corner_directions = CORNER_DIRECTIONS[direction_family(grid.kind, grid.hex_layout)]
        self.corner_index = {d: i for i, d in enumerate(self.corner_directions)}
        self.corners = {p.name: tuple(v for v, _ in p.corners) for p in game.model.pieces if p.corners}
        self.centres = {p.name: p.centre[0] for p in game.model.pieces if p.centre and p.sides}
        other = opposites(grid)
        self.facing = tuple(self.index[other[d]] for d in self.directions)
        self.tables = tuple(game.direction_tables[d] for d in self.directions)
        self.sides = {p.name: tuple(v for v, _ in p.sides) for p in game.model.pieces if p.sides}
        self.apart = {p.name: frozenset(v for v, _ in p.apart) for p in game.model.pieces}
        # a kind with `links:`: side index (unturned) -> its group; a side in no group joins no other
        self.links = {p.name: _link_groups(p.links, self.index) for p in game.model.pieces if p.links}

    def shown(self, state, cell, i):
        """The value the tile on `cell` shows on side `i`, or None (no cell, no tile)."""
        return _turned(self.sides, state, cell, i)

    def corner_shown(self, state, cell, i):
        """The value the tile on `cell` shows at corner `i` (turned with it), or None (no cell, no corners)."""
        return _turned(self.corners, state, cell, i)

    def joined_on_tile(self, state, cell, kind, j, value):
        """The sides of the tile on `cell` that side `j` (showing `value`) joins: those showing the same
        value, unless the value is `apart:`; with `links:`, those of the same group that show it."""
        count = len(self.directions)
        groups = self.links.get(kind)
        if groups is None:
            if value in self.apart[kind]:
                return ()
            return [k for k in range(count) if k != j and self.shown(state, cell, k) == value]
        board, c = cell >> CELL_BITS, cell & CELL_MASK
        extra = state.attrs[board].get(c)
        turn = (extra.get(TURN) if extra is not None else None) or 0
        group = groups[(j - turn) % count]
        if group is None:
            return ()
        return [k for k in range(count) if k != j and groups[(k - turn) % count] == group
                and self.shown(state, cell, k) == value]

    def feature(self, state, cell, i):
        """(slots, open): the slots joined to slot (cell, i), and whether one of them meets no matching side."""
        value = self.shown(state, cell, i)
        if value is None:
            return frozenset(), False
        seen, frontier, open_ = {(cell, i)}, [(cell, i)], False
        while frontier:
            c, j = frontier.pop()
            kind = state.kind[c >> CELL_BITS][c & CELL_MASK]
            for k in self.joined_on_tile(state, c, kind, j, value):
                if (c, k) not in seen:
                    seen.add((c, k))
                    frontier.append((c, k))
            n, f = self.tables[j][c], self.facing[j]
            if self.shown(state, n, f) != value:
                open_ = True
            elif (n, f) not in seen:
                seen.add((n, f))
                frontier.append((n, f))
        return frozenset(seen), open_


def _link_groups(links, index) -> tuple:
    """side index -> the number of its group in `links` (None: in none)."""
    groups = [None] * len(index)
    for number, group in enumerate(links):
        for name, _ in group:
            if name in index:
                groups[index[name]] = number
    return tuple(groups)


def _turned(values_of, state, cell, i):
    """Value `i` of the tile on `cell` (its kind's values in `values_of`), turned as the tile is."""
    if cell is None:
        return None
    board, c = cell >> CELL_BITS, cell & CELL_MASK
    values = values_of.get(state.kind[board][c])
    if values is None:
        return None
    extra = state.attrs[board].get(c)
    turn = (extra.get(TURN) if extra is not None else None) or 0
    return values[(i - turn) % len(values)]


def tiles_of(game) -> Tiles:
    """The game's Tiles, built on first use (while the game compiles)."""
    return game.cache.remember("tiles", None, lambda: Tiles(game))


def _slot_function(answer):
    """A maker for f(c, d) whose value is answer(tiles, state, cell, i, slots, open) (d no side: i None)."""
    def make(compiler, node, args, kwargs):
        tiles, span = tiles_of(compiler.game), node.span
        cell_of, direction_of = args

        def f(ctx):
            cell, i = cell_of(ctx), tiles.index.get(direction_of(ctx))
            slots, open_ = tiles.feature(ctx.state, cell, i) if i is not None else (frozenset(), False)
            ctx.meter.charge(len(slots) + 1, span)
            return answer(cell, i, slots, open_)
        return f
    return make


def _on_the_tile(part):
    """A maker for `side(c, d)` / `corner(c, d)`: the side (or corner) of the tile on c that faces d, or
    none; `part(tiles)` gives (direction -> index, shown(state, cell, index))."""
    def make(compiler, node, args, kwargs):
        index, shown = part(tiles_of(compiler.game))
        cell_of, direction_of = args

        def f(ctx):
            i = index.get(direction_of(ctx))
            return None if i is None else shown(ctx.state, cell_of(ctx), i)
        return f
    return make


def _of_the_kind(part):
    """A maker for `side_of(k, n, d)` / `corner_of(k, n, d)`: the side (or corner) kind k turned n steps
    clockwise shows facing d, or none; `part(tiles)` gives (kind -> its values, direction -> index)."""
    def make(compiler, node, args, kwargs):
        by_kind, index = part(tiles_of(compiler.game))
        kind_of, turn_of, direction_of = args

        def f(ctx):
            values, i = by_kind.get(kind_of(ctx)), index.get(direction_of(ctx))
            return None if values is None or i is None else values[(i - (turn_of(ctx) or 0)) % len(values)]
        return f
    return make


_side = _on_the_tile(lambda tiles: (tiles.index, tiles.shown))
_corner = _on_the_tile(lambda tiles: (tiles.corner_index, tiles.corner_shown))
_side_of = _of_the_kind(lambda tiles: (tiles.sides, tiles.index))
_corner_of = _of_the_kind(lambda tiles: (tiles.corners, tiles.corner_index))


def _centre(compiler, node, args, kwargs):
    """`centre(c)`: what lies in the middle of the tile on c, or none."""
    centres, (cell_of,) = tiles_of(compiler.game).centres, args

    def centre(ctx):
        cell = cell_of(ctx)
        return None if cell is None else centres.get(ctx.state.kind[cell >> CELL_BITS][cell & CELL_MASK])
    return centre


def _centre_of(compiler, node, args, kwargs):
    """`centre_of(k)`: what lies in the middle of kind k's tiles, or none."""
    centres, (kind_of,) = tiles_of(compiler.game).centres, args
    return lambda ctx: centres.get(kind_of(ctx))


def _joined(compiler, node, args, kwargs):
    """`joined(a, d, b, e)`: side d of a's tile and side e of b's belong to one feature."""
    tiles, span = tiles_of(compiler.game), node.span
    a_of, d_of, b_of, e_of = args

    def joined(ctx):
        i, k = tiles.index.get(d_of(ctx)), tiles.index.get(e_of(ctx))
        if i is None or k is None:
            return False
        slots, _ = tiles.feature(ctx.state, a_of(ctx), i)
        ctx.meter.charge(len(slots) + 1, span)
        return (b_of(ctx), k) in slots
    return joined


FUNCTIONS = {
    "side": _side,
    "side_of": _side_of,
    "corner": _corner,
    "corner_of": _corner_of,
    "centre": _centre,
    "centre_of": _centre_of,
    "feature": _slot_function(lambda cell, i, slots, open_: tuple(sorted({c for c, _ in slots}))),
    "complete": _slot_function(lambda cell, i, slots, open_: bool(slots) and not open_),
    "joined": _joined,
    "first_side": _slot_function(lambda cell, i, slots, open_: bool(slots) and min(slots) == (cell, i)),
}
VALUES = {"side_directions": lambda game: (lambda ctx: tiles_of(game).directions),
          "corner_directions": lambda game: (lambda ctx: tiles_of(game).corner_directions)}
