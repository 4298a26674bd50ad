"""Pictures of positions (`boardrule render`): text snapshots, SVG that shows the same cells, PNG.

The cases are the position files of tests/golden/pictures/PACK/ (see the
README there). The SVG is read back as XML and compared with the text
rendering cell by cell; hexagons are checked to sit where the engine's
neighbours are, in every hex layout.
"""

from __future__ import annotations

import builtins
import json
import math
import os
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

import boardrule.cli.commands  # noqa: F401  (registers the commands)
import boardrule.cli.picture  # noqa: F401  (registers render)
from boardrule.cli.main import cli
from boardrule.dsl.extends import bundled_pack_names
from boardrule.dsl.pack import load_pack_text
from boardrule.interpreter import api
from boardrule.interpreter.runtime import flow
from boardrule.interpreter.runtime import picture as pictures
from boardrule.interpreter.compiler.game import compile_game
from boardrule.interpreter.runtime.geometry import column_letters, make_grid

ROOT = Path(__file__).resolve().parent.parent
FOLDER = ROOT / "tests" / "golden" / "pictures"
CASES = sorted(FOLDER.glob("*/*.yaml"))
REGEN = os.environ.get("BOARDRULE_REGEN") == "1"
SVG = "{http://www.w3.org/2000/svg}"


def pack_of(case: Path) -> str:
    name = case.parent.name
    return name if name in bundled_pack_names() else str(ROOT / "tests" / "packs" / f"{name}.pack")


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)


def _id(case):
    return f"{case.parent.name}/{case.stem}"


@pytest.fixture(autouse=True)
def _no_color(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)


def test_there_are_cases_for_the_packs_the_issue_names():
    assert {c.parent.name for c in CASES} >= {"tictactoe", "connect4", "hexmap", "towns"}


@pytest.mark.parametrize("pack", bundled_pack_names())
def test_every_bundled_pack_has_a_picture_case(pack):
    if not (FOLDER / pack).is_dir():
        pytest.skip(f"no picture snapshot yet for `{pack}`: add tests/golden/pictures/{pack}/CASE.yaml "
                    "(see the README there)")
    assert list((FOLDER / pack).glob("*.yaml"))


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_text_snapshot(case):
    result = run("render", pack_of(case), case, "--format", "text", "--no-color")
    assert result.exit_code == 0, result.output
    expected = case.with_suffix(".txt")
    if REGEN:
        expected.write_text(result.output, encoding="utf-8", newline="")
    assert expected.exists(), f"no {expected.name}; run with BOARDRULE_REGEN=1 and review it"
    assert result.output == expected.read_text(encoding="utf-8")
    assert "\x1b[" not in result.output


def text_boards(game, text) -> list:
    """The cells of each board of a text rendering: {cell name: label}, read back from the rows."""
    grid = game.grid
    letters = [column_letters(x) for x in range(grid.width)]
    lines = text.splitlines()
    boards, i = [], 0
    flat = grid.kind == "hex" and grid.hex_layout.startswith("flat")
    while i < len(lines):
        if lines[i].split() != letters:
            i += 1
            continue
        cells = {}
        for y in range(grid.height):
            if flat:
                odd_low = grid.hex_layout.endswith("odd")
                for line, low in ((lines[i + 1 + 2 * y], False), (lines[i + 2 + 2 * y], True)):
                    if not low:
                        assert line[:4].strip() == str(y + 1)
                    xs = [x for x in range(grid.width) if ((x % 2 == 1) == odd_low) == low and grid.at(x, y) is not None]
                    tokens = line[4:].split()
                    assert len(tokens) == len(xs), (line, xs)
                    cells.update({f"{letters[x]}{y + 1}": t for x, t in zip(xs, tokens)})
            else:
                line = lines[i + 1 + y]
                assert line[:4].strip() == str(y + 1)
                xs = [x for x in range(grid.width) if grid.at(x, y) is not None]
                tokens = line[4:].split()
                assert len(tokens) == len(xs), (line, xs)
                cells.update({f"{letters[x]}{y + 1}": t for x, t in zip(xs, tokens)})
        boards.append(cells)
        i += 1 + grid.height * (2 if flat else 1)
    return boards


