"""The checker of expressions and statements: resolve every name, infer types, check arity.

`Checker.expr(node, scope)` and `Checker.block(stmts, scope)` check one
fragment in the scope its field gives it (`self`, `it`, `me`, parameters...),
collecting every problem. It records, for each Name and Call node, what it
refers to, so the compiler never has to look a name up again. Which
fragment gets which scope is dsl/check_sections.py's business.
"""

from __future__ import annotations

import attrs

from boardrule.dsl import ast
from boardrule.dsl.resolution import (ActionName, Aggregate, Attr, Deck, Define, Die, Direction, EventAttr, Family,
                                      Function, It, Local, MarkName, Pairwise, PlayerProp, PlayerVar, Prop, Relative,
                                      Resolutions, Rule, Self, Value)
from boardrule.dsl.check_records import record_field
from boardrule.dsl.check_targets import check_change, check_set
from boardrule.dsl.builtins import (AGGREGATES, CELL_KEYWORDS, CELL_PROPERTIES, CELL_RELATIVE, DIRECTION_NAMES,
                                    FUNCTIONS, PLAYER_PROPERTIES, VALUES)
from boardrule.dsl.diagnostics import did_you_mean
from boardrule.dsl.records import frozen
from boardrule.dsl.symbols import SymbolTable
from boardrule.dsl.types import (ANY, BOOL, CELL, DECK, DIRECTION, EVENT, NONE, NUM, PLAYER, SHAPE, STR, SYM, Type,
                                 compatible, item_type, join, list_of, unknown)

COMPARISONS = {"==", "!=", "<", "<=", ">", ">="}
EVENT_ATTRIBUTES = {"kind": SYM, "cell": CELL, "player": PLAYER}


@attrs.define
class Checked:
    """What the checker learnt: the symbol table and, per node, a resolution."""

    symbols: SymbolTable
    resolved: Resolutions = attrs.field(factory=Resolutions)  # node -> Resolution (resolution.py)
    types: dict = attrs.field(factory=dict)  # node -> Type
    written: dict = attrs.field(factory=dict)  # an undeclared variable -> the set of the types `set` writes to it

    def shown_type(self, name: str):
        """The type a variable's values are shown as: the one its declaration or start gives it, else the
        one every `set` of it writes (a variable that starts as none and is only ever set to cells holds
        a cell), else None (mixed or unknown)."""
        declared = self.symbols.vars.get(name, self.symbols.player_vars.get(name))
        if not unknown(declared):
            return declared
        found = {t for t in self.written.get(name, ()) if not unknown(t)}
        return found.pop() if len(found) == 1 else declared


@frozen
class Scope:
    """Names visible in one fragment; `it` is the element being filtered."""

    locals: dict
    it: Type = NONE
    self_type: Type = NONE
    me: bool = True
    in_marks: bool = False  # `choose(...)` is allowed only in a piece's marks

    def bind(self, name: str, t: Type) -> "Scope":
        return attrs.evolve(self, locals={**self.locals, name: t})

    def with_it(self, t: Type) -> "Scope":
        return attrs.evolve(self, it=t)


def _column_gap(end: int, start: int) -> str:
    """How a chart column starting at `start` fails to follow one ending at `end`."""
    if start <= end:
        return "overlaps the column before it"
    missing = f"{end + 1}" if start == end + 2 else f"{end + 1}-{start - 1}"
    return f"leaves out {missing}"


def is_card_type(t: Type) -> bool:
    """Cards are names or numbers (`none` passes here and fails at run time, like elsewhere)."""
    return t in (SYM, NUM, ANY, NONE) or t.is_record


def _mixes_players(a: Type, b: Type) -> bool:
    """A player is a seat, not a number or a cell: comparing them is a mistake."""
    return (a == PLAYER) != (b == PLAYER) and ANY not in (a, b) and NONE not in (a, b)


#: definitions using definitions, at most this deep (the checker, the compiler and the rules recurse)
MAX_DEFINITION_DEPTH = 64


