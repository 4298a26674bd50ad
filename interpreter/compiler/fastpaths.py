"""Set operations for the most common filters on cells.

A condition the kind alone decides comes here in one form, `kind in [...]`
(rewrites/kinds.py writes `empty`, `kind == x`, `category == good and not
empty` and the like that way). Such a condition, and one comparing a kind
or an attribute with a value read once per evaluation (`kind == self.kind`,
a piece's own attribute), becomes one test on the board's list of kinds,
instead of a chain of closures per cell. The result is the same; only the
work differs (tests/test_reference.py checks the compiled path against a
plain evaluator).
"""

from __future__ import annotations

import operator
from itertools import compress

from boardrule.dsl.lints import walk
from boardrule.dsl.resolution import (Aggregate, Attr, Define, Function, Global, Local, Option, Pairwise,
                                      PlayerProp, PlayerVar, Prop, Record, RecordKind, Relative, Self, Symbol, Value)
from boardrule.interpreter.compiler.rewrites import kinds
from boardrule.interpreter.runtime.budget import weight
from boardrule.dsl.types import BOOL, CELL, NONE, NUM, STR, SYM, list_of
from boardrule.interpreter.runtime.state import kind_masks
from boardrule.interpreter.runtime.values import CELL_BITS, CELL_MASK
from boardrule.dsl import ast as nodes

CELLS = list_of(CELL)
_SCALARS = (SYM, NUM, STR, BOOL, NONE)  # hashable values a property is compared with
_SUBJECTS = (CELL, SYM)  # a cell, or a piece kind


def kind_predicate(compiler, node):
    """A function `test(kind) -> bool` equivalent to `node` on a cell, or None.

    `kind` is the kind on the cell (None when empty). Only conditions that
    depend on nothing but that kind and read nothing at run time qualify: the
    `Kinds` form of `cell_condition` with fixed members.
    """
    condition = cell_condition(compiler, node)
    if type(condition) is not Kinds or condition.fixed is None:
        return None
    members, outside = condition.fixed
    return (lambda kind: kind not in members) if outside else (lambda kind: kind in members)


_NOT_CONSTANT = object()


def _property_name(resolved, node):
    if type(node) is not nodes.Name:
        return None
    resolution = resolved.find(node, Prop)
    return None if resolution is None else resolution.name


def _constant(resolved, node):
    kind = type(node)
    if kind is nodes.Number:
        return node.value
    if kind is nodes.String:
        return node.value
    if kind is nodes.Name and resolved.get(node) == Symbol(node.id):
        return node.id
    if kind is nodes.Name and resolved.get(node) == Value("none"):
        return None
    return _NOT_CONSTANT


# ------------------------------------------------- conditions on a cell's kind
# A condition on a cell becomes either a set of kinds (the kind alone decides;
# any, none and count are then set operations on the board's list of kinds) or,
# when it also reads attributes a piece may set for itself, one test per cell.
# `(members, outside)`: the condition holds on a kind in `members`, or, when
# `outside`, on a kind not in it (exact even for a kind no piece declares).

class Kinds:
    """The kind alone decides: `fixed` is a constant (members, outside), else `at(ctx)` gives it."""

    __slots__ = ("fixed", "at")

    def __init__(self, fixed=None, at=None):
        self.fixed = fixed
        self.at = at if at is not None else (lambda ctx: fixed)


class CellTest:
    """The cell's own attributes matter too: `make(ctx)` gives a test (kind, own attributes or None) -> bool."""

    __slots__ = ("make",)

    def __init__(self, make):
        self.make = make


def cell_condition(compiler, node):
    """`node`, a condition on the cell `it`, as `Kinds` or `CellTest`, or None when it reads more.

    Values compared with a property are constants, or names read once per
    evaluation (locals, `self`, and a kind or attribute of them).
    """
    if compiler.game.static_attrs is None:
        return None  # shapes are compiled before the pieces
    return _Conditions(compiler).build(node)


