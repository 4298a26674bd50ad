"""Cells as bitmasks: the generated form of a filter of a whole board by the kind of its cells.

A board's cells that hold a kind, and its empty cells, are kept as integer
bitmasks (bit i for cell i) by the state (`state.kind_masks`, kept up to date
as pieces are placed and removed). Where a rule asks about such cells as a
set, the generated code reads the masks instead of making a list:

* `cells where C`, `p.cells where C` and a definition whose body is one,
  C a condition the kind of the cell alone decides (`kind == x`, `empty`,
  `kind in [a, b]`, a static attribute, `not`, `and` and `or` of them),
  is a mask: `C` of `kind == x` is the mask of x, `and` is `&`, `or` is `|`,
  `not` the board's other cells;
* `fits(shape, M)`, M such a mask, is the shape's placement table asked with
  the mask (shapes.py: a few shifts per orientation), with no list of cells
  made between;
* in a whole board's filter, a condition `any(T, C)` (or `any(T where C)`)
  of the cell tested, T a cell table whose cells are each other's
  (`adjacent`, `surrounding`) and C a condition on kinds, is the mask of
  the cells next to C's cells: the union of T's masks of C's cells, one per
  cell of C's mask (`near_cells`).

The work budget is charged as the filter's own code charges it (a board's
cells per filter, budget.py), so a rule spends the same whichever form runs;
a neighbour test charges as its list is asked: its table's cells times its
condition's weight for each cell where the conditions before it in the
filter hold (`degree_sum`: the cells of a mask counted by their number of
related cells).
Anything else is generated as a list (codegen_loops.py); the semantics are
the same, node by node (tests/test_masks.py, tests/test_reference.py).
"""

from __future__ import annotations

import ast as py
import copy
from itertools import compress

from boardrule.dsl import ast as nodes
from boardrule.dsl.resolution import (Attr, Define, Function, Global, Local, Option, PlayerProp, PlayerVar, Prop,
                                      Record, Self, Shape, Symbol, Value)
from boardrule.interpreter.compiler import fastpaths
from boardrule.interpreter.compiler.rewrites import kinds
from boardrule.interpreter.runtime.budget import weight
from boardrule.interpreter.runtime.state import kind_masks
from boardrule.interpreter.runtime.values import CELL_BITS, CELL_MASK


# ------------------------------------------------------------------ helpers the generated code calls
def _board_masks(ctx, board):
    """One board's {kind: mask} (no state: a rule worked out before any game reads no board)."""
    state = ctx.state
    return {} if state is None else kind_masks(state, board)


def _charged_mask(ctx, mask, cost, span):
    """`mask`, the filter's cost spent from the work budget first (as its list form spends it)."""
    meter = ctx.meter
    meter.left -= cost
    if meter.left < 0:
        meter.over(span)
    return mask


def _kinds_mask(masks, kinds_by_value, value):
    """The cells whose kind has `value` for a static attribute (`kinds_by_value`: value -> kinds)."""
    mask = 0
    for kind in kinds_by_value.get(value, ()):
        mask |= masks.get(kind, 0)
    return mask


#: the smallest board whose cells where a condition holds are listed from its mask: below it the list
#: form costs as little (measured for `cells where empty`, half the cells empty: 1.5 us either way on
#: 16 cells, 2.4 us against 3.5 on 64, 5.2 against 10.2 on 225)
LIST_MIN_CELLS = 32
#: the most kinds' masks such a listing reads
LIST_MAX_READS = 4


def _kind_reads(mask: py.expr, hoisted: set) -> int:
    """How many kinds' masks `mask` reads: its `.get` calls, its `kinds_mask` calls and the locals of
    `hoisted` (masks read at the function's start)."""
    count = 0
    for node in py.walk(mask):
        if type(node) is py.Name and node.id in hoisted:
            count += 1
        elif type(node) is py.Call and (type(node.func) is py.Attribute and node.func.attr == "get"
                                        or type(node.func) is py.Name and node.func.id == "kinds_mask"):
            count += 1
    return count


#: the characters of a mask written in binary as the bytes 0 and 1 (`_cells_of_mask`)
_BITS_AS_BYTES = bytes.maketrans(b"01", b"\x00\x01")


