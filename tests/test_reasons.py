"""Reasons in the players' words (interpreter/runtime/reasons.py) and the pack's `why:` texts (dsl/sections.py)."""

from __future__ import annotations

import pytest

from boardrule.dsl.diagnostics import PackError, SourceStore
from boardrule.dsl.pack import load_pack_text
from boardrule.interpreter import api
from boardrule.interpreter.runtime import flow, reasons
from boardrule.interpreter.compiler.game import compile_game

STALL = """
game: {id: stall, name: Stall, players: 1}
board: {grid: square 3 x 2}
symbols:
  goods: [wood, stone]
pieces:
  crate: {symbol: C, label: Crate, place: {if: self.x < 2, why: "a crate goes in the first two columns, not {self}"}}
vars:
  left: 2
actions:
  stack:
    params:
      good: goods
      cell: {in: cells where empty, why: "{cell} holds {cell.kind}"}
    when:
      - {if: left > 0, why: "no crate is left ({left})"}
      - round < 5
    effect: |
      place crate at cell
      left -= 1
  lay:
    params:
      kind: "[crate]"
      cell: (cells where empty) where allowed(kind, it)
    when: left > 1
    why: "laying needs two crates"
    effect: place kind at cell
flow:
  round:
    - turns: [stack, lay]
  end: left == 0
"""


def game_of(text):
    return compile_game(load_pack_text(text, "stall.pack", SourceStore(read_disk=False)))


@pytest.fixture
def stall():
    game = game_of(STALL)
    return game, api.new_game(game, 1)


def test_the_packs_reasons_are_told_with_their_values(stall):
    game, state = stall
    state = flow.play_text(game, state, 0, "stack wood A1")
    assert reasons.refusal(game, state, 0, "stack wood A1") == "A1 holds Crate"
    assert reasons.refusal(game, state, 0, "lay crate C1") == "laying needs two crates; now you may: `stack`"
    state = flow.play_text(game, state, 0, "stack wood B1")


UNTYPED = """
game: {id: untyped, players: 1}
board: {grid: square 3 x 1}
pieces: {crate: {symbol: C}}
vars: {spot: none}
actions:
  stack:
    params:
      cell: {in: "if spot != none then [spot] else cells where empty", why: "{cell} is not free"}
    effect: place crate at cell
flow: {round: [{turns: [stack]}], end: "none(cells, empty)"}
"""


def test_a_cell_of_a_list_the_checker_cannot_type_is_read_as_a_cell():
    # `[spot]`, spot none at first: the value was read as the text `a1` ("a1 is not free")
    game = game_of(UNTYPED)
    state = flow.play_text(game, api.new_game(game, 1), 0, "stack A1")
    assert reasons.refusal(game, state, 0, "stack A1") == "A1 is not free"


def test_a_placement_rules_reason_and_the_engines_own_words():
    game = game_of(STALL.replace("  left: 2", "  left: 3"))
    state = api.new_game(game, 1)
    assert reasons.refusal(game, state, 0, "lay crate C1") == "a crate goes in the first two columns, not C1"
    assert reasons.refusal(game, state, 0, "lay crate C3") == "C3 is off the board (columns A to C, rows 1 to 2)"
    assert reasons.refusal(game, state, 0, "lay crat A1") == "`crat` is not a choice here: did you mean `crate`?"
    assert reasons.refusal(game, state, 0, "lya crate A1") == "`lya` is not a move here: did you mean `lay`?"
    assert reasons.refusal(game, state, 0, "stack wood") == \
        "`stack` takes 2 values (`good`, `cell`), not 1, e.g. `stack wood A1`"
    assert reasons.refusal(game, state, 0, "stack gold A1").startswith("`gold` is not one you may choose now; "
                                                                        "you may choose: `wood`, `stone`")
    assert reasons.refusal(game, state, 0, "stack wood A1") is None


def test_which_condition_of_a_list_fails(stall):
    game, state = stall
    state.vars["left"] = 0
    state.moves_cache.clear()
    assert reasons.refusal(game, state, 0, "stack wood A1").startswith("no crate is left (0)")
    # the rule a designer reads names the part that fails too
    from boardrule.interpreter.runtime.moves import Move
    assert "`when: left > 0`" in flow.explain_illegal(game, state, Move(0, "stack", ("wood", 0)))


