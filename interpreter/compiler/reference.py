"""A plain reference evaluator of expressions, to test the compiler against.

`evaluate(game, node, ctx)` walks a checked expression using the checker's resolutions, like the
compiler, but is written from the documented meaning of each construct (dsl/builtins.py), apart from
exprs.py and functions.py: it borrows only the grid's coordinates, shapes and placement tables.
`matches` and `choose` are left out. tests/test_reference.py compares the two on random states.
"""

from __future__ import annotations

import functools
import itertools
import operator

from boardrule.dsl import ast
from boardrule.dsl import resolution as named
from boardrule.dsl.loader import to_plain
from boardrule.dsl.types import ANY, CELL
from boardrule.interpreter.runtime.after import position_digest
from boardrule.interpreter.runtime import shapes as shape_values
from boardrule.interpreter.runtime.values import PLAYERS, Choice, Player, RuleError, board_of, cell_of, encode

ORTHOGONAL = ((1, 0), (0, 1), (-1, 0), (0, -1))
DIAGONAL = ((1, 1), (1, -1), (-1, 1), (-1, -1))
HEX = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))  # axial steps; i and i + 3 are opposite


class Scope:
    """What an expression sees (state, me, self_, it, env, board, marks; `it_is_cell`: adjacent() starts from it)."""
    def __init__(self, fields):
        self.__dict__ = fields

    def bind(self, **changes):
        return Scope({**self.__dict__, **changes})


def evaluate(game, node, ctx):
    """The value of the checked expression `node` in `ctx` (a Ctx, which is left unchanged)."""
    scope = Scope(dict(state=ctx.state, me=ctx.me, self_=ctx.self_, it=ctx.it, it_is_cell=ctx.it is not None,
                       env=dict(ctx.env), board=ctx.board, marks=ctx.marks))
    return _eval(game, node, scope)


def _eval(game, node, scope):
    return _NODES[type(node)](game, node, scope)


def _binder(game, source):
    """A function (scope, x) -> scope with `it` bound to x, an element of the list `source` gave."""
    t = game.pack.checked.types.get(source)
    item = t.item if t is not None and t.is_list and t.item is not None else ANY
    cells, unknown = item == CELL, item == ANY  # with no static type, a plain int is a cell
    return lambda scope, x: scope.bind(it=x, it_is_cell=cells or (unknown and type(x) is int))


def _truth(value):  # a player is something, even seat 1 (Player(0))
    return True if isinstance(value, Player) else bool(value)


def _equal(a, b):  # values of different kinds are never equal: a player is not a cell or a number
    return isinstance(a, Player) == isinstance(b, Player) and a == b


def _find(items, name):
    return next(x for x in items if x.name == name)


# -------------------------------------------------------------- structure
def _index(game, node, scope):
    items = _eval(game, node.obj, scope)
    if isinstance(node.index, ast.Range):
        low, high = max(_eval(game, node.index.low, scope), 0), _eval(game, node.index.high, scope)
        return tuple(items[i] for i in range(low, min(high + 1, len(items))))
    i = _eval(game, node.index, scope)
    if not -len(items) <= i < len(items):
        raise RuleError(f"index {i} is outside a list of {len(items)}", node.span)
    return items[i if i >= 0 else len(items) + i]


def _sort(game, node, scope, elements):
    key = next((k.value for k in node.kwargs if k.name == "by"), None)
    elements = tuple(elements)
    keys = elements if key is None else [_eval(game, key, _binder(game, node.args[0])(scope, x)) for x in elements]
    return tuple(x for _, _, x in sorted(((k is not None, 0 if k is None else k), i, x)
                                          for i, (k, x) in enumerate(zip(keys, elements))))


def _index_of(items, value):
    return next((i for i, x in enumerate(items) if x == value and type(x) is type(value)), None)


def _where(game, node, scope):
    bind = _binder(game, node.source)
    return tuple(x for x in _eval(game, node.source, scope) if _truth(_eval(game, node.condition, bind(scope, x))))


_ARITHMETIC = {"+": operator.add, "-": operator.sub, "*": operator.mul,  # `+` also joins two lists
               "/": operator.floordiv, "%": operator.mod}  # whole numbers, rounding down
_ORDERED = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}


