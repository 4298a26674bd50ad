"""A plain reference evaluator of expressions, to test the compiler against.

`evaluate(game, node, ctx)` walks the AST of one checked expression and
returns its value. It reads the same name resolutions as the compiler
(`game.pack.checked.resolved`) but is otherwise written only from the
documented meaning of each construct (dsl/builtins.py), independently of
interpreter/exprs.py and functions.py. It is slow and simple on purpose:
tests/test_reference.py compares it with the compiled closures on random
states.

It never changes the `ctx` it is given: binding `it`, a local or `self`
makes a new context for the sub-expression that sees the binding.
"""

from __future__ import annotations

import operator

from boardrule.dsl import ast
from boardrule.dsl.types import CELL, ANY
from boardrule.interpreter import shapes as shape_lib
from boardrule.interpreter.context import Ctx
from boardrule.interpreter.values import PLAYERS, Choice, Player, RuleError, board_of, cell_of, encode

ORTHOGONAL = ((1, 0), (0, 1), (-1, 0), (0, -1))
DIAGONAL = ((1, 1), (1, -1), (-1, 1), (-1, -1))
HEX = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))  # axial; i and i+3 are opposite


def evaluate(game, node, ctx):
    """The value of the expression `node` in `ctx` (which is left unchanged)."""
    return _NODES[type(node)](game, node, ctx)


# -------------------------------------------------------------- contexts
class _Scope(Ctx):
    """A Ctx that also knows whether `it` is a cell (adjacent() starts from it)."""

    __slots__ = ("it_is_cell",)


def _bind(ctx, **changes):
    new = _Scope.__new__(_Scope)
    for slot in Ctx.__slots__:
        setattr(new, slot, getattr(ctx, slot))
    new.it_is_cell = _it_is_cell(ctx)
    for name, value in changes.items():
        setattr(new, name, value)
    return new


def _it_is_cell(ctx):
    return getattr(ctx, "it_is_cell", ctx.it is not None)


def _with_it(game, ctx, element, source):
    """`ctx` with `it` bound to an element of the list `source` evaluated to."""
    item = game.pack.checked.types.get(source)
    item = item.item if item is not None and item.is_list else ANY
    is_cell = item == CELL or (item == ANY and type(element) is int)
    return _bind(ctx, it=element, it_is_cell=is_cell)


def _with_local(ctx, name, value):
    return _bind(ctx, env={**ctx.env, name: value})


def _truth(value):
    """Whether a value counts as true: a player or a shape is something, even seat 1."""
    if isinstance(value, Player):
        return True
    return bool(value)


def _equal(a, b):
    """Values of different kinds are never equal (a player is not a cell)."""
    if isinstance(a, Player) != isinstance(b, Player):
        return False
    return a == b


def _member(item, container):
    return any(_equal(item, x) for x in container)


# -------------------------------------------------------------- atoms
def _constant(game, node, ctx):
    return node.value


def _list(game, node, ctx):
    return tuple(evaluate(game, item, ctx) for item in node.items)


def _range(game, node, ctx):
    return tuple(range(evaluate(game, node.low, ctx), evaluate(game, node.high, ctx) + 1))


def _index(game, node, ctx):
    items, i = evaluate(game, node.obj, ctx), evaluate(game, node.index, ctx)
    if not 0 <= i < len(items):
        raise RuleError(f"index {i} is outside a list of {len(items)}", node.span)
    return items[i]


def _where(game, node, ctx):
    items = evaluate(game, node.source, ctx)
    return tuple(x for x in items
                 if _truth(evaluate(game, node.condition, _with_it(game, ctx, x, node.source))))


def _conditional(game, node, ctx):
    branch = node.then if _truth(evaluate(game, node.condition, ctx)) else node.otherwise
    return evaluate(game, branch, ctx)


_ARITHMETIC = {"+": operator.add, "-": operator.sub, "*": operator.mul}
_ORDERED = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}