def as_test(condition):
    """`ctx -> test(kind, extra)` for either form of condition."""
    if type(condition) is CellTest:
        return condition.make
    if condition.fixed is not None:  # the same test every time: made once
        test = KindTest(*condition.fixed)
        return lambda ctx: test
    at = condition.at
    return lambda ctx: KindTest(*at(ctx))


class KindTest:
    """`test(kind, extra)`: whether a cell's kind is (or, `outside`, is not) one of `members`; with an
    `attribute`, a piece that sets that attribute for itself is judged by its own value instead
    (equal to `value`, or not equal when `outside`). `mask` gives the same test of every cell of a
    board at once, from the board's kind masks (state.kind_masks): a few integer operations."""

    __slots__ = ("members", "outside", "attribute", "value")

    def __init__(self, members, outside, attribute=None, value=None):
        self.members, self.outside, self.attribute, self.value = members, outside, attribute, value

    def __call__(self, kind, extra):
        if self.attribute is not None and kind is not None and extra is not None and self.attribute in extra:
            return (extra[self.attribute] == self.value) != self.outside
        return (kind in self.members) != self.outside

    def mask(self, masks, kinds, attrs) -> int:
        """The cells of a board where the test holds, as a bitmask (bit i for cell i)."""
        found = 0
        for kind in self.members:
            found |= masks.get(kind, 0)
        if self.outside:
            found = ((1 << len(kinds)) - 1) & ~found
        attribute = self.attribute
        if attribute is not None and attrs:
            for index, extra in attrs.items():
                if extra and attribute in extra and kinds[index] is not None:
                    if (extra[attribute] == self.value) != self.outside:
                        found |= 1 << index
                    else:
                        found &= ~(1 << index)
        return found


def _negate(pair):
    return pair[0], not pair[1]


_FLIPPED = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}
_SAFE_READS = ("kind", "empty", "occupied")  # properties that read safely from none, a kind or a cell