class Checker:
    def __init__(self, symbols: SymbolTable, bag):
        self.sym = symbols
        self.bag = bag
        self.out = Checked(symbols)
        self.expanding = []  # definitions being checked, to catch recursion
        # a definition's body is checked once per parameter types and scope, so
        # checking grows with the pack, not with the number of paths through it
        self.define_types: dict = {}
        self.removed: dict = {}  # name -> the extends.Removal that took it out (a note on unknown names)
        self.use_site = None  # the span of the name or call being resolved (a note on a definition's errors)
        self.rule_types: dict = {}  # a piece rule's name -> the join of its bodies' types, each checked once
        self.rules_expanding: list = []  # piece rules being checked, to catch a rule that uses itself
        self.listing_action = None  # the action whose parameters and `when:` are being checked (E241)

    # ------------------------------------------------------------- helpers
    def error(self, code, message, node, hint=None):
        self.bag.error(code, message, node.span, hint=hint)

    def expect(self, node, scope: Scope, expected: Type, what: str) -> Type:
        actual = self.expr(node, scope)
        if not compatible(actual, expected):
            self.error("E210", f"{what} must be a {expected}, but this is a {actual}", node)
        return actual

    def known_names(self, scope: Scope):
        names = set(scope.locals) | set(VALUES) | self.sym.all_names() | {"it", "self"} | set(self.sym.directions)
        if scope.it == CELL or scope.self_type == CELL:
            names |= set(CELL_PROPERTIES) | set(self.sym.piece_attributes) | set(self.sym.marks)
            names |= set(self.sym.rules)
            names |= set(CELL_RELATIVE)
        if scope.it.is_record:
            names |= set(self.sym.record_fields.get(scope.it.of, {}))
        return sorted(names)

    # ----------------------------------------------------------- expressions
    def expr(self, node, scope: Scope) -> Type:
        t = _EXPRESSION_CHECKS[type(node)](self, node, scope)
        self.out.types[node] = t
        return t

    def x_Number(self, node, scope):
        return NUM

    def x_String(self, node, scope):
        return STR

    def x_Name(self, node, scope):
        self.use_site = node.span  # where a definition this name resolves to is used
        resolution, t = self.resolve_name(node.id, scope)
        if resolution is None and not scope.me and (node.id in self.sym.player_vars or node.id in (
                "me", "left", "right", "others")):
            what = "a player variable" if node.id in self.sym.player_vars else "about the player a rule runs for"
            self.error("E214", f"`{node.id}` is {what}, but no player is meant here", node,
                       f"name the player: `any(p.{node.id} ... for p in players)`" if node.id in self.sym.player_vars
                       else "use `players`, or `for p in players { ... }`")
            return ANY
        if resolution is None and node.id in DIRECTION_NAMES:
            self.error("E225", f"this board has no direction `{node.id}`: its directions are "
                               f"{', '.join(self.sym.directions)}", node,
                       "a hex grid has six directions, and which six depends on its layout (pointy or flat top)")
            return DIRECTION
        if resolution is None and node.id in CELL_RELATIVE and scope.it == ANY:
            self.bag.error("E201", f"`{node.id}` alone is about the cell being looked at, and the elements here "
                           "may not be cells (a filter on a list the rules do not type, such as a definition's "
                           "parameter)", node.span, hint=f"name the cell: `{node.id}(it)`")
            return ANY
        if resolution is None:
            hint = did_you_mean(node.id, self.known_names(scope))
            removal = self.removed.get(node.id)
            notes = ((removal.span, f"`{removal.section}.{removal.name}` was removed here"),) if removal else ()
            self.bag.error("E201", f"unknown name `{node.id}`", node.span, hint=None if removal else hint,
                           notes=notes)
            return ANY
        self.out.resolved[node] = resolution
        return t

    def resolve_name(self, name: str, scope: Scope):
        if name in scope.locals:
            return Local(name), scope.locals[name]
        if name == "it":
            return (It(), scope.it) if scope.it != NONE else (None, ANY)
        if name == "self":
            return (Self(), scope.self_type) if scope.self_type != NONE else (None, ANY)
        # a bare property reads `it` inside a filter, else `self`; the same
        # rule holds at run time, so a definition means one thing everywhere
        subject = scope.it if scope.it != NONE else scope.self_type
        if subject == CELL:
            if name in CELL_PROPERTIES:
                return Prop(name), CELL_PROPERTIES[name][0]
            if name in self.sym.marks:
                return Prop(name), BOOL
            if name in self.sym.piece_attributes:
                return Prop(name), self.sym.piece_attributes[name]
            if name in self.sym.rules:
                return Rule(name), self.rule_type(name)
            if name in CELL_RELATIVE:
                return Relative(name), FUNCTIONS[name].result
        if subject == SYM and name in self.sym.piece_attributes:
            return Prop(name), self.sym.piece_attributes[name]
        if subject.is_record and name in self.sym.record_fields.get(subject.of, {}):
            return Prop(name), self.sym.record_fields[subject.of][name].type
        if subject == ANY and scope.it == ANY:  # a filter on a list whose elements may be cells, kinds, records
            if name in CELL_PROPERTIES:
                return Prop(name), CELL_PROPERTIES[name][0]
            if name in self.sym.piece_attributes:
                return Prop(name), self.sym.piece_attributes[name]
            if name in self.sym.marks:
                return Prop(name), BOOL
            types = {fields[name].type for fields in self.sym.record_fields.values() if name in fields}
            if types:
                return Prop(name), types.pop() if len(types) == 1 else ANY
        found = self.sym.lookup(name)
        if found is not None and type(found[0]) is Define:
            return Define(name), self.define_body(self.sym.defines[name], scope, {})
        if found is not None:
            if type(found[0]) is PlayerVar and not scope.me:
                return None, ANY
            return found
        if name in self.sym.directions:
            return Direction(name), DIRECTION
        if name in VALUES:
            if name in ("me", "left", "right", "others") and not scope.me:
                return None, ANY
            return Value(name), VALUES[name][0]
        return None, ANY

    def x_Attribute(self, node, scope):
        owner = self.expr(node.obj, scope)
        name = node.name
        if owner == PLAYER:
            if name in PLAYER_PROPERTIES:
                self.out.resolved[node] = PlayerProp(name)
                return PLAYER_PROPERTIES[name][0]
            if name in self.sym.player_vars:
                self.out.resolved[node] = PlayerVar(name)
                return self.sym.player_vars[name]
            candidates = list(PLAYER_PROPERTIES) + list(self.sym.player_vars)
        elif owner.is_record:
            return record_field(self, node, owner)
        elif owner == EVENT:
            self.out.resolved[node] = EventAttr(name)
            return EVENT_ATTRIBUTES.get(name, ANY)
        elif owner in (CELL, SYM, ANY) and name in self.sym.rules and name not in self.sym.piece_attributes:
            if owner == SYM:
                self.error("E211", f"`{name}` is a rule of the pieces that declare it: read it on a cell "
                                   f"holding one (`c.{name}`), not on a piece kind", node)
                return ANY
            self.out.resolved[node] = Rule(name)
            return self.rule_type(name)
        elif owner in (CELL, SYM, ANY):
            table = dict(self.sym.piece_attributes)
            if owner in (CELL, ANY):
                table.update({k: v[0] for k, v in CELL_PROPERTIES.items()})
                table.update({m: BOOL for m in self.sym.marks})
            if owner == ANY and self.sym.field_types(name):  # a record's field, or an attribute of that name
                self.out.resolved[node] = Attr(name)
                types = self.sym.field_types(name) + ([table[name]] if name in table else [])
                return types[0] if all(t == types[0] for t in types) else ANY
            if name in table:
                self.out.resolved[node] = Attr(name)
                return table[name]
            if owner == ANY and (name in PLAYER_PROPERTIES or name in self.sym.player_vars):
                self.out.resolved[node] = PlayerVar(name) if name in self.sym.player_vars else PlayerProp(name)
                return self.sym.player_vars.get(name) or PLAYER_PROPERTIES[name][0]
            candidates = list(table)
        else:
            self.error("E211", f"a {owner} has no attributes; `.{name}` cannot be read", node)
            return ANY
        hint = did_you_mean(name, candidates)
        self.error("E202", f"unknown attribute `{name}` of a {owner}", node,
                   hint)
        return ANY

    def x_Index(self, node, scope):
        t = self.expr(node.obj, scope)
        if not t.is_list and t != ANY:
            self.error("E211", f"only a list can be indexed, not a {t}", node.obj)
        if isinstance(node.index, ast.Range):  # `hand[0..2]`: the elements at those positions
            self.expr(node.index, scope)
            return t
        self.expect(node.index, scope, NUM, "an index")
        return item_type(t)

    def x_ListComp(self, node, scope):
        source = self.expr(node.source, scope)
        if not source.is_list and source != ANY:
            self.error("E212", f"`for {node.var} in` needs a list, but this is a {source}", node.source)
        return list_of(self.expr(node.body, scope.bind(node.var, item_type(source))))

    def sort_call(self, node, scope):
        """`sort(LIST)`, `sort(LIST, by = KEY)`: KEY read with `it` each element; numbers or names."""
        self.out.resolved[node] = Function("sort")
        if len(node.args) != 1:
            self.error("E220", f"`sort` takes one list, like sort(players, by = it.score); {len(node.args)} "
                               "argument(s) given", node)
        t = self.expr(node.args[0], scope) if node.args else ANY
        if not t.is_list and t != ANY:
            self.error("E212", f"`sort` orders a list, but this is a {t}", node.args[0])
        for kw in node.kwargs:
            if kw.name != "by":
                self.error("E222", f"`sort` has no option `{kw.name}`", kw, did_you_mean(kw.name, ["by"]))
                continue
            key = self.expr(kw.value, scope.with_it(item_type(t)))
            if key not in (NUM, STR, SYM, ANY) and not key.is_record and not compatible(key, NUM):
                self.error("E210", f"`sort` orders by a number or a name, but this key is a {key}", kw.value)
        return t

    def x_ListExpr(self, node, scope):
        t = NONE
        for item in node.items:
            item_t = self.expr(item, scope)
            joined = join(t, item_t) if t != NONE else item_t
            if joined == ANY and ANY not in (t, item_t) and t != NONE:
                self.error("E215", f"a list holds values of one type: this {item_t} follows a {t}", item)
            t = joined
        return list_of(t if t != NONE else ANY)

    def x_Range(self, node, scope):
        self.expect(node.low, scope, NUM, "the start of a range")
        self.expect(node.high, scope, NUM, "the end of a range")
        return list_of(NUM)

    def x_Where(self, node, scope):
        source = self.expr(node.source, scope)
        if not source.is_list and source != ANY:
            self.error("E212", f"`where` filters a list, but this is a {source}", node.source)
        self.expect(node.condition, scope.with_it(item_type(source)), BOOL, "a `where` condition")
        return source if source.is_list else list_of(ANY)

    def x_Conditional(self, node, scope):
        self.expect(node.condition, scope, BOOL, "the condition of `if`")
        return join(self.expr(node.then, scope), self.expr(node.otherwise, scope))

    def x_BinOp(self, node, scope):
        left, right = self.expr(node.left, scope), self.expr(node.right, scope)
        if node.op in ("and", "or"):
            for side, t in ((node.left, left), (node.right, right)):
                if not compatible(t, BOOL):
                    self.error("E210", f"`{node.op}` needs true/false values, but this is a {t}", side)
            return BOOL
        if node.op in ("==", "!=") and _mixes_players(left, right):
            self.error("E210", f"a player cannot be compared with a {left if right == PLAYER else right}", node)
        if node.op in COMPARISONS:
            if node.op not in ("==", "!=") and not (compatible(left, NUM) and compatible(right, NUM)):
                self.error("E210", f"`{node.op}` compares numbers, not a {left} and a {right}", node)
            return BOOL
        if node.op == "+" and left.is_list and right.is_list:
            return list_of(join(item_type(left), item_type(right)))
        for side, t in ((node.left, left), (node.right, right)):
            if not compatible(t, NUM):
                self.error("E210", f"`{node.op}` needs numbers, but this is a {t}", side)
        return NUM

    def x_Not(self, node, scope):
        self.expect(node.operand, scope, BOOL, "the operand of `not`")
        return BOOL

    def x_Negate(self, node, scope):
        self.expect(node.operand, scope, NUM, "the operand of `-`")
        return NUM

    def x_Member(self, node, scope):
        self.expr(node.item, scope)
        container = self.expr(node.container, scope)
        if not container.is_list and container != ANY:
            self.error("E212", f"`in` needs a list on its right, but this is a {container}", node.container)
        return BOOL

    def x_ChartCall(self, node, scope):
        self.expect(node.value, scope, NUM, "the value looked up in a chart")
        chart = node.chart
        if isinstance(chart, ast.ChartName):
            if chart.id not in self.sym.charts:
                hint = did_you_mean(chart.id, sorted(self.sym.charts))
                self.error("E203", f"unknown chart `{chart.id}`", chart, hint)
                return ANY
            chart = self.sym.charts[chart.id]
        if chart is None:
            return ANY
        self.chart(chart)
        return STR if chart.values and isinstance(chart.values[0], str) else NUM

    def x_Let(self, node, scope):
        return self.expr(node.body, scope.bind(node.name, self.expr(node.value, scope)))

    def x_Comprehension(self, node, scope):
        self.error("E213", "`... for x in ...` can only be the argument of an aggregate like sum or count", node)
        return ANY

    def x_Call(self, node, scope):
        if node.func in AGGREGATES:
            return self.aggregate(node, scope)
        if node.func in self.sym.defines:
            return self.define_call(node, scope)
        if node.func in self.sym.families:
            if len(node.args) != 1 or node.kwargs:
                self.error("E220", f"shape family `{node.func}` takes one size, like {node.func}(3)", node)
            for arg in node.args:
                self.expect(arg, scope, NUM, "a shape size")
            self.out.resolved[node] = Family(node.func)
            return SHAPE
        if node.func == "uses":
            return self.uses_call(node, scope)
        if node.func == "can":
            return self.can_call(node, scope)
        if node.func == "sort":
            return self.sort_call(node, scope)
        if node.func == "size" and len(node.args) == 1 and not node.kwargs:
            return self.size_call(node, scope)
        if node.func == "flatten" and len(node.args) == 1 and not node.kwargs:
            return self.flatten_call(node, scope)
        if node.func in ("first", "last") and len(node.args) == 1 and not node.kwargs:
            self.out.resolved[node] = Function(node.func)
            t = self.expr(node.args[0], scope)
            if not t.is_list and t != ANY:
                self.error("E212", f"`{node.func}` takes a list, but this is a {t}", node.args[0])
            return item_type(t)
        signature = FUNCTIONS.get(node.func)
        if signature is None:
            hint = did_you_mean(node.func, sorted(set(FUNCTIONS) | set(AGGREGATES) | set(self.sym.families)
                                                  | set(self.sym.defines)))
            # the arguments are checked once the name is right: guessing their scope now
            # would report follow-on errors on names that are fine
            self.error("E204", f"unknown function `{node.func}`", node, hint)
            return ANY
        self.out.resolved[node] = Function(node.func)
        if node.func == "choose" and not scope.in_marks:
            self.error("E216", "`choose(...)` leaves a choice to the scoring: it belongs in a piece's `marks:`",
                       node, "to ask the player, use the statement `choose x from LIST { ... }` in an effect")
        result = self.call_args(node, scope, signature)
        if node.func == "rotated" and node.args:  # the same list, turned
            return self.out.types.get(node.args[0], result)
        if node.func == "cards" and len(node.args) == 1:
            return list_of(self.card_type(node.args[0]))
        return result

    def size_call(self, node, scope):
        """`size(D)`: the cards left in a deck; `size(S)`: the squares of a shape."""
        self.out.resolved[node] = Function("size")
        t = self.expr(node.args[0], scope)
        if t not in (DECK, SHAPE, ANY):
            self.error("E210", f"argument of `size` must be a deck or a shape, but this is a {t}", node.args[0])
        return NUM

    def flatten_call(self, node, scope):
        """`flatten(L)`: L is a list of lists; the result is a list of their elements."""
        self.out.resolved[node] = Function("flatten")
        t = self.expr(node.args[0], scope)
        if t == ANY:
            return list_of(ANY)
        inner = item_type(t) if t.is_list else None
        if inner is None or (not inner.is_list and inner != ANY):
            self.error("E212", f"`flatten` takes a list of lists (such as [ray(c, d) for d in directions]), "
                               f"but this is a {t}", node.args[0])
            return list_of(ANY)
        return list_of(item_type(inner)) if inner.is_list else list_of(ANY)

    def uses_call(self, node, scope):
        """`uses(KIND, MARK)`: MARK is the name of a mark, not the mark's value on a cell."""
        self.named_argument_call(node, scope, "uses", "a piece kind and a mark, like uses(kind, mark)",
                                 (SYM, "the piece kind of `uses`"), (MarkName, "a mark", self.sym.marks))
        return BOOL

    def can_call(self, node, scope):
        """`can(PLAYER, ACTION)`: ACTION is the name of an action; the call lists that action's moves,
        so an action's own `when:` or parameters may not ask it of itself (E241)."""
        action = self.named_argument_call(node, scope, "can", "a player and an action, like can(me, place)",
                                          (PLAYER, "the player of `can`"),
                                          (ActionName, "an action", self.sym.actions))
        if action is not None and action == self.listing_action:
            self.error("E241", f"`can(..., {action})` in the rules of `{action}` itself would ask "
                               "the action whether it has a move while listing its moves", node,
                       "write the condition the action's moves need instead, or ask it of another action")
        return BOOL

    def named_argument_call(self, node, scope, func, takes, first, named):
        """A call of two arguments whose second is the name of a pack entry, not a value (`uses`,
        `can`): the first checked as `first` (type, what), the second resolved to `named` (its class of
        resolution, what, the names declared); the name given, or None (E220, E210 said why)."""
        kind, what, names = named
        self.out.resolved[node] = Function(func)
        if len(node.args) != 2 or node.kwargs:
            self.error("E220", f"`{func}` takes {takes}; {len(node.args)} argument(s) given", node)
        if node.args:
            self.expect(node.args[0], scope, first[0], first[1])
        found = None
        if len(node.args) >= 2:
            arg = node.args[1]
            if isinstance(arg, ast.Name) and arg.id in names:
                self.out.resolved[arg] = kind(arg.id)
                self.out.types[arg] = SYM
                found = arg.id
            else:
                listed = ", ".join(f"`{n}`" for n in sorted(names)) or "none in this pack"
                self.error("E210", f"the second argument of `{func}` is the name of {what} ({kind.kind}s: {listed})", arg)
        for extra in node.args[2:]:
            self.expr(extra, scope)
        return found

    def define_call(self, node, scope):
        define = self.sym.defines[node.func]
        if len(node.args) != len(define.params) or node.kwargs:
            self.error("E220", f"`{node.func}` takes {len(define.params)} argument(s), {len(node.args)} given", node)
        params = {p: self.expr(a, scope) for p, a in zip(define.params, node.args)}
        self.out.resolved[node] = Define(node.func)
        self.use_site = node.span
        return self.define_body(define, scope, params)

    def define_body(self, define, scope, params) -> Type:
        if define.body is None:
            return ANY
        if define.name in self.expanding:
            self.error("E240", f"definition `{define.name}` uses itself", define.body)
            return ANY
        if len(self.expanding) >= MAX_DEFINITION_DEPTH:
            chain = " -> ".join(self.expanding[:3] + ["..."] + self.expanding[-2:] + [define.name])
            self.error("E137", f"definitions nest more than {MAX_DEFINITION_DEPTH} deep here ({chain})",
                       define.body, "a chain of definitions that long is a mistake: use an aggregate instead")
            return ANY
        key = (define.name, tuple(params.items()), scope.it, scope.self_type, scope.me)
        known = self.define_types.get(key)
        if known is not None:
            return known
        used_at = self.use_site if not self.expanding else None  # the use in a rule, outside definitions
        before = len(self.bag.diagnostics)
        self.expanding.append(define.name)
        inner = Scope(params, it=scope.it, self_type=scope.self_type, me=scope.me)
        t = self.expr(define.body, inner)
        self.expanding.pop()
        self.define_types[key] = t
        if used_at is not None and len(self.bag.diagnostics) > before:
            self._note_use(before, define.name, used_at)
        return t

    def _note_use(self, start, name, used_at) -> None:
        """Errors found in a definition's body as one use checked it: they may hold only there
        (no player meant, another `it`), so each names that use."""
        note = (used_at, f"`{name}` is used here")
        self.bag.diagnostics[start:] = [attrs.evolve(d, notes=tuple(d.notes) + (note,)) if not d.notes else d
                                        for d in self.bag.diagnostics[start:]]

    def rule_type(self, name) -> Type:
        """The type of a piece rule: the join of every kind's body of that name, checked once, with
        `self` the cell; a rule that uses itself (through definitions or other rules) is E240."""
        known = self.rule_types.get(name)
        if known is not None:
            return known
        bodies = self.sym.rules.get(name, ())
        if name in self.rules_expanding:
            first = next((body for _, body in bodies if body is not None), None)
            if first is not None:
                self.error("E240", f"rule `{name}` uses itself", first,
                           "a rule may read other rules, but not, through them or definitions, itself")
            return ANY
        self.rules_expanding.append(name)
        t, first_kind = NONE, None
        for kind, body in bodies:
            if body is None:
                continue
            body_t = self.expr(body, Scope({}, self_type=CELL))
            joined = body_t if t == NONE else join(t, body_t)
            if joined == ANY and ANY not in (t, body_t) and t != NONE:
                self.error("E206", f"rule `{name}` gives a {body_t} here but a {t} on `{first_kind}`", body)
            t, first_kind = joined, first_kind or kind
        self.rules_expanding.pop()
        t = ANY if t == NONE else t
        self.rule_types[name] = t
        return t

    def call_args(self, node, scope, signature):
        count = len(node.args)
        low, high = len(signature.params) - signature.optional, len(signature.params)
        if not low <= count <= high:
            wanted = str(high) if low == high else f"{low} to {high}"
            self.error("E220", f"`{node.func}` takes {wanted} argument(s), {count} given", node)
        if count == 0 and signature.optional and scope.it != CELL and scope.self_type != CELL:
            self.error("E221", f"`{node.func}` without an argument needs a cell to start from (`it` or `self`)", node)
        for arg, expected in zip(node.args, signature.params):
            self.expect(arg, scope, expected, f"argument of `{node.func}`")
        keywords = dict(signature.keywords)
        for kw in node.kwargs:
            if kw.name not in keywords:
                hint = did_you_mean(kw.name, sorted(keywords))
                self.error("E222", f"`{node.func}` has no option `{kw.name}`", kw,
                           hint)
                continue
            inner = scope.with_it(CELL) if kw.name in CELL_KEYWORDS else scope
            self.expect(kw.value, inner, keywords[kw.name], f"option `{kw.name}`")
        return signature.result

    def aggregate(self, node, scope):
        result, _ = AGGREGATES[node.func]
        self.out.resolved[node] = Aggregate(node.func)
        if node.kwargs:
            self.error("E222", f"`{node.func}` takes no options", node.kwargs[0])
        args = node.args
        if node.func in ("min", "max") and len(args) == 2 and not isinstance(args[0], ast.Comprehension):
            first = self.expr(args[0], scope)
            if compatible(first, NUM) and not first.is_list:
                self.expect(args[1], scope, NUM, f"argument of `{node.func}`")
                self.out.resolved[node] = Pairwise(node.func)
                return NUM
            self.expect(args[1], scope.with_it(item_type(first)), NUM, f"the body of `{node.func}`")
            return result
        if len(args) == 1 and isinstance(args[0], ast.Comprehension):
            comp = args[0]
            source = self.expr(comp.source, scope)
            if not source.is_list and source != ANY:
                self.error("E212", f"`for {comp.var} in` needs a list, but this is a {source}", comp.source)
            self.aggregate_body(node.func, comp.body, scope.bind(comp.var, item_type(source)))
            return result
        if len(args) not in (1, 2):
            self.error("E220", f"`{node.func}` takes a list and an optional body, {len(args)} given", node)
            return result
        source = self.expr(args[0], scope)
        if not source.is_list and source != ANY:
            self.error("E212", f"`{node.func}` needs a list, but this is a {source}", args[0])
        if len(args) == 2:
            self.aggregate_body(node.func, args[1], scope.with_it(item_type(source)))
        elif node.func == "all":
            self.error("E220", "`all` needs a condition: all(list, condition) or all(c for x in list)", node)
        return result

    def aggregate_body(self, func, body, scope):
        if func in ("count", "any", "all", "none"):
            self.expect(body, scope, BOOL, f"the condition of `{func}`")
        elif func in ("sum", "min", "max"):
            self.expect(body, scope, NUM, f"the value summed up by `{func}`")
        else:
            self.expr(body, scope)

    def chart(self, chart: ast.Chart):
        if len(chart.keys) != len(chart.values):
            self.bag.error("E230", f"this chart has {len(chart.keys)} keys but {len(chart.values)} values",
                           chart.span)
        kinds = {type(v) for v in chart.values}
        if len(kinds) > 1:
            self.bag.error("E231", "a chart's values must be all numbers or all texts", chart.span)
        self.chart_columns(chart)

    def chart_columns(self, chart: ast.Chart):
        """Columns follow each other with no gap or overlap; only the last is open."""
        keys = sorted(chart.keys, key=lambda k: k.low)
        for key in keys:
            if key.high is not None and key.high < key.low:
                self.bag.error("E232", f"the range {key.low}-{key.high} is empty", key.span)
                return
        for before, after in zip(keys, keys[1:]):
            if before.high is None:
                self.bag.error("E233", f"`{before.low}+` covers every number from {before.low} on, so it must be "
                                       "the last column", before.span)
                return
            if after.low != before.high + 1:
                what = _column_gap(before.high, after.low)
                self.bag.error("E233", f"this chart's columns must follow each other: this column {what}",
                               after.span)
                return

    # ------------------------------------------------------------ statements
    def block(self, stmts, scope: Scope) -> None:
        for stmt in stmts:
            if isinstance(stmt, ast.LetStmt):  # a local name for the rest of the block
                scope = scope.bind(stmt.name, self.expr(stmt.value, scope))
                continue
            _STATEMENT_CHECKS[type(stmt)](self, stmt, scope)

    def s_Place(self, node, scope):
        self.expect(node.kind, scope, SYM, "the piece to place")
        self.expect(node.at, scope, CELL, "where to place")
        for kw in node.attributes:
            if kw.name not in self.sym.piece_attributes:
                hint = did_you_mean(kw.name, sorted(self.sym.piece_attributes))
                self.error("E202", f"unknown attribute `{kw.name}`", kw, hint)
            t = self.expr(kw.value, scope)
            declared = self.sym.variable_types.get(kw.name)
            if declared is not None and not compatible(t, declared.type):
                self.error("E210", f"`{kw.name}` is declared a {declared.type}, so it cannot be set to a {t}",
                           kw.value)

    def s_Remove(self, node, scope):
        if node.source is not None:
            self.expect(node.target, scope, SYM, "the token to remove")
            self.expect(node.source, scope, CELL, "the cell to take it from")
            return
        t = self.expr(node.target, scope)
        if not compatible(t, CELL) and not compatible(t, list_of(CELL)):
            self.error("E210", f"`remove` takes a cell or a list of cells, not a {t}", node.target)

    def s_Replace(self, node, scope):
        self.expect(node.target, scope, CELL, "the cell whose piece is replaced")
        self.expect(node.kind, scope, SYM, "the new piece")

    def s_Store(self, node, scope):
        self.expect(node.item, scope, SYM, "what to store")
        self.expect(node.holder, scope, CELL, "the cell of the holding piece")

    s_Unstore = s_Store

    def s_Move(self, node, scope):
        self.expect(node.token, scope, SYM, "the token to move")
        self.expect(node.source, scope, CELL, "where the token is")
        self.expect(node.destination, scope, CELL, "where the token goes")

    def s_Set(self, node, scope):
        check_set(self, node, scope)

    def s_Change(self, node, scope):
        check_change(self, node, scope)

    def s_Score(self, node, scope):
        if not scope.me:
            self.error("E208", "`score` needs a player: use it in an action, or inside `for p in players`", node)
        self.expect(node.value, scope, NUM, "points")
        if node.label is not None and not isinstance(node.label, str):
            label = self.expr(node.label, scope)
            if not (compatible(label, STR) or compatible(label, SYM)):
                self.error("E210", f"a score's label is a text or a name (a piece kind: its label), "
                           f"but this is a {label}", node.label)

    def s_If(self, node, scope):
        for condition, body in node.branches:
            self.expect(condition, scope, BOOL, "the condition of `if`")
            self.block(body, scope)
        self.block(node.otherwise, scope)

    def _loop(self, var, source, body, scope, what):
        t = self.expr(source, scope)
        if not t.is_list and t != ANY:
            self.error("E212", f"`{what}` needs a list, but this is a {t}", source)
        inner = scope.bind(var, item_type(t))
        if what == "for" and item_type(t) == PLAYER:  # looping over players makes each one `me` (effects.py)
            inner = attrs.evolve(inner, me=True)
        self.block(body, inner)

    def s_For(self, node, scope):
        self._loop(node.var, node.source, node.body, scope, "for")

    def s_Choose(self, node, scope):
        if not scope.me:
            self.error("E208", "`choose` needs a player to ask: use it in an action", node)
        self._loop(node.var, node.source, node.body, scope, "choose")

    def s_Roll(self, node, scope):
        # `roll d` or `roll [d1, d2]`: names of dice, not their faces
        items = node.dice.items if isinstance(node.dice, ast.ListExpr) else (node.dice,)
        for item in items:
            if isinstance(item, ast.Name) and item.id in self.sym.dice:
                self.out.resolved[item] = Die(item.id)
            else:
                self.error("E209", "`roll` takes a die or a list of dice", item)

    def s_Shuffle(self, node, scope):
        self.expect(node.deck, scope, DECK, "what to shuffle")

    def s_Draw(self, node, scope):
        self.expect(node.deck, scope, DECK, "what to draw from")
        self.block(node.body, scope.bind(node.var, self.card_type(node.deck)))

    def s_Put(self, node, scope):
        deck_t = self.expr(node.deck, scope)
        if not compatible(deck_t, DECK):
            self.error("E210", f"`put ... {'under' if node.bottom else 'on'}` puts cards into a deck, "
                               f"but this is a {deck_t}", node.deck)
        card = self.card_type(node.deck)
        t = self.expr(node.cards, scope)
        item = item_type(t) if t.is_list else t
        if not is_card_type(item) or not compatible(item, card):
            if card == ANY:
                self.error("E210", f"`put` takes a card (a name or a number) or a list of cards, but this is a {t}",
                           node.cards)
            else:
                resolved = self.out.resolved.find(node.deck, Deck)
                deck = f"`{resolved.name}`" if resolved is not None else "this deck"
                self.error("E210", f"`put` into {deck} takes a {card} or a {list_of(card)}, but this is a {t}",
                           node.cards)

    def card_type(self, deck) -> Type:
        """The type of the cards of the deck an expression names; ANY when unknown or any card."""
        if isinstance(deck, ast.Conditional):  # `if c then pile else spare`
            return join(self.card_type(deck.then), self.card_type(deck.otherwise))
        resolved = self.out.resolved.find(deck, Deck)
        if resolved is not None:
            return self.sym.deck_cards.get(resolved.name, ANY)
        return ANY

    def s_Emit(self, node, scope):
        for kw in node.attributes:
            self.expr(kw.value, scope)

    def s_Rotate(self, node, scope):
        if node.name not in self.sym.player_vars:
            hint = did_you_mean(node.name, sorted(self.sym.player_vars))
            self.error("E207", f"`rotate` passes a player variable around the seats; `{node.name}` is not one",
                       node, hint)

    def s_Finish(self, node, scope):
        self.expect(node.player, scope, PLAYER, "who finishes")

    def s_Do(self, node, scope):
        """A named effect: its arguments here, its body with its parameters typed as the arguments (and
        `me` and `self` as here). dsl/named_effects.py filled it in, or reported why not."""
        args = [self.expr(arg, scope) for arg in node.args]
        if not node.body:
            return
        key = ("effect", node.name, tuple(args), scope.self_type, scope.me)
        if key in self.define_types:  # checked for these types already: the same diagnostics again
            return
        self.define_types[key] = ANY
        inner = Scope(dict(zip(node.params, args)), self_type=scope.self_type, me=scope.me)
        before = len(self.bag.diagnostics)
        self.block(node.body, inner)
        if len(self.bag.diagnostics) > before:
            self._note_use(before, node.name, node.span)



#: node class -> the Checker method that types it, and statement class -> the one that checks it
_EXPRESSION_CHECKS = ast.methods_by_class(Checker, "x_")
_STATEMENT_CHECKS = ast.methods_by_class(Checker, "s_")
