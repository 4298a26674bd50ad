"""From game records to a report: scores, wins, length, first seat, where points come from.

`report(game, plan, records)` gives plain data (for JSON and printing):

- `agents` and `seats`: score summaries (mean, sd, quantiles), and with more
  than one player the results: `wins` (first place alone, with a 95% Wilson
  interval), `shared` (first place shared), and verdict counts where the pack
  has a verdict;
- `terms` per agent: every score-sheet label, the mean points it gave per game
  and how often it gave any (`nonzero`);
- `games`: length in moves and rounds, games with a shared first place;
- `first_seat` (more than one player): how the seat that moved first fared,
  next to its fair share of wins (1 / players);
- `differences`: for every two agents, the second's mean score minus the
  first's, with a 95% interval and whether it is beyond noise. Independent
  games use Welch's t; duplicate games pair the agents' scores deal by deal
  (the mean of each agent's results in a deal), which takes the shared luck
  out of the difference.

`compare(first, second)` puts two reports of the same plan through two packs
side by side: the differences (first minus second) of mean scores, win
rates, term means and game length, each with a 95% interval and whether it
is beyond noise. Game g has the same seeds in both runs, so score, term and
length differences are paired game by game. With many terms compared at once, about one in twenty
differences that are pure noise still looks beyond it.
"""

from __future__ import annotations

from boardrule.interpreter.lab import stats


def report(game, plan, records) -> dict:
    agents = list(dict.fromkeys(plan.lineup))
    labels = term_labels(records, game)
    results = [(record, seat) for record in records for seat in record["seats"]]
    multi = plan.players > 1
    out = {
        "pack": {"id": game.id, "name": game.name, "hash": game.pack_hash, "spec": plan.spec},
        "settings": {"games": plan.games, "seed": plan.seed, "seats": list(plan.lineup), "players": plan.players,
                     "options": dict(plan.options), "mode": "duplicate" if plan.duplicate else "independent",
                     "deals": plan.deals()},
        "agents": [],
        "seats": [],
        "games": _games(records, multi),
        "terms": labels,
        "actions": action_names(records, game),
    }
    for agent in agents:
        mine = [seat for _, seat in results if seat["agent"] == agent]
        entry = {"agent": agent, **_results(mine, multi)}
        entry["terms"] = _terms(mine, labels)
        entry["actions"] = _actions(mine, out["actions"])
        out["agents"].append(entry)
    for seat_number in sorted({seat["seat"] for _, seat in results}):
        mine = [seat for _, seat in results if seat["seat"] == seat_number]
        out["seats"].append({"seat": f"P{seat_number + 1}", **_results(mine, multi)})
    if multi:
        out["first_seat"] = _first_seat(records, plan.players)
    out["differences"] = _differences(records, agents, plan.duplicate)
    out["never_scored"] = [label for index, label in enumerate(labels)
                           if not any(agent["terms"][index]["nonzero"] for agent in out["agents"])]
    out["warnings"] = _warnings(out, plan)
    return out


#: the agent every other agent is expected to beat
BASELINE = "random"


def _warnings(out, plan) -> list:
    """Agents that lose to random in duplicate play: by mean score paired deal by deal, and with
    others at the table by win rate too. Such an agent plays this pack worse than chance, so what
    it says of the pack is about its own blind spots."""
    if not plan.duplicate or BASELINE not in plan.lineup:
        return []
    found = []
    for difference in out["differences"]:
        pair = (difference["first"], difference["second"])
        if BASELINE not in pair or difference["diff"] is None:
            continue
        agent = pair[1] if pair[0] == BASELINE else pair[0]
        margin = difference["diff"] if pair[0] == BASELINE else -difference["diff"]
        if margin < 0:
            found.append({"agent": agent, "what": "score", "diff": margin, "ci": _oriented(difference, pair),
                          "beyond_noise": difference["beyond_noise"]})
    if plan.players > 1:
        rates = {entry["agent"]: entry["wins"]["rate"] for entry in out["agents"]}
        for agent, rate in rates.items():
            if agent != BASELINE and rate is not None and rates.get(BASELINE) is not None \
                    and rate < rates[BASELINE]:
                found.append({"agent": agent, "what": "wins", "diff": rate - rates[BASELINE], "ci": None,
                              "beyond_noise": False})
    return found