def _binop(game, node, scope):
    op, left = node.op, _eval(game, node.left, scope)
    if op in ("and", "or"):  # the right side only when the left one does not decide
        return op == "or" if _truth(left) == (op == "or") else _truth(_eval(game, node.right, scope))
    right = _eval(game, node.right, scope)
    if op in ("==", "!="):
        return _equal(left, right) == (op == "==")
    if op in _ORDERED:  # `none` has no order: a missing value never compares
        return left is not None and right is not None and _ORDERED[op](left, right)
    if op in ("/", "%") and right == 0:
        raise RuleError("division by zero", node.span)
    return _ARITHMETIC[op](left, right)


def _member(game, node, scope):
    item = _eval(game, node.item, scope)
    return any(_equal(item, x) for x in _eval(game, node.container, scope)) != node.negated


def _chart(game, node, scope):
    """The value of the column with the greatest start not above x; below the first column 0 (or "")."""
    x = _eval(game, node.value, scope)
    chart = game.model.charts[node.chart.id] if isinstance(node.chart, ast.ChartName) else node.chart
    columns = [(key.low, value) for key, value in zip(chart.keys, chart.values) if x is not None and key.low <= x]
    return max(columns)[1] if columns else ("" if chart.values and isinstance(chart.values[0], str) else 0)


# ------------------------------------------------------------------ names
def _name(game, node, scope):
    found = game.pack.checked.resolved[node]
    return _NAMES[type(found)](game, found.name, scope)


def _subject(scope, detail):
    """(which, name) names `it` or `self`; a bare name reads `it` inside a filter, else `self`."""
    which, name = detail if isinstance(detail, tuple) else ("it" if scope.it is not None else "self", detail)
    return (scope.it if which == "it" else scope.self_), name


def _die(game, name, scope):  # the face a die shows; a die whose faces are all shapes shows the shape
    face, faces = scope.state.dice.get(name), _find(game.model.dice, name).faces
    return game.shapes.get(face) if faces and all(getattr(f, "id", None) in game.shapes for f in faces) else face


def _cells(game, board, cells=None):  # cells (by default all the grid's) encoded on a board, in order
    return tuple(sorted(encode(board, c) for c in (game.grid.cells if cells is None else cells)))


_NAMES = {
    named.Local: lambda game, name, scope: scope.env[name],
    named.It: lambda game, _, scope: scope.it, named.Self: lambda game, _, scope: scope.self_,
    named.Prop: lambda game, detail, scope: _property(game, scope, *_subject(scope, detail)),
    named.Rule: lambda game, detail, scope: _rule(game, scope, *_subject(scope, detail)),
    named.Relative: lambda game, detail, scope: (lambda cell, name: _CELL_SETS[name](game, cell))(
        *_subject(scope, detail)),
    named.Global: lambda game, name, scope: scope.state.vars[name],
    named.Option: lambda game, name, scope: scope.state.options[name],
    named.PlayerVar: lambda game, name, scope: scope.state.pvars[scope.me][name],
    named.Region: lambda game, name, scope: _cells(
        game, scope.board, [game.grid.parse_name(ref.name) for ref in game.model.board.regions[name].cells]),
    named.Die: _die, named.Deck: lambda game, name, scope: name, named.Symbol: lambda game, name, scope: name,
    named.Direction: lambda game, name, scope: name,
    named.Record: lambda game, name, scope: name,  # a record is its id
    named.RecordKind: lambda game, name, scope: tuple(rid for rid, _, _ in _find(game.model.records, name).rows),
    named.MarkName: lambda game, name, scope: name,  # `uses(kind, fed)`: the mark's name
    named.ActionName: lambda game, name, scope: name,  # `can(me, place)`: the action's name
    named.Shape: lambda game, name, scope: game.shapes[name],
    named.SymbolSet: lambda game, name, scope: tuple(s for s, _ in game.model.symbols[name][0]),
    named.Define: lambda game, name, scope: _eval(game, _find(game.model.defines, name).body, scope),
    named.Value: lambda game, name, scope: _VALUES[name](game, scope),
}


def _ring(scope, player):
    """The players after `player` in seat order, round the table to `player` itself."""
    seats, i = scope.state.players, scope.state.players.index(int(player))
    return [PLAYERS[seats[(i + k) % len(seats)]] for k in range(1, len(seats) + 1)]


