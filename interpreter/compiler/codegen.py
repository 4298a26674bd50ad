"""Generate a Python function for a rule from its checked tree (jinja-style code generation).

A rule's expression becomes one function `rule(ctx)` whose body is the whole
expression written out: arithmetic, comparisons, boolean logic, conditions,
membership, the names that read the context or the state, filters and
aggregates (as Python comprehensions whose element, `it`, is a local of the
generated code), the properties of cells and the cell tables
(`adjacent`, `column(c)`...), and the uses of definitions. A node this
generator does not write yet (a chart, a shape function...) is compiled by
the closure compiler (exprs.py) and called from the generated code as one of
its constants; inside a filter, with the context's `it` set to the local one
first. So every rule runs, and the generated share grows node kind by node
kind. Each node kind is generated one way, here, in codegen_loops.py
(filters, aggregates, comprehensions, cells and definitions) or in
codegen_directions.py (steps and rays); no fast path lives in these
modules.

Everything the generator makes is a Python syntax tree built from the checked
tree: pack names enter only as typed constants (a variable's name is a
string key), and interpreter/compiler/pycode.py validates the tree against its
whitelist and compiles it. The semantics are the closure compiler's, node by
node (the reference evaluator checks both, tests/test_reference.py).

    >>> from boardrule.interpreter.api import evaluate, new_game, open_game
    >>> game = open_game("tictactoe")
    >>> evaluate(game, new_game(game, 2), "1 + 2 * 3 == 7 and not (2 > 3)")[0]
    True
"""

from __future__ import annotations

import ast as py
import copy
import operator

from boardrule.dsl import ast as nodes
from boardrule.dsl.limits import MAX_NUMBER, out_of_range_message
from boardrule.dsl.resolution import (Aggregate, Deck, Define, Direction, Global, Local, Option, PlayerVar, Prop, Record,
                                      RecordKind, Region, Relative, Self, Shape, Symbol, SymbolSet, Value)
from boardrule.dsl.types import NUM
from boardrule.interpreter.compiler import budget_checks, hoisting, lowering, pycode, truth
from boardrule.interpreter.compiler import codegen_directions
from boardrule.interpreter.compiler.codegen_directions import DirectionGeneration
from boardrule.interpreter.compiler.codegen_index import IndexGeneration
from boardrule.interpreter.compiler.codegen_loops import HELPERS, LoopGeneration
from boardrule.interpreter.compiler.codegen_masks import HELPERS as MASK_HELPERS, MaskGeneration
from boardrule.interpreter.compiler.rewrites.tree import NOT_LITERAL, literal_value
from boardrule.interpreter.runtime.budget import weight
from boardrule.interpreter.runtime.after import is_repeated
from boardrule.interpreter.runtime.state import player_to_move
from boardrule.interpreter.runtime.values import RuleError

#: a root worth a function of its own: a node that combines others (a lone name stays a closure)
ROOTS = frozenset({nodes.BinOp, nodes.Not, nodes.Negate, nodes.Conditional, nodes.Member, nodes.Where, nodes.Call,
                   nodes.Attribute})
_ARITHMETIC = {"+": py.Add, "-": py.Sub, "*": py.Mult}
_ORDERED = {"<": py.Lt, "<=": py.LtE, ">": py.Gt, ">=": py.GtE}
_CONSTANT_NAMES = {Value("true"): True, Value("false"): False, Value("none"): None}
#: the regions every grid has (grids.py), read by name as values
_BUILT_IN_REGIONS = frozenset(Value(name) for name in ("edge", "corners", "all_corners", "center"))
#: a name's resolution class -> its value, the same for the whole game (exprs.py reads them alike)
_GAME_TABLES = {
    SymbolSet: lambda game, name: game.symbol_sets[name],
    RecordKind: lambda game, name: game.record_kinds[name],
    Shape: lambda game, name: game.shapes[name],
}
_GAME_VALUES = {Value("kinds"): lambda game: game.kind_names, Value("directions"): lambda game: game.direction_names}


def _load(name: str) -> py.Name:
    return py.Name(id=name, ctx=py.Load())


def _attr(value: py.expr, name: str) -> py.Attribute:
    return py.Attribute(value=value, attr=name, ctx=py.Load())


def _item(value: py.expr, key) -> py.Subscript:
    return py.Subscript(value=value, slice=key if isinstance(key, py.AST) else py.Constant(key), ctx=py.Load())


def _out_of_range(value, span):
    raise RuleError(out_of_range_message(str(value)), span)