def _oriented(difference, pair):
    """The interval of (agent minus random), whichever order the pair was measured in."""
    ci = difference["ci"]
    if ci is None or pair[0] == BASELINE:
        return ci
    return [-ci[1], -ci[0]]


def term_labels(records, game=None) -> list:
    """Every score-sheet label: the pack's own (pieces, then `scoring:`, in the pack's
    order, scored or not), then any other in the order they first appear."""
    labels = {}
    if game is not None:
        for _rule, label, *_ in game.piece_scores.values():
            labels.setdefault(label, None)
        for name, *_ in game.scoring:
            labels.setdefault(name, None)
    for record in records:
        for seat in record["seats"]:
            for label, _ in seat["terms"]:
                labels.setdefault(label, None)
    return list(labels)


def _results(seats, multi) -> dict:
    out = {"results": len(seats), "score": stats.summary([s["score"] for s in seats])}
    if multi:
        n = len(seats)
        out["wins"] = stats.rate(sum(1 for s in seats if s["result"] == "win"), n)
        out["shared"] = stats.rate(sum(1 for s in seats if s["result"] == "shared"), n)
    verdicts = {}
    for seat in seats:
        if seat["verdict"] is not None:
            verdicts[str(seat["verdict"])] = verdicts.get(str(seat["verdict"]), 0) + 1
    if verdicts:
        out["verdicts"] = [{"verdict": v, **stats.rate(c, len(seats))}
                           for v, c in sorted(verdicts.items(), key=lambda item: (-item[1], item[0]))]
    return out


def action_names(records, game=None) -> list:
    """The actions of the pack (in its order), then `done` where a step may be closed by it (a `repeat`
    step that is not `repeat: while possible`), then any other action taken."""
    names = list(game.actions) + (["done"] if _done_possible(game) else []) if game is not None else []
    for record in records:
        for seat in record["seats"]:
            names += [name for name, _ in seat.get("actions", ())]
    return list(dict.fromkeys(names))


def _done_possible(game) -> bool:
    return any(step.repeat and not step.required for step in (*game.setup_steps, *game.round_steps)
               if step.kind != "do")


def _action_counts(seats, name) -> list:
    return [dict(seat.get("actions", ())).get(name, 0) for seat in seats]


def _actions(seats, names) -> list:
    """For each action: how often one player took it per game, and in how many games at all."""
    out = []
    for name in names:
        counts = _action_counts(seats, name)
        out.append({"action": name, "mean": stats.mean(counts),
                    "used": sum(1 for c in counts if c) / len(counts) if counts else None})
    return out


def _term_points(seats, label) -> list:
    return [dict(seat["terms"]).get(label, 0) for seat in seats]


def _terms(seats, labels) -> list:
    out = []
    for label in labels:
        points = _term_points(seats, label)
        out.append({"label": label, "mean": stats.mean(points),
                    "nonzero": sum(1 for p in points if p) / len(points) if points else None})
    return out


def _games(records, multi) -> dict:
    out = {"count": len(records), "moves": stats.summary([r["moves"] for r in records]),
           "rounds": stats.summary([r["rounds"] for r in records])}
    if multi:
        out["shared_first_place"] = stats.rate(sum(1 for r in records if r["winners"] > 1), len(records))
    return out


def _first_seat(records, players) -> dict:
    first, others = [], []
    wins = 0
    for record in records:
        for seat in record["seats"]:
            if seat["seat"] == record["first"]:
                first.append(seat["score"])
                wins += seat["result"] == "win"
            else:
                others.append(seat["score"])
    return {"wins": stats.rate(wins, len(first)), "fair_share": 1 / players,
            "score": stats.summary(first), "others_score": stats.summary(others),
            "score_vs_others": stats.welch(others, first)}


