"""Filter fusion: an aggregate of a filter tests each element as it goes, with no list made between.

    >>> from boardrule.dsl.unparse import unparse
    >>> from boardrule.interpreter.compiler.rewrites import fixture
    >>> facts, node = fixture("count(cells where empty) + count(adjacent(cell(\\"B2\\")) where x > 0)")
    >>> unparse(rewrite(node, facts))
    'count(cells, empty) + count(adjacent(cell("B2")), x > 0)'

`count(L where C)` is `count(L, C)`: both test C on every element of L in order and charge the
same work. `any(L where C)` and `none(L where C)` become `any(L, C)` and `none(L, C)`, which stop
at the first element that passes, only when C is total (totality.py): the filter tests every
element, so a C that could fail on a later element, or spend work, must still be tested there.
"""

from __future__ import annotations

import attrs

from boardrule.dsl import ast
from boardrule.dsl.resolution import Aggregate
from boardrule.interpreter.compiler.rewrites.totality import total
from boardrule.interpreter.compiler.rewrites.tree import transform as _transform

_ALWAYS = Aggregate("count")
_WHEN_TOTAL = (Aggregate("any"), Aggregate("none"))


def rewrite(node, facts):
    return _transform(node, facts, lambda n: _fused(n, facts))


def _fused(node, facts):
    if type(node) is not ast.Call or len(node.args) != 1 or node.kwargs or type(node.args[0]) is not ast.Where:
        return node
    found, where = facts.resolved.get(node), node.args[0]
    if found == _ALWAYS or (found in _WHEN_TOTAL and total(where.condition, facts)):
        return facts.made(attrs.evolve(node, args=(where.source, where.condition)), like=node)
    return node
