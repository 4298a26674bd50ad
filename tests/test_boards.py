"""The rhombus and hexagon boards (`hex rhombus C x R`, `hex hexagon SIDE`) and masks: geometry,
names, parsing, pictures, positions, and the errors a designer can make declaring them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from boardrule.dsl.diagnostics import PackError, SourceStore, render
from boardrule.dsl.parser import parse_fragment
from boardrule.dsl.unparse import unparse
from boardrule.interpreter.agents import make_agent, play_out
from boardrule.interpreter.api import evaluate, new_game, open_game
from boardrule.interpreter.designer.check import check_pack
from boardrule.interpreter.records import gamelog
from boardrule.interpreter.records.serialize import state_from_json, state_to_json, states_equal
from boardrule.interpreter.runtime.flow import legal_moves
from boardrule.interpreter.runtime.geometry import hexagon_positions, make_grid, row_shift
from boardrule.interpreter.runtime.outcome import outcome
from boardrule.interpreter.runtime.picture import picture, to_svg
from boardrule.interpreter.runtime.values import CELL_MASK

CROSSING = Path(__file__).parent / "suite" / "crossing.pack"


def rhombus(columns=11, rows=11):
    return make_grid("hex", columns, rows, hex_layout="rhombus")


def hexagon(side=5):
    width = 2 * side - 1
    return make_grid("hex", width, width, mask=hexagon_positions(side), hex_layout="rhombus")


def names(grid, cells):
    return sorted(grid.name(c) for c in cells)


def near(grid, name):
    return names(grid, grid.neighbours[grid.parse_name(name)])


# ------------------------------------------------------------ the rhombus
def test_rhombus_names_run_a1_to_the_last_column_and_row():
    g = rhombus()
    assert g.size == 121 and g.names[0] == "A1" and g.names[10] == "K1" and g.names[-1] == "K11"
    assert all(g.parse_name(g.name(c)) == c for c in g.cells)
    assert all(g.lattice(c) == (g.col(c), g.row(c)) for c in g.cells)  # names are axial coordinates


@pytest.mark.parametrize("cell, expected", [
    ("F6", ["E6", "E7", "F5", "F7", "G5", "G6"]),  # the centre: six
    ("A1", ["A2", "B1"]),  # the sharp corners: two
    ("K11", ["J11", "K10"]),
    ("K1", ["J1", "J2", "K2"]),  # the blunt corners: three
    ("A11", ["A10", "B10", "B11"]),
    ("F1", ["E1", "E2", "F2", "G1"]),  # an edge: four
    ("A6", ["A5", "A7", "B5", "B6"]),
])
def test_rhombus_neighbours_at_the_centre_corners_and_edges(cell, expected):
    assert near(rhombus(), cell) == expected


def test_rhombus_directions_distances_corners_and_centre():
    g = rhombus()
    assert [name for name, _ in g.directions()] == ["northeast", "east", "southeast", "southwest", "west",
                                                    "northwest"]
    steps = dict(g.directions())
    f6 = g.parse_name("F6")
    assert {d: g.name(g.step_table(step)[f6]) for d, step in steps.items()} == {
        "northeast": "G5", "east": "G6", "southeast": "F7", "southwest": "E7", "west": "E6", "northwest": "F5"}
    assert g.distance(g.parse_name("A1"), g.parse_name("K11")) == 20  # the long diagonal
    assert g.distance(g.parse_name("K1"), g.parse_name("A11")) == 10  # the short one
    assert names(g, g.corners) == ["A1", "A11", "K1", "K11"] and names(g, g.center) == ["F6"]
    assert len(g.edge) == 40


# ------------------------------------------------------------ the hexagon
def test_hexagon_rows_and_names():
    g = hexagon(5)
    assert g.size == 61
    assert [len(row) for row in g.rows] == [5, 6, 7, 8, 9, 8, 7, 6, 5]
    assert [g.name(row[0]) for row in g.rows] == ["E1", "D2", "C3", "B4", "A5", "A6", "A7", "A8", "A9"]
    assert [g.name(row[-1]) for row in g.rows] == ["I1", "I2", "I3", "I4", "I5", "H6", "G7", "F8", "E9"]
    assert all(g.parse_name(g.name(c)) == c for c in g.cells)
    with pytest.raises(KeyError):
        g.parse_name("A1")  # a cut-off corner


def test_hexagon_neighbours_corners_centre_and_distances():
    g = hexagon(5)
    assert names(g, g.corners) == ["A5", "A9", "E1", "E9", "I1", "I5"]
    assert all(len(g.neighbours[c]) == 3 for c in g.corners)
    assert names(g, g.center) == ["E5"] and len(near(g, "E5")) == 6
    assert near(g, "G1") == ["F1", "F2", "G2", "H1"]  # an edge cell: four
    assert len(g.edge) == 24 and all(g.distance(g.parse_name("E5"), c) <= 4 for c in g.cells)
    assert g.distance(g.parse_name("E1"), g.parse_name("E9")) == 8
    assert g.distance(g.parse_name("A5"), g.parse_name("I5")) == 8


@pytest.mark.parametrize("side, cells", [(1, 1), (2, 7), (3, 19), (8, 169)])
def test_a_hexagon_of_side_n_has_3n_n_minus_1_plus_1_cells(side, cells):
    assert len(hexagon_positions(side)) == cells == hexagon(side).size


def test_rows_of_the_rhombus_layout_shift_half_a_cell_each():
    assert [row_shift("hex", "rhombus", y) for y in range(4)] == [0, 1, 2, 3]
    assert [row_shift("hex", "pointy-odd", y) for y in range(4)] == [0, 1, 0, 1]
    assert [row_shift("hex", "pointy-even", y) for y in range(4)] == [1, 0, 1, 0]
    assert row_shift("hex", "flat-odd", 1) == row_shift("square", None, 1) == 0


# ------------------------------------------------------------ parsing
@pytest.mark.parametrize("text, columns, rows", [
    ("hex rhombus 11 x 11", 11, 11), ("hex hexagon 5", 5, None), ("hex flat-odd 9 x 8", 9, 8),
    ("square 4 x 4, adjacency all", 4, 4),
])
def test_grid_declarations_parse_and_unparse(text, columns, rows):
    decl = parse_fragment(text, "grid", file="t")
    assert (decl.columns, decl.rows) == (columns, rows) and unparse(decl) == text


def pack_text(grid, mask=None, extra=""):
    board = f"board:\n  grid: {grid}\n  shared: true\n"
    if mask is not None:
        board += "  mask: |\n" + "".join(f"    {line}\n" for line in mask.splitlines())
    return ("game: {id: b, players: 1}\n" + board +
            "pieces: {x: {symbol: X}}\nactions: {put: {params: {c: cells where empty}, effect: place x at c}}\n"
            "flow: {round: [{turns: [put]}], end: \"none(cells, empty)\"}\n" + extra)


def open_text(tmp_path, text):
    path = tmp_path / "b.pack"
    path.write_text(text)
    return open_game(path)


def refusal(tmp_path, text):
    with pytest.raises(PackError) as caught:
        open_text(tmp_path, text)
    return caught.value.diagnostics[0]


def test_the_new_boards_open_with_their_cells(tmp_path):
    assert open_text(tmp_path, pack_text("hex rhombus 11 x 11")).grid.size == 121
    game = open_text(tmp_path, pack_text("hex hexagon 5"))
    assert game.grid.size == 61 and game.grid.hex_layout == "rhombus"


@pytest.mark.parametrize("grid, message", [
    ("hex hexagon 5 x 5", "a hexagon-shaped board is written with one number, its side: `hex hexagon 5`, not 5 x 5"),
    ("hex rhombus 11", "a hex board needs its columns and rows: `hex rhombus 11 x 11`; only `hex hexagon SIDE` "
                       "takes one number"),
    ("square 4", "a square board needs its columns and rows: `square 4 x 4`; only `hex hexagon SIDE` takes one "
                 "number"),
    ("hex hexagon 0", "a hexagon needs a side of at least one cell, not 0"),
    ("hex hexagon 20", "a board has at most 1024 cells; a hexagon of side 20 has 1141"),
    ("square rhombus 4 x 4", "a square grid has no layout: `square 4 x 4`, not `rhombus` (layouts are for hex grids)"),
    ("hex rhombus 4 x 4, adjacency all", "unknown board option `adjacency`: the one option is `, adjacency all` of "
                                         "square grids"),
    ("square 4 x 4, size big", "unknown board option `size`: the one option is `, adjacency all` of square grids"),
    ("hex rombus 4 x 4", "unknown hex layout `rombus`: one of flat-odd, flat-even, pointy-odd, pointy-even, "
                         "rhombus (`hex LAYOUT COLUMNS x ROWS`), or `hex hexagon SIDE`"),
])
def test_a_bad_board_declaration_is_a_diagnostic_at_the_grid(tmp_path, grid, message):
    diag = refusal(tmp_path, pack_text(grid))
    if "rombus" in grid:
        assert diag.hint == "did you mean `rhombus`?"
    assert diag.code in ("E302", "E303") and diag.message == message
    assert diag.span.line == 3 and diag.span.col >= 9


# ------------------------------------------------------------ masks
def test_a_mask_without_spaces_reads_like_one_with_them(tmp_path):
    # regression: `###..` was once one token, the whole row read as a single mark
    packed = open_text(tmp_path, pack_text("square 5 x 2", "###..\n#####")).grid
    spaced = open_text(tmp_path, pack_text("square 5 x 2", "# # # . .\n# # # # #")).grid
    mixed = open_text(tmp_path, pack_text("square 5 x 2", "## #..\n#####")).grid
    assert packed == spaced == mixed and packed.size == 8 and names(packed, packed.cells)[:3] == ["A1", "A2", "B1"]


def test_a_hexagon_mask_gives_one_mark_per_cell_of_each_row(tmp_path):
    mask = "\n".join(["#####", "######", "###.###", "########", "####.####", "########", "#######",
                      "######", "#####"])
    grid = open_text(tmp_path, pack_text("hex hexagon 5", mask)).grid
    # the 4th cell of row 3 (it starts at C3) and the 5th of row 5 (it starts at A5)
    assert grid.size == 59 and grid.at(5, 2) is None and grid.at(4, 4) is None
    assert "E5" not in grid.names and "F3" not in grid.names and "E3" in grid.names


@pytest.mark.parametrize("mask, code, message, line, col", [
    ("###..", "E307", "the mask has 1 rows; the board has 2", 5, 9),
    ("#####\n##.#", "E307", "row 2 of the mask has 4 marks; row 2 of the board has 5 cells", 7, 5),
    ("#####\n# # . #", "E307", "row 2 of the mask has 4 marks; row 2 of the board has 5 cells", 7, 5),
    ("#####\n  ##x##", "E308", "`x` is not a mask mark: a mask is written with `#` (a cell) and `.` (no cell)", 7, 9),
    ("#####\n##o##", "E308", "`o` is not a mask mark: a mask is written with `#` (a cell) and `.` (no cell)", 7, 7),
])
def test_a_mask_that_does_not_fit_points_at_its_row_or_mark(tmp_path, mask, code, message, line, col):
    diag = refusal(tmp_path, pack_text("square 5 x 2", mask))
    assert (diag.code, diag.message) == (code, message)
    assert (diag.span.line, diag.span.col) == (line, col)


def test_a_mask_row_error_shows_the_row_and_a_caret(tmp_path):
    path = tmp_path / "b.pack"
    path.write_text(pack_text("hex hexagon 2", "##\n###\n#.#"))
    with pytest.raises(PackError) as caught:
        open_game(path)
    shown = render(caught.value.diagnostics[0], caught.value.sources or SourceStore())
    assert "b.pack:8:5: error[E307]: row 3 of the mask has 3 marks; row 3 of the board has 2 cells" in shown
    assert "   8 |     #.#\n     |     ^^^" in shown
    assert "rows of 2 3 2 marks" in shown  # the hint says what each row takes


# ------------------------------------------------------------ positions, pictures, play
HEXAGON_POSITION = """\
tests:
  - name: a position written as the hexagon's rows
    position:
      board: |
        X . .
        . . . .
        . . X . .
         . . . .
          . . X
    expect:
      legal: {P1: 16}
