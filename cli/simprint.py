"""Printing simulation and benchmark reports: text tables and CSV rows."""

from __future__ import annotations

import csv
import io

from boardrule.interpreter.lab.figures import interval, num, pct


# ------------------------------------------------------------------ helpers
def table(headers, rows, right=()) -> list:
    widths = [max([len(str(h))] + [len(str(r[i])) for r in rows]) for i, h in enumerate(headers)]

    def line(cells):
        out = []
        for index, (cell, width) in enumerate(zip(cells, widths)):
            out.append(str(cell).rjust(width) if index in right else str(cell).ljust(width))
        return ("  " + "  ".join(out)).rstrip()
    return [line(headers), "  " + "  ".join("-" * w for w in widths)] + [line(r) for r in rows]


SCORE_COLUMNS = ("mean", "sd", "min", "p10", "p25", "median", "p75", "p90", "max")


def _score_row(name, results, score):
    return [name, results] + [num(score[key]) for key in SCORE_COLUMNS]


def pvalue(p) -> str:
    return "-" if p is None else "<0.001" if p < 0.001 else f"{p:.3f}"


def _noise(result) -> str:
    if result.get("ci") is None:
        return "too few games"
    return "beyond noise" if result["beyond_noise"] else "within noise"


# ------------------------------------------------------------------ simulate
def render_report(report: dict) -> str:
    if "compare" in report:
        return render_comparison(report)
    lines = _heading(report)
    lines += _body(report)
    return "\n".join(lines)


def _heading(report) -> list:
    pack, settings = report["pack"], report["settings"]
    mode = (f"duplicate chance: {settings['deals']} deals, each played by every rotation of the seats"
            if settings["mode"] == "duplicate" else "independent games")
    options = ", ".join(f"{k}={v}" for k, v in settings["options"].items()) or "defaults"
    players = settings["players"]
    return [f"{pack['name']} ({pack['id']}, pack {pack['hash']})",
            f"  {settings['games']} games, {players} player{'s' if players != 1 else ''}, "
            f"seats {','.join(settings['seats'])}, seed {settings['seed']}, options: {options}",
            f"  {mode}"]


