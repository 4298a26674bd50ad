"""A ladder: every pair of agents in duplicate matches, rated on one Elo-style scale with intervals.

    >>> from boardrule.interpreter.lab.ladder import ladder
    >>> table = ladder("tictactoe", ["random", "greedy"], games=4, seed=1)
    >>> [row["agent"] for row in table["ratings"]]
    ['greedy', 'random']

**Matches.** Each pair of agents plays `games` duplicate games
(`lab.simulate` with `duplicate=True`: every deal once in each seating, the
same dice and decks for both), at `players` seats (default: two when the pack
allows it, else the fewest it allows; the two agents take the seats in turn).
Alone at the table (a solo pack), both agents play every deal and the higher
score of a deal wins it. With others, the agent with the better place in a
game wins it; the same place (a shared win, or a game both lost to a third
seat of the same agent) is a draw.

**Ratings.** The Bradley-Terry model, fitted by maximum likelihood with the
minorisation-maximisation iteration (Hunter 2004), each draw counted half a
win to each side, and one drawn game added to every pair that played (a
prior that keeps an agent that won everything finite). Ratings are on the
Elo scale (400 points: ten to one odds), the first agent named at 0.

**Intervals.** 95% percentile intervals from a bootstrap over deals: each
pair's deals drawn again with replacement (`BOOTSTRAP` times, from the
ladder's seed, so the same run gives the same intervals), the ratings fitted
again each time.
"""

from __future__ import annotations

import math
import random

from boardrule.dsl.diagnostics import UsageError
from boardrule.interpreter.lab import stats
from boardrule.interpreter.lab import simulate
from boardrule.interpreter.lab.simulate import derive

BOOTSTRAP = 400
ITERATIONS = 500
TOLERANCE = 1e-9
LADDER = 3  # a purpose of derived seeds (simulate.py uses 1 and 2)


def ladder(pack, agents, games: int = 20, seed: int = 0, players: int | None = None, options: dict | None = None,
           jobs: int = 1, progress=None) -> dict:
    """Play every pair of `agents` in `games` duplicate games each; the ratings, the pairs and the spread."""
    agents = list(dict.fromkeys(name.strip() for name in agents))
    if len(agents) < 2:
        raise UsageError("a ladder needs at least two different agents, e.g. `random,greedy,mcts`", code="E005")
    if games < 2:
        raise UsageError(f"a ladder plays at least 2 games per pair (both seatings of a deal), not {games}",
                         code="E001")
    pairs = [(a, b) for i, a in enumerate(agents) for b in agents[i + 1:]]
    done = [0]
    total = len(pairs) * games

    def tell(count, _):
        if progress is not None:
            progress(done[0] + count, total)

    results = {}
    seats = _seats_for(pack, players)
    for number, (first, second) in enumerate(pairs):
        run = simulate(pack, games=games, seats=[first, second], seed=derive(seed, LADDER, number),
                       players=seats, options=options, duplicate=True, jobs=jobs, progress=tell)
        done[0] += games
        results[(first, second)] = deal_results(run.records, first, second, seats)
    ratings = fit(agents, results)
    low, high = bootstrap(agents, results, random.Random(derive(seed, LADDER, len(pairs))))
    return {"pack": pack, "players": seats, "games_per_pair": games, "seed": seed, "anchor": agents[0],
            "ratings": _rating_rows(agents, results, ratings, low, high),
            "pairs": [_pair_row(a, b, results[(a, b)]) for a, b in pairs],
            "spread": _spread(agents, ratings, low, high)}


def _seats_for(pack, players):
    if players is not None:
        return players
    from boardrule.interpreter.api import open_game
    low, high = open_game(pack).players_range
    return 2 if low <= 2 <= high else low


# ------------------------------------------------------------------ results
def deal_results(records, first, second, players) -> list:
    """Per deal, [wins, draws, losses] of `first` against `second`."""
    by_deal = {}
    for record in records:
        if "error" in record:
            from boardrule.interpreter.runtime.values import RuleError
            raise RuleError(f"game {record['game']}: {record['error']}", record.get("span"))
        by_deal.setdefault(record["deal"], []).append(record)
    out = []
    for deal in sorted(by_deal):
        tally = [0, 0, 0]
        if players == 1:
            scores = {seat["agent"]: seat["score"] for game in by_deal[deal] for seat in game["seats"]}
            if first in scores and second in scores:
                tally[_verdict(scores[first], scores[second])] += 1
        else:
            for game in by_deal[deal]:
                place = {}
                for seat in game["seats"]:
                    place[seat["agent"]] = min(place.get(seat["agent"], seat["place"]), seat["place"])
                tally[_verdict(-place[first], -place[second])] += 1
        out.append(tally)
    return out


