"""The grammar (dsl/boardrule.lark) construct by construct, unparse round trips, syntax errors.

* `CASES`: one text per rule and alternative of the grammar with the AST it
  must give, written as a nested-tuple picture (`sx`) without spans; every case
  also round-trips: text -> AST -> unparse -> AST, and unparse is a fixed point.
* `test_every_grammar_rule_is_exercised` checks CASES against the grammar
  itself, so a new rule or alternative without a case fails here.
* Hypothesis builds random small ASTs of every field kind and checks that
  `parse(unparse(ast))` equals `ast`, and throws random token soup at the
  parser, which may only ever raise PackError.
"""

from __future__ import annotations

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardrule.dsl import ast
from boardrule.dsl.diagnostics import PackError, Span
from boardrule.dsl.parser import FIELD_KINDS, MAX_NESTING, _lark, parse_fragment
from boardrule.dsl.unparse import ast_equal, unparse


def parse(text, kind="expr"):
    return parse_fragment(text, kind)


def sx(node):
    """A span-free picture of an AST: nodes as (ClassName, *fields), sequences as lists."""
    if attrs.has(type(node)) and not isinstance(node, Span):
        fields = [f for f in attrs.fields(type(node)) if f.name != "span"]
        return (type(node).__name__, *(sx(getattr(node, f.name)) for f in fields))
    if isinstance(node, (tuple, list)):
        return [sx(x) for x in node if not isinstance(x, Span)]
    return node


def assert_round_trip(text, kind):
    tree = parse(text, kind)
    canonical = unparse(tree)
    again = parse(canonical, kind)
    assert ast_equal(again, tree), f"{text!r} -> {canonical!r} parses differently"
    assert unparse(again) == canonical  # unparse output is a fixed point


# Builders for the expected pictures.
def N(name):
    return ("Name", name)


def I(value):
    return ("Number", value)


def S(value):
    return ("String", value)


def B(op, left, right):
    return ("BinOp", op, left, right)


def K(name, value):
    return ("Keyword", name, value)


def T(name, owner=None, index=None):
    return ("Target", N(owner) if isinstance(owner, str) else owner, name, index)


def KEY(low, high="same"):
    return ("ChartKey", low, low if high == "same" else high)


a, b, c, d, e = N("a"), N("b"), N("c"), N("d"), N("e")
REMOVE_A, REMOVE_B = ("Remove", a, None), ("Remove", b, None)

