"""Effects written out: a block of simple statements generated as one Python function.

A block whose statements are all of the kinds below (as most actions' effects
are: take pieces off, put one down, set a variable, under conditions) becomes
one function `effect(ctx)`, its expressions written in place by the rule
generator (codegen.py) instead of a closure per statement and per expression:

* `remove CELLS` (without `from`): the helper `remove_cells`;
* `place K at C` (without attributes): the helper `place_piece`, which
  checks, places and fires the `placed` event as the closure does;
* `set NAME = V`, `NAME += V` and `NAME -= V` of a global variable or of the
  acting player's own (the helper `change_by` checks the range of numbers);
* `score V` with a label written as text, or none;
* `if C { ... } elif ... else { ... }` and `for x in L { ... }` of such
  statements (the loop's helpers check its length, charge its work, make a
  player of the list `me` and give the name back after, as the closure does).

A block holding any other statement (a choice, a draw, a `let`, a piece
placed with attributes...) is compiled by effects.py as before. What a rule reads at its start (the
boards' masks, the acting player's variables: codegen.py's prologue) is read
again before each statement, as the state changes between them. Same
statements in the same order, the same helpers' checks and messages: the
same state, work and errors as the closures (tests/test_codegen_effects.py).
"""

from __future__ import annotations

import ast as py

from boardrule.dsl import ast as nodes
from boardrule.dsl.limits import MAX_NUMBER, out_of_range_message
from boardrule.dsl.resolution import Global, PlayerVar
from boardrule.interpreter.compiler import pycode
from boardrule.interpreter.compiler.effects import MAX_LOOP, PLACED, UNSET, fire, put_back
from boardrule.interpreter.runtime.budget import weight
from boardrule.interpreter.runtime.state import set_kind
from boardrule.interpreter.runtime.values import CELL_BITS, CELL_MASK, Player, RuleError


# ------------------------------------------------------------------ helpers the generated code calls
def _remove_cells(state, value):
    """`remove CELLS`: every cell of the value (one cell or a list of them) cleared (effects.clear_cell,
    written out)."""
    for cell in (value if isinstance(value, tuple) else (value,)):
        board, index = cell >> CELL_BITS, cell & CELL_MASK
        set_kind(state, board, index, None)
        state.owner[board][index] = None
        state.attrs[board].pop(index, None)
        state.held[board].pop(index, None)


def _place_piece(ctx, what, cell, span):
    """`place K at C`, as effects.py's closure places it."""
    if what is None or cell is None:
        raise RuleError("`place` needs a piece and a cell", span)
    game = ctx.game
    if what not in game.static_attrs:
        raise RuleError(f"`{what}` is not a piece kind, so it cannot be placed", span)
    board, index = cell >> CELL_BITS, cell & CELL_MASK
    state = ctx.state
    if what in game.token_kinds:
        state.tokens[board][index] = state.tokens[board].get(index, ()) + (what,)
        return
    if state.kind[board][index] is not None:
        raise RuleError(f"{game.grid.name(index)} already holds a piece", span)
    set_kind(state, board, index, what)
    state.owner[board][index] = ctx.me
    if PLACED in game.triggers:  # most packs have no piece that listens
        fire(ctx, PLACED, {"kind": what, "cell": cell, "player": ctx.me})


def _change_by(old, by, sign, span):
    """`NAME += V` (sign 1) or `NAME -= V` (sign -1), as effects.py's closure changes it."""
    result = (old or 0) + sign * by
    if not -MAX_NUMBER <= result <= MAX_NUMBER:
        raise RuleError(out_of_range_message(str(result)), span)
    return result


def _loop_start(ctx, items, var, cost, span):
    """Before `for var in items`: its length checked, its work charged; what the loop changes, saved."""
    if len(items) > MAX_LOOP:
        raise RuleError(f"`for` over {len(items)} elements; the limit is {MAX_LOOP}", span)
    ctx.meter.charge(len(items) * cost, span)
    return ctx.me, ctx.board, ctx.env.get(var, UNSET)


def _loop_item(ctx, var, item):
    ctx.env[var] = item
    if isinstance(item, Player):
        ctx.for_player(item)  # looping over players makes each one `me`


def _loop_end(ctx, var, saved):
    me, board, value = saved
    put_back(ctx.env, var, value)
    ctx.me, ctx.board = me, board


HELPERS = {"remove_cells": _remove_cells, "place_piece": _place_piece, "change_by": _change_by,
           "loop_start": _loop_start, "loop_item": _loop_item, "loop_end": _loop_end}


def _load(name: str) -> py.Name:
    return py.Name(id=name, ctx=py.Load())


def _attr(value: py.expr, name: str, store: bool = False) -> py.Attribute:
    return py.Attribute(value=value, attr=name, ctx=py.Store() if store else py.Load())


def _call(name: str, *args) -> py.Expr:
    return py.Expr(value=py.Call(func=_load(name), args=list(args), keywords=[]))


# ------------------------------------------------------------------ which blocks
def writable(compiler, statements) -> bool:
    """True when every statement of the block (and of its branches) is of a kind written here."""
    return all(_writable(compiler, s) for s in statements)