def _binop(game, node, ctx):
    op = node.op
    left = evaluate(game, node.left, ctx)
    if op == "and":
        return _truth(left) and _truth(evaluate(game, node.right, ctx))
    if op == "or":
        return _truth(left) or _truth(evaluate(game, node.right, ctx))
    right = evaluate(game, node.right, ctx)
    if op == "==":
        return _equal(left, right)
    if op == "!=":
        return not _equal(left, right)
    if op in _ORDERED:  # `none` has no order: a missing value never compares
        return left is not None and right is not None and _ORDERED[op](left, right)
    if op in ("/", "%"):
        if right == 0:
            raise RuleError("division by zero", node.span)
        return left // right if op == "/" else left % right  # rounding down
    return _ARITHMETIC[op](left, right)  # `+` also joins two lists


def _not(game, node, ctx):
    return not _truth(evaluate(game, node.operand, ctx))


def _negate(game, node, ctx):
    return -evaluate(game, node.operand, ctx)


def _membership(game, node, ctx):
    found = _member(evaluate(game, node.item, ctx), evaluate(game, node.container, ctx))
    return not found if node.negated else found


def _chart(game, node, ctx):
    """The value of the column whose key holds x: `3` exactly 3, `3+` 3 or more, `3-5` 3 to 5."""
    x = evaluate(game, node.value, ctx)
    chart = node.chart
    if isinstance(chart, ast.ChartName):
        chart = game.model.charts[chart.id]
    for key, value in zip(chart.keys, chart.values):
        if x is not None and key.low <= x and (key.high is None or x <= key.high):
            return value
    return "" if chart.values and isinstance(chart.values[0], str) else 0


# -------------------------------------------------------------- names
def _name(game, node, ctx):
    kind, detail = game.pack.checked.resolved[node]
    return _NAMES[kind](game, detail, ctx)


def _subject(ctx, relative):
    return ctx.it if relative == "it" else ctx.self_


def _define(game, name):
    return next(d for d in game.model.defines if d.name == name)


_NAMES = {
    "local": lambda game, name, ctx: ctx.env[name],
    "it": lambda game, _, ctx: ctx.it,
    "self": lambda game, _, ctx: ctx.self_,
    "prop": lambda game, d, ctx: _property(game, ctx, _subject(ctx, d[0]), d[1]),
    "relative": lambda game, d, ctx: _CELL_SETS[d[1]](game, _subject(ctx, d[0])),
    "global": lambda game, name, ctx: ctx.state.vars[name],
    "player_var": lambda game, name, ctx: ctx.state.pvars[ctx.me][name],
    "option": lambda game, name, ctx: ctx.state.options[name],
    "region": lambda game, name, ctx: tuple(sorted(
        encode(ctx.board, game.grid.parse_name(ref.name)) for ref in game.model.board.regions[name].cells)),
    "die": lambda game, name, ctx: _die(game, name, ctx.state.dice.get(name)),
    "deck": lambda game, name, ctx: name,
    "shape": lambda game, name, ctx: game.shapes[name],
    "symset": lambda game, name, ctx: tuple(s for s, _ in game.model.symbols[name][0]),
    "symbol": lambda game, name, ctx: name,
    "define": lambda game, name, ctx: evaluate(game, _define(game, name).body, ctx),
    "value": lambda game, name, ctx: _VALUES[name](game, ctx),
}


def _die(game, name, face):
    """A die's face; a die whose faces are all shapes shows the shape itself."""
    faces = next(d for d in game.model.dice if d.name == name).faces
    shapes = {s.name for s in game.model.shapes if s.family is None}
    if faces and all(isinstance(f, ast.Name) and f.id in shapes for f in faces):
        return game.shapes.get(face)
    return face


def _board_cells(game, board):
    return tuple(encode(board, c) for c in game.grid.cells)


def _board_of_seat(game, seat):
    return 0 if game.model.board.shared else int(seat)


def _region(game, ctx, cells):
    return tuple(sorted(encode(ctx.board, c) for c in cells))


def _left(ctx, player):
    seats = ctx.state.players
    return PLAYERS[seats[(seats.index(int(player)) + 1) % len(seats)]]


def _right(ctx, player):
    seats = ctx.state.players
    return PLAYERS[seats[seats.index(int(player)) - 1]]


def _players(ctx):
    return tuple(PLAYERS[s] for s in ctx.state.players)


