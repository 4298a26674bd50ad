"""AST of the boardrule language: frozen attrs classes, each with its span.

The transformer (transform.py) builds these from Lark trees without any
semantics; the checker and the compiler give them meaning.
"""

from __future__ import annotations

from typing import Optional, Union

from boardrule.dsl.diagnostics import Span
from boardrule.dsl.records import frozen


def node(cls):
    """Class decorator: a frozen attrs node whose last field is its span (records.py: one shared repr)."""
    return frozen(cls, eq=False)


# ---------------------------------------------------------------- expressions
@node
class Number:
    value: int
    span: Span


@node
class String:
    value: str
    span: Span


@node
class Name:
    id: str
    span: Span


@node
class Attribute:
    obj: "Expr"
    name: str
    span: Span


@node
class Index:
    obj: "Expr"
    index: "Expr"
    span: Span


@node
class Keyword:
    name: str
    value: "Expr"
    span: Span


@node
class Call:
    func: str
    args: tuple
    kwargs: tuple  # of Keyword
    span: Span


@node
class Comprehension:
    """`body for var in source`: an aggregate's argument with a named element."""

    body: "Expr"
    var: str
    source: "Expr"
    span: Span


@node
class ListExpr:
    items: tuple
    span: Span


@node
class Range:
    low: "Expr"
    high: "Expr"
    span: Span


@node
class Where:
    source: "Expr"
    condition: "Expr"
    span: Span


@node
class Conditional:
    condition: "Expr"
    then: "Expr"
    otherwise: "Expr"
    span: Span


@node
class BinOp:
    """Arithmetic, comparison and boolean operators: op is the source text."""

    op: str
    left: "Expr"
    right: "Expr"
    span: Span


@node
class Not:
    operand: "Expr"
    span: Span


@node
class Negate:
    operand: "Expr"
    span: Span


@node
class Member:
    item: "Expr"
    container: "Expr"
    negated: bool
    span: Span


@node
class ChartKey:
    """One column of a chart's top row: `3`, `6+` (open) or `0-25` (range)."""

    low: int
    high: Optional[int]  # None: open-ended
    span: Span


@node
class Chart:
    keys: tuple
    values: tuple  # ints or strs
    span: Span


@node
class ChartName:
    id: str
    span: Span


@node
class ChartCall:
    value: "Expr"
    chart: Union[Chart, ChartName]
    span: Span


@node
class ListComp:
    """`[body for var in source]`: a list made from each element of another."""

    body: "Expr"
    var: str
    source: "Expr"
    span: Span


@node
class Let:
    """`let name = value in body`: `body` with a local name for `value`, worked out once."""

    name: str
    value: "Expr"
    body: "Expr"
    span: Span


Expr = Union[Number, String, Name, Attribute, Index, Call, Comprehension,
             ListExpr, Range, Where, Conditional, BinOp, Not, Negate, Member,
             ChartCall, Let, ListComp]


# ----------------------------------------------------------------- statements
@node
class Target:
    """`name` or `owner.name`, or one element of it (`name[i]`): what a set or a change writes. The owner is
    an expression that gives a player (`me`, `p`, `left_of(me)`, `c.owner`), or None for `name` alone."""

    owner: Optional["Expr"]
    name: str
    index: Optional["Expr"]
    span: Span


@node
class Place:
    kind: "Expr"
    at: "Expr"
    attributes: tuple  # of Keyword
    span: Span


@node
class Remove:
    """`remove CELLS` clears pieces; `remove TOKEN from CELL` takes one token off."""

    target: "Expr"
    source: Optional["Expr"]
    span: Span


@node
class Replace:
    target: "Expr"
    kind: "Expr"
    span: Span


@node
class Store:
    item: "Expr"
    holder: "Expr"
    span: Span


@node
class Unstore:
    item: "Expr"
    holder: "Expr"
    span: Span


