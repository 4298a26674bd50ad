"""`set EXPR.NAME = v`, `set EXPR.NAME += n`, `set EXPR.NAME -= n`: a variable of the player any expression
gives (`left_of(me)`, a cell's `owner`, `players[0]`), without naming it with `let` first. An expression that
is no player is E207 at check time; one that gives `none` while the game runs is a rule error naming it."""

from __future__ import annotations

import textwrap

import pytest

from boardrule.dsl.diagnostics import PackError
from boardrule.dsl.pack import load_pack_text
from boardrule.interpreter.compiler.game import compile_game
from boardrule.interpreter.runtime import flow
from boardrule.interpreter.runtime.values import RuleError

PACK = """\
game: {{id: purses, name: Purses, players: 3}}
board: {{grid: square 3 x 1, shared: true}}
pieces:
  stone: {{symbol: S}}
vars:
  banker: none
player_vars:
  coins: 0
  row: "[0, 0]"
actions:
  go:
    params: {{cell: cells where empty}}
    effect: |
{effect}
flow:
  round:
    - turns: [go]
  end: none(cells, empty)
"""


def play(effect, moves, players=3):
    game = compile_game(load_pack_text(PACK.format(effect=textwrap.indent(effect, " " * 6)), "purses.pack"))
    state = flow.initial_state(game, players, seed=0)
    for seat, text in moves:
        state = flow.play_text(game, state, seat, text)
    return state


def coins(state):
    return [v["coins"] for v in state.pvars]


def test_a_variable_of_the_player_an_expression_gives_is_set_and_changed():
    state = play("place stone at cell\nset left_of(me).coins += 2\nset right_of(me).coins -= 1\n"
                 "set players[0].coins = 7", [(0, "go A1"), (1, "go B1")])
    # P1: left P2 +2, right P3 -1, P1 = 7; P2: left P3 +2, right P1 -1, P1 = 7
    assert coins(state) == [7, 2, 1]


def test_the_owner_of_a_cell_is_a_player_whose_variables_are_set():
    state = play("place stone at cell\nset cell.owner.coins += 3\nset cell.owner.row[1] += 1", [(0, "go A1")])
    assert coins(state) == [3, 0, 0] and tuple(state.pvars[0]["row"]) == (0, 1)


def test_a_change_written_with_or_without_set_is_the_same():
    assert coins(play("me.coins += 4\nset me.coins -= 1\nset coins += 1", [(0, "go A1")])) == [4, 0, 0]


def test_a_player_held_in_a_variable_and_a_let_still_work():
    state = play("set banker = left\nbanker.coins += 1\nlet p = right\np.coins += 5", [(0, "go A1")])
    assert coins(state) == [0, 1, 5]


def test_an_expression_that_gives_none_is_a_rule_error_naming_it():
    with pytest.raises(RuleError) as err:
        play("set first(adjacent(cell) where occupied).owner.coins += 1", [(0, "go A1")])
    assert "`first(adjacent(cell) where occupied).owner` gives none, not a player, so " \
           "`first(adjacent(cell) where occupied).owner.coins` cannot be set" in str(err.value)


@pytest.mark.parametrize("effect, message", [
    ("set cell.coins = 1", "`cell` is not a player (it is a cell), so `cell.coins` cannot be set"),
    ("set (cells where empty).coins += 1", "is not a player (it is a list of cells)"),
    ("set 3.coins = 1", "`3` is not a player (it is a number)"),
    # the target is written back with the parentheses it needs (it once read `1 + 2.coins`)
    ("set (1 + 2).coins = 1", "`1 + 2` is not a player (it is a number), so `(1 + 2).coins` cannot be set"),
    ("set left_of(me) = 1", "`left_of(me)` cannot be set: `set` writes a variable"),
    ("set left_of(me).score += 1", "`score` is not a variable"),
])
def test_a_target_that_is_no_players_variable_is_e207(effect, message):
    with pytest.raises(PackError) as err:
        play(effect, [])
    found = [d for d in err.value.diagnostics if d.code == "E207"]
    assert found and message in found[0].message, [d.message for d in err.value.diagnostics]
