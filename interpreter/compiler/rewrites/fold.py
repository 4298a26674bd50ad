"""Constant folding: what the rules work out from literals alone is worked out once, here.

    >>> from boardrule.dsl.unparse import unparse
    >>> from boardrule.interpreter.compiler.rewrites import fixture
    >>> facts, node = fixture("if 2 * 3 > 5 then total - (4 - 1) else 0")
    >>> unparse(rewrite(node, facts))
    'total - 3'

Folded: `+ - *` of two whole numbers (when the result is in the range of numbers: otherwise
the rule still stops where it is worked out, as dsl/limits.py says), a comparison of two
literals (numbers, texts, kinds, `true`, `false`, `none`), `not` and `-` of a literal, an `if`
whose condition is a literal (the branch not taken is never worked out anyway), and `and` /
`or` whose left side decides (`false and X`, `true or X`: X is never worked out). Nothing is
folded whose working out could fail or cost work: the same rule, the same value.
"""

from __future__ import annotations

import operator

from boardrule.dsl import ast
from boardrule.dsl.limits import MAX_NUMBER
from boardrule.dsl.resolution import Value
from boardrule.dsl.types import BOOL, NUM
from boardrule.interpreter.compiler.rewrites.tree import NOT_LITERAL, literal_value, transform as _transform

_ARITHMETIC = {"+": operator.add, "-": operator.sub, "*": operator.mul}
_COMPARE = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt,
            ">=": operator.ge}
_TRUTHS = {Value("true"): True, Value("false"): False}


def rewrite(node, facts):
    return _transform(node, facts, lambda n: _fold(n, facts))


def _fold(node, facts):
    kind = type(node)
    if kind is ast.BinOp:
        return _binary(node, facts)
    if kind is ast.Not:
        truth = _truth(node.operand, facts)
        return node if truth is None else _boolean(not truth, node, facts)
    if kind is ast.Negate and _whole(node.operand):
        return facts.made(ast.Number(-node.operand.value, node.span), type_=NUM)
    if kind is ast.Conditional:
        truth = _truth(node.condition, facts)
        return node if truth is None else (node.then if truth else node.otherwise)
    return node


def _binary(node, facts):
    op, left, right = node.op, node.left, node.right
    if op in _ARITHMETIC and _whole(left) and _whole(right):
        value = _ARITHMETIC[op](left.value, right.value)
        return facts.made(ast.Number(value, node.span), type_=NUM) if -MAX_NUMBER <= value <= MAX_NUMBER else node
    if op in ("and", "or"):
        truth = _truth(left, facts)
        if truth is not None and truth == (op == "or"):  # `true or X`, `false and X`: X is never worked out
            return _boolean(truth, node, facts)
        return node
    if op in _COMPARE:
        a, b = literal_value(facts.resolved, left), literal_value(facts.resolved, right)
        if a is NOT_LITERAL or b is NOT_LITERAL:
            return node
        if op in ("==", "!="):
            return _boolean(_COMPARE[op](a, b), node, facts)
        if type(a) is int and type(b) is int:  # ordered: numbers only (`none` is never ordered)
            return _boolean(_COMPARE[op](a, b), node, facts)
    return node


def _whole(node) -> bool:
    return type(node) is ast.Number and type(node.value) is int


def _truth(node, facts):
    """True or False for the literal `true` or `false`, else None."""
    return _TRUTHS.get(facts.resolved.get(node)) if type(node) is ast.Name else None


def _boolean(value: bool, like, facts):
    word = "true" if value else "false"
    return facts.made(ast.Name(word, like.span), type_=BOOL, resolution=Value(word))
