"""`boardrule diff BASE VARIANT`: what a variant changes, in words, with its lines."""

from __future__ import annotations

from click.testing import CliRunner

import boardrule.cli.designer  # noqa: F401  (registers the command)
from boardrule.cli.main import cli
from boardrule.dsl.extends import load_pack_tree
from boardrule.dsl.packdiff import pack_diff

VARIANT = """extends: tictactoe
game: {id: wide, name: Wide}
board: {grid: square 4 x 4}
remove: [shapes.diagonal, tests.a diagonal wins]
pieces:
  x: {symbol: XX, override: true}
  block: {symbol: B}
tests:
  - name: a row wins
    expect: {legal: {P1: 16}}
  - name: sixteen squares
    expect: {legal: {P1: 16}}
"""


def _changes(tmp_path):
    path = tmp_path / "wide.pack"
    path.write_text(VARIANT)
    return pack_diff(load_pack_tree("tictactoe"), load_pack_tree(path)), path


def test_diff_names_each_change_and_where_it_is_written(tmp_path):
    changes, path = _changes(tmp_path)
    found = {(c.kind, c.path, c.detail) for c in changes}
    assert ("changed", "board.grid", "square 3 x 3 -> square 4 x 4") in found
    assert ("changed", "pieces.x", "changed symbol") in found
    assert ("added", "pieces.block", "") in found
    assert ("removed", "shapes.diagonal", "") in found
    assert ("changed", "tests.a row wins", "") in found  # replaced by name
    assert ("added", "tests.sixteen squares", "") in found
    assert ("removed", "tests.a diagonal wins", "") in found
    assert not any(c.path == "tests.the first move can go anywhere" for c in changes)  # still inherited
    block = next(c for c in changes if c.path == "pieces.block")
    assert (block.span.file, block.span.line) == (str(path), 7)


def test_the_command_prints_the_changes(tmp_path):
    _, path = _changes(tmp_path)
    result = CliRunner().invoke(cli, ["diff", "tictactoe", str(path)])
    assert result.exit_code == 0, result.output
    assert f"  changed  board.grid: square 3 x 3 -> square 4 x 4  ({path}:3)" in result.output
    assert "  removed  shapes.diagonal  (base: tictactoe.pack:" in result.output
    same = CliRunner().invoke(cli, ["diff", "tictactoe", "tictactoe"])
    assert same.output == "tictactoe changes nothing of tictactoe\n"
