"""Normalisation: one form for what designers write in several, so later stages know one.

    >>> from boardrule.dsl.unparse import unparse
    >>> from boardrule.interpreter.compiler.rewrites import fixture
    >>> facts, node = fixture("cells where not (house == kind) and not (it in corners)")
    >>> unparse(rewrite(node, facts))
    'cells where kind != house and it not in corners'

Rewritten, each the same value with the same errors: `not (a == b)` as `a != b` (and `!=` as
`==`), `not (x in L)` as `x not in L` (and back), `not not C` as `C` when C is a comparison
or a test that gives true or false itself, and a literal on the left of `==` or `!=` moved to
the right (`house == kind` as `kind == house`: a literal is worked out with no effect, so the
order of the two sides cannot show).
"""

from __future__ import annotations

import attrs

from boardrule.dsl import ast
from boardrule.interpreter.compiler.rewrites.tree import NOT_LITERAL, literal_value, transform as _transform

#: operators whose value is always true or false
_TRUTH_OPERATORS = frozenset({"==", "!=", "<", "<=", ">", ">=", "and", "or"})


def rewrite(node, facts):
    return _transform(node, facts, lambda n: _normal(n, facts))


def _normal(node, facts):
    kind = type(node)
    if kind is ast.Not:
        return _negation(node, facts)
    if kind is ast.BinOp and node.op in ("==", "!=") and _is_literal(node.left, facts) \
            and not _is_literal(node.right, facts):
        return facts.made(attrs.evolve(node, left=node.right, right=node.left), like=node)
    return node


def _negation(node, facts):
    inner = node.operand
    kind = type(inner)
    if kind is ast.BinOp and inner.op in ("==", "!="):
        flipped = attrs.evolve(inner, op="!=" if inner.op == "==" else "==", span=node.span)
        return _normal(facts.made(flipped, like=node), facts)
    if kind is ast.Member:
        return facts.made(attrs.evolve(inner, negated=not inner.negated, span=node.span), like=node)
    if kind is ast.Not and _gives_a_truth(inner.operand):
        return inner.operand
    return node


def _gives_a_truth(node) -> bool:
    """True for a comparison, `and`, `or`, `not` and `in`: their value is always true or false."""
    kind = type(node)
    return (kind is ast.BinOp and node.op in _TRUTH_OPERATORS) or kind in (ast.Not, ast.Member)


def _is_literal(node, facts) -> bool:
    return literal_value(facts.resolved, node) is not NOT_LITERAL