class _Conditions:
    def __init__(self, compiler):
        self.compiler = compiler
        self.game = compiler.game
        self.resolved = compiler.resolved

    def build(self, node):
        method = _CONDITION_BUILDERS.get(type(node))
        return None if method is None else method(self, node)

    # ------------------------------------------------------------ structure
    def n_Not(self, node):
        inner = self.build(node.operand)
        if inner is None:
            return None
        if type(inner) is Kinds:
            if inner.fixed is not None:
                return Kinds(_negate(inner.fixed))
            at = inner.at
            return Kinds(at=lambda ctx: _negate(at(ctx)))
        make = inner.make

        def negated(ctx):
            test = make(ctx)
            return lambda kind, extra: not test(kind, extra)
        return CellTest(negated)

    def n_BinOp(self, node):
        if node.op in ("and", "or"):
            return self._logic(node)
        if node.op in _FLIPPED:
            return self._comparison(node)
        return None

    def _logic(self, node):
        left, right = self.build(node.left), self.build(node.right)
        if left is None or right is None:
            return None
        if type(left) is Kinds and type(right) is Kinds:
            combine = kinds.both if node.op == "and" else kinds.either
            if left.fixed is not None and right.fixed is not None:
                return Kinds(combine(left.fixed, right.fixed))
            a, b = left.at, right.at
            return Kinds(at=lambda ctx: combine(a(ctx), b(ctx)))
        make_a, make_b = as_test(left), as_test(right)
        if node.op == "and":
            def make(ctx):
                a, b = make_a(ctx), make_b(ctx)
                return lambda kind, extra: a(kind, extra) and b(kind, extra)
        else:
            def make(ctx):
                a, b = make_a(ctx), make_b(ctx)
                return lambda kind, extra: a(kind, extra) or b(kind, extra)
        return CellTest(make)

    def n_Name(self, node):
        resolution = self.resolved.get(node)
        if resolution is None:
            return None
        kind, name = type(resolution), resolution.name
        if kind is Define and not self.game.defines[name].params:
            return self.build(kinds.in_cell_context(self.game.defines[name].body, self.compiler.facts))
        if kind is Prop and self._per_piece(name):
            game = self.game
            test = lambda kind, extra: bool(_own_value(game, name, kind, extra))  # noqa: E731
            return CellTest(lambda ctx: test)
        return None

    # ----------------------------------------------------------- comparisons
    def _comparison(self, node):
        for prop_side, value_side, op in ((node.left, node.right, node.op),
                                          (node.right, node.left, _FLIPPED[node.op])):
            attribute = _property_name(self.resolved, prop_side)
            if attribute is None:
                continue
            if op not in ("==", "!="):
                return None  # (a static attribute ordered against a literal is a kind set: rewrites/kinds.py)
            value = self._value(value_side)
            if value is None:
                return None
            return self._equality(attribute, value, op == "!=")
        return None

    def _equality(self, attribute, value, negated):
        fixed, read = value
        if attribute == "kind" or self._static(attribute):
            if fixed is not _NOT_CONSTANT:
                return None  # (written as a kind set where it can be one: rewrites/kinds.py)
            cache = {}

            def at(ctx):
                v = read(ctx)
                pair = cache.get(v)
                if pair is None:
                    pair = cache[v] = (self._kinds_with(attribute, v), negated)
                return pair
            return Kinds(at=at)
        if not self._per_piece(attribute):
            return None
        if read is None:
            test = self._own_equality(attribute, fixed, negated)
            return CellTest(lambda ctx: test)
        tests = {}  # by value: a rule compares with few values

        def make(ctx):
            value = read(ctx)
            test = tests.get(value)
            if test is None:
                test = tests[value] = self._own_equality(attribute, value, negated)
            return test
        return CellTest(make)

    def _own_equality(self, attribute, value, negated):
        """A test of `attribute == value` (or !=) on a piece that may set the attribute for itself."""
        return KindTest(self._kinds_with(attribute, value), negated, attribute, value)  # (it judges the empty cell)

    def n_Member(self, node):
        """`kind in [a, b]`, the one form of a condition the kind alone decides (rewrites/kinds.py)."""
        fixed = kinds.kind_set(self.resolved, node)
        return None if fixed is None else Kinds(fixed)

    # -------------------------------------------------------------- values
    def _value(self, node):
        """(constant, None) or (_NOT_CONSTANT, read) for a value that does not change while cells are tested."""
        constant = _constant(self.resolved, node)
        if constant is not _NOT_CONSTANT:
            return constant, None
        if not self._invariant(node) or self.compiler.types.get(node) not in _SCALARS:
            return None
        return _NOT_CONSTANT, self.compiler.compile(node)

    def _invariant(self, node):
        """True for values that neither depend on `it` nor can fail: locals, `self`, their kind or attributes."""
        name = type(node)
        resolution = self.resolved.get(node)
        if resolution is None:
            return False
        if name is nodes.Name:
            return type(resolution) in (Local, Self, Symbol, Record, Global, Option)
        if name is nodes.Attribute and type(resolution) is Attr:
            attribute = resolution.name
            readable = attribute in _SAFE_READS or (attribute in self.game.static_attribute_names
                                                    and attribute not in self.game.mark_names)
            return readable and self.compiler.types.get(node.obj) in _SUBJECTS and self._invariant(node.obj)
        return False

    # ---------------------------------------------------------- attributes
    def _static(self, attribute):
        game = self.game
        return (attribute in game.static_attribute_names and attribute not in game.variable_attributes
                and attribute not in game.mark_names)

    def _per_piece(self, attribute):
        return attribute in self.game.variable_attributes and attribute not in self.game.mark_names

    def _kinds_with(self, attribute, value):
        """The kinds (None for an empty cell) whose declared `attribute` equals `value`."""
        if attribute == "kind":
            return frozenset((value,))
        static = self.game.static_attrs
        found = {kind for kind, attrs in static.items() if attrs.get(attribute) == value}
        if value is None:
            found.add(None)
        return frozenset(found)


#: node class -> the _Conditions method that builds its condition (other classes: no fast path)
_CONDITION_BUILDERS = nodes.methods_by_class(_Conditions, "n_")


def _own_value(game, attribute, kind, extra):
    """A cell's `attribute`, as functions.property_reader reads it."""
    if kind is None:
        return None
    if extra is not None and attribute in extra:
        return extra[attribute]
    return game.static_attrs[kind].get(attribute)


