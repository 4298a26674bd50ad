"""Lists: sort, slices, negative indices, first/last, index_of, list comprehensions, and turn order from a list."""

from __future__ import annotations

import pytest

from boardrule.dsl.diagnostics import PackError
from boardrule.dsl.pack import load_pack_text
from boardrule.interpreter import api
from boardrule.interpreter.runtime import flow
from boardrule.interpreter.compiler.game import compile_game
from boardrule.interpreter.runtime.values import RuleError

ORDER = """\
game: {{id: order, name: Order, players: 3}}
board: {{grid: square 3 x 1, shared: true}}
pieces:
  stone: {{symbol: S}}
player_vars:
  coins: {{per_seat: [1, 5, 3]}}
  took: 0
actions:
  take:
    effect: took += 1
flow:
  round:
    - turns: [take]
      who: "{who}"
  end: round >= 1
  check_end: round
"""


def turn_order(who) -> list:
    game = compile_game(load_pack_text(ORDER.format(who=who), "order.pack"))
    state, order = flow.initial_state(game, 3, seed=0), []
    while state.phase != "over":
        seat = flow.waiting(state)[0]
        order.append(seat)
        state = flow.apply(game, state, flow.legal_moves(game, state, seat)[0])
    return order


def test_turns_follow_a_list_the_rules_compute():
    assert turn_order("sort(players, by = -it.coins)") == [1, 2, 0]  # the richest first
    assert turn_order("sort(players, by = it.coins)[0..1]") == [0, 2]  # the two poorest
    assert turn_order("players") == [0, 1, 2]


def test_a_player_listed_twice_decides_twice():
    assert turn_order("[players[1], players[0], players[1]]") == [1, 0, 1]


def evaluate(text):
    game = api.open_game("tictactoe")
    return api.evaluate(game, api.new_game(game, 2), text)[0]


def test_sorting_is_stable_and_puts_none_first():
    assert evaluate("sort([2, 1, 2, 0])") == (0, 1, 2, 2)
    assert [str(c) for c in evaluate("sort(cells, by = it.y)[0..2]")] == [str(c) for c in evaluate("cells")[:3]]
    assert evaluate("sort([first(cells where occupied), cell(\"A1\")])")[0] is None


def test_indices_from_the_end_slices_and_positions():
    assert evaluate("[1, 2, 3][-1]") == 3 and evaluate("[1, 2, 3][-3]") == 1
    assert evaluate("[1, 2, 3][1..5]") == (2, 3) and evaluate("[1, 2, 3][2..1]") == ()
    assert evaluate("index_of([4, 5, 6], 6)") == 2 and evaluate("index_of([4, 5, 6], 7)") is None
    assert evaluate("first([])") is None and evaluate("last([7, 8])") == 8
    assert evaluate("[x * x for x in 1..3]") == (1, 4, 9)
    assert evaluate("rotated([1, 2, 3, 4], 1)") == (2, 3, 4, 1) and evaluate("rotated([1, 2, 3], -4)") == (3, 1, 2)
    assert evaluate("rotated([], 2)") == ()


def test_flatten_joins_lists_in_order():
    assert evaluate("flatten([[1, 2], [], [3]])") == (1, 2, 3) and evaluate("flatten([])") == ()
    assert evaluate("flatten([row(c) for c in column(cell(\"A1\"))[0..1]])") == evaluate("cells")[:6]
    assert evaluate("count(flatten([ray(cell(\"B2\"), d) for d in directions]))") == 8


def test_an_index_beyond_either_end_is_a_rule_error():
    game = api.open_game("tictactoe")
    with pytest.raises(RuleError, match="index -4 is outside a list of 3"):
        api.evaluate(game, api.new_game(game, 2), "[1, 2, 3][-4]")


def test_sort_is_checked():
    game = api.open_game("tictactoe")
    state = api.new_game(game, 2)
    for text, code in (("sort(3)", "E212"), ("sort(cells, key = x)", "E222"), ("sort(cells, cells)", "E220"),
                       ("sort(cells, by = adjacent)", "E210")):
        with pytest.raises(PackError) as err:
            api.evaluate(game, state, text)
        assert code in {d.code for d in err.value.diagnostics}, text


def test_flatten_is_checked():
    game = api.open_game("tictactoe")
    state = api.new_game(game, 2)
    for text, code in (("flatten(cells)", "E212"), ("flatten(3)", "E212"), ("flatten([1, 2])", "E212"),
                       ("flatten(cells, cells)", "E220")):
        with pytest.raises(PackError) as err:
            api.evaluate(game, state, text)
        assert code in {d.code for d in err.value.diagnostics}, text
    assert api.evaluate(game, state, "count(flatten([cells, cells]) where empty)")[0] == 18
