"""Fuzzing: whatever text a pack holds, the engine answers with diagnostics, never a crash.

Three families of inputs go through the whole pipeline -- `load_pack_text`,
then `compile_game`, then the pack's own `tests:` and a short random game --
and the only exceptions allowed out are `BoardruleError` subclasses (a
diagnosed problem) and `RuleError` (a pack rule that fails at run time).
Anything else is an engine bug:

* (a) arbitrary text (`st.text()`);
* (b) the bundled and test packs, mutated line by line and character by
  character (delete, duplicate, swap, insert, truncate);
* (c) token soup and grammar-shaped random expressions and effects,
  placed in the fields of a small host pack.

Every diagnostic must also render, and a span must lie inside the pack.
The explicit cases at the end are resource bombs: each must be answered with
a diagnostic within 1 s (asserted < 2 s for slack).

The same strategies run with a large budget in tests/fuzz_nightly.py.
"""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardrule.dsl.builtins import AGGREGATES, CELL_PROPERTIES, FUNCTIONS, PLAYER_PROPERTIES, VALUES
from boardrule.dsl.diagnostics import BoardruleError, SourceStore, render, split_lines
from boardrule.dsl.pack import load_pack_text
from boardrule.interpreter import flow
from boardrule.interpreter.game import compile_game
from boardrule.interpreter.scenarios import run_tests
from boardrule.interpreter.values import RuleError

ROOT = Path(__file__).resolve().parents[1]
PACK_FILES = sorted((ROOT / "rulepacks").glob("*.pack")) + sorted((ROOT / "tests" / "packs").glob("*.pack"))
PACK_TEXTS = {p.name: p.read_text(encoding="utf-8") for p in PACK_FILES}
# connect4 is the slowest pack to load and test: the fast run leaves it to the nightly one.
FAST_PACKS = sorted(n for n in PACK_TEXTS if n != "connect4.pack")
FILE = "fuzz.pack"
ALLOWED = (BoardruleError, RuleError)

FAST = settings(max_examples=150, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.filter_too_much])


# --------------------------------------------------------------- the pipeline
def _check_diagnostics(err: BoardruleError, text: str, sources: SourceStore) -> None:
    """Every diagnostic renders, and a span in the pack lies inside its text."""
    lines = len(split_lines(text))
    for diag in err.diagnostics:
        render(diag, sources)
        span = diag.span
        if span is None or span.file != FILE:
            continue
        assert 1 <= span.line <= lines + 1, f"{diag} points past the end of the pack"
        assert span.col >= 1 and (span.end_line, span.end_col) >= (span.line, span.col), f"bad span in {diag}"


def exercise(text: str, run_pack_tests: bool = True, playout: int = 4) -> str:
    """Load, compile, test and play `text`; the name of the stage it got to.

    Raises only when the engine lets an exception other than BoardruleError
    or RuleError out (or a diagnostic cannot be rendered).
    """
    sources = SourceStore(read_disk=False)
    try:
        pack = load_pack_text(text, FILE, sources)
    except BoardruleError as err:
        _check_diagnostics(err, text, sources)
        return "refused"
    try:
        game = compile_game(pack)
    except BoardruleError as err:
        _check_diagnostics(err, text, sources)
        return "not compiled"
    except RuleError:
        return "rule failed in compile"
    if run_pack_tests:
        for diag in run_tests(game):  # catches BoardruleError and RuleError itself
            render(diag, sources)
    try:
        state = flow.initial_state(game, seed=0)
        rng = random.Random(0)
        for _ in range(playout):
            seats = flow.waiting(state)
            if not seats:
                break
            moves = flow.legal_moves(game, state, seats[0])
            if not moves:
                break
            state = flow.apply(game, state, rng.choice(moves))
    except ALLOWED:
        return "rule failed in play"
    return "played"


# ------------------------------------------------------ (b) mutations of packs
@st.composite
def mutated_pack(draw, names=FAST_PACKS):
    """A pack's text after 1 to 4 random line or character mutations."""
    text = PACK_TEXTS[draw(st.sampled_from(names))]
    lines = text.split("\n")
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["delete", "duplicate", "swap", "insert", "truncate", "replace"]))
        if not lines:
            break
        i = draw(st.integers(0, len(lines) - 1))
        if op == "delete":
            del lines[i]
        elif op == "duplicate":
            lines.insert(i, lines[i])
        elif op == "swap":
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        elif op in ("insert", "replace"):
            line = lines[i]
            k = draw(st.integers(0, len(line)))
            chars = draw(st.text(alphabet=st.one_of(st.sampled_from(list(" \t:-[]{}(),.'\"#&*!|>%@`+=<0123456789")),
                                                    st.characters()), min_size=1, max_size=3))
            end = k + (len(chars) if op == "replace" else 0)
            lines[i] = line[:k] + chars + line[end:]
        else:  # truncate the whole text
            joined = "\n".join(lines)
            lines = joined[: draw(st.integers(0, len(joined)))].split("\n")
    return "\n".join(lines)