# ------------------------------------------------------ filters and aggregates
def whole_board(compiler, node):
    """`ctx -> board` when `node` is every cell of one board (`cells`, `p.cells`), else None."""
    resolution = compiler.resolved.get(node)
    if type(node) is nodes.Name and resolution == Value("cells"):
        return lambda ctx: ctx.board
    if type(node) is nodes.Attribute and resolution == PlayerProp("cells"):
        if compiler.game.shared_board:
            return lambda ctx: 0
        player = compiler.compile(node.obj)
        return lambda ctx: int(player(ctx))  # a player's board is its seat (Game.board_of_seat)
    return None


def cell_filter(compiler, node, split=True):
    """`cells where kind == x` and the like without a closure call per cell, or None; `split`:
    also `A and B` with A such a test, B run only where A leaves the answer open."""
    if compiler.types.get(node.source) != CELLS:
        return None
    condition = cell_condition(compiler, node.condition)
    if condition is not None:
        return _scan_charged(_filter(compiler, node.source, condition), compiler.game, node.span)
    return (_prefiltered(compiler, node) if split else None) or _near_filter(compiler, node) or _allowed_filter(
        compiler, node)


def _scan_charged(scan, game, span):
    """`scan`, charging the work budget a board's cells per run: it needs no rule per cell,
    but its work grows with the board (budget.py)."""
    cost = game.grid.size

    def charged(ctx):
        meter = ctx.meter
        meter.left -= cost
        if meter.left < 0:
            meter.over(span)
        return scan(ctx)
    return charged


def _filter(compiler, source_node, condition):
    board_of = whole_board(compiler, source_node)
    if type(condition) is Kinds and board_of is not None:
        cells_of, at, fixed = compiler.game.board_cells, condition.at, condition.fixed
        here = compiler.resolved.get(source_node) == Value("cells")  # the current board: read in place

        def on_board(ctx):  # the board's kinds line up with its cells: all in C
            board = ctx.board if here else board_of(ctx)
            members, outside = fixed if fixed is not None else at(ctx)
            kinds = ctx.state.kind[board]
            if not outside and members.isdisjoint(kinds):
                return ()  # most boards hold none of a given kind: one set operation
            hits = map(members.__contains__, kinds)
            return tuple(compress(cells_of[board], map(operator.not_, hits) if outside else hits))
        return on_board
    source = compiler.compile(source_node)
    if type(condition) is Kinds:
        at = condition.at

        def of_kinds(ctx):
            members, outside = at(ctx)
            boards = ctx.state.kind
            return tuple(c for c in source(ctx) if (boards[c >> CELL_BITS][c & CELL_MASK] in members) != outside)
        return of_kinds
    make = as_test(condition)

    def on_cells(ctx):
        test, kinds, attrs = make(ctx), ctx.state.kind, ctx.state.attrs
        return tuple(c for c in source(ctx)
                     if test(kinds[c >> CELL_BITS][c & CELL_MASK], attrs[c >> CELL_BITS].get(c & CELL_MASK)))
    return on_cells


# names whose value is the same for every cell a filter tries (`allowed(k, it)`: the `k`)
_SAME_FOR_EVERY_CELL = (Local, Symbol, Record, RecordKind, Global, PlayerVar, Option)
# names a condition may not read to be judged away from the cell whose rule it is
_NOT_OF_THE_CELL_ALONE = (Self, Define, Function, Relative, Aggregate, Pairwise)


def _near_filter(compiler, node):
    """`CELLS where any(adjacent where C)`, C a test of the neighbour alone (the general form of
    "next to one where C", any cell table in place of `adjacent`): the cells next to one where C
    holds. C is judged once per piece on the board (and once for all the empty cells), and each
    candidate is one set operation instead of a walk of its neighbours."""
    near = neighbour_test(compiler, node.condition)
    if near is None:
        return None
    table_name, make = near
    source, span = compiler.compile(node.source), node.span
    table = compiler.game.cell_tables[table_name]
    masks = _neighbour_masks(table)

    def f(ctx):
        cells = source(ctx)
        _charge(ctx, len(cells), span)
        return _next_to_passing(ctx, cells, make(ctx), table, masks)
    return f


