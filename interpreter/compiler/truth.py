"""Conditions that only their truth is asked of, without the bools they are made into.

The language's `and`, `or` and conditions give true or false, never one of
their operands, so the generator writes a boolean operation whose value is
kept as `(True if A or B else False)` (codegen.py). Where the value is only
tested (the test of an `if`, a filter's condition, what `any` and `all`
run over, the operand of `not`, an operand of `and`/`or` that is itself
only tested), its truth is that of `A or B`: this pass, run on each
generated function, drops the wrapper there. The values, and so the
moves, scores and errors, are the same; only the work differs.

    >>> import ast
    >>> tree = ast.parse("if (True if a or (True if b and c else False) else False): x = 1")
    >>> print(ast.unparse(test_truths(tree)))
    if a or (b and c):
        x = 1
"""

from __future__ import annotations

import ast as py

#: the generated code's names of `any` and `all` (codegen_loops.py), which ask only the truth of what they run over
TRUTH_FOLDS = ("h_any", "h_all")


def test_truths(tree):
    """`tree` (a generated function or statements) with the bool wrappers of tested values dropped."""
    for node in py.walk(tree):
        kind = type(node)
        if kind in (py.If, py.IfExp):  # (generated code has no `while`: pycode.py)
            node.test = tested(node.test)
        elif kind is py.comprehension:
            node.ifs = [tested(condition) for condition in node.ifs]
        elif kind is py.Call and type(node.func) is py.Name and node.func.id in TRUTH_FOLDS and len(node.args) == 1:
            folded = node.args[0]
            if type(folded) is py.GeneratorExp:
                folded.elt = tested(folded.elt)
    return tree


def tested(node):
    """`node`, whose truth alone is asked, with its wrappers (and its operands') dropped."""
    while _wrapper(node):
        node = node.test
    kind = type(node)
    if kind is py.BoolOp:
        node.values = [tested(value) for value in node.values]
    elif kind is py.UnaryOp and type(node.op) is py.Not:
        node.operand = tested(node.operand)
    return node


def _wrapper(node) -> bool:
    """`(True if T else False)`."""
    return (type(node) is py.IfExp and type(node.body) is py.Constant and node.body.value is True
            and type(node.orelse) is py.Constant and node.orelse.value is False)
