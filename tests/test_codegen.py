"""Generated code (interpreter/compiler/codegen.py, interpreter/compiler/pycode.py): built as syntax trees from the
checked tree only, validated against a whitelist, run with no builtins; pack names are data."""

from __future__ import annotations

import ast
import contextlib

from pathlib import Path

import pytest

from boardrule.dsl.pack import load_pack_text
from boardrule.interpreter.compiler import exprs, pycode
from boardrule.interpreter.runtime import flow
from boardrule.interpreter.api import evaluate, new_game, open_game
from boardrule.interpreter.compiler.game import compile_game
from boardrule.interpreter.runtime.budget import Meter
from boardrule.interpreter.runtime.moves import move_text
from boardrule.interpreter.runtime.scoring import score_sheet


def _ret(value):
    return [ast.Return(value=value)]


def _name(text):
    return ast.Name(id=text, ctx=ast.Load())



@contextlib.contextmanager
def _generating(on: bool):
    """Rules compiled inside are generated code (on) or closures alone (off)."""
    exprs.GENERATE = on
    try:
        yield
    finally:
        exprs.GENERATE = True


@pytest.mark.parametrize("body, refused", [
    ([ast.Import(names=[ast.alias(name="os")])], "Import"),
    (_ret(ast.Lambda(args=ast.arguments(posonlyargs=[], args=[ast.arg(arg="__x")], kwonlyargs=[], kw_defaults=[],
                                        defaults=[]), body=ast.Constant(1))), "argument '__x'"),
    (_ret(ast.Lambda(args=ast.arguments(posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[], defaults=[]),
                     body=ast.Await(value=ast.Constant(1)))), "Await"),
    (_ret(ast.Attribute(value=_name("ctx"), attr="__class__", ctx=ast.Load())), "attribute '__class__'"),
    (_ret(ast.Attribute(value=_name("ctx"), attr="system", ctx=ast.Load())), "attribute 'system'"),
    (_ret(_name("__import__")), "name '__import__'"),
    (_ret(ast.Call(func=_name("open"), args=[], keywords=[])), "'open'"),
    (_ret(ast.Constant(b"bytes")), "constant of type bytes"),
    (_ret(ast.Call(func=ast.Subscript(value=_name("ctx"), slice=ast.Constant(0), ctx=ast.Load()), args=[],
                   keywords=[])), "call of"),
])
def test_the_whitelist_refuses_what_generated_code_never_holds(body, refused):
    with pytest.raises(pycode.UnsafeCode) as caught:
        pycode.make_function("rule", ["ctx"], body, {})
    assert refused in str(caught.value)


def test_a_generated_function_has_no_builtins():
    reads_len = _ret(ast.Call(func=_name("helper"), args=[ast.Constant("ab")], keywords=[]))
    assert pycode.make_function("rule", ["ctx"], reads_len, {"helper": len})(None) == 2
    with pytest.raises(pycode.UnsafeCode):
        pycode.make_function("rule", ["ctx"], _ret(_name("len")), {})


HOSTILE_NAMES = """\
game: {id: hostile, players: 1}
board: {grid: square 2 x 2}
pieces: {__import__: {symbol: I}}
vars: {__class__: 5, os_system: 2}
actions: {put: {params: {c: cells where empty}, effect: place __import__ at c}}
flow: {round: [{turns: [put]}], end: "none(cells, empty)"}
scoring:
  "'); import os #": __class__ * os_system + (if count(cells where kind == __import__) > 0 then 1 else 0)
"""


def test_pack_names_that_look_like_python_are_data_in_generated_code():
    game = compile_game(load_pack_text(HOSTILE_NAMES, "hostile.pack"))
    state = flow.initial_state(game, 1, seed=0)
    state = flow.apply(game, state, flow.legal_moves(game, state, 0)[0])
    sheet = score_sheet(game, state, 0)
    assert [(t.label, t.points) for t in sheet.terms] == [("'); import os #", 11)]


