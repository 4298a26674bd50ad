"""The generated loops: filters, aggregates, the cells they run over, and uses of definitions.

A filter or an aggregate with a body becomes a Python comprehension whose
variable holds `it` for its body (a local of the generated function, never
the context's `it`):

* `S where C` -> `tuple([e for e in charged(ctx, S, cost, span) if C])`;
* `any(S, B)` -> `any(B for e in ...)`, and so `all`, `none`, `count`
  (`sum(1 for e in ... if B)`), `sum`, `min`, `max`, `distinct`; with no
  body, the fold of the list itself; `any`, `all` and `none` stop at the
  first element that decides, as `and` and `or` do.
* `charged` spends the work budget for the whole loop at once (budget.py), as
  the closures do.

While `it` is a cell sure to be one (an element of `cells`, of a region, of
a cell table such as `adjacent` or `column(c)`), its kind, `empty`,
`occupied`, `x`, `y` and `order` are read in place from the state and the
grid's tables, and `adjacent` and the other cell tables are one index. Any
other property is read by its reader, called with the local `it`.

A use of a definition with parameters is written out in place when its
body is small, else it calls the definition's own generated function,
`definition(ctx, a0, a1...)`, with the arguments as Python values (one
function per definition and per which arguments are sure cells). A
comprehension (`any(B for x in L)`) is a Python generator whose variable is
a local too.

A node generated as a closure call inside a loop that may read `it` is
called with the context's `it` set to the local one (`with_it`), so
closures and generated code always agree on what `it` is; a closure that
reads generated locals (parameters, `let` names, comprehension variables)
is called with them put in the context's locals (`with_locals`).
"""

from __future__ import annotations

import ast as py

import attrs

from boardrule.dsl.builtins import CELL_KEYWORDS, FUNCTIONS
from boardrule.dsl.lints import walk
from boardrule.dsl.limits import MAX_NUMBER, out_of_range_message
from boardrule.dsl.resolution import (Aggregate, Attr, Define, EventAttr, Function, It, Local, Pairwise, PlayerVar,
                                      Prop, Region, Relative, Rule, Value)
from boardrule.dsl.types import CELL, list_of
from boardrule.interpreter.compiler import fastpaths, functions, shape_functions
from boardrule.interpreter.runtime.budget import weight
from boardrule.interpreter.runtime.values import CELL_BITS, CELL_MASK, Player, RuleError
from boardrule.dsl import ast as nodes

CELLS = list_of(CELL)
#: the cell tables a cell's name reads (`adjacent`, `column(c)`): each entry a tuple of cells
CELL_TABLES = ("adjacent", "surrounding", "row", "column")
#: the values that are tuples of cells of the current board
_BOARD_CELLS = ("cells", "edge", "corners", "all_corners", "center")
_FOLDS = ("any", "all", "none", "count", "sum", "min", "max", "distinct")
_UNSET = object()


# ------------------------------------------------------------------ helpers the generated code calls
def _charged(ctx, elements, cost, span):
    """The elements of a loop, its whole cost spent from the work budget first."""
    meter = ctx.meter
    meter.left -= len(elements) * cost
    if meter.left < 0:
        meter.over(span)
    return elements


def _variables_of_me(ctx):
    """The variables of the player a rule runs for (None with no state or no such player: reading
    one then fails where the rule reads it, as it would unhoisted)."""
    state, me = ctx.state, ctx.me
    if state is None or me is None or not 0 <= me < len(state.pvars):
        return None
    return state.pvars[me]


def _board_kinds(ctx, board):
    """One board's kinds, or None for a rule worked out with no state (it then reads no board)."""
    state = ctx.state
    return None if state is None else state.kind[board]


def _boards_kinds(ctx):
    state = ctx.state
    return None if state is None else state.kind


def _with_it(ctx, it, closure):
    """A closure run with the context's `it` set to a generated loop's element."""
    saved = ctx.it
    ctx.it = it
    try:
        return closure(ctx)
    finally:
        ctx.it = saved


