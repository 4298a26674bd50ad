"""Fast paths for the most common filters on cells.

`cells where kind == house`, `adjacent where empty`, `category == good and
not empty`: conditions built only from a cell's kind, its emptiness and
attributes fixed by its kind become one test on the board's list of kinds,
instead of a chain of closures per cell. The result is the same; only the
work differs (tests/test_reference.py checks the compiled path against a
plain evaluator).
"""

from __future__ import annotations


def kind_predicate(game, resolved, node):
    """A function `test(kind) -> bool` equivalent to `node` on a cell, or None.

    `kind` is the kind on the cell (None when empty). Only conditions that
    depend on nothing but that kind qualify.
    """
    name = type(node).__name__
    if name == "Name":
        return _bare(resolved.get(node))
    if name == "Not":
        inner = kind_predicate(game, resolved, node.operand)
        return None if inner is None else (lambda kind: not inner(kind))
    if name == "BinOp" and node.op in ("and", "or"):
        left = kind_predicate(game, resolved, node.left)
        right = kind_predicate(game, resolved, node.right)
        if left is None or right is None:
            return None
        if node.op == "and":
            return lambda kind: left(kind) and right(kind)
        return lambda kind: left(kind) or right(kind)
    if name == "BinOp" and node.op in ("==", "!="):
        return _comparison(game, resolved, node)
    return None


def _bare(resolution):
    if resolution == ("prop", "empty"):
        return lambda kind: kind is None
    if resolution == ("prop", "occupied"):
        return lambda kind: kind is not None
    return None


def _comparison(game, resolved, node):
    for prop_side, const_side in ((node.left, node.right), (node.right, node.left)):
        attribute = _property_name(resolved, prop_side)
        constant = _constant(resolved, const_side)
        if attribute is None or constant is _NOT_CONSTANT:
            continue
        kinds = _kinds_where(game, attribute, constant)
        if kinds is None:
            return None
        if node.op == "==":
            return lambda kind: kind in kinds
        return lambda kind: kind not in kinds
    return None


_NOT_CONSTANT = object()


def _property_name(resolved, node):
    if type(node).__name__ != "Name":
        return None
    resolution = resolved.get(node)
    return resolution[1] if resolution is not None and resolution[0] == "prop" else None


def _constant(resolved, node):
    kind = type(node).__name__
    if kind == "Number":
        return node.value
    if kind == "String":
        return node.value
    if kind == "Name" and resolved.get(node) == ("symbol", node.id):
        return node.id
    if kind == "Name" and resolved.get(node) == ("value", "none"):
        return None
    return _NOT_CONSTANT


def _kinds_where(game, attribute, constant):
    """The set of kinds (None for an empty cell) whose `attribute` equals `constant`."""
    if attribute == "kind":
        return frozenset((constant,))
    if attribute in game.variable_attributes or attribute in game.mark_names:
        return None  # set per piece or at scoring time: not a property of the kind alone
    if attribute not in game.static_attribute_names:
        return None
    found = {kind for kind, attrs in game.static_attrs.items() if attrs.get(attribute) == constant}
    if constant is None:
        found |= {kind for kind, attrs in game.static_attrs.items() if attribute not in attrs} | {None}
    return frozenset(found)