def test_a_condition_without_a_reason_is_named():
    game = game_of(STALL.replace("- {if: left > 0, why: \"no crate is left ({left})\"}", "- left > 0"))
    state = api.new_game(game, 1)
    state.vars["left"] = 0
    state.moves_cache.clear()
    assert reasons.refusal(game, state, 0, "stack wood A1").startswith(
        "not now: this needs `left > 0`, which does not hold")


@pytest.mark.parametrize("why,message", [
    ("'{cell'", "a `{` without its `}`"),
    ("'cell}'", "a `}` without its `{`"),
    ("'{nope}'", "unknown name `nope`"),
    ("'" + "x" * 301 + "'", "a reason is one short line"),
])
def test_a_bad_reason_is_a_pack_error(why, message):
    with pytest.raises(PackError) as err:
        game_of(STALL.replace('why: "{cell} holds {cell.kind}"', f"why: {why}"))
    assert message in str(err.value)


def test_braces_are_doubled():
    game = game_of(STALL.replace('why: "{cell} holds {cell.kind}"', "why: '{{taken}} {cell}'"))
    state = flow.play_text(game, api.new_game(game, 1), 0, "stack wood A1")
    assert reasons.refusal(game, state, 0, "stack wood A1") == "{taken} A1"


def test_a_move_typed_in_part_and_menu_numbers_by_column():
    game = api.open_game("connect4")
    state = api.new_game(game, 2)
    assert [api.move_text(m, game) for m in reasons.completions(game, state, 0, "drop c")] == ["drop C6"]
    assert reasons.completions(game, state, 0, "drop") == api.legal_moves(game, state, 0)
    state = flow.play_text(game, state, 0, "drop C6")
    moves = api.legal_moves(game, state, 1)
    numbers = dict(zip((api.move_text(m, game) for m in moves), reasons.menu_numbers(game, moves)))
    assert numbers["drop C5"] == 3 and numbers["drop A6"] == 1 and numbers["drop G6"] == 7
    town = api.open_game("tictactoe")
    moves = api.legal_moves(town, api.new_game(town, 2), 0)
    assert reasons.menu_numbers(town, moves) == list(range(1, 10))  # three cells a column: in order


def test_names_typed_by_their_start_and_groups_by_one_cell():
    game = api.open_game("townies")
    state = api.new_game(game, 1, seed=3)
    seat = api.waiting(state)[0]
    fits = reasons.completions(game, state, seat, "draw_shape A1")
    assert fits and all("A1" in api.move_text(m, game).split()[1].split("+") for m in fits)
    while not any(m.action == "draw_object" for m in api.legal_moves(game, state, seat)):
        state = flow.play_text(game, state, seat, api.move_text(api.legal_moves(game, state, seat)[0], game))
    kind = next(m.args[0] for m in api.legal_moves(game, state, seat) if m.action == "draw_object")
    objects = reasons.completions(game, state, seat, "draw_object " + kind[:3])
    assert objects and all(m.args[0].startswith(kind[:3]) for m in objects)
    assert reasons.completions(game, state, seat, "draw_object " + game.symbols[kind].lower())


SHAPED = """
game: {id: shaped, players: 1}
board: {grid: square 4 x 4}
pieces:
  tile: {symbol: T}
shapes:
  bar: {art: X X}
  dot: {art: X}
player_vars:
  hand: "[bar, dot]"
actions:
  put:
    params:
      piece: me.hand
      at:
        in: placements(piece, cells where empty) where cell("A1") in it
        why: a piece covers A1
      way: directions where it == north
    effect: for c in at { place tile at c }
flow:
  round:
    - turns: [put]
  end: round > 2
"""


def test_a_shape_or_direction_value_is_read_by_its_name_before_a_later_value_is_refused():
    # a shape parameter was left as text, not found in its list, and the refusal blamed it
    game = game_of(SHAPED)
    state = api.new_game(game, 1)
    assert reasons.refusal(game, state, 0, "put dot B2 north") == "a piece covers A1"
    assert reasons.refusal(game, state, 0, "put bar A1+B1 south").startswith("`south` is not one you may choose")
    assert reasons.refusal(game, state, 0, "put bar A1+B1 north") is None
