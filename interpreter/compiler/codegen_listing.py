"""An action's moves listed by one generated function: a loop per parameter, its values and `when:`
written out with the parameters as Python locals.

The lister of `flow._parameter_lister` (a closure per parameter, each value
put in the context's locals, each list and condition a call) does the same
work; this module writes it as one function, so that a parameter's list
that reads an earlier parameter (`to: forward(from) where ...`), and a
definition given a parameter, are generated with that parameter a local of
the function (a definition small enough is written out in place):

    def lister(ctx, env, seat, args, found):
        mine = remembered_moves(made, seat)    # the moves made before, per values
        listed0 = <the first parameter's list>
        <charge the work budget: one unit per value>
        for value0 in listed0:
            if not <when, once it reads the first parameter alone>: continue
            listed1 = <the second parameter's list, reading value0>
            <charge: per value, 1 + the weight of a `when:` judged per move>
            for value1 in listed1:
                if not <when, reading both>: continue
                key = (value0, value1)
                move = mine.get(key)
                if move is None: move = new_move(mine, seat, key)
                found.append(move)

The order of the moves, the budget charged and the points where `when:` is
judged (`CompiledAction.when_at`) are those of the closure lister, which
stays the one of the closures-only backend: tests/test_codegen.py compares
the two through whole games. Like every generated function it is built as a
syntax tree and compiled by pycode.py.
"""

from __future__ import annotations

import ast as py

from boardrule.interpreter.compiler import pycode
from boardrule.interpreter.compiler.codegen import RuleFunction
from boardrule.interpreter.runtime.budget import weight
from boardrule.interpreter.runtime.moves import Move, append_moves_of_values, remembered_moves

def generate_lister(compiler, action, params, distinct):
    """`lister(ctx, env, seat, args, found)` for `action` (a CompiledAction being built): `params`
    its (name, domain node) pairs, `distinct[i]` True when parameter i's list never holds a value
    twice (else its values are taken once each, as game._once_each does)."""
    rule = RuleFunction(compiler)
    name = action.name

    def new_move(mine, seat, key):  # the key is the values
        move = mine[key] = Move(seat, name, key)
        return move

    rule.constants.update(made={}, remembered_moves=remembered_moves, new_move=new_move,  # made: seat -> moves
                          append_moves_of_values=append_moves_of_values, once_each=once_each)
    listing = _Listing(rule, action, params, distinct)
    body = [_assign("mine", _call("remembered_moves", _load("made"), _load("seat")))] + listing.level(0)
    function_body = rule.prologue_statements() + body
    statements = _meter_read_once(rule.finished(function_body))
    return pycode.make_function("lister", ["ctx", "env", "seat", "args", "found"], statements, rule.constants)


def _meter_read_once(statements: list) -> list:
    """The lister's statements with the work budget's meter read once, into the local `meter`: a
    listing charges it for every value of every parameter, and the meter stays the one of the
    context throughout."""
    found = False
    for statement in statements:
        for node in py.walk(statement):
            for field, value in py.iter_fields(node):
                if _is_meter(value):
                    setattr(node, field, _load("meter"))
                    found = True
    return [_assign("meter", py.Attribute(value=_load("ctx"), attr="meter", ctx=py.Load()))] + statements if found \
        else statements


def _is_meter(node) -> bool:
    return (type(node) is py.Attribute and node.attr == "meter" and type(node.ctx) is py.Load
            and type(node.value) is py.Name and node.value.id == "ctx")


def once_each(values):
    """A parameter's values with each one once, in their order (see game._once_each)."""
    if len(values) < 2:
        return values
    try:
        if len(set(values)) == len(values):
            return values
    except TypeError:  # a value that cannot be hashed: compared one by one
        kept = []
        for value in values:
            if value not in kept:
                kept.append(value)
        return tuple(kept)
    return tuple(dict.fromkeys(values))


