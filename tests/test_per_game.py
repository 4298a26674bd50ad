"""Definitions fixed for a whole game (interpreter/compiler/per_game.py): which they are, and that the
value remembered is always the value of the game being played."""

from boardrule.dsl.pack import load_pack_text
from boardrule.interpreter.runtime import flow
from boardrule.interpreter.compiler.game import compile_game
from boardrule.interpreter.runtime.moves import move_text
from boardrule.interpreter.compiler.per_game import is_fixed_per_game
from boardrule.interpreter.records.serialize import state_from_json, state_to_json

PACK = """
game: {id: fixed, players: 1..3}
options:
  length: {values: [short, long], default: short}
  bonus: {type: int, default: 2}
board: {grid: square 3 x 3}
pieces: {stone: {symbol: S}}
vars: {turns: 0}
define:
  solo: count(players) == 1
  long_game: length == long
  reward: if solo or long_game then bonus * 2 else bonus
  late: round > 2                      # reads the round
  busy: count(cells where occupied) > 3  # reads the board
  many: turns > 1                      # reads a variable
  mine: me == players[0]               # reads who asks
  twice(n): n * 2                      # has a parameter
actions:
  play:
    params: {at: "cells where empty", score: "[reward]"}
    effect: |
      place stone at at
      turns += 1
flow:
  round: [{turns: [play]}]
  end: turns >= 2
"""


def game():
    return compile_game(load_pack_text(PACK, "fixed.pack"))


def test_a_definition_of_options_players_and_constants_is_fixed_for_the_game():
    g = game()
    fixed = {name for name in g.defines if is_fixed_per_game(g, g.pack.checked.resolved, name)}
    assert fixed == {"solo", "long_game", "reward"}


def scores_offered(g, state):
    return sorted({move_text(m, g).split()[-1] for m in flow.legal_moves(g, state, flow.waiting(state)[0])})


def test_games_with_other_options_and_players_each_see_their_own_value():
    g = game()
    states = {
        ("short", 1): flow.initial_state(g, 1, options={"length": "short"}),
        ("long", 2): flow.initial_state(g, 2, options={"length": "long", "bonus": 5}),
        ("short", 2): flow.initial_state(g, 2, options={"length": "short", "bonus": 5}),
    }
    expected = {("short", 1): ["4"], ("long", 2): ["10"], ("short", 2): ["5"]}
    for _ in range(2):  # in turn, twice: a remembered value never leaks into another game
        for key, state in states.items():
            assert scores_offered(g, state) == expected[key], key


def test_a_state_read_back_from_json_works_its_value_out_again():
    g = game()
    state = flow.initial_state(g, 2, options={"length": "long", "bonus": 3})
    assert scores_offered(g, state) == ["6"]
    other = flow.initial_state(g, 1, options={"bonus": 1})
    assert scores_offered(g, other) == ["2"]
    again = state_from_json(g, state_to_json(g, state))
    assert again.options is not state.options and scores_offered(g, again) == ["6"]