def _with_locals(ctx, names, values, closure):
    """A closure run with generated locals it reads (a definition's parameters, a `let` name, a
    comprehension's variable) put in the context's locals, the caller's restored after."""
    env = ctx.env
    get = env.get
    saved = [get(n, _UNSET) for n in names]
    for name, value in zip(names, values):
        env[name] = value
    try:
        return closure(ctx)
    finally:
        for name, value in zip(names, saved):
            if value is _UNSET:
                del env[name]
            else:
                env[name] = value


def _with_local(ctx, name, value, closure):
    """`_with_locals` for one name (the common case: a comprehension's variable, a parameter)."""
    env = ctx.env
    saved = env.get(name, _UNSET)
    env[name] = value
    try:
        return closure(ctx)
    finally:
        if saved is _UNSET:
            del env[name]
        else:
            env[name] = saved


def _with_it_and_locals(ctx, it, names, values, closure):
    """`_with_locals` with the context's `it` set to a generated loop's element too."""
    saved = ctx.it
    ctx.it = it
    try:
        return _with_locals(ctx, names, values, closure)
    finally:
        ctx.it = saved


def _property_of(ctx, it, read):
    """A bare property of a loop's element that is no sure cell: of `self` where `it` is no
    cell or piece kind (functions.current_cell)."""
    if it is None or type(it) is Player or type(it) is tuple:
        it = ctx.self_
    return read(ctx, it)


def _bounded_sum(total, span):
    if type(total) is int and not -MAX_NUMBER <= total <= MAX_NUMBER:
        raise RuleError(out_of_range_message(str(total)), span)
    return total


def _least(values):
    return min(values) if values else 0


def _most(values):
    return max(values) if values else 0


def _distinct(values):
    return len({v for v in values if v is not None})


HELPERS = {"charged": _charged, "board_kinds": _board_kinds, "variables_of_me": _variables_of_me, "boards_kinds": _boards_kinds,
           "property_of": _property_of, "with_it": _with_it, "with_locals": _with_locals, "with_local": _with_local,
           "with_it_and_locals": _with_it_and_locals, "bounded_sum": _bounded_sum, "least": _least, "most": _most,
           "distinct": _distinct, "h_any": any, "h_all": all, "h_sum": sum, "h_len": len, "h_tuple": tuple,
           "h_min": min, "h_max": max}


def _load(name: str) -> py.Name:
    return py.Name(id=name, ctx=py.Load())


def _call(name: str, *args) -> py.Call:
    return py.Call(func=_load(name), args=list(args), keywords=[])


class Scope:
    """A generated loop's element: the local that holds `it`, whether it is surely a cell, and
    whether a closure in the loop's body reads the context's `it` (then the loop is a closure too)."""

    __slots__ = ("name", "cell", "handed")

    def __init__(self, name: str, cell: bool):
        self.name, self.cell, self.handed = name, cell, False


