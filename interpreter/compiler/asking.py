"""Which effects may stop half-way to ask the player a choice.

An effect asks when a `choose` runs out of answers, and that may happen in
the effect itself or in a trigger it sets off: `emit EVENT`, or `place`
(which fires `placed`), runs the `on: EVENT` effects of the pieces that
listen, and those may choose or set off more. Found once, from the pack's
statements, so that a move whose effect can never ask may be made on the
state itself (flow.apply_in_place) instead of on a copy kept in case it asks.
"""

from __future__ import annotations

from boardrule.dsl import ast
from boardrule.interpreter.compiler.effects import PLACED


def asking_events(pieces) -> frozenset:
    """The events whose triggers may ask a choice, directly or through the events they set off."""
    listeners = {}
    for piece in pieces:
        for event, effect in piece.triggers:
            listeners.setdefault(event, []).append(effect)
    asking = set()
    changed = True
    while changed:  # a fixpoint: each pass may find triggers that set off an asking event
        changed = False
        for event, effects in listeners.items():
            if event not in asking and any(may_ask(effect, asking) for effect in effects):
                asking.add(event)
                changed = True
    return frozenset(asking)


def may_ask(statements, asking: frozenset | set) -> bool:
    """Whether running `statements` may ask a choice, given the events that may."""
    for statement in _every_statement(statements):
        if isinstance(statement, ast.Choose):
            return True
        if isinstance(statement, ast.Emit) and statement.event in asking:
            return True
        if isinstance(statement, ast.Place) and PLACED in asking:
            return True
    return False


def _every_statement(statements):
    for statement in statements:
        yield statement
        if isinstance(statement, ast.If):
            for _, body in statement.branches:
                yield from _every_statement(body)
            yield from _every_statement(statement.otherwise)
        else:
            yield from _every_statement(getattr(statement, "body", ()))
