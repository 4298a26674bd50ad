"""Move notation: stable text, readable labels, numbers are not cells."""

from boardrule.dsl.pack import load_pack_text
from boardrule.interpreter.runtime import flow
from boardrule.interpreter.api import open_game
from boardrule.interpreter.compiler.game import compile_game
from boardrule.interpreter.runtime.moves import move_label, move_text, normalise_text

PACK = """
game: {id: picks, players: 1}
board: {grid: square 3 x 3}
pieces: {stone: {symbol: S}}
shapes: {pair: {art: X X, symmetry: all}}
player_vars: {total: 0}
actions:
  take:
    label: take some coins
    params: {amount: 1..12}
    effect: total += amount
  lay:
    params: {at: "placements(pair, cells where empty)"}
    effect: for c in at { place stone at c }
flow:
  round: [{turns: [take, lay]}]
  end: any(p.total > 20 for p in players)
"""


def game_and_state():
    game = compile_game(load_pack_text(PACK, "picks.pack"))
    return game, flow.initial_state(game, 1)


def test_numbers_print_as_numbers_and_cells_by_name():
    game, state = game_and_state()
    texts = [move_text(m, game) for m in flow.legal_moves(game, state, 0)]
    assert "take 12" in texts and "take 1" in texts
    assert "lay A1+B1" in texts


def test_a_readable_label_names_each_value():
    game, state = game_and_state()
    move = flow.parse_move(game, state, 0, "take 7")
    assert move_label(move, game) == "take some coins: amount 7"


def test_a_list_of_cells_may_be_typed_in_any_order_and_case():
    game, state = game_and_state()
    assert flow.parse_move(game, state, 0, "LAY b1+a1") == flow.parse_move(game, state, 0, "lay A1+B1")
    assert normalise_text("lay  B1+A1") == normalise_text("lay A1+B1")


def test_legal_moves_are_sorted_and_the_same_every_time():
    game = open_game("tictactoe")
    state = flow.initial_state(game, 2)
    first = [move_text(m, game) for m in flow.legal_moves(game, state, 0)]
    assert first == [move_text(m, game) for m in flow.legal_moves(game, state, 0)]
    assert first[:4] == ["play A1", "play B1", "play C1", "play A2"]


def test_an_illegal_move_leaves_the_state_unchanged_and_names_the_rule():
    import pytest

    from boardrule.dsl.diagnostics import IllegalMoveError
    from boardrule.interpreter.runtime.moves import Move
    game, state = game_and_state()
    before = list(state.pvars[0].items())
    with pytest.raises(IllegalMoveError) as err:
        flow.apply(game, state, Move(0, "take", (13,)))
    assert "parameter `amount` of `take`: 13 is not one of `1..12`" in str(err.value)
    assert list(state.pvars[0].items()) == before


WHENS = """
game: {id: whens, players: 1}
board: {grid: square 2 x 2}
player_vars: {total: 0}
actions:
  early:
    params: {a: 1..3, b: 1..2, c: 1..2}
    when: a != 2
    effect: total += a
  middle:
    params: {a: 1..2, b: 1..2, c: 1..2}
    when: a == b
    effect: total += a
  late:
    params: {a: 1..2, b: 1..3}
    when: a + b == 3
    effect: total += b
flow:
  round: [{turns: [early, middle, late]}]
  end: any(p.total > 20 for p in players)
"""


def test_when_is_judged_as_soon_as_its_parameters_are_chosen():
    game = compile_game(load_pack_text(WHENS, "whens.pack"))
    assert [game.actions[name].when_at for name in ("early", "middle", "late")] == [1, 2, 2]
    texts = [move_text(m, game) for m in flow.legal_moves(game, flow.initial_state(game, 1), 0)]
    assert texts == ["early 1 1 1", "early 1 1 2", "early 1 2 1", "early 1 2 2",
                     "early 3 1 1", "early 3 1 2", "early 3 2 1", "early 3 2 2",
                     "middle 1 1 1", "middle 1 1 2", "middle 2 2 1", "middle 2 2 2",
                     "late 1 2", "late 2 1"]


def test_a_remembered_text_is_the_text_of_the_same_values_of_the_same_types():
    # a game remembers the texts it wrote; an answer 5 chosen as a number and as a cell differ
    from boardrule.dsl.types import CELL, NUM
    from boardrule.interpreter.runtime.moves import Move
    game, _ = game_and_state()
    as_number = Move(0, "take", (5,), (5,), (NUM,))
    as_cell = Move(0, "take", (5,), (5,), (CELL,))
    assert move_text(as_number, game) == "take 5 / 5"
    assert move_text(as_cell, game) == "take 5 / C2"
    assert move_text(as_number, game) == "take 5 / 5"  # the remembered one
    assert move_text(Move(0, "lay", ((0, 1),)), game) == move_text(Move(0, "lay", ((0, 1),)), game.grid) == "lay A1+B1"


