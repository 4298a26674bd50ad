"""Score sheets: recorded points, piece scores, scoring terms, best choices.

Marks (like a "fed" flag on cells) may hold choices: `choose(...)` in a mark
lets the scoring pick, for each provider, the option that gives the best
total. Every combination is tried, exactly; identical outcomes are scored
once.
"""

from __future__ import annotations

from boardrule.dsl.exact import Exact

import itertools

from boardrule.dsl.records import frozen
from boardrule.interpreter.runtime.values import PLAYERS, Choice, RuleError

MAX_COMBINATIONS = 20_000


@frozen
class Term:
    label: str
    points: int
    source: str  # "recorded", "piece", "scoring"
    count: int = 1


@frozen
class ScoreSheet:
    seat: int
    terms: tuple
    total: int

    def by_label(self) -> dict:
        out = {}
        for term in self.terms:
            out[term.label] = out.get(term.label, 0) + term.points
        return out


_IN_PROGRESS = set()  # (state, seat) being scored: a score may not read itself


def score_sheet(game, state, seat) -> ScoreSheet:
    """Every term of a player's score, with the best choices for marks."""
    key = (id(state), seat)
    if key in _IN_PROGRESS:
        raise RuleError(f"the score of {PLAYERS[seat]!r} depends on itself (a scoring rule reads `.score`)")
    _IN_PROGRESS.add(key)
    state.meter.begin()
    outer, state.memo = state.memo, {} if state.memo is None else state.memo  # scoring changes nothing
    try:
        return _score_sheet(game, state, seat)
    finally:
        _IN_PROGRESS.discard(key)
        state.memo = outer


def _score_sheet(game, state, seat) -> ScoreSheet:
    ctx = game.ctx(state, me=PLAYERS[seat])
    fixed, choices = _mark_providers(game, ctx)
    best = None
    for marks in _mark_outcomes(fixed, choices, ctx.meter):
        ctx.marks = marks
        terms = _piece_terms(game, ctx) + _scoring_terms(game, ctx)
        total = sum(t.points for t in terms)
        if best is None or total > best[0]:
            best = (total, terms)
    recorded = _recorded_terms(state, seat)
    terms = recorded + best[1]
    return ScoreSheet(seat, tuple(terms), sum(t.points for t in terms))


def total_with_marks(game, ctx, marks: dict) -> int:
    """The piece scores and `scoring:` terms of the context's player with the marks `marks` (name ->
    cells) given, whatever the providers give: what a score would be if those marks were so."""
    ctx.marks = marks
    return sum(t.points for t in _piece_terms(game, ctx) + _scoring_terms(game, ctx))


def recorded_total(state, seat) -> int:
    """The points recorded for a player (`score N as ...`)."""
    return sum(t.points for t in _recorded_terms(state, seat))


def first_choice_marks(game, state, seat) -> dict:
    """Marks with the first option of every choice (outside of scoring)."""
    if seat is None:
        return {}
    fixed, choices = _mark_providers(game, game.ctx(state, me=PLAYERS[seat]))
    return next(iter(_mark_outcomes(fixed, [(m, opts[:1]) for m, opts in choices])))


def _recorded_terms(state, seat) -> list:
    totals, order = {}, []
    for label, points in state.points[seat]:
        if label not in totals:
            order.append(label)
            totals[label] = [0, 0]
        totals[label][0] += points
        totals[label][1] += 1
    return [Term(label, totals[label][0], "recorded", totals[label][1]) for label in order]


def _mark_providers(game, ctx):
    fixed, choices = {}, []
    if not game.marks:
        return fixed, choices
    kinds = ctx.state.kind[ctx.board]
    cells = game.board_cells[ctx.board]
    for cell in cells:
        providers = game.marks.get(kinds[cell & 1023])
        if not providers:
            continue
        ctx.self_ = cell
        for name, rule in providers:
            value = rule(ctx)
            if isinstance(value, Choice):
                options = tuple(dict.fromkeys(frozenset(o) for o in value.options))
                choices.append((name, options or (frozenset(),)))
            else:
                fixed.setdefault(name, set()).update(value if isinstance(value, tuple) else (value,))
    ctx.self_ = None
    return fixed, choices


def _mark_outcomes(fixed, choices, meter=None):
    base = {name: frozenset(cells) for name, cells in fixed.items()}
    if not choices:
        yield base
        return
    seen = set()
    count = 0
    for combination in itertools.product(*(options for _, options in choices)):
        if meter is not None:  # combinations that repeat one already seen are work too
            meter.charge(1)
        marks = {name: set(cells) for name, cells in base.items()}
        for (name, _), picked in zip(choices, combination):
            marks.setdefault(name, set()).update(picked)
        key = tuple(sorted((n, tuple(sorted(c))) for n, c in marks.items()))
        if key in seen:
            continue
        seen.add(key)
        count += 1
        if count > MAX_COMBINATIONS:
            raise RuleError(f"more than {MAX_COMBINATIONS} ways to choose marks; simplify the `choose` rules")
        yield {n: frozenset(c) for n, c in marks.items()}


def _piece_terms(game, ctx) -> list:
    if not game.piece_scores:
        return []
    totals, order = {}, []
    kinds = ctx.state.kind[ctx.board]
    for cell in game.board_cells[ctx.board]:
        kind = kinds[cell & 1023]
        rule = game.piece_scores.get(kind)
        if rule is None:
            continue
        ctx.self_ = cell
        ctx.it = None
        points = rule[0](ctx)
        label = rule[1]
        if label not in totals:
            order.append(label)
            totals[label] = [0, 0]
        totals[label][0] += as_points(points)
        totals[label][1] += 1
    ctx.self_ = None
    return [Term(label, totals[label][0], "piece", totals[label][1]) for label in order]


def _scoring_terms(game, ctx) -> list:
    return [Term(name, as_points(rule(ctx)), "scoring") for name, rule, _ in game.scoring]


def as_points(value):
    """A term's points: a number as it is (7.5 stays exact, dsl/exact.py), true/false as 1/0."""
    return value if type(value) is Exact else int(value)