class _Listing:
    """The statements of one lister, a parameter at a time."""

    def __init__(self, rule, action, params, distinct):
        self.rule, self.action, self.params, self.distinct = rule, action, params, distinct
        self.last = len(params) - 1
        self.sure = rule.compiler.sure_locals
        self.when = action.when_node
        self.when_at = action.when_at if action.when_node is not None else None

    def level(self, index) -> list:
        """Parameter `index`'s list, its charge and its loop (the earlier ones are locals already)."""
        rule, (param, domain) = self.rule, self.params[index]
        values = f"listed{index}"
        rule.plain_lists.add(values)  # (only iterated and counted here: a list serves as well as a tuple)
        listed = rule.expr(rule.compiler.rewritten(domain))
        if not self.distinct[index]:
            listed = _call("once_each", listed)
        final = self.when is not None and index == self.last and self.when_at == self.last + 1
        cost = 1 + (weight(self.when) if final else 0) if index == self.last else 1
        statements = [_assign(values, listed), *self.charge(values, cost, domain.span)]
        value = f"value{index}"
        rule.locals = {**rule.locals, param: (_load(value), param in self.sure)}
        if self.last == 0 and not final:  # every value makes a move: one helper call takes them all
            statements.append(py.Expr(value=_call("append_moves_of_values", _load("found"), _load("mine"),
                                                  _load("seat"), py.Constant(self.action.name), _load(values))))
            return statements
        inner = []
        if final:
            inner.append(self.unless_when(py.Continue()))
        if index == self.last:
            inner.extend(self.found_move())
        else:
            if self.when is not None and self.when_at == index + 1:
                inner.append(self.unless_when(py.Continue()))
            inner.extend(self.level(index + 1))
        statements.append(py.For(target=py.Name(id=value, ctx=py.Store()), iter=_load(values), body=inner,
                                 orelse=[]))
        return statements

    def unless_when(self, leave) -> py.stmt:
        test = self.rule.expr(self.rule.compiler.rewritten(self.when))
        return py.If(test=py.UnaryOp(op=py.Not(), operand=test), body=[leave], orelse=[])

    def charge(self, values, cost, span) -> list:
        """`ctx.meter.left -= len(values) * cost`, and `over` once the budget is spent."""
        meter = py.Attribute(value=_load("ctx"), attr="meter", ctx=py.Load())
        units = _call("h_len", _load(values))
        if cost != 1:
            units = py.BinOp(left=units, op=py.Mult(), right=py.Constant(cost))
        spend = py.AugAssign(target=py.Attribute(value=meter, attr="left", ctx=py.Store()), op=py.Sub(), value=units)
        spent = py.Compare(left=py.Attribute(value=meter, attr="left", ctx=py.Load()), ops=[py.Lt()],
                           comparators=[py.Constant(0)])
        over = py.Expr(value=py.Call(func=py.Attribute(value=meter, attr="over", ctx=py.Load()),
                                     args=[self.rule.constant(span, "s")], keywords=[]))
        return [spend, py.If(test=spent, body=[over], orelse=[])]

    def found_move(self) -> list:
        """The move of the values chosen: made once per seat and values, then found again."""
        # (an action of one parameter without a `when:` per move takes all its values at once: level)
        key = py.Tuple(elts=[_load(f"value{i}") for i in range(self.last + 1)], ctx=py.Load())
        find = py.Call(func=py.Attribute(value=_load("mine"), attr="get", ctx=py.Load()), args=[_load("key")],
                       keywords=[])
        missing = py.Compare(left=_load("move"), ops=[py.Is()], comparators=[py.Constant(None)])
        make = _assign("move", _call("new_move", _load("mine"), _load("seat"), _load("key")))
        keep = py.Expr(value=py.Call(func=py.Attribute(value=_load("found"), attr="append", ctx=py.Load()),
                                     args=[_load("move")], keywords=[]))
        return [_assign("key", key), _assign("move", find), py.If(test=missing, body=[make], orelse=[]), keep]


def _load(name):
    return py.Name(id=name, ctx=py.Load())


def _assign(name, value):
    return py.Assign(targets=[py.Name(id=name, ctx=py.Store())], value=value)


def _call(name, *args):
    return py.Call(func=_load(name), args=list(args), keywords=[])
