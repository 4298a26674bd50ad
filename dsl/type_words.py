"""Types written as words in a pack: the fields of records, typed piece variables, typed variables.

A type word is `number`, `name`, `text`, `bool`, `kind` (a piece kind), `shape`
(a shape of `shapes:`), `cell` (a variable's only: data cannot hold a board's cell), the name of a symbol list (one of its names), the name
of a kind of record (one of its records), or `list of T` (`T` also in the plural:
`list of numbers`). `read_type_word` turns one into a DeclaredType, which types
the rules that read the value and checks the data written for it:

    >>> from boardrule.dsl.symbols import SymbolTable
    >>> declared = read_type_word("list of numbers", SymbolTable())
    >>> str(declared.type), declared.plain_value([1, 2])
    ('list of numbers', (1, 2))
"""

from __future__ import annotations

from typing import Optional

from boardrule.dsl.limits import MAX_NUMBER
from boardrule.dsl.records import frozen
from boardrule.dsl.types import BOOL, CELL, NUM, SHAPE, STR, SYM, Type, list_of, record_of

#: the words every pack knows, with their types
PLAIN_WORDS = {"number": NUM, "name": SYM, "text": STR, "bool": BOOL}
WORDS = tuple(PLAIN_WORDS) + ("kind", "shape", "cell")
_PLAIN_WHAT = {"number": "a number", "name": "a name", "text": "a text", "bool": "true or false"}


class TypeWordError(ValueError):
    """A type word that names no type, or a value that a type does not hold (the message says why)."""


@frozen
class DeclaredType:
    """A type as a pack declares it: the static type, and the names a value of it may be
    (`None`: any value of the type)."""

    type: Type
    members: Optional[frozenset] = None  # the allowed names: kinds, a symbol list, a kind's records
    what: str = ""  # the members in words, for messages: "a piece kind", "one of colors"
    item: Optional["DeclaredType"] = None  # for a list: its elements' declared type

    def plain_value(self, plain):
        """The value a rule reads for the YAML value `plain` (lists become tuples; `none` is
        allowed for a single value); TypeWordError when the type does not hold it."""
        if self.item is not None:
            if not isinstance(plain, list):
                raise TypeWordError(f"a {self.type} is written as a YAML list, like [a, b]")
            return tuple(self.item.plain_value(v) for v in plain)
        if plain is None:
            return None
        if self.type == CELL:  # a board's cell is known by the rules and positions, not by the data
            raise TypeWordError("a cell is a type for variables only: a record's field or a piece's value "
                                "cannot hold one")
        if self.type == NUM:
            if type(plain) is not int or not -MAX_NUMBER <= plain <= MAX_NUMBER:
                raise TypeWordError(f"a number is a whole number, not {_shown(plain)}")
            return plain
        if self.type == BOOL:
            if type(plain) is not bool:
                raise TypeWordError(f"a bool is true or false, not {_shown(plain)}")
            return plain
        if not isinstance(plain, str):
            raise TypeWordError(f"expected {self.what or 'a name'}, not {_shown(plain)}")
        if self.members is not None and plain not in self.members:
            raise TypeWordError(f"`{plain}` is not {self.what}")
        return plain

    def text_value(self, text: str):
        """The value written as text (`W:2` in a position's board: every value comes as text)."""
        if self.item is None and self.type == NUM:
            try:
                return self.plain_value(int(text))
            except ValueError:
                raise TypeWordError(f"a number is a whole number, not `{text}`") from None
        if self.item is None and self.type == BOOL:
            if text not in ("true", "false"):
                raise TypeWordError(f"a bool is true or false, not `{text}`")
            return text == "true"
        if self.item is not None:
            raise TypeWordError(f"a {self.type} cannot be written in a board's cell")
        return self.plain_value(text)


def _shown(value) -> str:
    text = "true" if value is True else "false" if value is False else str(value)
    return f"`{text[:40]}`"


def read_type_word(text, sym) -> DeclaredType:
    """The DeclaredType a type word names, with the pack's declarations from `sym` (a SymbolTable);
    TypeWordError, with the words it could be, when it names none."""
    words = str(text).split()
    if len(words) >= 3 and words[0] == "list" and words[1] == "of":
        item = read_type_word(" ".join(words[2:]), sym)
        if item.item is not None:
            raise TypeWordError("a list of lists cannot be declared: give the list's items a kind of record")
        return DeclaredType(list_of(item.type), item=item)
    word = str(text).strip()
    single = _singular(word, sym)
    if single in PLAIN_WORDS:
        return DeclaredType(PLAIN_WORDS[single], what=_PLAIN_WHAT[single])
    if single == "kind":
        return DeclaredType(SYM, frozenset(sym.kinds), "a piece kind")
    if single == "shape":
        return DeclaredType(SHAPE, frozenset(sym.shapes), "a shape of `shapes:`")
    if single == "cell":
        return DeclaredType(CELL, what="a cell")
    if single in sym.symbol_sets:
        return DeclaredType(SYM, frozenset(sym.symbol_sets[single]), f"one of `{single}`")
    if single in sym.record_kinds:
        return DeclaredType(record_of(single), frozenset(sym.record_ids_of(single)), f"a record of `{single}`")
    known = ", ".join(WORDS + tuple(sorted(sym.symbol_sets)) + tuple(sorted(sym.record_kinds)))
    raise TypeWordError(f"`{word}` is no type; write one of {known}, or `list of` one of them")


def _singular(word: str, sym) -> str:
    """`cards` for the kind `card` after `list of` (`dominoes` for `domino`, `boxes` for `box`); a declared
    name is taken as it is."""
    if word in sym.symbol_sets or word in sym.record_kinds:
        return word
    for plural, single in (("ies", "y"), ("es", ""), ("s", "")):
        if word.endswith(plural) and word[: -len(plural)] + single in (set(sym.record_kinds) | set(sym.symbol_sets)):
            return word[: -len(plural)] + single
    if word.endswith("s") and word[:-1] in WORDS:
        return word[:-1]
    return word
