"""The suite packs (tests/suite/): well-known grid games written in the language to prove it general
(issue 19). Each checks clean and passes its own tests, and plays seeded random games with the
self-play invariants of tests/test_selfplay.py (legal moves sorted and stable, texts that parse back,
illegal moves refused without change, the JSON round trip, the log's replay). Their golden
playthroughs are tests/playthroughs/suite-*.json (tests/test_playthroughs.py); their speed is
benchmarks/suite.py's.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from boardrule.dsl.diagnostics import render
from boardrule.interpreter.designer.check import check_pack

SUITE = Path(__file__).resolve().parent / "suite"
PACKS = sorted(SUITE.glob("*.pack"))
#: random self-play games per pack (seeds 0, 1, ...): enough to reach the ends, within the suite's time
GAMES = {"duo": 2, "go": 4}
DEFAULT_GAMES = 6
GREEDY_GAMES = {"duo": 0, "go": 0}  # greedy: one game each, but duo and go (each move scores every candidate: 25 s a Go game)
_spec = importlib.util.spec_from_file_location("selfplay", Path(__file__).parent / "test_selfplay.py")
selfplay = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(selfplay)


def test_the_suite_has_its_packs():
    assert {p.stem for p in PACKS} >= {"gomoku", "breakthrough", "amazons", "go", "duo", "kingdom", "sheets", "majority"}


@pytest.mark.parametrize("path", PACKS, ids=[p.stem for p in PACKS])
def test_suite_pack_checks_and_passes_its_tests(path):
    report = check_pack(path)
    assert report.ok, "\n".join(render(d) for d in report.diagnostics)
    assert not report.diagnostics, "\n".join(render(d) for d in report.diagnostics)
    assert report.tests_run >= 4


@pytest.mark.parametrize("path", PACKS, ids=[p.stem for p in PACKS])
def test_suite_pack_random_selfplay(path):
    games = GAMES.get(path.stem, DEFAULT_GAMES)
    assert selfplay.play_many(str(path), "random", range(games)) > 0


@pytest.mark.parametrize("path", [p for p in PACKS if GREEDY_GAMES.get(p.stem, 1)], ids=lambda p: p.stem)
def test_suite_pack_greedy_selfplay(path):
    games = GREEDY_GAMES.get(path.stem, 1)
    assert selfplay.play_many(str(path), "greedy", range(1000, 1000 + games)) > 0
