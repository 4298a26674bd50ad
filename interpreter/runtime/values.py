"""Runtime values shared by the interpreter's modules.

Cells are ints that carry their board: `board << CELL_BITS | cell`, so a cell
read from another player's board still knows where it lives. Players are
`Player` ints (the seat number from 0), a distinct type so that a cell and a
player never compare equal by accident.
"""

from __future__ import annotations

CELL_BITS = 10
CELL_MASK = (1 << CELL_BITS) - 1
MAX_CELLS = 1 << CELL_BITS


def encode(board: int, cell: int) -> int:
    return board << CELL_BITS | cell


def board_of(value: int) -> int:
    return value >> CELL_BITS


def cell_of(value: int) -> int:
    return value & CELL_MASK


class Player(int):
    """A seat number (0-based) that prints as the 1-based seat."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"P{int(self) + 1}"

    __str__ = __repr__


PLAYERS = tuple(Player(i) for i in range(64))


class Choice:
    """In a mark: alternatives the scoring picks from to get the best total."""

    __slots__ = ("options",)

    def __init__(self, options):
        self.options = tuple(options)


class RuleError(Exception):
    """A pack's rule failed at run time (a bug in the pack, not in a move)."""

    def __init__(self, message: str, span=None):
        super().__init__(message)
        self.span = span


class NeedChoice(Exception):
    """An effect asks the acting player to choose; the flow turns it into moves."""

    def __init__(self, options, optional: bool, span, item_type=None):
        super().__init__("a choice is needed")
        self.options = tuple(options)
        self.optional = optional
        self.span = span
        self.item_type = item_type