@pytest.mark.parametrize("text", [
    "1 + 2 * 3 - 4", "7 / 2 + 7 % 3", "-(3 - 5)", "if 2 > 1 then 10 else 20", "3 >= 3 and not (1 == 2)",
    "2 in [1, 2, 3] or 4 not in [4]", "[1] + [2]", "count(cells where empty) * 2",
    "any([2, 0], 4 / it == 2)", "none([0, 2], it > 1)", "all([5, 0], 5 / it > 1)",
    "sum(cells, x + y) - max(cells where empty, y) + min(cells, order)", "distinct(cells, x)",
    "count(cells where count(adjacent where empty and x > 0) > 2)", "min(3, 4) + max(1, 2)",
    'count(ray(cell("A1"), east))', 'count(ray(cell("A1"), southeast, while = empty and x < 2))',
    'step(cell("A1"), east, 2).x', 'step(step(cell("C1"), east), east) == none', 'ray(none, east)',
    "sum(n + 1 for n in [1, 2, 3])", "max(count(ray(c, east)) for c in cells)", "min(n * 2 for n in [])",
    "count(c.x > 0 for c in cells) + distinct(c.y for c in cells)", "any(n == 2 for n in [1, 2])",
    "all(any(count(ray(c, d)) > 0 for d in directions) for c in cells)", "none(n > 5 for n in [1, 2])",
    "let n = 2 in count(ray(cell(\"A3\"), north, while = y > n - 1))",
    "if to_move == none then 0 else to_move.seat",
    'count(ray(cell("A1"), east, while = kind == none))', 'count(ray(cell("B2"), west, while = kind != me.mark))',
    'count(ray(cell("A3"), north, while = empty or occupied))', 'count(ray(none, east, while = kind == me.mark))',
    'count(ray(cell("A1"), east)) + 1 >= 2', '3 > count(cells where empty) - 7', 'round < 2',
    "[round, count(cells where empty), 3]", "[east, southeast]", "[me]", "count(kinds) * 10 + count(directions)",
    "count(edge) * 100 + count(corners) * 10 + count(center) + count(all_corners)",
    "let n = count(cells where empty) in n > 3", "let n = count(cells) in any(n > 0 for n in [none, 1])",
    "let n = count(cells) in let m = n in m <= 9", "sum(count(ray(c, east)) + round for c in edge)",
    "max(count(ray(cell(\"B2\"), d)) for d in [east, north])",
])
def test_generated_and_closure_code_agree(text):
    game = open_game("tictactoe")
    state = new_game(game, 2)
    generated = evaluate(game, state, text)[0]
    with _generating(False):
        closures = evaluate(game, state, text)[0]
    assert generated == closures


def test_arithmetic_out_of_range_stops_the_rule_in_generated_code():
    from boardrule.interpreter.runtime.values import RuleError
    game = open_game("tictactoe")
    with pytest.raises(RuleError) as caught:
        evaluate(game, new_game(game, 2), "9007199254740991 + 1")
    assert "outside the range of numbers" in str(caught.value)


def _generated_and_closure_games(pack):
    game = open_game(pack)
    with _generating(False):
        closures = open_game(pack)
    return game, closures


SUITE = sorted((Path(__file__).parent / "suite").glob("*.pack"))


@pytest.mark.parametrize("pack", ["tictactoe", "connect4", "tinytowns", "townies", "villagers"] +
                         [str(p) for p in sorted((Path(__file__).parent / "packs").glob("*.pack"))] +
                         [str(p) for p in SUITE])
def test_generated_code_lists_and_scores_as_the_closures_do_in_whole_games(pack):
    import random
    game, closures = _generated_and_closure_games(pack)
    players = game.players_range[0]
    for seed in range(1 if "suite" in pack else 2):  # the suite's games are long: one each
        # a budget no listing reaches: the closures spend more units than generated code on the
        # polyomino pack's listing, and this test compares what the two list and score
        states = [flow.initial_state(g, players, seed=seed, meter=Meter(operation=10 ** 9, game=10 ** 12))
                  for g in (game, closures)]
        chooser = random.Random(seed)
        while states[0].phase != "over":
            waiting = flow.waiting(states[0])
            seat = waiting[0]
            listed = [[move_text(m, g) for m in flow.legal_moves(g, s, seat)] for g, s in zip((game, closures), states)]
            assert listed[0] == listed[1]
            sheets = [score_sheet(g, s, seat) for g, s in zip((game, closures), states)]
            assert [(t.label, t.points) for t in sheets[0].terms] == [(t.label, t.points) for t in sheets[1].terms]
            pick = chooser.randrange(len(listed[0]))
            states = [flow.apply(g, s, flow.legal_moves(g, s, seat)[pick]) for g, s in zip((game, closures), states)]
        assert states[0].phase == states[1].phase == "over"


PARAMETER_IN_A_CLOSURE = """\
game: {id: closure, players: 1}
board: {grid: square 3 x 3}
pieces: {stone: {symbol: S}}
define:
  touching(c): count(n.kind == stone for n in adjacent(c))
  beside(c, k): count(adjacent(c) where kind == k)
actions: {put: {params: {c: cells where empty and touching(it) < 2}, effect: place stone at c}}
flow: {round: [{turns: [put]}], end: "count(cells where empty) < 3"}
scoring:
  touching: sum(cells where occupied, touching(it) + beside(it, stone))
"""