# ------------------------------------------------ (c) expressions and effects
def _grammar_literals() -> list[str]:
    grammar = (ROOT / "dsl" / "boardrule.lark").read_text(encoding="utf-8")
    return sorted({m for m in re.findall(r'"([^"\n]+)"', grammar) if not m.startswith("[")})


NAMES = sorted(set(FUNCTIONS) | set(AGGREGATES) | set(VALUES) | set(CELL_PROPERTIES) | set(PLAYER_PROPERTIES)
               | {"it", "self", "stone", "flag", "color", "red", "blue", "colors", "gold", "total", "line",
                  "bonus", "cell", "p", "x", "zzz"})
TOKENS = _grammar_literals() + NAMES + ["0", "1", "2", "-1", "99999999999999999999", '"a"', '"B2"', "A1", "D4",
                                        "#", "\n", "1 2 3 -> 0 1 2"]
token_soup = st.lists(st.sampled_from(TOKENS), max_size=25).map(" ".join)

atoms = st.one_of(
    st.integers(-3, 12).map(str),
    st.sampled_from(NAMES),
    st.sampled_from(['"A1"', '"x"', '""', "[]", "A1"]),
)


def _extend(inner):
    return st.one_of(
        st.tuples(inner, st.sampled_from(["+", "-", "*", "/", "%", "==", "!=", "<", ">=", "and", "or", "in",
                                          "not in", "..", "where"]), inner).map(" ".join),
        st.tuples(st.sampled_from(sorted(set(FUNCTIONS) | set(AGGREGATES))),
                  st.lists(inner, max_size=3)).map(lambda t: f"{t[0]}({', '.join(t[1])})"),
        st.tuples(st.sampled_from(sorted(AGGREGATES)), inner, st.sampled_from(["p", "c", "x"]), inner)
        .map(lambda t: f"{t[0]}({t[1]} for {t[2]} in {t[3]})"),
        st.tuples(inner, inner, inner).map(lambda t: f"if {t[0]} then {t[1]} else {t[2]}"),
        inner.map(lambda e: f"({e})"),
        inner.map(lambda e: f"not {e}"),
        inner.map(lambda e: f"-{e}"),
        st.lists(inner, max_size=3).map(lambda items: f"[{', '.join(items)}]"),
        st.tuples(inner, st.sampled_from(sorted(NAMES))).map(lambda t: f"{t[0]}.{t[1]}"),
        st.tuples(inner, inner).map(lambda t: f"{t[0]}[{t[1]}]"),
        st.tuples(inner, st.sampled_from(["bonus", "1 2 3+ -> 1 3 6", '1 2 -> "a" "b"', "nochart"]))
        .map(lambda t: f"chart({t[0]}, {t[1]})"),
    )


expressions = st.recursive(atoms, _extend, max_leaves=12)


def _statements(expr):
    simple = st.one_of(
        st.tuples(expr, expr).map(lambda t: f"place {t[0]} at {t[1]}"),
        expr.map(lambda e: f"remove {e}"),
        st.tuples(expr, expr).map(lambda t: f"replace {t[0]} with {t[1]}"),
        st.tuples(expr, expr).map(lambda t: f"store {t[0]} into {t[1]}"),
        st.tuples(expr, expr).map(lambda t: f"unstore {t[0]} from {t[1]}"),
        st.tuples(st.sampled_from(["total", "gold", "me.gold", "zzz"]), expr).map(lambda t: f"set {t[0]} = {t[1]}"),
        st.tuples(st.sampled_from(["total", "gold"]), st.sampled_from(["+=", "-="]), expr).map(" ".join),
        expr.map(lambda e: f"score {e}"),
        expr.map(lambda e: f"finish {e}"),
        st.just("rotate gold"),
        st.just("emit ping with a = 1"),
    )

    def compound(inner):
        block = st.lists(inner, max_size=3).map(lambda ss: "{ " + "\n".join(ss) + " }")
        return st.one_of(
            st.tuples(expr, block, block).map(lambda t: f"if {t[0]} {t[1]} else {t[2]}"),
            st.tuples(expr, block).map(lambda t: f"for c in {t[0]} {t[1]}"),
            st.tuples(expr, block).map(lambda t: f"choose c from {t[0]} {t[1]}"),
            st.tuples(expr, block).map(lambda t: f"choose optional c from {t[0]} {t[1]}"),
        )
    return st.lists(st.recursive(simple, compound, max_leaves=6), min_size=1, max_size=3).map("\n".join)