# ------------------------------------------------------------------ the cases
# (kind, text, expected picture); the id names the rule or alternative.
CASES = [
    # ---- atoms
    pytest.param("expr", "42", I(42), id="number"),
    pytest.param("expr", "007", I(7), id="number-leading-zeros"),
    pytest.param("expr", '"hello world"', S("hello world"), id="string"),
    pytest.param("expr", '""', S(""), id="string-empty"),
    pytest.param("expr", "a_B1", N("a_B1"), id="name"),
    pytest.param("expr", "_x", N("_x"), id="name-underscore"),
    pytest.param("expr", "(a)", a, id="parentheses"),
    pytest.param("expr", "((a + b))", B("+", a, b), id="parentheses-nested"),
    pytest.param("expr", "f()", ("Call", "f", [], []), id="call-no-args"),
    pytest.param("expr", "f(a)", ("Call", "f", [a], []), id="call-one-arg"),
    pytest.param("expr", "f(a, b + 1)", ("Call", "f", [a, B("+", b, I(1))], []), id="call-args"),
    pytest.param("expr", "f(k = 1)", ("Call", "f", [], [K("k", I(1))]), id="call-kwarg"),
    pytest.param("expr", "f(a, k = b, c)", ("Call", "f", [a, c], [K("k", b)]), id="call-mixed"),
    pytest.param("expr", "count(x for x in cells)",
                 ("Call", "count", [("Comprehension", N("x"), "x", N("cells"))], []), id="comprehension"),
    pytest.param("expr", "any(a.b > 1 for a in players where a != me, k = 2)",
                 ("Call", "any", [("Comprehension", B(">", ("Attribute", a, "b"), I(1)), "a",
                                   ("Where", N("players"), B("!=", a, N("me"))))], [K("k", I(2))]),
                 id="comprehension-with-where-and-kwarg"),
    pytest.param("expr", "[]", ("ListExpr", []), id="list-empty"),
    pytest.param("expr", "[a]", ("ListExpr", [a]), id="list-one"),
    pytest.param("expr", "[a, [b], 1]", ("ListExpr", [a, ("ListExpr", [b]), I(1)]), id="list-nested"),
    pytest.param("expr", "chart(a, 1 2+ -> 0 5)",
                 ("ChartCall", a, ("Chart", [KEY(1), KEY(2, None)], [0, 5])), id="chart-call-body"),
    pytest.param("expr", "chart(a + 1, points)", ("ChartCall", B("+", a, I(1)), ("ChartName", "points")),
                 id="chart-call-name"),
    # ---- postfix
    pytest.param("expr", "a.b", ("Attribute", a, "b"), id="attribute"),
    pytest.param("expr", "a.b.c", ("Attribute", ("Attribute", a, "b"), "c"), id="attribute-chain"),
    pytest.param("expr", "a[1]", ("Index", a, I(1)), id="index"),
    pytest.param("expr", "f(a).b[0][c]", ("Index", ("Index", ("Attribute", ("Call", "f", [a], []), "b"), I(0)), c),
                 id="postfix-chain"),
    pytest.param("expr", "[a][0]", ("Index", ("ListExpr", [a]), I(0)), id="index-of-list"),
    pytest.param("expr", "1.x", ("Attribute", I(1), "x"), id="attribute-of-number"),
    # ---- unary
    pytest.param("expr", "-a", ("Negate", a), id="negate"),
    pytest.param("expr", "--a", ("Negate", ("Negate", a)), id="negate-nested"),
    pytest.param("expr", "-a.b", ("Negate", ("Attribute", a, "b")), id="negate-binds-looser-than-postfix"),
    pytest.param("expr", "-3", ("Negate", I(3)), id="negate-number"),
    # ---- multiplicative / additive (left associative)
    pytest.param("expr", "a * b", B("*", a, b), id="multiply"),
    pytest.param("expr", "a / b", B("/", a, b), id="divide"),
    pytest.param("expr", "a % b", B("%", a, b), id="modulo"),
    pytest.param("expr", "a / b * c % d", B("%", B("*", B("/", a, b), c), d), id="multiplicative-left-assoc"),
    pytest.param("expr", "-a * b", B("*", ("Negate", a), b), id="negate-binds-tighter-than-multiply"),
    pytest.param("expr", "a + b", B("+", a, b), id="add"),
    pytest.param("expr", "a - b", B("-", a, b), id="subtract"),
    pytest.param("expr", "a - b + c", B("+", B("-", a, b), c), id="additive-left-assoc"),
    pytest.param("expr", "a + b * c", B("+", a, B("*", b, c)), id="multiply-binds-tighter"),
    pytest.param("expr", "a - -b", B("-", a, ("Negate", b)), id="subtract-negative"),
    # ---- range
    pytest.param("expr", "1..5", ("Range", I(1), I(5)), id="range"),
    pytest.param("expr", "a + 1 .. b * 2", ("Range", B("+", a, I(1)), B("*", b, I(2))), id="range-of-sums"),
    # ---- comparison (not associative)
    *[pytest.param("expr", f"a {op} b + 1", B(op, a, B("+", b, I(1))), id=f"compare-{op}")
      for op in ("==", "!=", "<", "<=", ">", ">=")],
    pytest.param("expr", "a..b == c", B("==", ("Range", a, b), c), id="compare-ranges"),
    pytest.param("expr", "a in b", ("Member", a, b, False), id="member"),
    pytest.param("expr", "a not in b", ("Member", a, b, True), id="not-member"),
    pytest.param("expr", "a + 1 in b .. c", ("Member", B("+", a, I(1)), ("Range", b, c), False),
                 id="member-of-range"),
    # ---- boolean
    pytest.param("expr", "not a", ("Not", a), id="not"),
    pytest.param("expr", "not not a", ("Not", ("Not", a)), id="not-nested"),
    pytest.param("expr", "not a == b", ("Not", B("==", a, b)), id="not-binds-looser-than-compare"),
    pytest.param("expr", "not a in b", ("Not", ("Member", a, b, False)), id="not-of-member"),
    pytest.param("expr", "a and b", B("and", a, b), id="and"),
    pytest.param("expr", "a and b and c", B("and", B("and", a, b), c), id="and-left-assoc"),
    pytest.param("expr", "not a and b", B("and", ("Not", a), b), id="not-binds-tighter-than-and"),
    pytest.param("expr", "a or b", B("or", a, b), id="or"),
    pytest.param("expr", "a or b or c", B("or", B("or", a, b), c), id="or-left-assoc"),
    pytest.param("expr", "a or b and c", B("or", a, B("and", b, c)), id="and-binds-tighter-than-or"),
    # ---- conditional and where
    pytest.param("expr", "if a then b else c", ("Conditional", a, b, c), id="conditional"),
    pytest.param("expr", "if a then b else if c then d else e",
                 ("Conditional", a, b, ("Conditional", c, d, e)), id="conditional-chain"),
    pytest.param("expr", "if a where b then c else d", ("Conditional", ("Where", a, b), c, d),
                 id="conditional-condition-is-expr"),
    pytest.param("expr", "if a then b else c or d", ("Conditional", a, b, B("or", c, d)),
                 id="conditional-else-takes-or"),
    pytest.param("expr", "if a then b else c where d", ("Conditional", a, b, ("Where", c, d)),
                 id="conditional-else-takes-where"),
    pytest.param("expr", "a where if b then c else d", ("Where", a, ("Conditional", b, c, d)),
                 id="where-condition-is-conditional"),
    pytest.param("expr", "a where b", ("Where", a, b), id="where"),
    pytest.param("expr", "cells where empty and x > 1",
                 ("Where", N("cells"), B("and", N("empty"), B(">", N("x"), I(1)))), id="where-condition"),
    pytest.param("expr", "(if a then b else c) where d", ("Where", ("Conditional", a, b, c), d),
                 id="where-of-conditional"),
    pytest.param("expr", "a or b where c or d", ("Where", B("or", a, b), B("or", c, d)),
                 id="where-binds-looser-than-or"),
    pytest.param("expr", "(a where b) where c", ("Where", ("Where", a, b), c), id="where-parenthesised"),
    pytest.param("expr", "[a + 1 for x in b]", ("ListComp", B("+", a, I(1)), "x", b), id="list_comprehension"),
    pytest.param("expr", "[a for x in b where c]", ("ListComp", a, "x", ("Where", b, c)),
                 id="list-comprehension-of-a-filter"),
    # ---- let: a local name; the value is an arithmetic term, so its `in` is never membership
    pytest.param("expr", "let n = a + 1 in n > b", ("Let", "n", B("+", a, I(1)), B(">", N("n"), b)), id="let_expr"),
    pytest.param("expr", "let n = (a in b) in n", ("Let", "n", ("Member", a, b, False), N("n")),
                 id="let-value-parenthesised"),
    pytest.param("expr", "let n = a in b where c", ("Let", "n", a, ("Where", b, c)), id="let-body-is-expr"),
    pytest.param("expr", "let n = a in let m = n in m", ("Let", "n", a, ("Let", "m", N("n"), N("m"))),
                 id="let-nested"),
    pytest.param("expr", "a where let k = b in k > c", ("Where", a, ("Let", "k", b, B(">", N("k"), c))),
                 id="where-condition-is-let"),
    # ---- whitespace and comments
    pytest.param("expr", "a +  # a comment\n\t b", B("+", a, b), id="comment-and-whitespace"),
    # ---- statements
    pytest.param("effect", "", [], id="effect-empty"),
    pytest.param("effect", "; ;", [], id="stmt-sep-only"),
    pytest.param("effect", "place a at b", [("Place", a, b, [])], id="place"),
    pytest.param("effect", "place a at b with k = 1", [("Place", a, b, [K("k", I(1))])], id="place-with"),
    pytest.param("effect", "place me.mark at cell with k = 1, j = b + 2",
                 [("Place", ("Attribute", N("me"), "mark"), N("cell"), [K("k", I(1)), K("j", B("+", b, I(2)))])],
                 id="place-with-several"),
    pytest.param("effect", "remove a", [REMOVE_A], id="remove"),
    pytest.param("effect", "remove a from b", [("Remove", a, b)], id="remove-from"),
    pytest.param("effect", "replace a with b", [("Replace", a, b)], id="replace"),
    pytest.param("effect", "store a into b", [("Store", a, b)], id="store"),
    pytest.param("effect", "store a in b into c", [("Store", ("Member", a, b, False), c)], id="store-member"),
    pytest.param("effect", "unstore a from b", [("Unstore", a, b)], id="unstore"),
    pytest.param("effect", "move a from b to c", [("Move", a, b, c)], id="move"),
    pytest.param("effect", "set a = 1", [("Set", T("a"), I(1))], id="set"),
    pytest.param("effect", "set p.a = b + 1", [("Set", T("a", "p"), B("+", b, I(1)))], id="set-owner"),
    pytest.param("effect", "a += 1", [("Change", T("a"), "+=", I(1))], id="change-add"),
    pytest.param("effect", "p.a -= b", [("Change", T("a", "p"), "-=", b)], id="change-subtract-owner"),
    pytest.param("effect", "set a[b] = 1", [("Set", T("a", index=b), I(1))], id="set-element"),
    pytest.param("effect", "set f(p).a += 1", [("Change", T("a", ("Call", "f", [N("p")], [])), "+=", I(1))],
                 id="set-change-any-player"),
    pytest.param("effect", "set c.owner.a[0] -= b", [("Change", T("a", ("Attribute", N("c"), "owner"), I(0)), "-=",
                                                      b)], id="set-change-element-of-any-player"),
    pytest.param("effect", "set a += 1", [("Change", T("a"), "+=", I(1))], id="set-change-name"),
    pytest.param("effect", "set (p).a = 1", [("Set", T("a", "p"), I(1))], id="set-parenthesised-owner"),
    pytest.param("effect", "p.a[-1] += b", [("Change", T("a", "p", ("Negate", I(1))), "+=", b)],
                 id="change-element-owner"),
    pytest.param("effect", "a[0] -= 1 f", [("Change", T("a", index=I(0)), "-=", I(1)), ("Do", "f", [], [], [])],
                 id="change-element-then-call"),
    pytest.param("effect", "score 3", [("Score", I(3), None)], id="score"),
    pytest.param("effect", 'score a * 2 as "bonus"', [("Score", B("*", a, I(2)), "bonus")], id="score-as"),
    pytest.param("effect", "if a { remove a }", [("If", [[a, [REMOVE_A]]], [])], id="if"),
    pytest.param("effect", "if a {} else { remove b }", [("If", [[a, []]], [REMOVE_B])], id="if-else"),
    pytest.param("effect", "if a { remove a } elif b { remove b }",
                 [("If", [[a, [REMOVE_A]], [b, [REMOVE_B]]], [])], id="if-elif"),
    pytest.param("effect", "if a {} elif b {} elif c { remove a } else { remove b; remove a }",
                 [("If", [[a, []], [b, []], [c, [REMOVE_A]]], [REMOVE_B, REMOVE_A])], id="if-elifs-else"),
    pytest.param("effect", "pay(a, 1) refill", [("Do", "pay", [a, I(1)], [], []), ("Do", "refill", [], [], [])],
                 id="call_stmt"),
    pytest.param("effect", "let n = a in b\nscore n", [("LetStmt", "n", ("Member", a, b, False)), ("Score", N("n"), None)],
                 id="let_stmt"),
    pytest.param("effect", "for x in cells { remove x }", [("For", "x", N("cells"), [("Remove", N("x"), None)])],
                 id="for"),
    pytest.param("effect", "choose x from cells {}", [("Choose", "x", N("cells"), [], False)], id="choose"),
    pytest.param("effect", "choose optional x from a { remove x }",
                 [("Choose", "x", a, [("Remove", N("x"), None)], True)], id="choose-optional"),
    pytest.param("effect", "roll dice", [("Roll", N("dice"))], id="roll"),
    pytest.param("effect", "shuffle deck", [("Shuffle", N("deck"))], id="shuffle"),
    pytest.param("effect", "draw x from deck { score x }", [("Draw", "x", N("deck"), [("Score", N("x"), None)])],
                 id="draw"),
    pytest.param("effect", "put x under deck", [("Put", N("x"), N("deck"), True)], id="put-under"),
    pytest.param("effect", "put [a, b] on deck", [("Put", ("ListExpr", [a, b]), N("deck"), False)], id="put-on-list"),
    pytest.param("effect", "put on on under", [("Put", N("on"), N("under"), False)], id="put-keywords-as-names"),
    pytest.param("effect", "emit scored", [("Emit", "scored", [])], id="emit"),
    pytest.param("effect", "emit scored with n = 1, who = me", [("Emit", "scored", [K("n", I(1)), K("who", N("me"))])],
                 id="emit-with"),
    pytest.param("effect", "rotate order", [("Rotate", "order")], id="rotate"),
    pytest.param("effect", "finish me", [("Finish", N("me"))], id="finish"),
    pytest.param("effect", "remove a; remove b", [REMOVE_A, REMOVE_B], id="stmt-sep-between"),
    pytest.param("effect", "remove a remove b\nb += 1", [REMOVE_A, REMOVE_B, ("Change", T("b"), "+=", I(1))],
                 id="stmts-without-separator"),
    pytest.param("effect", "for x in a { if x { remove x; ; score 1 } }",
                 [("For", "x", a, [("If", [[N("x"), [("Remove", N("x"), None), ("Score", I(1), None)]]], [])])],
                 id="blocks-nested"),
    # ---- charts
    pytest.param("chart", "1 -> 0", ("Chart", [KEY(1)], [0]), id="chart-single"),
    pytest.param("chart", "1 2 3+ -> 0 2 5", ("Chart", [KEY(1), KEY(2), KEY(3, None)], [0, 2, 5]), id="chart-open"),
    pytest.param("chart", "0-25 26+ -> 1 -3", ("Chart", [KEY(0, 25), KEY(26, None)], [1, -3]),
                 id="chart-range-negative"),
    pytest.param("chart", '1 2 -> "low" "high"', ("Chart", [KEY(1), KEY(2)], ["low", "high"]), id="chart-strings"),
    pytest.param("chart", '0 3 - 5 -> -1 "x"', ("Chart", [KEY(0), KEY(3, 5)], [-1, "x"]), id="chart-spaced-mixed"),
    # ---- grids
    pytest.param("grid", "square 4 x 4", ("GridDecl", "square", None, 4, 4, []), id="grid-square"),
    pytest.param("grid", "square 7x6", ("GridDecl", "square", None, 7, 6, []), id="grid-compact"),
    pytest.param("grid", "hex 9 x 8", ("GridDecl", "hex", None, 9, 8, []), id="grid-hex"),
    pytest.param("grid", "hex pointy 5 x 5", ("GridDecl", "hex", "pointy", 5, 5, []), id="grid-layout-name"),
    pytest.param("grid", "hex flat-odd 9 x 8", ("GridDecl", "hex", "flat-odd", 9, 8, []), id="grid-layout-pair"),
    pytest.param("grid", "square 8 x 8, adjacency diagonal",
                 ("GridDecl", "square", None, 8, 8, [["adjacency", "diagonal"]]), id="grid-option"),
    pytest.param("grid", "hex flat-even 3 x 4, adjacency all, wrap none",
                 ("GridDecl", "hex", "flat-even", 3, 4, [["adjacency", "all"], ["wrap", "none"]]),
                 id="grid-layout-options"),
    # ---- cells
    pytest.param("cells", "", ("CellList", []), id="cells-empty"),
    pytest.param("cells", "A1", ("CellList", [("CellRef", "A1")]), id="cells-one"),
    pytest.param("cells", "A1 B2 ZZ999", ("CellList", [("CellRef", "A1"), ("CellRef", "B2"), ("CellRef", "ZZ999")]),
                 id="cells-many"),
    pytest.param("cells", "A1\n  C3  # corner", ("CellList", [("CellRef", "A1"), ("CellRef", "C3")]),
                 id="cells-lines-comment"),
    # ---- players
    pytest.param("players", "2", ("PlayerRange", 2, 2), id="players-single"),
    pytest.param("players", "1..5", ("PlayerRange", 1, 5), id="players-range"),
    pytest.param("players", "2 .. 4", ("PlayerRange", 2, 4), id="players-range-spaced"),
    # ---- shape art
    pytest.param("art", "X X X", ("Art", [[("ArtCell", "X"), ("ArtCell", "X"), ("ArtCell", "X")]]), id="art-row"),
    pytest.param("art", ". wheat / brick glass",
                 ("Art", [[("ArtCell", "."), ("ArtCell", "wheat")], [("ArtCell", "brick"), ("ArtCell", "glass")]]),
                 id="art-rows-slash"),
    pytest.param("art", "X .\nX X\n", ("Art", [[("ArtCell", "X"), ("ArtCell", ".")],
                                                [("ArtCell", "X"), ("ArtCell", "X")]]), id="art-rows-lines"),
]


