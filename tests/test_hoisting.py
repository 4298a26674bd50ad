"""Loop-invariant code motion (interpreter/compiler/hoisting.py): what a loop's body works out the same for
every element is worked out once, and nothing shows but the time: same values, same first error, same
budget spent."""

from __future__ import annotations

import ast

import pytest

from boardrule.dsl.pack import load_pack_text
from boardrule.interpreter.api import evaluate
from boardrule.interpreter.compiler import hoisting
from boardrule.interpreter.compiler.game import compile_game
from boardrule.interpreter.runtime import flow
from boardrule.interpreter.runtime.budget import Meter
from boardrule.interpreter.runtime.values import RuleError

CELLS = tuple(range(16))  # a board of 16 cells: a loop over them is worth hoisting from
PAIR = (0, 1)  # a loop of two elements is not
SIDES = ("east", "north", "west", "south")  # a constant list: the keys of TABLE, not all of SHORT's
TABLE = {side: index for index, side in enumerate(SIDES)}
SHORT = {"east": 0, "north": 1}


def _hoisted(source: str, safe_tables=("kinds",)) -> str:
    """The pass run on `return <source>`: its `safe_tables` subscripts are the reads that cannot fail."""
    tree = ast.parse(f"return_value = {source}").body[0].value
    safe = {id(n): n for n in ast.walk(tree) if type(n) is ast.Subscript and type(n.value) is ast.Name
            and n.value.id in safe_tables}
    statements = [ast.Return(value=tree)]
    hoisting.hoist_invariants(statements, {"cells": CELLS, "pair": PAIR, "sides": SIDES, "table": TABLE,
                                           "short": SHORT}, safe)
    return ast.unparse(statements[0].value)


@pytest.mark.parametrize("source, expected", [
    # the part read the same for every element is worked out once, when the loop has elements
    ("[e for e in charged(ctx, cells, 1, s) if kinds[e] == me['pawn']]",
     "[e for h1 in (charged(ctx, cells, 1, s),) if h1 for h2 in (me['pawn'],) for e in h1 if kinds[e] == h2]"),
    # several parts: one tuple, in the order the body reads them
    ("[e for e in charged(ctx, cells, 1, s) if a + 1 == kinds[e] + b * 2]",
     "[e for h1 in (charged(ctx, cells, 1, s),) if h1 for h2, h3 in ((a + 1, b * 2),) for e in h1 "
     "if h2 == kinds[e] + h3]"),
    # a part that reads the element stays; a literal or a name is not worth a local
    ("[e for e in charged(ctx, cells, 1, s) if e + a == 3 or b]",
     "[e for e in charged(ctx, cells, 1, s) if e + a == 3 or b]"),
    # a part that could fail does not move out of a branch the body may not take...
    ("[e for e in charged(ctx, cells, 1, s) if kinds[e] is None and a + 1 == 2]",
     "[e for e in charged(ctx, cells, 1, s) if kinds[e] is None and a + 1 == 2]"),
    # ...nor from after something that could fail first (a call, arithmetic on the element)
    ("[e for e in charged(ctx, cells, 1, s) if k1(ctx, e) == a + 1]",
     "[e for e in charged(ctx, cells, 1, s) if k1(ctx, e) == a + 1]"),
    ("[e for e in charged(ctx, cells, 1, s) if e * 2 == a + 1]",
     "[e for e in charged(ctx, cells, 1, s) if e * 2 == a + 1]"),
    # a read that cannot fail moves from anywhere
    ("[e for e in charged(ctx, cells, 1, s) if kinds[e] is None or kinds[c] == kinds[e]]",
     "[e for h1 in (charged(ctx, cells, 1, s),) if h1 for h2 in (kinds[c],) for e in h1 "
     "if kinds[e] is None or h2 == kinds[e]]"),
    # a constant table read with the element of a loop over its keys cannot fail: what follows it moves
    ("h_any((f(ctx, table[d], me['x']) for d in charged(ctx, sides, 1, s)))",
     "h_any((f(ctx, table[d], h2) for h1 in (charged(ctx, sides, 1, s),) if h1 for h2 in (me['x'],) for d in h1))"),
    # ...but a table that lacks one of the loop's values could fail first
    ("h_any((f(ctx, short[d], me['x']) for d in charged(ctx, sides, 1, s)))",
     "h_any((f(ctx, short[d], me['x']) for d in charged(ctx, sides, 1, s)))"),
    # the same part written again, even where the body may not come to it, reads the one local
    ("[e for e in charged(ctx, cells, 1, s) if kinds[e] == me['a'] or kinds[e] + 1 == me['a']]",
     "[e for h1 in (charged(ctx, cells, 1, s),) if h1 for h2 in (me['a'],) for e in h1 "
     "if kinds[e] == h2 or kinds[e] + 1 == h2]"),
    ("[e for e in charged(ctx, cells, 1, s) if kinds[e] == kinds[c] or kinds[e] is kinds[c]]",
     "[e for h1 in (charged(ctx, cells, 1, s),) if h1 for h2 in (kinds[c],) for e in h1 "
     "if kinds[e] == h2 or kinds[e] is h2]"),
    # a short loop is left alone
    ("[e for e in charged(ctx, pair, 1, s) if kinds[e] == me['pawn']]",
     "[e for e in charged(ctx, pair, 1, s) if kinds[e] == me['pawn']]"),
    # the range check's temporary: written out again in the moved part (no `:=` in a later iterable)
    ("[e for e in charged(ctx, cells, 1, s) if kinds[e] == (t if -9 <= (t := a + 1) <= 9 else out_of_range(t, s2))]",
     "[e for h1 in (charged(ctx, cells, 1, s),) if h1 for h2 in (a + 1 if -9 <= a + 1 <= 9 else out_of_range(a + 1, "
     "s2),) for e in h1 if kinds[e] == h2]"),
    # a temporary read elsewhere in the body stays where it is set (what it holds may move)
    ("[e for e in charged(ctx, cells, 1, s) if (t := a + 1) is None or kinds[e] == t]",
     "[e for h1 in (charged(ctx, cells, 1, s),) if h1 for h2 in (a + 1,) for e in h1 if (t := h2) is None or "
     "kinds[e] == t]"),
    # the names an inner loop binds are its own: a part reading one stays in it, the others move out of it
    ("h_any((h_any((a * 2 == x + y for y in charged(ctx, cells, 1, s))) for x in charged(ctx, cells, 1, s)))",
     "h_any((h_any((h2 == x + y for h1 in (charged(ctx, cells, 1, s),) if h1 for h2 in (a * 2,) for y in h1)) "
     "for x in charged(ctx, cells, 1, s)))"),
])
def test_the_parts_a_loop_reads_the_same_for_every_element_are_worked_out_once(source, expected):
    assert _hoisted(source) == expected