_VALUES = {
    "cells": lambda game, scope: _cells(game, scope.board),
    "players": lambda game, scope: tuple(PLAYERS[s] for s in scope.state.players),
    "others": lambda game, scope: tuple(PLAYERS[s] for s in scope.state.players if s != scope.me),
    "me": lambda game, scope: scope.me, "round": lambda game, scope: scope.state.round,
    "left": lambda game, scope: _ring(scope, scope.me)[0], "right": lambda game, scope: _ring(scope, scope.me)[-2],
    "to_move": lambda game, scope: _to_move(scope.state),
    "repeated": lambda game, scope: any(position_digest(scope.state) == seen for seen in scope.state.positions),
    "kinds": lambda game, scope: tuple(p.name for p in game.model.pieces),
    "directions": lambda game, scope: tuple(name for name, _ in game.grid.directions()),
    "side_directions": lambda game, scope: _side_directions(game),
    "corner_directions": lambda game, scope: _corner_directions(game),
    "edge": lambda game, scope: _cells(game, scope.board, game.grid.edge),
    "corners": lambda game, scope: _cells(game, scope.board, game.grid.corners),
    "all_corners": lambda game, scope: _cells(game, scope.board, game.grid.all_corners),
    "center": lambda game, scope: _cells(game, scope.board, game.grid.center),
    "true": lambda game, scope: True, "false": lambda game, scope: False, "none": lambda game, scope: None,
}


def _to_move(state):
    """The one seat with an open decision (none for no decision or several); at the end, the one kept then."""
    if state.phase == "over":
        return None if state.to_move_at_end is None else PLAYERS[state.to_move_at_end]
    seats = sorted(state.pending)
    return PLAYERS[seats[0]] if len(seats) == 1 else None


# ------------------------------------------------------------- properties
def _attribute(game, node, scope):
    owner = _eval(game, node.obj, scope)
    found = game.pack.checked.resolved[node]
    kind, name = type(found), found.name
    if kind is named.PlayerVar:
        return scope.state.pvars[owner][name]
    if kind is named.PlayerProp:
        return _PLAYER_PROPERTIES[name](game, scope, owner)
    if kind is named.EventAttr:
        return None if owner is None else owner.get(name)
    if kind is named.Rule:
        return _rule(game, scope, owner, name)
    return _property(game, scope, owner, name)


def _rule(game, scope, cell, name):
    """A piece rule: the body the kind on the cell declares under `rules:`, with `self` the cell."""
    kind = None if cell is None else scope.state.kind[board_of(cell)][cell_of(cell)]
    body = _find(game.model.pieces, kind).rules.get(name) if kind is not None else None
    if body is None:
        raise RuleError(f"no rule `{name}` for the piece on this cell")
    return _eval(game, body, scope.bind(self_=cell, it=None, it_is_cell=False))


_PLAYER_PROPERTIES = {
    "cells": lambda game, scope, p: _cells(game, game.board_of_seat(p)),
    "score": lambda game, scope, p: game.score_total(scope.state, p),  # the score sheet's business
    "finished": lambda game, scope, p: int(p) in scope.state.finished, "seat": lambda game, scope, p: int(p) + 1,
}

_CELL_PROPERTIES = {  # (game, kind, owner, cell) -> value
    "kind": lambda game, kind, owner, cell: kind,
    "owner": lambda game, kind, owner, cell: None if owner is None else PLAYERS[owner],
    "empty": lambda game, kind, owner, cell: kind is None, "occupied": lambda game, kind, owner, cell: kind is not None,
    "name": lambda game, kind, owner, cell: game.grid.name(cell),
    "x": lambda game, kind, owner, cell: game.grid.col(cell), "y": lambda game, kind, owner, cell: game.grid.row(cell),
    # reading order: the cells before it, row by row and left to right in each row (holes skipped)
    "order": lambda game, kind, owner, cell: sum(
        1 for c in game.grid.cells if (game.grid.row(c), game.grid.col(c)) < (game.grid.row(cell), game.grid.col(cell))),
}


