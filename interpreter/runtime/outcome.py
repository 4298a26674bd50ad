"""The outcome of a game: scores, ranking with tie-breaks, winners, verdicts."""

from __future__ import annotations

from boardrule.dsl.records import frozen
from boardrule.interpreter.runtime.scoring import score_sheet
from boardrule.interpreter.runtime.values import PLAYERS


@frozen
class Outcome:
    sheets: dict  # seat -> ScoreSheet
    ranking: tuple  # seats, best first
    keys: dict  # seat -> the tuple compared: (total, tie-break values...)
    winners: tuple  # seats sharing first place
    verdicts: dict  # seat -> text, where the pack has a verdict


def outcome(game, state) -> Outcome:
    """Rank the players: total score first, then the pack's tie-breaks in order."""
    sheets = {seat: score_sheet(game, state, seat) for seat in state.players}
    keys = {}
    for seat in state.players:
        ctx = game.ctx(state, me=PLAYERS[seat])
        keys[seat] = (sheets[seat].total,) + tuple(int(term(ctx)) for term in game.ranking)
    ranking = tuple(sorted(state.players, key=lambda s: (tuple(-k for k in keys[s]), s)))
    best = keys[ranking[0]]
    winners = tuple(s for s in ranking if keys[s] == best)
    verdicts = {}
    if game.verdict is not None:
        for seat in state.players:
            verdicts[seat] = game.verdict(game.ctx(state, me=PLAYERS[seat]))
    return Outcome(sheets, ranking, keys, winners, verdicts)
