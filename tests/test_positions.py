"""Positions (interpreter/records/positions.py): values a test or a position file sets."""

from __future__ import annotations

import pytest

from boardrule.dsl.diagnostics import PackError
from boardrule.dsl.pack import load_pack_text
from boardrule.interpreter.designer.check import check_pack
from boardrule.interpreter.compiler.game import compile_game
from boardrule.interpreter.designer.scenarios import run_tests

LIST_PACK = """\
game: {id: lists, players: 1}
board: {grid: square 2 x 2}
player_vars:
  line: "[]"
  owner: none
actions:
  note:
    params: {cell: cells}
    effect: |
      set line = line + [1]
      set owner = me
flow:
  round:
    - turns: [note]
  end: any(count(p.line) >= 3 for p in players)
  check_end: round
tests:
  - name: a list set by a position grows like a list written in a rule
    players: 1
    position:
      player_vars: {P1: {line: [4, 5], owner: P1}}
    moves: [P1 note A1]
    expect:
      player_vars: {P1: {line: [4, 5, 1], owner: P1}}
      over: true
"""


def test_a_list_in_a_position_behaves_like_a_list_in_a_rule(tmp_path):
    # regression: a YAML list stayed a Python list, and `line + [1]` failed with a traceback
    game = compile_game(load_pack_text(LIST_PACK, "lists.pack"))
    assert run_tests(game) == []
    path = tmp_path / "lists.pack"
    path.write_text(LIST_PACK, encoding="utf-8")
    assert check_pack(path).ok


SETUP_PLACES = """\
game: {id: setup, players: 1}
board: {grid: square 2 x 2}
pieces: {stone: {symbol: S}, gem: {symbol: G}}
actions: {put: {params: {c: cells where empty}, effect: place stone at c}}
flow:
  setup: [{do: "place gem at cell(\\"A1\\")\\nplace gem at cell(\\"B2\\")"}]
  round: [{turns: [put]}]
  end: "none(cells, empty)"
scoring: {gems: count(cells where kind == gem), stones: count(cells where kind == stone)}
tests:
  - name: a position's board replaces the one setup made
    position:
      board: |
        . S
        . .
    expect:
      terms: {P1: {gems: 0, stones: 1}}
      legal: {P1: 3}
  - name: without a position, setup's pieces are there
    expect:
      terms: {P1: {gems: 2, stones: 0}}
"""


def test_a_dot_in_a_test_position_empties_a_cell_setup_filled():
    # positions were once laid over setup's board, so `.` left a setup piece in place
    game = compile_game(load_pack_text(SETUP_PLACES, "setup.pack"))
    assert run_tests(game) == []


NAMES_PACK = """\
game: {id: names, players: 2}
board: {grid: square 2 x 1, shared: true}
symbols:
  cards: [p02, p1, pawn]
vars:
  drawn: none
  holder: none
actions:
  pass_on: {effect: set drawn = drawn}
flow:
  round:
    - turns: [pass_on]
  end: "false"
tests:
  - name: a name that looks like a seat is a name; P2 is the second seat
    position:
      vars: {drawn: p02, holder: P2}
    expect:
      vars: {drawn: p02, holder: P2}
"""


def test_a_name_like_p02_in_a_position_is_a_name_not_a_seat():
    # regression: `[Pp]\\d+` read `p02` (and `p1`) as a seat, so `drawn` held a player
    from boardrule.dsl.loader import load_yaml_text
    from boardrule.interpreter.records.positions import apply_position
    from boardrule.interpreter.runtime import flow
    from boardrule.interpreter.runtime.values import PLAYERS
    game = compile_game(load_pack_text(NAMES_PACK, "names.pack"))
    assert run_tests(game) == []
    state = flow.initial_state(game, 2, seed=0)
    apply_position(game, state, load_yaml_text("vars: {drawn: p02, holder: P2}", "position.yaml"))
    assert type(state.vars["drawn"]) is str and state.vars["drawn"] == "p02"
    assert state.vars["holder"] is PLAYERS[1]


