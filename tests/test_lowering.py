"""Generated code made leaner after it is generated, with nothing shown but the time: a filter kept in a
local and a truth fold a function returns written as statements (interpreter/compiler/lowering.py), and
the bools of tested values left out (interpreter/compiler/truth.py). Same values, same budget spent, same
first error."""

from __future__ import annotations

import ast

import pytest

from boardrule.interpreter.compiler import lowering, pycode, truth
from boardrule.interpreter.compiler.codegen_loops import HELPERS
from boardrule.interpreter.runtime.budget import BudgetError, Meter


def _lowered(source: str) -> str:
    module = ast.Module(body=lowering.lower_filters(ast.parse(source).body, {"cells"}), type_ignores=[])
    return ast.unparse(ast.fix_missing_locations(module))


PLAIN = "x = h_tuple([e for e in charged(ctx, cells, 2, s) if e > a])"
HOISTED = "x = h_tuple([e for h1 in (charged(ctx, cells, 1, s),) if h1 for h2 in (a + 1,) for e in h1 if e > h2])"
NESTED = ("x = h_tuple([e for h1 in (charged(ctx, h_tuple([d for d in charged(ctx, cells, 3, t) if d % 2]), 1, s),)"
          " if h1 for h2 in (a * 2,) for e in h1 if e < h2])")


@pytest.mark.parametrize("source, expected", [
    (PLAIN, "f1 = cells\nctx.meter.left -= h_len(f1) * 2\nif ctx.meter.left < 0:\n    ctx.meter.over(s)\n"
            "x = []\nfor e in f1:\n    if e > a:\n        x.append(e)\nx = h_tuple(x)"),
    # the parts worked out once are worked out only when the source has elements
    (HOISTED, "h1 = cells\nctx.meter.left -= h_len(h1)\nif ctx.meter.left < 0:\n    ctx.meter.over(s)\n"
              "if h1:\n    h2 = a + 1\n    x = []\n    for e in h1:\n        if e > h2:\n            x.append(e)\n"
              "    x = h_tuple(x)\nelse:\n    x = ()"),
    # a filter of a filter: the inner one's elements are a plain list only the outer one reads
    (NESTED, "f1 = cells\nctx.meter.left -= h_len(f1) * 3\nif ctx.meter.left < 0:\n    ctx.meter.over(t)\n"
             "h1 = []\nfor d in f1:\n    if d % 2:\n        h1.append(d)\nctx.meter.left -= h_len(h1)\n"
             "if ctx.meter.left < 0:\n    ctx.meter.over(s)\nif h1:\n    h2 = a * 2\n    x = []\n    for e in h1:\n"
             "        if e < h2:\n            x.append(e)\n    x = h_tuple(x)\nelse:\n    x = ()"),
    # a list its own loops read is replaced once it is built
    ("x = h_tuple([e for e in charged(ctx, cells, 1, s) if e not in x])",
     "f1 = cells\nctx.meter.left -= h_len(f1)\nif ctx.meter.left < 0:\n    ctx.meter.over(s)\nf2 = []\nfor e in f1:\n"
     "    if e not in x:\n        f2.append(e)\nx = h_tuple(f2)"),
    # in a loop's body too
    ("for v in w:\n    " + PLAIN, "for v in w:\n    f1 = cells\n    ctx.meter.left -= h_len(f1) * 2\n"
                                   "    if ctx.meter.left < 0:\n        ctx.meter.over(s)\n"
                                   "    x = []\n    for e in f1:\n        if e > a:\n            x.append(e)\n"
                                   "    x = h_tuple(x)"),
    # anything else is left as it is: a fold, a filter inside an expression, a list of no charged source
    ("x = h_sum((1 for e in charged(ctx, cells, 1, s) if e))", "x = h_sum((1 for e in charged(ctx, cells, 1, s) if e))"),
    ("x = once_each(h_tuple([e for e in charged(ctx, cells, 1, s)]))",
     "x = once_each(h_tuple([e for e in charged(ctx, cells, 1, s)]))"),
    ("x = h_tuple([e for e in cells if e])", "x = h_tuple([e for e in cells if e])"),
])
def test_lowered_forms(source, expected):
    assert _lowered(source) == expected


