"""Judging a position: the pack's own final scoring as if the game ended now, plus what is still to come.

Every agent that looks ahead judges the states it reaches with the same
function, `evaluate(game, state, seat)`, built from the pack alone:

1. **The score as if the game ended now.** Every seat's score sheet
   (`scoring.score_sheet`: recorded points, piece scores, `scoring:` terms),
   worked out on the state as it stands; at the end of the game, the final
   sheets. A goal half reached scores what its chart gives for it now.
2. **The pack's hint**, if it declares one (`evaluate:` in the pack, an
   expression read with `me` the seat judged): points the designer says a
   position is worth beyond its score, such as a connection game's shortest
   remaining path. It counts only while the game is on.
3. **What the marks could still give** (`hope`, 0 unless an agent asks:
   marks.py): a share of what the seat would score if the pieces that
   wait for a mark (a piece fed by another) had it.
4. **What the next move can still add.** The seat that moves next may
   improve its score at once: its best immediate gain (among at most
   `sample` of its moves, drawn at random when it has more) is added to its
   total. So a move that sets up a scoring move is worth that move, and with
   an opponent to move, its best reply counts against the mover.

Alone at the table the value is the seat's total; with others it is the
seat's total minus the best of the others' (the margin), so that helping
another player is not mistaken for progress.

The states judged must hold nothing the seat may not see: agents judge a
world sampled from the seat's view (`montecarlo.determinize`), never the
real state.
"""

from __future__ import annotations

from boardrule.interpreter.agents import marks, patterns
from boardrule.interpreter.runtime import flow
from boardrule.interpreter.runtime.outcome import outcome
from boardrule.interpreter.runtime.scoring import score_sheet
from boardrule.interpreter.runtime.values import PLAYERS, RuleError

#: how many of the next mover's moves `evaluate` tries for its best immediate gain
NEXT_SAMPLE = 12


def scores_now(game, state) -> dict:
    """Every player's score as if the game ended now (the final scores once it is over)."""
    if state.phase == "over":
        sheets = outcome(game, state).sheets
        return {seat: sheets[seat].total for seat in state.players}
    return {seat: score_sheet(game, state, seat).total for seat in state.players}


def score_now(game, state, seat) -> int:
    """One player's score as if the game ended now."""
    if state.phase == "over":
        return outcome(game, state).sheets[seat].total
    return score_sheet(game, state, seat).total


def hint(game, state, seat) -> float:
    """The pack's `evaluate:` hint for `seat` (0 without one, and once the game is over)."""
    rule = game.evaluation_hint
    if rule is None or state.phase == "over":
        return 0.0
    state.meter.begin()
    outer, state.memo = state.memo, {} if state.memo is None else state.memo
    try:
        return float(rule(game.ctx(state, me=PLAYERS[seat])))
    finally:
        state.memo = outer


def totals(game, state, rng=None, sample: int = NEXT_SAMPLE, ahead: bool = True, reach: int = 1,
           discount: float = patterns.DISCOUNT, stranded: float = patterns.STRANDED,
           missing: int = patterns.MAX_MISSING, hope: float = 0.0) -> dict:
    """Every player's judged total: score now + hint + shape potential (`discount` 0: none; `stranded`
    points off per stranded piece; patterns with at most `missing` unmet slots) + `hope` times what the
    marks could still give (marks.py) (+ the next mover's best gain within `reach` of its own decisions
    in a row)."""
    out = scores_now(game, state)
    if state.phase == "over":
        return {seat: float(points) for seat, points in out.items()}
    result = {seat: points + hint(game, state, seat)
              + patterns.potential(game, state, seat, discount, missing, stranded=stranded)
              + (hope * _marks_hope(game, state, seat, points) if hope else 0.0)
              for seat, points in out.items()}
    if ahead:
        waiting = flow.waiting(state)
        if waiting:
            mover = waiting[0]
            result[mover] += best_gain(game, state, mover, out[mover], rng, sample, reach)
    return result


def _marks_hope(game, state, seat, now) -> float:
    """What the marks could still add to the seat's score now (marks.hoped_total; never below 0)."""
    hoped = marks.hoped_total(game, state, seat)
    return 0.0 if hoped is None or hoped <= now else float(hoped - now)


def best_gain(game, state, seat, now, rng=None, sample: int = NEXT_SAMPLE, reach: int = 1) -> float:
    """The most `seat` can add to its score now with its next move, or with its next `reach`
    decisions when it moves again at once (never below 0: it may wait)."""
    moves = _sampled(flow.legal_moves(game, state, seat), rng, sample)
    best = 0.0
    for move in moves:
        try:
            if reach > 1:
                after = flow.apply_in_place(game, state.clone(), move)
                gain = score_now(game, after, seat) - now
                if after.phase != "over" and flow.waiting(after)[:1] == [seat]:
                    gain += best_gain(game, after, seat, now + gain, rng, sample, reach - 1)
            else:
                gain = score_sheet(game, flow.preview(game, state, move), seat).total - now
        except RuleError:
            continue
        if gain > best:
            best = gain
    return best


def _sampled(moves, rng, sample):
    """At most `sample` of the moves: drawn at random with `rng`, evenly spread without."""
    if len(moves) <= sample:
        return moves
    if rng is None:
        step = len(moves) / sample
        return [moves[int(i * step)] for i in range(sample)]
    return rng.sample(moves, sample)


def after_move(game, state, move):
    """The state at the next decision after a legal move (`state` itself is left as it was)."""
    return flow.apply_in_place(game, state.clone(), move)


def judge_move(game, world, seat, move, rng=None, sample: int = NEXT_SAMPLE, reach: int = 2,
               discount: float = patterns.DISCOUNT, stranded: float = patterns.STRANDED,
               missing: int = patterns.MAX_MISSING, hope: float = 0.0) -> float:
    """A move's value for `seat`: the evaluation of the position at the next decision, with the next
    mover's best gain within `reach` decisions (`world` must hold nothing the seat may not see)."""
    return evaluate(game, after_move(game, world, move), seat, rng, sample, reach > 0, max(reach, 1), discount,
                    stranded, missing, hope)


def value(game, judged: dict, seat) -> float:
    """A seat's value from judged totals: its own alone, its margin over the best other with others."""
    mine = judged[seat]
    if len(judged) == 1:
        return mine
    return mine - max(points for other, points in judged.items() if other != seat)


def evaluate(game, state, seat, rng=None, sample: int = NEXT_SAMPLE, ahead: bool = True, reach: int = 1,
             discount: float = patterns.DISCOUNT, stranded: float = patterns.STRANDED,
             missing: int = patterns.MAX_MISSING, hope: float = 0.0) -> float:
    """The value of `state` for `seat` (see the module's docstring)."""
    return value(game, totals(game, state, rng, sample, ahead, reach, discount, stranded, missing, hope), seat)
