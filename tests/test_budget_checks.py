"""Budget checks put off over code that cannot fail (interpreter/compiler/budget_checks.py): the same units
spent, the same value, the same first error and span, with one check fewer."""

from __future__ import annotations

import ast

import pytest

from boardrule.interpreter.compiler import budget_checks, pycode
from boardrule.interpreter.compiler.codegen_loops import HELPERS
from boardrule.interpreter.runtime.budget import BudgetError, Meter


def _put_off(source: str) -> str:
    module = ast.Module(body=budget_checks.put_off_checks(ast.parse(source).body), type_ignores=[])
    return ast.unparse(ast.fix_missing_locations(module))


def _charge(units: str, span: str) -> str:
    return f"ctx.meter.left -= {units}\nif ctx.meter.left < 0:\n    ctx.meter.over({span})\n"


FILTERED = (_charge("h_len(cells) * 3", "s") + "x = []\nfor e in cells:\n    if kinds[e] is None or kinds[e] == a:\n"
            "        x.append(e)\n" + _charge("h_len(x)", "t"))
BRANCHED = (_charge("h_len(cells) * 2", "s") + "if cells:\n    h = kinds[0]\n    x = []\n    for e in cells:\n"
            "        if kinds[e] != h:\n            x.append(e)\nelse:\n    x = []\n" + _charge("h_len(x)", "t"))
IN_A_LOOP = "x = ()\nfor v in cells:\n" + "\n".join("    " + line for line in FILTERED.splitlines()) + "\n"
THREE = FILTERED + "y = x\n" + _charge("h_len(y) * 2", "u")
CALLING = _charge("h_len(cells)", "s") + "x = helper(cells)\n" + _charge("h_len(x)", "t")
ADDING = _charge("h_len(cells)", "s") + "x = [a + 1]\n" + _charge("h_len(x)", "t")
FOUND = _charge("h_len(cells)", "s") + "for e in cells:\n    found.append(e)\nx = cells\n" + _charge("h_len(x)", "t")
WORKED_OUT = _charge("h_len(cells)", "s") + "x = cells\n" + _charge("h_len(x) + 1", "t")


@pytest.mark.parametrize("source, expected", [
    (FILTERED, "ctx.meter.left -= h_len(cells) * 3\nx = []\nfor e in cells:\n    if kinds[e] is None or kinds[e] == a:\n"
               "        x.append(e)\nctx.meter.left -= h_len(x)\nif ctx.meter.left < 0:\n"
               "    ctx.meter.over(s if ctx.meter.left + h_len(x) < 0 else t)"),
    # branches and the lists they make; a pair in a loop's body
    (BRANCHED, "ctx.meter.left -= h_len(cells) * 2\nif cells:\n    h = kinds[0]\n    x = []\n    for e in cells:\n"
               "        if kinds[e] != h:\n            x.append(e)\nelse:\n    x = []\nctx.meter.left -= h_len(x)\n"
               "if ctx.meter.left < 0:\n    ctx.meter.over(s if ctx.meter.left + h_len(x) < 0 else t)"),
    (IN_A_LOOP, "x = ()\nfor v in cells:\n    ctx.meter.left -= h_len(cells) * 3\n    x = []\n    for e in cells:\n"
                "        if kinds[e] is None or kinds[e] == a:\n            x.append(e)\n    ctx.meter.left -= h_len(x)\n"
                "    if ctx.meter.left < 0:\n        ctx.meter.over(s if ctx.meter.left + h_len(x) < 0 else t)"),
    # pairs only: the third charge keeps its own check
    (THREE, _put_off(FILTERED) + "\ny = x\n" + _charge("h_len(y) * 2", "u").rstrip("\n")),
    # a call, arithmetic, an append to a list the code did not make, units not a count: kept as they are
    (CALLING, CALLING.rstrip("\n")),
    (ADDING, ADDING.rstrip("\n")),
    (FOUND, FOUND.rstrip("\n")),
    (WORKED_OUT, WORKED_OUT.rstrip("\n")),
])
def test_put_off_forms(source, expected):
    assert _put_off(source) == expected


class _Ctx:
    def __init__(self, budget):
        self.meter = Meter(operation=budget)
        self.meter.begin()


def _run(source: str, put_off: bool, budget: int, a, cells: tuple):
    """(x, the units left) after `source` runs, or (the error's span, the units left) when it spends the
    budget."""
    body = ast.parse(source).body
    if put_off:
        body = budget_checks.put_off_checks(body)
    body.append(ast.parse("return x, ctx.meter.left").body[0])
    ctx = _Ctx(budget)
    kinds = [None if c % 3 == 0 else c % 2 for c in range(12)]
    constants = {**HELPERS, "ctx": ctx, "cells": cells, "kinds": kinds, "a": a, "s": "span s", "t": "span t",
                 "u": "span u"}
    try:  # validated against the whitelist of generated code, as the engine's functions are
        return pycode.make_function("run", [], body, constants)()
    except BudgetError as error:
        return error.span, ctx.meter.left


@pytest.mark.parametrize("source", [FILTERED, BRANCHED, IN_A_LOOP, THREE])
@pytest.mark.parametrize("budget", [1, 3, 5, 9, 12, 20, 40, 1000])
@pytest.mark.parametrize("a", [0, 1])
@pytest.mark.parametrize("cells", [(), (4,), (1, 2, 3), tuple(range(10))])
def test_put_off_checks_give_the_same_values_units_and_errors(source, budget, a, cells):
    assert _run(source, True, budget, a, cells) == _run(source, False, budget, a, cells)