def _cells_of_mask(mask, cells):
    """The cells of a board (`cells`, its cells in order) whose bit `mask` sets, in that order: the
    mask written in binary, lowest bit first, as bytes that pick the cells in C.

    >>> _cells_of_mask(0b10110, (0, 1, 2, 3, 4, 5))
    (1, 2, 4)
    >>> _cells_of_mask(0, (0, 1, 2))
    ()
    """
    return tuple(compress(cells, format(mask, "b")[::-1].encode().translate(_BITS_AS_BYTES)))


def _near_cells(mask, near):
    """The cells with a cell of `mask` among their related cells, `near[i]` the mask of cell i's (a
    table whose cells are each other's: the cells next to `mask` are those its cells are next to)."""
    out = 0
    while mask:
        low = mask & -mask
        out |= near[low.bit_length() - 1]
        mask ^= low
    return out


def _degree_sum(mask, degrees):
    """How many related cells the cells of `mask` have in all (`degrees`: ((n, the cells with n)...))."""
    return sum(n * (mask & cells).bit_count() for n, cells in degrees)


def _symmetric_masks(related, size):
    """Per cell of the grid, the mask of its related cells, when every cell is related to those related
    to it (and all are on the grid); else None."""
    masks = [0] * size
    for cell in range(size):
        for other in related[cell]:
            if other >= size or cell not in related[other]:
                return None
            masks[cell] |= 1 << other
    return tuple(masks)


HELPERS = {"board_masks": _board_masks, "charged_mask": _charged_mask, "kinds_mask": _kinds_mask, "h_int": int,
           "h_bits": int.bit_count, "cells_of_mask": _cells_of_mask, "near_cells": _near_cells,
           "degree_sum": _degree_sum}


def _load(name: str) -> py.Name:
    return py.Name(id=name, ctx=py.Load())


def _call(func: py.expr, *args) -> py.Call:
    return py.Call(func=func, args=list(args), keywords=[])


def _get(masks: py.expr, kind: py.expr) -> py.expr:
    return _call(py.Attribute(value=masks, attr="get", ctx=py.Load()), kind, py.Constant(0))


def _union(parts: list) -> py.expr:
    if not parts:
        return py.Constant(0)
    value = parts[0]
    for part in parts[1:]:
        value = py.BinOp(left=value, op=py.BitOr(), right=part)
    return value


#: what a value compared with a cell's kind may read to be worked out once for the whole board
_INVARIANT = frozenset({Local, Self, Symbol, Record, Global, Option, PlayerVar, Value})
_NOT_THE_CELLS = frozenset({Value("me"), Value("none"), Value("true"), Value("false")})
_SAFE_READS = frozenset({Attr("kind"), Attr("empty"), Attr("occupied")})  # safe of none too


def same_for_every_cell(resolved, node) -> bool:
    """True for a value read the same way whichever cell a filter tests, that cannot fail: names of
    the context or the state, a player's variable of one, the kind of a cell one holds."""
    kind = type(node)
    if kind is nodes.Attribute:
        resolution = resolved.get(node)
        readable = type(resolution) is PlayerVar or resolution in _SAFE_READS
        return readable and same_for_every_cell(resolved, node.obj)
    if kind is not nodes.Name:
        return kind in (nodes.Number, nodes.String)
    resolution = resolved.get(node)
    if type(resolution) not in _INVARIANT:
        return False
    return type(resolution) is not Value or resolution in _NOT_THE_CELLS


