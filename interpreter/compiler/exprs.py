"""Compile checked expressions into Python closures `f(ctx) -> value`.

Every name was resolved by the checker; here each resolution becomes the
cheapest closure that reads it. Aggregates and filters bind `it` (or a named
local) while their body runs and restore it afterwards.
"""

from __future__ import annotations

import operator

import attrs

from boardrule.dsl import ast
from boardrule.dsl.limits import MAX_NUMBER, out_of_range_message
from boardrule.dsl.lints import walk
from boardrule.dsl.resolution import (ActionName, Aggregate, Deck, Define, Die, Direction, EventAttr, Family, Global,
                                      It, Local, MarkName, Option, Pairwise, PlayerProp, PlayerVar, Prop, Record,
                                      RecordKind, Region, Relative, Rule, Self, Shape, Symbol, SymbolSet, Value)
from boardrule.interpreter.compiler import codegen, fastpaths, functions, lists, memo, per_game, rewrites
from boardrule.interpreter.compiler.rewrites.tree import NOT_LITERAL, literal_value
from boardrule.interpreter.runtime.budget import weight
from boardrule.interpreter.runtime.values import RuleError

MAX_RANGE = 10_000
GENERATE = True  # rules are generated as Python functions (codegen.py); False: closures only (to compare)
BINARY = {"+": operator.add, "-": operator.sub, "*": operator.mul,
          "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
          ">": operator.gt, ">=": operator.ge}