@pytest.mark.parametrize("kind, text, expected", CASES)
def test_parse_shape(kind, text, expected):
    assert sx(parse(text, kind)) == expected


@pytest.mark.parametrize("kind, text, expected", CASES)
def test_round_trip(kind, text, expected):
    assert_round_trip(text, kind)


def test_every_grammar_rule_is_exercised():
    """Each named rule and `-> alias` of the grammar appears in the parse of some case."""
    lark = _lark()
    expected, pass_through = set(), []
    for rule in lark.rules:
        if rule.origin.name.startswith("_"):  # Lark's helpers for `*`, `+`, `?`
            continue
        if rule.alias:
            expected.add(str(rule.alias))
        elif rule.options.expand1:  # an alternative of a `?rule` without a name of its own
            pass_through.append((str(rule.origin.name), [s.name for s in rule.expansion]))
        else:
            expected.add(str(rule.origin.name))
    # The only unnamed alternative that is more than a pass-through is `(expr)`,
    # covered by the `parentheses` cases.
    assert [p for p in pass_through if len(p[1]) != 1] == [("atom", ["LPAR", "expr", "RPAR"])]
    seen = set()
    for case in CASES:
        kind, text, _ = case.values
        seen |= {str(t.data) for t in lark.parse(text, start=kind + "_field").iter_subtrees()}
    missing = expected - seen
    assert not missing, f"no case exercises: {sorted(missing)}"


