"""The designer commands: `rules` (a reference made from the pack), `new` (starter packs), `schema`."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner

import boardrule.cli.designer  # noqa: F401  (registers the commands)
from boardrule.cli.main import cli
from boardrule.dsl.diagnostics import PackError, render
from boardrule.dsl.pack import load_pack
from boardrule.dsl.unparse import unparse
from boardrule.interpreter.api import open_game
from boardrule.interpreter.designer.check import check_pack
from boardrule.interpreter.designer import rulesdoc
from boardrule.interpreter.designer.rulesdoc import rules_document, to_html, to_markdown

ROOT = Path(__file__).resolve().parent.parent
BUNDLED = sorted((ROOT / "rulepacks").glob("*.pack"))
TEST_PACKS = sorted((ROOT / "tests" / "packs").glob("*.pack"))


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def loads(path) -> bool:
    try:
        load_pack(path)
        return True
    except PackError:
        return False  # a bundled pack being written: its own tests report it


# ------------------------------------------------------------------ rules
@pytest.mark.parametrize("path", BUNDLED + TEST_PACKS, ids=lambda p: p.stem)
def test_the_rules_reference_shows_every_part_of_the_pack(path):
    if not loads(path):
        pytest.skip("the pack does not load yet")
    game = open_game(path)
    model = game.model
    text = run("rules", path).output
    plain = text.replace("\\_", "_")
    for piece in model.pieces:
        assert f"**{piece.name}**" in plain and f"`{piece.symbol}`" in plain
        for name, (value, _) in piece.attributes.items():
            assert f"{name}: {str(value).lower() if isinstance(value, bool) else value}" in plain
        for rule in (piece.place, piece.score):
            if rule is not None:
                assert unparse(rule) in plain, unparse(rule)
    for option in model.options:
        default = str(option.default).lower() if isinstance(option.default, bool) else str(option.default)
        assert f"| `{option.name}` |" in plain and f"`{default}`" in plain
        assert all(v in plain for v in option.values) and option.doc in plain
    for name, chart in model.charts.items():
        row = "| gives | " + " | ".join(f'"{v}"' if isinstance(v, str) else str(v) for v in chart.values) + " |"
        assert f"### {name}" in plain and row in plain
    for action in model.actions:
        assert f"### {action.name}" in plain
    for term in model.scoring:
        assert f"**{term.name}**" in plain
    for shape in model.shapes:
        if shape.art:
            first_row = shape.art.replace("/", "\n").strip().splitlines()[0].split()
            assert any(all(t in line for t in first_row) for line in plain.splitlines()), shape.name
    for step in model.flow.round:
        for name, _ in step.actions:
            assert f"`{name}`" in plain
    if model.flow.end is not None:
        assert unparse(model.flow.end) in plain


def test_the_board_is_drawn_with_its_regions(tmp_path):
    pack = tmp_path / "regions.pack"
    pack.write_text("game: {id: r, players: 1}\nboard:\n  grid: square 3 x 2\n  regions:\n    market: B1 C2\n"
                    "    gate: C2\nflow:\n  round: []\n  end: count(market) > 0 and count(gate) > 0\n")
    text = run("rules", pack).output
    assert "```text\n    A B C\n  1 . a .\n  2 . . *\n```" in text
    assert "- `a` region `market`: B1 C2" in text and "`*` a cell of several regions" in text


def test_a_hex_board_is_drawn_in_its_layout():
    text = run("rules", ROOT / "tests" / "packs" / "hexmap.pack").output
    assert "    A B C D E F G H I\n  1 .   .   .   .   .\n      .   .   .   .\n" in text


HEX_SHAPE_PACK = """\
game: {id: h, players: 1..2}
board: {grid: hex flat-odd 3 x 3}
pieces:
  apple: {symbol: A}
shapes:
  hook: {art: X X / X . / X .}
decks:
  pile: {}
actions:
  put:
    params:
      at: placements(hook, cells where empty)
    effect: |
      for c in at { place apple at c }
flow:
  round: [{turns: [put]}]
  end: count(cells where kind == apple) > 3
  ranking: [-count(cells where empty)]