def _division(dividend, divisor, span):
    if divisor == 0:
        raise RuleError("division by zero", span)
    return dividend // divisor


def _remainder(dividend, divisor, span):
    if divisor == 0:
        raise RuleError("division by zero", span)
    return dividend % divisor


class RuleFunction(LoopGeneration, DirectionGeneration, MaskGeneration, IndexGeneration):
    """The generation of one rule: its expression, its constants, its temporaries and its loops."""

    def __init__(self, compiler):
        self.compiler = compiler
        self.constants = {"out_of_range": _out_of_range, "divide": _division, "remainder": _remainder, **HELPERS,
                          **codegen_directions.HELPERS, **MASK_HELPERS}
        self.temporaries = 0
        self.scopes = []  # the loops being generated, innermost last (codegen_loops.Scope)
        self.iterables = 0  # > 0 while generating what a loop runs over
        self.locals = {}  # parameter -> (its value, sure to be a cell) of a definition written out here
        self.numbers = {}  # `let` name -> the local holding it, when that is never `none` (never_none)
        self.prologue = {}  # local -> the value the function works out once, before its loops need it
        self.mask_reads = {}  # (masks' local, kind) -> the local holding that kind's mask (codegen_masks.py)
        self.safe = {}  # id -> a read written here that cannot fail (hoisting.py may move it from anywhere)
        self.plain_lists = set()  # locals whose list only the function iterates and counts (lowering.py)

    def constant(self, value, prefix="k") -> py.Name:
        """A value (a closure, a span) the generated code reads by a generated name."""
        name = f"{prefix}{len(self.constants)}"
        self.constants[name] = value
        return _load(name)

    def hoisted(self, name: str, value: py.expr) -> py.Name:
        """A value read by loops, worked out once at the function's start into the local `name`
        (what a rule reads of the state does not change while the rule runs)."""
        self.prologue.setdefault(name, value)
        return _load(name)

    def prologue_statements(self) -> list:
        return [py.Assign(targets=[py.Name(id=name, ctx=py.Store())], value=value)
                for name, value in self.prologue.items()]

    def cannot_fail(self, read: py.expr) -> py.expr:
        """`read`, noted as one that cannot fail (a sure cell's kind, attribute, coordinates or cell
        table, a table per board, the round: the state and the grid's tables are there whenever a rule
        reads a board); kept alive, so its id is never another node's."""
        self.safe[id(read)] = read
        return read

    def finished(self, statements: list) -> list:
        """The function's statements with the bools of tested values left out (truth.py), their loops'
        invariant parts worked out once (hoisting.py), the filters kept in locals written as
        statements (lowering.py) and the budget checks that code which cannot fail follows put off to
        the next charge (budget_checks.py)."""
        for statement in statements:
            truth.test_truths(statement)
        lowered = lowering.lower_filters(hoisting.hoist_invariants(statements, self.constants, self.safe),
                                         self.constants, self.plain_lists)
        return budget_checks.put_off_checks(lowered)

    def temporary(self, prefix="t") -> str:
        self.temporaries += 1
        return f"{prefix}{self.temporaries}"

    # ------------------------------------------------------------------ nodes
    def expr(self, node) -> py.expr:
        """`node` written out by its class's `g_` method (GENERATORS); any other class is its closure."""
        generate_node = GENERATORS.get(type(node))
        if generate_node is None:
            return self.fallback(node)
        return generate_node(self, node)

    def fallback(self, node) -> py.expr:
        """A node this module does not write: its closure, called with the context."""
        return self.closure_call(self.compiler.compile_closure(node), node)

    def g_Number(self, node):
        if type(node.value) is not int:  # an exact number (dsl/exact.py) is no Python constant: its closure gives it
            return self.fallback(node)
        return py.Constant(node.value)

    def g_String(self, node):
        return py.Constant(node.value)

    def g_Name(self, node):
        compiler = self.compiler
        resolution = compiler.resolved[node]
        ctx = _load("ctx")
        if compiler.reads_it(node):  # a parameter read as `it` is never inside a loop (exprs._parameter_reads)
            return self.it_value()
        kind, detail = type(resolution), resolution.name
        if kind in (Prop, Relative):
            inline = self.bare_cell_name(node, kind, detail)
            return self.fallback(node) if inline is None else inline
        if resolution in _CONSTANT_NAMES:
            return py.Constant(_CONSTANT_NAMES[resolution])
        if kind is Self:
            return _attr(ctx, "self_")
        if resolution == Value("me"):
            return _attr(ctx, "me")
        if resolution == Value("to_move"):  # the state's open decision (runtime/state.py)
            return py.Call(func=self.constant(player_to_move, "h"), args=[_attr(ctx, "state")], keywords=[])
        if resolution == Value("repeated"):  # the boards against the positions kept (runtime/after.py)
            return py.Call(func=self.constant(is_repeated, "h"), args=[_attr(ctx, "state")], keywords=[])
        fixed = self.game_name(resolution)
        if fixed is not None:
            return fixed
        if kind is Local:
            value = self.local_value(detail)
            return _item(_attr(ctx, "env"), detail) if value is None else value
        if kind is Global:
            return _item(_attr(_attr(ctx, "state"), "vars"), detail)
        if kind is PlayerVar:
            return self.player_variable(_attr(ctx, "me"), detail)
        if kind is Option:
            return _item(_attr(_attr(ctx, "state"), "options"), detail)
        return self.fallback(node)

    def game_name(self, resolution):
        """A name whose value the game fixes (a kind, a region, a symbol set...), or the round; None
        for any other."""
        game, kind, name = self.compiler.game, type(resolution), resolution.name
        if resolution == Value("cells"):  # the current board's cells
            return self.board_table(game.board_cells)
        if kind is Region or resolution in _BUILT_IN_REGIONS:  # its cells on the current board
            return self.board_table(game.regions[name])
        if resolution == Value("round"):
            return self.cannot_fail(_attr(_attr(_load("ctx"), "state"), "round"))
        if kind in (Symbol, Direction, Record, Deck):  # a direction, a record, a deck is its name (directions.py)
            return py.Constant(name)
        if kind in _GAME_TABLES:  # the same for the whole game: one constant
            return self.constant(_GAME_TABLES[kind](game, name), "g")
        if resolution in _GAME_VALUES:
            return self.constant(_GAME_VALUES[resolution](game), "g")
        return None

    def board_table(self, table) -> py.expr:
        """The entry of a table per board (the cells of a region, of the board) for the current board."""
        return self.cannot_fail(_item(self.constant(table, "g"), _attr(_load("ctx"), "board")))

    def g_BinOp(self, node):
        op = node.op
        if op in ("and", "or"):  # a truth value either way, as the closures give
            test = py.BoolOp(op=py.And() if op == "and" else py.Or(),
                             values=[self.expr(node.left), self.expr(node.right)])
            return py.IfExp(test=test, body=py.Constant(True), orelse=py.Constant(False))
        if op in _ARITHMETIC:
            return self.arithmetic(node)
        if op in ("/", "%"):
            helper = "divide" if op == "/" else "remainder"
            return py.Call(func=_load(helper), args=[self.expr(node.left), self.expr(node.right),
                                                     self.constant(node.span, "s")], keywords=[])
        if op in _ORDERED:
            return self.ordered(node)
        compare = py.Eq() if op == "==" else py.NotEq()
        return py.Compare(left=self.expr(node.left), ops=[compare], comparators=[self.expr(node.right)])

    def arithmetic(self, node):
        """`+ - *`; a number out of the range of numbers (dsl/limits.py) stops the rule."""
        value = py.BinOp(left=self.expr(node.left), op=_ARITHMETIC[node.op](), right=self.expr(node.right))
        if self.compiler.types.get(node) != NUM:
            return self.bounded_any(value, node)  # lists are added too: only a number is bounded
        if node in self.compiler.facts.in_range:  # it cannot leave the range (rewrites/bounds.py)
            return value
        if self.iterables:  # no `:=` in a loop's iterable: worked out twice when that is cheap, else a helper
            if not (_cheap(value.left) and _cheap(value.right)):
                return self.bounded_any(value, node)
            inside = py.Compare(left=py.Constant(-MAX_NUMBER), ops=[py.LtE(), py.LtE()],
                                comparators=[value, py.Constant(MAX_NUMBER)])
            return py.IfExp(test=inside, body=copy.deepcopy(value), orelse=py.Call(
                func=_load("out_of_range"), args=[copy.deepcopy(value), self.constant(node.span, "s")], keywords=[]))
        name = self.temporary()
        held = py.NamedExpr(target=py.Name(id=name, ctx=py.Store()), value=value)
        inside = py.Compare(left=py.Constant(-MAX_NUMBER), ops=[py.LtE(), py.LtE()],
                            comparators=[held, py.Constant(MAX_NUMBER)])
        return py.IfExp(test=inside, body=_load(name), orelse=py.Call(
            func=_load("out_of_range"), args=[_load(name), self.constant(node.span, "s")], keywords=[]))

    def bounded_any(self, value, node):
        return py.Call(func=self.constant(_bounded_value), args=[value, self.constant(node.span, "s")], keywords=[])

    def ordered(self, node):
        """`< <= > >=`: `none` is not ordered, so a missing value never compares (False)."""
        if self.iterables:  # Python allows no `:=` in a loop's iterable: a helper holds the two sides,
            left, right = self.expr(node.left), self.expr(node.right)  # or they are read twice when cheap
            if not (_cheap(left) and _cheap(right)):
                return py.Call(func=self.constant(_ORDERED_HELPERS[node.op]), args=[left, right], keywords=[])
            tests = [py.Compare(left=value, ops=[py.Is()], comparators=[py.Constant(None)])
                     for value, side in ((left, node.left), (right, node.right)) if self.may_be_none(value, side)]
            compare = py.Compare(left=copy.deepcopy(left), ops=[_ORDERED[node.op]()],
                                 comparators=[copy.deepcopy(right)])
            if not tests:
                return compare
            missing = tests[0] if len(tests) == 1 else py.BoolOp(op=py.Or(), values=tests)
            return py.IfExp(test=missing, body=py.Constant(False), orelse=compare)
        sides, tests = [], []
        for side in (node.left, node.right):
            value = self.expr(side)
            if not self.may_be_none(value, side):
                sides.append(value)
                continue
            name = self.temporary()
            held = py.NamedExpr(target=py.Name(id=name, ctx=py.Store()), value=value)
            tests.append(py.Compare(left=held, ops=[py.Is()], comparators=[py.Constant(None)]))
            sides.append(_load(name))
        compare = py.Compare(left=sides[0], ops=[_ORDERED[node.op]()], comparators=[sides[1]])
        if not tests:
            return compare
        missing = tests[0] if len(tests) == 1 else py.BoolOp(op=py.Or(), values=tests)
        return py.IfExp(test=missing, body=py.Constant(False), orelse=compare)

    def may_be_none(self, value: py.expr, node) -> bool:
        """False for a side of a comparison that is a literal other than `none`, or never `none`."""
        return not ((type(value) is py.Constant and value.value is not None) or self.never_none(node))

    def never_none(self, node, depth: int = 0) -> bool:
        """True for a number worked out by arithmetic or counted, directly, as the body of a definition
        used or held by a `let` name: it is a number or the rule stops, never `none`."""
        kind = type(node)
        if kind is nodes.BinOp:
            return node.op in ("+", "-", "*", "/", "%") and self.compiler.types.get(node) == NUM
        resolution = self.compiler.resolved.get(node)
        if kind is nodes.Call and resolution == Aggregate("count"):
            return True
        if kind is nodes.Call and depth < 8 and type(resolution) is Define:
            return self.never_none(self.compiler.game.defines[node.func].body, depth + 1)
        if kind is nodes.Name and type(resolution) is Local:  # a `let` name held by its local (not one shadowing it)
            held = self.locals.get(resolution.name)
            return held is not None and held[0] is self.numbers.get(resolution.name)
        return False

    def g_Not(self, node):
        return py.UnaryOp(op=py.Not(), operand=self.expr(node.operand))

    def g_Negate(self, node):
        return py.UnaryOp(op=py.USub(), operand=self.expr(node.operand))

    def g_Let(self, node):
        """`let n = V in B`: V held in a local of the function, B generated with `n` that local:
        `((t := V) or True) and B` (a closure in B that reads `n` gets it through `with_locals`). In a
        loop's iterable (no `:=` there), the whole `let` is its closure."""
        if self.iterables:
            return self.fallback(node)
        name = self.temporary("v")
        held = py.NamedExpr(target=py.Name(id=name, ctx=py.Store()), value=self.expr(node.value))
        outer, numbers = self.locals, self.numbers
        local = _load(name)
        self.locals = {**outer, node.name: (local, False)}
        if self.never_none(node.value):
            self.numbers = {**numbers, node.name: local}
        try:
            body = self.expr(node.body)
        finally:
            self.locals, self.numbers = outer, numbers
        return py.BoolOp(op=py.And(), values=[py.BoolOp(op=py.Or(), values=[held, py.Constant(True)]), body])

    def g_Conditional(self, node):
        return py.IfExp(test=self.expr(node.condition), body=self.expr(node.then), orelse=self.expr(node.otherwise))

    def g_ListExpr(self, node):
        """A list of literals (`[north, south]`, `kind in [a, b]`) is one constant; any other a tuple of
        its items, worked out in order."""
        values = [literal_value(self.compiler.resolved, item) for item in node.items]
        if NOT_LITERAL in values:
            return py.Tuple(elts=[self.expr(item) for item in node.items], ctx=py.Load())
        return self.constant(tuple(values), "g")

    def g_Member(self, node):
        container = node.container
        if type(container) is nodes.ListExpr and len(container.items) == 1:  # `kind in [none]`: one test
            value = literal_value(self.compiler.resolved, container.items[0])
            if value is None or type(value) is str:
                op = (py.IsNot() if node.negated else py.Is()) if value is None else (
                    py.NotEq() if node.negated else py.Eq())
                return py.Compare(left=self.expr(node.item), ops=[op], comparators=[py.Constant(value)])
        op = py.NotIn() if node.negated else py.In()
        return py.Compare(left=self.expr(node.item), ops=[op], comparators=[self.expr(node.container)])


