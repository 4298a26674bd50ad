"""Lark trees to AST nodes: structure only, no meaning.

Each method receives the children of one grammar rule and returns one AST
node; `locate` turns character offsets inside the fragment into a Span in the
pack file.
"""

from __future__ import annotations

import sys

from lark import Token, Transformer, v_args

from boardrule.dsl import ast
from boardrule.dsl.diagnostics import Diagnostic, PackError
from boardrule.dsl.exact import exact
from boardrule.dsl.limits import MAX_DIGITS, in_range, out_of_range_message
from boardrule.dsl.unparse import unparse

_COMPARE = {"==", "!=", "<", "<=", ">", ">="}


def _strip_quotes(text: str) -> str:
    return sys.intern(text[1:-1])


def _text(token) -> str:
    """A token's text, interned: the engine compares names and kinds all game long, and equal
    interned strings compare by identity."""
    return sys.intern(str(token))


@v_args(meta=True)
class AstBuilder(Transformer):
    """Builds AST nodes; `locate(start, end)` maps fragment offsets to a Span."""

    def __init__(self, locate):
        super().__init__(visit_tokens=False)
        self._locate = locate

    def _span(self, meta):
        if getattr(meta, "empty", True):
            return self._locate(0, 0)
        return self._locate(meta.start_pos, meta.end_pos)

    def _token_span(self, token: Token):
        return self._locate(token.start_pos, token.end_pos)

    def _int(self, token) -> int:
        """A number token's value; outside the range of numbers (dsl/limits.py), E138 at the token."""
        text = str(token)
        if len(text.lstrip("+-")) <= MAX_DIGITS:
            value = int(text)
            if in_range(value):
                return value
        span = self._token_span(token) if isinstance(token, Token) else self._locate(0, 0)
        raise PackError([Diagnostic("E138", out_of_range_message(text), span)])

    # ------------------------------------------------------------ fields
    def expr_field(self, meta, children):
        return children[0]

    def effect_field(self, meta, children):
        return tuple(c for c in children if c is not None)

    def chart_field(self, meta, children):
        return children[0]

    def cells_field(self, meta, children):
        refs = tuple(ast.CellRef(str(t), self._token_span(t)) for t in children)
        return ast.CellList(refs, self._span(meta))

    def art_field(self, meta, children):
        return ast.Art(tuple(children), self._span(meta))

    def art_row(self, meta, children):
        return tuple(ast.ArtCell(str(t), self._token_span(t)) for t in children)

    def players_field(self, meta, children):
        low = self._int(children[0])
        high = self._int(children[1]) if len(children) > 1 else low
        return ast.PlayerRange(low, high, self._span(meta))

    def grid_field(self, meta, children):
        kind = _text(children[0])
        rest = list(children[1:])
        layout = rest.pop(0) if isinstance(rest[0], str) and not isinstance(rest[0], Token) else None
        sizes = [self._int(t) for t in rest if isinstance(t, Token)]  # `C x R`, or one number (a hexagon's side)
        options = tuple(t for t in rest if not isinstance(t, Token))
        return ast.GridDecl(kind, layout, sizes[0], sizes[1] if len(sizes) > 1 else None, options,
                            self._span(meta))

    def grid_layout(self, meta, children):
        return "-".join(str(c) for c in children)

    def grid_option(self, meta, children):
        return (_text(children[0]), _text(children[1]), self._span(meta))

    # -------------------------------------------------------- expressions
    def number(self, meta, children):
        token = children[0]
        if token.type == "DECIMAL":  # an exact number: 7.5 is fifteen halves (dsl/exact.py)
            return ast.Number(exact(str(token)), self._span(meta))
        return ast.Number(self._int(token), self._span(meta))

    def string(self, meta, children):
        return ast.String(_strip_quotes(_text(children[0])), self._span(meta))

    def name(self, meta, children):
        return ast.Name(_text(children[0]), self._span(meta))

    def attribute(self, meta, children):
        return ast.Attribute(children[0], _text(children[1]), self._span(meta))

    def index(self, meta, children):
        return ast.Index(children[0], children[1], self._span(meta))

    def call(self, meta, children):
        func, *args = children
        args = [a for a in args if a is not None]
        positional = tuple(a for a in args if not isinstance(a, ast.Keyword))
        keywords = tuple(a for a in args if isinstance(a, ast.Keyword))
        return ast.Call(str(func), positional, keywords, self._span(meta))

    def kwarg(self, meta, children):
        return ast.Keyword(_text(children[0]), children[1], self._span(meta))

    def comprehension(self, meta, children):
        body, var, source = children
        return ast.Comprehension(body, str(var), source, self._span(meta))

    def list_comprehension(self, meta, children):
        body, var, source = children
        return ast.ListComp(body, str(var), source, self._span(meta))

    def list(self, meta, children):
        return ast.ListExpr(tuple(c for c in children if c is not None), self._span(meta))

    def range(self, meta, children):
        return ast.Range(children[0], children[1], self._span(meta))

    def where(self, meta, children):
        return ast.Where(children[0], children[1], self._span(meta))

    def let_expr(self, meta, children):
        return ast.Let(_text(children[0]), children[1], children[2], self._span(meta))

    def conditional(self, meta, children):
        return ast.Conditional(children[0], children[1], children[2], self._span(meta))

    def _binary(op):
        def method(self, meta, children):
            return ast.BinOp(op, children[0], children[1], self._span(meta))
        return method

    add = _binary("+")
    subtract = _binary("-")
    multiply = _binary("*")
    divide = _binary("/")
    modulo = _binary("%")
    or_op = _binary("or")
    and_op = _binary("and")
    del _binary

    def compare(self, meta, children):
        left, op, right = children
        return ast.BinOp(str(op), left, right, self._span(meta))

    def not_op(self, meta, children):
        return ast.Not(children[0], self._span(meta))

    def negate(self, meta, children):
        return ast.Negate(children[0], self._span(meta))

    def member(self, meta, children):
        return ast.Member(children[0], children[1], False, self._span(meta))

    def not_member(self, meta, children):
        return ast.Member(children[0], children[1], True, self._span(meta))

    def chart_call(self, meta, children):
        return ast.ChartCall(children[0], children[1], self._span(meta))

    def chart_name(self, meta, children):
        return ast.ChartName(_text(children[0]), self._span(meta))

    # -------------------------------------------------------------- charts
    def chart_body(self, meta, children):
        keys = tuple(c for c in children if isinstance(c, ast.ChartKey))
        values = tuple(c for c in children if not isinstance(c, ast.ChartKey))
        return ast.Chart(keys, tuple(v for v, _ in values), self._span(meta))

    def key_single(self, meta, children):
        value = self._int(children[0])
        return ast.ChartKey(value, value, self._span(meta))

    def key_open(self, meta, children):
        return ast.ChartKey(self._int(children[0]), None, self._span(meta))

    def key_range(self, meta, children):
        return ast.ChartKey(self._int(children[0]), self._int(children[1]), self._span(meta))

    def value_number(self, meta, children):
        return (self._int(children[0]), None)

    def value_string(self, meta, children):
        return (_strip_quotes(_text(children[0])), None)

    # ---------------------------------------------------------- statements
    def stmt_sep(self, meta, children):
        return None

    def block(self, meta, children):
        return tuple(c for c in children if c is not None)

    def with_clause(self, meta, children):
        return tuple(children)

    def target(self, meta, children):
        names = [c for c in children if isinstance(c, Token)]
        index = children[-1] if len(children) > len(names) else None
        owner = ast.Name(_text(names[0]), self._token_span(names[0])) if len(names) == 2 else None
        return ast.Target(owner, _text(names[-1]), index, self._span(meta))

    def _written(self, node) -> ast.Target:
        """What `set EXPR = ...` writes: a variable (`coins`), a variable of the player an expression gives
        (`left_of(me).coins`), or one element of either (`track[i]`); anything else is E207 at the target."""
        index, span, written = None, node.span, node
        if isinstance(node, ast.Index):  # (a range there is the checker's E210: a position is a number)
            node, index = node.obj, node.index
        if isinstance(node, ast.Name):
            return ast.Target(None, node.id, index, span)
        if isinstance(node, ast.Attribute):
            return ast.Target(node.obj, node.name, index, span)
        raise PackError([Diagnostic(
            "E207", f"`{unparse(written)}` cannot be set: `set` writes a variable (`set coins = 1`), a variable of "
            "a player (`set left_of(me).coins += 1`) or one element of a list variable (`set track[i] = 1`)", span)])

    def place_stmt(self, meta, children):
        kind, at, *rest = children
        return ast.Place(kind, at, rest[0] if rest else (), self._span(meta))

    def remove_stmt(self, meta, children):
        return ast.Remove(children[0], children[1] if len(children) > 1 else None, self._span(meta))

    def replace_stmt(self, meta, children):
        return ast.Replace(children[0], children[1], self._span(meta))

    def store_stmt(self, meta, children):
        return ast.Store(children[0], children[1], self._span(meta))

    def unstore_stmt(self, meta, children):
        return ast.Unstore(children[0], children[1], self._span(meta))

    def move_stmt(self, meta, children):
        return ast.Move(children[0], children[1], children[2], self._span(meta))

    def set_stmt(self, meta, children):
        return ast.Set(self._written(children[0]), children[1], self._span(meta))

    def set_change_stmt(self, meta, children):
        target, op, value = children
        return ast.Change(self._written(target), _text(op), value, self._span(meta))

    def change_stmt(self, meta, children):
        return ast.Change(children[0], _text(children[1]), children[2], self._span(meta))

    def score_stmt(self, meta, children):
        # a label written as text stays text; any other expression is worked out when it scores
        label = children[1] if len(children) > 1 else None
        if isinstance(label, ast.String):
            label = label.value
        return ast.Score(children[0], label, self._span(meta))

    def if_stmt(self, meta, children):
        branches = [(children[0], children[1])]
        otherwise = ()
        for extra in children[2:]:
            if extra[0] == "elif":
                branches.append(extra[1:])
            else:
                otherwise = extra[1]
        return ast.If(tuple(branches), otherwise, self._span(meta))

    def elif_clause(self, meta, children):
        return ("elif", children[0], children[1])

    def else_clause(self, meta, children):
        return ("else", children[0])

    def call_stmt(self, meta, children):
        return ast.Do(_text(children[0]), tuple(c for c in children[1:] if c is not None), (), (), self._span(meta))

    def let_stmt(self, meta, children):
        return ast.LetStmt(_text(children[0]), children[1], self._span(meta))

    def for_stmt(self, meta, children):
        return ast.For(_text(children[0]), children[1], children[2], self._span(meta))

    def choose_stmt(self, meta, children):
        optional = len(children) == 4
        var, source, body = children[-3:]
        return ast.Choose(str(var), source, body, optional, self._span(meta))

    def roll_stmt(self, meta, children):
        return ast.Roll(children[0], self._span(meta))

    def shuffle_stmt(self, meta, children):
        return ast.Shuffle(children[0], self._span(meta))

    def draw_stmt(self, meta, children):
        return ast.Draw(_text(children[0]), children[1], children[2], self._span(meta))

    def put_stmt(self, meta, children):
        cards, where, deck = children
        return ast.Put(cards, deck, where.type == "PUT_UNDER", self._span(meta))

    def emit_stmt(self, meta, children):
        return ast.Emit(_text(children[0]), tuple(children[1:]), self._span(meta))

    def rotate_stmt(self, meta, children):
        return ast.Rotate(_text(children[0]), self._span(meta))

    def finish_stmt(self, meta, children):
        return ast.Finish(children[0], self._span(meta))