"""


def test_a_hex_shape_keeps_its_half_rows(tmp_path):
    # the odd column sits half a row lower, as on the board: the empty half row between the
    # second and third cells of column A is kept, else the column would look unevenly spaced
    pack = tmp_path / "h.pack"
    pack.write_text(HEX_SHAPE_PACK)
    text = run("rules", pack).output
    assert "```text\nX\n  X\nX\n\nX\n```" in text


def test_remaining_ties_share_the_win_and_an_empty_deck_says_so(tmp_path):
    pack = tmp_path / "h.pack"
    pack.write_text(HEX_SHAPE_PACK)
    text = run("rules", pack).output
    assert "1. fewer `count(cells where empty)`\n\nPlayers still equal after these share the win." in text
    assert "- `pile`: empty at the start" in text and "0 cards" not in text


def test_a_pattern_is_drawn_in_every_orientation(tmp_path):
    text = run("rules", ROOT / "tests" / "packs" / "towns.pack").output
    assert "It may be turned or mirrored any way: 8 orientations; every orientation:" in text
    assert ".     wheat   brick .       glass brick   wheat glass" in text


def test_the_html_reference_escapes_everything(tmp_path):
    pack = tmp_path / "evil.pack"
    pack.write_text('game: {id: evil, name: "<script>alert(1)</script>", players: 1, doc: "a & b <i>"}\n'
                    "options:\n  mode: {values: [a, b], doc: \"<b>bold</b>\"}\n"
                    "board: {grid: square 2 x 2}\npieces:\n  stone: {symbol: \"<S>\", note: \"x<y\"}\n"
                    "actions:\n  put:\n    label: \"<img src=x>\"\n    params: {cell: cells where empty}\n"
                    "    effect: place stone at cell\n"
                    "flow:\n  round: [{turns: [put]}]\n  end: count(cells where x < 1 and empty) == 0\n")
    result = run("rules", pack, "--format", "html")
    assert result.exit_code == 0, result.output
    page = result.output
    assert "<script>" not in page and "<b>bold" not in page and "<img" not in page and "<S>" not in page
    assert "&lt;script&gt;" in page and "x &lt; 1" in page and "a &amp; b" in page

    class Tags(HTMLParser):
        def __init__(self):
            super().__init__()
            self.stack = []

        def handle_starttag(self, tag, attrs):
            if tag not in ("meta",):
                self.stack.append(tag)

        def handle_endtag(self, tag):
            assert self.stack.pop() == tag

    parser = Tags()
    parser.feed(page)
    assert parser.stack == []
    markdown = run("rules", pack).output
    assert "\\<script\\>" in markdown


def test_rules_writes_a_file(tmp_path):
    out = tmp_path / "ttt.html"
    result = run("rules", "tictactoe", "--format", "html", "-o", out)
    assert result.exit_code == 0 and out.read_text().startswith("<!DOCTYPE html>")


def test_rules_of_an_unknown_pack_is_a_usage_error():
    assert run("rules", "no-such-pack").exit_code == 2


def test_the_document_model_renders_both_ways():
    doc = rules_document(open_game("connect4"))
    assert to_markdown(doc).startswith("# Connect Four\n") and "<h1>Connect Four</h1>" in to_html(doc)


def test_one_piece_drawn_by_the_same_functions_as_the_reference():
    game = open_game("tinytowns")
    cottage = rulesdoc.lookup(game, "cottage")[0]
    blocks = rulesdoc.piece_blocks(game, cottage)
    assert all(block in rules_document(game) for block in blocks)  # the reference is made of them
    text = rulesdoc.to_text(blocks)
    assert text.startswith("cottage (C, “Cottage”)\n") and "    .     wheat\n    brick glass" in text
    assert "8 orientations" in text and "**" not in text and "\\_" not in text
    assert rulesdoc.piece_line(game, cottage) == "pattern . wheat / brick glass"
    assert [t.name for t in rulesdoc.lookup(game, "C")] == ["cottage"]
    assert [t.name for t in rulesdoc.lookup(game, "Feast Hall")] == ["feast_hall"]
    assert [t.name for t in rulesdoc.lookup(game, "fe")] == ["feast_hall"]
    assert rulesdoc.lookup(game, "no such thing") == []
    townies = open_game("townies")
    bank = rulesdoc.lookup(townies, "BK")[0]
    assert rulesdoc.piece_line(townies, bank).startswith("placed only where there is at least one of the adjacent")
    assert [s.name for s in rulesdoc.lookup(townies, "worm")] == ["worm"]
    assert rulesdoc.shape_line(rulesdoc.lookup(townies, "worm")[0]) == "X . / X . / X X"


# ------------------------------------------------------------------ new
def test_a_new_pack_checks_clean_and_has_a_test(tmp_path):
    result = run("new", "my_game", "-o", tmp_path)
    assert result.exit_code == 0, result.output
    report = check_pack(tmp_path / "my_game.pack")
    assert report.ok and not report.diagnostics, "\n".join(render(d) for d in report.diagnostics)
    assert report.tests_run >= 1
    assert (tmp_path / "my_game.pack").read_text().startswith("# yaml-language-server: $schema=pack.schema.json\n")


def test_new_never_overwrites(tmp_path):
    target = tmp_path / "taken.pack"
    target.write_text("mine")
    result = run("new", "taken", "-o", tmp_path)
    assert result.exit_code == 2 and target.read_text() == "mine"
    assert len(result.output.strip().splitlines()) == 1 and "exists" in result.output


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.stem)
def test_new_extends_every_bundled_pack(tmp_path, path):
    if not loads(path):
        pytest.skip("the pack does not load yet")
    result = run("new", "variant", "--extends", path.stem, "-o", tmp_path)
    assert result.exit_code == 0, result.output
    text = (tmp_path / "variant.pack").read_text()
    assert f"extends: {path.stem}\n" in text
    report = check_pack(tmp_path / "variant.pack")
    assert report.ok and report.tests_run == 1, "\n".join(render(d) for d in report.diagnostics)
    assert not [d for d in report.diagnostics if d.code.startswith("W84")]


def test_new_extends_a_path_relative_to_the_new_file(tmp_path):
    (tmp_path / "base").mkdir()
    run("new", "first", "-o", tmp_path / "base")
    (tmp_path / "out").mkdir()
    result = run("new", "second", "--extends", tmp_path / "base" / "first.pack", "-o", tmp_path / "out")
    assert result.exit_code == 0, result.output
    assert "extends: ../base/first.pack\n" in (tmp_path / "out" / "second.pack").read_text()
    # a base outside the new pack's folder is read only where the user allows it, as `new` says
    base_folder = (tmp_path / "base").resolve()
    assert f"--extends-from {base_folder}" in result.output
    report = check_pack(tmp_path / "out" / "second.pack", extends_from=(base_folder,))
    assert report.ok and not report.diagnostics, "\n".join(render(d) for d in report.diagnostics)
    assert [d.code for d in check_pack(tmp_path / "out" / "second.pack").diagnostics] == ["E116"]


@pytest.mark.parametrize("args", [["new", "two words"], ["new", "9lives"], ["new", "x", "--extends", "nope"],
                                  ["new", "x", "-o", "/no/such/folder"]])
def test_new_refuses_bad_input(tmp_path, args):
    assert run(*args).exit_code == 2


# ------------------------------------------------------------------ schema
def test_schema_prints_the_shipped_schema(tmp_path):
    from boardrule.schema import load_schema
    result = run("schema")
    assert result.exit_code == 0 and json.loads(result.output) == load_schema()
    assert run("schema", "-o", tmp_path / "s.json").exit_code == 0
    assert json.loads((tmp_path / "s.json").read_text()) == load_schema()


def test_the_schema_is_shipped_as_package_data():
    text = (ROOT / "pyproject.toml").read_text()
    assert re.search(r'"boardrule\.schema" = \["\*\.json"\]', text)
    assert '"boardrule.schema"' in text.split("[tool.setuptools.package-dir]")[0]


@pytest.mark.parametrize("pack, says", [
    ("tinytowns", "16 cells; each cell has up to 4 neighbours (orthogonal)"),
    ("townies", "68 cells; each cell has up to 6 neighbours;"),
    (str(Path(__file__).parent / "suite" / "breakthrough.pack"), "each cell has up to 8 neighbours (diagonals too)")])
def test_the_rules_reference_counts_the_neighbours_on_the_board(pack, says):
    assert says in rulesdoc.rules_text(open_game(pack))


def test_a_mask_that_leaves_no_cell_a_neighbour_is_said_so(tmp_path):
    # a checkerboard's dark squares were said to have "up to 4 neighbours (orthogonal)": they have none
    pack = tmp_path / "dark.pack"
    pack.write_text("game: {id: dark, players: 1}\nboard:\n  grid: square 2 x 2\n  mask: |\n    # .\n    . #\n"
                    "pieces: {stone: {symbol: S}}\nactions: {put: {params: {c: cells where empty}, "
                    "effect: place stone at c}}\nflow: {round: [{turns: [put]}], end: \"none(cells, empty)\"}\n")
    assert "2 cells; no cell has a neighbour (orthogonal: the mask leaves none)" in rulesdoc.rules_text(open_game(str(pack)))