def svg_boards(game, svg_text) -> list:
    root = ET.fromstring(svg_text)
    assert root.tag == f"{SVG}svg"
    groups = [g for g in root.iter(f"{SVG}g") if g.get("class") == "cell"]
    size = game.grid.size
    assert len(groups) % size == 0
    boards = []
    for start in range(0, len(groups), size):
        cells = {}
        for g in groups[start:start + size]:
            label = g.get("data-label")
            drawn = [t.text for t in g.iter(f"{SVG}text")]
            tokens = int(g.get("data-tokens", 0))  # drawn as small discs of their own, after the piece
            body, *tokens = label.rsplit("+", tokens) if tokens else [label]
            assert drawn == ([] if body in (".", "") else [body]) + tokens, (g.get("data-cell"), label, drawn)
            cells[g.get("data-cell")] = label
        boards.append(cells)
    return boards


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_svg_is_valid_and_shows_the_same_cells_as_the_text(case, tmp_path):
    game = api.open_game(pack_of(case))
    text = run("render", pack_of(case), case, "--no-color")
    out = tmp_path / "picture.svg"
    result = run("render", pack_of(case), case, "-o", out)
    assert result.exit_code == 0 and result.output == "", result.output
    svg = out.read_text(encoding="utf-8")
    from_text, from_svg = text_boards(game, text.output), svg_boards(game, svg)
    assert from_text and from_svg == from_text
    for board in from_svg:
        assert set(board) == {game.grid.name(c) for c in game.grid.cells}
    root = ET.fromstring(svg)
    words = " ".join(t.text or "" for t in root.iter(f"{SVG}text"))
    for letter in (column_letters(x) for x in range(game.grid.width)):
        assert f" {letter} " in f" {words} "  # coordinates are labelled
    for entry in pictures.picture(game, api.load_position(game, case)).legend:
        assert entry.meaning in words  # and the legend is there


@pytest.mark.parametrize("layout", ["flat-odd", "flat-even", "pointy-odd", "pointy-even"])
def test_hexagons_sit_where_the_engine_has_neighbours(layout):
    grid = make_grid("hex", 5, 4, hex_layout=layout)
    side = math.sqrt(3) * pictures.HEX_RADIUS
    centre = {c: pictures.cell_geometry(grid, grid.col(c), grid.row(c))[:2] for c in grid.cells}
    for cell in grid.cells:
        _, _, corners = pictures.cell_geometry(grid, grid.col(cell), grid.row(cell))
        assert len(corners) == 6
        for other in grid.cells:
            if other == cell:
                continue
            distance = math.dist(centre[cell], centre[other])
            if other in grid.neighbours[cell]:
                assert distance == pytest.approx(side), (grid.name(cell), grid.name(other))
            else:
                assert distance > side * 1.5, (grid.name(cell), grid.name(other))


def test_squares_sit_in_rows_and_columns():
    grid = make_grid("square", 4, 3)
    for cell in grid.cells:
        x, y, corners = pictures.cell_geometry(grid, grid.col(cell), grid.row(cell))
        assert len(corners) == 4
        assert (x, y) == ((grid.col(cell) + 0.5) * pictures.SQUARE_SIDE, (grid.row(cell) + 0.5) * pictures.SQUARE_SIDE)


def test_the_pack_colours_reach_the_svg(tmp_path):
    case = FOLDER / "connect4" / "midgame.yaml"
    svg = run("render", "connect4", case, "--format", "svg").output
    root = ET.fromstring(svg)
    fills = {c.get("fill") for c in root.iter(f"{SVG}circle")}
    assert {"#d62828", "#f6c600"} <= fills


def test_text_in_colour_uses_the_pack_colours():
    case = FOLDER / "tictactoe" / "midgame.yaml"
    coloured = run("render", "tictactoe", case, "--color").output
    assert "\x1b[38;5;" in coloured
    plain = run("render", "tictactoe", case, "--no-color").output
    assert "\x1b[" not in plain


def test_png_through_the_optional_extra(tmp_path):
    pytest.importorskip("matplotlib")
    out = tmp_path / "board.png"
    result = run("render", "connect4", FOLDER / "connect4" / "midgame.yaml", "-o", out)
    assert result.exit_code == 0, result.output
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_png_without_the_extra_is_a_usage_error(tmp_path, monkeypatch):
    real_import = builtins.__import__

    def no_matplotlib(name, *args, **kwargs):
        if name.startswith("matplotlib"):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_matplotlib)
    result = CliRunner().invoke(cli, ["render", "tictactoe", str(FOLDER / "tictactoe" / "midgame.yaml"),
                                      "--format", "png", "-o", str(tmp_path / "x.png")])
    assert result.exit_code == 2
    assert "pip install 'boardrule[png]'" in result.output
    assert not (tmp_path / "x.png").exists()


