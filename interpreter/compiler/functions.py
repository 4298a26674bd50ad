"""Implementations of the language's built-in values, properties and functions.

Signatures live in dsl/builtins.py (the checker reads them); this module
gives each name its run-time meaning.
"""

from __future__ import annotations

import itertools
import operator

from boardrule.dsl.limits import MAX_NUMBER, out_of_range_message
from boardrule.interpreter.compiler import directions, fastpaths, lists, shape_functions, tiles
from boardrule.interpreter.runtime.budget import weight
from boardrule.interpreter.runtime.shapes import Shape
from boardrule.interpreter.runtime.after import is_repeated
from boardrule.interpreter.runtime.state import player_to_move
from boardrule.interpreter.runtime.values import CELL_BITS, CELL_MASK, PLAYERS, Choice, Player, RuleError
from boardrule.dsl import ast as nodes

MAX_CHOICE_SUBSETS = 50_000
NO_ATTRIBUTES = {}  # the declared attributes of a kind that has none


# ------------------------------------------------------------ properties
def is_declared_attribute(game, name) -> bool:
    """True when `x.name` reads an attribute the pack declares (not a cell's kind, name... nor a mark)."""
    return name not in _CELL_READERS and name not in game.mark_names


def property_reader(game, name):
    """A function (ctx, subject) -> value for a cell's property, a piece kind's attribute or a record's field."""
    special = _CELL_READERS.get(name)
    if special is not None:
        return special
    if name in game.mark_names:
        def read_mark(ctx, cell):
            marks = ctx.marks if ctx.marks is not None else game.default_marks(ctx)
            return cell in marks.get(name, ())
        return read_mark
    static, named = game.static_attrs, game.named_fields

    def read_attribute(ctx, subject):
        if subject is None:
            return None
        if type(subject) is str:  # a piece kind's attribute, a record's field
            return named.get(subject, NO_ATTRIBUTES).get(name)
        board, cell = subject >> CELL_BITS, subject & CELL_MASK
        kind = ctx.state.kind[board][cell]
        if kind is None:
            return None
        extra = ctx.state.attrs[board].get(cell)
        if extra is not None and name in extra:
            return extra[name]
        return static[kind].get(name)
    return read_attribute


def _kind(ctx, cell):
    return None if cell is None else ctx.state.kind[cell >> CELL_BITS][cell & CELL_MASK]


def _owner(ctx, cell):
    if cell is None:  # `none` has no properties: each is none
        return None
    owner = ctx.state.owner[cell >> CELL_BITS][cell & CELL_MASK]
    return None if owner is None else PLAYERS[owner]


_CELL_READERS = {
    "kind": _kind,
    "owner": _owner,
    "empty": lambda ctx, cell: _kind(ctx, cell) is None,
    "occupied": lambda ctx, cell: _kind(ctx, cell) is not None,
    "name": lambda ctx, cell: None if cell is None else ctx.game.grid.name(cell & CELL_MASK),
    "x": lambda ctx, cell: None if cell is None else ctx.game.grid.col(cell & CELL_MASK),
    "y": lambda ctx, cell: None if cell is None else ctx.game.grid.row(cell & CELL_MASK),
    # a grid numbers its cells in reading order (geometry.py)
    "order": lambda ctx, cell: None if cell is None else cell & CELL_MASK,
}
#: the properties every cell has, read before any piece attribute of the same name
CELL_READER_NAMES = frozenset(_CELL_READERS)


def attribute_source(game, name):
    """Where a piece's attribute `name` comes from, when from one place only (never a mark or a cell
    property): `"kinds"` when only the piece kinds give it, `"pieces"` when only the pieces give it
    themselves (a variable, `place ... with`); None otherwise (both, or neither: read by its reader)."""
    if game.static_attrs is None or name in game.mark_names or name in CELL_READER_NAMES:
        return None
    of_kinds, of_pieces = name in game.static_attribute_names, name in game.per_piece_attributes
    if of_kinds != of_pieces:
        return "kinds" if of_kinds else "pieces"
    return None