class ExprCompiler:
    """Turns AST expressions into closures, using the checker's resolutions."""

    def __init__(self, game, checked):
        self.game = game
        earlier = game.facts  # what the compiler of the game found, for a compiler made later (api.evaluate)
        self.facts = rewrites.Facts(game, checked.resolved, checked.types, () if earlier is None else earlier.in_range)
        self.resolved = self.facts.resolved
        self.types = self.facts.types
        self._rewritten: dict = {}  # id of a node -> (the node, the node after the rewrite passes)
        self._it_reads = frozenset()  # ids of parameter names read as `it` (see _define_call)
        # each definition body is compiled once per way of reading its parameters,
        # so compiling grows with the pack, not with the paths through its definitions
        self._bodies: dict = {}
        self._remembers: dict = {}  # definition -> whether it is remembered per state
        self._fixed: dict = {}
        self.reads_it_of: dict = {}  # definition -> whether its body reads the caller's `it` (codegen_loops)
        # (id of a fixed table of cells, a position) -> (the table, its cells grouped by it) (codegen_index.py)
        self.position_indexes: dict = {}
        # the move parameters, read from the context's locals, whose values are sure to be cells (the
        # action being compiled: its parameters' lists and `when`, game._actions)
        self.sure_locals = frozenset()

    def reads_it(self, node) -> bool:
        """True when `node` is `it`, or a definition's parameter given `it` and read as it."""
        return self.resolved.get(node) == It() or id(node) in self._it_reads

    def compile(self, node):
        """`ctx -> value` for an expression, after the rewrite passes (rewrites/): a generated function
        where the node combines others (codegen.py), the closure of its kind otherwise."""
        node = self.rewritten(node)
        if GENERATE and type(node) in codegen.ROOTS:
            return codegen.generate(self, node)
        return self.compile_closure(node)

    def rewritten(self, node):
        """`node` after the rewrite passes, worked out once: the parts of a rewritten tree are taken
        as they are when they are compiled in turn."""
        found = self._rewritten.get(id(node))
        if found is not None and found[0] is node:
            return found[1]
        new = rewrites.rewrite(node, self.facts)
        for inner in walk(new):
            self._rewritten[id(inner)] = (inner, inner)
        self._rewritten[id(node)] = (node, new)
        return new

    def compile_closure(self, node):
        return _CLOSURE_COMPILERS[type(node)](self, node)

    # -------------------------------------------------------------- atoms
    def c_Number(self, node):
        value = node.value
        return lambda ctx: value

    c_String = c_Number

    def c_ListExpr(self, node):
        constants = [literal_value(self.resolved, i) for i in node.items]
        if NOT_LITERAL not in constants:  # `[north, south]`, `[1, 2]`: built once
            fixed = tuple(constants)
            return lambda ctx: fixed
        items = [self.compile(i) for i in node.items]
        if len(items) == 1:  # `[leader]`, `[my_card]`: no generator for one item
            only, = items
            return lambda ctx: (only(ctx),)
        return lambda ctx: tuple([f(ctx) for f in items])

    def c_Range(self, node):
        low, high = self.compile(node.low), self.compile(node.high)

        def f(ctx):
            start, end = low(ctx), high(ctx)
            if end - start >= MAX_RANGE:
                raise RuleError(f"the range {start}..{end} has more than {MAX_RANGE} numbers", node.span)
            return tuple(range(start, end + 1))
        return f

    def c_Name(self, node):
        found = self.resolved[node]
        return _NAME_COMPILERS[type(found)](self, found.name, node)

    def name_local(self, name, node):
        if id(node) in self._it_reads:
            return self.name_it(None, node)
        return lambda ctx: ctx.env[name]

    def name_it(self, _, node):
        return lambda ctx: ctx.it

    def name_self(self, _, node):
        return lambda ctx: ctx.self_

    def name_prop(self, name, node):
        return functions.current_reader(self.game, name)

    def name_mark(self, name, node):  # the name of a mark, as `uses` takes it
        return lambda ctx: name

    def name_action(self, name, node):  # the name of an action, as `can` takes it
        return lambda ctx: name

    def name_rule(self, name, node):
        return functions.current_rule_reader(self.game, name, node.span)

    def name_relative(self, name, node):
        table = self.game.cell_tables[name]
        current = functions.current_cell

        def f(ctx):
            it = ctx.it  # a cell while filtering cells, none in a piece rule: skip current_cell's checks
            if type(it) is int:
                return table[it]
            return table[ctx.self_] if it is None else table[current(ctx)]
        return f

    def name_global(self, name, node):
        return lambda ctx: ctx.state.vars[name]

    def name_player_var(self, name, node):
        return lambda ctx: ctx.state.pvars[ctx.me][name]

    def name_option(self, name, node):
        return lambda ctx: ctx.state.options[name]

    def name_region(self, name, node):
        tables = self.game.regions[name]
        return lambda ctx: tables[ctx.board]

    def name_die(self, name, node):
        if name in self.game.shape_dice:
            shapes = self.game.shapes
            return lambda ctx: shapes.get(ctx.state.dice.get(name))
        return lambda ctx: ctx.state.dice.get(name)

    def name_deck(self, name, node):
        return lambda ctx: name

    def name_shape(self, name, node):
        shape = self.game.shapes[name]
        return lambda ctx: shape

    def name_symset(self, name, node):
        values = self.game.symbol_sets[name]
        return lambda ctx: values

    def name_symbol(self, name, node):
        return lambda ctx: name

    name_record = name_symbol  # a record is its id; its fields are in game.named_fields

    def name_record_kind(self, name, node):  # a kind of record: its records, in the order declared
        records = self.game.record_kinds[name]
        return lambda ctx: records

    name_direction = name_symbol  # a direction is its name (directions.py)

    def name_define(self, name, node):
        return self._whole_definition(name)

    def _whole_definition(self, name):
        """A definition without parameters: its body itself (nothing to bind, no frame per use),
        worked out once per game when it reads nothing a move can change (per_game.py)."""
        key = (name, None)
        if key not in self._bodies:
            body = self._definition_body(name, frozenset())
            if per_game.is_fixed_per_game(self.game, self.resolved, name, self._fixed):
                body = per_game.remembered_per_game(body)
            self._bodies[key] = body
        return self._bodies[key]

    def _definition_body(self, name, it_reads):
        key = (name, it_reads)
        if key not in self._bodies:
            define = self.game.defines[name]
            body = self._body(define.body, it_reads)
            if _calls_definitions(define.body, self.resolved):  # a chain of these can branch: each use counts
                body = _charged(body, define.body.span, weight(define.body))
            if not define.params and self.remembers(name):  # once per state (memo.py)
                body = memo.remembered(name, body)
            self._bodies[key] = body
        return self._bodies[key]

    def name_value(self, name, node):
        return functions.VALUE_READERS[name](self.game)

    # ---------------------------------------------------------- structure
    def c_Attribute(self, node):
        obj = self.compile(node.obj)
        found = self.resolved[node]
        kind, name = type(found), found.name
        if kind is PlayerVar:
            return lambda ctx: ctx.state.pvars[obj(ctx)][name]
        if kind is EventAttr:
            return lambda ctx: obj(ctx).get(name)
        if kind is Rule:  # `c.points`: the rule of the piece on that cell
            read_rule = functions.rule_reader(self.game, name, node.span)
            return lambda ctx: read_rule(ctx, obj(ctx))
        if kind is PlayerProp:
            read = functions.PLAYER_PROPERTIES[name]
            if self.reads_it(node.obj):  # `players where not it.finished`
                return lambda ctx: read(ctx, ctx.it)
            return lambda ctx: read(ctx, obj(ctx))
        read = functions.property_reader(self.game, name)
        if functions.is_declared_attribute(self.game, name):  # `k.pattern` of a piece kind: read in place
            static, nothing = self.game.named_fields, functions.NO_ATTRIBUTES  # a kind's attribute, a record's field
            local = self._plain_local(node.obj)
            if local is not None:  # `k.pattern`, `k` a parameter: read without a call
                def local_attribute(ctx):
                    subject = ctx.env[local]
                    if type(subject) is str:
                        return static.get(subject, nothing).get(name)
                    return read(ctx, subject)
                return local_attribute

            def attribute(ctx):
                subject = obj(ctx)
                if type(subject) is str:
                    return static.get(subject, nothing).get(name)
                return read(ctx, subject)
            return attribute
        return lambda ctx: read(ctx, obj(ctx))

    def c_Index(self, node):
        if isinstance(node.index, ast.Range):
            return self.slice(node)
        obj, index = self.compile(node.obj), self.compile(node.index)
        at = literal_value(self.resolved, node.index)
        if type(at) is int and at >= 0:  # `hand[0]`: the index bound once
            def item(ctx):
                items = obj(ctx)
                if at >= len(items):
                    raise RuleError(f"index {at} is outside a list of {len(items)}", node.span)
                return items[at]
            return item

        span = node.span
        return lambda ctx: lists.item_at(obj(ctx), index(ctx), span)  # -1 is the last

    def slice(self, node):
        """`L[a..b]`: the elements at positions a to b, as far as the list goes."""
        obj, low, high = self.compile(node.obj), self.compile(node.index.low), self.compile(node.index.high)
        return lambda ctx: lists.positions(obj(ctx), low(ctx), high(ctx))

    def c_ListComp(self, node):
        source, body, var, span, cost = (self.compile(node.source), self.compile(node.body), node.var, node.span,
                                         weight(node.body))

        def made(ctx):
            env = ctx.env
            saved = env.get(var, _UNSET)
            elements = source(ctx)
            ctx.meter.charge(len(elements) * cost, span)
            out = []
            try:
                for element in elements:
                    env[var] = element
                    out.append(body(ctx))
            finally:
                if saved is _UNSET:
                    env.pop(var, None)
                else:
                    env[var] = saved
            return tuple(out)
        return made

    def c_Where(self, node):
        fast = self._fast_cell_filter(node) or self._membership_filter(node)
        if fast is not None:
            return fast
        return self.plain_where(node)

    def _membership_filter(self, node):
        """`source where it in X` (or `not in`), X not reading `it`: X is worked out once, not per element."""
        condition = node.condition
        if (type(condition) is not ast.Member or not self.reads_it(condition.item)
                or not self._same_for_every_element(condition.container)):
            return None
        source, container, negated = self.compile(node.source), self.compile(condition.container), condition.negated

        span = node.span

        def f(ctx):
            elements = source(ctx)
            if not elements:
                return ()
            meter = ctx.meter
            meter.left -= len(elements)
            if meter.left < 0:
                meter.over(span)
            values = container(ctx)
            if negated:
                return tuple([e for e in elements if e not in values])
            return tuple([e for e in elements if e in values])
        return f

    def _same_for_every_element(self, node) -> bool:
        """A variable, an option, a set of symbols or a local other than `it` (or a variable of one)."""
        kind = type(node)
        if kind is ast.Attribute:
            return type(self.resolved.get(node)) is PlayerVar and self._same_for_every_element(node.obj)
        if kind is not ast.Name or id(node) in self._it_reads:
            return False
        return type(self.resolved.get(node)) in (Global, PlayerVar, Option, SymbolSet, Local)

    def plain_where(self, node):
        """`source where condition`, the condition run per element with `it` set."""
        source, condition = self.compile(node.source), self.compile(node.condition)
        span, cost = node.span, weight(node.condition)

        def f(ctx):
            saved = ctx.it
            out = []
            elements = source(ctx)
            meter = ctx.meter
            meter.left -= len(elements) * cost
            if meter.left < 0:
                meter.over(span)
            for element in elements:
                ctx.it = element
                if condition(ctx):
                    out.append(element)
            ctx.it = saved
            return tuple(out)
        return f

    def _fast_cell_filter(self, node):
        """`cells where kind == x` and the like: set operations on the board's kinds (fastpaths.py)."""
        return fastpaths.cell_filter(self, node)

    def c_Let(self, node):
        value, body, name = self.compile(node.value), self.compile(node.body), node.name

        def let(ctx):
            env = ctx.env
            saved = env.get(name, _UNSET)
            env[name] = value(ctx)
            try:
                return body(ctx)
            finally:
                if saved is _UNSET:
                    env.pop(name, None)
                else:
                    env[name] = saved
        return let

    def c_Conditional(self, node):
        test, then, otherwise = (self.compile(n) for n in (node.condition, node.then, node.otherwise))
        return lambda ctx: then(ctx) if test(ctx) else otherwise(ctx)

    def c_BinOp(self, node):
        left, right = self.compile(node.left), self.compile(node.right)
        if node.op == "and":  # a truth value either way, tested without calling bool()
            return lambda ctx: True if left(ctx) and right(ctx) else False
        if node.op == "or":
            return lambda ctx: True if left(ctx) or right(ctx) else False
        if node.op in ("/", "%"):
            return self._division(node, left, right)
        op = BINARY[node.op]
        if node.op in ("<", "<=", ">", ">="):
            return self._ordered(node, op, left, right)
        if node.op in ("==", "!="):
            return self._equality(node, left, right)
        if node in self.facts.in_range:  # it cannot leave the range of numbers (rewrites/bounds.py)
            return lambda ctx: op(left(ctx), right(ctx))
        return _bounded(op, left, right, node.span)

    def _equality(self, node, left, right):
        """`==`/`!=`; against a constant (`colour == red`) the constant is bound
        once, not read through a closure per cell (the operands keep their order)."""
        equal = node.op == "=="
        value = literal_value(self.resolved, node.right)
        if value is not NOT_LITERAL:
            prop = self.resolved.find(node.left, Prop) if type(node.left) is ast.Name else None
            fused = (functions.current_comparison(self.game, prop.name, operator.eq if equal else operator.ne, value)
                     if prop is not None else None)
            if fused is not None:
                return fused
            if self.reads_it(node.left):  # `it != tower`: `it` read without a call
                if equal:
                    return lambda ctx: ctx.it == value
                return lambda ctx: ctx.it != value
            if equal:
                return lambda ctx: left(ctx) == value
            return lambda ctx: left(ctx) != value
        value = literal_value(self.resolved, node.left)
        if value is not NOT_LITERAL:
            if equal:
                return lambda ctx: value == right(ctx)
            return lambda ctx: value != right(ctx)
        if equal:
            return lambda ctx: left(ctx) == right(ctx)
        return lambda ctx: left(ctx) != right(ctx)

    def _division(self, node, left, right):
        op = operator.floordiv if node.op == "/" else operator.mod

        def f(ctx):
            divisor = right(ctx)
            if divisor == 0:
                raise RuleError("division by zero", node.span)
            return op(left(ctx), divisor)
        return f

    def _ordered(self, node, op, left, right):
        value = literal_value(self.resolved, node.right)
        if value is not NOT_LITERAL and value is not None:
            def against_constant(ctx):  # `actions_left > 0`: the constant is bound once
                a = left(ctx)
                if a is None:
                    return False
                return op(a, value)
            return against_constant

        def f(ctx):
            a, b = left(ctx), right(ctx)
            if a is None or b is None:
                return False  # `none` is not ordered: a missing value never compares
            return op(a, b)
        return f

    def c_Not(self, node):
        operand = self.compile(node.operand)
        return lambda ctx: not operand(ctx)

    def c_Negate(self, node):
        operand = self.compile(node.operand)
        return lambda ctx: -operand(ctx)

    def c_Member(self, node):
        container = self.compile(node.container)
        value = literal_value(self.resolved, node.item)
        if value is not NOT_LITERAL:  # `flag in tokens(it)`: the constant bound once
            if node.negated:
                return lambda ctx: value not in container(ctx)
            return lambda ctx: value in container(ctx)
        item = self.compile(node.item)
        if node.negated:
            return lambda ctx: item(ctx) not in container(ctx)
        return lambda ctx: item(ctx) in container(ctx)

    def c_ChartCall(self, node):
        value = self.compile(node.value)
        chart = node.chart
        if isinstance(chart, ast.ChartName):
            chart = self.game.charts_ast[chart.id]
        lookup = functions.chart_lookup(chart)
        return lambda ctx: lookup(value(ctx))

    def c_Call(self, node):
        found = self.resolved[node]
        kind, name = type(found), found.name
        if kind in (Aggregate, Pairwise):
            return functions.compile_aggregate(self, node, kind is Pairwise)
        if kind is Define:
            return self._define_call(node, name)
        if kind is Family:
            family = self.game.families[name]
            size = self.compile(node.args[0])
            return lambda ctx: family(size(ctx))
        args = [self.compile(a) for a in node.args]
        kwargs = {k.name: k for k in node.kwargs}
        return functions.compile_function(self, name, node, args, kwargs)

    def inlinable(self, name) -> bool:
        """True for a definition with parameters whose body may be written out at each use: it is
        charged nothing per use (it uses at most one other definition, see _calls_definitions)."""
        define = self.game.defines[name]
        return bool(define.params) and not _calls_definitions(define.body, self.resolved)

    def remembered_use(self, node, name) -> bool:
        """True when this use of definition `name` (with parameters) is remembered per state: the
        definition does work (memo.py) and its arguments stay the same while moves are listed or a
        score is made (they read no parameter, local, loop element or cell property), so every
        candidate move that asks it asks the same question."""
        return self.remembers(name) and not any(_varies(self.resolved, a) for a in node.args)

    def remembers(self, name) -> bool:
        """True when definition `name` is remembered per state (memo.py), worked out once per name."""
        if name not in self._remembers:
            self._remembers[name] = memo.worth_remembering(self.game, self.resolved, name)
        return self._remembers[name]

    def definition_use(self, node, name):
        """How a use of a definition with parameters runs: `(None, body)` when its one parameter
        is given `it` and read as `it` in place (the body reads the context's `it`), else
        `(params, body)`, the body reading its parameters as locals."""
        define = self.game.defines[name]
        params = define.params
        if len(params) == 1 and self.reads_it(node.args[0]):
            # `has_fort(it)`: where nothing in between gives `it` another value, the
            # parameter is `it` itself, read in place, without binding a local
            reads = _parameter_reads(define.body, params[0], self.resolved)
            if reads is not None:
                return None, self._definition_body(name, reads)
        return params, self._definition_body(name, frozenset())

    def definition_function(self, name, sures, remembered=False):
        """The generated function of a definition with parameters (codegen.generate_definition),
        made once per definition and per which arguments are sure to be cells; `remembered`: the
        one its remembered uses call (memo.remembered_function)."""
        key = ("function", name, sures, remembered)
        if key not in self._bodies:
            if remembered:
                function = memo.remembered_function(name, self.definition_function(name, sures))
            else:
                body = self.game.defines[name].body
                function = codegen.generate_definition(self, name, sures, _calls_definitions(body, self.resolved))
            self._bodies[key] = function
        return self._bodies[key]

    def _define_call(self, node, name):
        params = self.game.defines[name].params
        if not params:
            return self._whole_definition(name)
        params, body = self.definition_use(node, name)
        if params is None:
            return body
        args = [self.compile(a) for a in node.args]
        if self.remembered_use(node, name):
            body = memo.remembered(name, body, params)
        if len(params) == 1:
            return _one_parameter_call(params[0], args[0], body)

        def call(ctx):
            values = [a(ctx) for a in args]  # evaluated in the caller's scope
            env = ctx.env
            saved = {p: env[p] for p in params if p in env}
            env.update(zip(params, values))
            try:
                return body(ctx)
            finally:
                for p in params:
                    env.pop(p, None)
                env.update(saved)
        return call

    def _plain_local(self, node):
        """The name of the local `node` reads (a parameter, a loop's variable), if it is one and not `it`."""
        if type(node) is not ast.Name or id(node) in self._it_reads:
            return None
        found = self.resolved.find(node, Local)
        return None if found is None else found.name

    def _body(self, body, it_reads):
        saved, self._it_reads = self._it_reads, it_reads
        try:
            return self.compile(body)
        finally:
            self._it_reads = saved