def test_a_local_only_iterated_and_counted_keeps_a_list():
    module = ast.Module(body=lowering.lower_filters(ast.parse(HOISTED).body, {"cells"}, plain={"x"}), type_ignores=[])
    assert ast.unparse(ast.fix_missing_locations(module)).endswith(
        "if h1:\n    h2 = a + 1\n    x = []\n    for e in h1:\n        if e > h2:\n            x.append(e)\n"
        "else:\n    x = []")


class _Ctx:
    def __init__(self, budget):
        self.meter = Meter(operation=budget)
        self.meter.begin()


def _run(source: str, lower: bool, budget: int, a: int, cells: tuple):
    """(x, the units left) after `source` runs, or (the error's span, None) when it spends the budget."""
    body = ast.parse(source).body
    if lower:
        body = lowering.lower_filters(body, {"cells"})
    body.append(ast.parse("return x, ctx.meter.left").body[0])
    constants = {**HELPERS, "ctx": _Ctx(budget), "cells": cells, "a": a, "s": "span s", "t": "span t"}
    try:  # validated against the whitelist of generated code, as the engine's functions are
        return pycode.make_function("run", [], body, constants)()
    except BudgetError as error:
        return error.span, None


@pytest.mark.parametrize("source", [PLAIN, HOISTED, NESTED])
@pytest.mark.parametrize("budget", [5, 12, 30, 1000])
@pytest.mark.parametrize("a", [0, 3, 9])
@pytest.mark.parametrize("cells", [(), (4,), tuple(range(10))])
def test_lowered_filters_give_the_same_values_units_and_errors(source, budget, a, cells):
    assert _run(source, True, budget, a, cells) == _run(source, False, budget, a, cells)


ANY = "return h_any((e > a for e in charged(ctx, cells, 2, s)))"
ALL = "return h_all((e < h2 for h1 in (charged(ctx, cells, 1, s),) if h1 for h2 in (a + 1,) for e in h1))"
NONE = "return not h_any((e == a for e in charged(ctx, cells, 3, s)))"
LET = ("return ((v := a * 2) or True) and h_any((((w := e + v) or True) and w > 9 for e in charged(ctx, "
       "h_tuple([d for d in charged(ctx, cells, 1, t) if d % 2]), 2, s)))")


@pytest.mark.parametrize("source, expected", [
    (ANY, "f1 = cells\nctx.meter.left -= h_len(f1) * 2\nif ctx.meter.left < 0:\n    ctx.meter.over(s)\n"
          "for e in f1:\n    if e > a:\n        return True\nreturn False"),
    # `all` stops at the first element that fails; the parts worked out once only when there are elements
    (ALL, "h1 = cells\nctx.meter.left -= h_len(h1)\nif ctx.meter.left < 0:\n    ctx.meter.over(s)\n"
          "if h1:\n    h2 = a + 1\n    for e in h1:\n        if not e < h2:\n            return False\n"
          "return True"),
    (NONE, "f1 = cells\nctx.meter.left -= h_len(f1) * 3\nif ctx.meter.left < 0:\n    ctx.meter.over(s)\n"
           "for e in f1:\n    if e == a:\n        return False\nreturn True"),
    # `let` names, outside the fold and in its body, become assignments; a filter as the source a plain list
    (LET, "v = a * 2\nf2 = cells\nctx.meter.left -= h_len(f2)\nif ctx.meter.left < 0:\n    ctx.meter.over(t)\n"
          "f1 = []\nfor d in f2:\n    if d % 2:\n        f1.append(d)\nctx.meter.left -= h_len(f1) * 2\n"
          "if ctx.meter.left < 0:\n"
          "    ctx.meter.over(s)\nfor e in f1:\n    w = e + v\n    if w > 9:\n        return True\nreturn False"),
    ("return ((v := a + 1) or True) and v > 3", "v = a + 1\nreturn v > 3"),
    # anything else is left as it is: a fold inside an expression, a fold of a list, a count
    ("return 1 + h_any((e for e in charged(ctx, cells, 1, s)))", "return 1 + h_any((e for e in charged(ctx, cells, 1, s)))"),
    ("return h_any(cells)", "return h_any(cells)"),
    ("return h_sum((1 for e in charged(ctx, cells, 1, s) if e))", "return h_sum((1 for e in charged(ctx, cells, 1, s) if e))"),
])
def test_returned_folds_become_loops_that_stop_early(source, expected):
    assert _lowered(source) == expected