def attribute_by_kind(game, name) -> dict:
    """kind -> its attribute `name` (None on an empty cell), for an attribute only the kinds give;
    built once per game and name."""
    tables = game.cache.table("attribute_by_kind")
    table = tables.get(name)
    if table is None:
        table = {kind: attributes.get(name) for kind, attributes in game.static_attrs.items()}
        table[None] = None
        game.cache.bounded(tables)[name] = table
    return table


def rule_reader(game, name, span=None):
    """A function (ctx, cell) -> the value of rule `name` of the piece on the cell, run with `self`
    that cell (`me` and the locals stay the caller's). A cell whose piece declares no such rule,
    or an empty one, is an error that says so: no kind takes another's rule by default."""
    def read_rule(ctx, cell):
        kind = None if cell is None else ctx.state.kind[cell >> CELL_BITS][cell & CELL_MASK]
        rule = game.piece_rules[name].get(kind)
        if rule is None:
            raise RuleError(_no_rule(game, name, kind, cell), span)
        saved_self, saved_it = ctx.self_, ctx.it
        ctx.self_, ctx.it = cell, None
        try:
            return rule(ctx)
        finally:
            ctx.self_, ctx.it = saved_self, saved_it
    return read_rule


def _no_rule(game, name, kind, cell) -> str:
    declared = ", ".join(f"`{k}`" for k in game.piece_rules[name])
    if cell is None:
        return f"rule `{name}` is read on no cell (`none`); the kinds declaring it: {declared}"
    where = game.grid.name(cell & CELL_MASK)
    if kind is None:
        return f"{where} is empty: it has no rule `{name}` (the kinds declaring it: {declared})"
    return f"`{kind}` on {where} has no rule `{name}`: declare it under the kind's `rules:` (as {declared} do)"


def current_rule_reader(game, name, span=None):
    """A function (ctx) -> rule `name` of the current cell (`it` in a filter on cells, else `self`)."""
    read = rule_reader(game, name, span)
    return lambda ctx: read(ctx, current_cell(ctx))


def current_reader(game, name):
    """A function (ctx) -> property `name` of the current cell (see current_cell).

    Filters over cells read a bare property once per cell: when `it` is a
    cell (an int) the reading is inlined, instead of a reader called on
    current_cell's answer; anything else goes the general way.
    """
    read = property_reader(game, name)
    if name == "kind":
        def read_kind(ctx):
            it = ctx.it
            if type(it) is int:
                return ctx.state.kind[it >> CELL_BITS][it & CELL_MASK]
            return _kind(ctx, current_cell(ctx))
        return read_kind
    if name in _CELL_READERS or name in game.mark_names:
        def read_current(ctx):
            it = ctx.it
            return read(ctx, it if type(it) is int else current_cell(ctx))
        return read_current
    static = game.static_attrs

    def read_current_attribute(ctx):
        it = ctx.it
        if type(it) is not int:
            return read(ctx, current_cell(ctx))
        state, board, cell = ctx.state, it >> CELL_BITS, it & CELL_MASK
        kind = state.kind[board][cell]
        if kind is None:
            return None
        extra = state.attrs[board].get(cell)
        if extra is not None and name in extra:
            return extra[name]
        return static[kind].get(name)
    return read_current_attribute


def current_comparison(game, name, op, value):
    """`prop == value` (op is operator.eq or ne) on the current cell in one call,
    or None for properties other than `kind` and piece attributes.

    The answer for an empty cell and for each kind's own attribute is worked
    out once; only a value set on the piece is compared per cell.
    """
    read = current_reader(game, name)
    if name == "kind":
        def kind_test(ctx):
            it = ctx.it
            if type(it) is not int:
                return op(read(ctx), value)
            return op(ctx.state.kind[it >> CELL_BITS][it & CELL_MASK], value)
        return kind_test
    if name in _CELL_READERS or name in game.mark_names:
        return None
    when_empty = op(None, value)
    by_kind = {kind: op(attrs.get(name), value) for kind, attrs in game.static_attrs.items()}

    def attribute_test(ctx):
        it = ctx.it
        if type(it) is not int:
            return op(read(ctx), value)
        state, board, cell = ctx.state, it >> CELL_BITS, it & CELL_MASK
        kind = state.kind[board][cell]
        if kind is None:
            return when_empty
        extra = state.attrs[board].get(cell)
        if extra is not None and name in extra:
            return op(extra[name], value)
        return by_kind[kind]
    return attribute_test