#: node class -> the method that writes it out; the classes not here are called as compiled closures
GENERATORS = nodes.methods_by_class(RuleFunction, "g_")


def _cheap(value: py.expr) -> bool:
    """A value read again at no real cost and with no effect: a name, a literal, an item of one, a
    cell's number on its board."""
    kind = type(value)
    if kind in (py.Name, py.Constant):
        return True
    if kind is py.Subscript:
        return _cheap(value.value) and _cheap(value.slice)
    if kind is py.BinOp and type(value.op) in (py.BitAnd, py.RShift):
        return _cheap(value.left) and _cheap(value.right)
    return False


def _ordered_helper(compare):
    def ordered(left, right):
        return False if left is None or right is None else compare(left, right)
    return ordered


_ORDERED_HELPERS = {op: _ordered_helper(compare) for op, compare in
                    (("<", operator.lt), ("<=", operator.le), (">", operator.gt), (">=", operator.ge))}


def _bounded_value(value, span):
    if type(value) is int and not -MAX_NUMBER <= value <= MAX_NUMBER:
        raise RuleError(out_of_range_message(str(value)), span)
    return value


def generate_definition(compiler, name, sures, charged):
    """The function `definition(ctx, a0, a1...)` of a definition with parameters, its body generated
    with each parameter a Python argument (`sures`: which are sure to be cells); `charged`: it
    spends its body's weight of the work budget at each use (a chain of definitions that branches)."""
    define = compiler.game.defines[name]
    rule = RuleFunction(compiler)
    args = [f"a{index}" for index in range(len(define.params))]
    rule.locals = {param: (_load(arg), sure) for param, arg, sure in zip(define.params, args, sures)}
    value = rule.expr(define.body)
    body = rule.prologue_statements() + (_charge(rule, define.body) if charged else [])
    body.append(py.Return(value=value))
    return pycode.make_function("definition", ["ctx", *args], rule.finished(body), rule.constants)


