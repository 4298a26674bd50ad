"""Tiles with sides (`sides:`, `turn`, side, side_of, feature, complete, joined, first_side) and exact
halves (7.5): rotation of sides, features joined across matching sides, exact scores and their saves."""

from __future__ import annotations

import json

import pytest

from boardrule.dsl.diagnostics import PackError
from boardrule.dsl.exact import Exact, exact
from boardrule.dsl.loader import load_yaml_text
from boardrule.dsl.pack import load_pack_text
from boardrule.interpreter.api import evaluate, new_game
from boardrule.interpreter.compiler.game import compile_game
from boardrule.interpreter.records.positions import apply_position
from boardrule.interpreter.records.serialize import state_from_json, state_to_json, states_equal
from boardrule.interpreter.runtime import flow
from boardrule.interpreter.runtime.moves import move_text
from boardrule.interpreter.runtime.scoring import score_sheet

PACK = """
game: {id: tiles, players: 2}
board: {grid: GRID, shared: true}
pieces:
  bend: {symbol: B, sides: SIDES}
  cross: {symbol: X, sides: CROSS, apart: [road]}
player_vars:
  komi: {per_seat: [0, 7.5]}
actions:
  lay:
    params: {cell: cells where empty, r: 0..3}
    effect: "place bend at cell with turn = r; score 0.5 as \\"half\\""
flow:
  round:
    - turns: [lay]
  end: none(cells, empty)
scoring:
  komi: me.komi
"""


def game(grid="square 3 x 3", sides="[road, road, field, field]", cross="[road, road, road, road]"):
    text = PACK.replace("GRID", grid).replace("SIDES", sides).replace("CROSS", cross)
    return compile_game(load_pack_text(text))


def at(g, board):
    state = new_game(g, 2)
    rows = "\n".join("    " + row for row in board.splitlines())
    apply_position(g, state, load_yaml_text(f"board: |\n{rows}\n", "position.yaml"))
    return state


def value(g, state, expr):
    return evaluate(g, state, expr)[0]


def test_a_turned_tile_shows_its_sides_turned_clockwise():
    g = game()
    state = at(g, "B:1 . .\n. . .\n. . .")
    assert [value(g, state, f'side(cell("A1"), {d})') for d in ("north", "east", "south", "west")] == \
        ["field", "road", "road", "field"]
    assert value(g, state, "side_of(bend, 2, north)") == "field"
    assert value(g, state, "side_of(bend, 5, east)") == "road"  # turns go round: 5 is 1
    assert value(g, state, 'side(cell("A1"), northeast)') is None  # a square tile has no corner side
    assert value(g, state, 'side(cell("B1"), north)') is None  # no tile


def test_a_feature_follows_matching_sides_across_tiles():
    g = game()
    # A1 (turned 1): road east and south; B1 (turned 2): road south and west; B2 (turned 0): road north, east
    state = at(g, "B:1 B:2 .\n. B:0 .\n. . .")
    assert [g.grid.name(c) for c in value(g, state, 'feature(cell("A1"), east)')] == ["A1", "B1", "B2"]
    assert value(g, state, 'joined(cell("A1"), south, cell("B2"), east)')
    assert value(g, state, 'joined(cell("A1"), north, cell("A1"), west)')  # its two field sides
    assert not value(g, state, 'joined(cell("A1"), north, cell("A1"), east)')  # a field is no road
    assert not value(g, state, 'complete(cell("A1"), east)')  # A1's south and B2's east lead to empty cells
    assert value(g, state, 'first_side(cell("A1"), east)') and not value(g, state, 'first_side(cell("B1"), west)')
    assert value(g, state, 'count(cells where occupied and any(side_directions, first_side(cells[0], it)))') == 3


def test_a_closed_road_is_complete_and_apart_sides_are_not_joined():
    g = game(grid="square 2 x 2")
    state = at(g, "B:1 B:2\nB:0 B:3")  # four bends make a ring
    assert value(g, state, 'complete(cell("A1"), east)')
    assert value(g, state, 'count(feature(cell("A1"), east))') == 4
    crossing = at(g, "X . \n. .")
    assert not value(g, crossing, 'joined(cell("A1"), east, cell("A1"), south)')
    assert value(g, crossing, 'count(feature(cell("A1"), east))') == 1


def test_hex_tiles_have_six_sides():
    g = game(grid="hex pointy-odd 3 x 3", sides="[road, road, field, field, field, field]",
             cross="[road, road, road, road, road, road]")
    state = new_game(g, 2)
    assert value(g, state, "side_directions") == ("northeast", "east", "southeast", "southwest", "west", "northwest")
    assert value(g, state, "side_of(bend, 1, southeast)") == "road"


def test_a_tile_with_the_wrong_number_of_sides_is_an_error():
    with pytest.raises(PackError) as err:
        game(sides="[road, road, field]")
    assert err.value.diagnostics[0].code == "E027"
    assert err.value.diagnostics[0].span.line == 5


def test_exact_halves_print_compare_and_score_exactly():
    g = game()
    state = new_game(g, 2)
    assert str(value(g, state, "0.1 + 0.2")) == "0.3" and value(g, state, "0.1 + 0.2 == 0.3")
    assert value(g, state, "7.5 * 2") == 15 and type(value(g, state, "7.5 * 2")) is int
    assert value(g, state, "7.5 / 2") == 3  # `/` rounds down, as for whole numbers
    for seat in (0, 1):
        state = flow.apply(g, state, flow.legal_moves(g, state, seat)[0])
    assert score_sheet(g, state, 1).total == exact("8") and str(score_sheet(g, state, 0).total) == "0.5"
    data = json.loads(json.dumps(state_to_json(g, state)))
    again = state_from_json(g, data)
    assert states_equal(state, again) and type(again.pvars[1]["komi"]) is Exact