def test_a_game_forgets_its_texts_past_a_bound(monkeypatch):
    from boardrule.interpreter.compiler.compiled import GameCache
    from boardrule.interpreter.runtime import moves
    monkeypatch.setattr(GameCache, "MAX_ENTRIES", 3)
    game, _ = game_and_state()
    texts = [move_text(moves.Move(0, "take", (n,)), game) for n in range(1, 10)]
    assert texts == [f"take {n}" for n in range(1, 10)] and len(game.cache.table("move_texts")) <= 3


def test_a_move_listed_again_is_the_same_move_for_its_own_seat(monkeypatch):
    from boardrule.interpreter.runtime import moves
    game = open_game("tictactoe")
    state = flow.initial_state(game, 2)
    first = flow.legal_moves(game, state, 0)
    again = flow.legal_moves(game, flow.initial_state(game, 2, seed=5), 0)
    assert len(first) == len(again) == 9 and all(a is b for a, b in zip(first, again))  # not built again
    later = flow.apply(game, state, first[0])
    other = flow.legal_moves(game, later, flow.waiting(later)[0])
    assert {m.seat for m in other} == {flow.waiting(later)[0]} and first[0] not in other
    monkeypatch.setattr(moves, "MAX_REMEMBERED_MOVES", 2)  # past the bound, moves are built afresh, alike
    fresh = flow.legal_moves(game, flow.initial_state(game, 2, seed=6), 0)
    assert fresh == first and [move_text(m, game) for m in fresh] == [move_text(m, game) for m in first]


SHAPES_AS_VALUES = """\
game: {id: shapes, players: 1}
board: {grid: square 3 x 3}
pieces: {stone: {symbol: S}}
shapes:
  bar: {art: X X}
  dot: {art: X}
actions:
  lay:
    params:
      shape: "[bar, dot]"
      at: placements(shape, cells where empty)
    effect: for c in at { place stone at c }
flow: {round: [{turns: [lay]}], end: "none(cells, empty)"}
"""


def test_a_shape_in_a_move_is_written_by_its_name():
    # shapes held in lists once printed as Python reprs: `lay Shape(name='bar', cells=...) A1+B1`
    from boardrule.dsl.pack import load_pack_text
    from boardrule.interpreter.runtime import flow
    from boardrule.interpreter.compiler.game import compile_game
    from boardrule.interpreter.runtime.moves import move_text
    game = compile_game(load_pack_text(SHAPES_AS_VALUES, "shapes.pack"))
    state = flow.initial_state(game, 1, seed=0)
    texts = [move_text(m, game) for m in flow.legal_moves(game, state, 0)]
    assert "lay bar A1+B1" in texts and "lay dot C3" in texts
    assert flow.play_text(game, state, 0, "lay bar A1+B1").kind[0][:2] == ["stone", "stone"]


DOUBLES = """\
game: {id: doubles, players: 1}
board: {grid: square 2 x 1}
pieces: {stone: {symbol: S}}
vars: {dice: "[3, 3, 5]"}
actions:
  write: {params: {v: dice, c: cells where empty}, effect: place stone at c}
flow: {round: [{turns: [write]}], end: "none(cells, empty)"}
tests:
  - name: a double is one face
    expect:
      legal: {P1: [write 3 A1, write 3 B1, write 5 A1, write 5 B1]}
"""


def test_a_value_listed_twice_makes_its_moves_once():
    # a list holding a value twice (two dice showing 3) made every move of it twice
    from boardrule.dsl.pack import load_pack_text
    from boardrule.interpreter.compiler.game import compile_game
    from boardrule.interpreter.designer.scenarios import run_tests
    game = compile_game(load_pack_text(DOUBLES, "doubles.pack"))
    assert run_tests(game) == []
    state = flow.initial_state(game, 1)
    assert [move_text(m, game) for m in flow.legal_moves(game, state, 0)] == [
        "write 3 A1", "write 3 B1", "write 5 A1", "write 5 B1"]


def test_a_listing_that_stops_at_its_first_move_is_handed_the_moves_one_by_one():
    # regression: the one-pass form extended the list, so `can`'s stop at the first move (an `append`
    # that raises) never fired and `can(me, put)` was false with moves to make
    import pytest
    from boardrule.interpreter.runtime.moves import Move, append_moves_of_values

    class Stop(Exception):
        pass

    class First(list):
        def append(self, move):
            raise Stop(move)

    with pytest.raises(Stop) as caught:
        append_moves_of_values(First(), {}, 0, "put", tuple(range(20)))
    assert caught.value.args[0] == Move(0, "put", (0,))
    found = []
    append_moves_of_values(found, {}, 1, "put", tuple(range(20)))
    assert found == [Move(1, "put", (v,)) for v in range(20)]
