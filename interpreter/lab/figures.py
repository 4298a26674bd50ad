"""Numbers as the lab's reports print them, in text and in HTML alike."""

from __future__ import annotations


def num(value, spec=".2f") -> str:
    """A number to two places (`-` for none, whole numbers as they are, never `-0.00`)."""
    if value is None:
        return "-"
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    text = format(value, spec)
    return "0" + text[2:] if text.startswith("-0") and float(text) == 0 else text


def pct(value) -> str:
    return "-" if value is None else f"{value * 100:.1f}%"


def interval(ci, percent=False) -> str:
    if not ci:
        return "-"
    show = pct if percent else num
    return f"[{show(ci[0])}, {show(ci[1])}]"
