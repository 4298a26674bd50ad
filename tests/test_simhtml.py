"""`simulate --report FILE.html`: one self-contained page, its charts and their scale."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ElementTree

import pytest
from click.testing import CliRunner

import boardrule.cli.simulate  # noqa: F401  (registers simulate)
from boardrule.cli.main import cli
from boardrule.interpreter.lab import charts
from boardrule.interpreter.lab import simulate
from boardrule.interpreter.lab.simhtml import report_page

SKEWED = [-12.6, 0.5, 1.2, 2.0]  # one large negative term, as the criticised plot had


def _has_matplotlib() -> bool:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


@pytest.fixture(scope="module")
def run():
    return simulate("tictactoe", games=40, seats=["greedy", "random"], seed=3)


def test_a_large_term_does_not_flatten_the_others():
    assert charts.term_scale([1.0, 2.0, 3.0]) is None  # comparable terms: a linear scale
    assert charts.term_scale(SKEWED) == pytest.approx(1.6)
    spec = {"kind": "bars", "title": "t", "labels": list("abcd"), "series": [("greedy", SKEWED)]}
    widths = {label: width for label, _, _, _, width in charts.bar_geometry(spec)}
    # on a linear scale the 0.5 bar would be 4% of the -12.6 one; here it stays readable
    assert widths["b"] / widths["a"] > 0.15
    assert widths["a"] > widths["d"] > widths["c"] > widths["b"] > 0  # and the order of sizes holds
    assert charts.scaled(charts._real(2.7, 1.6), 1.6) == pytest.approx(2.7)


def _self_contained(page: str) -> None:
    assert page.startswith("<!DOCTYPE html>")
    for fetching in ("<script", "<link", "src=", "@import"):
        assert fetching not in page, fetching
    assert not re.search(r"url\((?!#)", page)  # only references inside the page
    ids = re.findall(r'\sid="([^"]+)"', page)
    assert len(ids) == len(set(ids)), "the charts' ids clash"
    assert not re.search(r"https?://(?!www\.w3\.org/)", page)  # namespaces only, nothing to fetch
    svgs = re.findall(r"<svg.*?</svg>", page, re.S)
    assert len(svgs) >= 6
    for svg in svgs:
        ElementTree.fromstring(svg)  # each chart is well-formed SVG


def _text(page: str) -> str:
    return " ".join(re.sub(r"<svg.*?</svg>|<[^>]+>", " ", page, flags=re.S).split())


@pytest.mark.parametrize("use_matplotlib", [False, True])
def test_the_page_shows_scores_terms_first_seat_and_differences(run, use_matplotlib):
    if use_matplotlib and not _has_matplotlib():
        pytest.skip("matplotlib is not installed")
    page = report_page(run.report, run.records, use_matplotlib=use_matplotlib)
    _self_contained(page)
    text = _text(page)
    for heading in ("Final scores per agent and per seat", "Where the points come from", "The first seat's edge",
                    "Win rates", "Agent differences", "Game length"):
        assert heading in text
    wins = run.report["first_seat"]["wins"]
    assert f"The seat that moved first won {wins['count']} of {wins['of']}" in text
    assert "Final scores at seat P2, by agent" in page
    assert page == report_page(run.report, run.records, use_matplotlib=use_matplotlib)  # the same page each time


def test_the_plain_charts_are_drawn_without_matplotlib(run):
    page = report_page(run.report, run.records, use_matplotlib=False)
    assert "matplotlib" not in page and 'font-family="sans-serif"' in page


def test_a_comparison_shows_both_packs_and_their_differences(tmp_path):
    variant = tmp_path / "variant.pack"
    variant.write_text("extends: tictactoe\ngame: {id: tictactoe4, name: Tic-tac-toe 4x4, players: 2}\n"
                       "board: {grid: square 4 x 4, shared: true}\ntests: []\n")
    result = simulate(str(variant), games=12, seats=["greedy", "random"], compare="tictactoe", seed=1)
    page = report_page(result.report, result.records, use_matplotlib=False)
    _self_contained(page)
    text = _text(page)
    assert "Tic-tac-toe 4x4 compared with Tic-tac-toe" in text and "Differences between the packs" in text
    assert "Mean score, first pack minus second" in page and "Win rate, first pack minus second" in page
    assert text.count("Final scores per agent and per seat") == 2


def test_simulate_writes_the_page(tmp_path):
    out = tmp_path / "report.html"
    result = CliRunner().invoke(cli, ["simulate", "tictactoe", "-n", "6", "--seats", "greedy,random",
                                      "--no-progress", "--report", str(out)])
    assert result.exit_code == 0, result.output
    assert f"report written to {out}" in result.output and "Tic-tac-toe: 6 simulated games" in out.read_text()


def test_a_report_that_is_not_html_is_a_usage_error_before_any_game(tmp_path):
    result = CliRunner().invoke(cli, ["simulate", "tictactoe", "-n", "100000", "--report", str(tmp_path / "r.txt")])
    assert result.exit_code == 2 and "*.html" in result.output
    missing = CliRunner().invoke(cli, ["simulate", "tictactoe", "-n", "2", "--no-progress",
                                       "--report", str(tmp_path / "no" / "r.html")])
    assert missing.exit_code == 2 and "cannot write" in missing.output


def test_the_plots_term_chart_uses_the_same_scale():
    if not _has_matplotlib():
        pytest.skip("matplotlib is not installed")
    import matplotlib
    matplotlib.use("Agg")
    from matplotlib import pyplot

    from boardrule.cli.plots import _attribution

    def report(means):
        return {"terms": list("abcd"), "agents": [{"agent": "greedy", "terms": [
            {"label": label, "mean": m, "nonzero": 1.0} for label, m in zip("abcd", means)]}]}

    figure, (skewed, even) = pyplot.subplots(1, 2)
    _attribution(skewed, report(SKEWED), "t")
    _attribution(even, report([1.0, 2.0, 3.0, 2.5]), "t")
    assert skewed.get_xscale() == "symlog" and even.get_xscale() == "linear"
    pyplot.close(figure)


def test_the_simulate_page_shows_a_real_report():
    """docs/simulate.md's excerpt is the text of the page its command writes, line for line."""
    from pathlib import Path
    page_md = (Path(__file__).resolve().parent.parent / "docs" / "simulate.md").read_text()
    excerpt = re.search(r"^```text\n# excerpt of report\.html\n(.*?)^```", page_md, re.S | re.M).group(1)
    command = re.search(r"^(boardrule simulate .* --report report\.html)$", page_md, re.M).group(1)
    args = command.split()[2:]  # pack and options, as the page gives them
    games = int(args[args.index("--games") + 1])
    seats = args[args.index("--seats") + 1].split(",")
    run = simulate(args[0], games=games, seats=seats)
    text = re.sub(r"</(p|h1|h2|h3|tr|table)>", "\n", re.sub(r"<svg.*?</svg>|<style>.*?</style>", "",
                                                           report_page(run.report, run.records), flags=re.S))
    lines = {" ".join(re.sub(r"<[^>]+>", " ", line).split()) for line in text.splitlines()}
    for line in excerpt.splitlines():
        assert line in lines, f"docs/simulate.md shows `{line}`, which the page no longer says"
    assert (Path(__file__).resolve().parent.parent / "docs" / "images" / "simulate-report.png").is_file()