def test_a_definition_whose_parameter_a_closure_reads_is_called_not_written_out():
    game = compile_game(load_pack_text(PARAMETER_IN_A_CLOSURE, "closure.pack"))
    state = flow.initial_state(game, 1, seed=0)
    for text in ["B2", "A2", "C2"]:
        move = next(m for m in flow.legal_moves(game, state, 0) if move_text(m, game) == f"put {text}")
        state = flow.apply(game, state, move)
    generated = evaluate(game, state, "sum(cells where occupied, touching(it) + beside(it, stone))")[0]
    with _generating(False):
        closures = evaluate(game, state, "sum(cells where occupied, touching(it) + beside(it, stone))")[0]
    assert generated == closures == 8


LAST_CELL = """\
game: {id: last, players: 1}
board: {grid: square 3 x 3}
pieces: {stone: {symbol: S}}
vars: {last: none}
actions: {put: {params: {c: cells where empty}, effect: "place stone at c\\nset last = c"}}
flow: {round: [{turns: [put]}], end: "count(cells where empty) < 7"}
scoring:
  around the last stone: count(adjacent(last)) + count(held(last)) + (if last.x == none then 10 else last.x)
"""


@pytest.mark.parametrize("generate", [True, False])
def test_a_cell_function_of_none_gives_no_cells(generate):
    # `adjacent(last)` before any stone once crashed with an internal error (exit 3) after a clean check
    with _generating(generate):
        game = compile_game(load_pack_text(LAST_CELL, "last.pack"))
    state = flow.initial_state(game, 1, seed=0)
    assert [(t.label, t.points) for t in score_sheet(game, state, 0).terms] == [("around the last stone", 10)]
    move = next(m for m in flow.legal_moves(game, state, 0) if move_text(m, game) == "put B2")
    state = flow.apply(game, state, move)
    assert [(t.label, t.points) for t in score_sheet(game, state, 0).terms] == [("around the last stone", 4 + 0 + 1)]


@pytest.mark.parametrize("generate", [True, False])
def test_none_holds_no_piece_as_the_language_says(generate):
    # docs/language.md, Cells: `empty` is true of none, `occupied` false, `kind` and the other properties none
    with _generating(generate):
        game = compile_game(load_pack_text(LAST_CELL, "last.pack"))
        state = flow.initial_state(game, 1, seed=0)
        off = 'step(cell("C1"), east)'
        assert [evaluate(game, state, f"{off}.{p}")[0] for p in ("empty", "occupied", "kind", "name", "x")] == \
            [True, False, None, None, None]
        assert evaluate(game, state, f"count([{off}] where it.empty)")[0] == 1
        assert evaluate(game, state, f"count([{off}] where it != none and it.empty)")[0] == 0


@pytest.mark.parametrize("text", [
    'count(ray(cell("A1"), east))', 'count(ray(cell("A1"), southeast, while = empty))',
    'count(ray(cell("A1"), east, while = kind == none))', 'count(ray(cell("C3"), north, while = x > 0 or empty))',
])
def test_a_counted_ray_is_walked_without_a_list_and_charged_as_the_ray(text, generated_code):
    """`count(ray(...))` is generated as a helper that counts the cells it walks; it spends what listing
    the ray spends, so a rule runs out of budget at the same point either way."""
    game = open_game("tictactoe")
    made = generated_code
    state = new_game(game, 2)
    state.meter = Meter(1000)
    state.meter.begin()
    counted = evaluate(game, state, text)[0]
    counted_left = state.meter.left
    assert "ray_count_" in made[-1]
    listed_state = new_game(game, 2)
    listed_state.meter = Meter(1000)
    listed_state.meter.begin()
    listed = len(evaluate(game, listed_state, text[len("count("):-1])[0])
    assert (counted, counted_left) == (listed, listed_state.meter.left)


COUNTED_DEFINITION = """\
game: {id: counted, players: 1}
board: {grid: square 4 x 1}
pieces: {stone: {symbol: S}}
define:
  run(c, d): ray(c, d, while = empty)
actions: {put: {params: {c: cells where empty}, effect: place stone at c}}
flow: {round: [{turns: [put]}], end: "count(cells where empty) < 2"}
scoring: {open: "sum(count(run(c, east)) for c in cells where empty)"}
"""


def test_a_counted_definition_that_gives_a_ray_is_walked_without_a_list(generated_code):
    made = generated_code
    game = compile_game(load_pack_text(COUNTED_DEFINITION, "counted.pack"))
    state = flow.initial_state(game, 1, seed=0)
    assert [t.points for t in score_sheet(game, state, 0).terms] == [3 + 2 + 1]
    state = flow.apply(game, state, next(m for m in flow.legal_moves(game, state, 0) if move_text(m, game) == "put C1"))
    assert [t.points for t in score_sheet(game, state, 0).terms] == [1]
    assert any("ray_count_while" in text or "ray_count_in_kinds" in text for text in made)