def _parameter_reads(body, param, resolved):
    """The ids of the names in `body` that read `param`, when none of them lies
    where `it` means something else (a filter, an aggregate's body, a keyword
    option such as `standin`); None otherwise."""
    found = set()

    def walk(node, inner) -> bool:
        if type(node) is tuple:
            return all(walk(n, inner) for n in node)
        if not attrs.has(type(node)):
            return True
        kind = type(node)
        if kind is ast.Name:
            if resolved.get(node) != Local(param):
                return True
            found.add(id(node))
            return not inner
        if kind in (ast.Where, ast.Comprehension):
            inner = True
        elif kind is ast.Call and type(resolved.get(node)) in (Aggregate, Pairwise):
            inner = True
        elif kind is ast.Keyword:
            inner = True
        return all(walk(getattr(node, f.name), inner) for f in attrs.fields(type(node)) if f.name != "span")

    return frozenset(found) if walk(body, False) else None


#: names whose value changes from one candidate move, loop element or cell to the next
_VARYING = frozenset({Local, It, Self, Prop, Relative})


def _varies(resolved, node) -> bool:
    """True when `node` reads a name whose value changes while moves are listed (_VARYING)."""
    return any(type(inner) is ast.Name and type(resolved.get(inner)) in _VARYING
               for inner in walk(node))