def _writable(compiler, statement) -> bool:
    kind = type(statement)
    if kind is nodes.Remove:
        return statement.source is None
    if kind is nodes.Place:
        return not statement.attributes
    if kind in (nodes.Set, nodes.Change):
        found = compiler.resolved.get(statement.target)
        return statement.target.index is None and (type(found) is Global or found == PlayerVar())
    if kind is nodes.Score:
        return statement.label is None or isinstance(statement.label, str)
    if kind is nodes.If:
        return all(writable(compiler, body) for _, body in statement.branches) and writable(
            compiler, statement.otherwise)
    if kind is nodes.For:
        return writable(compiler, statement.body)
    return False


# ------------------------------------------------------------------ generation
def generate_effect(compiler, statements):
    """`effect(ctx)` for a block `writable` says is, its statements written out in order."""
    from boardrule.interpreter.compiler.codegen import RuleFunction
    rule = RuleFunction(compiler)
    rule.constants.update(HELPERS)
    body = _block(rule, statements) or [py.Pass()]
    return pycode.make_function("effect", ["ctx"], rule.finished(body), rule.constants)


def _block(rule, statements) -> list:
    out = []
    for statement in statements:
        out.extend(_statement(rule, statement))
    return out


def _expressions(rule, *parts):
    """(what the rule reads first, as statements; each part written out): read afresh for each statement."""
    rule.prologue, rule.mask_reads = {}, {}
    compiler = rule.compiler
    values = [rule.expr(compiler.rewritten(part)) for part in parts]
    first = rule.prologue_statements()
    rule.prologue, rule.mask_reads = {}, {}
    return first, values


def _statement(rule, statement) -> list:
    kind = type(statement)
    if kind is nodes.If:
        return _if(rule, list(statement.branches), statement.otherwise)
    if kind is nodes.For:
        return _for(rule, statement)
    if kind is nodes.Remove:
        first, (cells,) = _expressions(rule, statement.target)
        state = _attr(_load("ctx"), "state")
        return first + [_call("remove_cells", state, cells)]
    if kind is nodes.Place:
        first, (what, cell) = _expressions(rule, statement.kind, statement.at)
        return first + [_call("place_piece", _load("ctx"), what, cell, rule.constant(statement.span, "s"))]
    first, (value,) = _expressions(rule, statement.value)
    state = _attr(_load("ctx"), "state")
    if kind is nodes.Score:  # the points worked out, then the line of the score sheet they go on
        held = rule.temporary("v")
        points = py.Subscript(value=_attr(state, "points"), slice=_attr(_load("ctx"), "me"), ctx=py.Load())
        line = py.List(elts=[py.Constant(statement.label or "points"), _load(held)], ctx=py.Load())
        return first + [py.Assign(targets=[py.Name(id=held, ctx=py.Store())], value=value),
                        py.Expr(value=py.Call(func=_attr(points, "append"), args=[line], keywords=[]))]
    name = statement.target.name

    def table():
        if type(rule.compiler.resolved.get(statement.target)) is Global:
            return _attr(state, "vars")
        return py.Subscript(value=_attr(state, "pvars"), slice=_attr(_load("ctx"), "me"), ctx=py.Load())
    if kind is nodes.Change:  # the old value read, then V worked out, as the closure reads them
        old = py.Subscript(value=table(), slice=py.Constant(name), ctx=py.Load())
        sign = py.Constant(1 if statement.op == "+=" else -1)
        value = py.Call(func=_load("change_by"), args=[old, value, sign, rule.constant(statement.span, "s")],
                        keywords=[])
    target = py.Subscript(value=table(), slice=py.Constant(name), ctx=py.Store())
    return first + [py.Assign(targets=[target], value=value)]


def _if(rule, branches, otherwise) -> list:
    """`if C1 {...} else if C2 {...} else {...}`: each condition worked out only when the ones before
    it did not hold (what it reads first, too)."""
    if not branches:
        return _block(rule, otherwise)
    (condition, body), rest = branches[0], branches[1:]
    first, (test,) = _expressions(rule, condition)
    then = _block(rule, body) or [py.Pass()]
    orelse = _if(rule, rest, otherwise)
    return first + [py.If(test=test, body=then, orelse=orelse)]


def _for(rule, statement) -> list:
    """`for x in L { ... }`: L worked out, the loop started, each element bound, the body, the loop ended."""
    first, (items,) = _expressions(rule, statement.source)
    held, saved, item = rule.temporary("v"), rule.temporary("v"), rule.temporary("v")
    var = py.Constant(statement.var)
    start = py.Call(func=_load("loop_start"), args=[_load("ctx"), _load(held), var,
                                                    py.Constant(weight(statement.body)),
                                                    rule.constant(statement.span, "s")], keywords=[])
    body = [_call("loop_item", _load("ctx"), var, _load(item))] + _block(rule, statement.body)
    return first + [py.Assign(targets=[py.Name(id=held, ctx=py.Store())], value=items),
                    py.Assign(targets=[py.Name(id=saved, ctx=py.Store())], value=start),
                    py.For(target=py.Name(id=item, ctx=py.Store()), iter=_load(held), body=body, orelse=[]),
                    _call("loop_end", _load("ctx"), var, _load(saved))]
