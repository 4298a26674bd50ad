"""Cells by position: the generated form of a filter of a fixed list of cells by one of their positions.

A filter whose source is a list the grid fixes (a cell table such as
`surrounding(c)` or `column(c)` of a cell, a region, the board's cells)
and whose condition is `P == V`, P a position of the element (`x`, `y`,
`order`, or `it.x`...) and V a number that does not read the element and
spends no work (no filter, no function call: arithmetic of variables and
of a cell's positions, as `c.y + me.ahead`), keeps the cells whose
position is V: always the same cells for the same entry of the table and
the same V. So the table is grouped once per pack, as it is compiled,
into an index (for each entry, position -> its cells in the table's
order), and the filter becomes one lookup:

    surrounding(c) where y == c.y + me.ahead
 -> INDEX[c].get(V, ()) if charged(ctx, TABLE[c], w, s) else ()

as a database answers `WHERE column = value` from an index instead of a
scan. The work budget is charged as the list form charges it (every cell
of the source, before V is worked out), V is worked out only when the
source has cells (as the list form works it out for the first cell), and
the cells come in the same order, so nothing shows but the time
(tests/test_index.py). A lookup finds what `==` finds: a position is a
whole number, and an exact number equal to it has its hash.
"""

from __future__ import annotations

import ast as py
import copy

from boardrule.dsl import ast as nodes
from boardrule.dsl.resolution import Attr, It, Prop
from boardrule.dsl.types import NUM
from boardrule.interpreter.compiler.codegen_masks import GRID_POSITIONS, grid_position
from boardrule.interpreter.compiler.hoisting import RAISING
from boardrule.interpreter.compiler.rewrites import bounds
from boardrule.interpreter.runtime.budget import weight
from boardrule.interpreter.runtime.values import CELL_MASK

def grouped(table, position) -> object:
    """`table` (a tuple indexed by cell or board, or a dict) with each entry's cells grouped by
    `position(cell)`: position -> the cells of the entry with it, in the entry's order."""
    def group(cells):
        if cells is None:
            return None
        found = {}
        for cell in cells:
            found.setdefault(position(cell), []).append(cell)
        return {value: tuple(listed) for value, listed in found.items()}

    if isinstance(table, dict):
        return {key: group(cells) for key, cells in table.items()}
    return tuple(group(cells) for cells in table)


class IndexGeneration:
    """The index-making part of codegen.RuleFunction (see the module's docstring)."""

    def indexed_list(self, node):
        """`T where P == V` as a lookup in T's index by position P, or None for any other filter."""
        if type(node) is not nodes.Where or type(node.condition) is not nodes.BinOp or node.condition.op != "==":
            return None
        condition = node.condition
        for position_side, value_side in ((condition.left, condition.right), (condition.right, condition.left)):
            position = self.element_position(position_side)
            if position is not None and self.compiler.types.get(value_side) == NUM:
                return self.position_lookup(node, position, value_side)
        return None

    def element_position(self, node):
        """`x`, `y` or `order` when `node` reads that position of the filter's element (`y`, `it.y`),
        and no piece or record has a field of that name (a bare `y` could read it); else None."""
        resolution = self.compiler.resolved.get(node)
        if type(node) is nodes.Name and type(resolution) is Prop:
            name = resolution.name
        elif (type(node) is nodes.Attribute and type(resolution) is Attr and type(node.obj) is nodes.Name
              and self.compiler.resolved.get(node.obj) == It()):
            name = resolution.name
        else:
            return None
        if name not in GRID_POSITIONS or bounds.shadowed(self.compiler.game, name):
            return None
        return name

    def position_lookup(self, node, position, value_side):
        """The lookup, or None when the source is no entry of a table of sure cells or the value reads
        the element."""
        if not self.sure_cells(node.source) or self.reads_context_it(value_side):
            return None
        prologue, reads = dict(self.prologue), dict(self.mask_reads)
        self.iterables += 1
        try:
            source = self.expr(node.source)
        finally:
            self.iterables -= 1
        value = self.expr(value_side)
        index = self.position_index(source, position) if spends_nothing(value) else None
        if index is None:
            self.prologue, self.mask_reads = prologue, reads  # what the attempt read at the start is not needed
            return None
        entry = py.Subscript(value=self.constant(index, "g"), slice=copy.deepcopy(source.slice), ctx=py.Load())
        lookup = py.Call(func=py.Attribute(value=entry, attr="get", ctx=py.Load()),
                         args=[value, py.Tuple(elts=[], ctx=py.Load())], keywords=[])
        charged = py.Call(func=py.Name(id="charged", ctx=py.Load()), args=[
            py.Name(id="ctx", ctx=py.Load()), source, py.Constant(weight(node.condition)),
            self.constant(node.condition.span, "s")], keywords=[])
        return py.IfExp(test=charged, body=lookup, orelse=py.Tuple(elts=[], ctx=py.Load()))

    def position_index(self, source: py.expr, position: str):
        """The index by `position` of the constant table `source` reads one entry of (`g7[c]`,
        `g3[ctx.board]`), made once per table and position for the whole pack; None when `source`
        reads no such table, or its entries are not all tuples of cells (or None)."""
        if not (type(source) is py.Subscript and type(source.value) is py.Name):
            return None
        table = self.constants.get(source.value.id)
        if not isinstance(table, (tuple, list, dict)):
            return None
        known = self.compiler.position_indexes
        found = known.get((id(table), position))
        if found is None or found[0] is not table:
            found = known[(id(table), position)] = (table, _index(table, position, self.compiler.game.grid))
        return found[1]


def spends_nothing(value: py.expr) -> bool:
    """True when generated `value` calls nothing but the range check (hoisting.RAISING): it spends no
    work, so working it out once costs what working it out for each cell would (the list form's)."""
    return all(type(node) is not py.Call or (type(node.func) is py.Name and node.func.id == RAISING)
               for node in py.walk(value))


def _index(table, position, grid):
    """`table` grouped by `position` (`grouped`), or None when its entries are not all tuples of cells."""
    entries = table.values() if isinstance(table, dict) else table
    if not all(e is None or (type(e) is tuple and all(type(c) is int for c in e)) for e in entries):
        return None
    return grouped(table, lambda cell: grid_position(grid, position, cell & CELL_MASK))
