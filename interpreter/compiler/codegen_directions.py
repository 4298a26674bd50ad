"""The generated uses of directions: `step(c, d)`, `step(c, d, n)`, `ray(c, d)`, with or without
`while = C`, and `opposite(d)` (an entry of the grid's table of opposites).

Each becomes a call of a plain helper below, with the cell, the direction's
table (directions.py: one per direction, indexed by encoded cell) and the
count as Python values; a ray's `while` condition is a generated `lambda`
whose argument is `it`, each cell of the ray in turn (a sure cell, so its
kind and the cell tables are read in place). Where a closure inside the
condition would read the context's `it`, the whole ray is its closure
(directions.py), as a filter's loop is. `count(ray(...))` calls the ray's
counting twin, which walks the same cells and charges the same work but
makes no list. The semantics are directions.py's,
node by node: the reference evaluator checks both (tests/test_reference.py).
"""

from __future__ import annotations

import ast as py

from boardrule.dsl import ast as nodes
from boardrule.dsl.resolution import Prop
from boardrule.interpreter.compiler.rewrites import kinds
from boardrule.interpreter.compiler.codegen_masks import same_for_every_cell
from boardrule.interpreter.compiler.directions import opposites
from boardrule.interpreter.runtime.values import CELL_BITS, CELL_MASK, RuleError


# ------------------------------------------------------------------ helpers the generated code calls
def _step_from(table, cell):
    return None if cell is None else table[cell]


def _steps_from(ctx, table, cell, count, span):
    if count < 0:
        raise RuleError(f"`step` takes 0 or more steps, not {count}", span)
    meter = ctx.meter
    meter.left -= count
    if meter.left < 0:
        meter.over(span)
    for _ in range(count):
        if cell is None:
            break
        cell = table[cell]
    return cell


def _ray_to_edge(ctx, table, cell, span):
    out = []
    cell = None if cell is None else table[cell]
    while cell is not None:
        out.append(cell)
        cell = table[cell]
    meter = ctx.meter  # Meter.charge, written out: a ray is asked in the hottest loops
    meter.left -= len(out) + 1
    if meter.left < 0:
        meter.over(span)
    return tuple(out)


def _ray_while(ctx, table, cell, holds, span):
    out = []
    cell = None if cell is None else table[cell]
    while cell is not None and holds(cell):
        out.append(cell)
        cell = table[cell]
    meter = ctx.meter
    meter.left -= len(out) + 1
    if meter.left < 0:
        meter.over(span)
    return tuple(out)


def _ray_in_kinds(ctx, table, cell, members, outside, span):
    """`ray(c, d, while = C)`, C decided by the kind alone: a kind in `members` (not in it, `outside`); for
    `kind == v`, members is `(v,)`, so the walk makes no rule call per cell."""
    out = []
    if cell is not None:
        kinds = ctx.state.kind[cell >> CELL_BITS]
        cell = table[cell]
        while cell is not None and (kinds[cell & CELL_MASK] in members) is not outside:
            out.append(cell)
            cell = table[cell]
    meter = ctx.meter
    meter.left -= len(out) + 1
    if meter.left < 0:
        meter.over(span)
    return tuple(out)


def _ray_count_to_edge(ctx, table, cell, span):
    """`count(ray(c, d))`: the cells of the ray counted as they are walked, no list made (the same
    charge to the work budget as the ray itself). Each walker charges the budget written out, as the
    rays above do: a shared charging function costs gomoku 0.4 M of its 0.6 M instructions saved."""
    count = 0
    cell = None if cell is None else table[cell]
    while cell is not None:
        count += 1
        cell = table[cell]
    meter = ctx.meter
    meter.left -= count + 1
    if meter.left < 0:
        meter.over(span)
    return count


def _ray_count_while(ctx, table, cell, holds, span):
    count = 0
    cell = None if cell is None else table[cell]
    while cell is not None and holds(cell):
        count += 1
        cell = table[cell]
    meter = ctx.meter
    meter.left -= count + 1
    if meter.left < 0:
        meter.over(span)
    return count


def _ray_count_in_kinds(ctx, table, cell, members, outside, span):
    count = 0
    if cell is not None:
        kinds = ctx.state.kind[cell >> CELL_BITS]
        cell = table[cell]
        while cell is not None and (kinds[cell & CELL_MASK] in members) is not outside:
            count += 1
            cell = table[cell]
    meter = ctx.meter
    meter.left -= count + 1
    if meter.left < 0:
        meter.over(span)
    return count


