"""Frozen attrs classes with one shared `__repr__`, for the modules that declare many classes.

attrs writes and compiles a `__repr__` for every class it builds, which is
about half of what building a class costs; the language's AST and pack model
declare some sixty classes, so every start of `boardrule` paid for sixty
compiled reprs. `frozen` builds the class without one and gives it a shared
`__repr__` that prints the same text attrs' would:

    >>> @frozen
    ... class Point:
    ...     x: int
    ...     y: int
    >>> Point(1, 2)
    Point(x=1, y=2)
"""

from __future__ import annotations

import attrs


def _repr(self) -> str:
    cls = type(self)
    fields = ", ".join(f"{a.name}={getattr(self, a.name)!r}" for a in attrs.fields(cls) if a.repr)
    return f"{cls.__qualname__.rsplit('>.', 1)[-1]}({fields})"


def frozen(cls=None, **options):
    """`attrs.frozen(cls, **options)` with the shared `__repr__`; usable bare or with options."""

    def build(target):
        built = attrs.frozen(target, repr=False, **options)
        built.__repr__ = _repr
        return built

    return build(cls) if cls is not None else build