def _property(game, scope, subject, name):
    """A property of a cell, a mark, or an attribute of a cell's piece or of a piece kind."""
    if subject is None:
        return None
    if isinstance(subject, str) and any(p.name == subject for p in game.model.pieces):
        # a piece kind; an attribute naming a shape holds the shape
        value = _find(game.model.pieces, subject).attributes.get(name, (None,))[0]
        return game.shapes.get(value, value) if isinstance(value, str) else value
    if isinstance(subject, str):  # a record: its row's value of the field
        return _field(game, subject, name)
    board, cell = board_of(subject), cell_of(subject)
    kind = scope.state.kind[board][cell]
    if name in _CELL_PROPERTIES:
        return _CELL_PROPERTIES[name](game, kind, scope.state.owner[board][cell], cell)
    if name in _mark_names(game):
        return subject in _marks(game, scope).get(name, ())
    if kind is None:
        return None
    own = scope.state.attrs[board].get(cell, {})
    return own[name] if name in own else _property(game, scope, kind, name)


def _field(game, rid, name):
    """A record's field, read from its row as the pack writes it (a list of values in the order of the
    fields, or a mapping; a kind of one field may give the value alone); a shape field holds the shape."""
    for kind in game.model.records:
        row = next((node for r, node, _ in kind.rows if r == rid), None)
        if row is None:
            continue
        names = [f for f, _, _ in kind.fields]
        if name not in names:
            return None
        plain = to_plain(row)
        if isinstance(plain, dict):
            value = plain.get(name)
        elif isinstance(plain, list) and (len(names) > 1 or (len(plain) == 1 and isinstance(plain[0], list))):
            value = plain[names.index(name)]
        else:
            value = plain
        words = dict((f, w) for f, w, _ in kind.fields)[name].split()
        return _as_rule_value(game, value, words[0] == "list", words[-1] in ("shape", "shapes"))
    return None


def _as_rule_value(game, value, is_list, is_shape):
    if is_list:
        return tuple(_as_rule_value(game, v, False, is_shape) for v in value)
    return game.shapes.get(value, value) if is_shape and isinstance(value, str) else value


@functools.lru_cache(maxsize=64)
def _mark_names(game):
    return {mark for piece in game.model.pieces for mark in piece.marks}


def _marks(game, scope):
    """Mark -> cells, from the marks of the pieces on my board (of a choice, its first option)."""
    if scope.marks is not None or scope.me is None:
        return scope.marks or {}
    marks, board = {}, game.board_of_seat(scope.me)
    inner = scope.bind(it=None, it_is_cell=False, env={}, board=board)
    for cell in _cells(game, board):
        kind = scope.state.kind[board][cell_of(cell)]
        for mark, rule in (_find(game.model.pieces, kind).marks.items() if kind is not None else ()):
            value = _eval(game, rule, inner.bind(self_=cell)) if rule is not None else ()
            if isinstance(value, Choice):
                value = value.options[0] if value.options else ()
            marks.setdefault(mark, set()).update(value if isinstance(value, tuple) else (value,))
    return marks


# ------------------------------------------------------------------ calls
def _call(game, node, scope):
    found = game.pack.checked.resolved[node]
    kind, name = type(found), found.name
    if kind is named.Aggregate:
        return _aggregate(game, node, scope)
    if kind is named.Pairwise:
        return (min if name == "min" else max)(*_args(game, node, scope))
    if kind is named.Define:  # arguments in the caller's scope; the body sees only the parameters
        define = _find(game.model.defines, name)
        return _eval(game, define.body, scope.bind(env=dict(zip(define.params, _args(game, node, scope)))))
    if kind is named.Family:
        return game.families[name](_eval(game, node.args[0], scope))
    return _FUNCTIONS[name](game, node, scope, *_args(game, node, scope))


def _args(game, node, scope):
    return [_eval(game, a, scope) for a in node.args]


def _aggregate(game, node, scope):
    first, values = node.args[0], None
    if isinstance(first, ast.Comprehension):
        elements = _eval(game, first.source, scope)
        values = _until_settled(node.func, (_eval(game, first.body, scope.bind(env={**scope.env, first.var: x}))
                                            for x in elements))
    else:
        elements, bind = _eval(game, first, scope), _binder(game, first)
        if len(node.args) == 2:
            values = _until_settled(node.func, (_eval(game, node.args[1], bind(scope, x)) for x in elements))
    return _fold(node.func, tuple(elements), values)


def _until_settled(name, values):
    """The values worked out; any, all and none stop at the first one that settles them."""
    out = []
    for value in values:
        out.append(value)
        if name in ("any", "none") and _truth(value) or name == "all" and not _truth(value):
            break
    return out