def _calls_definitions(body, resolved) -> bool:
    """True when `body` uses other definitions twice or more: a chain of such definitions
    branches (one use each is a chain as long as the pack, no more)."""
    uses = sum(1 for node in walk(body) if type(node) in (ast.Name, ast.Call)
               and type(resolved.get(node)) is Define)
    return uses >= 2


def _charged(body, span, cost):
    """`body`, charging the work budget `cost` units per evaluation (budget.py)."""
    def charged(ctx):
        meter = ctx.meter
        meter.left -= cost
        if meter.left < 0:
            meter.over(span)
        return body(ctx)
    return charged


def _bounded(op, left, right, span):
    """`left op right` for `+ - *`; a number out of the range of numbers (dsl/limits.py) stops the rule."""
    def arithmetic(ctx):
        value = op(left(ctx), right(ctx))
        if type(value) is int and not -MAX_NUMBER <= value <= MAX_NUMBER:
            raise RuleError(out_of_range_message(str(value)), span)
        return value
    return arithmetic


_UNSET = object()


def _one_parameter_call(param, arg, body):
    """A definition with one parameter, the common case: its value bound and the caller's restored."""
    def call(ctx):
        value = arg(ctx)  # evaluated in the caller's scope
        env = ctx.env
        saved = env.get(param, _UNSET)
        env[param] = value
        try:
            return body(ctx)
        finally:
            if saved is _UNSET:
                env.pop(param, None)
            else:
                env[param] = saved
    return call


#: node class -> the ExprCompiler method that makes its closure
_CLOSURE_COMPILERS = ast.methods_by_class(ExprCompiler, "c_")
#: class of a name's resolution -> the ExprCompiler method that makes its closure
_NAME_COMPILERS = {
    Local: ExprCompiler.name_local, It: ExprCompiler.name_it, Self: ExprCompiler.name_self,
    Prop: ExprCompiler.name_prop, MarkName: ExprCompiler.name_mark, ActionName: ExprCompiler.name_action,
    Rule: ExprCompiler.name_rule, Relative: ExprCompiler.name_relative, Global: ExprCompiler.name_global,
    PlayerVar: ExprCompiler.name_player_var, Option: ExprCompiler.name_option, Region: ExprCompiler.name_region,
    Die: ExprCompiler.name_die, Deck: ExprCompiler.name_deck, Shape: ExprCompiler.name_shape,
    SymbolSet: ExprCompiler.name_symset, Symbol: ExprCompiler.name_symbol, Record: ExprCompiler.name_record,
    RecordKind: ExprCompiler.name_record_kind, Direction: ExprCompiler.name_direction,
    Define: ExprCompiler.name_define, Value: ExprCompiler.name_value,
}