@node
class Move:
    token: "Expr"
    source: "Expr"
    destination: "Expr"
    span: Span


@node
class Set:
    target: Target
    value: "Expr"
    span: Span


@node
class Change:
    target: Target
    op: str  # "+=" or "-="
    value: "Expr"
    span: Span


@node
class Score:
    value: "Expr"
    label: "Optional[str | Expr]"  # text, or an expression worked out as it scores (a piece kind: its label)
    span: Span


@node
class If:
    branches: tuple  # of (condition, body)
    otherwise: tuple  # statements, possibly empty
    span: Span


@node
class For:
    var: str
    source: "Expr"
    body: tuple
    span: Span


@node
class Choose:
    """Ask the acting player to pick one element; `optional` allows none."""

    var: str
    source: "Expr"
    body: tuple
    optional: bool
    span: Span


@node
class Roll:
    dice: "Expr"
    span: Span


@node
class Shuffle:
    deck: "Expr"
    span: Span


@node
class Draw:
    var: str
    deck: "Expr"
    body: tuple
    span: Span


@node
class Put:
    """`put CARDS under DECK` (at the bottom) or `put CARDS on DECK` (on top)."""

    cards: "Expr"  # one card or a list of cards, put one after the other
    deck: "Expr"
    bottom: bool  # True: `under`, False: `on`
    span: Span


@node
class Emit:
    event: str
    attributes: tuple  # of Keyword
    span: Span


@node
class Rotate:
    name: str
    span: Span


@node
class Finish:
    player: "Expr"
    span: Span


@node
class LetStmt:
    """`let name = value` in an effect: a local name for the rest of the block."""

    name: str
    value: "Expr"
    span: Span


@node
class Do:
    """`pay(me, 3)`: a named effect (`effects:`), run with its parameters bound to the arguments.

    `params` and `body` are filled in by dsl/named_effects.py once the pack's effects are known, so that
    every pass over statements sees the statements that run."""

    name: str
    args: tuple
    params: tuple  # () until the effect is found
    body: tuple
    span: Span


Stmt = Union[Place, Remove, Replace, Store, Unstore, Move, Set, Change, Score,
             If, For, Choose, Roll, Shuffle, Draw, Put, Emit, Rotate, Finish, LetStmt, Do]


# ------------------------------------------------------------ other fields
@node
class GridDecl:
    kind: str  # "square" or "hex"
    layout: Optional[str]  # hex: "flat-odd", ..., "rhombus", "hexagon"
    columns: int  # a hexagon's side
    rows: Optional[int]  # None when one number is written (`hex hexagon 5`)
    options: tuple  # of (name, value, span)
    span: Span


@node
class CellRef:
    name: str
    span: Span


@node
class CellList:
    cells: tuple  # of CellRef
    span: Span


@node
class PlayerRange:
    low: int
    high: int
    span: Span


@node
class ArtCell:
    """One cell of a shape's art: a requirement name, `X`, or `.` for a hole."""

    name: str
    span: Span


@node
class Art:
    rows: tuple  # of tuples of ArtCell
    span: Span


def methods_by_class(owner: type, prefix: str) -> dict:
    """{node class: `owner`'s method named `prefix` + the class's name}, for the classes of this
    module that `owner` (or a class it inherits from) has such a method for: a visitor dispatches
    on a node's class through it.

    >>> class Printer:
    ...     def p_Number(self, node): return str(node.value)
    >>> methods_by_class(Printer, "p_") == {Number: Printer.p_Number}
    True
    """
    classes = {name: cls for name, cls in globals().items()
               if isinstance(cls, type) and cls.__module__ == __name__}
    found = {}
    for klass in reversed(owner.__mro__):  # a subclass's method wins over the one it inherits
        for attribute, method in vars(klass).items():
            if attribute.startswith(prefix) and attribute[len(prefix):] in classes:
                found[classes[attribute[len(prefix):]]] = method
    return found