@pytest.mark.parametrize("kind", FIELD_KINDS)
def test_every_field_kind_has_cases(kind):
    assert any(case.values[0] == kind for case in CASES)


# ------------------------------------------------------- canonical text
@pytest.mark.parametrize("kind, text, canonical", [
    ("expr", "(a+b)*c", "(a + b) * c"),
    ("expr", "a-(b-c)", "a - (b - c)"),
    ("expr", "(a-b)-c", "a - b - c"),
    ("expr", "((a))", "a"),
    ("expr", "-(a.b)", "-a.b"),
    ("expr", "(-a).b", "(-a).b"),
    ("expr", "-(a*b)", "-(a * b)"),
    ("expr", "not(a==b)", "not a == b"),
    ("expr", "(not a)==b", "(not a) == b"),
    ("expr", "(a or b) and c", "(a or b) and c"),
    ("expr", "a or (b and c)", "a or b and c"),
    ("expr", "a where (b where c)", "a where (b where c)"),
    ("expr", "(if a then b else c) + 1", "(if a then b else c) + 1"),
    ("expr", "if a then b else (c where d)", "if a then b else c where d"),
    ("expr", "(if a then b else c) where d", "(if a then b else c) where d"),
    ("expr", "a where (if b then c else d)", "a where if b then c else d"),
    ("expr", "a where (b or c)", "a where b or c"),
    ("expr", "(a where b) or c", "(a where b) or c"),
    ("expr", "if (a where b) then (c where d) else (e where a)", "if a where b then c where d else e where a"),
    ("expr", "(a in b) in c", "(a in b) in c"),
    ("expr", "(1..2)..3", "(1 .. 2) .. 3"),
    ("expr", "(a == b) == c", "(a == b) == c"),
    ("expr", "f(k=1,a)", "f(a, k = 1)"),
    ("expr", "f( x for x in (a where b) )", "f(x for x in a where b)"),
    ("expr", "[ 1,2 ]", "[1, 2]"),
    ("expr", 'chart(x,1 2+ 3-4->0 -1 "a")', 'chart(x, 1 2+ 3-4 -> 0 -1 "a")'),
    ("expr", "(a)[(b)]", "a[b]"),
    ("effect", "place a at b with k=1;remove c", "place a at b with k = 1\nremove c"),
    ("effect", "if a{remove b}else{}", "if a { remove b }"),
    ("effect", "if a{}elif b{score 1;score 2}", "if a {} elif b { score 1; score 2 }"),
    ("effect", "choose optional x from(a){}", "choose optional x from a {}"),
    ("chart", "1  2+ ->  0 5", "1 2+ -> 0 5"),
    ("chart", "0-0 -> 1", "0 -> 1"),
    ("grid", "hex  flat-odd 9x8 ,adjacency diagonal", "hex flat-odd 9 x 8, adjacency diagonal"),
    ("cells", "A1   B2", "A1 B2"),
    ("players", "3..3", "3"),
    ("players", "1 .. 4", "1..4"),
])
def test_canonical_text(kind, text, canonical):
    assert unparse(parse(text, kind)) == canonical


