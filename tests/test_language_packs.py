"""The language test packs (tests/packs/) write the hardest rules of the
three target games in the language; each must check clean and pass its own
tests: feeding with choices, storage, stand-ins, reacting buildings, markers
around seats with vacant ones, shapes from dice, paths of blocks, triangles,
flanking in eight directions (flank.pack: rays and steps). The connection game on an axial
rhombus is a suite pack (tests/suite/crossing.pack)."""

from pathlib import Path

import pytest

from boardrule.dsl.diagnostics import render
from boardrule.interpreter.designer.check import check_pack

PACKS = sorted((Path(__file__).parent / "packs").glob("*.pack"))


def test_there_are_language_packs():
    assert {p.stem for p in PACKS} >= {"feeding", "hexmap", "towns", "flank"}


@pytest.mark.parametrize("path", PACKS, ids=[p.stem for p in PACKS])
def test_language_pack_checks_and_passes_its_tests(path):
    report = check_pack(path)
    assert report.ok, "\n".join(render(d) for d in report.diagnostics)
    assert report.tests_run >= 3