def _charge(rule, node) -> list:
    """`ctx.meter.left -= cost`, and `ctx.meter.over(span)` once it is spent (budget.py)."""
    meter = _attr(_load("ctx"), "meter")
    spend = py.AugAssign(target=py.Attribute(value=meter, attr="left", ctx=py.Store()), op=py.Sub(),
                         value=py.Constant(weight(node)))
    spent = py.Compare(left=_attr(meter, "left"), ops=[py.Lt()], comparators=[py.Constant(0)])
    over = py.Expr(value=py.Call(func=_attr(meter, "over"), args=[rule.constant(node.span, "s")], keywords=[]))
    return [spend, py.If(test=spent, body=[over], orelse=[])]


def generate(compiler, node):
    """`ctx -> value` for `node`, generated as one function (see the module's docstring)."""
    rule = RuleFunction(compiler)
    value = rule.expr(node)
    if _closure_alone(value):  # nothing written out: the closure itself, without a frame around it
        return rule.constants[value.func.id]
    body = rule.prologue_statements() + [py.Return(value=value)]
    return pycode.make_function("rule", ["ctx"], rule.finished(body), rule.constants)


def _closure_alone(value) -> bool:
    """True when generated code would only call one closure with the context."""
    return (isinstance(value, py.Call) and isinstance(value.func, py.Name) and value.func.id.startswith("k")
            and len(value.args) == 1 and isinstance(value.args[0], py.Name) and value.args[0].id == "ctx")