HAND_PACK = """\
game: {id: hand, players: 1}
board: {grid: square 3 x 3}
pieces: {tile: {symbol: T}}
shapes:
  bar: {art: X X}
  dot: {art: X}
player_vars:
  hand: "[bar, dot]"
  kept: dot
actions:
  put:
    params:
      piece: me.hand
      at: placements(piece, cells where empty)
    effect: |
      for c in at { place tile at c }
      set me.hand = me.hand where it != piece
flow: {round: [{turns: [put]}], end: "all(players, count(it.hand) == 0)"}
tests:
  - name: a hand of shapes set by a position is played like the one the rules made
    position:
      player_vars: {P1: {hand: [bar], kept: bar}}
    expect:
      legal: {P1: 12}
"""


def test_shapes_named_in_a_position_are_the_packs_shapes():
    # regression: `hand: [bar]` stayed the text `bar`, and listing the moves crashed in placements()
    from boardrule.dsl.loader import load_yaml_text
    from boardrule.interpreter.records.positions import PositionError, apply_position
    from boardrule.interpreter.runtime import flow
    game = compile_game(load_pack_text(HAND_PACK, "hand.pack"))
    assert run_tests(game) == []
    state = flow.initial_state(game, 1, seed=0)
    apply_position(game, state, load_yaml_text("player_vars: {P1: {kept: bar}}", "position.yaml"))
    assert state.pvars[0]["kept"] is game.shapes["bar"]
    try:
        apply_position(game, state, load_yaml_text("player_vars: {P1: {hand: [bra]}}", "position.yaml"))
    except PositionError as err:
        assert "`bra` is not a shape of this pack" in str(err)
    else:
        raise AssertionError("an unknown shape name was taken")


DECK_AND_STEP = """\
game: {id: stalls, players: 1}
board: {grid: square 3 x 1}
pieces: {ruby: {symbol: R}, jade: {symbol: J}}
decks:
  pile: {ruby: 2, jade: 2}
vars: {drawn: none}
actions:
  take: {effect: "draw card from pile { set drawn = card }"}
  put: {params: {c: cells where empty}, effect: place drawn at c}
flow:
  setup: [{do: shuffle pile}]
  round:
    - {name: taking, turns: [take]}
    - {name: laying, turns: [put]}
  end: none(cells, empty)
tests:
  - name: a position lists a deck top first
    position:
      decks: {pile: [jade, ruby, ruby]}
    moves: [P1 take]
    expect:
      vars: {drawn: jade}
  - name: a position opens the step it names
    position:
      vars: {drawn: ruby}
      step: laying
    expect:
      legal: {P1: [put A1, put B1, put C1]}
"""


def test_a_position_sets_a_decks_cards_and_the_step_that_is_open():
    game = compile_game(load_pack_text(DECK_AND_STEP, "stalls.pack"))
    assert run_tests(game) == []


def test_a_position_names_only_real_decks_cards_and_steps():
    for position, message in [
            ("decks: {heap: [ruby]}", "`heap` is not a deck (decks: pile)"),
            ("decks: {pile: [ruby, opal]}", "`opal` is not a card of deck `pile` (its cards: jade, ruby)"),
            ("step: selling", "`selling` is not the name of a flow step (named steps: taking, laying)")]:
        text = DECK_AND_STEP.split("tests:")[0] + f"tests:\n  - name: bad\n    position: {{{position}}}\n"
        game = compile_game(load_pack_text(text, "stalls.pack"))
        failures = run_tests(game)
        assert len(failures) == 1 and failures[0].code == "E400" and message in failures[0].message, failures


OWNED = """\
game: {id: owned, players: 2}
board: {grid: square 3 x 1, shared: true}
pieces: {cube: {symbol: C}}
actions: {put: {params: {c: cells where empty}, effect: place cube at c}}
flow: {round: [{turns: [put]}], end: "none(cells, empty)"}
scoring:
  cubes: count(cells where owner == me)
tests:
  - name: a position says who owns a piece
    position:
      board: C@P2 C .
    expect:
      terms: {P1: {cubes: 0}, P2: {cubes: 1}}
  - name: a piece placed in play is its mover's
    moves: [P1 put C1]
    expect:
      terms: {P1: {cubes: 1}, P2: {cubes: 0}}
"""


