"""What the marks could still give: the score as if the pieces that wait for a mark had it.

A mark is what one piece gives others (`marks:` of a piece kind: a feeder
marks the pieces it feeds); a piece whose score reads a mark scores
nothing until some provider gives it. The score as if the game ended now
counts such a piece as it stands, so a search does not build it before its
provider, nor the provider before anything needs it: a plan of two pieces
that score together is worth nothing to it until both stand.

`hoped_total(game, state, seat)` is the best score the seat's board would
have if the marks were given to all the pieces of some of its kinds: the
kinds on the board, in a fixed order, each kept when giving every mark to
its pieces raises the score (the marks the providers give now are given
too). It is at least the score now; an agent adds a share of the
difference (`hope`) to its judgement of a position, so that a piece that
waits for a mark is worth part of what it would score with it, and the
provider then adds what the pieces it serves would score. A trial whose
rules cannot be worked out (a piece that reads a value its kind lacks) is
left out. A pack without marks hopes for nothing.

The rules run for it are charged to the position's budget meter as every
rule is, so a search that counts work stays deterministic.
"""

from __future__ import annotations

from boardrule.interpreter.runtime import scoring
from boardrule.interpreter.runtime.values import CELL_MASK, PLAYERS, RuleError


def mark_names(game) -> tuple:
    """The names of the marks the pack's pieces give, in a fixed order."""
    found = game.cache.table("agents")
    names = found.get("mark names")
    if names is None:
        names = found["mark names"] = tuple(sorted({name for providers in game.marks.values()
                                                    for name, _ in providers}))
    return names


def hoped_total(game, state, seat):
    """The seat's best score with every mark given to all the pieces of some kinds on its board (see the
    module's docstring); None when the pack gives no marks, the game is over or the score cannot be
    worked out."""
    names = mark_names(game)
    if not names or state.phase == "over":
        return None
    state.meter.begin()
    outer, state.memo = state.memo, {} if state.memo is None else state.memo
    try:
        ctx = game.ctx(state, me=PLAYERS[seat])
        given = scoring.first_choice_marks(game, state, seat)
        marks = {name: frozenset(given.get(name, ())) for name in names}
        best = scoring.total_with_marks(game, ctx, marks)
        kinds = state.kind[ctx.board]
        cells = game.board_cells[ctx.board]
        for kind in sorted({kinds[cell & CELL_MASK] for cell in cells} - {None}):
            of_kind = frozenset(cell for cell in cells if kinds[cell & CELL_MASK] == kind)
            trial = {name: marked | of_kind for name, marked in marks.items()}
            try:
                value = scoring.total_with_marks(game, ctx, trial)
            except (RuleError, TypeError):
                continue  # a piece of another kind reads what this kind lacks
            if value > best:
                best, marks = value, trial
        return best + scoring.recorded_total(state, seat)
    except (RuleError, TypeError):
        return None
    finally:
        state.memo = outer