def _fold(name, elements, values):
    """Without a body (`values` None), count, any and none take every element as true."""
    if values is None:
        values = [True] * len(elements) if name in ("count", "any", "none") else list(elements)
    truths = [_truth(v) for v in values]
    if name in ("count", "any", "all", "none"):
        return {"count": sum(truths), "any": any(truths), "all": all(truths), "none": not any(truths)}[name]
    if name == "distinct":  # `none` is no value
        return len({v for v in values if v is not None})
    return sum(values) if name == "sum" else ((min if name == "min" else max)(values) if values else 0)


def _start(scope, args):
    """Where a cell-relative call starts: its argument, `it` when that is a cell, else `self`."""
    return args[0] if args else scope.it if scope.it is not None and scope.it_is_cell else scope.self_


# -------------------------------------------------------------- cell sets
@functools.lru_cache(maxsize=65536)
def _adjacent(grid, cell, around=False):
    """The cells next to a cell by the board's adjacency (`around`: diagonals too), in order."""
    steps = HEX if grid.kind == "hex" else ORTHOGONAL + (DIAGONAL if around or grid.adjacency == "all" else ())
    x, y = grid.lattice(cell_of(cell))
    found = (grid.from_lattice(x + dx, y + dy) for dx, dy in steps)
    return tuple(sorted(encode(board_of(cell), c) for c in found if c is not None))


def _opposite_pairs(game, cell):
    """Per axis (square: across, down, and the diagonals if adjacent; hex: three), the cells on both sides."""
    grid = game.grid
    axes = HEX[:3] if grid.kind == "hex" else ((1, 0), (0, 1)) + (DIAGONAL[:2] if grid.adjacency == "all" else ())
    x, y = grid.lattice(cell_of(cell))
    pairs = [(grid.from_lattice(x + dx, y + dy), grid.from_lattice(x - dx, y - dy)) for dx, dy in axes]
    return tuple(_cells(game, board_of(cell), pair) for pair in pairs if None not in pair)


def _line(game, cell, coordinate):  # the cells sharing a coordinate with `cell`
    return _cells(game, board_of(cell), [c for c in game.grid.cells if coordinate(c) == coordinate(cell_of(cell))])


_CELL_SETS = {
    "adjacent": lambda game, cell: _adjacent(game.grid, cell),
    "surrounding": lambda game, cell: _adjacent(game.grid, cell, True),
    "row": lambda game, cell: _line(game, cell, game.grid.row),
    "column": lambda game, cell: _line(game, cell, game.grid.col),
    "opposite_pairs": _opposite_pairs,
}


def _flood(game, start, inside):
    """`start` and every cell of `inside` linked to it through cells of `inside`."""
    found, todo = {start}, [start]
    while todo:
        for n in _adjacent(game.grid, todo.pop()):
            if n in inside and n not in found:
                found.add(n)
                todo.append(n)
    return found


def _groups(game, cells):
    """Connected groups (by the board's adjacency), each in order, ordered by their first cell."""
    left, groups = set(cells), []
    while left:
        group = _flood(game, min(left), left)
        left -= group
        groups.append(tuple(sorted(group)))
    return tuple(groups)


def _reaches(game, node, scope, start, targets):
    """Whether a path from start through one or more `via` cells ends on, or next to, a target (not start)."""
    via = [k.value for k in node.kwargs if k.name == "via"]
    allowed = set(_eval(game, via[0], scope) if via else _cells(game, scope.board))
    path, goal = _flood(game, start, allowed) - {start}, set(targets) - {start}
    return any(c in goal or any(n in goal for n in _adjacent(game.grid, c)) for c in path)


def _distance(game, a, b):
    (ax, ay), (bx, by) = game.grid.lattice(cell_of(a)), game.grid.lattice(cell_of(b))
    dx, dy = ax - bx, ay - by
    if game.grid.kind == "hex":
        return max(abs(dx), abs(dy), abs(dx + dy))
    return max(abs(dx), abs(dy)) if game.grid.adjacency == "all" else abs(dx) + abs(dy)


def _placements(game, shape, cells):
    """Every placement of the shape lying wholly on the listed cells, on their own board."""
    allowed, found = set(cells), set()
    for board in {board_of(c) for c in allowed}:
        for placement in game.placement_table(shape).placements:
            on_board = _cells(game, board, placement.cells)
            if all(c in allowed for c in on_board):
                found.add(on_board)
    return tuple(sorted(found))


