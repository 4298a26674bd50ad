"""The rewrite passes (interpreter/compiler/rewrites/): each one's input and output, as fixtures, and
that a rewritten rule gives what the checked rule gives, by the reference evaluator."""

from __future__ import annotations

import warnings

import pytest

from boardrule.dsl.unparse import unparse
from boardrule.interpreter.compiler import exprs, reference
from boardrule.interpreter.compiler.rewrites import aggregates, bounds, fixture, fold, kinds, normalise, rewrite
from boardrule.interpreter.compiler.rewrites.totality import total
from boardrule.interpreter.runtime import flow
from boardrule.interpreter.runtime.values import RuleError

from test_codegen import _generating  # rules compiled as generated code or as closures alone

# (pass, expression as written, as the pass gives it back)
FIXTURES = [
    (fold, "2 + 3 * 4", "14"),
    (fold, "total + (2 - 5)", "total + -3"),
    (fold, "-(4)", "-4"),
    (fold, "3 < 4 and coins > 2", "true and coins > 2"),
    (fold, "1 > 2 and coins > 2", "false"),
    (fold, "2 > 1 or coins > 2", "true"),
    (fold, "coins > 2 or 2 > 1", "coins > 2 or true"),  # the left side is worked out first: kept
    (fold, "if 1 == 1 then coins else total", "coins"),
    (fold, "if house == tower then 1 else 2", "2"),
    (fold, 'house == "house"', "true"),  # a kind is its name, as the rules read it
    (fold, "none == none", "true"),
    (fold, "not (1 == 2)", "true"),
    (fold, "9007199254740991 + 1", "9007199254740991 + 1"),  # out of range: it still stops the rule
    (fold, "3 / 0", "3 / 0"),  # division is never folded: it may stop the rule
    (fold, "coins + 1", "coins + 1"),
    (normalise, "not (kind == house)", "kind != house"),
    (normalise, "not (coins != 3)", "coins == 3"),
    (normalise, "house == kind", "kind == house"),
    (normalise, "none != flag", "flag != none"),
    (normalise, "cells where not (it in corners)", "cells where it not in corners"),
    (normalise, "cells where not (it not in corners)", "cells where it in corners"),
    (normalise, "not not (coins > 2)", "coins > 2"),
    (normalise, "not not flag", "not not flag"),  # flag may hold none: `not not` makes it false
    (normalise, "not (house == kind)", "kind != house"),
    (normalise, "count(cells where not (empty == true))", "count(cells where empty != true)"),
    (kinds, "count(cells where empty)", "count(cells where kind in [none])"),
    (kinds, "count(cells where not empty and kind != tower)", "count(cells where kind not in [none, tower])"),
    (kinds, "count(cells where height >= 2)", "count(cells where kind in [tower])"),
    (kinds, "count(cells where height == 1 or kind == tower)", "count(cells where kind in [house, tower])"),
    (kinds, "count(cells where empty and x > 1)", "count(cells where kind in [none] and x > 1)"),
    (kinds, "count(cells where not (occupied or x > 1))", "count(cells where not (kind not in [none] or x > 1))"),
    (kinds, "any(cells, kind in [tower, house])", "any(cells, kind in [tower, house])"),  # the form: kept
    (kinds, "count(cells where kind in [house])", "count(cells where kind in [house])"),  # the form itself
    (kinds, "count(cells where height > coins)", "count(cells where height > coins)"),  # no literal
    (kinds, "kind == house or empty", "kind == house or empty"),  # `it` is no cell of a filter here
    (kinds, "count([c for c in cells where occupied])", "count([c for c in cells where kind not in [none]])"),
    (aggregates, "count(cells where empty)", "count(cells, empty)"),
    (aggregates, "any(cells where kind == house and x > 1)", "any(cells, kind == house and x > 1)"),
    (aggregates, "none(cells where y + 1 == 2)", "none(cells, y + 1 == 2)"),
    (aggregates, "any(cells where 10 / (2 - x) > 0)", "any(cells where 10 / (2 - x) > 0)"),  # may fail later
    (aggregates, "any(cells where count(adjacent where empty) > 2)", "any(cells where count(adjacent, empty) > 2)"),
    (aggregates, "sum(cells where empty, x)", "sum(cells where empty, x)"),  # a body of its own: as written
    (aggregates, "count(cells where 10 / (2 - x) > 0)", "count(cells, 10 / (2 - x) > 0)"),  # tests all anyway
]