PLAYER_PROPERTIES = {
    "cells": lambda ctx, p: ctx.game.board_cells[ctx.game.board_of_seat(p)],
    "score": lambda ctx, p: ctx.game.score_total(ctx.state, p),
    "finished": lambda ctx, p: p in ctx.state.finished,
    "seat": lambda ctx, p: int(p) + 1,
}


# ---------------------------------------------------------------- values
_SEATINGS = {}  # the occupied seats -> their Players: a game's seating never changes


def _players(ctx):
    seats = ctx.state.players
    found = _SEATINGS.get(seats)
    if found is None:
        found = _SEATINGS[seats] = tuple(PLAYERS[s] for s in seats)
    return found


VALUE_READERS = {
    "cells": lambda game: (lambda ctx: game.board_cells[ctx.board]),
    "players": lambda game: _players,
    "others": lambda game: (lambda ctx: tuple(p for p in _players(ctx) if p != ctx.me)),
    "me": lambda game: (lambda ctx: ctx.me),
    "left": lambda game: (lambda ctx: left_of(ctx, ctx.me)),
    "right": lambda game: (lambda ctx: right_of(ctx, ctx.me)),
    "to_move": lambda game: (lambda ctx: player_to_move(ctx.state)),
    "repeated": lambda game: (lambda ctx: is_repeated(ctx.state)),
    "kinds": lambda game: (lambda ctx: game.kind_names),
    "directions": lambda game: (lambda ctx: game.direction_names),
    **tiles.VALUES,
    "round": lambda game: (lambda ctx: ctx.state.round),
    "edge": lambda game: (lambda ctx: game.regions["edge"][ctx.board]),
    "corners": lambda game: (lambda ctx: game.regions["corners"][ctx.board]),
    "all_corners": lambda game: (lambda ctx: game.regions["all_corners"][ctx.board]),
    "center": lambda game: (lambda ctx: game.regions["center"][ctx.board]),
    "true": lambda game: (lambda ctx: True),
    "false": lambda game: (lambda ctx: False),
    "none": lambda game: (lambda ctx: None),
}


def left_of(ctx, player):
    players = ctx.state.players
    later = [s for s in players if s > player]
    return PLAYERS[later[0] if later else players[0]]


def right_of(ctx, player):
    players = ctx.state.players
    earlier = [s for s in players if s < player]
    return PLAYERS[earlier[-1] if earlier else players[-1]]


def next_active(ctx, player):
    seat = player
    for _ in range(len(ctx.state.players)):
        seat = left_of(ctx, seat)
        if seat not in ctx.state.finished:
            return seat
    return None


_AFTER = {}  # (occupied seats, seat) -> the players after it: a few per seating, and a seating never changes


def seats_after(ctx, player):
    """The other players clockwise from `player`'s left (a role passing on)."""
    players = ctx.state.players
    key = (players, player)
    found = _AFTER.get(key)
    if found is None:
        later = [s for s in players if s > player]
        earlier = [s for s in players if s < player]
        found = _AFTER[key] = tuple(PLAYERS[s] for s in later + earlier)
    return found


# ---------------------------------------------------------------- charts
def chart_lookup(chart):
    """A step function: the value of the column with the greatest start <= x."""
    columns = sorted(zip((k.low for k in chart.keys), chart.values))
    starts = [low for low, _ in columns]
    values = [value for _, value in columns]
    below = "" if values and isinstance(values[0], str) else 0

    def lookup(x):
        if x is None or not starts or x < starts[0]:
            return below
        index = 0
        for i, start in enumerate(starts):
            if x >= start:
                index = i
        return values[index]
    return lookup


# ------------------------------------------------------------ aggregates
def _fold(name, elements, values):
    if name == "count":
        return len(elements) if values is None else sum(1 for v in values if v)
    if name == "any":
        return bool(elements) if values is None else any(values)
    if name == "all":
        return all(elements if values is None else values)
    if name == "none":
        return not elements if values is None else not any(values)
    data = list(elements if values is None else values)
    if name == "sum":
        return sum(data)
    if name == "distinct":
        return len({v for v in data if v is not None})
    if not data:
        return 0
    return min(data) if name == "min" else max(data)