class MaskGeneration:
    """The mask-making part of codegen.RuleFunction (see the module's docstring)."""

    # -------------------------------------------------------------- what rules ask of masks
    def fits_mask(self, node):
        """`fits(shape, M)` asked of the mask M, or None (the shape is no constant, M no mask)."""
        if len(node.args) != 2 or node.kwargs:
            return None
        shape_node, cells_node = node.args
        resolution = self.compiler.resolved.find(shape_node, Shape)
        if type(shape_node) is not nodes.Name or resolution is None:
            return None
        mask = self.list_mask(cells_node)
        if mask is None:
            return None
        table = self.compiler.game.placement_table(self.compiler.game.shapes[resolution.name])
        return _call(self.constant(table.fitter(), "f"), mask)

    def aggregate_mask(self, func, args, span):
        """`any`, `none` and `count` of a filter (`count(L where C)`, `count(L, C)`) asked of its mask."""
        if func not in ("any", "none", "count"):
            return None
        if len(args) == 1:
            mask = self.list_mask(args[0], func)
        else:
            set_path = fastpaths.cell_aggregate(self.compiler, func, args[0], args[1]) is not None
            mask = self.filter_mask(args[0], args[1], span, set_path, func)
        if mask is None:
            return None
        if func == "count":
            return _call(_load("h_bits"), mask)
        return py.Compare(left=mask, ops=[py.NotEq() if func == "any" else py.Eq()], comparators=[py.Constant(0)])

    # -------------------------------------------------------------- lists of cells as masks
    def board_list(self, node):
        """`cells where C` (any whole board) listed from its mask: the cells in the board's order, the
        work charged as the list form charges it; None when C is no condition a mask gives, or when
        the list form costs less: a board of fewer than LIST_MIN_CELLS cells, or a condition whose mask
        reads more than LIST_MAX_READS kinds' masks (`kind in [...]` of many kinds is one test per
        cell in C)."""
        found = self.mask_source(node.source) if type(node) is nodes.Where else None
        if found is None or found[1] is not None or self.compiler.game.grid.size < LIST_MIN_CELLS:
            return None
        prologue, reads = dict(self.prologue), dict(self.mask_reads)
        mask = self.list_mask(node)
        if mask is None or _kind_reads(mask, set(self.mask_reads.values()) - set(reads.values())) > LIST_MAX_READS:
            self.prologue, self.mask_reads = prologue, reads  # what the attempt read at the start is not needed
            return None
        cells = py.Subscript(value=self.constant(tuple(self.compiler.game.board_cells), "g"), slice=found[0],
                             ctx=py.Load())
        return _call(_load("cells_of_mask"), mask, cells)

    def list_mask(self, node, func=None):
        """The mask of the cells list `node` gives, with the work charged as its list form charges it
        (asked by aggregate `func`, or as a list); None when `node` is no filter a mask can give."""
        compiler = self.compiler
        resolution = compiler.resolved.find(node, Define) if type(node) in (nodes.Name, nodes.Call) else None
        if resolution is not None:
            return self.definition_mask(node, resolution.name, func)
        if type(node) is not nodes.Where:
            return None
        if func is None:
            set_path = fastpaths.cell_filter(compiler, node, split=False) is not None
        else:
            set_path = fastpaths.cell_aggregate(compiler, func, node, None) is not None
        return self.filter_mask(node.source, node.condition, node.span, set_path, func)

    def definition_mask(self, node, name, func):
        """A definition's body as a mask, its parameters bound to their arguments (locals, literals)."""
        define = self.compiler.game.defines[name]
        args = node.args if type(node) is nodes.Call else ()
        remembered = (self.compiler.remembered_use(node, name) if type(node) is nodes.Call
                      else self.compiler.remembers(name))
        if len(args) != len(define.params) or remembered:
            return None  # (a remembered use is worked out once per state: the memo does better)
        values = [self.expr(a) for a in args]
        if not all(isinstance(v, (py.Name, py.Constant)) for v in values):
            return None
        outer = self.locals
        self.locals = {**outer, **{param: (value, self.sure_cell_value(arg)) for param, value, arg in
                                   zip(define.params, values, args)}}
        try:
            return self.list_mask(define.body, None if args else func)  # with parameters, it is a list
        finally:
            self.locals = outer

    def filter_mask(self, source, condition, span, set_path, func=None):
        """`source where condition` as a mask: the kind conditions read the board's masks, the
        conditions the grid alone decides are masks worked out now, per cell of the source. An
        aggregate `func` of a whole board by kind alone is left to its set operation (fastpaths.py,
        as fast, and a pack asking only those keeps no masks)."""
        found = self.mask_source(source)
        if found is None:
            return None
        board, cell, tables = found
        if func is not None and set_path and cell is None:
            return None
        parameter = cell[1] if cell is not None else None
        static, dynamic = [], []
        parts = _conjuncts(condition)
        for part in parts:
            (static if _judged_by_the_grid(self.compiler.resolved, part, parameter) else dynamic).append(part)
        masks = self.board_masks(board)
        full = py.Constant((1 << self.compiler.game.grid.size) - 1)
        mask, asked = None, []  # asked: the units the neighbour tests charge, as the list form asks them
        for position, part in enumerate(parts):
            if part in static:
                continue
            near = self.near_mask(part, masks) if cell is None and not set_path else None
            if near is not None:  # asked of the cells where the parts before it hold (their masks, so far)
                part_mask, degrees, units = near
                before = py.Constant(self.static_masks(tables, [p for p in parts[:position] if p in static],
                                                       None)[0])
                if mask is not None:
                    before = py.BinOp(left=before, op=py.BitAnd(), right=copy.deepcopy(mask))
                asked.append(py.BinOp(left=_call(_load("degree_sum"), before, self.constant(degrees, "g")),
                                      op=py.Mult(), right=py.Constant(units)))
            else:
                part_mask = self.condition_mask(part, masks, full)
            if part_mask is None:
                return None
            mask = part_mask if mask is None else py.BinOp(left=mask, op=py.BitAnd(), right=part_mask)
        statics = self.static_masks(tables, static, parameter)
        cells = self.compiler.game.grid.size
        costs = tuple(cells if set_path else len(entry) * weight(condition) for entry in tables)
        if cell is None:  # the whole board: one mask, one cost
            base, cost = py.Constant(statics[0]), py.Constant(costs[0])
            for units in asked:
                cost = py.BinOp(left=cost, op=py.Add(), right=units)
        else:
            index = cell[0] if self.compiler.game.boards == 1 else py.BinOp(
                left=cell[0], op=py.BitAnd(), right=py.Constant(CELL_MASK))
            base = py.Subscript(value=self.constant(statics, "g"), slice=index, ctx=py.Load())
            cost = py.Subscript(value=self.constant(costs, "g"), slice=index, ctx=py.Load())
        if mask is None:
            mask = base
        elif cell is not None or statics[0] != full.value:  # (a condition's mask holds only the board's cells)
            mask = py.BinOp(left=mask, op=py.BitAnd(), right=base)
        return _call(_load("charged_mask"), _load("ctx"), mask, cost, self.constant(span, "s"))

    def near_mask(self, node, masks):
        """`any(T, C)` or `any(T where C)` of the cell tested, T a cell table of the grid whose cells
        are each other's (`adjacent`, `surrounding`), C a condition the kind alone decides: (the mask
        of the cells with a cell of T where C holds, the board's cells by their number in T as
        ((n, mask), ...), the units the list form charges per cell of T it asks); else None."""
        compiler = self.compiler
        found = fastpaths.any_next_to(compiler.resolved, node)
        if found is None or found[0] not in _GRID_TABLES:
            return None
        table_name, test = found
        grid = compiler.game.grid
        related = _GRID_TABLES[table_name](grid)
        near = _symmetric_masks(related, grid.size)
        if near is None:
            return None
        full = py.Constant((1 << grid.size) - 1)
        test_mask = self.condition_mask(test, masks, full)
        if test_mask is None:
            return None
        by_count: dict = {}
        for cell in grid.cells:
            by_count[len(related[cell])] = by_count.get(len(related[cell]), 0) | 1 << cell
        degrees = tuple(sorted(by_count.items()))
        return _call(_load("near_cells"), test_mask, self.constant(near, "g")), degrees, weight(test)

    def board_masks(self, board):
        """The board's masks: read once at the function's start for the current board or a fixed one
        (a rule changes no board), else where they are asked."""
        read = _call(_load("board_masks"), _load("ctx"), board)
        if type(board) is py.Constant:
            return self.hoisted(f"masks_{board.value}", read)
        if type(board) is py.Attribute and board.attr == "board":
            return self.hoisted("masks_here", read)
        return read

    def mask_source(self, node):
        """(board, cell, tables) when `node` is every cell of a board (`cells`, `p.cells`: cell None,
        one table, the board's cells) or a cell table of a sure cell (`column(c)`: cell (its value,
        its local's name or None), the table per cell of the grid); else None."""
        compiler, grid = self.compiler, self.compiler.game.grid
        resolution = compiler.resolved.get(node)
        if type(node) is nodes.Name and resolution == Value("cells"):
            return py.Attribute(value=_load("ctx"), attr="board", ctx=py.Load()), None, (grid.cells,)
        if type(node) is nodes.Attribute and resolution == PlayerProp("cells"):
            if compiler.game.shared_board:
                return py.Constant(0), None, (grid.cells,)
            return _call(_load("h_int"), self.expr(node.obj)), None, (grid.cells,)  # a player's board is its seat
        if (type(node) is nodes.Call and type(resolution) is Function
                and resolution.name in _GRID_TABLES and len(node.args) == 1 and self.sure_cell_value(node.args[0])):
            arg = node.args[0]
            value = self.expr(arg)
            if not isinstance(value, py.Name):
                return None
            local = compiler.resolved[arg].name if type(compiler.resolved.get(arg)) is Local else None
            board = py.Constant(0) if compiler.game.boards == 1 else py.BinOp(
                left=value, op=py.RShift(), right=py.Constant(CELL_BITS))
            return board, (value, local), _GRID_TABLES[resolution.name](grid)
        return None

    def static_masks(self, tables, static, parameter) -> tuple:
        """Per entry of `tables` (per cell of the grid, or the one whole board), the mask of its cells
        where every condition of `static` holds, judged now from the grid."""
        grid = self.compiler.game.grid
        resolved = self.compiler.resolved
        masks = []
        for owner, entry in enumerate(tables):
            mask = 0
            for cell in entry:
                if all(_judge(resolved, grid, part, cell, owner, parameter) for part in static):
                    mask |= 1 << cell
            masks.append(mask)
        return tuple(masks)

    # -------------------------------------------------------------- conditions on the kind
    def condition_mask(self, node, masks, full):
        """The mask of the cells where condition `node` holds, or None when the kind alone does not
        decide it. `masks` reads the board's masks, `full` is every cell."""
        fixed = kinds.kind_set(self.compiler.resolved, node)
        if fixed is not None:  # `kind in [a, b]`: the one form of a condition the kind alone decides
            members, outside = fixed
            mask = _union([self.kind_mask(masks, k) for k in sorted(members, key=str)])
            return py.BinOp(left=full, op=py.BitXor(), right=mask) if outside else mask
        kind = type(node)
        if kind is nodes.Not:
            inner = self.condition_mask(node.operand, masks, full)
            return None if inner is None else py.BinOp(left=full, op=py.BitXor(), right=inner)
        if kind is nodes.BinOp and node.op in ("and", "or"):
            left = self.condition_mask(node.left, masks, full)
            right = None if left is None else self.condition_mask(node.right, masks, full)
            if right is None:
                return None
            return py.BinOp(left=left, op=py.BitAnd() if node.op == "and" else py.BitOr(), right=right)
        if kind is nodes.BinOp and node.op in ("==", "!="):
            return self.kind_equality(node, masks, full)
        if kind is nodes.Name and type(self.compiler.resolved.get(node)) is Define:
            define = self.compiler.game.defines[self.compiler.resolved[node].name]
            if define.params:
                return None
            return self.condition_mask(kinds.in_cell_context(define.body, self.compiler.facts), masks, full)
        return None

    def kind_mask(self, masks, kind):
        """The mask of one kind (a constant) on the board `masks` reads: read once at the function's
        start when the board's masks are."""
        read = _get(masks, py.Constant(kind))
        if type(masks) is not py.Name:
            return read
        key = (masks.id, kind)
        if key not in self.mask_reads:
            self.mask_reads[key] = f"{masks.id}_{len(self.mask_reads)}"  # a generated name, never the kind's
        return self.hoisted(self.mask_reads[key], read)

    def kind_equality(self, node, masks, full):
        """`kind == v` or `v == kind` (or `!=`), v the same for every cell (a local, a player's
        variable...): the mask of v's kind."""
        resolved = self.compiler.resolved
        for side, other in ((node.left, node.right), (node.right, node.left)):
            resolution = resolved.find(side, Prop) if type(side) is nodes.Name else None
            if resolution is None:
                continue
            if not same_for_every_cell(resolved, other):
                return None  # it reads the cell, or may do work: the list form judges it
            if resolution.name == "kind":
                mask = _get(masks, self.expr(other))
            else:
                by_value = self.kinds_by_value(resolution.name)
                if by_value is None:
                    return None
                mask = _call(_load("kinds_mask"), masks, self.constant(by_value, "g"), self.expr(other))
            return py.BinOp(left=full, op=py.BitXor(), right=mask) if node.op == "!=" else mask
        return None

    def kinds_by_value(self, attribute):
        """{value: kinds whose `attribute` has it} for an attribute no piece changes (an empty cell,
        and a kind without it, have none); None for any other attribute or a value of no set."""
        game = self.compiler.game
        if (attribute not in game.static_attribute_names or attribute in game.variable_attributes
                or attribute in game.mark_names):
            return None
        by_value: dict = {None: [None]}
        try:
            for kind, attrs in game.static_attrs.items():
                by_value.setdefault(attrs.get(attribute), []).append(kind)
        except TypeError:
            return None  # (a list-valued attribute: no key of a table)
        return {value: tuple(kinds) for value, kinds in by_value.items()}


