"""Piece rules (`rules:` of a piece kind, read on a cell like an attribute) and
`uses(kind, mark)`: what the checker refuses, what the rules give, and the
error when a kind declares no rule of the name read."""

from __future__ import annotations

import pytest

from boardrule.dsl.diagnostics import PackError
from boardrule.dsl.pack import load_pack_text
from boardrule.interpreter import api
from boardrule.interpreter.runtime import flow
from boardrule.interpreter.compiler.game import compile_game
from boardrule.interpreter.runtime.values import RuleError

PACK = """
game: {id: rules, players: 1}
board: {grid: square 3 x 3}
pieces:
PIECES
vars: {pot: 0}
actions:
  wait: {effect: set pot = pot}
flow:
  round: [{turns: [wait]}]
  end: "false"
"""

STALLS = """
  fruit: {symbol: F, rules: {takings: 2 * count(adjacent where empty), rank: 1}}
  bread: {symbol: B, rules: {takings: "3 + max(adjacent where kind == fruit, rank)"}}
  cart: {symbol: C}
"""


def game_of(pieces: str):
    return compile_game(load_pack_text(PACK.replace("PIECES", pieces.strip("\n"))))


def codes(pieces: str) -> list:
    with pytest.raises(PackError) as err:
        load_pack_text(PACK.replace("PIECES", pieces.strip("\n")))
    return [(d.code, d.message) for d in err.value.diagnostics]


def board(game, cells: dict):
    state = flow.initial_state(game, 1)
    for name, kind in cells.items():
        state.kind[0][game.grid.parse_name(name)] = kind
    return state


def test_each_kind_answers_by_its_own_rule_and_a_rule_reads_another():
    game = game_of(STALLS)
    state = board(game, {"A1": "fruit", "B1": "bread", "C3": "cart"})
    value, _ = api.evaluate(game, state, "sum(cells where kind == fruit or kind == bread, takings)")
    assert value == 2 * 1 + (3 + 1)  # the fruit stall has one empty neighbour (A2); bread reads the fruit's rank
    assert api.evaluate(game, state, 'cell("B1").takings')[0] == 4


def test_a_kind_without_the_rule_is_an_error_that_names_it():
    game = game_of(STALLS)
    state = board(game, {"A1": "fruit", "C3": "cart"})
    with pytest.raises(RuleError, match=r"`cart` on C3 has no rule `takings`.*`fruit`, `bread`"):
        api.evaluate(game, state, "sum(cells where occupied, takings)")
    with pytest.raises(RuleError, match=r"B2 is empty: it has no rule `takings`"):
        api.evaluate(game, state, 'cell("B2").takings')


def test_a_rule_name_that_is_also_an_attribute_or_a_mark_is_refused():
    found = codes("""
  fruit: {symbol: F, rules: {colour: 1, shaded: 2, x: 3}}
  tree: {symbol: T, colour: green, marks: {shaded: adjacent}}
""")
    assert [c for c, _ in found] == ["E205", "E205", "E205"]
    assert "an attribute of a piece" in found[0][1] and "a mark" in found[1][1] and "every cell has" in found[2][1]


def test_a_rule_that_uses_itself_is_refused():
    found = codes("""
  fruit: {symbol: F, rules: {takings: "1 + max(adjacent where kind == bread, takings)"}}
  bread: {symbol: B, rules: {takings: 3}}
""")
    assert found[0][0] == "E240" and "rule `takings` uses itself" in found[0][1]


def test_rules_of_one_name_give_one_type_and_are_read_on_cells():
    found = codes("""
  fruit: {symbol: F, rules: {takings: 2}}
  bread: {symbol: B, rules: {takings: fruit}}
""")
    assert found[0][0] == "E206"
    found = codes("""
  fruit: {symbol: F, rules: {takings: 2}, score: fruit.takings}
""")
    assert found[0][0] == "E211" and "read it on a cell" in found[0][1]


USES = """
  lamp: {symbol: L, marks: {lit: adjacent}}
  moth: {symbol: M, score: "if lit then 1 else 0"}
  owl: {symbol: O, rules: {calls: bright(self)}}
  bat: {symbol: B, score: "sum(adjacent where kind == owl, calls)"}
  mouse: {symbol: R, place: any(adjacent where lit)}
  cat: {symbol: C, score: "count(cells where allowed(mouse, it))"}
  rock: {symbol: K, score: 1}
"""


def test_uses_follows_marks_through_definitions_rules_and_placement_rules():
    text = PACK.replace("PIECES", USES.strip("\n")) + "define:\n  bright(c): c.lit\n"
    game = compile_game(load_pack_text(text))
    state = flow.initial_state(game, 1)
    value, _ = api.evaluate(game, state, "kinds where uses(it, lit)")
    assert value == ("lamp", "moth", "owl", "bat", "mouse", "cat")  # all but the rock
    state.kind[0][0], state.kind[0][1] = "rock", "bat"
    assert api.evaluate(game, state, "count(cells where uses(kind, lit))")[0] == 1


def test_the_second_argument_of_uses_names_a_mark():
    text = PACK.replace("PIECES", USES.strip("\n")) + "define:\n  bright(c): c.lit\n  wrong: uses(rock, rock)\n"
    with pytest.raises(PackError) as err:
        load_pack_text(text)
    [diag] = err.value.diagnostics
    assert diag.code == "E210" and "the name of a mark (marks: `lit`)" in diag.message