effects = _statements(expressions)


# Type-directed expressions: mostly well typed, so they pass the checker and
# reach the compiler and the interpreter. `it` is a cell inside `where`.
def _typed(kind: str, depth: int, _cache={}):
    key = (kind, depth)
    if key in _cache:
        return _cache[key]
    leaves = {
        "num": st.one_of(st.integers(-2, 5).map(str), st.sampled_from(
            ["total", "gold", "round", "me.score", "me.seat", "count(cells)", "x", "y"])),
        "bool": st.sampled_from(["true", "false", "empty", "occupied", "kind == stone", "color == red",
                                 "me.finished"]),
        "cells": st.sampled_from(["cells", "edge", "corners", "center", "home", "adjacent", "me.cells", "[]"]),
        "cell": st.sampled_from(['cell("A1")', 'cell("D4")', "it", "self", "cells[0]", "cells[15]"]),
        "player": st.sampled_from(["me", "left", "right", "players[0]", "players[2]"]),
        "sym": st.sampled_from(["stone", "flag", "red", "kind", "none", "kinds[0]"]),
    }
    if depth == 0:
        _cache[key] = leaves[kind]
        return leaves[kind]
    n, b, cs, c, p, s = (_typed(k, depth - 1) for k in ("num", "bool", "cells", "cell", "player", "sym"))
    t2 = lambda a, b2, f: st.tuples(a, b2).map(lambda t: f.format(*t))
    t3 = lambda a, b2, c2, f: st.tuples(a, b2, c2).map(lambda t: f.format(*t))
    combos = {
        "num": [t3(n, st.sampled_from(["+", "-", "*", "/", "%"]), n, "{} {} {}"), n.map("-{}".format),
                n.map("abs({})".format), cs.map("count({})".format), t2(cs, n, "sum({}, {})"),
                t2(cs, n, "max({}, {})"), t2(n, n, "min({}, {})"), t2(c, c, "distance({}, {})"),
                n.map("chart({}, bonus)".format), n.map("chart({}, 1 2 3+ -> 1 3 6)".format),
                t3(b, n, n, "if {} then {} else {}"), p.map("{}.score".format), p.map("{}.seat".format),
                t2(n, n, "sum(({}) .. ({}))"), t2(cs, b, "count({} where {})"),
                t2(cs, n, "distinct({}, {})"), cs.map("count(groups({}))".format),
                c.map("count(held({}))".format), t2(n, n, "[{}, {}][0]"), n.map("({})".format)],
        "bool": [t3(b, st.sampled_from(["and", "or"]), b, "{} {} {}"), b.map("not {}".format),
                 t3(n, st.sampled_from(["==", "!=", "<", "<=", ">", ">="]), n, "{} {} {}"),
                 t2(c, cs, "{} in {}"), t2(c, cs, "{} not in {}"), t2(cs, b, "any({}, {})"),
                 t2(cs, b, "all({}, {})"), cs.map("none({})".format), cs.map("fits(line, {})".format),
                 t2(c, cs, "reaches({}, {})"), t3(c, cs, cs, "reaches({}, {}, via = {})"),
                 c.map("allowed(stone, {})".format), t2(s, s, "{} == {}"), p.map("{}.finished".format),
                 t2(p, p, "{} == {}")],
        "cells": [t2(cs, b, "{} where {}"), c.map("adjacent({})".format), c.map("surrounding({})".format),
                  c.map("row({})".format), c.map("column({})".format), cs.map("border({})".format),
                  t2(cs, cs, "{} + {}"), t2(c, c, "[{}, {}]"), p.map("{}.cells".format),
                  cs.map("placements(line, {})[0]".format), st.just("matches(line)[0]"),
                  t3(b, cs, cs, "if {} then {} else {}")],
        "cell": [t2(cs, n, "{}[{}]"), t3(b, c, c, "if {} then {} else {}")],
        "player": [p.map("left_of({})".format), p.map("right_of({})".format), p.map("next_active({})".format),
                   t2(st.sampled_from(["players", "others"]), n, "{}[{}]")],
        "sym": [c.map("{}.kind".format), s.map("kind_of({})".format), t2(st.just("kinds"), n, "{}[{}]"),
                t3(b, s, s, "if {} then {} else {}")],
    }
    made = st.one_of(leaves[kind], *combos[kind])
    _cache[key] = made
    return made


