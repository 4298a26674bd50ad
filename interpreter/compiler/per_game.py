"""Definitions that keep one value for a whole game, worked out once per game.

A definition without parameters whose body reads only the game's options,
the players, constants and other such definitions (`solo: count(players) == 1`,
`long_game: length == long`) cannot change while a game is played. Its
compiled closure remembers the value for the options and players it was
worked out for, and answers from memory while they are the same objects: a
state's clones share both, so a game works each such definition out once.
"""

from __future__ import annotations

from boardrule.dsl.lints import walk
from boardrule.dsl.resolution import (Aggregate, Define, Direction, Option, Record, RecordKind, Shape, Symbol,
                                      SymbolSet, Value)
from boardrule.dsl import ast as nodes

# what a name may be resolved to and still read nothing a move can change
FIXED_RESOLUTIONS = frozenset({Option, Symbol, SymbolSet, Shape, Direction, Record, RecordKind})
FIXED_VALUES = frozenset({"players", "kinds", "true", "false", "none"})
FIXED_NODES = frozenset({nodes.Number, nodes.String, nodes.BinOp, nodes.Not, nodes.Negate, nodes.Conditional,
                         nodes.ListExpr, nodes.Member, nodes.Range, nodes.Index})


def is_fixed_per_game(game, resolved, name, known: dict | None = None) -> bool:
    """True when definition `name` has no parameters and a value no move can change.

    `known` remembers the answer per definition across calls (the checker has
    refused definitions that use themselves, so an answer never depends on
    the path that asked).
    """
    return _fixed_define(game, resolved, name, frozenset(), {} if known is None else known)


def _fixed_define(game, resolved, name, seen, known) -> bool:
    if name in known:
        return known[name]
    define = game.defines[name]
    if define.params or name in seen:
        return False
    known[name] = answer = _fixed(game, resolved, define.body, seen | {name}, known)
    return answer


def _fixed(game, resolved, body, seen, known) -> bool:
    return all(_fixed_node(game, resolved, node, seen, known) for node in walk(body))


def _fixed_node(game, resolved, node, seen, known) -> bool:
    """One node of a fixed body (its children are judged on their own)."""
    kind = type(node)
    if kind is nodes.Name:
        resolution = resolved.get(node)
        if resolution is None:
            return False
        what, detail = type(resolution), resolution.name
        if what is Define:
            return _fixed_define(game, resolved, detail, seen, known)
        return what in FIXED_RESOLUTIONS or (what is Value and detail in FIXED_VALUES)
    if kind is nodes.Call:  # an aggregate of a list, without a body: `count(players)`
        return type(resolved.get(node)) is Aggregate and len(node.args) == 1 and not node.kwargs
    return kind in FIXED_NODES


def remembered_per_game(compute):
    """`compute(ctx)` worked out once per game: per state options and players objects."""
    memo = [(None, None, None)]  # (options, players, value), replaced whole: one assignment

    def value(ctx):
        state = ctx.state
        options, players, known = memo[0]
        if options is state.options and players is state.players:
            return known
        found = compute(ctx)
        memo[0] = (state.options, state.players, found)
        return found
    return value
