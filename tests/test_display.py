"""The `display:` section: how pieces and regions look (docs/language.md#display).

The checker refuses what cannot be drawn (E030-E032), pieces take their
colour by the documented precedence, and attribute values are shortened
to names the legend can spell out.
"""

from __future__ import annotations

import pytest

from boardrule.dsl.diagnostics import PackError
from boardrule.dsl.pack import load_pack, load_pack_text
from boardrule.interpreter import api
from boardrule.interpreter import picture as pictures
from boardrule.interpreter.game import compile_game

BASE = """
game: {id: looks, players: 1}
board:
  grid: square 3 x 3
  regions:
    pond: A1 B1
    field: C3
symbols:
  colors: [red, rose, blue]
pieces:
  lamp: {symbol: L, variable: [color]}
  rock: {symbol: R, category: stone}
  tree: {symbol: T, category: plant}
actions:
  put:
    params: {cell: cells where empty, c: colors}
    effect: place lamp at cell with color = c
flow:
  round:
    - turns: [put]
  end: none(cells, empty)
"""


def codes(display: str) -> list:
    with pytest.raises(PackError) as err:
        load_pack_text(BASE + display, "looks.pack")
    return [(d.code, d.message) for d in err.value.diagnostics]


def game_with(display: str):
    return compile_game(load_pack_text(BASE + display, "looks.pack"))


@pytest.mark.parametrize("display,code,words", [
    ("display:\n  lamp: #ff0000\n", "E030", "has no colour"),
    ('display:\n  lamp: "red"\n', "E030", "is not a colour"),
    ('display:\n  lamp: "#ff00"\n', "E030", "is not a colour"),
    ("display:\n  lamp: {}\n", "E030", "neither `color` nor `symbol`"),
    ('display:\n  lamb: "#ff0000"\n', "E031", "names no piece kind, symbol or region"),
    ('display:\n  lamp: {color: "#ff0000", symbol: "*"}\n', "E032", "only a region takes a `symbol`"),
    ('display:\n  pond: {symbol: "R"}\n', "E032", "already the symbol of piece `rock`"),
    ('display:\n  pond: {symbol: "..."}\n', "E032", "1 or 2 characters"),
    ('display:\n  pond: {symbol: "+"}\n', "E032", "1 or 2 characters"),
    ('display:\n  pond: {colour: "#fff"}\n', "E011", "unknown key `colour`"),
])
def test_the_checker_refuses_what_cannot_be_drawn(display, code, words):
    found = codes(display)
    assert any(c == code and words in m for c, m in found), found


def test_a_misspelt_key_gets_a_did_you_mean():
    with pytest.raises(PackError) as err:
        load_pack_text(BASE + 'display:\n  lamb: "#ff0000"\n', "looks.pack")
    assert err.value.diagnostics[0].hint == "did you mean `lamp`?"


def test_colours_follow_the_documented_precedence():
    game = game_with('display:\n  red: "#ff0000"\n  lamp: "#00F"\n  stone: "#777777"\n  rock: "#123456"\n'
                     '  plant: "#00aa00"\n  pond: {color: "#0000ff", symbol: "~"}\n')
    look = pictures.looks(game)
    assert look.piece_color("lamp", ["red"]) == "#ff0000"  # a variable attribute value first
    assert look.piece_color("lamp", ["blue"]) == "#0000ff"  # else the kind (#00F written short)
    assert look.piece_color("rock", []) == "#123456"  # the kind before a fixed attribute value
    assert look.piece_color("tree", []) == "#00aa00"  # a fixed attribute value (category: plant)
    assert look.marks == {"pond": "~", "field": "*"}


def test_values_are_shortened_within_their_symbol_list():
    game = game_with("")
    look = pictures.looks(game)
    assert [look.short(v) for v in ("red", "rose", "blue")] == ["re", "ro", "b"]
    assert look.short(3) == "3" and look.short(None) == "none"


def test_cells_show_pieces_values_and_region_marks():
    game = game_with('display:\n  red: "#ff0000"\n')
    state = api.new_game(game, 1)
    state = api.apply(game, state, api.parse_move(game, state, 0, "put A1 red"))
    board = pictures.picture(game, state).boards[0]
    by_name = {c.name: c for c in board.cells}
    assert by_name["A1"].label == "L:re" and by_name["A1"].color == "#ff0000" and by_name["A1"].region == "pond"
    assert by_name["B1"].label == "*" and by_name["C3"].label == "+" and by_name["B2"].label == "."
    legend = [(e.label, e.meaning) for e in pictures.picture(game, state).legend]
    assert legend == [("L", "lamp"), ("re", "red"), ("*", "region pond"), ("+", "region field")]


@pytest.mark.parametrize("name", ["tictactoe", "connect4"])
def test_the_small_bundled_packs_colour_every_piece(name):
    game = compile_game(load_pack(name))
    look = pictures.looks(game)
    assert all(look.piece_color(p.name, ()) for p in game.model.pieces)