def test_round_trip_of_bundled_packs():
    """Every language field of the bundled packs survives unparse and parse."""
    from boardrule.dsl.pack import load_pack

    kinds = {ast.Chart: "chart", ast.GridDecl: "grid", ast.CellList: "cells", ast.PlayerRange: "players",
             ast.Art: "art"}
    expr_types = set(ast.Expr.__args__)
    stmt_types = set(ast.Stmt.__args__)
    found = []

    def walk(value):
        if type(value) in expr_types:
            found.append((value, "expr"))
        elif type(value) in kinds:
            found.append((value, kinds[type(value)]))
        elif isinstance(value, tuple) and value and all(type(v) in stmt_types for v in value):
            found.append((value, "effect"))
        elif isinstance(value, (tuple, list)):
            for item in value:
                walk(item)
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif attrs.has(type(value)) and type(value).__module__.endswith("model"):
            for field in attrs.fields(type(value)):
                walk(getattr(value, field.name))

    for name in ("tictactoe", "connect4"):
        walk(load_pack(name).model)
    assert len(found) > 20
    for tree, kind in found:
        again = parse(unparse(tree), kind)
        assert ast_equal(again, tree), unparse(tree)


# ------------------------------------------------------- ast_equal, unparse
def test_ast_equal_ignores_spans_only():
    one, other = parse("a + 1"), parse("  a+1")
    assert one.span != other.span and ast_equal(one, other)
    assert not ast_equal(parse("a + 1"), parse("a + 2"))
    assert not ast_equal(parse("a + 1"), parse("a - 1"))
    assert not ast_equal(parse("a"), parse('"a"'))
    assert not ast_equal(parse("a in b"), parse("a not in b"))
    assert not ast_equal(parse("f(a)"), parse("f(a, b)"))
    assert not ast_equal(parse("remove a", "effect"), parse("remove a remove a", "effect"))
    assert ast_equal(parse("square 4 x 4, a b", "grid"), parse("square 4x4 ,a  b", "grid"))
    assert not ast_equal(parse("square 4 x 4, a b", "grid"), parse("square 4 x 4, a c", "grid"))
    assert not ast_equal(parse("1 -> 2", "chart"), parse('1 -> "2"', "chart"))


