"""Total expressions: those whose working out can neither fail nor spend work.

A pass may work a total expression out earlier, later, fewer times or not at all without
anything showing: no error it could raise is lost or moved, no work it could charge to the
budget is counted differently. Total: literals; the names a rule reads (`it`, `self`, locals,
variables, options, kinds, records, directions, `me`, `cells`...) and a property of a cell or a
piece read bare or as `x.name` (of nothing it is `none`; a mark is not: reading one may work the
scoring's marks out); comparisons, `and`, `or` and `not` of
total parts; `+ - *` proven in range (bounds.py); `if` of total parts; a list of total
elements. Not total: a definition (its body may fail or do work), a piece's rule, a call, a
filter, division, indexing, a player's variable through a value that may be `none`.

    >>> from boardrule.interpreter.compiler.rewrites import fixture
    >>> facts, node = fixture("cells where kind == house and not empty or x < 2")
    >>> total(node.condition, facts), total(node, facts)
    (True, False)
"""

from __future__ import annotations

from boardrule.dsl import ast
from boardrule.dsl.builtins import CELL_PROPERTIES
from boardrule.dsl.types import CELL, SYM
from boardrule.dsl.resolution import (Attr, Deck, Direction, Global, It, Local, Option, PlayerVar, Prop, Record,
                                      RecordKind, Region, Self, Shape, Symbol, SymbolSet, Value)

#: names whose reading is a plain look-up
_READS = frozenset({Prop, It, Self, Local, Global, PlayerVar, Option, Symbol, SymbolSet, Record, RecordKind,
                    Direction, Region, Deck, Shape, Value})
_TESTS = frozenset({"==", "!=", "<", "<=", ">", ">=", "and", "or"})


def total(node, facts) -> bool:
    """True when working `node` out can neither fail nor spend work (see the module's docstring)."""
    kind = type(node)
    if kind in (ast.Number, ast.String):
        return True
    if kind is ast.Name:
        found = facts.resolved.get(node)
        return type(found) in _READS and not (type(found) is Prop and found.name in _marks(facts))
    if kind is ast.Attribute:
        found, owner = facts.resolved.get(node), facts.types.get(node.obj)
        return (type(found) is Attr and _plain_attribute(found.name, facts) and total(node.obj, facts)
                and owner is not None and (owner in (CELL, SYM) or owner.is_record))
    if kind is ast.BinOp:
        parts = total(node.left, facts) and total(node.right, facts)
        return parts and (node.op in _TESTS or (node.op in ("+", "-", "*") and node in facts.in_range))
    if kind is ast.Not:
        return total(node.operand, facts)
    if kind is ast.Conditional:
        return total(node.condition, facts) and total(node.then, facts) and total(node.otherwise, facts)
    if kind is ast.ListExpr:
        return all(total(item, facts) for item in node.items)
    if kind is ast.Member:
        return type(node.container) is ast.ListExpr and total(node.item, facts) and total(node.container, facts)
    return False


def _plain_attribute(name, facts) -> bool:
    """A cell's property, a piece kind's attribute or a record's field: read as `none` of nothing (a
    mark is no plain read: the marks of the scoring may have to be worked out first)."""
    symbols = facts.game.pack.checked.symbols
    return name not in symbols.marks and (name in CELL_PROPERTIES or name in symbols.piece_attributes
                                          or any(name in fields for fields in symbols.record_fields.values()))


def _marks(facts):
    return facts.game.pack.checked.symbols.marks