def _differences(records, agents, duplicate) -> list:
    out = []
    for i, first in enumerate(agents):
        for second in agents[i + 1:]:
            if duplicate:
                result = stats.paired(_deal_differences(records, first, second))
                method = "paired by deal"
            else:
                result = stats.welch(_agent_scores(records, first), _agent_scores(records, second))
                method = "Welch"
            out.append({"first": first, "second": second, "method": method, **result})
    return out


def _agent_scores(records, agent) -> list:
    return [seat["score"] for record in records for seat in record["seats"] if seat["agent"] == agent]


def _deal_differences(records, first, second) -> list:
    """Per deal: the second agent's mean score minus the first's (deals where both played)."""
    by_deal = {}
    for record in records:
        a, b = by_deal.setdefault(record["deal"], ([], []))
        for seat in record["seats"]:
            if seat["agent"] == first:
                a.append(seat["score"])
            elif seat["agent"] == second:
                b.append(seat["score"])
    out = []
    for deal in sorted(by_deal):
        a, b = by_deal[deal]
        if a and b:
            out.append(stats.mean(b) - stats.mean(a))
    return out


# ------------------------------------------------------------------ compare
def compare(first: dict, second: dict, first_records, second_records) -> dict:
    """Two reports of the same plan through two packs, and their differences (first minus second:
    the pack simulated against the one it is compared with, a variant against its base).

    Game g of both runs has the same seeds and seating, so the differences
    are paired game by game (Student's t on the per-game differences): the
    luck the two games share drops out, as in duplicate mode. Win rates are
    compared as two rates (Newcombe's interval).
    """
    agents = [a["agent"] for a in first["agents"]]
    multi = first["settings"]["players"] > 1
    labels = list(dict.fromkeys(first["terms"] + second["terms"]))
    diffs = {"method": "paired by game", "agents": [], "terms": [],
             "moves": _paired_games(first_records, second_records, lambda r: [r["moves"]]),
             "rounds": _paired_games(first_records, second_records, lambda r: [r["rounds"]])}
    for agent in agents:
        def seats_of(record, agent=agent):
            return [s for s in record["seats"] if s["agent"] == agent]
        entry = {"agent": agent,
                 "score": _paired_games(first_records, second_records,
                                        lambda r: [s["score"] for s in seats_of(r)])}
        if multi:
            a = [s for r in first_records for s in seats_of(r)]
            b = [s for r in second_records for s in seats_of(r)]
            entry["wins"] = stats.rate_difference(sum(s["result"] == "win" for s in b), len(b),
                                                  sum(s["result"] == "win" for s in a), len(a))
        diffs["agents"].append(entry)
        for name in dict.fromkeys(first.get("actions", []) + second.get("actions", [])):
            diffs.setdefault("actions", []).append({"agent": agent, "action": name, **_paired_games(
                first_records, second_records, lambda r, name=name: _action_counts(seats_of(r), name))})
        for label in labels:
            diffs["terms"].append({"agent": agent, "label": label, **_paired_games(
                first_records, second_records, lambda r, label=label: _term_points(seats_of(r), label))})
    if multi:
        diffs["shared_first_place"] = stats.rate_difference(
            sum(r["winners"] > 1 for r in second_records), len(second_records),
            sum(r["winners"] > 1 for r in first_records), len(first_records))
    return {"compare": [first, second], "differences": diffs}


def _paired_games(first_records, second_records, values) -> dict:
    """Per game index: mean of values(record) in the first run minus in the second."""
    before = {r["game"]: values(r) for r in first_records}
    pairs = []
    for record in second_records:
        a, b = before.get(record["game"]), values(record)
        if a and b:
            pairs.append(stats.mean(a) - stats.mean(b))
    return stats.paired(pairs)