def _verdict(mine, theirs) -> int:
    """0 a win, 1 a draw, 2 a loss (higher is better)."""
    return 0 if mine > theirs else 1 if mine == theirs else 2


# ------------------------------------------------------------------ the model
def fit(agents, results) -> dict:
    """Bradley-Terry ratings on the Elo scale, the first agent at 0 (see the module's docstring)."""
    index = {name: i for i, name in enumerate(agents)}
    k = len(agents)
    wins = [0.0] * k
    played = [[0.0] * k for _ in range(k)]
    for (a, b), deals in results.items():
        i, j = index[a], index[b]
        w = sum(d[0] for d in deals) + 0.5 * sum(d[1] for d in deals) + 0.5  # + half of the prior's draw
        n = sum(sum(d) for d in deals) + 1.0
        wins[i] += w
        wins[j] += n - w
        played[i][j] += n
        played[j][i] += n
    strength = [1.0] * k
    for _ in range(ITERATIONS):
        new = []
        for i in range(k):
            denominator = sum(played[i][j] / (strength[i] + strength[j]) for j in range(k) if played[i][j])
            new.append(wins[i] / denominator if denominator else strength[i])
        scale = math.exp(sum(math.log(s) for s in new) / k)  # the geometric mean at 1: the fit is unchanged
        new = [s / scale for s in new]
        moved = max(abs(a - b) for a, b in zip(new, strength))
        strength = new
        if moved < TOLERANCE:
            break
    base = math.log10(strength[0])
    return {name: 400.0 * (math.log10(strength[index[name]]) - base) for name in agents}


def bootstrap(agents, results, rng) -> tuple:
    """The 2.5% and 97.5% quantiles of each rating over `BOOTSTRAP` resamplings of every pair's deals."""
    drawn = {name: [] for name in agents}
    for _ in range(BOOTSTRAP):
        sample = {pair: [deals[rng.randrange(len(deals))] for _ in deals] for pair, deals in results.items()}
        for name, value in fit(agents, sample).items():
            drawn[name].append(value)
    low, high = {}, {}
    for name, values in drawn.items():
        values.sort()
        low[name], high[name] = stats.quantile(values, 0.025), stats.quantile(values, 0.975)
    return low, high


def expected(difference: float) -> float:
    """The share of points the stronger side expects for a rating difference (Elo: 400 is ten to one)."""
    return 1.0 / (1.0 + 10.0 ** (-difference / 400.0))


# ------------------------------------------------------------------ the report
def _rating_rows(agents, results, ratings, low, high) -> list:
    rows = []
    for name in agents:
        w = d = n = 0
        for (a, b), deals in results.items():
            if name in (a, b):
                mine = 0 if name == a else 2
                w += sum(deal[mine] for deal in deals)
                d += sum(deal[1] for deal in deals)
                n += sum(sum(deal) for deal in deals)
        rows.append({"agent": name, "rating": round(ratings[name], 1), "low": round(low[name], 1),
                     "high": round(high[name], 1), "games": n, "wins": w, "draws": d,
                     "points": round((w + 0.5 * d) / n, 3) if n else None})
    rows.sort(key=lambda row: (-row["rating"], agents.index(row["agent"])))
    return rows


def _pair_row(first, second, deals) -> dict:
    w = sum(d[0] for d in deals)
    dr = sum(d[1] for d in deals)
    n = sum(sum(d) for d in deals)
    decided = w + (n - w - dr)
    return {"first": first, "second": second, "games": n, "wins": w, "draws": dr, "losses": n - w - dr,
            "points": round((w + 0.5 * dr) / n, 3) if n else None,
            "wins_decided": stats.rate(w, decided) if decided else None}


def _spread(agents, ratings, low, high) -> dict:
    """How much skill matters: the strongest against the weakest, and whether the ratings are told apart."""
    ordered = sorted(agents, key=lambda name: -ratings[name])
    best, worst = ordered[0], ordered[-1]
    difference = ratings[best] - ratings[worst]
    apart = [a for a, b in zip(ordered, ordered[1:]) if low[a] > high[b]]
    return {"best": best, "worst": worst, "difference": round(difference, 1),
            "expected": round(expected(difference), 3), "separated": len(apart), "steps": len(ordered) - 1}
