"""The shape functions of the language: `fits`, `placements` and `matches` (closures).

Each maker takes (compiler, node, args, kwargs) and returns `ctx -> value`.
Placements are kept as bitmasks by interpreter/runtime/shapes.py's tables; `matches`
looks for a pattern's requirements through a per-kind index when the pattern
asks only for kinds, and cell by cell otherwise.
"""

from __future__ import annotations

import itertools

from boardrule.interpreter.compiler import fastpaths
from boardrule.interpreter.runtime import shapes as shape_lib
from boardrule.interpreter.runtime.values import CELL_BITS, CELL_MASK, RuleError

_NO_CELLS = frozenset()


def _base_of(ctx, cells):
    """The board a list of cells lies on (the current board if it is empty)."""
    return (cells[0] >> CELL_BITS << CELL_BITS) if cells else ctx.board << CELL_BITS


def _placements_on(ctx, shape, cells):
    # the table keeps its placements' cells as bitmasks, deduplicated and in sorted order
    return ctx.game.placement_table(shape).within(_local_mask(cells), _base_of(ctx, cells))


def _local_mask(cells):
    """The cells' numbers on their boards as one bitmask (the board is dropped)."""
    mask = 0
    for c in cells:
        mask |= _BIT[c & CELL_MASK]
    return mask


_BIT = tuple(1 << c for c in range(CELL_MASK + 1))  # a lookup beats a shift in `_local_mask`


def _fits(compiler, node, args, kwargs):
    shape, cells = args
    return lambda ctx: ctx.game.placement_table(shape(ctx)).fits(_local_mask(cells(ctx)))


def _placements(compiler, node, args, kwargs):
    shape, cells = args
    return lambda ctx: _placements_on(ctx, shape(ctx), cells(ctx))


def _with_it(body):
    def run(ctx, cell):
        saved = ctx.it
        ctx.it = cell
        try:
            return body(ctx)
        finally:
            ctx.it = saved
    return run


def _matches(compiler, node, args, kwargs):
    shape_arg, match = args[0], matcher(compiler, node, kwargs)
    return lambda ctx: match(ctx, shape_arg(ctx))


def matcher(compiler, node, kwargs):
    """`match(ctx, shape)`: the value of the call `node` of `matches` (its options `kwargs`, name ->
    keyword node) for the shape its first argument gave; generated code hands it the shape it worked
    out (codegen_loops.g_Call), the closure of `_matches` the shape its own closure gives."""
    option = {k: compiler.compile(v.value) for k, v in kwargs.items()}
    standin = _with_it(option["standin"]) if "standin" in option else None
    fast_standin = (fastpaths.kind_predicate(compiler, kwargs["standin"].value)
                    if "standin" in kwargs else None)
    distinct = _with_it(option["distinct"]) if "distinct" in option else None
    simple = not ({"missing", "distinct", "anywhere"} & set(option))

    # the kinds that stand in, when the condition depends on the kind alone
    known_kinds = compiler.game.static_attrs  # None while shapes are compiled
    stand_kinds = (frozenset(k for k in (*known_kinds, None) if fast_standin(k))
                   if fast_standin is not None and known_kinds is not None else None)

    def stand_cells(ctx, base):
        # a stand-in is judged once per cell, not once per slot of every placement
        if stand_kinds is not None:
            kinds = ctx.state.kind[base >> CELL_BITS]
            if stand_kinds.isdisjoint(kinds):  # most boards hold none: one set operation
                return _NO_CELLS
            return frozenset(c for c in ctx.game.grid.cells if kinds[c] in stand_kinds)
        if fast_standin is not None:
            kinds = ctx.state.kind[base >> CELL_BITS]
            return frozenset(c for c in ctx.game.grid.cells if fast_standin(kinds[c]))
        if not standin:
            return frozenset()
        ctx.meter.charge(ctx.game.grid.size, span)  # the stand-in's rule runs on every cell
        return frozenset(c for c in ctx.game.grid.cells if standin(ctx, base | c))

    within, span = option.get("within"), node.span

    def match(ctx, shape):
        if shape is None:
            raise RuleError("`matches` got no shape here (a kind without a pattern?)", node.span)
        board = ctx.board
        base = board << CELL_BITS
        if standin is None or (stand_kinds is not None and stand_kinds.isdisjoint(ctx.state.kind[board])):
            stand = _NO_CELLS  # most boards hold no stand-in: one set operation, no call
        else:
            stand = stand_cells(ctx, base)
        if simple and not ctx.game.legends.get(shape.name):
            found = _kind_matches(ctx, shape, base, stand)
        else:  # a rule per slot of each placement: each placement is counted
            ctx.meter.charge(len(ctx.game.placement_table(shape).placements), span)
            found = _general_matches(ctx, shape, base, stand, option, distinct)
        if not found:
            return ()  # most patterns are nowhere on the board
        if within is not None:
            inside = set(within(ctx))
            found = {cells for cells in found if all(c in inside for c in cells)}
        return tuple(sorted(found))
    return match


def _kind_matches(ctx, shape, base, stand):
    """The common case: slots name piece kinds (or anything); see `shapes.KindIndex`."""
    game = ctx.game
    kinds = ctx.state.kind[base >> CELL_BITS]
    index = shape_lib.kind_index(game, shape)
    # most patterns are far from complete on most boards: counting the board's
    # kinds is cheaper than trying the placements
    missing, stand_ins = 0, len(stand)
    for symbol, count in index.needs:
        have = kinds.count(symbol)
        if have < count:
            missing += count - have
            if missing > stand_ins:
                return set()
    fits = index.everything
    if stand:
        for cell, (by_kind, other), kind in zip(itertools.count(), index.accepts, kinds):
            if cell not in stand:  # a stand-in fills any slot
                fits &= by_kind.get(kind, other)
    else:
        for (by_kind, other), cell in zip(index.ordered, index.order):
            fits &= by_kind.get(kinds[cell], other)
            if not fits:
                return set()
    found = set()
    placements, known = index.placements, game.static_attrs
    while fits:
        low = fits & -fits
        fits ^= low
        placement = placements[low.bit_length() - 1]
        # with stand-ins about, a match still needs one real piece
        if not stand or any(kinds[c] == s or s not in known for c, s in placement.pairs):
            found.add(tuple(base | c for c in placement.cells))
    return found


def _general_matches(ctx, shape, base, stand, option, distinct):
    test = ctx.game.slot_test(shape, ctx, base)
    stand_test = stand.__contains__ if stand else None
    if "anywhere" in option and option["anywhere"](ctx):
        candidates = [c & CELL_MASK for c in (option["within"](ctx) if "within" in option
                                              else ctx.game.board_cells[ctx.board])]
        matches = shape_lib.find_anywhere(ctx.game.shape_defs[shape.name], candidates, test, standin=stand_test)
    else:
        missing = option["missing"](ctx) if "missing" in option else 0
        key = (lambda c: distinct(ctx, base | c)) if distinct else None
        matches = shape_lib.find_matches(ctx.game.placement_table(shape), test, standin=stand_test,
                                         missing=missing, distinct_key=key)
    return {tuple(sorted(base | c for c in tuple(m.used) + tuple(m.standins))) for m in matches}


FUNCTIONS = {"fits": _fits, "placements": _placements, "matches": _matches}
