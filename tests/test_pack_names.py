"""`boardrule play townies.pack` works from any folder: a name ending in `.pack` that is
no file here is the bundled pack of that name, said in one line; a local file wins; a
name that is neither lists the bundled packs and the nearest one."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

import boardrule.cli.commands  # noqa: F401  (registers the commands)
import boardrule.cli.designer  # noqa: F401
import boardrule.cli.picture  # noqa: F401
import boardrule.cli.simulate  # noqa: F401
from boardrule.cli.main import cli
from boardrule.interpreter.designer.check import check_pack

NOTE = "note: `tictactoe.pack` is not a file here: using the bundled pack `tictactoe`"
POSITION = "board: |\n  X X X\n  O O .\n  . . .\n"

COMMANDS = {
    "play": ["play", "tictactoe.pack", "--seats", "random,random", "--seed", "1"],
    "check": ["check", "tictactoe.pack"],
    "rules": ["rules", "tictactoe.pack"],
    "score": ["score", "tictactoe.pack", "position.yaml"],
    "render": ["render", "tictactoe.pack", "position.yaml"],
    "simulate": ["simulate", "tictactoe.pack", "--games", "2"],
    "simulate --compare": ["simulate", "tictactoe", "--compare", "tictactoe.pack", "--games", "2"],
    "bench": ["bench", "tictactoe.pack", "--games", "1", "--repeats", "1"],
}


@pytest.fixture
def elsewhere(tmp_path, monkeypatch):
    """A folder with no pack in it, as the current folder, and a position file."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "position.yaml").write_text(POSITION)
    return tmp_path


def _run(args):
    return CliRunner().invoke(cli, args)


@pytest.mark.parametrize("name", COMMANDS)
def test_a_bundled_file_name_works_from_any_folder(elsewhere, name):
    result = _run(COMMANDS[name])
    assert result.exit_code == 0, result.output + result.stderr
    assert NOTE in result.stderr.splitlines()
    assert "Tic-tac-toe" in result.output or "tictactoe" in result.output


def test_a_local_file_of_that_name_wins(elsewhere):
    (elsewhere / "tictactoe.pack").write_text("game: {id: mine, name: Mine, players: 1}\n"
                                              "board: {grid: square 2 x 2}\npieces: {x: {symbol: X}}\n"
                                              "actions: {put: {params: {c: cells where empty}, "
                                              "effect: place x at c}}\n"
                                              "flow: {round: [{turns: [put]}], end: \"none(cells, empty)\"}\n")
    result = _run(["check", "tictactoe.pack"])
    assert result.exit_code == 0, result.output
    assert "note:" not in result.stderr
    assert "tictactoe.pack: ok (0 tests" in result.output  # the local pack has no tests; the bundled one has 5


def test_neither_a_file_nor_a_bundled_pack_lists_them_and_the_nearest(elsewhere):
    result = _run(["play", "tictactoo.pack"])
    assert result.exit_code == 2
    assert ("error[E121]: pack file `tictactoo.pack` not found (bundled packs: connect4, tictactoe, tinytowns, "
            "townies, villagers)") in result.stderr
    assert "did you mean `tictactoe`?" in result.stderr


def test_extends_may_name_a_bundled_file_name(elsewhere):
    (elsewhere / "variant.pack").write_text("extends: tictactoe.pack\ngame: {id: variant, name: Variant}\n")
    report = check_pack(elsewhere / "variant.pack")
    assert report.ok
    assert [d.code for d in report.diagnostics] == ["W844"]
    assert "using the bundled pack `tictactoe`" in report.diagnostics[0].message
