"""`let`: local names in expressions and effects (checked, evaluated once, gone after their body or block)."""

from __future__ import annotations

import pytest

from boardrule.dsl.diagnostics import PackError
from boardrule.dsl.pack import load_pack_text
from boardrule.dsl.parser import parse_fragment
from boardrule.interpreter import api
from boardrule.interpreter.runtime import flow
from boardrule.interpreter.compiler.game import compile_game

PACK = """\
game: {{id: lets, name: Lets, players: 1}}
board: {{grid: square 3 x 1}}
pieces:
  stone: {{symbol: S}}
vars:
  total: 0
player_vars:
  wins: 0
define:
  twice(n): let n = n + n in n
actions:
  play:
    params:
      cell: cells where empty
    effect: |
{effect}
flow:
  round:
    - turns: [play]
  end: none(cells, empty)
"""


def game_with(effect):
    body = "\n".join("      " + line for line in effect.strip().splitlines())
    return compile_game(load_pack_text(PACK.format(effect=body), "lets.pack"))


def test_a_let_in_an_effect_names_a_value_for_the_rest_of_its_block():
    game = game_with("""
        place stone at cell
        let placed = count(cells where occupied)
        for c in cells where occupied { let k = c.x + 1; total += k * placed }
        total += twice(placed)
    """)
    state = flow.initial_state(game, 1, seed=0)
    state = flow.play_text(game, state, 0, "play B1")
    assert state.vars["total"] == 2 * 1 + 2  # B1 is x = 1: (1 + 1) * 1, then twice(1)
    state = flow.play_text(game, state, 0, "play A1")
    assert state.vars["total"] == 4 + (1 * 2 + 2 * 2) + 4


def test_a_local_name_is_gone_after_its_block():
    with pytest.raises(PackError) as err:
        game_with("""
            if true { let k = 1 }
            total += k
        """)
    assert [d.code for d in err.value.diagnostics] == ["E201"]


def test_a_let_hides_a_name_only_in_its_body():
    game = api.open_game("tictactoe")
    state = api.new_game(game, 2)
    value, _ = api.evaluate(game, state, "[let cells = 3 in cells + 1, count(cells)]")
    assert value == (4, 9)


def test_the_value_of_let_is_a_term_and_the_error_says_so():
    with pytest.raises(PackError) as err:
        parse_fragment("let free = cells where empty in count(free)", "expr", file="x")
    diagnostic = err.value.diagnostics[0]
    assert diagnostic.code == "E133" and "in parentheses" in diagnostic.hint
    assert parse_fragment("let free = (cells where empty) in count(free)", "expr", file="x").name == "free"


def test_a_let_names_any_player_whose_variable_an_effect_sets():
    game = game_with("""
        place stone at cell
        let richest = sort(players, by = -it.score)[0]
        richest.total_won += 1
    """.replace("total_won", "wins"))
    state = flow.play_text(game, flow.initial_state(game, 1, seed=0), 0, "play A1")
    assert state.pvars[0]["wins"] == 1
