"""What a failing pack test says: enough to fix the pack or the test without a debugger."""

from __future__ import annotations

from boardrule.dsl.pack import load_pack_text
from boardrule.interpreter.compiler.game import compile_game
from boardrule.interpreter.designer.scenarios import run_tests

PACK = """\
game: {id: count, players: 1}
board: {grid: square 3 x 1}
pieces: {stone: {symbol: S}}
actions: {put: {params: {c: cells where empty}, effect: place stone at c}}
flow: {round: [{turns: [put]}], end: "none(cells, empty)"}
tests:
  - name: a wrong count
    moves: [P1 put B1]
    expect: {legal: {P1: 3}}
"""


def test_a_wrong_count_of_legal_moves_lists_the_moves():
    failures = run_tests(compile_game(load_pack_text(PACK, "count.pack")))
    assert [(d.code, d.message) for d in failures] == [
        ("E701", "test `a wrong count`: P1 has 2 legal moves, expected 3: put A1, put C1")]


def test_a_long_list_of_legal_moves_shows_the_first_twenty():
    text = PACK.replace("square 3 x 1", "square 5 x 5").replace("[P1 put B1]", "[]").replace("P1: 3", "P1: 3")
    failures = run_tests(compile_game(load_pack_text(text, "count.pack")))
    message = failures[0].message
    assert message.startswith("test `a wrong count`: P1 has 25 legal moves, expected 3: put A1, put B1, ")
    assert message.endswith(" (the first 20)") and message.count("put ") == 20


def test_a_refused_move_in_a_test_says_which_rule_refuses_it():
    text = PACK.replace("[P1 put B1]", "[P1 put B1, P1 put B1]").replace("expect: {legal: {P1: 3}}",
                                                                         "expect: {legal: {P1: 1}}")
    failures = run_tests(compile_game(load_pack_text(text, "count.pack")))
    assert [(d.code, d.message) for d in failures] == [
        ("E504", "test `a wrong count`: move `P1 put B1`: `put B1` is not a legal move now (2 legal moves): "
                 "parameter `c` of `put`: B1 is not one of `cells where empty`")]


def test_an_illegal_entry_that_answers_a_choice_nobody_is_asked_is_itself_a_failure():
    # `put A1 / 3` is refused whatever the rules say while no choice waits: the entry could never fail
    text = PACK.replace("expect: {legal: {P1: 3}}", "expect: {illegal: {P1: [put A1 / 3, put B1]}}")
    failures = run_tests(compile_game(load_pack_text(text, "count.pack")))
    assert [(d.code, d.message) for d in failures] == [
        ("E701", "test `a wrong count`: `put A1 / 3` can never be legal here: it answers a choice, and no "
                 "choice of P1 is waiting; write the move alone, or make it in `moves:` first")]


CELLS_IN_VARS = """\
game: {id: cells, players: 1}
board: {grid: square 3 x 1}
pieces: {stone: {symbol: S}}
vars: {last: none, both: "[]"}
actions: {put: {params: {c: cells where empty}, effect: "place stone at c\\nset last = c\\nset both = both + [c]"}}
flow: {round: [{turns: [put]}], end: "none(cells, empty)"}
tests:
  - name: cells in variables are expected by name
    moves: [P1 put B1, P1 put A1]
    expect: {vars: {last: A1, both: [B1, A1]}}
  - name: a wrong cell is shown by name
    moves: [P1 put B1]
    expect: {vars: {last: C1}}
"""


def test_cells_held_in_variables_are_written_and_shown_by_name_in_tests():
    # cells were once compared and printed as the engine's numbers (`last 350`)
    failures = run_tests(compile_game(load_pack_text(CELLS_IN_VARS, "cells.pack")))
    assert [(d.code, d.message) for d in failures] == [
        ("E701", "test `a wrong cell is shown by name`: `last` is 'B1', expected 'C1'")]