def test_unparse_statement_tuples_one_per_line():
    assert unparse(parse("remove a; score 1 as \"x\"", "effect")) == 'remove a\nscore 1 as "x"'
    assert unparse(()) == ""


def test_unparse_rejects_non_nodes():
    with pytest.raises(TypeError):
        unparse(object())


# -------------------------------------------------------------- syntax errors
ERRORS = [
    pytest.param("expr", "(a + b", "E131", 1, 6, id="unclosed-paren"),
    pytest.param("expr", "f(a, b", "E131", 1, 6, id="unclosed-call"),
    pytest.param("expr", "[1, 2", "E131", 1, 5, id="unclosed-list"),
    pytest.param("expr", "a + b)", "E133", 1, 6, id="extra-paren"),
    pytest.param("expr", "a]", "E133", 1, 2, id="extra-bracket"),
    pytest.param("effect", "if a { remove a", "E131", 1, 15, id="unclosed-block"),
    pytest.param("effect", "remove a }", "E133", 1, 10, id="extra-brace"),
    pytest.param("expr", "if a then b", "E131", 1, 11, id="missing-else"),
    pytest.param("expr", "if a then b c", "E133", 1, 13, id="missing-else-before-more"),
    pytest.param("chart", "1 2 3 ->", "E131", 1, 8, id="chart-without-values"),
    pytest.param("chart", "-> 1", "E133", 1, 1, id="chart-without-keys"),
    pytest.param("chart", "1 2 3", "E131", 1, 5, id="chart-without-arrow"),
    pytest.param("expr", "(" * 300 + "a" + ")" * 300, "E136", 1, MAX_NESTING + 1, id="300-parentheses"),
    pytest.param("expr", "[" * 50 + "f(" * 100, "E136", 1, 50 + 2 * (MAX_NESTING - 50) + 2,
                 id="deep-mixed-brackets"),
    pytest.param("expr", "", "E131", 1, 1, id="empty-expression"),
    pytest.param("expr", "   \n  ", "E131", 1, 1, id="blank-expression"),
    pytest.param("expr", "a +\n  * b", "E133", 2, 3, id="second-line"),
    pytest.param("expr", "a\n+", "E131", 2, 1, id="ends-on-second-line"),
    pytest.param("expr", "a $ b", "E132", 1, 3, id="bad-character"),
    pytest.param("expr", '"abc', "E132", 1, 1, id="unclosed-string"),
    pytest.param("expr", "f(k: 1)", "E132", 1, 4, id="kwarg-with-colon"),
    pytest.param("expr", "a < b < c", "E133", 1, 7, id="comparison-chain"),
    pytest.param("expr", "1..2..3", "E133", 1, 5, id="range-chain"),
    pytest.param("expr", "a where b where c", "E133", 1, 11, id="where-chain"),
    pytest.param("expr", "x" * 25_000, "E135", 1, 1, id="too-long"),
    pytest.param("effect", "place a", "E131", 1, 7, id="place-without-at"),
    pytest.param("effect", "if a {} else", "E131", 1, 12, id="else-without-block"),
    pytest.param("effect", "if a {} elif {}", "E133", 1, 14, id="elif-without-condition"),
    pytest.param("effect", "set a == 1", "E133", 1, 7, id="set-with-comparison"),
    pytest.param("grid", "circle 4 x 4", "E133", 1, 1, id="grid-unknown-kind"),
    pytest.param("grid", "square 4 x", "E131", 1, 10, id="grid-missing-rows"),
    pytest.param("grid", "square 4 x 4,", "E131", 1, 13, id="grid-empty-option"),
    pytest.param("cells", "A1 b2", "E133", 1, 4, id="cells-lowercase"),
    pytest.param("players", "2 3", "E133", 1, 3, id="players-two-numbers"),
    pytest.param("players", "1..", "E131", 1, 3, id="players-open-range"),
]


@pytest.mark.parametrize("kind, text, code, line, col", ERRORS)
def test_syntax_error_position(kind, text, code, line, col):
    with pytest.raises(PackError) as info:
        parse(text, kind)
    diagnostic = info.value.diagnostics[0]
    assert (diagnostic.code, diagnostic.span.line, diagnostic.span.col) == (code, line, col)
    assert diagnostic.span.file == "<fragment>"
    assert (diagnostic.span.end_line, diagnostic.span.end_col) >= (line, col)
    words = {"expr": "expression", "grid": "board declaration", "players": "player count", "cells": "list of cells",
             "art": "shape art"}
    assert words.get(kind, kind) in diagnostic.message or code in ("E135", "E136")


