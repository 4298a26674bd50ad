"""List functions: `sort(L, by = KEY)`, `first(L)`, `last(L)`, `index_of(L, v)`, `rotated`, `flatten` (closures).

Each maker takes (compiler, node, args, kwargs) and returns `ctx -> value`, as
the other functions of functions.py do. Slices (`L[a..b]`), negative indices
and `[body for x in L]` are expression forms, compiled in exprs.py.
"""

from __future__ import annotations

from boardrule.interpreter.runtime.values import RuleError


def sort_key(value):
    """Ascending, `none` first; numbers, names, cells and players each in their own order."""
    return (value is not None, value if value is not None else 0)


def sorted_by(elements, keys, span):
    """The elements in the order of their keys (stable: equal keys keep the list's order)."""
    try:
        order = sorted(range(len(elements)), key=lambda i: sort_key(keys[i]))
    except TypeError:
        raise RuleError("`sort` needs keys of one kind, all numbers or all names", span) from None
    return tuple(elements[i] for i in order)


def _sort(compiler, node, args, kwargs):
    source, span = args[0], node.span
    keyword = kwargs.get("by")
    key = compiler.compile(keyword.value) if keyword is not None else None

    def sort(ctx):
        elements = tuple(source(ctx))
        ctx.meter.charge(len(elements) + 1, span)
        if key is None:
            return sorted_by(elements, elements, span)
        saved, keys = ctx.it, []
        try:
            for element in elements:
                ctx.it = element
                keys.append(key(ctx))
        finally:
            ctx.it = saved
        return sorted_by(elements, keys, span)
    return sort


def _first(compiler, node, args, kwargs):
    source = args[0]
    return lambda ctx: (lambda items: items[0] if items else None)(source(ctx))


def _last(compiler, node, args, kwargs):
    source = args[0]
    return lambda ctx: (lambda items: items[-1] if items else None)(source(ctx))


def _index_of(compiler, node, args, kwargs):
    source, wanted = args

    def index_of(ctx):
        items, value = source(ctx), wanted(ctx)
        for position, item in enumerate(items):
            if item == value and type(item) is type(value):
                return position
        return None
    return index_of


def item_at(items, i, span):
    """`L[i]`: from the start for 0, 1...; from the end for -1, -2..."""
    if not -len(items) <= i < len(items):
        raise RuleError(f"index {i} is outside a list of {len(items)}", span)
    return items[i]


def positions(items, low, high):
    """`L[a..b]`: the elements at positions a to b (from 0, both included), as far as the list goes."""
    low = max(low, 0)
    return tuple(items[low:high + 1]) if high >= low else ()


def turned(items, n):
    """`rotated(L, n)`: the first n elements moved to the end (n taken modulo the length)."""
    items = tuple(items)
    if not items:
        return ()
    n %= len(items)
    return items[n:] + items[:n]


def _rotated(compiler, node, args, kwargs):
    source, count = args
    return lambda ctx: turned(source(ctx), count(ctx))


def joined(parts):
    """`flatten(L)`: the elements of the lists of L, one list after the other."""
    return tuple(element for part in parts for element in part)


def _flatten(compiler, node, args, kwargs):
    source, span = args[0], node.span

    def flatten(ctx):
        elements = joined(source(ctx))
        ctx.meter.charge(len(elements) + 1, span)
        return elements
    return flatten


FUNCTIONS = {"sort": _sort, "first": _first, "last": _last, "index_of": _index_of, "rotated": _rotated,
             "flatten": _flatten}