def _allowed_filter(compiler, node):
    """`CELLS where allowed(k, it)`, `k` the same for every cell: a kind's place rule is a condition
    on the cell judged; where it has the form `_near_filter` knows, the cells are filtered that way
    (one rule per kind, worked out once per kind); the other kinds run their rule per cell."""
    call = node.condition
    if (compiler.resolved.get(call) != Function("allowed") or len(call.args) != 2 or call.kwargs
            or not compiler.reads_it(call.args[1]) or type(call.args[0]) is not nodes.Name
            or type(compiler.resolved.get(call.args[0])) not in _SAME_FOR_EVERY_CELL):
        return None
    by_kind, masks_of = {}, {}  # (masks_of: table name -> its masks, worked out once)
    for piece in compiler.game.model.pieces:
        near = neighbour_test(compiler, compiler.rewritten(piece.place)) if piece.place is not None else None
        if near is not None:
            table = compiler.game.cell_tables[near[0]]
            if near[0] not in masks_of:
                masks_of[near[0]] = _neighbour_masks(table)
            by_kind[piece.name] = (table, masks_of[near[0]], near[1])
    if not by_kind:
        return None
    kind_of, source, plain = compiler.compile(call.args[0]), compiler.compile(node.source), compiler.plain_where(node)
    span = node.span

    def f(ctx):
        near = by_kind.get(kind_of(ctx))
        if near is None:
            return plain(ctx)  # a rule of another form: run per cell
        table, masks, make = near
        cells = source(ctx)
        _charge(ctx, len(cells), span)
        return _next_to_passing(ctx, cells, make(ctx), table, masks)
    return f


def any_next_to(resolved, rule):
    """(the cell table's name, C) for `any(T where C)` or `any(T, C)`, T a cell table named bare (of the
    cell judged); else None."""
    if resolved.get(rule) != Aggregate("any") or rule.kwargs or len(rule.args) not in (1, 2):
        return None
    if len(rule.args) == 2:  # (the form rewrites/aggregates.py gives `any(adjacent where C)`)
        table, condition = rule.args
    elif type(rule.args[0]) is nodes.Where:
        table, condition = rule.args[0].source, rule.args[0].condition
    else:
        return None
    source = resolved.find(table, Relative) if type(table) is nodes.Name else None
    return None if source is None else (source.name, condition)


def neighbour_test(compiler, rule):
    """(cell table, maker of `test(kind, extra)`) for a rule `any(adjacent where C)` or `any(adjacent, C)`
    (any cell table named bare, read of the cell judged) whose C tests the neighbour alone; else None."""
    resolved = compiler.resolved
    found = any_next_to(resolved, rule)
    if found is None or found[0] not in compiler.game.cell_tables:
        return None
    table_name, condition = found
    if any(type(resolved.get(n)) in _NOT_OF_THE_CELL_ALONE for n in walk(condition)):
        return None
    found = cell_condition(compiler, condition)
    return None if found is None else (table_name, as_test(found))


def _charge(ctx, units, span):
    meter = ctx.meter
    meter.left -= units
    if meter.left < 0:
        meter.over(span)


def _neighbour_masks(table) -> dict | None:
    """cell -> the cells of `table[cell]` as a bitmask of its board's cells (a list where the table is
    one, indexed by cell); None if a cell's related cells lie on another board (the masks are of one
    board)."""
    out = {}
    for cell, related in (table.items() if isinstance(table, dict) else enumerate(table)):
        mask = 0
        for other in related:
            if other >> CELL_BITS != cell >> CELL_BITS:
                return None
            mask |= 1 << (other & CELL_MASK)
        out[cell] = mask
    return out if isinstance(table, dict) else [out[cell] for cell in range(len(table))]