def _can(game, state, player, action, span):
    from boardrule.interpreter.runtime.flow import can_move  # the moves are listed as play lists them
    return can_move(game, state, int(player), action, span)


def _used_marks(game, kind):
    """The marks a piece kind sets under `marks:`, and those named anywhere its rules reach."""
    piece = _find(game.model.pieces, kind)
    found, seen = set(piece.marks), set()
    _marks_named(game, (piece.score, piece.place, tuple(piece.marks.values()), tuple(piece.rules.values()),
                        tuple(stmts for _, stmts in piece.triggers)), found, seen)
    return found


def _marks_named(game, node, found, seen):
    """Add to `found` the marks named inside `node`, following definitions, rules, `allowed` and `.score`."""
    if isinstance(node, (tuple, list)):
        for item in node:
            _marks_named(game, item, found, seen)
        return
    if not hasattr(node, "__attrs_attrs__") or isinstance(node, (str, int)):
        return
    what = game.pack.checked.resolved.get(node) if isinstance(node, (ast.Name, ast.Attribute, ast.Call)) else None
    follow = ()
    if what is not None:
        kind, name = type(what), what.name
        if kind in (named.Prop, named.Attr) and name in _mark_names(game):
            found.add(name)
        elif what == named.PlayerProp("score"):
            found.update(_mark_names(game))
        elif kind is named.Define:
            follow = (_find(game.model.defines, name).body,)
        elif kind is named.Rule:
            follow = tuple(p.rules[name] for p in game.model.pieces if name in p.rules)
        elif what == named.Function("allowed"):
            follow = tuple(p.place for p in game.model.pieces)
    if follow and what not in seen:
        seen.add(what)
        _marks_named(game, follow, found, seen)
    for field in node.__attrs_attrs__:
        if field.name != "span":
            _marks_named(game, getattr(node, field.name), found, seen)


def _kept(table, scope, cell):  # held() and tokens(): what the state keeps on a cell (none: nothing)
    return () if cell is None else getattr(scope.state, table)[board_of(cell)].get(cell_of(cell), ())


def _of_a_cell(cells_of, game, cell):  # the cells about a cell; about none, no cells
    return () if cell is None else cells_of(game, cell)


def _walk(game, cell, direction):
    """The cells from `cell` (left out) in a direction to the edge, one lattice step at a time."""
    if cell is None:
        return
    dx, dy = dict(game.grid.directions())[direction]
    x, y = game.grid.lattice(cell_of(cell))
    while True:
        x, y = x + dx, y + dy
        found = game.grid.from_lattice(x, y)
        if found is None:
            return
        yield encode(board_of(cell), found)


def _step(game, node, cell, direction, count):
    if count < 0:
        raise RuleError(f"`step` takes 0 or more steps, not {count}", node.span)
    if count == 0:
        return cell
    return next(itertools.islice(_walk(game, cell, direction), count - 1, None), None)


def _ray(game, node, scope, cell, direction):
    holds = next((k.value for k in node.kwargs if k.name == "while"), None)
    out = []
    for c in _walk(game, cell, direction):
        if holds is not None and not _truth(_eval(game, holds, scope.bind(it=c, it_is_cell=True))):
            break
        out.append(c)
    return tuple(out)


def _opposite(game, direction):
    """The direction whose lattice step is the reverse of `direction`'s."""
    dx, dy = dict(game.grid.directions())[direction]
    return next(name for name, step in game.grid.directions() if step == (-dx, -dy))


def _size(node, scope, of):
    """The squares of a shape, or the cards left in a deck."""
    if isinstance(of, shape_values.Shape):
        return len(of.cells)
    if of not in scope.state.decks:
        raise RuleError(f"`size` needs a deck or a shape, not {of}", node.span)
    return len(scope.state.decks[of])


def _between(game, a, b):
    """The cells met walking from a towards b in the one direction that reaches b (none: no cells)."""
    if a is None or b is None:
        return ()
    for name, _ in game.grid.directions():
        path = []
        for c in _walk(game, a, name):
            if c == b:
                return tuple(path)
            path.append(c)
    return ()


def _side_directions(game):
    from boardrule.dsl.builtins import SIDE_DIRECTIONS, direction_family
    return SIDE_DIRECTIONS[direction_family(game.grid.kind, game.grid.hex_layout)]