_LIST_FOLDS = {"count": len, "any": bool, "none": operator.not_, "all": all}  # _fold of a list alone


def compile_aggregate(compiler, node, pairwise):
    found = _aggregate(compiler, node, pairwise)
    if node.func != "sum":
        return found
    span = node.span

    def bounded_sum(ctx):  # a sum of numbers in range may leave it (dsl/limits.py)
        total = found(ctx)
        if type(total) is int and not -MAX_NUMBER <= total <= MAX_NUMBER:
            raise RuleError(out_of_range_message(str(total)), span)
        return total
    return bounded_sum


def _aggregate(compiler, node, pairwise):
    name = node.func
    if pairwise:
        a, b = (compiler.compile(x) for x in node.args)
        pick = min if name == "min" else max
        return lambda ctx: pick(a(ctx), b(ctx))
    first = node.args[0]
    if type(first) is nodes.Comprehension:
        return _comprehension(compiler, name, first)
    fast = fastpaths.cell_aggregate(compiler, name, first, node.args[1] if len(node.args) > 1 else None)
    if fast is not None:
        return fast
    source = compiler.compile(first)
    if len(node.args) == 1:
        fold = _LIST_FOLDS.get(name)
        if fold is not None:
            return lambda ctx: fold(source(ctx))
        return lambda ctx: _fold(name, source(ctx), None)
    body, span, cost = compiler.compile(node.args[1]), node.span, weight(node.args[1])
    settles = _SETTLING.get(name)

    def f(ctx):
        saved = ctx.it
        elements = source(ctx)
        meter = ctx.meter
        meter.left -= len(elements) * cost
        if meter.left < 0:
            meter.over(span)
        values = []
        if settles is None:
            for element in elements:
                ctx.it = element
                values.append(body(ctx))
        else:  # any, all, none stop at the first value that settles them, as `and` and `or` do
            for element in elements:
                ctx.it = element
                value = body(ctx)
                values.append(value)
                if bool(value) is settles:
                    break
        ctx.it = saved
        return _fold(name, elements, values)
    return f


_SETTLING = {"any": True, "none": True, "all": False}  # the truth of a value that settles the fold


def _comprehension(compiler, name, comp):
    source, body, var = compiler.compile(comp.source), compiler.compile(comp.body), comp.var
    span, cost, settles = comp.span, weight(comp.body), _SETTLING.get(name)

    def f(ctx):
        env = ctx.env
        missing = object()
        saved = env.get(var, missing)
        elements = source(ctx)
        meter = ctx.meter
        meter.left -= len(elements) * cost
        if meter.left < 0:
            meter.over(span)
        values = []
        for element in elements:
            env[var] = element
            value = body(ctx)
            values.append(value)
            if settles is not None and bool(value) is settles:
                break  # any, all, none stop at the first value that settles them
        if saved is missing:
            env.pop(var, None)
        else:
            env[var] = saved
        return _fold(name, elements, values)
    return f


# ------------------------------------------------------------- functions
def _subject(ctx, args):
    if args:
        return args[0](ctx)
    return current_cell(ctx)


def cells_about(table, cell):
    """A cell table's entry for a cell (`adjacent(c)`...); for none, no cells."""
    return () if cell is None else table[cell]


def pieces_about(on_boards, cell):
    """What a cell keeps (`held(c)`, `tokens(c)`: a tuple per board and cell); for none, nothing."""
    return () if cell is None else on_boards[cell >> CELL_BITS].get(cell & CELL_MASK, ())


def current_cell(ctx):
    """The cell a bare property or cell function is about: `it` if it is a
    cell (or a piece kind), else `self`."""
    it = ctx.it
    return it if it is not None and type(it) is not Player and type(it) is not tuple else ctx.self_


def compile_function(compiler, name, node, args, kwargs):
    game = compiler.game
    if name in game.cell_tables:  # the cells about a cell; about none, no cells
        table = game.cell_tables[name]
        return lambda ctx: cells_about(table, _subject(ctx, args))
    maker = _FUNCTIONS[name]
    return maker(compiler, node, args, kwargs)