RAY_IN_A_FILTER = """\
game: {id: rayfilter, players: 1}
board: {grid: square 4 x 1}
pieces: {stone: {symbol: S}}
define:
  run_of(c, d): count(ray(c, d, while = occupied))
  beside_a_run(c, d): run_of(c, d) + run_of(c, opposite(d)) > 0
actions: {put: {params: {c: "cells where empty and (beside_a_run(it, west) or it == cell(\\"A1\\"))"}, effect: place stone at c}}
flow: {round: [{turns: [put]}], end: "count(cells where empty) < 2"}
"""


def test_a_filter_whose_definition_walks_a_ray_while_a_condition_holds_is_one_generated_loop(generated_code):
    """The `while` of a ray has its own `it` (the cell walked): the filter's element is not handed to it,
    so the filter is a loop of the generated code, not a closure per cell."""
    made = generated_code
    game = compile_game(load_pack_text(RAY_IN_A_FILTER, "rayfilter.pack"))
    state = flow.initial_state(game, 1, seed=0)
    texts = [move_text(m, game) for m in flow.legal_moves(game, state, 0)]
    assert texts == ["put A1"]
    state = flow.apply(game, state, flow.legal_moves(game, state, 0)[0])
    assert [move_text(m, game) for m in flow.legal_moves(game, state, 0)] == ["put B1"]
    lister = next(text for text in made if text.startswith("def lister") or "append_moves" in text)
    assert "for e1 in f1:" in lister and "with_it" not in lister  # (written as statements: lowering.py)


ATTRIBUTES = """\
game: {id: attributes, players: 1}
board: {grid: square 4 x 1}
pieces:
  gem: {symbol: G, worth: 3}
  chip: {symbol: C, variable: {face: number}}
actions:
  put:
    params: {c: cells where empty}
    effect: |
      if count(cells where occupied) == 1 { place gem at c } else { place chip at c with face = count(cells where occupied) }
flow: {round: [{turns: [put]}], end: "count(cells where empty) < 2"}
scoring:
  worthy: count(cells where worth == 3)
  plain: count(cells where face == none) * 10
  faces: sum(c.face for c in cells where kind == chip) * 100
  first: count(cells where face == 1) * 1000
  worth: max(c.worth for c in cells where occupied and kind != chip) * 10000
"""


@pytest.mark.parametrize("moves", [("put A1", "put B1", "put C1"), ("put D1", "put A1", "put B1"), ("put B1",)])
def test_attributes_read_in_place_give_what_the_readers_give(moves):
    """A kind's attribute (only the kinds give it) and a piece's own (only the pieces do) are read in
    place on a sure cell; an empty cell, or a piece without the attribute, gives none."""
    sheets = []
    for generate in (True, False):
        with _generating(generate):
            game = compile_game(load_pack_text(ATTRIBUTES, "attributes.pack"))
        state = flow.initial_state(game, 1, seed=0)
        for text in moves:
            move = next(m for m in flow.legal_moves(game, state, 0) if move_text(m, game) == text)
            state = flow.apply(game, state, move)
        sheets.append([(t.label, t.points) for t in score_sheet(game, state, 0).terms])
    assert sheets[0] == sheets[1]
    if moves[0] == "put A1":  # a chip on A1, the gem on B1, a chip on C1 (a face counts the chip itself)
        assert sheets[0] == [("worthy", 1), ("plain", 20), ("faces", 400), ("first", 1000),
                             ("worth", 30000)]


REBOUND_PARAMETER = """\
game: {id: rebound, players: 1}
board: {grid: square 3 x 3}
pieces: {stone: {symbol: S}}
vars: {last: none, mine: 0, near: -1}
define:
  neighbours(c): count(adjacent(c) where occupied)
actions:
  put:
    params: {c: cells where empty}
    effect: |
      place stone at c
      set mine = neighbours(c)
      for c in [last] { set near = neighbours(c) }
      set last = c
flow: {round: [{turns: [put]}], end: "count(cells where empty) < 7"}
scoring: {mine: mine, near: near}
"""


@pytest.mark.parametrize("generate", [True, False])
def test_a_parameter_is_a_sure_cell_in_its_effect_until_a_loop_gives_the_name_another_value(generate):
    # the effect's definitions are generated with the move's cell read in place; a loop over `[last]`
    # (none at first) rebinds `c`, which must then be read as a value that may be none
    with _generating(generate):
        game = compile_game(load_pack_text(REBOUND_PARAMETER, "rebound.pack"))
    state = flow.initial_state(game, 1, seed=0)
    sheets = []
    for text in ["B2", "A2"]:
        move = next(m for m in flow.legal_moves(game, state, 0) if move_text(m, game) == f"put {text}")
        state = flow.apply(game, state, move)
        sheets.append([(t.label, t.points) for t in score_sheet(game, state, 0).terms])
    assert sheets == [[("mine", 0), ("near", 0)], [("mine", 1), ("near", 1)]]