@pytest.mark.parametrize("rewriter, written, expected", FIXTURES, ids=[f"{p.__name__.rsplit('.', 1)[-1]}: {w}"
                                                                       for p, w, _ in FIXTURES])
def test_a_pass_gives_back_the_expression_the_fixture_says(rewriter, written, expected):
    facts, node = fixture(written)
    if rewriter is aggregates:  # it asks what bounds.py, the pass before it, found
        bounds.rewrite(node, facts)
    assert unparse(rewriter.rewrite(node, facts)) == expected


# (expression, the arithmetic in it proven in range)
BOUNDED = [
    ("x + 1", ["x + 1"]),
    ("y * 4 + order", ["y * 4", "y * 4 + order"]),
    ("count(cells where empty) + count(cells) - 1", ["count(cells where empty) + count(cells)",
                                                      "count(cells where empty) + count(cells) - 1"]),
    ("coins + 1", []),  # a variable may hold any number in range
    ("count(cells) * count(cells)", []),  # a count is bounded by what memory can hold, not by the board
    ("(if empty then x else 3) - 2", ["(if empty then x else 3) - 2"]),
    ("x - y * 9007199254740991", []),
]


@pytest.mark.parametrize("written, in_range", BOUNDED)
def test_arithmetic_is_in_range_where_its_operands_bound_it(written, in_range):
    facts, node = fixture(written)
    bounds.rewrite(node, facts)
    assert sorted(unparse(n) for n in facts.in_range) == sorted(in_range)


def test_a_field_named_like_a_position_leaves_positions_unbounded():
    facts, node = fixture("x + 1")
    facts.game.pack.checked.symbols.piece_attributes["x"] = None  # as if a piece declared `x`
    try:
        bounds.rewrite(node, facts)
    finally:
        del facts.game.pack.checked.symbols.piece_attributes["x"]
    assert facts.in_range == set()


@pytest.mark.parametrize("written, expected", [
    ("kind == house and not empty or x < 2", True), ("it in [house, tower]", True), ("coins + 1 > 2", False),
    ("x + 1 > 2", True), ("10 / x > 1", False), ("count(adjacent) > 1", False), ("probe2", False),
    ("it.kind == house", True),
])
def test_totality_says_what_can_neither_fail_nor_spend_work(written, expected):
    facts, node = fixture(f"cells where {written}", {"probe2": "true"})
    bounds.rewrite(node, facts)
    assert total(node.condition, facts) is expected


def test_a_definition_the_kind_alone_decides_is_written_as_a_kind_set_where_a_cell_is_it():
    facts, node = fixture("count(cells where tall and x > 0)", {"tall": "height > 2"})
    assert unparse(kinds.rewrite(node, facts)) == "count(cells where kind in [tower] and x > 0)"


def test_a_chain_of_definitions_the_kind_alone_decides_is_judged_once_per_definition():
    # each `dN: dN-1 and dN-1` was judged again at each use: 2^60 judgements, never finished
    defines = {"d0": "empty", **{f"d{n}": f"d{n - 1} and d{n - 1}" for n in range(1, 61)}}
    facts, node = fixture("count(cells where d60 and x > 0)", defines)
    assert unparse(kinds.rewrite(node, facts)) == "count(cells where kind in [none] and x > 0)"


def test_a_node_no_pass_changes_is_given_back_itself():
    facts, node = fixture("count(cells) + sum(cells where x > 1, x) * coins")
    assert rewrite(node, facts) is node


