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
from boardrule.interpreter.runtime import flow
from boardrule.interpreter.runtime import picture as pictures
from boardrule.interpreter.compiler.game import compile_game

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
    ("display:\n  lamp: {}\n", "E030", "gives none of `color`, `symbol`, `shape`, `border`"),
    ("display:\n  lamp: {shape: star}\n", "E030", "`star` is not a shape"),
    ("display:\n  lamp: {border: red}\n", "E030", "is not a colour"),
    ("display:\n  pond: {shape: square}\n", "E032", "a region takes a colour and a symbol"),
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



STYLED = BASE.replace("tree: {symbol: T, category: plant}", "tree: {symbol: T, category: plant, tall: true}") + """
display:
  stone: {color: "#777777", shape: square}
  tall: {shape: diamond, border: "#00aa00"}
  red: "#ff0000"
  blue: "#0000ff"
"""


def test_a_piece_takes_its_shape_and_border_from_its_kind_category_or_flag():
    game = compile_game(load_pack_text(STYLED, "looks.pack"))
    look = pictures.looks(game)
    assert look.piece_style("rock") == ("square", None)  # its category
    assert look.piece_style("tree") == ("diamond", "#00aa00")  # a true/false attribute that is true
    assert look.piece_style("lamp") == ("disc", None)


def test_the_svg_draws_each_piece_as_its_shape_and_tokens_as_small_discs():
    game = compile_game(load_pack_text(STYLED, "looks.pack"))
    state = api.new_game(game, 1)
    state = flow.play_text(game, state, 0, "put A1 red")
    state.kind[0][game.grid.parse_name("B2")] = "rock"
    svg = pictures.to_svg(pictures.picture(game, state))
    rock = svg.split('data-cell="B2"')[1].split("</g>")[0]
    lamp = svg.split('data-cell="A1"')[1].split("</g>")[0]
    assert "<polygon" in rock.split("</title>")[1] and "<circle" not in rock  # a square, not a disc
    assert "<circle" in lamp and 'fill="#ff0000"' in lamp


def test_the_legend_gives_a_kind_the_colour_its_pieces_show():
    # a lamp's colour is its `color` value: the legend does not give it another
    game = compile_game(load_pack_text(STYLED, "looks.pack"))
    state = flow.play_text(game, api.new_game(game, 1), 0, "put A1 red")
    entry = next(e for e in pictures.picture(game, state).legend if e.meaning == "lamp")
    assert entry.color == "#ff0000"
    state = flow.play_text(game, state, 0, "put B1 blue")
    entry = next(e for e in pictures.picture(game, state).legend if e.meaning == "lamp")
    assert entry.color is None  # red and blue lamps: the values' colours say which


def test_townies_draws_the_bank_in_the_legend_as_on_the_board():
    game = api.open_game("townies")
    state = api.new_game(game, 1, seed=2)
    cell = game.grid.parse_name("E4")
    state.kind[0][cell], state.attrs[0][cell] = "bank", {"color": "green"}
    pic = pictures.picture(game, state)
    bank = next(e for e in pic.legend if e.meaning == "Bank")  # by its label
    drawn = next(c for c in pic.boards[0].cells if c.name == "E4")
    assert bank.color == drawn.color == pictures.looks(game).colors["green"]
    assert (bank.shape, drawn.shape) == ("disc", "disc")


def test_a_terminal_writes_a_filled_shape_on_its_colour_and_a_disc_in_it():
    from boardrule.cli.render import ansi256, board_text
    game = compile_game(load_pack_text(STYLED, "looks.pack"))
    state = flow.play_text(game, api.new_game(game, 1), 0, "put A1 red")
    state.kind[0][game.grid.parse_name("B2")] = "rock"
    text = board_text(game.grid, pictures.picture(game, state).boards[0], color=True)
    assert f"\x1b[48;5;{ansi256('#777777')}m" in text  # the rock (a square): on its colour
    assert f"\x1b[38;5;{ansi256('#ff0000')}m" in text and "\x1b[48;5;196m" not in text  # the lamp (a disc)