def test_a_turned_tile_is_written_back_in_a_position_and_a_move():
    g = game()
    state = new_game(g, 2)
    move = next(m for m in flow.legal_moves(g, state, 0) if m.args[1] == 3)
    assert move_text(move, g).endswith(" 3")
    state = flow.apply(g, state, move)
    assert value(g, state, "count(cells where turn == 3)") == 1


LINKED = """
game: {id: cities, players: 1..2}
board: {grid: square 3 x 1, shared: true}
pieces:
  walls: {symbol: W, sides: [field, city, field, city], links: [[east], [west]]}
  keep: {symbol: K, sides: [field, city, field, city]}
actions: {lay: {params: {cell: cells where empty}, effect: place keep at cell}}
flow: {round: [{turns: [lay]}], end: "none(cells, empty)"}
"""


def test_links_keep_a_tiles_sides_apart_as_separate_features_and_turn_with_it():
    # two city edges on one tile, not joined to each other (a tile's sides of one value used to join always)
    g = compile_game(load_pack_text(LINKED))
    state = at(g, "K W K")
    assert not value(g, state, 'joined(cell("B1"), east, cell("B1"), west)')
    assert [g.grid.name(c) for c in value(g, state, 'feature(cell("A1"), east)')] == ["A1", "B1"]
    assert value(g, state, 'complete(cell("A1"), east)') is False  # A1's west city meets the edge
    plain = at(g, "K K K")
    assert value(g, plain, 'count(feature(cell("A1"), east))') == 3
    turned = at(g, "K W:2 K")  # turned half round, its links turn with it
    assert not value(g, turned, 'joined(cell("B1"), east, cell("B1"), west)')


def test_links_name_sides_of_this_board_once_each():
    bad = LINKED.replace("links: [[east], [west]]", "links: [[east], [east, northeast]]")
    with pytest.raises(PackError) as caught:
        load_pack_text(bad)
    assert [(d.code, d.message) for d in caught.value.diagnostics] == [
        ("E027", "side `east` is in two links of `walls`"),
        ("E027", "`northeast` is no side of a tile on this board: its sides face north, east, south, west")]


CORNERED = """
game: {id: corners, players: 1..2}
board: {grid: GRID, shared: true}
pieces:
  chapel: {symbol: C, sides: [field, field, road, field], corners: CORNERS, centre: shrine}
  plain: {symbol: P, sides: [field, field, field, field]}
actions: {lay: {params: {cell: cells where empty}, effect: place chapel at cell}}
flow: {round: [{turns: [lay]}], end: "none(cells, empty)"}
"""


def cornered(grid="square 3 x 3", corners="[city, field, field, field]"):
    return compile_game(load_pack_text(CORNERED.replace("GRID", grid).replace("CORNERS", corners)))


def test_a_tiles_corners_turn_with_it_and_its_centre_stays():
    g = cornered()
    state = at(g, "C:1 P .\n. . .\n. . .")
    assert value(g, state, "corner_directions") == ("northeast", "southeast", "southwest", "northwest")
    # the city corner (top right, unturned) points southeast once the tile is turned a step clockwise
    assert [value(g, state, f'corner(cell("A1"), {d})') for d in ("northeast", "southeast", "southwest",
                                                                 "northwest")] == ["field", "city", "field", "field"]
    assert value(g, state, "corner_of(chapel, 3, northwest)") == "city"
    assert value(g, state, 'corner(cell("A1"), north)') is None  # a side's direction is no corner
    assert value(g, state, 'corner(cell("B1"), northeast)') is None  # a tile without corners
    assert value(g, state, 'centre(cell("A1"))') == "shrine" and value(g, state, 'centre(cell("B1"))') is None
    assert value(g, state, "centre_of(chapel)") == "shrine" and value(g, state, "centre_of(plain)") is None
    assert value(g, state, 'centre(cell("C3"))') is None  # no tile
    assert value(g, state, "count(cells where centre(it) == shrine)") == 1


@pytest.mark.parametrize("grid, corners, piece, message", [
    ("square 3 x 3", "[city, field, field]", "chapel",
     "`chapel` gives 3 corners, but a tile on this board has 4: one pointing to each of northeast, southeast, "
     "southwest, northwest"),
    ("hex pointy-odd 3 x 3", "[city, field, field, field]", "chapel",
     "`chapel` gives `corners:`, but a tile on this board has no corners to name"),
])
def test_corners_are_one_per_corner_of_a_square_tile(grid, corners, piece, message):
    text = CORNERED.replace("GRID", grid).replace("CORNERS", corners)
    if grid.startswith("hex"):  # six sides for a hex tile, so that only the corners are wrong
        text = text.replace("[field, field, road, field]", "[field, field, road, field, field, field]").replace(
            "[field, field, field, field]", "[field, field, field, field, field, field]")
    with pytest.raises(PackError) as caught:
        load_pack_text(text)
    found = [(d.code, d.message) for d in caught.value.diagnostics]
    assert any(code == "E027" and text.startswith(message) for code, text in found), found
    assert caught.value.diagnostics[0].span.line == 5


@pytest.mark.parametrize("key", ["corners: [city, field, field, field]", "centre: shrine"])
def test_corners_and_a_centre_belong_to_a_tile(key):
    text = CORNERED.replace("CORNERS", "[city, field, field, field]").replace("GRID", "square 3 x 3").replace(
        "  plain: {symbol: P, sides: [field, field, field, field]}", "  plain: {symbol: P, " + key + "}")
    with pytest.raises(PackError) as caught:
        load_pack_text(text)
    word = key.split(":")[0]
    assert [(d.code, d.message) for d in caught.value.diagnostics] == [
        ("E027", f"`plain` gives `{word}:` but no `sides:`")]