class LoopGeneration:
    """The loop-making half of codegen.RuleFunction (see the module's docstring)."""

    # -------------------------------------------------------------- `it` and the closures
    def current_scope(self):
        return self.scopes[-1] if self.scopes else None

    def reads_context_it(self, node) -> bool:
        """True when the closure of `node` may read the context's `it`: `it` itself, a bare
        property or cell table, a cell function without its cell, or a definition whose body
        reads it, outside the bodies that bind `it` anew (a filter's condition, an aggregate's
        body, a keyword's value)."""
        return _reads_it(self.compiler, node, self.compiler.reads_it_of)

    def closure_call(self, closure, node) -> py.expr:
        """A call of a closure; inside a loop, with the context's `it` set first if it may read it;
        with the generated locals it reads (parameters, `let` names) put in the context's locals."""
        read = self.closure_locals(node)
        scope = self.current_scope()
        if scope is not None and self.reads_context_it(node):
            scope.handed = True
            if read:
                return _call("with_it_and_locals", _load("ctx"), _load(scope.name), *self.bindings(read),
                             self.constant(closure))
            return _call("with_it", _load("ctx"), _load(scope.name), self.constant(closure))
        if len(read) == 1:
            (name, value), = read.items()
            return _call("with_local", _load("ctx"), py.Constant(name), value, self.constant(closure))
        if read:
            return _call("with_locals", _load("ctx"), *self.bindings(read), self.constant(closure))
        return py.Call(func=self.constant(closure), args=[_load("ctx")], keywords=[])

    def bindings(self, read: dict):
        """(the names, the tuple of their generated values) of the locals a closure reads."""
        names = tuple(read)
        return self.constant(names, "p"), py.Tuple(elts=[read[n] for n in names], ctx=py.Load())

    def it_value(self) -> py.expr:
        scope = self.current_scope()
        return _attr(_load("ctx"), "it") if scope is None else _load(scope.name)

    # -------------------------------------------------------------- loops
    def sure_cells(self, node) -> bool:
        """True when every element of `node`'s value is a cell (an int), never `none`."""
        return sure_cell_list(self.compiler.resolved, node, self.compiler.game.defines)

    def loop(self, source, body):
        """(the element's local, its iterable, the body generated with `it` that local)."""
        self.iterables += 1
        try:
            elements = self.expr(source)
        finally:
            self.iterables -= 1
        name = self.temporary("e")
        scope = Scope(name, self.sure_cells(source))
        self.scopes.append(scope)
        try:
            value = self.expr(body)
        finally:
            self.scopes.pop()
        if scope.handed:  # a closure per element reads the context's `it`: the closure's loop sets it
            return None
        charged = _call("charged", _load("ctx"), elements, py.Constant(weight(body)), self.constant(body.span, "s"))
        return name, charged, value

    def g_Where(self, node):
        listed = self.board_list(node)  # a whole board's cells from a mask (codegen_masks.py)
        if listed is not None:
            return listed
        by_sets = fastpaths.cell_filter(self.compiler, node, split=False)  # a generated `and` splits
        if by_sets is not None:
            return self.closure_call(by_sets, node)
        indexed = self.indexed_list(node)  # a fixed list's cells at one position (codegen_index.py)
        if indexed is not None:
            return indexed
        made = self.loop(node.source, node.condition)
        if made is None:
            return self.fallback(node)
        name, elements, condition = made
        listed = py.ListComp(elt=_load(name), generators=[_for(name, elements, [condition])])
        return _call("h_tuple", listed)

    def aggregate(self, node, func):
        args = node.args
        if func not in _FOLDS:
            return None
        if type(args[0]) is nodes.Comprehension:
            return self.comprehension_fold(func, args[0])
        masked = self.aggregate_mask(func, args, node.span)
        if masked is not None:
            return masked
        by_sets = fastpaths.cell_aggregate(self.compiler, func, args[0], args[1] if len(args) > 1 else None)
        if by_sets is not None:
            return self.closure_call(by_sets, node)
        if len(args) == 1:  # (`count(L where C)` and the like come as `count(L, C)`: rewrites/aggregates.py)
            listed = self.expr(args[0])
            counted = self.ray_count(listed) if func == "count" else None
            return self.fold_of_list(func, listed, node) if counted is None else counted
        made = self.loop(args[0], args[1])
        if made is None:
            return None
        name, elements, body = made
        if func in ("any", "all", "none"):
            truths = py.GeneratorExp(elt=body, generators=[_for(name, elements, [])])
            decided = _call("h_all" if func == "all" else "h_any", truths)
            return py.UnaryOp(op=py.Not(), operand=decided) if func == "none" else decided
        if func == "count":
            return _call("h_sum", py.GeneratorExp(elt=py.Constant(1), generators=[_for(name, elements, [body])]))
        values = py.ListComp(elt=body, generators=[_for(name, elements, [])])
        return self.fold_of_values(func, values, node)

    def comprehension_fold(self, func, comp):
        """`any(B for x in L)` and the other folds of a comprehension: a Python generator whose
        variable is a local of the generated code (the body reads it as that local)."""
        self.iterables += 1
        try:
            elements = self.expr(comp.source)
        finally:
            self.iterables -= 1
        name = self.temporary("x")
        outer = self.locals
        self.locals = {**outer, comp.var: (_load(name), self.sure_cells(comp.source))}
        try:
            body = self.expr(comp.body)
        finally:
            self.locals = outer
        charged = _call("charged", _load("ctx"), elements, py.Constant(weight(comp.body)),
                        self.constant(comp.span, "s"))
        if func in ("any", "all", "none"):
            decided = _call("h_all" if func == "all" else "h_any", py.GeneratorExp(elt=body, generators=[
                _for(name, charged, [])]))
            return py.UnaryOp(op=py.Not(), operand=decided) if func == "none" else decided
        if func == "count":
            return _call("h_sum", py.GeneratorExp(elt=py.Constant(1), generators=[_for(name, charged, [body])]))
        values = py.ListComp(elt=body, generators=[_for(name, charged, [])])
        return self.fold_of_values(func, values, comp)

    def fold_of_list(self, func, elements, node):
        """An aggregate of a list alone (no body): its elements are the values."""
        if func == "count":
            return _call("h_len", elements)
        if func in ("any", "none"):
            held = py.Compare(left=_call("h_len", elements), ops=[py.Gt()], comparators=[py.Constant(0)])
            return py.UnaryOp(op=py.Not(), operand=held) if func == "none" else held
        if func == "all":
            return _call("h_all", elements)
        return self.fold_of_values(func, elements, node)

    def fold_of_values(self, func, values, node):
        if func == "sum":
            return _call("bounded_sum", _call("h_sum", values), self.constant(node.span, "s"))
        return _call({"min": "least", "max": "most", "distinct": "distinct"}[func], values)

    def pairwise(self, node, func):
        return _call("h_min" if func == "min" else "h_max", *(self.expr(a) for a in node.args))

    def element_lambda(self, condition):
        """`lambda e: C`, `e` the element a helper hands the condition (a sure cell, its `it`); None
        where a closure in C would read the context's `it` (then the caller's closure runs)."""
        name = self.temporary("e")
        scope = Scope(name, True)
        self.scopes.append(scope)
        try:
            body = self.expr(condition)
        finally:
            self.scopes.pop()
        if scope.handed:
            return None
        arguments = py.arguments(posonlyargs=[], args=[py.arg(arg=name)], vararg=None, kwonlyargs=[],
                                 kw_defaults=[], kwarg=None, defaults=[])
        return py.Lambda(args=arguments, body=body)

    # -------------------------------------------------------------- cells
    def cell_parts(self, cell: py.expr):
        """(board, index) of an encoded cell (values.py); on a game of one board, a cell is its index."""
        if self.compiler.game.boards == 1:
            return py.Constant(0), cell
        return (py.BinOp(left=cell, op=py.RShift(), right=py.Constant(CELL_BITS)),
                py.BinOp(left=cell, op=py.BitAnd(), right=py.Constant(CELL_MASK)))

    def cell_property(self, cell: py.expr, name: str, sure: bool):
        """Property `name` of the cell `cell` holds: in place for a sure cell, else by its reader."""
        if sure and name in ("kind", "empty", "occupied"):
            kind = self.kind_on(cell)
            if name == "kind":
                return kind
            return py.Compare(left=kind, ops=[py.Is() if name == "empty" else py.IsNot()],
                              comparators=[py.Constant(None)])
        grid = self.compiler.game.grid
        if sure and name in ("x", "y", "order"):
            index = self.cell_parts(cell)[1]
            if name == "order":
                return self.cannot_fail(index)
            table = tuple(grid.col(i) if name == "x" else grid.row(i) for i in range(max(grid.cells) + 1))
            return self.cannot_fail(py.Subscript(value=self.constant(table, "g"), slice=index, ctx=py.Load()))
        if sure:
            attribute = self.attribute_in_place(cell, name)
            if attribute is not None:
                return attribute
        reader = functions.property_reader(self.compiler.game, name)
        return py.Call(func=self.constant(reader), args=[_load("ctx"), cell], keywords=[])

    def attribute_in_place(self, cell: py.expr, name: str):
        """Attribute `name` of the piece on a sure cell read in place, when only the kinds give it (a
        table read) or only the pieces do (the piece's own values); None for any other."""
        game = self.compiler.game
        source = functions.attribute_source(game, name)
        if source == "kinds":
            table = self.constant(functions.attribute_by_kind(game, name), "g")
            return self.cannot_fail(py.Subscript(value=table, slice=self.kind_on(cell), ctx=py.Load()))
        if source != "pieces":
            return None
        board, index = self.cell_parts(cell)
        own = py.Subscript(value=_attr(_attr(_load("ctx"), "state"), "attrs"), slice=board, ctx=py.Load())
        values = py.Call(func=_attr(own, "get"), args=[index, self.constant(functions.NO_ATTRIBUTES, "g")],
                         keywords=[])
        read = py.Call(func=_attr(values, "get"), args=[py.Constant(name)], keywords=[])
        empty = py.Compare(left=self.kind_on(cell), ops=[py.Is()], comparators=[py.Constant(None)])
        return self.cannot_fail(py.IfExp(test=empty, body=py.Constant(None), orelse=read))

    def kind_on(self, cell: py.expr) -> py.expr:
        """The kind on a sure cell: `ctx.state.kind[board][index]`; inside a loop, from the boards'
        kinds read once at the function's start (on a game of one board, that board's list)."""
        if not self.scopes:
            board, index = self.cell_parts(cell)
            boards = _attr(_attr(_load("ctx"), "state"), "kind")
            return self.cannot_fail(py.Subscript(value=py.Subscript(value=boards, slice=board, ctx=py.Load()),
                                                 slice=index, ctx=py.Load()))
        if self.compiler.game.boards == 1:  # a cell of board 0 is its index
            kinds = self.hoisted("kinds_one", _call("board_kinds", _load("ctx"), py.Constant(0)))
            return self.cannot_fail(py.Subscript(value=kinds, slice=cell, ctx=py.Load()))
        board, index = self.cell_parts(cell)
        boards = self.hoisted("kinds_all", _call("boards_kinds", _load("ctx")))
        return self.cannot_fail(py.Subscript(value=py.Subscript(value=boards, slice=board, ctx=py.Load()),
                                             slice=index, ctx=py.Load()))

    def cell_table(self, cell: py.expr, name: str, sure: bool):
        """`adjacent(c)`, `column(c)`...: one index for a sure cell; no cells for none."""
        table = self.constant(self.compiler.game.cell_tables[name], "g")
        if not sure:
            return py.Call(func=self.constant(functions.cells_about), args=[table, cell], keywords=[])
        return self.cannot_fail(py.Subscript(value=table, slice=cell, ctx=py.Load()))

    def pieces_on(self, cell: py.expr, name: str, sure: bool):
        """`held(c)`, `tokens(c)`: what the piece on a cell holds, or the tokens there (a tuple;
        nothing for none)."""
        on_boards = _attr(_attr(_load("ctx"), "state"), name)
        if not sure:
            return py.Call(func=self.constant(functions.pieces_about), args=[on_boards, cell], keywords=[])
        board, index = self.cell_parts(cell)
        on_board = py.Subscript(value=on_boards, slice=board, ctx=py.Load())
        return py.Call(func=_attr(on_board, "get"), args=[index, py.Tuple(elts=[], ctx=py.Load())], keywords=[])

    def bare_cell_name(self, node, what, name):
        """`empty`, `kind`, `adjacent`... of the loop's cell, or None where `it` is no sure cell."""
        scope = self.current_scope()
        if scope is not None and not scope.cell and what is Prop:  # `it` a piece kind, or maybe none
            reader = functions.property_reader(self.compiler.game, name)
            return _call("property_of", _load("ctx"), _load(scope.name), self.constant(reader))
        if scope is None or not scope.cell:
            return None
        if what is Prop:
            return self.cell_property(_load(scope.name), name, True)
        if what is Relative and name in CELL_TABLES:
            return self.cell_table(_load(scope.name), name, True)
        return None

    def player_variable(self, player: py.expr, name: str) -> py.expr:
        """A player's variable; inside a loop, the acting player's table of variables is read once,
        at the function's start (a rule changes no variable)."""
        in_loop = bool(self.scopes) or self.iterables > 0 or bool(self.locals)
        if in_loop and isinstance(player, py.Attribute) and player.attr == "me" and isinstance(player.value, py.Name):
            variables = self.hoisted("vars_me", _call("variables_of_me", _load("ctx")))
        else:
            variables = py.Subscript(value=_attr(_attr(_load("ctx"), "state"), "pvars"), slice=player,
                                     ctx=py.Load())
        return py.Subscript(value=variables, slice=py.Constant(name), ctx=py.Load())

    def g_Attribute(self, node):
        found = self.compiler.resolved[node]
        kind, name = type(found), found.name
        game, subject = self.compiler.game, self.expr(node.obj)
        if kind is Attr:  # a cell's property or a piece's attribute: its reader takes either
            return self.cell_property(subject, name, self.sure_cell_value(node.obj))
        if kind is PlayerVar:
            return self.player_variable(subject, name)
        if kind is EventAttr:
            return py.Call(func=_attr(subject, "get"), args=[py.Constant(name)], keywords=[])
        if kind is Rule:  # `c.points`: the rule of the piece on that cell (it sets its own `it`)
            reader = functions.rule_reader(game, name, node.span)
        else:
            reader = functions.PLAYER_PROPERTIES[name]
        return py.Call(func=self.constant(reader), args=[_load("ctx"), subject], keywords=[])

    def written_out(self, node, name):
        """A use of a definition with its body generated in place, each parameter a Python value
        (a local or a literal); None when the definition is not small enough or an argument is not
        that simple (its generated function is called then)."""
        compiler = self.compiler
        if not compiler.inlinable(name):
            return None
        values = [self.expr(a) for a in node.args]
        if not all(_simple(v) for v in values):
            return None
        define = compiler.game.defines[name]
        outer = self.locals
        self.locals = {param: (value, self.sure_cell_value(arg)) for param, value, arg in
                       zip(define.params, values, node.args)}
        try:
            return self.expr(define.body)
        finally:
            self.locals = outer

    def sure_cell_value(self, node) -> bool:
        """True when `node` is `it` of a loop over sure cells, or a parameter given one."""
        if type(node) is not nodes.Name:
            return False
        resolution = self.compiler.resolved.get(node)
        scope = self.current_scope()
        if resolution == It():
            return scope is not None and scope.cell
        if type(resolution) is not Local:
            return False
        if resolution.name in self.locals:
            return self.locals[resolution.name][1]
        return resolution.name in self.compiler.sure_locals  # a move's parameter whose values are cells

    def local_value(self, name):
        """A parameter of a definition written out here, or None."""
        found = self.locals.get(name)
        return None if found is None else found[0]

    def closure_locals(self, node) -> dict:
        """The generated locals (a written-out definition's parameters, `let` names, comprehension
        variables) that the closure of `node` reads: name -> its generated value."""
        if not self.locals:
            return {}
        read = {}
        for inner in walk(node):
            resolution = self.compiler.resolved.find(inner, Local) if type(inner) is nodes.Name else None
            if resolution is not None and resolution.name in self.locals:
                read[resolution.name] = self.locals[resolution.name][0]
        return read

    def g_Call(self, node):
        found = self.compiler.resolved[node]
        kind, name = type(found), found.name
        made = None
        if kind is Aggregate:
            made = self.aggregate(node, name)
        elif kind is Pairwise:
            made = self.pairwise(node, name)
        elif kind is Define and self.compiler.game.defines[name].params:
            made = self.definition_use(node, name)
        elif kind is Function and name in CELL_TABLES and len(node.args) == 1:
            made = self.cell_table(self.expr(node.args[0]), name, self.sure_cell_value(node.args[0]))
        elif kind is Function and name in ("step", "ray", "opposite"):
            made = self.direction_call(node, name)
        elif kind is Function and name == "fits":
            made = self.fits_mask(node)
        elif kind is Function and name == "matches":
            made = self.pattern_matches(node)
        elif kind is Function and name in ("held", "tokens") and node.args:
            made = self.pieces_on(self.expr(node.args[0]), name, self.sure_cell_value(node.args[0]))
        return self.fallback(node) if made is None else made

    def pattern_matches(self, node):
        """`matches(SHAPE, options)`: the shape generated, handed to the call's matcher (shape_functions.py);
        None (its closure) when an option reads a generated local or the context's `it` (the matcher's
        options are closures: they would not see them)."""
        for keyword in node.kwargs:
            value = keyword.value
            if self.closure_locals(value) or (keyword.name not in CELL_KEYWORDS and self.reads_context_it(value)):
                return None
        match = shape_functions.matcher(self.compiler, node, {k.name: k for k in node.kwargs})
        return py.Call(func=self.constant(match, "m"), args=[_load("ctx"), self.expr(node.args[0])], keywords=[])

    def definition_use(self, node, name):
        """A use of a definition with parameters: written out in place when it is small
        (`written_out`), else a call of its generated function with the arguments as Python values
        (a parameter given `it` too: the closures read it in place, generated code hands it over)."""
        remembered = self.compiler.remembered_use(node, name)
        inline = None if remembered else self.written_out(node, name)
        if inline is not None:
            return inline
        scope = self.current_scope()
        if scope is not None and _definition_reads_it(self.compiler, name, self.compiler.reads_it_of):
            scope.handed = True  # the body reads the context's `it`: the loop is to set it (the
            # arguments are generated here, each with the loop's own `it`)
        sures = tuple(self.sure_cell_value(a) for a in node.args)
        function = self.compiler.definition_function(name, sures, remembered)
        return py.Call(func=self.constant(function, "d"), args=[_load("ctx"), *(self.expr(a) for a in node.args)],
                       keywords=[])