typed_expressions = st.sampled_from(["num", "bool", "cells"]).flatmap(lambda k: _typed(k, 3))
FIELD_KIND = {"SCORE": "num", "WHEN": "bool", "END": "bool", "PARAM": "cells"}


@st.composite
def typed_field(draw):
    """A field of the host pack and a well-typed expression for it."""
    field = draw(st.sampled_from(EXPR_FIELDS))
    return field, draw(_typed(FIELD_KIND[field], draw(st.integers(1, 3))))


def _typed_statements():
    n, b, cs, c, p, s = (_typed(k, 2) for k in ("num", "bool", "cells", "cell", "player", "sym"))
    t2 = lambda a, b2, f: st.tuples(a, b2).map(lambda t: f.format(*t))
    t3 = lambda a, b2, c2, f: st.tuples(a, b2, c2).map(lambda t: f.format(*t))
    simple = st.one_of(
        t2(s, st.sampled_from(["cell", "c"]), "place {} at {}"), st.just("place stone at cell"),
        t2(s, c, "place {} at {}"), c.map("remove {}".format), cs.map("remove {}".format),
        t2(st.sampled_from(["cell", "c"]), s, "replace {} with {}"), t2(s, c, "store {} into {}"),
        t2(s, c, "unstore {} from {}"), t2(s, c, "remove {} from {}"), t3(s, c, c, "move {} from {} to {}"),
        t2(st.sampled_from(["total", "gold", "me.gold"]), n, "set {} = {}"),
        t2(st.sampled_from(["total +=", "gold -="]), n, "{} {}"), n.map("score {}".format),
        p.map("finish {}".format), st.just("rotate gold"), t2(s, c, "emit ping with kind = {}, cell = {}"),
        st.just("place stone at cell with color = blue"),
    )

    def compound(inner):
        block = st.lists(inner, min_size=1, max_size=3).map(lambda ss: "{ " + "\n".join(ss) + " }")
        return st.one_of(
            st.tuples(b, block, block).map(lambda t: f"if {t[0]} {t[1]} else {t[2]}"),
            st.tuples(cs, block).map(lambda t: f"for c in {t[0]} {t[1]}"),
            st.tuples(cs, block).map(lambda t: f"choose c from {t[0]} {t[1]}"),
            st.tuples(cs, block).map(lambda t: f"choose optional c from {t[0]} {t[1]}"),
        )
    return st.lists(st.recursive(simple, compound, max_leaves=5), min_size=1, max_size=4).map("\n".join)


typed_effects = _typed_statements()

HOST = """\
game: {id: fuzz, name: Fuzz, players: 1..3}
board:
  grid: square 4 x 4
  regions: {home: A1 B2}
symbols:
  colors: [red, blue]
pieces:
  stone: {symbol: S, color: red, score: SCORE}
  flag: {symbol: F, color: blue}
shapes:
  line: {art: X X X}
charts:
  bonus: CHART
vars:
  total: 0
player_vars:
  gold: 0
actions:
  play:
    params:
      cell: PARAM
    when: WHEN
    effect: EFFECT
flow:
  round:
    - turns: [play]
  end: END
scoring:
  term: SCORE
tests:
  - name: two moves
    players: 2
    moves: [P1 play A1, P2 play B1]
    expect: {score: {P1: 1}}
"""
HOST_DEFAULTS = {"SCORE": "1", "CHART": "1 2 3+ -> 1 3 6", "PARAM": "cells where empty", "WHEN": "true",
                 "EFFECT": "place stone at cell", "END": "none(cells, empty)"}
EXPR_FIELDS = ("SCORE", "PARAM", "WHEN", "END")


def host_pack(field: str, text: str) -> str:
    """The host pack with `text` (quoted as a YAML string) in `field`."""
    values = dict(HOST_DEFAULTS, **{field: text})
    out = HOST
    for key, value in values.items():
        out = out.replace(key, json.dumps(value))
    return out


# ------------------------------------------------------------------ the tests
@FAST
@given(st.text())
def test_arbitrary_text(text):
    exercise(text)


@FAST
@given(mutated_pack())
def test_mutated_packs(text):
    exercise(text)


@FAST
@given(st.sampled_from(EXPR_FIELDS + ("CHART", "EFFECT")), token_soup)
def test_token_soup(field, soup):
    exercise(host_pack(field, soup))


@FAST
@given(st.sampled_from(EXPR_FIELDS), expressions)
def test_random_expressions(field, expr):
    exercise(host_pack(field, expr))


@FAST
@given(effects)
def test_random_effects(effect):
    exercise(host_pack("EFFECT", effect))