def test_a_made_node_has_the_type_and_resolution_the_compiler_reads():
    facts, node = fixture("1 < 2")
    made = fold.rewrite(node, facts)
    assert unparse(made) == "true" and str(facts.types[made]) == "boolean" and facts.resolved[made].name == "true"


REWRITTEN_RULES = [
    "count(cells where not (kind == house)) + 2 * 3",
    "if 2 > 1 then count(cells where house == kind) else 0",
    "sum(cells where not (not (x > 1)), x * 4 + y) - (1 - 1)",
    "any(cells where not (it in corners) and x + y == 3)",
    "[c.x + 1 for c in cells where not (y != 0)]",
    "count(cells where height >= 2 or empty) * 10 + count(cells where not empty and kind != tower)",
    "count(adjacent(cell(\"B2\")) where occupied and height < 3) + count(cells where height == 1 and x > 0)",
    "any(cells where kind in [tower]) or none(cells where not (empty or height > 2))",
]


@pytest.mark.parametrize("written", REWRITTEN_RULES)
@pytest.mark.parametrize("generate", [True, False])
def test_a_rewritten_rule_gives_what_the_reference_evaluator_gives_for_it_as_written(written, generate):
    facts, node = fixture(written)
    game = facts.game
    state = flow.initial_state(game, 1, seed=0)
    for cell in (0, 5, 6):
        state.kind[0][cell] = "house"
    with _generating(generate):
        compiled = exprs.ExprCompiler(game, game.pack.checked).compile(node)
    ctx = game.ctx(state, me=None)
    assert compiled(ctx) == reference.evaluate(game, node, game.ctx(state, me=None))


@pytest.mark.parametrize("written", ["any(cells where 10 / (2 - x) > 0)", "none(cells where 10 / (2 - x) > 0)",
                                     "count(cells where 10 / (2 - x) > 0)"])
@pytest.mark.parametrize("generate", [True, False])
def test_an_aggregate_of_a_filter_that_fails_on_a_later_element_fails_in_every_backend(written, generate):
    # the generated `any(L where C)` once stopped at the first element passing, where the closures and
    # the reference evaluator test C on every element and stop the rule at the division by zero
    facts, node = fixture(written)
    game = facts.game
    state = flow.initial_state(game, 1, seed=0)
    with _generating(generate):
        compiled = exprs.ExprCompiler(game, game.pack.checked).compile(node)
    with pytest.raises(RuleError, match="division by zero"):
        reference.evaluate(game, node, game.ctx(state))
    with pytest.raises(RuleError, match="division by zero"):
        compiled(game.ctx(state))


def test_a_comparison_with_a_literal_inside_a_loops_list_is_generated_without_a_none_test_of_the_literal():
    # `x > 1` in the list a `sum` walks was once written `... or 1 is None`, which Python's compiler warns of
    facts, node = fixture("sum(cells where x > 1, x * 4 + y)")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        compiled = exprs.ExprCompiler(facts.game, facts.game.pack.checked).compile(node)
    state = flow.initial_state(facts.game, 1, seed=0)
    assert compiled(facts.game.ctx(state)) == reference.evaluate(facts.game, node, facts.game.ctx(state)) == 4 * (2 + 3) * 4 + 2 * (0 + 1 + 2 + 3)


@pytest.mark.parametrize("written", ["cells where any(adjacent where kind == house)",
                                     "cells where any(surrounding where not empty and height > 2)"])
def test_a_filter_of_cells_next_to_one_where_c_stays_one_set_operation_per_cell_once_rewritten(written):
    # the rewrites fuse `any(adjacent where C)` into `any(adjacent, C)`: the set operation of
    # fastpaths._near_filter must know that form too (it once knew only the form as written)
    from boardrule.interpreter.compiler.fastpaths import neighbour_test
    facts, node = fixture(written)
    compiler = exprs.ExprCompiler(facts.game, facts.game.pack.checked)
    condition = compiler.rewritten(node).condition
    assert len(condition.args) == 2
    assert neighbour_test(compiler, condition) is not None