def _sides_shown(game, kind, turn, direction):
    """The side a kind turned `turn` steps clockwise shows facing `direction` (none: no tile, no side)."""
    piece = _find(game.model.pieces, kind) if kind is not None else None
    order = _side_directions(game)
    if piece is None or not piece.sides or direction not in order:
        return None
    return piece.sides[(order.index(direction) - (turn or 0)) % len(order)][0]


def _corner_directions(game):
    """A square tile's corners point to the diagonals, clockwise from the top right; a hex tile has none named."""
    return ("northeast", "southeast", "southwest", "northwest") if game.grid.kind != "hex" else ()


def _corners_shown(game, kind, turn, direction):
    """The corner a kind turned `turn` steps clockwise shows pointing to `direction` (none: no corners)."""
    piece = _find(game.model.pieces, kind) if kind is not None else None
    order = _corner_directions(game)
    if piece is None or not piece.corners or direction not in order:
        return None
    return piece.corners[(order.index(direction) - (turn or 0)) % len(order)][0]


def _tile_corner(game, scope, cell, direction):
    if cell is None:
        return None
    kind = scope.state.kind[board_of(cell)][cell_of(cell)]
    turn = scope.state.attrs[board_of(cell)].get(cell_of(cell), {}).get("turn")
    return _corners_shown(game, kind, turn, direction)


def _centre_of(game, kind):
    piece = _find(game.model.pieces, kind) if kind is not None else None
    return piece.centre[0] if piece is not None and piece.centre and piece.sides else None


def _tile_side(game, scope, cell, direction):
    if cell is None:
        return None
    kind = scope.state.kind[board_of(cell)][cell_of(cell)]
    turn = scope.state.attrs[board_of(cell)].get(cell_of(cell), {}).get("turn")
    return _sides_shown(game, kind, turn, direction)


def _feature(game, node, scope, cell, direction):
    """(the sides joined to side `direction` of the tile on `cell`, as (cell, direction); whether one is open)."""
    value = _tile_side(game, scope, cell, direction)
    if value is None:
        return [], False
    found, todo, open_ = [(cell, direction)], [(cell, direction)], False
    while todo:
        c, d = todo.pop(0)
        piece = _find(game.model.pieces, scope.state.kind[board_of(c)][cell_of(c)])
        same_tile = [(c, e) for e in _side_directions(game) if _tile_side(game, scope, c, e) == value
                     and _linked_on_tile(game, scope, piece, c, d, e)]
        n = _step(game, node, c, d, 1)
        across = [(n, _opposite(game, d))] if _tile_side(game, scope, n, _opposite(game, d)) == value else []
        open_ = open_ or not across
        for slot in same_tile + across:
            if slot not in found:
                found.append(slot)
                todo.append(slot)
    return found, open_


def _linked_on_tile(game, scope, piece, cell, d, e):
    """Whether one tile joins its sides facing d and e (both showing one value): by `links:` when the kind
    gives them (the groups name the sides of the tile as it lies unturned), else unless the value is `apart:`."""
    if not piece.links:
        return _tile_side(game, scope, cell, d) not in [v for v, _ in piece.apart]
    order = _side_directions(game)
    turn = scope.state.attrs[board_of(cell)].get(cell_of(cell), {}).get("turn") or 0
    unturned = {order[(order.index(x) - turn) % len(order)] for x in (d, e)}
    return any(unturned <= {name for name, _ in group} for group in piece.links)


def _first_side(game, node, scope, cell, direction):
    found, _ = _feature(game, node, scope, cell, direction)
    order = _side_directions(game)
    return bool(found) and min((c, order.index(d)) for c, d in found) == (cell, order.index(direction))