def test_error_messages_say_what_was_expected():
    with pytest.raises(PackError) as info:
        parse("if a then b")
    assert "`else`" in info.value.diagnostics[0].message
    with pytest.raises(PackError) as info:
        parse("(" * 300 + "a" + ")" * 300)
    assert str(MAX_NESTING) in info.value.diagnostics[0].message
    with pytest.raises(PackError) as info:
        parse("place a", "effect")
    assert "`at`" in info.value.diagnostics[0].message


def test_nesting_up_to_the_limit_parses():
    assert sx(parse("(" * MAX_NESTING + "a" + ")" * MAX_NESTING)) == a
    assert sx(parse("[" * MAX_NESTING + "]" * MAX_NESTING))[0] == "ListExpr"


def test_errors_use_the_given_locate_and_file():
    def locate(start, end):
        return Span("game.pack", 10, 5 + start, 10, 5 + end)

    with pytest.raises(PackError) as info:
        parse_fragment("a +", "expr", locate=locate)
    assert info.value.diagnostics[0].span == Span("game.pack", 10, 7, 10, 8)
    assert str(parse_fragment("a", "expr", file="x.pack").span) == "x.pack:1:1"


@pytest.mark.parametrize("text", ["-" * 5000 + "a", "not " * 4000 + "a", "a" + ".b" * 5000, "a" + " + a" * 4000],
                         ids=["negate", "not", "attribute", "add-chain"])
def test_deep_operator_nesting_is_a_pack_error(text):
    with pytest.raises(PackError):
        parse(text)


def test_expected_arrow_is_named_readably():
    with pytest.raises(PackError) as info:
        parse("1 2 3", "chart")
    assert "`->`" in info.value.diagnostics[0].message


@pytest.mark.parametrize("text", ['"' + "(" * 250 + '"', "a # " + "[" * 250], ids=["string", "comment"])
def test_brackets_in_strings_and_comments_do_not_count_as_nesting(text):
    parse(text)


TOKENS = ["a", "b", "x", "1", "-2", '"s"', "(", ")", "[", "]", "{", "}", ",", ".", "..", ":", ";", "=", "==",
          "<", "+", "-", "*", "/", "%", "+=", "->", "#", "\n", " ", "$", '"', "A1", "if", "then", "else",
          "elif", "where", "and", "or", "not", "in", "for", "chart", "place", "at", "with", "remove", "from",
          "move", "to", "set", "score", "as", "choose", "optional", "emit", "rotate", "finish", "square",
          "hex", "flat-odd", "x"]


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(FIELD_KINDS), st.lists(st.sampled_from(TOKENS), max_size=25),
       st.sampled_from(["", " "]))
def test_token_soup_gives_an_ast_or_a_pack_error(kind, tokens, sep):
    text = sep.join(tokens)
    try:
        parse(text, kind)
    except PackError as err:
        span = err.diagnostics[0].span
        assert 1 <= span.line <= text.count("\n") + 1
        assert 1 <= span.col <= len(text) + 1


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=40), st.sampled_from(FIELD_KINDS))
def test_any_text_gives_an_ast_or_a_pack_error(text, kind):
    try:
        parse(text, kind)
    except PackError:
        pass


# ------------------------------------------------------ random AST round trip
SP = Span("<generated>", 1, 1, 1, 1)
NAMES = st.sampled_from(["a", "b", "it", "me", "cells", "empty", "x", "foo_2", "aB", "_t"])
INTS = st.integers(min_value=0, max_value=10_000)
TEXTS = st.text(st.characters(codec="ascii", exclude_characters='"\n\r'), max_size=8)
BINARY_OPS = ["+", "-", "*", "/", "%", "==", "!=", "<", "<=", ">", ">=", "and", "or"]


def _chart_keys():
    return st.builds(lambda low, shape, width: ast.ChartKey(low, {"single": low, "open": None}.get(shape, low + width),
                                                          SP),
                     INTS, st.sampled_from(["single", "open", "range"]), st.integers(0, 50))


CHARTS = st.builds(lambda keys, values: ast.Chart(tuple(keys), tuple(values), SP),
                   st.lists(_chart_keys(), min_size=1, max_size=4),
                   st.lists(st.one_of(st.integers(-100, 100), TEXTS), min_size=1, max_size=4))

LEAVES = st.one_of(st.builds(ast.Number, INTS, st.just(SP)), st.builds(ast.String, TEXTS, st.just(SP)),
                   st.builds(ast.Name, NAMES, st.just(SP)))


def _tuple(strategy, min_size=0, max_size=3):
    return st.lists(strategy, min_size=min_size, max_size=max_size).map(tuple)


def _keywords(exprs):
    return _tuple(st.builds(ast.Keyword, NAMES, exprs, st.just(SP)))


def _compound(exprs):
    args = st.one_of(exprs, st.builds(ast.Comprehension, exprs, NAMES, exprs, st.just(SP)))
    return st.one_of(
        st.builds(ast.Attribute, exprs, NAMES, st.just(SP)),
        st.builds(ast.Index, exprs, exprs, st.just(SP)),
        st.builds(ast.Call, NAMES, _tuple(args), _keywords(exprs), st.just(SP)),
        st.builds(ast.ListExpr, _tuple(exprs), st.just(SP)),
        st.builds(ast.Range, exprs, exprs, st.just(SP)),
        st.builds(ast.Where, exprs, exprs, st.just(SP)),
        st.builds(ast.Conditional, exprs, exprs, exprs, st.just(SP)),
        st.builds(ast.BinOp, st.sampled_from(BINARY_OPS), exprs, exprs, st.just(SP)),
        st.builds(ast.Not, exprs, st.just(SP)),
        st.builds(ast.Negate, exprs, st.just(SP)),
        st.builds(ast.Member, exprs, exprs, st.booleans(), st.just(SP)),
        st.builds(ast.ChartCall, exprs, st.one_of(CHARTS, st.builds(ast.ChartName, NAMES, st.just(SP))),
                  st.just(SP)),
    )


