"""Cells by position (interpreter/compiler/codegen_index.py): a filter of a fixed list of cells by one
of their positions is answered from an index made when the pack is compiled, with the same cells in
the same order, the same work charged and the same errors as its list form."""

from __future__ import annotations

import ast
import random

import pytest

from boardrule.dsl.pack import load_pack_text
from boardrule.interpreter.api import evaluate
from boardrule.interpreter.compiler import codegen_index, exprs, pycode
from boardrule.interpreter.compiler.game import compile_game
from boardrule.interpreter.runtime import flow
from boardrule.interpreter.runtime.budget import BudgetError, Meter
from boardrule.interpreter.runtime.moves import move_text
from boardrule.interpreter.runtime.values import RuleError

PACK = """\
game: {id: rows, players: 2}
board:
  grid: square 6 x 5, adjacency all
  shared: true
  regions: {home: "A1 B1 C2 F5"}
pieces:
  stone: {symbol: S}
vars:
  trail: "[]"
player_vars:
  ahead: {per_seat: [-1, 1]}
  far: {per_seat: [9007199254740991, 0]}
define:
  forward(c): surrounding(c) where y == c.y + me.ahead
  above(c): surrounding(c) where y == c.y - 1
  same_column(c): adjacent(c) where x == c.x
  diagonal(c): row(c) where x == c.y
  third_row(c): column(c) where it.y == 2
  right_of(c): surrounding(c) where c.x + 1 == x
  down_right(c): surrounding(c) where order == c.order + 7
  too_far(c): surrounding(c) where y == c.y + me.far
  crowded(c): surrounding(c) where y == count(cells where occupied)
  home_row(c): home where y == c.y
actions:
  put:
    params: {c: cells where empty}
    effect: |
      for t in surrounding(c) where y == c.y - 1 { set trail = trail + [t] }
      place stone at c
  # moves listed from an index: a parameter's list
  mark:
    params: {c: cells where empty, t: "surrounding(c) where y == c.y - 1", u: right_of(c)}
    when: count(cells where occupied) > 20
    effect: place stone at c
flow: {round: [{turns: [put]}], end: "none(cells, empty)"}
"""

#: each filter in a definition asked of every cell (a sure cell: the filter is generated, and looked up);
#: `first` sees the order of the cells, `order` which they are
DEFINITIONS = ["forward", "above", "same_column", "diagonal", "third_row", "right_of", "down_right", "too_far",
               "crowded", "home_row"]
QUESTIONS = [f"sum(sum((index_of({d}(c), e) + 1) * e.order for e in {d}(c)) * c.order for c in cells)"
             for d in DEFINITIONS] + [f"sum(first({d}(c)).order * c.order for c in cells where count({d}(it)) > 0)"
                                      for d in DEFINITIONS] + ["sum((index_of(cells where y == 3, e) + 1) * e.order for e in cells where y == 3)",
                                      "count(cells where y == 9)"]


def _games():
    game = compile_game(load_pack_text(PACK, "rows.pack"))
    exprs.GENERATE = False
    try:
        closures = compile_game(load_pack_text(PACK, "rows.pack"))
    finally:
        exprs.GENERATE = True
    return game, closures


def _answer(game, state, question, seat, generate=True):
    """(value, units spent) of a question, generated or as closures (the list form), or the error."""
    before = state.meter.left
    exprs.GENERATE = generate
    try:
        return evaluate(game, state, question, seat=seat)[0], before - state.meter.left
    except (RuleError, BudgetError) as error:
        return type(error).__name__, str(error)
    finally:
        exprs.GENERATE = True


@pytest.mark.parametrize("question", QUESTIONS)
@pytest.mark.parametrize("budget", [10 ** 9, 300])
def test_a_position_filter_answers_charges_and_fails_as_its_list_form(question, budget):
    game, closures = _games()
    chooser = random.Random(question)
    for _ in range(6):
        states = [flow.initial_state(g, 2, seed=1, meter=Meter(operation=budget, game=10 ** 12))
                  for g in (game, closures)]
        for _ in range(chooser.randrange(12)):
            seat = flow.waiting(states[0])[0]
            pick = chooser.randrange(len(flow.legal_moves(game, states[0], seat)))
            states = [flow.apply(g, s, flow.legal_moves(g, s, seat)[pick]) for g, s in zip((game, closures), states)]
        for seat in (0, 1):
            assert _answer(game, states[0], question, seat) == _answer(closures, states[1], question, seat, False), \
                question


def test_moves_and_effects_see_the_cells_of_an_index_in_the_order_of_the_list_form():
    game, closures = _games()
    chooser = random.Random(5)
    states = [flow.initial_state(g, 2, seed=1) for g in (game, closures)]
    while states[0].phase != "over":
        seat = flow.waiting(states[0])[0]
        listed = [[move_text(m, g) for m in flow.legal_moves(g, s, seat)] for g, s in zip((game, closures), states)]
        assert listed[0] == listed[1]
        assert states[0].vars == states[1].vars  # `trail`: the cells an effect's loop met, in order
        pick = chooser.randrange(len(listed[0]))
        states = [flow.apply(g, s, flow.legal_moves(g, s, seat)[pick]) for g, s in zip((game, closures), states)]


def _generated(question):
    """The generated code of a question's function, as text."""
    made = []
    original = pycode.make_function

    def spy(name, params, body, constants):
        made.append(ast.unparse(ast.fix_missing_locations(ast.Module(body=body, type_ignores=[]))))
        return original(name, params, body, constants)

    game = compile_game(load_pack_text(PACK, "rows.pack"))
    state = flow.initial_state(game, 2, seed=1)
    pycode.make_function = spy
    try:
        evaluate(game, state, question)
    finally:
        pycode.make_function = original
    return "\n".join(made)


@pytest.mark.parametrize("question, indexed", [
    ("sum(sum(e.order for e in above(c)) for c in cells)", True),
    ("sum(e.order for e in cells where y == 3)", True),
    ("sum(e.order for e in cells where y == x)", False),  # the value reads the element: no lookup
    ("sum(e.order for e in cells where y > 3)", False),  # only `==` is looked up
    ("sum(e.order for e in cells where kind == stone)", False),  # a kind is no position
])
def test_only_an_equality_of_a_position_with_a_value_of_no_element_is_looked_up(question, indexed):
    assert (".get(" in _generated(question)) is indexed


def test_an_index_groups_each_entry_by_position_in_the_entrys_order():
    table = [(5, 1, 9, 3), None, ()]
    assert codegen_index.grouped(table, lambda cell: cell % 2) == (
        {1: (5, 1, 9, 3)}, None, {})
    assert codegen_index.grouped({"a": (4, 7, 2)}, lambda cell: cell % 3) == {"a": {1: (4, 7), 2: (2,)}}