CHECKED = "x = a + b if -9007199254740991 <= a + b <= 9007199254740991 else out_of_range(a + b, s)"


@pytest.mark.parametrize("source, expected", [
    # the range check of a sum written out three times (as in a loop's iterable) holds the sum once
    (CHECKED, "x = f1 if -9007199254740991 <= (f1 := (a + b)) <= 9007199254740991 else out_of_range(f1, s)"),
    # inside a comprehension, where `:=` may not be, it stays as it is
    ("x = [e for e in y if (a + e if -9007199254740991 <= a + e <= 9007199254740991 else out_of_range(a + e, s)) > 2]",
     "x = [e for e in y if (a + e if -9007199254740991 <= a + e <= 9007199254740991 else out_of_range(a + e, s)) > 2]"),
])
def test_a_checked_sum_is_worked_out_once_outside_comprehensions(source, expected):
    body = _negative_constants(ast.parse(source)).body
    module = ast.Module(body=lowering.lower_filters(body, set()), type_ignores=[])
    assert ast.unparse(ast.fix_missing_locations(module)) == expected


def _negative_constants(tree):
    """`-N` as the one constant generated code holds (Python's parser reads it as a negation)."""
    class Fold(ast.NodeTransformer):
        def visit_UnaryOp(self, node):
            if type(node.op) is ast.USub and type(node.operand) is ast.Constant:
                return ast.Constant(-node.operand.value)
            return self.generic_visit(node)
    return Fold().visit(tree)


@pytest.mark.parametrize("a", [0, 9007199254740990, -9007199254740991])
def test_a_checked_sum_held_once_gives_the_same_value_and_error(a):
    def run(lower):
        body = _negative_constants(ast.parse(CHECKED + "\nreturn x")).body
        if lower:
            body = lowering.lower_filters(body, set())
        constants = {**HELPERS, "a": a, "b": 2, "s": "span s", "out_of_range": _out_of_range}
        try:
            return pycode.make_function("run", [], body, constants)()
        except ValueError as error:
            return str(error)
    assert run(True) == run(False)


def _out_of_range(value, span):
    raise ValueError(f"{value} out of range at {span}")


def _run_returned(source: str, lower: bool, budget: int, a: int, cells: tuple):
    """(the value returned, the units left) after `source` runs, or (the error's span, None)."""
    body = ast.parse(source).body
    if lower:
        body = lowering.lower_filters(body, {"cells"})
    ctx = _Ctx(budget)
    constants = {**HELPERS, "ctx": ctx, "cells": cells, "a": a, "s": "span s", "t": "span t"}
    try:
        return pycode.make_function("run", [], body, constants)(), ctx.meter.left
    except BudgetError as error:
        return error.span, None


@pytest.mark.parametrize("source", [ANY, ALL, NONE, LET])
@pytest.mark.parametrize("budget", [5, 12, 30, 1000])
@pytest.mark.parametrize("a", [0, 3, 9])
@pytest.mark.parametrize("cells", [(), (4,), (9, 2), tuple(range(10))])
def test_returned_folds_give_the_same_values_units_and_errors(source, budget, a, cells):
    assert _run_returned(source, True, budget, a, cells) == _run_returned(source, False, budget, a, cells)


@pytest.mark.parametrize("source, expected", [
    ("if (True if a or b else False):\n    pass", "if a or b:\n    pass"),
    # the operands of a tested `or`, `and` and `not` are tested too
    ("if not (True if a and (True if b or c else False) else False):\n    pass", "if not (a and (b or c)):\n    pass"),
    # a filter's condition and what `any` and `all` run over
    ("x = [e for e in y if (True if e or b else False)]", "x = [e for e in y if e or b]"),
    ("x = h_any(((True if e and b else False) for e in y))", "x = h_any((e and b for e in y))"),
    # a value that is kept keeps its bool
    ("x = (True if a or b else False)", "x = True if a or b else False"),
    ("x = h_sum(((True if e or b else False) for e in y))", "x = h_sum((True if e or b else False for e in y))"),
    ("x = f(True if a or b else False)", "x = f(True if a or b else False)"),
])
def test_tested_values_lose_their_bools(source, expected):
    assert ast.unparse(truth.test_truths(ast.parse(source))) == expected
