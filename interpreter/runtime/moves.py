"""Moves: plain data with a stable text notation.

A move is an action of the pack with its parameter values, plus the answers
to any `choose` its effect asked. The text form is what players type, logs
store and tests write:

    play B2
    build house B1+B2+C2 C2
    build guild A1+B1+B2 B1 / farm
    done

Cells print by name, lists joined by `+`, players as P1, P2...; the answers
to an effect's `choose` follow, each after ` / `.
"""

from __future__ import annotations

import attrs

from boardrule.interpreter.runtime.shapes import Shape
from boardrule.interpreter.runtime.values import CELL_MASK, Player

DONE = "done"


@attrs.define(unsafe_hash=True)
class Move:
    """One move. Treat it as immutable: it is hashed and shared by the lists of
    legal moves. It is not frozen because a decision may list hundreds of moves,
    and a frozen class costs three times as much to build."""

    seat: int
    action: str
    args: tuple = ()
    answers: tuple = ()
    # the static type of each answer, for printing (a number is not a cell)
    answer_types: tuple = attrs.field(default=(), eq=False, repr=False)



MAX_REMEMBERED_MOVES = 20_000  # moves an action's lister keeps for reuse, per seat; past it, it starts afresh


def remembered_moves(made: dict, seat: int) -> dict:
    """A lister's moves made before for `seat` (values -> Move), kept in `made` (seat -> them): the same
    moves come up again and again, and a move is immutable data, cheaper found than built."""
    mine = made.get(seat)
    if mine is None or len(mine) >= MAX_REMEMBERED_MOVES:
        mine = made[seat] = {}
    return mine


def append_moves_of_values(found: list, mine: dict, seat: int, action: str, values) -> None:
    """The moves of an action of one parameter, one per value (the value is the key in `mine`)."""
    if type(found) is not list:  # a listing that stops at a move (flow.py's `can`) is handed each one
        for value in values:
            move = mine.get(value)
            if move is None:
                move = mine[value] = Move(seat, action, (value,))
            found.append(move)
        return
    moves = list(map(mine.get, values))  # (one pass in C: most values have their move already)
    if not all(moves):  # a Move is always true, a value never seen gives None
        for index, value in enumerate(values):
            if moves[index] is None:
                move = mine.get(value)  # (a value listed twice has its move made once)
                if move is None:
                    move = mine[value] = Move(seat, action, (value,))
                moves[index] = move
    found.extend(moves)


def value_text(value, grid, value_type=None) -> str:
    """A value as written in moves: cells by name, numbers as numbers."""
    if type(value) is str:  # a kind or a symbol, the most common value
        return value
    if value is None:
        return "-"
    if isinstance(value, Player):
        return repr(value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        if value_type is not None and value_type.name in ("number", "boolean"):
            return str(value)
        return grid.name(value & CELL_MASK)
    if isinstance(value, tuple):
        item = value_type.item if value_type is not None and value_type.is_list else None
        return "+".join(value_text(v, grid, item) for v in value) or "-"
    if isinstance(value, Shape):  # a shape by its name (a family's: `line(3)`), never its Python form
        return value.name
    return str(value)



def move_text(move: Move, game) -> str:
    """The stable notation of a move (without the seat).

    `game` gives the grid and the types of the action's parameters; a bare
    grid is accepted too (every whole number then prints as a cell). A game
    remembers the texts it has written: every move made is logged as text.
    """
    cache = getattr(game, "cache", None)
    if cache is None:  # a bare grid
        return _written(move, game)
    texts = cache.table("move_texts")
    key = (move.action, move.args, move.answers, move.answer_types) if move.answers else (move.action, move.args)
    text = texts.get(key)
    if text is None:
        text = cache.bounded(texts)[key] = _written(move, game)
    return text


def _written(move: Move, game) -> str:
    grid = getattr(game, "grid", game)
    types = getattr(game, "param_types", {}).get(move.action, ())
    parts = [move.action] + [a if type(a) is str else value_text(a, grid, types[i] if i < len(types) else None)
                             for i, a in enumerate(move.args)]  # a kind or symbol, the most common value, as is
    text = " ".join(parts)
    answer_types = move.answer_types
    for i, answer in enumerate(move.answers):
        text += " / " + value_text(answer, grid, answer_types[i] if i < len(answer_types) else None)
    return text


def move_label(move: Move, game) -> str:
    """A readable label: the action's `label:` (or its name) and each value by name.

    `put wood B2` reads "place a good: good wood, cell B2".
    """
    if move.action == DONE:
        return "done: end this decision"
    action = game.actions.get(move.action)
    title = (action.label if action is not None and action.label else move.action.replace("_", " "))
    types = getattr(game, "param_types", {}).get(move.action, ())
    names = [name for name, _ in action.params] if action is not None else []
    parts = [f"{name} {value_text(value, game.grid, types[i] if i < len(types) else None)}"
             for i, (name, value) in enumerate(zip(names, move.args))]
    parts += [f"then {value_text(a, game.grid)}" for a in move.answers]
    return title + (": " + ", ".join(parts) if parts else "")


def normalise_text(text: str) -> str:
    """A key for comparing typed moves: spacing and case do not matter.

    >>> normalise_text("  Play   b2 ") == normalise_text("play B2")
    True
    """
    pieces = [" ".join(_sorted_group(w) for w in part.split()) for part in text.strip().split("/")]
    return " / ".join(pieces).lower()


def _sorted_group(word: str) -> str:
    # a list of cells is a set: `A2+A1` and `A1+A2` are the same move
    return "+".join(sorted(word.lower().split("+"))) if "+" in word else word