"""


def test_a_hexagon_position_gives_each_row_its_own_cells(tmp_path):
    path = tmp_path / "b.pack"
    path.write_text(pack_text("hex hexagon 3", extra=HEXAGON_POSITION))
    report = check_pack(path)
    assert report.ok and report.tests_run == 1, [d.message for d in report.diagnostics]


def test_a_position_row_of_another_length_says_both_forms(tmp_path):
    text = pack_text("hex hexagon 3", extra=HEXAGON_POSITION.replace("        . . . .\n", "        . . .\n", 1))
    path = tmp_path / "b.pack"
    path.write_text(text)
    report = check_pack(path)
    (diag,) = [d for d in report.diagnostics if d.severity == "error"]
    assert "row 2 has 3 cells; the board is 5 wide (a `-` for each missing cell), or give only the row's 4 " \
           "cells" in diag.message


def test_a_rhombus_board_is_drawn_with_each_row_half_a_cell_right(tmp_path):
    from boardrule.cli.render import board_text
    game = open_text(tmp_path, pack_text("hex rhombus 3 x 3"))
    state = new_game(game, 1, 0)
    pic = picture(game, state)
    assert board_text(game.grid, pic.boards[0]) == "    A B C\n  1 . . .\n  2  . . .\n  3   . . ."
    svg = to_svg(pic)
    assert svg.count('class="cell"') == 9 and ">A</text>" in svg


def test_a_hexagon_svg_labels_every_column_and_starts_at_its_leftmost_cell(tmp_path):
    game = open_text(tmp_path, pack_text("hex hexagon 3"))
    svg = to_svg(picture(game, new_game(game, 1, 0)))
    for letter in "ABCDE":
        assert f">{letter}</text>" in svg
    assert svg.count('class="cell"') == 19


def test_the_connection_pack_plays_to_the_end_and_replays():
    game = open_game(CROSSING)
    for seed in range(4):
        state = new_game(game, 2, seed)
        agents = {seat: make_agent("random", seed * 10 + seat) for seat in state.players}
        final = play_out(game, state, agents)
        assert final.phase == "over"
        sheets = outcome(game, final).sheets
        assert sorted(sheet.total for sheet in sheets.values()) == [0, 1]  # a connection game has no draw
        log = json.loads(json.dumps(gamelog.record(game, final, 2, seed, None)))
        assert states_equal(gamelog.replay(game, log), final)
        assert states_equal(state_from_json(game, json.loads(json.dumps(state_to_json(game, final)))), final)


def test_directions_and_rays_on_the_rhombus():
    game = open_game(CROSSING)
    state = new_game(game, 2, 0)

    def text(expr):
        return " ".join(game.grid.name(c & CELL_MASK) for c in evaluate(game, state, expr)[0])

    assert text('ray(cell("A1"), east)') == "B1 C1 D1 E1 F1 G1 H1 I1 J1 K1"
    assert text('ray(cell("F6"), southwest)') == "E7 D8 C9 B10 A11"
    assert text('between(cell("A1"), cell("A4"))') == "A2 A3"
    assert len(legal_moves(game, state, 0)) == 121
