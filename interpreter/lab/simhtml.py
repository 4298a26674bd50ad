"""A simulation report as one self-contained HTML page (`boardrule simulate --report FILE.html`).

    >>> from boardrule.interpreter.lab import simulate
    >>> run = simulate("tictactoe", games=10, seats=["greedy", "random"], seed=1)
    >>> page = report_page(run.report, run.records, use_matplotlib=False)
    >>> page.startswith("<!DOCTYPE html>") and page.count("<svg") >= 5
    True

It shows what the text report says (simreport.py computes every figure; this
module only lays them out): the score distributions per agent and per seat,
where the points come from (on charts.term_scale's scale), the first seat's
edge and the win rates with their 95% intervals, the agents' differences,
the game length, and with `--compare` both packs and their differences.
The charts are inline SVG, drawn by matplotlib when it is installed and by
charts.py otherwise; nothing is fetched when the page is opened.
"""

from __future__ import annotations

from html import escape

from boardrule import __version__
from boardrule.interpreter.lab import charts
from boardrule.interpreter.lab.figures import interval as _interval
from boardrule.interpreter.lab.figures import num as _num
from boardrule.interpreter.lab.figures import pct as _pct

STYLE = """
body { font-family: sans-serif; max-width: 1000px; margin: 2em auto; padding: 0 1em; color: #222; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 2em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: 0.8em 0; font-size: 0.9em; }
td, th { padding: 2px 10px; border-bottom: 1px solid #eee; text-align: right; }
td:first-child, th:first-child { text-align: left; }
.charts { display: flex; flex-wrap: wrap; gap: 8px; } .charts svg { max-width: 100%; height: auto; }
.warning { background: #fff3cd; padding: 0.5em 1em; border-left: 4px solid #e0a800; }
.note { color: #555; font-size: 0.9em; }
"""


def _noise(result) -> str:
    if result.get("ci") is None:
        return "too few games"
    return "beyond noise" if result["beyond_noise"] else "within noise"


