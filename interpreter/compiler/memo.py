"""Definitions worked out once per state: the same question, asked again, is answered from memory.

A definition is pure: its value depends only on its arguments, the state, and
who and where it is asked for (`me`, the current board, `self`, `it`). While
nothing can change the state (moves being listed, a score sheet being made),
the state holds a `memo`, and a definition whose body does real work (a
filter, an aggregate, a shape or connectivity function) remembers its values
there, keyed by the definition, its arguments and those four; otherwise
(`memo` is None: an effect runs) it is worked out each time. A listing of a
thousand candidate moves whose `when:` asks `count(cells where ...)` then
scans the board once, not a thousand times.

Definitions that read the marks of a scoring choice (`fed`) or an event are
not remembered: those are not part of the key.

    >>> memo_key("near", (3,), None, 0, None, None)
    ('near', (3,), None, 0, None, None)

A definition with parameters is remembered per arguments the same way, so
that a listing asking `threatened(c)` of the same cell for every candidate
move works it out once. One that does little (a few comparisons) is cheaper
worked out again than looked up; the generated code writes it out at its
uses instead.
"""

from __future__ import annotations

from boardrule.dsl.lints import walk
from boardrule.dsl.resolution import (Aggregate, Define, EventAttr, Family, Function, It, MarkName, Pairwise, Prop,
                                      Relative, Rule, Self)
from boardrule.dsl import ast as nodes

# what a body must hold to be worth remembering: work beyond reading a few values
_WORK = (nodes.Where, nodes.Comprehension)
_WORK_CALLS = (Aggregate, Function, Family, Rule)
# what a body may not read to be remembered: values the key leaves out
_UNKEYED = (EventAttr, MarkName)


def memo_key(name, args, me, board, self_, it) -> tuple:
    return (name, args, me, board, self_, it)


def worth_remembering(game, resolved, name, seen=None) -> bool:
    """True when definition `name` may ask the same question more than once (no bare property of
    `it` or `self` outside a filter of its own: otherwise each candidate asks its own), does work,
    and reads nothing the memo's key leaves out. With parameters, the question is asked again
    when the same arguments come again (a nested listing, score terms asking of the same cell)."""
    if _reads_the_cell(resolved, game.defines[name].body):
        return False
    body = game.defines[name].body
    does_work, keyed = False, True
    for node in walk(body):
        kind = type(node)
        what = type(resolved.get(node)) if kind in (nodes.Name, nodes.Call, nodes.Attribute) else None
        if kind in _WORK or (kind is nodes.Call and what in _WORK_CALLS) or what is Define:
            does_work = True  # (a definition asked by another may do the work: a chain of them branches)
        if what in _UNKEYED or _reads_marks(game, node, kind):
            keyed = False
        if what is Define and kind in (nodes.Name, nodes.Call):
            seen = seen if seen is not None else {name}
            used = resolved[node].name
            if used not in seen:
                seen.add(used)
                if not _keyed(game, resolved, used, seen):
                    keyed = False
    return does_work and keyed


def _reads_the_cell(resolved, body) -> bool:
    """A bare property, `it` or `self` outside any filter or aggregate of its own: the value is the
    cell's (a filter's `it` inside the body is its own business)."""
    def walk_outside(node, inside):
        kind = type(node)
        if kind is tuple:
            return any(walk_outside(n, inside) for n in node)
        if not hasattr(node, "__attrs_attrs__"):
            return False
        what = type(resolved.get(node)) if kind in (nodes.Name, nodes.Call, nodes.Attribute) else None
        if not inside and kind is nodes.Name and what in (Prop, It, Self, Relative):
            return True
        if kind in (nodes.Where, nodes.Comprehension) or (kind is nodes.Call and what in (Aggregate, Pairwise)):
            inside = True
        return any(walk_outside(getattr(node, f.name), inside) for f in node.__attrs_attrs__ if f.name != "span")
    return walk_outside(body, False)


def _keyed(game, resolved, name, seen) -> bool:
    """True when definition `name` (and those it uses) reads nothing the key leaves out."""
    for node in walk(game.defines[name].body):
        kind = type(node)
        what = type(resolved.get(node)) if kind in (nodes.Name, nodes.Call, nodes.Attribute) else None
        if what in _UNKEYED or _reads_marks(game, node, kind):
            return False
        if what is Define and kind in (nodes.Name, nodes.Call) and resolved[node].name not in seen:
            seen.add(resolved[node].name)
            if not _keyed(game, resolved, resolved[node].name, seen):
                return False
    return True


def _reads_marks(game, node, kind) -> bool:
    """A bare name or an attribute that reads a mark of the scoring (`fed`, `it.fed`)."""
    marks = game.mark_names
    if kind is nodes.Name:
        return node.id in marks
    if kind is nodes.Attribute:
        return node.name in marks
    return False


def remembered(name, body, params=()):
    """`body(ctx)` (a definition with its parameters bound in ctx.env, or read in place),
    remembered per state for its arguments, `me`, the board, `self` and `it`."""
    def value(ctx):
        state = ctx.state
        memo = state.memo if state is not None else None
        if memo is None:  # the state may change meanwhile (an effect runs): worked out afresh
            return body(ctx)
        env = ctx.env
        key = (name, tuple([env[p] for p in params]) if params else (), ctx.me, ctx.board, ctx.self_, ctx.it)
        try:
            found = memo.get(key, _MISSING)
        except TypeError:  # an argument that cannot be a key (a mapping): worked out each time
            return body(ctx)
        if found is _MISSING:
            found = memo[key] = body(ctx)
        return found
    return value


def remembered_function(name, function):
    """`function(ctx, *args)` (a definition's generated function), remembered per state as
    `remembered` does, its arguments Python values."""
    def value(ctx, *args):
        state = ctx.state
        memo = state.memo if state is not None else None
        if memo is None:
            return function(ctx, *args)
        key = (name, args, ctx.me, ctx.board, ctx.self_, ctx.it)
        try:
            found = memo.get(key, _MISSING)
        except TypeError:  # an argument that cannot be a key (a mapping): worked out each time
            return function(ctx, *args)
        if found is _MISSING:
            found = memo[key] = function(ctx, *args)
        return found
    return value


_MISSING = object()