def sure_cell_list(resolved, node, defines=None) -> bool:
    """True when every element of `node`'s value is a cell (an int), never `none`: the board's cells,
    a region, a cell table, any filter of them, and a definition whose body is one (`defines`: the
    pack's definitions by name)."""
    kind = type(node)
    if kind is nodes.Where:
        return sure_cell_list(resolved, node.source, defines)
    resolution = resolved.get(node)
    if resolution is None:
        return False
    what, name = type(resolution), resolution.name
    if what is Define and defines is not None:
        return sure_cell_list(resolved, defines[name].body, None)  # one level: no chain is followed
    if kind is nodes.Name:
        return what is Region or what is Value and name in _BOARD_CELLS or (
            what is Relative and name in CELL_TABLES)
    return kind is nodes.Call and what is Function and name in CELL_TABLES and len(node.args) == 1


def _reads_it(compiler, node, definitions) -> bool:
    kind = type(node)
    if kind is tuple:
        return any(_reads_it(compiler, n, definitions) for n in node)
    if not attrs.has(type(node)):
        return False
    resolution = compiler.resolved.get(node) if kind in (nodes.Name, nodes.Call) else None
    if kind is nodes.Name:
        if compiler.reads_it(node):
            return True
        what = type(resolution)
        if what is Define:
            return _definition_reads_it(compiler, resolution.name, definitions)
        return what in (Prop, Rule, Relative)
    if kind is nodes.Where:
        return _reads_it(compiler, node.source, definitions)  # the condition has its own `it`
    if kind is nodes.Keyword:  # an option judged per cell has its own `it` (`ray(..., while = empty)`)
        return node.name not in CELL_KEYWORDS and _reads_it(compiler, node.value, definitions)
    if kind is nodes.Call and resolution is not None:
        what, name = type(resolution), resolution.name
        if what is Aggregate and len(node.args) == 2:
            return _reads_it(compiler, node.args[0], definitions)  # the body has its own `it`
        if what is Function and name in FUNCTIONS and FUNCTIONS[name].optional and not node.args:
            return True  # a cell function without its cell is about `it`
        if what is Define and _definition_reads_it(compiler, name, definitions):
            return True
    return any(_reads_it(compiler, getattr(node, f.name), definitions)
               for f in attrs.fields(type(node)) if f.name != "span")


def _definition_reads_it(compiler, name, definitions) -> bool:
    if name not in definitions:
        definitions[name] = True  # (a definition reached again while being judged: said True)
        definitions[name] = _reads_it(compiler, compiler.game.defines[name].body, definitions)
    return definitions[name]


def _simple(value: py.expr) -> bool:
    """An argument that may be read more than once: a local or a literal."""
    return isinstance(value, (py.Name, py.Constant))


def _for(name, elements, conditions):
    return py.comprehension(target=py.Name(id=name, ctx=py.Store()), iter=elements, ifs=conditions, is_async=0)


def _attr(value, name):
    return py.Attribute(value=value, attr=name, ctx=py.Load())
