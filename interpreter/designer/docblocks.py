"""The blocks of a generated document (the rules reference): headings, paragraphs, tables, lists, text.

Inline text is a tuple of segments: a plain str, or Code / Strong.

    >>> Table(((("name",),)), (((Code("x"),),),)).rows[0][0][0].text
    'x'
"""

from __future__ import annotations

import attrs

@attrs.frozen
class Code:
    text: str


@attrs.frozen
class Strong:
    text: str


@attrs.frozen
class Heading:
    level: int
    text: str


@attrs.frozen
class Para:
    parts: tuple


@attrs.frozen
class Pre:
    text: str


@attrs.frozen
class Table:
    headers: tuple  # of inline parts
    rows: tuple  # of tuples of inline parts


@attrs.frozen
class Items:
    items: tuple  # of inline parts (or of blocks lists: tuple starting with a block)
    ordered: bool = False


def _parts(*segments) -> tuple:
    return tuple(s for s in segments if s != "" and s is not None)