_VALUES = {
    "cells": lambda game, ctx: _board_cells(game, ctx.board),
    "players": lambda game, ctx: _players(ctx),
    "others": lambda game, ctx: tuple(p for p in _players(ctx) if p != ctx.me),
    "me": lambda game, ctx: ctx.me,
    "left": lambda game, ctx: _left(ctx, ctx.me),
    "right": lambda game, ctx: _right(ctx, ctx.me),
    "kinds": lambda game, ctx: tuple(p.name for p in game.model.pieces),
    "round": lambda game, ctx: ctx.state.round,
    "edge": lambda game, ctx: _region(game, ctx, game.grid.edge),
    "corners": lambda game, ctx: _region(game, ctx, game.grid.corners),
    "center": lambda game, ctx: _region(game, ctx, game.grid.center),
    "true": lambda game, ctx: True,
    "false": lambda game, ctx: False,
    "none": lambda game, ctx: None,
}


# -------------------------------------------------------------- properties
def _attribute(game, node, ctx):
    owner = evaluate(game, node.obj, ctx)
    kind, name = game.pack.checked.resolved[node]
    if kind == "player_var":
        return ctx.state.pvars[owner][name]
    if kind == "player_prop":
        return _PLAYER_PROPERTIES[name](game, ctx, owner)
    if kind == "event_attr":
        return None if owner is None else owner.get(name)
    return _property(game, ctx, owner, name)


_PLAYER_PROPERTIES = {
    "cells": lambda game, ctx, p: _board_cells(game, _board_of_seat(game, p)),
    "score": lambda game, ctx, p: game.score_total(ctx.state, p),  # the score sheet's job
    "finished": lambda game, ctx, p: int(p) in ctx.state.finished,
    "seat": lambda game, ctx, p: int(p) + 1,
}


def _piece(game, kind):
    return next(p for p in game.model.pieces if p.name == kind)


def _property(game, ctx, subject, name):
    """A property of a cell, or an attribute of a cell's piece or of a piece kind."""
    if subject is None:
        return None
    if isinstance(subject, str):
        value = _piece(game, subject).attributes.get(name, (None,))[0]
        return game.shapes.get(value, value) if isinstance(value, str) else value  # a shape's name: the shape
    board, cell = board_of(subject), cell_of(subject)
    kind = ctx.state.kind[board][cell]
    owner = ctx.state.owner[board][cell]
    fixed = {"kind": kind, "owner": None if owner is None else PLAYERS[owner], "empty": kind is None,
             "occupied": kind is not None, "name": game.grid.name(cell), "x": game.grid.col(cell),
             "y": game.grid.row(cell)}
    if name in fixed:
        return fixed[name]
    if any(name in p.marks for p in game.model.pieces):
        return subject in _marks(game, ctx).get(name, ())
    if kind is None:
        return None
    own = ctx.state.attrs[board].get(cell, {})
    return own[name] if name in own else _property(game, ctx, kind, name)


def _marks(game, ctx):
    """Mark name -> cells, from the marks of my board's pieces (first option of a choice)."""
    if ctx.marks is not None:
        return ctx.marks
    if ctx.me is None:
        return {}
    marks = {}
    for cell in _board_cells(game, _board_of_seat(game, ctx.me)):
        kind = ctx.state.kind[board_of(cell)][cell_of(cell)]
        for mark, rule in (_piece(game, kind).marks.items() if kind is not None else ()):
            if rule is not None:
                value = evaluate(game, rule, Ctx(game, ctx.state, ctx.me, cell))
                if isinstance(value, Choice):
                    value = value.options[0] if value.options else ()
                marks.setdefault(mark, set()).update(value if isinstance(value, tuple) else (value,))
    return marks


# -------------------------------------------------------------- calls
def _call(game, node, ctx):
    kind, name = game.pack.checked.resolved[node]
    if kind == "aggregate":
        return _aggregate(game, node, ctx)
    if kind == "pairwise":
        a, b = (evaluate(game, x, ctx) for x in node.args)
        return min(a, b) if name == "min" else max(a, b)
    if kind == "define":
        define = _define(game, name)
        values = [evaluate(game, a, ctx) for a in node.args]  # in the caller's scope
        return evaluate(game, define.body, _bind(ctx, env=dict(zip(define.params, values))))
    if kind == "family":
        return _family(game, name, evaluate(game, node.args[0], ctx))
    return _FUNCTIONS[name](game, node, ctx)


