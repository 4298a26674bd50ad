"""AST nodes back to canonical text, and structural equality ignoring spans.

    >>> from boardrule.dsl.parser import parse_fragment
    >>> unparse(parse_fragment("(a+b)*c where((x))", "expr"))
    '(a + b) * c where x'
    >>> tree = parse_fragment("1 + 2 * 3", "expr")
    >>> ast_equal(parse_fragment(unparse(tree), "expr"), tree)
    True

`unparse` adds parentheses only where the grammar's precedence needs them, so
`parse_fragment(unparse(node), kind)` gives a node equal to `node` (by
`ast_equal`) for every kind of field: expressions, statement tuples, charts,
grid declarations, cell lists and player ranges. Top-level statements go one
to a line; statements inside a block are separated by `; `.
"""

from __future__ import annotations

import attrs

from boardrule.dsl import ast
from boardrule.dsl.diagnostics import Span

# Binding strength of each expression form, loosest first (see boardrule.lark).
WHERE, TERNARY, OR, AND, NOT, COMPARE, RANGE, ADD, MUL, UNARY, POSTFIX, ATOM = range(12)

_BINARY_LEVEL = {"or": OR, "and": AND, "+": ADD, "-": ADD, "*": MUL, "/": MUL, "%": MUL,
                 "==": COMPARE, "!=": COMPARE, "<": COMPARE, "<=": COMPARE, ">": COMPARE, ">=": COMPARE}

_LEVEL = {ast.Where: WHERE, ast.Let: TERNARY, ast.Conditional: TERNARY, ast.Not: NOT, ast.Member: COMPARE,
          ast.Range: RANGE, ast.Negate: UNARY, ast.Attribute: POSTFIX, ast.Index: POSTFIX}


def unparse(node) -> str:
    """The canonical text of an AST node, or of a tuple of statements."""
    if isinstance(node, tuple):
        return "\n".join(unparse(s) for s in node)
    try:
        render = _RENDER[type(node)]
    except KeyError:
        raise TypeError(f"cannot unparse {type(node).__name__}") from None
    return render(node)


def level(node) -> int:
    """How tightly an expression binds: an operand looser than its slot needs parentheses."""
    if isinstance(node, ast.BinOp):
        return _BINARY_LEVEL[node.op]
    return _LEVEL.get(type(node), ATOM)


def _at(node, minimum: int) -> str:
    text = unparse(node)
    return f"({text})" if level(node) < minimum else text


def _join(nodes, sep=", ") -> str:
    return sep.join(unparse(n) for n in nodes)


def _block(body) -> str:
    return "{ " + "; ".join(unparse(s) for s in body) + " }" if body else "{}"


def _with(keywords) -> str:
    return " with " + _join(keywords) if keywords else ""


def _from(source) -> str:
    return f" from {unparse(source)}" if source is not None else ""


def _binop(n: ast.BinOp) -> str:
    lvl = _BINARY_LEVEL[n.op]
    if lvl == COMPARE:  # not associative
        return f"{_at(n.left, RANGE)} {n.op} {_at(n.right, RANGE)}"
    return f"{_at(n.left, lvl)} {n.op} {_at(n.right, lvl + 1)}"


def _if(n: ast.If) -> str:
    (condition, body), *others = n.branches
    text = f"if {unparse(condition)} {_block(body)}"
    for condition, body in others:
        text += f" elif {unparse(condition)} {_block(body)}"
    return text + (f" else {_block(n.otherwise)}" if n.otherwise else "")


def _chart_key(k: ast.ChartKey) -> str:
    if k.high is None:
        return f"{k.low}+"
    return str(k.low) if k.high == k.low else f"{k.low}-{k.high}"


def _chart(n: ast.Chart) -> str:
    values = (f'"{v}"' if isinstance(v, str) else str(v) for v in n.values)
    return f"{_join(n.keys, ' ')} -> {' '.join(values)}"


def _grid(n: ast.GridDecl) -> str:
    layout = f" {n.layout}" if n.layout else ""
    options = "".join(f", {name} {value}" for name, value, *_ in n.options)
    size = f"{n.columns}" if n.rows is None else f"{n.columns} x {n.rows}"
    return f"{n.kind}{layout} {size}{options}"


