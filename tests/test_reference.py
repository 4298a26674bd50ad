"""The compiled expressions (interpreter/exprs.py) agree with the plain
reference evaluator (interpreter/reference.py) on random states.

One test pack, on three boards (square, square with diagonal adjacency, and
hex with a board per player), declares piece kinds with attributes, regions,
shapes, charts, a definition with parameters and player variables. The
expressions under test are its `scoring:` terms (numbers and truth values,
checked at top level), the items of its `verdict:` list (values of any type,
checked at top level) and the items of the `place:` rule of the `probe` piece
(checked with `self` a cell). Hypothesis fills the boards at random and every
expression must give the same value both ways.
"""

from __future__ import annotations

import random
import textwrap

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardrule.dsl.pack import load_pack_text
from boardrule.interpreter import flow, reference
from boardrule.interpreter.exprs import ExprCompiler
from boardrule.interpreter.game import compile_game
from boardrule.interpreter.values import PLAYERS, RuleError, encode

settings.register_profile("reference", max_examples=100, deadline=None, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

KINDS = ("ruby", "jade", "rock", "tree")
COLOURS = ("red", "green", "grey", "blue")

# Top level (`me` is a player, no `self`): numbers or truth values.
SCORING = {
    # aggregates: list form, body form, comprehension form
    "count list": "count(cells where occupied)",
    "count body": "count(cells, kind == ruby or kind == rock)",
    "count comprehension": "count(c.kind == jade for c in cells)",
    "count numbers": "count([0, 0, 1]) + count(1..target)",
    "any list": "any(cells where colour == red)",
    "any body": "any(cells, colour == red and value > 2)",
    "any comprehension": "any(c.value >= 4 for c in cells)",
    "all body": "all(cells where occupied, weight < 5)",
    "all comprehension": "all(c.empty or c.weight >= 1 for c in cells)",
    "none list": "none(cells where kind == rock)",
    "none body": "none(cells, value < 0)",
    "none comprehension": "none(c.colour == blue for c in cells)",
    "sum list": "sum([1, 2, 3]) + sum(1..gold)",
    "sum body": "sum(cells where occupied, value)",
    "sum booleans": "sum(cells, occupied) + count(cells, rare) + sum([true, false, true])",
    "sum comprehension": "sum(c.weight * 2 for c in cells where occupied)",
    "min list": "min([4, 2, 7]) + min(cells where occupied, value)",
    "min comprehension": "min(c.value for c in cells where occupied)",
    "min pairwise": "min(gold, 3) + max(gold, round)",
    "max body": "max(cells where occupied, weight)",
    "max comprehension": "max(p.gold for p in players)",
    "distinct body": "distinct(cells where occupied, colour)",
    "distinct list": "distinct([1, 1, 2, gold])",
    "distinct comprehension": "distinct(c.category for c in cells)",
    # where, nested where with `it`
    "nested where": "count(cells where occupied and count(adjacent where kind == tree) > 0)",
    "nested it": "count(cells where any(opposite_pairs, all(it, occupied)))",
    "where in body": "sum(cells where occupied, count(column where colour == green))",
    # conditionals, arithmetic, comparisons
    "if then else": "if any(cells, kind == ruby) then 5 else if gold > 2 then -2 else 0",
    "arithmetic": "(count(cells where occupied) * 3 + 7) / 4 - (gold - 5) % 3 + (gold - 5) / 3",
    "negate": "-gold + abs(gold - 4) - -3",
    "comparisons": "count([gold == 2, gold != 3, gold < 4, gold <= 4, gold > 1, gold >= 0] where it)",
    "none never compares": "count(cells, value > 1) + count(cells, value <= 1)",
    "not": "count(cells where not occupied)",
    "booleans": "(if generous and not (gold < 0) then 1 else 0) + (if pot > 2 or false then 1 else 0)",
    # membership and ranges
    "in list": "count(cells where kind in [ruby, jade])",
    "in region": "count(cells where it in home) + count(middle where it not in home)",
    "in symbol set": "count(cells where colour not in colours) + count(cells where colour in colours)",
    "in range": "(if gold in 0..3 then 1 else 0) + (if 3 in 1..target then 1 else 0)",
    "range sum": "sum(x * x for x in 1..gold) + count(2..gold)",
    # charts: named with an open key, named with ranges, inline, texts
    "chart open": "chart(count(cells where occupied), bonus)",
    "chart ranges": "chart(gold, tiers)",
    "chart inline": "chart(count(cells where kind == jade), 0 1 2 3+ -> 0 1 3 9)",
    "chart text": "if chart(gold, 0-4 5+ -> \"poor\" \"rich\") == \"rich\" then 1 else 0",
    # attributes of cells, of kinds, of player variables
    "cell attributes": "cell(\"B2\").x * 10 + cell(\"B2\").y + (if cell(\"C3\").name == \"C3\" then 1 else 0)",
    "kind attributes": "ruby.value * 100 + tree.weight + (if tree.category == plant then 1 else 0)",
    "kinds": "sum(kinds, value) + max(kinds, weight) + count(kinds where category == gem)",
    "my mark": "count(cells where kind == me.mark) + me.mark.value",
    "owners": "count(cells where owner == me) + count(cells where owner == none)",
    "colour override": "count(cells where occupied and colour != kind.colour)",
    # cell sets
    "adjacent": "count(adjacent(cell(\"C3\")) where occupied) + count(adjacent(cell(\"A1\")))",
    "surrounding": "count(cells where count(surrounding where occupied) >= 3)",
    "row column": "count(row(cell(\"B2\")) where colour == green) + count(column(cell(\"D4\")))",
    "opposite pairs": "count(opposite_pairs(cell(\"C3\"))) + count(opposite_pairs(cell(\"A1\")))",
    "groups": "count(groups(cells where occupied)) * 10 + max(groups(cells where colour == green), count(it))",
    "group index": "if any(cells, occupied) then count(groups(cells where occupied)[0]) else -1",
    "border": "count(border(cells where kind == ruby)) + count(border(home) where empty)",
    "reaches": "count(cells where kind == tree and reaches(it, cells where kind == rock, via = cells where occupied))",
    "reaches plain": "if reaches(cell(\"A1\"), cells where kind == tree) then 1 else 0",
    "fits": "(if fits(bar, cells where occupied) then 1 else 0) + (if fits(ell, cells where empty) then 2 else 0)",
    "placements": "count(placements(ell, cells where empty)) + count(placements(bar, cells where colour == green))",
    "family": "count(placements(line(2), cells where kind == jade)) + (if fits(line(3), greens()) then 1 else 0)",
    "distance": "max(cells where occupied, distance(it, cell(\"C3\"))) + min(distance(c, cell(\"A1\")) for c in cells where kind == ruby)",
    "regions": "count(edge where occupied) + count(corners where occupied) * 10 + count(center)",
    # players
    "players": "count(players) * 10 + count(others) + me.seat * 100",
    "left right": "left.gold - right.gold + left.seat * 10 + right_of(left).seat * 100 + left_of(me).seat",
    "others": "sum(others, it.gold) + count(players where it.gold > 2) + count(p.finished for p in others)",
    "next active": "if next_active(me) == none then 0 else next_active(me).seat",
    "player cells": "count(me.cells where occupied) + count(left.cells where kind == tree)",
    # definitions
    "define with parameters": "sum(worth(c) for c in cells) + near(cell(\"C3\"), ruby)",
    "define nested": "count(cells where near(it, tree) >= 1) + count(greens())",
    # other built-ins and declarations
    "state values": "round * 100 + pot + (if d6 == none then 0 else count(1..6 where it == d6))",
    "decks and tokens": "size(pile) + count(tokens(cell(\"C3\"))) + sum(cells, count(held(it)))",
    "kind of": "if kind_of(ruby) == ruby then target else 0",
    "marks": "count(middle where shaded) + (if cell(\"A1\").shaded then 10 else 0)",
}

# Top level, any type: the items of the `verdict:` list.
VALUES = {
    "cells list": "cells where occupied",
    "where nested list": "cells where count(adjacent where occupied) >= 2",
    "groups list": "groups(cells where occupied)",
    "border list": "border(home)",
    "placements list": "placements(bar, cells where occupied)",
    "opposite list": "opposite_pairs(cell(\"C3\"))",
    "row list": "row(cell(\"B2\")) + column(cell(\"B2\"))",
    "players list": "players where it != me",
    "others list": "others",
    "kinds list": "kinds where it.value >= 2",
    "region list": "home + middle",
    "range list": "1..gold",
    "chart value": "chart(gold, tiers)",
    "string": "\"hello\"",
    "owner": "cell(\"B2\").owner",
    "colour": "cell(\"C3\").colour",
    "held list": "held(cell(\"B2\"))",
    "index": "if gold >= 1 and gold <= 3 then [10, 20, 30, 40][gold] else -1",
    "definition list": "greens()",
    "left player": "left",
    "symbol set": "colours",
    "edge": "edge",
}

# With `self` a cell: the items of the `place:` rule of the `probe` piece.
WITH_SELF = {
    "self kind": "self.kind",
    "self relative": "count(adjacent where occupied)",
    "self surrounding": "surrounding where kind == self.kind",
    "self property": "if occupied then value * weight else -1",
    "self column": "column",
    "self opposite": "opposite_pairs",
    "self row where": "count(row where it != self)",
    "it versus self": "count(cells where count(adjacent where occupied) == count(adjacent))",
    "self call": "count(adjacent()) + count(surrounding()) + count(row()) + count(column())",
    "self distance": "sum(cells where occupied, distance(it, self))",
    "self reaches": "reaches(self, corners)",
    "self allowed": "allowed(tree, self)",
    "self held": "count(held()) + count(tokens())",
    "self define": "near(self, jade)",
}

# Disagreements found: excluded from the random test, each pinned by an xfail test below.
KNOWN = {
}


def _block(text: str, indent: int) -> str:
    return textwrap.indent(text, " " * indent).lstrip()


def pack_text(grid: str, shared: bool) -> str:
    scoring = "\n".join(f"  {name}: |-\n    {expr}" for name, expr in SCORING.items())
    verdict = ",\n".join(f"    {expr}" for expr in VALUES.values())
    probe = ",\n".join(f"        {expr}" for expr in WITH_SELF.values())
    return f"""
game:
  id: reference
  players: 2..4
board:
  grid: {grid}
  shared: {str(shared).lower()}
  regions:
    home: A1 B1 C1 B2
    middle: B2 C2 C3 D4
symbols:
  colours: [red, green, grey, blue]
pieces:
  ruby: {{colour: red, category: gem, value: 3, weight: 2, rare: true, variable: [colour, value]}}
  jade: {{colour: green, category: gem, value: 2, weight: 1, variable: [colour, value]}}
  rock: {{colour: grey, category: stone, value: 0, weight: 5, variable: [colour, value]}}
  tree:
    colour: green
    category: plant
    value: 1
    weight: 3
    variable: [colour, value]
    score: count(adjacent where kind == tree) + (if occupied then value else 0)
    marks: {{shaded: surrounding}}
  probe:
    colour: blue
    category: spirit
    value: 7
    weight: 0
    place: |-
      [
{probe}
      ] != none
shapes:
  bar: {{art: X X X, symmetry: all}}
  ell: {{art: "X . / X X", symmetry: all}}
  line:
    family: y == 0 and x < n
    sizes: 1..4
charts:
  bonus: 1 2 3 4+ -> 1 3 6 10
  tiers: 0-2 3-5 6+ -> 0 4 10
vars:
  pot: 0
options:
  generous: {{type: bool, default: true}}
  target: {{type: int, default: 3}}
player_vars:
  gold: 0
  mark: {{per_seat: [ruby, jade, rock, tree]}}
dice:
  d6: [1, 2, 3, 4, 5, 6]
decks:
  pile: {{1: 2, 2: 3}}
define:
  near(c, k): count(adjacent(c) where kind == k)
  worth(c): if c.empty then 0 else c.value * c.weight
  greens: cells where colour == green
actions:
  wait: {{effect: set pot = pot}}
flow:
  round:
    - turns: [wait]
  end: "false"
scoring:
{scoring}
verdict: |-
  [
{verdict}
  ]
"""


BOARDS = {
    "square": ("square 5 x 5", True),
    "square-all": ("square 5 x 5, adjacency all", True),
    "hex-boards": ("hex flat-odd 5 x 5", False),
}


class Setup:
    """A compiled test pack, the expressions under test and their closures."""

    def __init__(self, board):
        self.pack = load_pack_text(pack_text(*BOARDS[board]))
        self.game = compile_game(self.pack)
        model = self.pack.model
        probe = next(p for p in model.pieces if p.name == "probe")
        nodes = {name: (t.expr, False) for name, t in zip(SCORING, model.scoring)}
        nodes.update({name: (n, False) for name, n in zip(VALUES, model.verdict.items)})
        nodes.update({name: (n, True) for name, n in zip(WITH_SELF, probe.place.left.items)})
        nodes["tree score"] = (next(p for p in model.pieces if p.name == "tree").score, True)
        self.nodes = nodes
        compiler = ExprCompiler(self.game, self.pack.checked)
        self.compiled = {name: compiler.compile(node) for name, (node, _) in nodes.items()}
        self.starts = {n: flow.initial_state(self.game, n, seed=1) for n in (2, 3, 4)}


_SETUPS = {}


def setup(board) -> Setup:
    if board not in _SETUPS:
        _SETUPS[board] = Setup(board)
    return _SETUPS[board]


@st.composite
def positions(draw, setup):
    """A random state, and `me` and `self` in it.

    Boards are filled from a drawn seed at a drawn density (so empty and full
    boards come up); variables, dice, decks and finished players are drawn.
    """
    game = setup.game
    state = setup.starts[draw(st.integers(2, 4))].clone()
    seats = state.players
    rng = random.Random(draw(st.integers(0, 2 ** 32)))
    density = draw(st.sampled_from((0.0, 0.3, 0.6, 0.9, 1.0)))
    for board in range(len(state.kind)):
        for cell in game.grid.cells:
            if rng.random() < density:
                state.kind[board][cell] = rng.choice(KINDS)
                state.owner[board][cell] = rng.choice(seats)
                extra = {"colour": rng.choice(COLOURS), "value": rng.randint(-2, 6)}
                extra = {k: v for k, v in extra.items() if rng.random() < 0.3}
                if extra:
                    state.attrs[board][cell] = extra
            if rng.random() < 0.1:
                state.held[board][cell] = tuple(rng.choices(KINDS, k=rng.randint(0, 2)))
                state.tokens[board][cell] = tuple(rng.choices(KINDS, k=rng.randint(0, 2)))
    for seat in seats:
        state.pvars[seat]["gold"] = draw(st.integers(-3, 9))
        state.pvars[seat]["mark"] = draw(st.sampled_from(KINDS))
    state.finished = draw(st.lists(st.sampled_from(seats), unique=True, max_size=len(seats)))
    state.vars["pot"] = draw(st.integers(0, 5))
    state.round = draw(st.integers(0, 6))
    state.options = {"generous": draw(st.booleans()), "target": draw(st.integers(0, 5))}
    face = draw(st.none() | st.integers(1, 6))
    state.dice = {} if face is None else {"d6": face}
    del state.decks["pile"][:draw(st.integers(0, 5))]
    me = PLAYERS[draw(st.sampled_from(seats))]
    self_cell = encode(game.board_of_seat(me), draw(st.sampled_from(game.grid.cells)))
    return state, me, self_cell


def outcome(fn):
    try:
        return ("value", fn())
    except (RuleError, TypeError, KeyError, IndexError, ValueError, ZeroDivisionError) as err:
        return ("error", type(err).__name__)


def both(setup, name, state, me, self_cell):
    """(compiled, reference) outcomes of one expression in one state."""
    node, needs_self = setup.nodes[name]
    origin = self_cell if needs_self else None
    compiled = outcome(lambda: setup.compiled[name](setup.game.ctx(state, me=me, self_=origin)))
    expected = outcome(lambda: reference.evaluate(setup.game, node, setup.game.ctx(state, me=me, self_=origin)))
    return compiled, expected


def same(a, b) -> bool:
    """Equal values of the same kinds (a player is not a number, a tuple not a list)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, tuple):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a == b


# ------------------------------------------------------------------ tests
def test_every_construct_is_covered():
    assert len(SCORING) + len(VALUES) + len(WITH_SELF) >= 40
    text = " ".join(list(SCORING.values()) + list(VALUES.values()) + list(WITH_SELF.values()))
    for word in ("count(", "any(", "all(", "none(", "sum(", "min(", "max(", "distinct(", " where ",
                 " for ", "if ", " / ", " % ", " in ", " not in ", "..", "chart(", "adjacent", "surrounding",
                 "row(", "column(", "opposite_pairs", "groups(", "border(", "reaches(", "fits(",
                 "placements(", "distance(", "players", "others", "left", "right", "me.", "near(", "worth("):
        assert word in text, word


@pytest.mark.parametrize("board", sorted(BOARDS))
def test_compiled_agrees_with_reference(board):
    s = setup(board)

    @settings(settings.get_profile("reference"))
    @given(positions(s))
    def check(position):
        state, me, self_cell = position
        wrong = {}
        for name in s.nodes:
            if name in KNOWN:
                continue
            compiled, expected = both(s, name, state, me, self_cell)
            if not same(compiled, expected):
                wrong[name] = (compiled, expected)
        assert not wrong, wrong

    check()