def _depth(leaves, extend, depth):
    """Trees at most `depth` levels deep: leaves, or one `extend` level over shallower trees."""
    strategy = leaves
    for _ in range(depth):
        strategy = st.one_of(leaves, extend(strategy))
    return strategy


EXPRS = _depth(LEAVES, _compound, 3)
SMALL_EXPRS = _depth(LEAVES, _compound, 2)  # inside statements
# a target's owner: none, a name (`p.a`), or any expression (`set f(p).a = 1`)
TARGETS = st.builds(ast.Target, st.one_of(st.none(), st.builds(ast.Name, NAMES, st.just(SP)), SMALL_EXPRS), NAMES,
                    st.one_of(st.none(), SMALL_EXPRS), st.just(SP))


def _simple_statements(e):
    return st.one_of(
        st.builds(ast.Place, e, e, _keywords(e), st.just(SP)),
        st.builds(ast.Remove, e, st.one_of(st.none(), e), st.just(SP)),
        st.builds(ast.Replace, e, e, st.just(SP)),
        st.builds(ast.Store, e, e, st.just(SP)),
        st.builds(ast.Unstore, e, e, st.just(SP)),
        st.builds(ast.Move, e, e, e, st.just(SP)),
        st.builds(ast.Set, TARGETS, e, st.just(SP)),
        st.builds(ast.Change, TARGETS, st.sampled_from(["+=", "-="]), e, st.just(SP)),
        st.builds(ast.Score, e, st.one_of(st.none(), TEXTS), st.just(SP)),
        st.builds(ast.Roll, e, st.just(SP)),
        st.builds(ast.Shuffle, e, st.just(SP)),
        st.builds(ast.Emit, NAMES, _keywords(e), st.just(SP)),
        st.builds(ast.Rotate, NAMES, st.just(SP)),
        st.builds(ast.Finish, e, st.just(SP)),
    )


def _block_statements(stmts):
    e, body = SMALL_EXPRS, _tuple(stmts, max_size=2)
    return st.one_of(
        st.builds(ast.If, _tuple(st.tuples(e, body), min_size=1), body, st.just(SP)),
        st.builds(ast.For, NAMES, e, body, st.just(SP)),
        st.builds(ast.Choose, NAMES, e, body, st.booleans(), st.just(SP)),
        st.builds(ast.Draw, NAMES, e, body, st.just(SP)),
    )


STMTS = _depth(_simple_statements(SMALL_EXPRS), _block_statements, 2)
LAYOUTS = st.one_of(st.none(), NAMES, st.builds(lambda x, y: f"{x}-{y}", NAMES, NAMES))
CELL_NAMES = st.builds(lambda letters, number: letters + str(number),
                       st.text("ABCXYZ", min_size=1, max_size=2), st.integers(0, 999))

FIELDS = {
    "expr": EXPRS,
    "effect": _tuple(STMTS, max_size=3),
    "chart": CHARTS,
    "grid": st.builds(ast.GridDecl, st.sampled_from(["square", "hex"]), LAYOUTS, INTS, INTS,
                      _tuple(st.tuples(NAMES, NAMES, st.just(SP))), st.just(SP)),
    "cells": st.builds(ast.CellList, _tuple(st.builds(ast.CellRef, CELL_NAMES, st.just(SP)), max_size=5),
                       st.just(SP)),
    "players": st.builds(lambda low, extra: ast.PlayerRange(low, low + extra, SP), INTS, st.integers(0, 9)),
    "art": st.builds(ast.Art, _tuple(_tuple(st.builds(ast.ArtCell, st.sampled_from(["X", ".", "wood", "a_1"]),
                                                      st.just(SP)), min_size=1, max_size=4), min_size=1, max_size=3),
                     st.just(SP)),
}


@pytest.mark.parametrize("kind", FIELD_KINDS)
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_random_ast_round_trips(kind, data):
    tree = data.draw(FIELDS[kind])
    text = unparse(tree)
    again = parse(text, kind)
    assert ast_equal(again, tree), f"{text!r} parses as {sx(again)}, not {sx(tree)}"
    assert unparse(again) == text


def test_a_score_label_may_be_worked_out_but_must_be_a_text_or_a_name():
    import pytest
    from boardrule.dsl.diagnostics import PackError
    from boardrule.dsl.pack import load_pack_text
    text = ("game: {id: g, players: 1}\nboard: {grid: square 2 x 2}\npieces: {x: {symbol: X}}\n"
            "actions: {put: {params: {c: cells where empty}, effect: \"place x at c; score 1 as LABEL\"}}\n"
            "flow: {round: [{turns: [put]}], end: \"none(cells, empty)\"}\n")
    load_pack_text(text.replace("LABEL", "x"))
    with pytest.raises(PackError) as caught:
        load_pack_text(text.replace("LABEL", "c"))
    assert caught.value.diagnostics[0].code == "E210"
    assert "a score's label is a text or a name" in caught.value.diagnostics[0].message
