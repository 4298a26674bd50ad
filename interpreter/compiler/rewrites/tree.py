"""The tree the rewrite passes work on: `Facts` about its nodes, and `transform`, which rebuilds a tree
from the leaves up around the nodes a pass replaces."""

from __future__ import annotations

import attrs

from boardrule.dsl import ast
from boardrule.dsl.resolution import Direction, Record, Resolutions, Symbol, Value

NOT_LITERAL = object()
_LITERAL_VALUES = {Value("none"): None, Value("true"): True, Value("false"): False}


def literal_value(resolved, node):
    """The value of a literal (a number, a text), a kind, a record, a direction or none/true/false,
    as the rules read it (a kind, a record, a direction is its name); NOT_LITERAL for any other node."""
    kind = type(node)
    if kind in (ast.Number, ast.String):
        return node.value
    if kind is ast.Name:
        resolution = resolved.get(node)
        if resolution in (Symbol(node.id), Record(node.id), Direction(node.id)):
            return node.id
        return _LITERAL_VALUES.get(resolution, NOT_LITERAL)
    return NOT_LITERAL


class Facts:
    """What the passes read about nodes and record for the nodes they make: the checker's tables of
    resolutions and types (a made node is added to them, as the node it replaces: no node the
    checker saw changes), and the arithmetic proven to stay in the range of numbers (bounds.py;
    `in_range` starts with what an earlier compiler of the game found)."""

    def __init__(self, game, resolved: Resolutions, types: dict, in_range=()):
        self.game = game
        self.resolved = resolved
        self.types = types
        self.in_range = set(in_range)  # the `+ - *` nodes whose value is always a number in range
        self.derived = {}  # what a pass works out once from the pack, by the class that holds it

    def made(self, node, like=None, type_=None, resolution=None):
        """`node`, a node a pass made, with the type and resolution of `like` (the node it replaces) or
        those given."""
        if like is not None:
            type_ = self.types.get(like) if type_ is None else type_
            resolution = self.resolved.get(like) if resolution is None else resolution
            if like in self.in_range and type(node) is type(like):  # the same operator on the same values
                self.in_range.add(node)
        if type_ is not None:
            self.types[node] = type_
        if resolution is not None:
            self.resolved[node] = resolution
        return node


def transform(node, facts: Facts, visit):
    """`node` rebuilt from the leaves up: each expression node is given to `visit` once its parts
    are rewritten, and is replaced by what `visit` returns. A node none of whose parts changed is
    given as it is; one rebuilt around changed parts keeps its type and resolution."""
    if type(node) is tuple:
        items = tuple(transform(item, facts, visit) for item in node)
        return node if all(new is old for new, old in zip(items, node)) else items
    if type(node).__module__ != ast.__name__ or not attrs.has(type(node)):
        return node
    changed = {}
    for field in attrs.fields(type(node)):
        if field.name != "span":
            old = getattr(node, field.name)
            new = transform(old, facts, visit)
            if new is not old:
                changed[field.name] = new
    if changed:
        node = facts.made(attrs.evolve(node, **changed), like=node)
    return visit(node)