def test_png_needs_a_file():
    result = CliRunner().invoke(cli, ["render", "tictactoe", str(FOLDER / "tictactoe" / "midgame.yaml"),
                                      "--format", "png"])
    assert result.exit_code == 2 and "-o FILE.png" in result.output


def test_a_saved_game_at_any_step(tmp_path):
    save = tmp_path / "game.json"
    played = run("play", "tictactoe", "--seats", "random,random", "--seed", "5", "--save", save, "--no-color")
    assert played.exit_code == 0, played.output
    moves = json.loads(save.read_text())["moves"]
    start = run("render", "tictactoe", save, "--step", "0").output
    assert "X" not in start.split("legend")[0] and "O" not in start.split("legend")[0]
    first = run("render", "tictactoe", save, "--step", "1").output
    cell = moves[0][1].split()[1]
    assert text_boards(api.open_game("tictactoe"), first)[0][cell] == "X"
    last = run("render", "tictactoe", save)
    assert last.exit_code == 0 and "game over" in last.output
    too_far = run("render", "tictactoe", save, "--step", str(len(moves) + 1))
    assert too_far.exit_code == 2 and f"the game has {len(moves)} moves" in too_far.output


def test_a_tampered_save_does_not_render(tmp_path):
    save = tmp_path / "game.json"
    run("play", "tictactoe", "--seats", "random,random", "--seed", "3", "--save", save, "--no-color")
    data = json.loads(save.read_text())
    data["moves"][0][1] = "play Z9"
    data["log"][0][2] = "play Z9"
    save.write_text(json.dumps(data))
    result = CliRunner().invoke(cli, ["render", "tictactoe", str(save)])
    assert result.exit_code == 1 and "does not replay" in result.output


def test_usage_errors(tmp_path):
    case = FOLDER / "tictactoe" / "midgame.yaml"
    assert run("render", "tictactoe", case, "--step", "1").exit_code == 2
    assert run("render", "tictactoe", case, "--player", "P7").exit_code == 2
    junk = tmp_path / "junk.json"
    junk.write_text('{"type": "something"}')
    result = run("render", "tictactoe", junk)
    assert result.exit_code == 2 and "neither a position" in result.output
    bad = tmp_path / "bad.yaml"
    bad.write_text("board: |\n  X Q .\n  . . .\n  . . .\n")
    result = run("render", "tictactoe", bad)
    assert result.exit_code == 2 and "`Q` is not a piece symbol" in result.output


HIDDEN_PACK = """
game: {id: secrets, name: Secrets, players: 2}
board: {grid: square 2 x 2}
symbols:
  goods: [wood, stone]
pieces:
  mark: {symbol: M}
player_vars:
  hand: {per_seat: [wood, stone], private: true}
  placed: 0
actions:
  put:
    params: {cell: cells where empty}
    effect: |
      place mark at cell
      placed += 1
flow:
  round:
    - together: [put]
  end: round > 2
  check_end: round
tests:
  - name: both put
    moves: [P1 put A1, P2 put B2]
    expect:
      player_vars: {P1: {placed: 1}}
"""


@pytest.fixture
def secrets_pack(tmp_path):
    path = tmp_path / "secrets.pack"
    path.write_text(HIDDEN_PACK)
    return path


def test_one_players_view_hides_the_others_secrets(secrets_pack, tmp_path):
    save = tmp_path / "game.json"
    run("play", secrets_pack, "--seats", "random,random", "--seed", "1", "--save", save)
    full = run("render", secrets_pack, save, "--step", "1").output
    assert "hand wood" in full and "hand stone" in full
    seen = run("render", secrets_pack, save, "--step", "1", "--player", "P2").output
    assert "hand stone" in seen and "hand wood" not in seen
    assert "P1's board" not in seen and "P2's board" in seen
    # P1 has put a mark in the decision both make at once; P2 does not see it yet
    assert "M" not in seen.split("legend")[0].split("P2's board")[1]