def _next_to_passing(ctx, cells, test, table, masks) -> tuple:
    """The cells of `cells` with a cell of `table[cell]` where `test` holds (`masks`: the table as
    `_neighbour_masks` gives it, or None, for a test that can judge a whole board as a mask)."""
    if masks is not None and type(test) is KindTest:
        return _next_to_mask(ctx.state, cells, test, masks)
    kinds, attrs = ctx.state.kind, ctx.state.attrs
    passing = {}  # board -> its cells where the test holds
    out = []
    for cell in cells:
        board = cell >> CELL_BITS
        hits = passing.get(board)
        if hits is None:
            hits = passing[board] = _passing_cells(test, kinds[board], attrs[board], board << CELL_BITS)
        if not hits.isdisjoint(table[cell]):
            out.append(cell)
    return tuple(out)


def _next_to_mask(state, cells, test, masks) -> tuple:
    """`_next_to_passing` for a KindTest: the board's passing cells as one mask, a bit test per cell."""
    if not cells:
        return ()
    board = min(cells) >> CELL_BITS
    if max(cells) >> CELL_BITS == board:  # the cells of one board (most filters): one mask, no lookups
        hits = test.mask(kind_masks(state, board), state.kind[board], state.attrs[board])
        return tuple([cell for cell in cells if masks[cell] & hits])
    passing = {}  # board -> the mask of its cells where the test holds
    out = []
    for cell in cells:
        board = cell >> CELL_BITS
        hits = passing.get(board)
        if hits is None:
            hits = passing[board] = test.mask(kind_masks(state, board), state.kind[board], state.attrs[board])
        if masks[cell] & hits:
            out.append(cell)
    return tuple(out)


def _passing_cells(test, kinds, attrs, base) -> set:
    """The cells of a board where `test(kind, extra)` holds: each piece is tested, the empty
    cells without attributes are judged once together."""
    own, every = attrs.get, range(len(kinds))
    hits = {base | i for i in compress(every, kinds) if test(kinds[i], own(i))}  # kinds are names: true
    if test(None, None):
        hits.update(base | i for i in compress(every, map(operator.not_, kinds)) if i not in attrs)
    hits.update(base | i for i, extra in attrs.items() if kinds[i] is None and test(None, extra))
    return hits


def _prefiltered(compiler, node):
    """`A and B`, `A or B` with A a test of the cell alone: B runs only on the cells A leaves undecided."""
    condition = node.condition
    if type(condition) is not nodes.BinOp or condition.op not in ("and", "or"):
        return None
    first = cell_condition(compiler, condition.left)
    if first is None:
        return None
    source, make, rest = compiler.compile(node.source), as_test(first), compiler.compile(condition.right)
    decides = condition.op == "or"  # the value of A that settles `A op B` without B
    cost, span = weight(condition.right), node.span

    def f(ctx):
        test, kinds, attrs = make(ctx), ctx.state.kind, ctx.state.attrs
        saved = ctx.it
        out = []
        cells = source(ctx)
        meter = ctx.meter
        meter.left -= len(cells) * cost
        if meter.left < 0:
            meter.over(span)
        for cell in cells:
            board, index = cell >> CELL_BITS, cell & CELL_MASK
            if test(kinds[board][index], attrs[board].get(index)) == decides:
                if decides:
                    out.append(cell)
                continue
            ctx.it = cell
            if rest(ctx):
                out.append(cell)
        ctx.it = saved
        return tuple(out)
    return f


def _any_kind(members, outside, kinds):
    return not (members.issuperset(kinds) if outside else members.isdisjoint(kinds))


def _count_kind(members, outside, kinds):
    inside = sum(map(members.__contains__, kinds))
    return len(kinds) - inside if outside else inside


_KIND_FOLDS = {  # name -> (members, outside, kinds) -> value
    "any": _any_kind,
    "none": lambda members, outside, kinds: not _any_kind(members, outside, kinds),
    "all": lambda members, outside, kinds: members.isdisjoint(kinds) if outside else members.issuperset(kinds),
    "count": _count_kind,
}
_TEST_FOLDS = {  # name -> (map of the test over the cells) -> value; tests give booleans
    "any": any, "none": lambda hits: not any(hits), "all": all, "count": sum,
}


