"""Kind sets: a condition on a cell that its kind alone decides is written `kind in [...]`.

    >>> from boardrule.dsl.unparse import unparse
    >>> from boardrule.interpreter.compiler.rewrites import fixture
    >>> facts, node = fixture("count(cells where not empty and kind != tower)")
    >>> unparse(rewrite(node, facts))
    'count(cells where kind not in [none, tower])'

Where `it` is a cell of the board (the condition of a filter of cells, the body of an aggregate
of cells, a ray's `while`, a shape's `standin`), a condition built only from

* `empty`, `occupied`, `kind == k`, `kind in [a, b]`, `kind in SET` (a symbol set);
* an attribute no piece changes compared with a literal (`category == good`, `cost >= 2`), or
  such an attribute alone (`fragile`, true where the kind declares it true);
* `uses(kind, m)`, true of the kinds whose rules use the mark m;
* `not`, `and`, `or` of these, and definitions without parameters whose body is one,

becomes the one form `kind in [k1, k2...]` (the kinds where it holds, `none` for an empty cell)
or `kind not in [...]` (the kinds where it fails: exact for a kind no piece declares). The
value is the same on every cell: an empty cell has the kind `none` and no attribute, and `none`
is ordered with nothing. Later stages need to know this one form only: the board's bitmasks of
kinds (codegen_masks.py), a ray's walk (codegen_directions.py) and the set operations on a
board's list of kinds (fastpaths.py) read `kind_set` of it.
"""

from __future__ import annotations

import operator

import attrs

from boardrule.dsl import ast
from boardrule.dsl.resolution import Aggregate, Define, Function, MarkName, Prop, Symbol, SymbolSet, Value
from boardrule.dsl.types import CELL, NONE, SYM, list_of
from boardrule.interpreter.compiler.rewrites.tree import NOT_LITERAL, literal_value
from boardrule.interpreter.compiler.rewrites.tree import transform as _transform

CELLS = list_of(CELL)
_EMPTY = frozenset((None,))
_ORDERED = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}
_FLIPPED = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}
_FOLDS = (Aggregate("any"), Aggregate("all"), Aggregate("none"), Aggregate("count"))
#: the options of a call whose condition reads a cell as `it`: function -> option
_CELL_OPTIONS = {Function("ray"): "while", Function("matches"): "standin"}


def rewrite(node, facts):
    return _transform(node, facts, lambda n: _visit(n, facts))


def kind_set(resolved, node):
    """(members, outside) of a condition written in the one form, else None."""
    if type(node) is not ast.Member or resolved.get(node.item) != Prop("kind"):
        return None
    if type(node.container) is not ast.ListExpr:
        return None
    members = [_literal(resolved, item) for item in node.container.items]
    if any(m is NOT_LITERAL for m in members):
        return None
    return frozenset(members), node.negated


# ------------------------------------------------------------------ where `it` is a cell
def _visit(node, facts):
    kind = type(node)
    if kind is ast.Where and facts.types.get(node.source) == CELLS:
        return _with(node, facts, condition=in_cell_context(node.condition, facts))
    if kind is not ast.Call:
        return node
    found = facts.resolved.get(node)
    if found in _FOLDS and len(node.args) == 2 and facts.types.get(node.args[0]) == CELLS:
        return _with(node, facts, args=(node.args[0], in_cell_context(node.args[1], facts)))
    option = _CELL_OPTIONS.get(found)
    if option is None:
        return node
    kwargs = tuple(_with(k, facts, value=in_cell_context(k.value, facts)) if k.name == option else k
                   for k in node.kwargs)
    return _with(node, facts, kwargs=kwargs)


def _with(node, facts, **fields):
    if all(getattr(node, name) is value for name, value in fields.items()):
        return node
    return facts.made(attrs.evolve(node, **fields), like=node)


def in_cell_context(node, facts):
    """Condition `node` of a cell `it` with each largest part the kind alone decides in the one form
    (asked too of a definition's body, which is rewritten without knowing what its `it` will be)."""
    pair = _Kinds(_pieces(facts), facts.resolved).of(node)
    if pair is not None and all(m is None or type(m) is str for m in pair[0]):
        return _written(node, pair, facts) if kind_set(facts.resolved, node) != pair else node
    if type(node) is ast.Not:
        return _with(node, facts, operand=in_cell_context(node.operand, facts))
    if type(node) is ast.BinOp and node.op in ("and", "or"):
        return _with(node, facts, left=in_cell_context(node.left, facts), right=in_cell_context(node.right, facts))
    return node


def _written(node, pair, facts):
    members, outside = pair
    span = node.span
    items = tuple(_kind_name(member, span, facts) for member in sorted(members, key=_order))
    listed = facts.made(ast.ListExpr(items=items, span=span), type_=list_of(SYM))
    subject = facts.made(ast.Name(id="kind", span=span), type_=SYM, resolution=Prop("kind"))
    return facts.made(ast.Member(item=subject, container=listed, negated=outside, span=span), like=node)


def _kind_name(member, span, facts):
    if member is None:
        return facts.made(ast.Name(id="none", span=span), type_=NONE, resolution=Value("none"))
    return facts.made(ast.Name(id=member, span=span), type_=SYM, resolution=Symbol(member))


def _order(member):
    return (member is not None, str(member))


def _literal(resolved, node):
    """A value a kind or a static attribute is compared with: a number, a text, a symbol, none."""
    value = literal_value(resolved, node)
    if type(node) is ast.Name and resolved.get(node) not in (Symbol(node.id), Value("none")):
        return NOT_LITERAL  # (true, false and records are no values of a kind's attributes here)
    return value