def _groups(compiler, node, args, kwargs):
    table = compiler.game.cell_tables["adjacent"]
    source, span = args[0], node.span

    def f(ctx):
        cells = source(ctx)
        ctx.meter.charge(len(cells), span)
        return _remembered(ctx, _GROUPS, cells, connected_groups, table)
    return f


_GROUPS, _BORDER = object(), object()  # the keys of their results in a state's memo


def _remembered(ctx, key, cells, compute, table):
    """`compute(table, cells)`, remembered in the state's memo while it has one (moves being listed, a
    score worked out: nothing changes the state meanwhile), as definitions are (memo.py): the groups
    and borders of the same cells come up again and again in such rules."""
    memo = ctx.state.memo
    if memo is None:
        return compute(table, cells)
    try:
        found = memo.get((key, cells))
    except TypeError:  # cells that cannot be a key: worked out each time
        return compute(table, cells)
    if found is None:
        found = memo[(key, cells)] = compute(table, cells)
    return found


def connected_groups(table, cells):
    remaining = set(cells)
    groups = []
    for start in sorted(remaining):
        if start not in remaining:
            continue
        remaining.discard(start)
        group, frontier = [start], [start]
        while frontier:
            cell = frontier.pop()
            for n in table[cell]:
                if n in remaining:
                    remaining.discard(n)
                    group.append(n)
                    frontier.append(n)
        groups.append(tuple(sorted(group)))
    return tuple(groups)


def _border(compiler, node, args, kwargs):
    table = compiler.game.cell_tables["adjacent"]
    source = args[0]

    def f(ctx):
        return _remembered(ctx, _BORDER, source(ctx), border_of, table)
    return f


def border_of(table, cells) -> tuple:
    """The cells next to `cells` and not among them, in board order."""
    near = set()
    for cell in cells:  # set.update takes each neighbour tuple whole
        near.update(table[cell])
    near.difference_update(cells)
    return tuple(sorted(near))


def _reaches(compiler, node, args, kwargs):
    table = compiler.game.cell_tables["adjacent"]
    start, targets = args
    via = compiler.compile(kwargs["via"].value) if "via" in kwargs else None

    def f(ctx):
        origin = start(ctx)
        goal = set(targets(ctx))
        allowed = set(via(ctx)) if via is not None else set(ctx.game.board_cells[ctx.board])
        ctx.meter.charge(len(allowed), node.span)
        seen = {origin}
        frontier = [n for n in table[origin] if n in allowed]
        seen.update(frontier)
        while frontier:
            cell = frontier.pop()
            if cell in goal or any(n in goal and n != origin for n in table[cell]):
                return True
            for n in table[cell]:
                if n in allowed and n not in seen:
                    seen.add(n)
                    frontier.append(n)
        return False
    return f


def _distance(compiler, node, args, kwargs):
    grid = compiler.game.grid
    a, b = args
    return lambda ctx: grid.distance(a(ctx) & CELL_MASK, b(ctx) & CELL_MASK)


def _allowed(compiler, node, args, kwargs):
    kind, cell = args
    game = compiler.game

    if compiler.reads_it(node.args[1]):
        return _allowed_here(game, kind)

    def f(ctx):
        rule = game.place_rules.get(kind(ctx))
        if rule is None:
            return True
        saved_self, saved_it = ctx.self_, ctx.it
        ctx.self_, ctx.it = cell(ctx), None
        try:
            return bool(rule(ctx))
        finally:
            ctx.self_, ctx.it = saved_self, saved_it
    return f


def _allowed_here(game, kind):
    """`allowed(k, it)`, as in `cells where allowed(k, it)`: `it` is read in place."""
    def f(ctx):
        rule = game.place_rules.get(kind(ctx))
        if rule is None:
            return True
        saved_self, here = ctx.self_, ctx.it
        ctx.self_, ctx.it = here, None
        try:
            return bool(rule(ctx))
        finally:
            ctx.self_, ctx.it = saved_self, here
    return f