def _aggregate(game, node, ctx):
    first = node.args[0]
    if isinstance(first, ast.Comprehension):
        elements = evaluate(game, first.source, ctx)
        values = [evaluate(game, first.body, _with_local(ctx, first.var, e)) for e in elements]
    else:
        elements = evaluate(game, first, ctx)
        values = None
        if len(node.args) == 2:
            values = [evaluate(game, node.args[1], _with_it(game, ctx, e, first)) for e in elements]
    return _fold(node.func, tuple(elements), values)


def _fold(name, elements, values):
    """Without a body (values None) count/any/none look at the elements themselves."""
    truths = [_truth(v) for v in (elements if values is None else values)]
    data = list(elements if values is None else values)
    if name == "count":
        return len(elements) if values is None else sum(truths)
    if name == "any":
        return bool(elements) if values is None else any(truths)
    if name == "none":
        return not elements if values is None else not any(truths)
    if name == "all":
        return all(truths)
    if name == "sum":
        return sum(data)
    if name == "distinct":  # `none` is no value
        return len({v for v in data if v is not None})
    return (min(data) if name == "min" else max(data)) if data else 0


def _family(game, name, n):
    shape = next(s for s in game.model.shapes if s.name == name)

    def test(x, y, size):
        env = {"x": x, "y": y, "n": size}
        return _truth(evaluate(game, shape.family, _bind(Ctx(game, None), env=env)))
    return shape_lib.family_shape(f"{name}({n})", test, n, game.grid.kind, shape.symmetry)


def _args(game, node, ctx):
    return [evaluate(game, a, ctx) for a in node.args]


def _start(game, node, ctx):
    """The cell a cell-relative function starts from: its argument, `it` if a cell, or `self`."""
    if node.args:
        return evaluate(game, node.args[0], ctx)
    return ctx.it if ctx.it is not None and _it_is_cell(ctx) else ctx.self_


# ------------------------------------------------------------- cell sets
def _steps_from(game, cell, steps):
    grid = game.grid
    x, y = grid.lattice(cell_of(cell))
    found = (grid.from_lattice(x + dx, y + dy) for dx, dy in steps)
    return tuple(sorted(encode(board_of(cell), c) for c in found if c is not None))


def _adjacent(game, cell):
    grid = game.grid
    if grid.kind == "hex":
        return _steps_from(game, cell, HEX)
    return _steps_from(game, cell, ORTHOGONAL + (DIAGONAL if grid.adjacency == "all" else ()))


def _surrounding(game, cell):
    return _steps_from(game, cell, HEX if game.grid.kind == "hex" else ORTHOGONAL + DIAGONAL)


def _line(game, cell, coordinate):
    mine = coordinate(cell_of(cell))
    return tuple(encode(board_of(cell), c) for c in game.grid.cells if coordinate(c) == mine)


def _opposite_pairs(game, cell):
    """Per axis, the two cells on either side of `cell`, when both exist."""
    grid = game.grid
    axes = HEX[:3] if grid.kind == "hex" else ((1, 0), (0, 1)) + (
        ((1, 1), (1, -1)) if grid.adjacency == "all" else ())
    x, y = grid.lattice(cell_of(cell))
    pairs = []
    for dx, dy in axes:
        a, b = grid.from_lattice(x + dx, y + dy), grid.from_lattice(x - dx, y - dy)
        if a is not None and b is not None:
            pairs.append(tuple(encode(board_of(cell), c) for c in sorted((a, b))))
    return tuple(pairs)


_CELL_SETS = {
    "adjacent": _adjacent,
    "surrounding": _surrounding,
    "row": lambda game, cell: _line(game, cell, game.grid.row),
    "column": lambda game, cell: _line(game, cell, game.grid.col),
    "opposite_pairs": _opposite_pairs,
}


def _groups(game, cells):
    """Connected groups (by the board's adjacency), each sorted, ordered by their first cell."""
    left, groups = set(cells), []
    while left:
        group, todo = set(), [min(left)]
        while todo:
            cell = todo.pop()
            if cell in left:
                left.discard(cell)
                group.add(cell)
                todo.extend(_adjacent(game, cell))
        groups.append(tuple(sorted(group)))
    return tuple(sorted(groups))


def _border(game, cells):
    inside = set(cells)
    return tuple(sorted({n for c in inside for n in _adjacent(game, c)} - inside))