def test_a_pack_without_display_draws_plainly():
    game = compile_game(load_pack_text(HIDDEN_PACK, "secrets.pack"))
    pic = pictures.picture(game, api.new_game(game, 2))
    assert all(c.color is None for b in pic.boards for c in b.cells)
    assert ET.fromstring(pictures.to_svg(pic)).tag == f"{SVG}svg"


def test_notes_leave_out_the_setup_decks_and_what_did_not_change():
    game = api.open_game("tinytowns")
    assert pictures.looks(game).play_decks == {"resource_cards", "discards"}  # drawn from during rounds
    assert pictures.looks(api.open_game("townies")).play_decks == set()  # drawn from during the setup only
    state = api.new_game(game, 1, 4)
    every = " ".join(pictures.notes(game, state, every_deck=True))
    plain = " ".join(pictures.notes(game, state))
    assert "monument_cards 15 cards" in every and "monument_cards" not in plain
    assert "decks: resource_cards 12 cards, discards 0 cards" in plain and "buildings Cottage, " in plain
    assert pictures.notes(game, state, since=state) == []  # nothing changed: no values at all
    assert "buildings" in pictures.unchanged(game, state, state)
    later = flow.play_text(game, state, 0, "keep_monument architects_guild")
    changed = pictures.notes(game, later, since=state)
    assert "P1: monument Architect's Guild" in changed and not any("buildings" in line for line in changed)
    assert "P1 monument" not in pictures.unchanged(game, later, state)
    raw = pictures.notes(game, later, since=state, raw=True)  # `debug`: the variables, by the same rule
    assert "P1: my_monument architects_guild" in raw and not any("in_play" in line for line in raw)


def test_the_legend_names_only_what_the_boards_show():
    game = api.open_game("tinytowns")
    state = api.new_game(game, 1, 4)
    assert pictures.picture(game, state).legend == ()  # an empty town
    later = flow.play_text(game, state, 0, "keep_monument architects_guild")
    later = flow.play_text(game, later, 0, "pick_card wood")
    later = flow.play_text(game, later, 0, "place wood A1")
    assert [(e.label, e.meaning) for e in pictures.picture(game, later).legend] == [("wd", "wood")]


def test_a_board_keeps_its_width_from_the_first_turn_to_the_last():
    # the columns are as wide as the widest label a piece of the game can show (GC:br in Townies),
    # not as the widest on the board now: the board does not change width from turn to turn
    from boardrule.cli.render import board_text
    game = api.open_game("townies")
    state = api.new_game(game, 1, seed=2)
    empty = board_text(game.grid, pictures.picture(game, state).boards[0])
    later = flow.apply(game, state, flow.legal_moves(game, state, 0)[0])  # a Shape: blocks B:r
    drawn = board_text(game.grid, pictures.picture(game, later).boards[0])
    assert "B:" in drawn and empty != drawn
    assert empty.splitlines()[0] == drawn.splitlines()[0] == "    " + "     ".join("ABCDEFGHI")
    assert pictures.looks(game).label_width == len("GC:br")


CELL_VARIABLES = """\
game: {id: cellvars, players: 1}
board: {grid: square 3 x 1}
pieces: {stone: {symbol: S}}
vars: {last: none, typed: {initial: none, type: cell}, count_of: 0, mixed: none}
player_vars: {mine: none}
actions:
  put:
    params: {cell: cells where empty}
    effect: |
      place stone at cell
      set last = cell
      set typed = cell
      set me.mine = cell
      set mixed = cell
      set mixed = 2
flow: {round: [{turns: [put]}], end: "none(cells, empty)"}
"""


def test_notes_show_a_variable_that_holds_cells_by_the_cells_names():
    # a variable starting as none and set to cells once showed `last 1` on screen; one declared a cell too
    game = compile_game(load_pack_text(CELL_VARIABLES, "cellvars.pack"))
    state = flow.play_text(game, api.new_game(game, 1, 1), 0, "put B1")
    shown = " ".join(pictures.notes(game, state))
    assert "last B1" in shown and "typed B1" in shown and "mine B1" in shown
    assert "mixed 2" in shown and "count_of 0" in shown  # set to a cell and a number: shown as it is
    state = flow.play_text(game, state, 0, "put C1")
    assert "last C1" in " ".join(pictures.notes(game, state))