HELPERS = {"step_from": _step_from, "steps_from": _steps_from, "ray_to_edge": _ray_to_edge, "ray_while": _ray_while,
           "ray_in_kinds": _ray_in_kinds, "ray_count_to_edge": _ray_count_to_edge,
           "ray_count_while": _ray_count_while, "ray_count_in_kinds": _ray_count_in_kinds}
#: a ray's helper -> the helper that counts its cells instead of listing them (`count(ray(...))`)
_COUNTING = {"ray_to_edge": "ray_count_to_edge", "ray_while": "ray_count_while", "ray_in_kinds": "ray_count_in_kinds"}


def _call(name: str, *args) -> py.Call:
    return py.Call(func=py.Name(id=name, ctx=py.Load()), args=list(args), keywords=[])


class DirectionGeneration:
    """The direction-walking half of codegen.RuleFunction (see the module's docstring)."""

    def direction_call(self, node, name):
        """`step` or `ray` generated, or None (then its closure runs)."""
        kwargs = {k.name: k.value for k in node.kwargs}
        if name == "step" and not kwargs:
            return self.step_call(node)
        if name == "ray" and len(node.args) == 2 and set(kwargs) <= {"while"}:
            return self.ray_call(node, kwargs.get("while"))
        if name == "opposite" and len(node.args) == 1:
            other = self.constant(opposites(self.compiler.game.grid), "g")
            return py.Subscript(value=other, slice=self.expr(node.args[0]), ctx=py.Load())
        return None

    def kind_test(self, condition):
        """A ray's `while` decided by the kind alone, as (helper, its arguments): `kind == v` or
        `kind != v`, v the same for every cell, or a condition on constant kinds; else None."""
        resolved = self.compiler.resolved
        fixed = kinds.kind_set(resolved, condition)  # the one form of a condition the kind alone decides
        if fixed is not None:
            members, outside = fixed
            return "ray_in_kinds", self.constant(members, "g"), py.Constant(outside)
        if type(condition) is nodes.BinOp and condition.op in ("==", "!="):
            for side, other in ((condition.left, condition.right), (condition.right, condition.left)):
                if (type(side) is nodes.Name and resolved.get(side) == Prop("kind")
                        and same_for_every_cell(resolved, other)):
                    members = py.Tuple(elts=[self.expr(other)], ctx=py.Load())
                    return "ray_in_kinds", members, py.Constant(condition.op == "!=")
        return None

    def direction_table(self, direction) -> py.expr:
        tables = self.constant(self.compiler.game.direction_tables, "g")
        return py.Subscript(value=tables, slice=self.expr(direction), ctx=py.Load())

    def step_call(self, node):
        cell, direction = node.args[:2]
        table = self.direction_table(direction)
        if len(node.args) == 2:
            if self.sure_cell_value(cell):
                return py.Subscript(value=table, slice=self.expr(cell), ctx=py.Load())
            return _call("step_from", table, self.expr(cell))
        return _call("steps_from", py.Name(id="ctx", ctx=py.Load()), table, self.expr(cell),
                     self.expr(node.args[2]), self.constant(node.span, "s"))

    def ray_call(self, node, condition):
        cell, direction = node.args
        ctx, span = py.Name(id="ctx", ctx=py.Load()), self.constant(node.span, "s")
        table, start = self.direction_table(direction), self.expr(cell)
        if condition is None:
            return _call("ray_to_edge", ctx, table, start, span)
        by_kind = self.kind_test(condition)
        if by_kind is not None:
            return _call(by_kind[0], ctx, table, start, *by_kind[1:], span)
        holds = self.element_lambda(condition)
        if holds is None:
            return None
        return _call("ray_while", ctx, table, start, holds, span)

    def ray_count(self, listed: py.expr):
        """`count(...)` of a generated ray (`count(ray(...))`, or of a definition written out as one):
        the ray's call with the helper that counts the cells it walks instead of listing them;
        None for any other list."""
        if type(listed) is not py.Call or type(listed.func) is not py.Name or listed.func.id not in _COUNTING:
            return None
        listed.func = py.Name(id=_COUNTING[listed.func.id], ctx=py.Load())
        return listed