_FUNCTIONS = {  # (game, node, scope, *argument values) -> value
    "side": lambda game, node, scope, cell, direction: _tile_side(game, scope, cell, direction),
    "side_of": lambda game, node, scope, kind, turn, direction: _sides_shown(game, kind, turn, direction),
    "corner": lambda game, node, scope, cell, direction: _tile_corner(game, scope, cell, direction),
    "corner_of": lambda game, node, scope, kind, turn, direction: _corners_shown(game, kind, turn, direction),
    "centre": lambda game, node, scope, cell: None if cell is None else _centre_of(
        game, scope.state.kind[board_of(cell)][cell_of(cell)]),
    "centre_of": lambda game, node, scope, kind: _centre_of(game, kind),
    "feature": lambda game, node, scope, cell, d: tuple(sorted({c for c, _ in _feature(game, node, scope, cell, d)[0]})),
    "complete": lambda game, node, scope, cell, d: (lambda found, open_: bool(found) and not open_)(
        *_feature(game, node, scope, cell, d)),
    "joined": lambda game, node, scope, a, d, b, e: (b, e) in _feature(game, node, scope, a, d)[0],
    "first_side": _first_side,
    "step": lambda game, node, scope, cell, direction, count=1: _step(game, node, cell, direction, count),
    "ray": _ray,
    "between": lambda game, node, scope, a, b: _between(game, a, b),
    "opposite": lambda game, node, scope, direction: _opposite(game, direction),
    **{name: (lambda f: lambda game, node, scope, *args: _of_a_cell(f, game, _start(scope, args)))(f)
       for name, f in _CELL_SETS.items()},
    "groups": lambda game, node, scope, cells: _groups(game, cells),
    "border": lambda game, node, scope, cells: tuple(sorted(
        {n for c in cells for n in _adjacent(game.grid, c)} - set(cells))),
    "reaches": _reaches,
    "distance": lambda game, node, scope, a, b: _distance(game, a, b), "abs": lambda game, node, scope, x: abs(x),
    "fits": lambda game, node, scope, shape, cells: bool(_placements(game, shape, cells)),
    "placements": lambda game, node, scope, shape, cells: _placements(game, shape, cells),
    "allowed": lambda game, node, scope, kind, cell: (lambda rule: rule is None or _truth(_eval(
        game, rule, scope.bind(self_=cell, it=None, it_is_cell=False))))(_find(game.model.pieces, kind).place),
    "left_of": lambda game, node, scope, p: _ring(scope, p)[0],
    "right_of": lambda game, node, scope, p: _ring(scope, p)[-2],
    "next_active": lambda game, node, scope, p: next(
        (q for q in _ring(scope, p) if int(q) not in scope.state.finished), None),
    "cell": lambda game, node, scope, name: encode(scope.board, game.grid.parse_name(name)),  # KeyError if none
    "uses": lambda game, node, scope, kind, mark: kind is not None and mark in _used_marks(game, kind),
    "sort": _sort,
    "first": lambda game, node, scope, items: items[0] if items else None,
    "last": lambda game, node, scope, items: items[-1] if items else None,
    "index_of": lambda game, node, scope, items, value: _index_of(items, value),
    "flatten": lambda game, node, scope, items: tuple(x for part in items for x in part),
    "rotated": lambda game, node, scope, items, n: tuple(items[(i + n) % len(items)] for i in range(len(items))),
    "can": lambda game, node, scope, player, action: player is not None and _can(game, scope.state, player, action,
                                                                                 node.span),
    "held": lambda game, node, scope, *args: _kept("held", scope, _start(scope, args)),
    "tokens": lambda game, node, scope, *args: _kept("tokens", scope, _start(scope, args)),
    "size": lambda game, node, scope, of: _size(node, scope, of),
    "cards": lambda game, node, scope, deck: tuple(scope.state.decks[deck][::-1]),  # the state keeps the top last
}

_NODES = {
    ast.Number: lambda game, node, scope: node.value, ast.String: lambda game, node, scope: node.value,
    ast.ListExpr: lambda game, node, scope: tuple(_eval(game, item, scope) for item in node.items),
    ast.Range: lambda game, node, scope: tuple(range(_eval(game, node.low, scope), _eval(game, node.high, scope) + 1)),
    ast.Not: lambda game, node, scope: not _truth(_eval(game, node.operand, scope)),
    ast.ListComp: lambda game, node, scope: tuple(
        _eval(game, node.body, scope.bind(env={**scope.env, node.var: x})) for x in _eval(game, node.source, scope)),
    ast.Let: lambda game, node, scope: _eval(game, node.body, scope.bind(
        env={**scope.env, node.name: _eval(game, node.value, scope)})),
    ast.Negate: lambda game, node, scope: -_eval(game, node.operand, scope),
    ast.Conditional: lambda game, node, scope: _eval(
        game, node.then if _truth(_eval(game, node.condition, scope)) else node.otherwise, scope),
    ast.Name: _name, ast.Attribute: _attribute, ast.Index: _index, ast.Call: _call, ast.Where: _where,
    ast.BinOp: _binop, ast.Member: _member, ast.ChartCall: _chart,
}