def _can(compiler, node, args, kwargs):
    player, action, span = args[0], node.args[1].id, node.span  # the checker resolved the action's name

    def f(ctx):
        from boardrule.interpreter.runtime.flow import can_move
        who = player(ctx)
        return who is not None and can_move(ctx.game, ctx.state, int(who), action, span)
    return f


def _uses(compiler, node, args, kwargs):
    kind, mark = args[0], node.args[1].id  # the checker resolved the second argument as a mark's name
    return lambda ctx: mark in ctx.game.mark_uses.get(kind(ctx), ())


def _player_fn(fn):
    def make(compiler, node, args, kwargs):
        player = args[0]
        return lambda ctx: fn(ctx, player(ctx))
    return make


def _abs(compiler, node, args, kwargs):
    value = args[0]
    return lambda ctx: abs(value(ctx))


def _cell(compiler, node, args, kwargs):
    name = args[0]
    grid = compiler.game.grid

    def f(ctx):
        try:
            return ctx.board << CELL_BITS | grid.parse_name(name(ctx))
        except (KeyError, ValueError):
            raise RuleError(f"there is no cell named {name(ctx)!r}", node.span) from None
    return f


def _held(compiler, node, args, kwargs):
    if _is_it(compiler, node):  # `held(it)` in a filter: no call to read `it`
        def of_it(ctx):
            cell = ctx.it
            return ctx.state.held[cell >> CELL_BITS].get(cell & CELL_MASK, ())
        return of_it

    def f(ctx):
        return pieces_about(ctx.state.held, _subject(ctx, args))
    return f


def _tokens(compiler, node, args, kwargs):
    if _is_it(compiler, node):
        def of_it(ctx):
            cell = ctx.it
            return ctx.state.tokens[cell >> CELL_BITS].get(cell & CELL_MASK, ())
        return of_it

    def f(ctx):
        return pieces_about(ctx.state.tokens, _subject(ctx, args))
    return f


def _is_it(compiler, node) -> bool:
    """True when a cell function's one argument is `it`."""
    return len(node.args) == 1 and compiler.reads_it(node.args[0])


def _size(compiler, node, args, kwargs):
    """`size(D)`, the cards left in a deck, or `size(S)`, the squares of a shape (the checker allows both)."""
    of = args[0]

    def size(ctx):
        value = of(ctx)
        if isinstance(value, Shape):
            return value.size
        if value not in ctx.state.decks:  # a variable that holds none
            raise RuleError(f"`size` needs a deck or a shape, not {value}", node.span)
        return len(ctx.state.decks[value])
    return size


def _cards(compiler, node, args, kwargs):
    deck = args[0]
    return lambda ctx: tuple(reversed(ctx.state.decks[deck(ctx)]))  # a deck keeps its top card last


def _choose(compiler, node, args, kwargs):
    source = args[0]
    up_to = compiler.compile(kwargs["up_to"].value) if "up_to" in kwargs else None

    def f(ctx):
        items = tuple(source(ctx))
        if up_to is None:
            return Choice(tuple(_as_cells(i) for i in items))
        limit = min(up_to(ctx), len(items))
        options = []
        for size in range(limit + 1):
            options.extend(itertools.combinations(items, size))
            if len(options) > MAX_CHOICE_SUBSETS:
                raise RuleError(f"choose(...) has more than {MAX_CHOICE_SUBSETS} options here", node.span)
        return Choice(options)
    return f


def _as_cells(item):
    return item if isinstance(item, tuple) else (item,)


_FUNCTIONS = {
    "groups": _groups, "border": _border, "reaches": _reaches, "distance": _distance,
    "allowed": _allowed, "uses": _uses, "can": _can,
    "left_of": _player_fn(left_of), "right_of": _player_fn(right_of), "next_active": _player_fn(next_active),
    "seats_after": _player_fn(seats_after),
    "abs": _abs, "cell": _cell, "held": _held, "tokens": _tokens, "size": _size, "cards": _cards,
    "choose": _choose,
    **directions.FUNCTIONS,
    **tiles.FUNCTIONS,
    **lists.FUNCTIONS,
    **shape_functions.FUNCTIONS,
}