def test_a_position_gives_a_pieces_owner_and_writes_it_back():
    # positions could not say who owns a piece: a test of majorities passed without testing anything
    from boardrule.dsl.loader import load_yaml_text
    from boardrule.interpreter.records.positions import apply_position, board_rows
    from boardrule.interpreter.runtime import flow
    game = compile_game(load_pack_text(OWNED, "owned.pack"))
    assert run_tests(game) == []
    state = flow.initial_state(game, 2)
    apply_position(game, state, load_yaml_text("board: C@P2 C .\n", "position.yaml"))
    assert board_rows(game, state, 0) == [["C@P2", "C", "."]]
    failures = run_tests(compile_game(load_pack_text(OWNED.replace("C@P2 C .", "C@P7 C ."), "owned.pack")))
    assert failures and "`P7` is not a seat" in failures[0].message


HOLES = """\
game: {id: holes, players: 1}
board:
  grid: square 3 x 2
  mask: |
    # . #
    . # .
pieces: {stone: {symbol: S}}
actions: {put: {params: {c: cells where empty}, effect: place stone at c}}
flow: {round: [{turns: [put]}], end: "none(cells, empty)"}
tests:
  - name: a board written over its holes
    position:
      board: |
        S - S
        - . X
"""


@pytest.mark.parametrize("rows, message, line, col", [
    ("S . S\n        - S -", "there is no cell at column 2, row 1; write `-`", 14, 11),   # a piece on a hole
    ("S - S\n        - - -", "B2 is on the board; `-` marks a missing cell", 15, 11),
    ("S - S\n        - X -", "`X` is not a piece symbol of this pack", 15, 11)])
def test_an_error_in_a_positions_board_points_at_the_cell_written(rows, message, line, col):
    # the error about a hole once pointed at `board: |`, not at the cell
    text = HOLES.replace("S - S\n        - . X", rows)
    failures = run_tests(compile_game(load_pack_text(text, "holes.pack")))
    assert len(failures) == 1 and message in failures[0].message, failures
    assert (failures[0].span.line, failures[0].span.col) == (line, col)


CELL_IN_A_VARIABLE = """\
game: {id: posvar, players: 1}
board: {grid: square 3 x 1}
pieces: {stone: {symbol: S}}
vars: {last: DECLARED}
actions:
  put:
    params: {cell: cells where empty}
    effect: |
      place stone at cell
      set last = cell
flow: {round: [{turns: [put]}], end: "none(cells, empty)"}
scoring:
  where: if last == none then 0 else last.x
tests:
  - name: a cell in a position's variables
    position:
      vars: {last: WRITTEN}
    expect:
      score: {P1: 2}
"""


#: a variable that holds cells: only ever set to cells, or declared so (`type: cell`)
HOLDS_CELLS = ["none", "{initial: none, type: cell}"]


@pytest.mark.parametrize("declared", HOLDS_CELLS)
@pytest.mark.parametrize("written, message", [
    ("C1", None),
    ("D1", "`D1` is not a cell of the board: cells are written like B2"),
    ("3", "`last` holds a cell, and 3 is not one")])
def test_a_position_names_the_cell_a_variable_that_holds_cells_holds(declared, written, message):
    # `vars: {last: C1}` once set the text "C1", and `last.x` stopped `check` with an internal error
    text = CELL_IN_A_VARIABLE.replace("DECLARED", declared).replace("WRITTEN", written)
    failures = run_tests(compile_game(load_pack_text(text, "posvar.pack")))
    assert [f.message.split(": ", 1)[1] for f in failures] == ([] if message is None else [message])


def test_a_variable_declared_a_cell_is_set_to_cells_only():
    text = CELL_IN_A_VARIABLE.replace("DECLARED", HOLDS_CELLS[1]).replace("set last = cell", "set last = 1")
    with pytest.raises(PackError) as caught:
        load_pack_text(text, "posvar.pack")
    assert [(d.code, d.message) for d in caught.value.diagnostics] == [
        ("E210", "`last` holds a cell, so it cannot be set to a number")]