def cell_aggregate(compiler, name, source_node, body_node):
    """any/none/count of a filter of cells, or any/none/all/count of cells with a body,
    when the condition reads only the cells: set operations on the board's kinds, or None."""
    if name not in _KIND_FOLDS:
        return None
    if body_node is None:
        source_node = _through_defines(compiler, source_node)
        if type(source_node) is not nodes.Where or name == "all":  # all(list) tests the cells themselves
            return None
        source_node, body_node = source_node.source, source_node.condition
    if compiler.types.get(source_node) != CELLS:
        return None
    condition = cell_condition(compiler, body_node)
    if condition is None:
        return None
    board_of = whole_board(compiler, source_node)
    source = None if board_of is not None else compiler.compile(source_node)
    if type(condition) is Kinds:
        if condition.fixed is not None and board_of is not None:
            found = _fixed_kind_aggregate(name, condition.fixed, source_node, compiler, board_of)
        else:
            found = _kind_aggregate(_KIND_FOLDS[name], condition.at, board_of, source)
    else:
        found = _test_aggregate(name, condition.make, board_of, source)
    return _scan_charged(found, compiler.game, source_node.span)


def _fixed_kind_aggregate(name, fixed, source_node, compiler, board_of):
    """`any(cells where kind == k)` and the like, with constant kinds: one set operation on the
    board's kinds, read without a call when the board is the current one (`cells`)."""
    members, outside = fixed
    if name in ("any", "none") and not outside:
        disjoint = members.isdisjoint
        if compiler.resolved.get(source_node) == Value("cells"):
            if name == "any":
                return lambda ctx: not disjoint(ctx.state.kind[ctx.board])
            return lambda ctx: disjoint(ctx.state.kind[ctx.board])
        if name == "any":  # `any(p.cells where kind == k)`
            return lambda ctx: not disjoint(ctx.state.kind[board_of(ctx)])
        return lambda ctx: disjoint(ctx.state.kind[board_of(ctx)])
    fold = _KIND_FOLDS[name]
    return lambda ctx: fold(members, outside, ctx.state.kind[board_of(ctx)])


def _kind_aggregate(fold, at, board_of, source):
    if board_of is not None:
        return lambda ctx: fold(*at(ctx), ctx.state.kind[board_of(ctx)])

    def on_cells(ctx):
        boards = ctx.state.kind
        return fold(*at(ctx), [boards[c >> CELL_BITS][c & CELL_MASK] for c in source(ctx)])
    return on_cells


def _test_aggregate(name, make, board_of, source):
    if board_of is not None:
        fold = _TEST_FOLDS[name]

        def on_board(ctx):
            board = board_of(ctx)
            kinds, own = ctx.state.kind[board], ctx.state.attrs[board].get
            return fold(map(make(ctx), kinds, map(own, range(len(kinds)))))
        return on_board
    if name == "count":
        return lambda ctx: _count_passing(make(ctx), ctx.state, source(ctx))
    wanted = name != "all"  # the test result that settles any/none (a pass) or all (a failure)
    settled = name == "any"
    return lambda ctx: settled if _some_cell(make(ctx), ctx.state, source(ctx), wanted) else not settled


def _some_cell(test, state, cells, wanted):
    """True when the test gives `wanted` on one of `cells` (they may lie on several boards)."""
    kinds, attrs = state.kind, state.attrs
    for cell in cells:
        board, index = cell >> CELL_BITS, cell & CELL_MASK
        if test(kinds[board][index], attrs[board].get(index)) is wanted:
            return True
    return False


def _count_passing(test, state, cells):
    kinds, attrs, passing = state.kind, state.attrs, 0
    for cell in cells:
        board, index = cell >> CELL_BITS, cell & CELL_MASK
        if test(kinds[board][index], attrs[board].get(index)):
            passing += 1
    return passing


def _through_defines(compiler, node):
    """The body of a definition without parameters that `node` names (`banks`), else `node`."""
    while type(node) is nodes.Name and type(compiler.resolved.get(node)) is Define:
        define = compiler.game.defines[compiler.resolved[node].name]
        if define.params:
            break
        node = define.body
    return node