def test_inner_loops_are_hoisted_first_and_their_sources_estimated_as_filters():
    source = "[e for e in charged(ctx, h_tuple([f for f in charged(ctx, cells, 1, s) if kinds[f] == a * 2]), 1, s) if kinds[e] == b * 3]"
    hoisted = _hoisted(source)
    assert "for h2 in (a * 2,)" in hoisted and "(b * 3,)" in hoisted  # 16 cells, filtered: about 8


SHIFTED = """\
game: {id: shifted, players: 2}
board: {grid: square 4 x 4}
pieces: {stone: {symbol: S}}
player_vars:
  shift: {per_seat: [9007199254740991, 1]}
actions: {put: {params: {c: cells where empty}, effect: place stone at c}}
flow: {round: [{turns: [put]}], end: "count(cells where empty) < 15"}
scoring: {stones: "count(cells where kind == stone)"}
"""


def _shifted():
    game = compile_game(load_pack_text(SHIFTED, "shifted.pack"))
    return game, flow.initial_state(game, 2, seed=0)


def _outcome(game, state, text, seat, hoist: bool, monkeypatch):
    """(value or error text, budget left) of `text`, with hoisting on or off."""
    monkeypatch.setattr(hoisting, "MIN_ELEMENTS", hoisting.MIN_ELEMENTS if hoist else 10 ** 9)
    state.meter = Meter(10_000)
    state.meter.begin()
    try:
        value = evaluate(game, state, text, seat)[0]
    except RuleError as error:
        value = f"error at {error.span}: {error}"
    return value, state.meter.left


@pytest.mark.parametrize("text", [
    "count(cells where y == me.shift + 1)",  # out of range for the first player, at the first cell
    "count(cells where occupied and y == me.shift + 1)",  # no cell occupied: the sum is never worked out
    "count(cells where empty and y == me.shift + 1)",
    "any(cells, x == me.shift * 2)", "sum(c.x + me.shift for c in cells)",
    "count(cells where y == me.shift - 9007199254740991)",
    "count(cells where y == me.shift + 1 or x == me.shift + 1)",  # the same part twice: one local
    "count(cells where empty or x == me.shift * 3)",
    # a loop over the directions reads each one's table first, which cannot fail: the step's length moves
    "sum(count(step(c, d, me.shift - 9007199254740990) != none for d in directions) for c in cells)",
    "sum(count(step(c, d, me.shift + 1) != none for d in directions) for c in cells)",
])
@pytest.mark.parametrize("seat", [0, 1])
def test_a_hoisted_rule_gives_what_the_unhoisted_one_gives_and_spends_the_same(text, seat, monkeypatch):
    game, state = _shifted()
    hoisted = _outcome(game, state, text, seat, True, monkeypatch)
    assert hoisted == _outcome(game, state, text, seat, False, monkeypatch)


def test_a_rule_over_the_board_works_its_invariant_part_out_once(generated_code):
    made = generated_code
    game, state = _shifted()
    assert evaluate(game, state, "count(cells where y == me.shift - 9007199254740990)", 0)[0] == 4
    assert "for h2 in (" in made[-1] and "vars_me['shift']" in made[-1].split("for h2 in (")[1].split(",)")[0]