# ------------------------------------------------------------------ conditions the grid decides
#: the cell tables a source may be, as tables per cell of the grid
_GRID_TABLES = {"adjacent": lambda g: g.neighbours, "surrounding": lambda g: g.surrounding,
                "row": lambda g: g.row_cells, "column": lambda g: g.column_cells}
GRID_POSITIONS = ("x", "y", "order")
_COMPARE = {"<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b,
            ">=": lambda a, b: a >= b, "==": lambda a, b: a == b, "!=": lambda a, b: a != b}
_ARITHMETIC = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b}


def _conjuncts(node) -> list:
    if type(node) is nodes.BinOp and node.op == "and":
        return _conjuncts(node.left) + _conjuncts(node.right)
    return [node]


def _judged_by_the_grid(resolved, node, parameter) -> bool:
    """True when `node` reads nothing but numbers and the position (`x`, `y`, `order`) of the cell
    tested and of the source's cell (`c.y` for `column(c)`, `parameter` its local's name)."""
    kind = type(node)
    if kind is nodes.Number:
        return type(node.value) is int
    if kind is nodes.Name:
        return resolved.get(node) in tuple(Prop(p) for p in GRID_POSITIONS)
    if kind is nodes.Attribute:
        return (parameter is not None and node.name in GRID_POSITIONS and type(node.obj) is nodes.Name
                and resolved.get(node.obj) == Local(parameter))
    if kind is nodes.Not:
        return _judged_by_the_grid(resolved, node.operand, parameter)
    if kind is nodes.Negate:
        return _judged_by_the_grid(resolved, node.operand, parameter)
    if kind is nodes.BinOp and (node.op in _COMPARE or node.op in _ARITHMETIC or node.op in ("and", "or")):
        return (_judged_by_the_grid(resolved, node.left, parameter)
                and _judged_by_the_grid(resolved, node.right, parameter))
    return False


def _judge(resolved, grid, node, cell, owner, parameter):
    """The value of `node` (judged by the grid) on grid cell `cell`, the source's cell being `owner`."""
    kind = type(node)
    if kind is nodes.Number:
        return node.value
    if kind is nodes.Name:
        return grid_position(grid, resolved[node].name, cell)
    if kind is nodes.Attribute:
        return grid_position(grid, node.name, owner)
    if kind is nodes.Not:
        return not _judge(resolved, grid, node.operand, cell, owner, parameter)
    if kind is nodes.Negate:
        return -_judge(resolved, grid, node.operand, cell, owner, parameter)
    left = _judge(resolved, grid, node.left, cell, owner, parameter)
    if node.op in ("and", "or"):
        if (node.op == "and") != bool(left):
            return bool(left)
        return bool(_judge(resolved, grid, node.right, cell, owner, parameter))
    right = _judge(resolved, grid, node.right, cell, owner, parameter)
    return (_COMPARE.get(node.op) or _ARITHMETIC[node.op])(left, right)


def grid_position(grid, name, cell) -> int:
    """Position `name` (`x`, `y` or `order`) of grid cell `cell`."""
    return cell if name == "order" else grid.col(cell) if name == "x" else grid.row(cell)