def _table(headers, rows) -> str:
    head = "".join(f"<th>{escape(str(h))}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{escape(str(c))}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><tr>{head}</tr>{body}</table>"


# ------------------------------------------------------------------ the page
class _Charts:
    """Draws chart specs with matplotlib or charts.py, numbering them (ids of one page differ)."""

    def __init__(self, use_matplotlib):
        from boardrule.interpreter.lab import charts_mpl
        self.mpl = charts_mpl if (use_matplotlib if use_matplotlib is not None else charts_mpl.available()) else None
        self.count = 0

    def __call__(self, *specs) -> str:
        drawn = []
        for spec in specs:
            self.count += 1
            drawn.append(self.mpl.draw(spec, self.count) if self.mpl is not None else charts.draw(spec))
        return '<div class="charts">' + "\n".join(drawn) + "</div>"


def report_page(report: dict, records, use_matplotlib: bool | None = None) -> str:
    """The page of a report (simreport.report or simreport.compare) and its game records (one list
    per pack when comparing). `use_matplotlib`: None draws with matplotlib when it is installed."""
    draw = _Charts(use_matplotlib)
    if "compare" in report:
        first, second = report["compare"]
        title = f"{first['pack']['name']} compared with {second['pack']['name']}"
        parts = [_settings(first), f"<p>Pack <b>{escape(first['pack']['name'])}</b> ({first['pack']['hash']}) against "
                 f"<b>{escape(second['pack']['name'])}</b> ({second['pack']['hash']}): the same games (seeds, seats, "
                 "agents, options) through both; differences are the first minus the second, paired game by game."
                 "</p>"]
        parts += _differences_of_packs(report, draw)
        for part, part_records in zip(report["compare"], records):
            parts.append(f"<h2>{escape(part['pack']['name'])}</h2>")
            parts += _scores(part, part_records, draw, level=3) + _terms(part, draw, level=3)
    else:
        title = f"{report['pack']['name']}: {report['settings']['games']} simulated games"
        parts = [_settings(report)] + _warnings(report) + _scores(report, records, draw) + _terms(report, draw)
        if report["settings"]["players"] > 1:
            parts += _first_seat(report, draw) + _wins(report, draw)
        parts += _agent_differences(report, draw) + _length(report)
    footer = (f'<p class="note">Written by boardrule {__version__}. The same packs, seed and settings give the '
              "same page.</p>")
    return "\n".join(["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
                      f"<title>{escape(title)}</title>", f"<style>{STYLE}</style></head><body>",
                      f"<h1>{escape(title)}</h1>", *parts, footer, "</body></html>", ""])


def _settings(report) -> str:
    pack, settings = report["pack"], report["settings"]
    mode = (f"duplicate chance ({settings['deals']} deals, each played by every rotation of the seats)"
            if settings["mode"] == "duplicate" else "independent games")
    options = ", ".join(f"{k}={v}" for k, v in settings["options"].items()) or "defaults"
    return (f"<p>{escape(pack['name'])} ({escape(pack['id'])}, pack {pack['hash']}): {settings['games']} games, "
            f"{settings['players']} player{'s' if settings['players'] != 1 else ''}, seats "
            f"{escape(','.join(settings['seats']))}, seed {settings['seed']}, options: {escape(options)}; "
            f"{mode}.</p>")


def _warnings(report) -> list:
    out = []
    for warning in report.get("warnings", []):
        what = "mean score" if warning["what"] == "score" else "win rate"
        shown = _pct(warning["diff"]) if warning["what"] == "wins" else _num(warning["diff"], "+.2f")
        interval = f", 95% {_interval(warning['ci'])}" if warning.get("ci") else ""
        out.append(f'<p class="warning"><b>{escape(warning["agent"])}</b> loses to random by {what} ({shown}'
                   f"{interval}): it plays this pack worse than chance, so what it says of the pack is about its "
                   "own blind spots.</p>")
    return out


def _score_rows(entries, key, multi) -> list:
    rows = []
    for entry in entries:
        score = entry["score"]
        row = [entry[key], entry["results"], _num(score["mean"]), _num(score["sd"]), _num(score["min"]),
               _num(score["median"]), _num(score["max"])]
        if multi:
            row += [_pct(entry["wins"]["rate"]), _interval(entry["wins"]["ci"], True)]
        rows.append(row)
    return rows


def _scores(report, records, draw, level=2) -> list:
    multi = report["settings"]["players"] > 1
    agents = [a["agent"] for a in report["agents"]]
    by_agent = {agent: [] for agent in agents}
    by_seat: dict = {}
    for record in records:
        for seat in record["seats"]:
            by_agent.setdefault(seat["agent"], []).append(seat["score"])
            by_seat.setdefault(seat["seat"], {a: [] for a in agents}).setdefault(seat["agent"], []).append(
                seat["score"])
    specs = [{"kind": "histogram", "title": "Final scores by agent", "xlabel": "final score",
              "series": list(by_agent.items())}]
    if len(by_seat) > 1:
        specs += [{"kind": "histogram", "title": f"Final scores at seat P{seat + 1}, by agent", "xlabel": "final score",
                   "series": list(by_seat[seat].items())} for seat in sorted(by_seat)]
    headers = ["", "results", "mean", "sd", "min", "median", "max"] + (["win rate", "95% interval"] if multi else [])
    return [f"<h{level}>Final scores per agent and per seat</h{level}>", draw(*specs),
            _table(["agent"] + headers[1:], _score_rows(report["agents"], "agent", multi)),
            _table(["seat"] + headers[1:], _score_rows(report["seats"], "seat", multi))]


def _terms(report, draw, level=2) -> list:
    agents = report["agents"]
    shown = [i for i, _ in enumerate(report["terms"]) if any(a["terms"][i]["nonzero"] for a in agents)]
    out = [f"<h{level}>Where the points come from</h{level}>"]
    if shown:
        spec = {"kind": "bars", "title": "Mean points per term", "labels": [report["terms"][i] for i in shown],
                "series": [(a["agent"], [a["terms"][i]["mean"] or 0 for i in shown]) for a in agents]}
        threshold = charts.term_scale([v for _, values in spec["series"] for v in values])
        out.append(draw(spec))
        if threshold is not None:
            out.append(f'<p class="note">One term is more than {charts.SPREAD:g} times the typical one, so the '
                       f"chart uses a symmetric log scale (linear within ±{threshold:g}): every term stays visible, "
                       "and the numbers beside the bars are the real means.</p>")
    rows = [[report["terms"][i]] + [f"{_num(a['terms'][i]['mean'])} ({_pct(a['terms'][i]['nonzero'])})"
                                    for a in agents] for i in shown]
    out.append(_table(["term"] + [f"{a['agent']}: mean (scored in)" for a in agents], rows))
    if report.get("never_scored"):
        out.append(f'<p class="note">Never scored in this run: {escape(", ".join(report["never_scored"]))}. No agent '
                   "reached them, so a comparison with these agents cannot see a change to them.</p>")
    return out


def _first_seat(report, draw) -> list:
    first = report["first_seat"]
    wins, vs = first["wins"], first["score_vs_others"]
    specs = [{"kind": "intervals", "title": "The first seat's win rate (dashed: its fair share)", "percent": True,
              "reference": first["fair_share"], "rows": [("first seat", wins["rate"], *(wins["ci"] or (None, None)))]},
             {"kind": "intervals", "title": "The first seat's mean score minus the others'", "reference": 0,
              "rows": [("first seat - others", vs["diff"], *(vs["ci"] or (None, None)))]}]
    return ["<h2>The first seat's edge</h2>",
            f"<p>The seat that moved first won {wins['count']} of {wins['of']} ({_pct(wins['rate'])}, 95% "
            f"{_interval(wins['ci'], True)}); its fair share is {_pct(first['fair_share'])}. Its mean score was "
            f"{_num(first['score']['mean'])} against {_num(first['others_score']['mean'])} for the others: "
            f"{_num(vs['diff'], '+.2f')}, 95% {_interval(vs['ci'])}, {_noise(vs)}.</p>", draw(*specs)]


def _wins(report, draw) -> list:
    fair = 1 / report["settings"]["players"]
    rows = [(a["agent"], a["wins"]["rate"], *a["wins"]["ci"]) for a in report["agents"]]
    rows += [(s["seat"], s["wins"]["rate"], *s["wins"]["ci"]) for s in report["seats"]]
    spec = {"kind": "intervals", "title": "Win rates by agent and seat (dashed: a fair share)", "percent": True,
            "reference": fair, "rows": rows}
    return ["<h2>Win rates</h2>", draw(spec)]


def _agent_differences(report, draw) -> list:
    differences = report.get("differences", [])
    if not differences:
        return []
    rows = [(f"{d['second']} - {d['first']}", d["diff"], *(d["ci"] or (None, None))) for d in differences]
    spec = {"kind": "intervals", "title": "Mean score differences between agents", "reference": 0, "rows": rows}
    table = _table(["difference", "mean", "95% interval", "p", "method", ""],
                   [[f"{d['second']} - {d['first']}", _num(d["diff"], "+.2f"), _interval(d["ci"]),
                     "-" if d.get("p") is None else f"{d['p']:.3f}", d["method"], _noise(d)] for d in differences])
    return ["<h2>Agent differences</h2>", draw(spec), table]


def _length(report) -> list:
    games = report["games"]
    rows = [[what, games["count"], _num(games[what]["mean"]), _num(games[what]["min"]), _num(games[what]["median"]),
             _num(games[what]["max"])] for what in ("moves", "rounds")]
    return ["<h2>Game length</h2>", _table(["", "games", "mean", "min", "median", "max"], rows)]


def _differences_of_packs(report, draw) -> list:
    diffs = report["differences"]
    first, second = report["compare"]
    multi = first["settings"]["players"] > 1
    scores = [(d["agent"], d["score"]["diff"], *(d["score"]["ci"] or (None, None))) for d in diffs["agents"]]
    specs = [{"kind": "intervals", "title": "Mean score, first pack minus second", "reference": 0, "rows": scores}]
    if multi:
        specs.append({"kind": "intervals", "title": "Win rate, first pack minus second", "reference": 0,
                      "percent": True,
                      "rows": [(d["agent"], d["wins"]["diff"], *(d["wins"]["ci"] or (None, None)))
                               for d in diffs["agents"]]})
    specs.append({"kind": "intervals", "title": "Game length, first pack minus second", "reference": 0,
                  "rows": [(what, diffs[what]["diff"], *(diffs[what]["ci"] or (None, None)))
                           for what in ("moves", "rounds")]})
    moved = [t for t in diffs["terms"] if t["diff"]]
    if moved:
        specs.append({"kind": "intervals", "title": "Mean points per term, first pack minus second", "reference": 0,
                      "rows": [(f"{t['agent']}: {t['label']}", t["diff"], *(t["ci"] or (None, None))) for t in moved]})
    rows = [[d["agent"], _num(d["score"]["diff"], "+.2f"), _interval(d["score"]["ci"]), _noise(d["score"])]
            + ([_pct(d["wins"]["diff"]), _interval(d["wins"]["ci"], True), _noise(d["wins"])] if multi else [])
            for d in diffs["agents"]]
    headers = ["agent", "score", "95% interval", ""] + (["win rate", "95% interval", ""] if multi else [])
    unchanged = [f"{t['agent']}: {t['label']}" for t in diffs["terms"] if not t["diff"]]
    out = ["<h2>Differences between the packs</h2>", draw(*specs), _table(headers, rows)]
    if unchanged:
        out.append(f'<p class="note">Terms with no difference in any game: {escape(", ".join(unchanged))}.</p>')
    return out