def _body(report) -> list:
    multi = report["settings"]["players"] > 1
    lines = ["", "Final scores by agent"]
    rows = [_score_row(a["agent"], a["results"], a["score"]) for a in report["agents"]]
    lines += table(["agent", "results", *SCORE_COLUMNS], rows, right=range(1, 11))
    lines += ["", "Final scores by seat"]
    rows = [_score_row(s["seat"], s["results"], s["score"]) for s in report["seats"]]
    lines += table(["seat", "results", *SCORE_COLUMNS], rows, right=range(1, 11))
    if multi:
        lines += ["", "Wins (first place alone; shared first places apart), 95% Wilson intervals"]
        rows = []
        for kind, entries in (("agent", report["agents"]), ("seat", report["seats"])):
            for entry in entries:
                wins, shared = entry["wins"], entry["shared"]
                rows.append([kind, entry.get("agent") or entry.get("seat"), entry["results"], wins["count"],
                             pct(wins["rate"]), interval(wins["ci"], True), shared["count"], pct(shared["rate"])])
        lines += table(["by", "who", "results", "wins", "win rate", "95% interval", "shared", "shared rate"], rows,
                       right=(2, 3, 4, 6, 7))
    verdicts = [(a["agent"], v) for a in report["agents"] for v in a.get("verdicts", [])]
    if verdicts:
        lines += ["", "Verdicts"]
        rows = [[agent, v["verdict"], v["count"], pct(v["rate"]), interval(v["ci"], True)] for agent, v in verdicts]
        lines += table(["agent", "verdict", "games", "rate", "95% interval"], rows, right=(2, 3))
    games = report["games"]
    lines += ["", "Game length"]
    rows = [["moves", games["count"]] + [num(games["moves"][k]) for k in SCORE_COLUMNS],
            ["rounds", games["count"]] + [num(games["rounds"][k]) for k in SCORE_COLUMNS]]
    lines += table(["", "games", *SCORE_COLUMNS], rows, right=range(1, 11))
    if multi:
        shared = games["shared_first_place"]
        lines.append(f"  shared first place: {shared['count']} games ({pct(shared['rate'])}, "
                     f"95% {interval(shared['ci'], True)})")
        first = report["first_seat"]
        wins, vs = first["wins"], first["score_vs_others"]
        lines += ["", "First seat (the seat that moved first)",
                  f"  wins {wins['count']} of {wins['of']}: {pct(wins['rate'])}, 95% {interval(wins['ci'], True)}; "
                  f"fair share {pct(first['fair_share'])}",
                  f"  mean score {num(first['score']['mean'])} vs {num(first['others_score']['mean'])} for the "
                  f"others: {num(vs['diff'], '+.2f')}, 95% {interval(vs['ci'])}, {_noise(vs)}"]
    lines += ["", "Where the points come from: mean points per result (share of results where the term scored)"]
    agents = report["agents"]
    rows, silent = [], []
    for index, label in enumerate(report["terms"]):
        if not any(agent["terms"][index]["nonzero"] for agent in agents):
            silent.append(label)
            continue
        row = [label]
        for agent in agents:
            term = agent["terms"][index]
            row.append(f"{num(term['mean'])} ({pct(term['nonzero'])})")
        rows.append(row)
    rows.append(["total"] + [num(a["score"]["mean"]) for a in agents])
    lines += table(["term", *(a["agent"] for a in agents)], rows, right=range(1, len(agents) + 1))
    if silent:
        lines.append(f"  never scored: {', '.join(silent)}")
        lines.append("  No agent scored these terms in this run: with these agents --compare cannot see a change to "
                     "them (it reports 0.00 for them whatever the change); a stronger agent or more games may reach "
                     "them.")
    lines += _action_lines(report)
    if report["differences"]:
        lines += ["", "Agent differences in mean score (second minus first), 95% intervals"]
        rows = [[d["first"], d["second"], d["method"], num(d["diff"], "+.2f"), num(d["se"]), interval(d["ci"]),
                 pvalue(d["p"]), _noise(d)] for d in report["differences"]]
        lines += table(["first", "second", "method", "difference", "se", "95% interval", "p", ""], rows,
                       right=(3, 4, 6))
    lines += _warning_lines(report)
    return lines


def _warning_lines(report) -> list:
    """Agents that lose to random in duplicate play (simreport._warnings)."""
    lines = []
    for warning in report.get("warnings", []):
        if warning["what"] == "score":
            sure = "beyond noise" if warning["beyond_noise"] else "within noise"
            lines.append(f"  warning: {warning['agent']} scores {num(-warning['diff'])} points less than random "
                         f"in duplicate play (95% {interval(warning['ci'])}, {sure}): it plays this pack worse "
                         "than chance, so its figures say more about the agent than about the pack")
        else:
            lines.append(f"  warning: {warning['agent']} wins less often than random in duplicate play "
                         f"({pct(-warning['diff'])} fewer wins): it plays this pack worse than chance")
    return ([""] + lines) if lines else []


def _action_lines(report) -> list:
    """How often each action was taken, per player and game (share of results that took it)."""
    agents = report["agents"]
    names = report.get("actions", [])
    if not names:
        return []
    lines = ["", "What the players did: moves per result by action (share of results that took it)"]
    rows, unused = [], []
    for index, name in enumerate(names):
        if not any(agent["actions"][index]["used"] for agent in agents):
            unused.append(name)
            continue
        rows.append([name] + [f"{num(a['actions'][index]['mean'])} ({pct(a['actions'][index]['used'])})"
                              for a in agents])
    lines += table(["action", *(a["agent"] for a in agents)], rows, right=range(1, len(agents) + 1))
    if unused:
        lines.append(f"  never taken: {', '.join(unused)}")
    return lines


