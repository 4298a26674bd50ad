"""The static types of the language: a handful of names and lists of them.

    >>> str(list_of(CELL))
    'list of cells'
"""

from __future__ import annotations

from boardrule.dsl.records import frozen


@frozen
class Type:
    name: str
    item: "Type | None" = None
    of: "str | None" = None  # a record type: the kind of record (`records:`), printed by its name

    def __str__(self) -> str:
        if self.of is not None:
            return self.of
        if self.item is None:
            return self.name
        return f"list of {_plural(str(self.item))}"

    @property
    def is_list(self) -> bool:
        return self.name == "list"

    @property
    def is_record(self) -> bool:
        return self.name == "record"


def _plural(name: str) -> str:
    if name.startswith("list of ") or name in ("any", "none", "text"):
        return name
    return name[:-1] + "ies" if name.endswith("y") else name + "s"


NUM = Type("number")
BOOL = Type("boolean")
SYM = Type("name")  # a symbol: a piece kind, a colour, a die face...
STR = Type("text")
CELL = Type("cell")
PLAYER = Type("player")
SHAPE = Type("shape")
DECK = Type("deck")
DIE = Type("die")
EVENT = Type("event")
DIRECTION = Type("direction")
NONE = Type("none")
ANY = Type("any")


def record_of(kind: str) -> Type:
    """The type of the records of one kind declared under `records:`.

    >>> str(list_of(record_of("card")))
    'list of cards'
    """
    return Type("record", of=kind)


def list_of(item: Type) -> Type:
    return Type("list", item)


def item_type(t: Type) -> Type:
    """The element type of a list type, ANY for anything else."""
    return t.item if t.is_list and t.item is not None else ANY


def unknown(t) -> bool:
    """True for a type that says nothing of its values: `any`, `none`, or a list of such (`[]`)."""
    return t in (ANY, NONE, None) or (t.is_list and t.item in (ANY, NONE, None))


def compatible(actual: Type, expected: Type) -> bool:
    """Whether a value of `actual` may stand where `expected` is required."""
    if ANY in (actual, expected) or actual == expected:
        return True
    if actual == BOOL and expected == NUM:
        return True  # booleans count as 0/1 in sums
    if actual == NONE:
        return expected in (SYM, PLAYER, CELL) or expected.is_record
    if actual.is_list and expected.is_list:
        return compatible(item_type(actual), item_type(expected))
    return False


def join(a: Type, b: Type) -> Type:
    """The type of `if c then a else b`."""
    if a == b or b == NONE:
        return a
    if a == NONE:
        return b
    if {a, b} == {NUM, BOOL}:
        return NUM
    if a.is_list and b.is_list:
        return list_of(join(item_type(a), item_type(b)))
    return ANY
