"""Limits on numbers, shared by the language and the engine.

Every whole number a pack writes or a rule computes lies within
±MAX_NUMBER (2^53 - 1, the whole numbers a browser reads exactly from a
save's JSON). A literal outside it is a diagnostic (E138) where it is
written; a result outside it stops the rule that computed it, naming it.
No number ever reaches Python's own limits (such as the 4,300 digits an
integer may print with).

    >>> in_range(2 ** 53 - 1), in_range(-2 ** 53)
    (True, False)
"""

from __future__ import annotations

from boardrule.dsl.exact import Exact

MAX_NUMBER = 2 ** 53 - 1
MAX_DIGITS = len(str(MAX_NUMBER))  # 16: a longer literal is out of range without being read


def in_range(value) -> bool:
    """True when `value` is a number within ±MAX_NUMBER (or not a number at all)."""
    if type(value) is bool or type(value) not in (int, float, Exact):
        return True
    return -MAX_NUMBER <= value <= MAX_NUMBER


def out_of_range_message(text: str) -> str:
    """The message of a number literal or result outside the range."""
    shown = text if len(text) <= 24 else f"{text[:10]}...{text[-6:]} ({len(text)} digits)"
    return f"the number {shown} is outside the range of numbers (±{MAX_NUMBER:,}, 2^53 - 1)"