def _compared_action_lines(first, second, diffs) -> list:
    rows = []
    for entry in diffs.get("actions", []):
        a, b = _action(first, entry), _action(second, entry)
        if a["used"] or b["used"]:
            rows.append([entry["agent"], entry["action"], num(a["mean"]), num(b["mean"]),
                         num(entry["diff"], "+.2f"), interval(entry["ci"]), _noise(entry)])
    if not rows:
        return []
    return ["", "What the players did: moves per result by action"] + table(
        ["agent", "action", "first", "second", "difference", "95% interval", ""], rows, right=(2, 3, 4))


def _action(report, entry) -> dict:
    for agent in report["agents"]:
        if agent["agent"] == entry["agent"]:
            for action in agent.get("actions", []):
                if action["action"] == entry["action"]:
                    return action
    return {"action": entry["action"], "mean": 0.0, "used": 0}


def render_comparison(report: dict) -> str:
    first, second = report["compare"]
    diffs = report["differences"]
    lines = ["Comparison: the same games through two packs (differences: first minus second)", ""]
    for label, part in (("first", first), ("second", second)):
        lines += [f"[{label}] " + line if i == 0 else line for i, line in enumerate(_heading(part))]
    multi = first["settings"]["players"] > 1
    lines += ["", "Mean score by agent"]
    rows = []
    for index, entry in enumerate(diffs["agents"]):
        a, b, d = first["agents"][index], second["agents"][index], entry["score"]
        rows.append([entry["agent"], num(a["score"]["mean"]), num(b["score"]["mean"]), num(d["diff"], "+.2f"),
                     interval(d["ci"]), pvalue(d["p"]), _noise(d)])
    lines += table(["agent", "first", "second", "difference", "95% interval", "p", ""], rows, right=(1, 2, 3, 5))
    if multi:
        lines += ["", "Win rate by agent"]
        rows = []
        for index, entry in enumerate(diffs["agents"]):
            a, b, d = first["agents"][index]["wins"], second["agents"][index]["wins"], entry["wins"]
            rows.append([entry["agent"], pct(a["rate"]), pct(b["rate"]), pct(d["diff"]), interval(d["ci"], True),
                         _noise(d)])
        lines += table(["agent", "first", "second", "difference", "95% interval", ""], rows, right=(1, 2, 3))
    lines += ["", "Game length"]
    rows = []
    for key in ("moves", "rounds"):
        d = diffs[key]
        rows.append([key, num(first["games"][key]["mean"]), num(second["games"][key]["mean"]),
                     num(d["diff"], "+.2f"), interval(d["ci"]), _noise(d)])
    lines += table(["", "first", "second", "difference", "95% interval", ""], rows, right=(1, 2, 3))
    lines += ["", "Where the points come from: mean points per result"]
    rows, silent = [], []
    for entry in diffs["terms"]:
        a, b = _term(first, entry), _term(second, entry)
        if not a["nonzero"] and not b["nonzero"]:
            silent.append(entry["label"])
            continue
        rows.append([entry["agent"], entry["label"], num(a["mean"]), num(b["mean"]), num(entry["diff"], "+.2f"),
                     interval(entry["ci"]), _noise(entry)])
    lines += table(["agent", "term", "first", "second", "difference", "95% interval", ""], rows, right=(2, 3, 4))
    if silent:
        lines.append(f"  never scored in either pack: {', '.join(dict.fromkeys(silent))}")
    lines += _compared_action_lines(first, second, diffs)
    lines += ["  (paired game by game: game g has the same seeds in both packs; with many terms compared,",
              "  about 1 in 20 differences that are pure noise still looks beyond it)"]
    return "\n".join(lines)


def _term(report, entry) -> dict:
    for agent in report["agents"]:
        if agent["agent"] == entry["agent"]:
            for term in agent["terms"]:
                if term["label"] == entry["label"]:
                    return term
    return {"label": entry["label"], "mean": 0, "nonzero": 0}


# ------------------------------------------------------------------ csv
CSV_COLUMNS = ("game", "deal", "rotation", "seed", "seat", "position", "agent", "score", "place", "result",
               "verdict", "moves", "rounds", "first_seat")


