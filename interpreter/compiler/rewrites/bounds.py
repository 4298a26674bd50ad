"""Arithmetic that cannot leave the range of numbers, found from what bounds its operands.

Every `+`, `-` and `*` checks that its result stays within the range of numbers (dsl/limits.py)
and stops the rule otherwise. Where the operands' own bounds prove the result in range, the
check can never fire: this pass records such nodes in `facts.in_range`, and the compiler works
them out without it. The tree itself is given back unchanged.

    >>> from boardrule.interpreter.compiler.rewrites import fixture
    >>> facts, node = fixture("count(cells where empty) + 1 < x * 3 + total")
    >>> from boardrule.dsl.unparse import unparse
    >>> sorted(unparse(n) for n in (rewrite(node, facts), *facts.in_range))
    ['count(cells where empty) + 1', 'count(cells where empty) + 1 < x * 3 + total', 'x * 3']

Bounded: whole-number literals; a cell's `x`, `y` and `order` (by the grid's own cells, unless
a piece or a record has a field of that name); a `count` (a list holds fewer than 2^48
elements: no memory holds more); `-`, `+`, `-`, `*` and `if ... then ... else` of bounded
values. A variable is not bounded: a position may give it any number in range.
"""

from __future__ import annotations

from boardrule.dsl import ast
from boardrule.dsl.limits import MAX_NUMBER
from boardrule.dsl.lints import walk
from boardrule.dsl.resolution import Aggregate, Attr, Prop
from boardrule.dsl.types import CELL, NUM

#: more elements than a list in memory can hold: a count is at most this
MAX_LENGTH = 2 ** 48
_POSITIONS = ("x", "y", "order")


def rewrite(node, facts):
    ranges = {}  # id of a node -> its (lowest, highest) value, or None when unknown
    for inner in walk(node):
        if type(inner) is ast.BinOp and inner.op in ("+", "-", "*") and facts.types.get(inner) == NUM:
            found = _range(inner, facts, ranges)
            if found is not None and -MAX_NUMBER <= found[0] and found[1] <= MAX_NUMBER:
                facts.in_range.add(inner)
    return node


def _range(node, facts, ranges):
    key = id(node)
    if key not in ranges:
        ranges[key] = _range_of(node, facts, ranges)
    return ranges[key]


def _range_of(node, facts, ranges):
    kind = type(node)
    if kind is ast.Number:
        return (node.value, node.value) if type(node.value) is int else None
    if kind is ast.Negate:
        inner = _range(node.operand, facts, ranges)
        return None if inner is None else (-inner[1], -inner[0])
    if kind is ast.BinOp and node.op in ("+", "-", "*"):
        left, right = _range(node.left, facts, ranges), _range(node.right, facts, ranges)
        return None if left is None or right is None else _combine(node.op, left, right)
    if kind is ast.Conditional:
        then, otherwise = _range(node.then, facts, ranges), _range(node.otherwise, facts, ranges)
        return None if then is None or otherwise is None else (min(then[0], otherwise[0]), max(then[1], otherwise[1]))
    found = facts.resolved.get(node)
    if kind is ast.Name and type(found) is Prop and found.name in _POSITIONS:
        return _position_range(facts, found.name)
    if kind is ast.Attribute and type(found) is Attr and found.name in _POSITIONS and \
            facts.types.get(node.obj) == CELL:
        return _position_range(facts, found.name)
    if kind is ast.Call and found == Aggregate("count"):
        return 0, MAX_LENGTH
    return None


def _combine(op, left, right):
    (a, b), (c, d) = left, right
    if op == "+":
        return a + c, b + d
    if op == "-":
        return a - d, b - c
    corners = (a * c, a * d, b * c, b * d)
    return min(corners), max(corners)


def _position_range(facts, name):
    """The lowest and highest `x`, `y` or `order` of the grid's cells, or None when a piece or a record
    has a field of that name (a bare `x` may then read it)."""
    game = facts.game
    if shadowed(game, name):
        return None
    grid = game.grid
    values = [cell if name == "order" else grid.col(cell) if name == "x" else grid.row(cell) for cell in grid.cells]
    return (min(values), max(values)) if values else None


def shadowed(game, name) -> bool:
    """True when a piece or a record has a field named `name` (`x`, `y`, `order`): a bare `name` may
    then read it instead of the cell's position."""
    symbols = game.pack.checked.symbols
    return name in symbols.piece_attributes or any(name in fields for fields in symbols.record_fields.values())