_RENDER = {
    # expressions
    ast.Number: lambda n: str(n.value),
    ast.String: lambda n: f'"{n.value}"',
    ast.Name: lambda n: n.id,
    ast.Attribute: lambda n: f"{_at(n.obj, POSTFIX)}.{n.name}",
    ast.Index: lambda n: f"{_at(n.obj, POSTFIX)}[{unparse(n.index)}]",
    ast.Keyword: lambda n: f"{n.name} = {unparse(n.value)}",
    ast.Call: lambda n: f"{n.func}({_join(n.args + n.kwargs)})",
    ast.Comprehension: lambda n: f"{unparse(n.body)} for {n.var} in {unparse(n.source)}",
    ast.ListExpr: lambda n: f"[{_join(n.items)}]",
    ast.ListComp: lambda n: f"[{unparse(n.body)} for {n.var} in {unparse(n.source)}]",
    ast.Range: lambda n: f"{_at(n.low, ADD)} .. {_at(n.high, ADD)}",
    ast.Where: lambda n: f"{_at(n.source, OR)} where {_at(n.condition, TERNARY)}",
    ast.Let: lambda n: f"let {n.name} = {_at(n.value, ADD)} in {unparse(n.body)}",
    ast.Conditional: lambda n: f"if {unparse(n.condition)} then {unparse(n.then)} else {unparse(n.otherwise)}",
    ast.BinOp: _binop,
    ast.Not: lambda n: f"not {_at(n.operand, NOT)}",
    ast.Negate: lambda n: f"-{_at(n.operand, UNARY)}",
    ast.Member: lambda n: (f"{_at(n.item, RANGE)} {'not in' if n.negated else 'in'} "
                           f"{_at(n.container, RANGE)}"),
    ast.ChartCall: lambda n: f"chart({unparse(n.value)}, {unparse(n.chart)})",
    ast.ChartName: lambda n: n.id,
    ast.ChartKey: _chart_key,
    ast.Chart: _chart,
    # statements
    ast.Target: lambda n: (f"{_at(n.owner, POSTFIX)}.{n.name}" if n.owner is not None else n.name) + (
        f"[{unparse(n.index)}]" if n.index is not None else ""),
    ast.Place: lambda n: f"place {unparse(n.kind)} at {unparse(n.at)}{_with(n.attributes)}",
    ast.Remove: lambda n: f"remove {unparse(n.target)}" + _from(n.source),
    ast.Replace: lambda n: f"replace {unparse(n.target)} with {unparse(n.kind)}",
    ast.Store: lambda n: f"store {unparse(n.item)} into {unparse(n.holder)}",
    ast.Unstore: lambda n: f"unstore {unparse(n.item)} from {unparse(n.holder)}",
    ast.Move: lambda n: f"move {unparse(n.token)} from {unparse(n.source)} to {unparse(n.destination)}",
    ast.Set: lambda n: f"set {unparse(n.target)} = {unparse(n.value)}",
    ast.Change: lambda n: ("" if n.target.owner is None or isinstance(n.target.owner, ast.Name) else "set ")
    + f"{unparse(n.target)} {n.op} {unparse(n.value)}",  # `set` before a target no name starts
    ast.Score: lambda n: f"score {unparse(n.value)}" + ("" if n.label is None else f' as "{n.label}"'
                                                        if isinstance(n.label, str) else f" as {unparse(n.label)}"),
    ast.If: _if,
    ast.For: lambda n: f"for {n.var} in {unparse(n.source)} {_block(n.body)}",
    ast.Choose: lambda n: (f"choose {'optional ' if n.optional else ''}{n.var} from {unparse(n.source)} "
                           f"{_block(n.body)}"),
    ast.Roll: lambda n: f"roll {unparse(n.dice)}",
    ast.Shuffle: lambda n: f"shuffle {unparse(n.deck)}",
    ast.Draw: lambda n: f"draw {n.var} from {unparse(n.deck)} {_block(n.body)}",
    ast.Put: lambda n: f"put {unparse(n.cards)} {'under' if n.bottom else 'on'} {unparse(n.deck)}",
    ast.Emit: lambda n: f"emit {n.event}{_with(n.attributes)}",
    ast.Rotate: lambda n: f"rotate {n.name}",
    ast.Finish: lambda n: f"finish {unparse(n.player)}",
    ast.LetStmt: lambda n: f"let {n.name} = {unparse(n.value)}",
    ast.Do: lambda n: f"{n.name}({_join(n.args)})" if n.args else n.name,
    # other fields
    ast.GridDecl: _grid,
    ast.CellRef: lambda n: n.name,
    ast.CellList: lambda n: _join(n.cells, " "),
    ast.PlayerRange: lambda n: str(n.low) if n.low == n.high else f"{n.low}..{n.high}",
    ast.ArtCell: lambda n: n.name,
    ast.Art: lambda n: " / ".join(" ".join(c.name for c in row) for row in n.rows),
}


def ast_equal(a, b) -> bool:
    """Whether two ASTs have the same structure and values; spans are ignored."""
    if isinstance(a, Span) and isinstance(b, Span):
        return True
    if attrs.has(type(a)):
        return type(a) is type(b) and all(
            ast_equal(getattr(a, f.name), getattr(b, f.name)) for f in attrs.fields(type(a)) if f.name != "span")
    if isinstance(a, (tuple, list)):
        return (isinstance(b, (tuple, list)) and len(a) == len(b)
                and all(ast_equal(x, y) for x, y in zip(a, b)))
    if isinstance(a, str):  # a Lark Token is a str too
        return isinstance(b, str) and str(a) == str(b)
    return type(a) is type(b) and a == b