def _reaches(game, node, ctx):
    """A path start, v1 .. vk (k >= 0 cells of `via`), t with t a target other than start."""
    start, targets = _args(game, node, ctx)
    via = [k for k in node.kwargs if k.name == "via"]
    allowed = set(evaluate(game, via[0].value, ctx) if via else _board_cells(game, ctx.board))
    goal = set(targets) - {start}
    seen, todo = {start}, [start]
    while todo:
        for n in _adjacent(game, todo.pop()):
            if n in goal:
                return True
            if n in allowed and n not in seen:
                seen.add(n)
                todo.append(n)
    return False


def _distance(game, a, b):
    grid = game.grid
    (ax, ay), (bx, by) = grid.lattice(cell_of(a)), grid.lattice(cell_of(b))
    dx, dy = ax - bx, ay - by
    if grid.kind == "hex":
        return max(abs(dx), abs(dy), abs(dx + dy))
    return max(abs(dx), abs(dy)) if grid.adjacency == "all" else abs(dx) + abs(dy)


def _placements(game, shape, cells):
    """Every placement of the shape lying wholly on the listed cells (on their own board)."""
    allowed = set(cells)
    found = set()
    for board in {board_of(c) for c in allowed}:
        for placement in game.placement_table(shape).placements:
            on_board = tuple(sorted(encode(board, c) for c in placement.cells))
            if all(c in allowed for c in on_board):
                found.add(on_board)
    return tuple(sorted(found))


def _allowed(game, kind, cell, ctx):
    rule = _piece(game, kind).place
    return True if rule is None else _truth(evaluate(game, rule, _bind(ctx, self_=cell, it=None)))


def _next_active(ctx, player):
    seat = player
    for _ in ctx.state.players:
        seat = _left(ctx, seat)
        if int(seat) not in ctx.state.finished:
            return seat
    return None


def _cell(game, name, ctx, node):
    try:
        return encode(ctx.board, game.grid.parse_name(name))
    except (KeyError, ValueError):
        raise RuleError(f"there is no cell named {name!r}", node.span) from None


def _unsupported(game, node, ctx):
    raise NotImplementedError(f"the reference evaluator has no `{node.func}`")


def _on_start(read):
    def f(game, node, ctx):
        cell = _start(game, node, ctx)
        return read(game, cell, ctx.state)
    return f


def _plain(fn):
    return lambda game, node, ctx: fn(game, *_args(game, node, ctx))


_FUNCTIONS = {
    **{name: _on_start(lambda game, cell, state, f=f: f(game, cell)) for name, f in _CELL_SETS.items()},
    "groups": _plain(_groups),
    "border": _plain(_border),
    "reaches": _reaches,
    "distance": _plain(_distance),
    "fits": lambda game, node, ctx: bool(_placements(game, *_args(game, node, ctx))),
    "placements": _plain(_placements),
    "allowed": lambda game, node, ctx: _allowed(game, *_args(game, node, ctx), ctx),
    "left_of": lambda game, node, ctx: _left(ctx, *_args(game, node, ctx)),
    "right_of": lambda game, node, ctx: _right(ctx, *_args(game, node, ctx)),
    "next_active": lambda game, node, ctx: _next_active(ctx, *_args(game, node, ctx)),
    "abs": lambda game, node, ctx: abs(*_args(game, node, ctx)),
    "cell": lambda game, node, ctx: _cell(game, *_args(game, node, ctx), ctx, node),
    "held": _on_start(lambda game, cell, state: state.held[board_of(cell)].get(cell_of(cell), ())),
    "tokens": _on_start(lambda game, cell, state: state.tokens[board_of(cell)].get(cell_of(cell), ())),
    "size": lambda game, node, ctx: len(ctx.state.decks[evaluate(game, node.args[0], ctx)]),
    "kind_of": lambda game, node, ctx: evaluate(game, node.args[0], ctx),
    "matches": _unsupported,
    "choose": _unsupported,
}

_NODES = {
    ast.Number: _constant, ast.String: _constant, ast.Name: _name, ast.Attribute: _attribute,
    ast.Index: _index, ast.Call: _call, ast.ListExpr: _list, ast.Range: _range, ast.Where: _where,
    ast.Conditional: _conditional, ast.BinOp: _binop, ast.Not: _not, ast.Negate: _negate,
    ast.Member: _membership, ast.ChartCall: _chart,
}