# ------------------------------------------------------------------ the kinds where a condition holds
class _Kinds:
    """(members, outside) for a condition the kind alone decides, else None: it holds on a kind in
    `members`, or, when `outside`, on a kind not in it."""

    def __init__(self, pieces, resolved):
        self.pieces = pieces
        self.resolved = resolved

    def of(self, node):
        method = _BUILDERS.get(type(node))
        return None if method is None else method(self, node)

    def k_Not(self, node):
        inner = self.of(node.operand)
        return None if inner is None else (inner[0], not inner[1])

    def k_BinOp(self, node):
        if node.op in ("and", "or"):
            left = self.of(node.left)
            right = None if left is None else self.of(node.right)
            if right is None:
                return None
            return (both if node.op == "and" else either)(left, right)
        if node.op not in _FLIPPED:
            return None
        for prop_side, value_side, op in ((node.left, node.right, node.op),
                                          (node.right, node.left, _FLIPPED[node.op])):
            attribute = self.property(prop_side)
            if attribute is None:
                continue
            value = _literal(self.resolved, value_side)
            if value is NOT_LITERAL or not (attribute == "kind" or self.static(attribute)):
                return None
            if op in _ORDERED:
                return self.ordered(attribute, _ORDERED[op], value)
            return self.kinds_with(attribute, value), op == "!="
        return None

    def k_Member(self, node):
        attribute = self.property(node.item)
        if attribute is None or not (attribute == "kind" or self.static(attribute)):
            return None
        values = self.constant_list(node.container)
        if values is None:
            return None
        return frozenset().union(*(self.kinds_with(attribute, v) for v in values)), node.negated

    def k_Name(self, node):
        resolution = self.resolved.get(node)
        if type(resolution) is Define:  # worked out once per definition: a chain of them stays linear
            known = self.pieces.define_sets
            if resolution.name not in known:
                define = self.pieces.defines.get(resolution.name)
                known[resolution.name] = None if define is None or define.params else self.of(define.body)
            return known[resolution.name]
        if type(resolution) is not Prop:
            return None
        if resolution.name in ("empty", "occupied"):
            return _EMPTY, resolution.name == "occupied"
        if self.static(resolution.name):
            static = self.pieces.attributes
            return frozenset(k for k, declared in static.items() if declared.get(resolution.name)), False
        return None

    def k_Call(self, node):
        uses = self.pieces.mark_uses
        if (self.resolved.get(node) != Function("uses") or len(node.args) != 2 or node.kwargs
                or self.resolved.get(node.args[0]) != Prop("kind")):
            return None
        mark = self.resolved.find(node.args[1], MarkName)
        if mark is None:
            return None
        return frozenset(k for k, used in uses.items() if mark.name in used), False

    # -------------------------------------------------------------- reading the pieces
    def property(self, node):
        found = self.resolved.find(node, Prop) if type(node) is ast.Name else None
        return None if found is None else found.name

    def static(self, attribute):
        return attribute in self.pieces.static

    def kinds_with(self, attribute, value):
        """The kinds (None for an empty cell) whose `attribute` equals `value`."""
        if attribute == "kind":
            return frozenset((value,))
        found = {k for k, declared in self.pieces.attributes.items() if declared.get(attribute) == value}
        if value is None:
            found.add(None)
        return frozenset(found)

    def ordered(self, attribute, compare, value):
        if attribute == "kind" or type(value) not in (int, float):
            return None
        try:
            return frozenset(k for k, declared in self.pieces.attributes.items()
                             if declared.get(attribute) is not None and compare(declared[attribute], value)), False
        except TypeError:
            return None  # a value that does not compare: left to the general path, which reports it

    def constant_list(self, node):
        if type(node) is ast.ListExpr:
            values = [_literal(self.resolved, item) for item in node.items]
            return None if any(v is NOT_LITERAL for v in values) else values
        found = self.resolved.find(node, SymbolSet) if type(node) is ast.Name else None
        return None if found is None else list(self.pieces.symbol_sets[found.name])


_BUILDERS = ast.methods_by_class(_Kinds, "k_")


@attrs.frozen
class _Pieces:
    """What the pack declares of its pieces, as the passes read it (the definitions are rewritten
    before the compiler has built the attributes of kinds and the definitions' table): each kind's
    attributes and those no piece changes, the marks each kind's rules use, the symbol sets, and the
    definitions with the kind set of each, once asked."""

    attributes: dict  # kind -> {attribute: value}; a value naming a shape is no literal (_SHAPE)
    static: frozenset
    mark_uses: dict
    symbol_sets: dict
    defines: dict
    define_sets: dict = attrs.field(factory=dict)  # definition -> (members, outside) or None, once worked out


_SHAPE = object()  # an attribute's value naming a shape: the shape itself, equal to no literal


def _pieces(facts) -> _Pieces:
    found = facts.derived.get(_Pieces)
    if found is None:
        game, model = facts.game, facts.game.pack.model
        shapes = {shape.name for shape in model.shapes}
        attributes = {p.name: {k: _SHAPE if isinstance(v, str) and v in shapes else v
                               for k, (v, _) in p.attributes.items()} for p in model.pieces}
        static = game.static_attribute_names - game.variable_attributes - game.mark_names
        found = facts.derived[_Pieces] = _Pieces(attributes, static, game.mark_uses, game.symbol_sets,
                                                 {d.name: d for d in model.defines})
    return found


def both(a, b):
    """(members, outside) of `A and B`, given those of A and of B."""
    (x, out_x), (y, out_y) = a, b
    if not out_x:
        return (x - y if out_y else x & y), False
    return (y - x, False) if not out_y else (x | y, True)


def either(a, b):
    """(members, outside) of `A or B`, given those of A and of B."""
    (x, out_x), (y, out_y) = a, b
    if not out_x:
        return (y - x, True) if out_y else (x | y, False)
    return (x - y, True) if not out_y else (x & y, True)