def render_csv(records, labels, packs=None) -> str:
    """One row per game and seat; a column per score-sheet term (`term:LABEL`).

    With `packs` (a comparison), `records` is one list per pack and a first
    column names the pack.
    """
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    lead = ["pack"] if packs else []
    writer.writerow(lead + list(CSV_COLUMNS) + [f"term:{label}" for label in labels])
    groups = list(zip(packs, records)) if packs else [(None, records)]
    for pack, group in groups:
        for record in group:
            for seat in record["seats"]:
                terms = dict(seat["terms"])
                row = [record["game"] + 1, record["deal"] + 1, record["rotation"], record["seed"],
                       f"P{seat['seat'] + 1}", seat["position"] + 1, seat["agent"], seat["score"], seat["place"],
                       seat["result"] or "", "" if seat["verdict"] is None else seat["verdict"], record["moves"],
                       record["rounds"], f"P{record['first'] + 1}"]
                writer.writerow(([pack] if packs else []) + row + [terms.get(label, 0) for label in labels])
    return out.getvalue()


# ------------------------------------------------------------------ bench
def render_bench(report: dict) -> str:
    env = report["environment"]
    lines = ["boardrule bench",
             f"  engine   boardrule {env['engine']['version']}",
             f"  python   {env['python']['version']} ({env['python']['implementation']})",
             f"  cpu      {env['cpu']['model']} ({env['cpu']['logical_cpus']} logical CPUs)"]
    if env.get("load_average"):
        lines.append(f"  load     {' '.join(f'{x:.2f}' for x in env['load_average'])}")
    lines += ["", "Random playouts, check and start-up per pack"]
    rows = []
    for pack in report["packs"]:
        if "error" in pack:
            rows.append([pack["name"], "-", pack.get("hash", "-"), "FAILED: " + pack["error"].splitlines()[0]]
                        + [""] * 6)
            continue
        play, check, start = pack["random"], pack["check"], pack["startup"]
        command = pack.get("check_command", {})
        rows.append([pack["name"], pack["players"], pack["hash"], play["games"], num(play["games_per_s"], ".1f"),
                     num(play["ms_per_game"]), num(play["moves_per_game"], ".1f"),
                     num(check.get("in_process_s"), ".3f"), num(start.get("best_s"), ".3f"),
                     num(command.get("best_s"), ".3f")])
    lines += table(["pack", "players", "hash", "games", "games/s", "ms/game", "moves/game", "check s",
                    "start-up s", "boardrule check s"], rows, right=range(3, 10))
    lines += _decision_lines(report)
    startup = report["startup"]
    bare = startup["bare_python"].get("best_s")
    lines += ["", "  games/s, ms/game: with a time budget, the fastest of 5 windows that each replay games 0, 1, 2...",
              "  check s: load, check, compile and the pack's own tests, in this process",
              "  start-up s: a fresh interpreter importing boardrule and opening the pack (best of "
              f"{report['settings']['repeats']})",
              "  boardrule check s: the command `boardrule check PACK`, start-up included",
              f"  boardrule --help: {num(startup['help'].get('best_s'), '.3f')} s"
              f"{_times(startup['help'].get('best_s'), bare)}; a bare interpreter (python -c pass): "
              f"{num(bare, '.3f')} s",
              "  every start is timed with its bytecode written (PYTHONDONTWRITEBYTECODE left out), after one "
              "run that writes it"]
    return "\n".join(lines)


def _times(seconds, bare) -> str:
    """`, 2.4x a bare interpreter`, or nothing when a figure is missing."""
    if seconds is None or not bare:
        return ""
    return f", {seconds / bare:.1f}x a bare interpreter"


def _decision_lines(report: dict) -> list:
    """The table of decisions per second by pack and agent (bench --seats)."""
    rows = [[pack["name"], rate["agent"], rate["decisions"], num(rate["decisions_per_s"], ".1f"),
             num(rate["ms_per_decision"], ".1f")]
            for pack in report["packs"] for rate in pack.get("decisions", ())]
    if not rows:
        return []
    return (["", "Decisions per second by agent (decisions between two or more moves; the agent plays every seat)"]
            + table(["pack", "agent", "decisions", "decisions/s", "ms/decision"], rows, right=range(2, 5)))
