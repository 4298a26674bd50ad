"""Loop-invariant code motion on generated code: what a loop's body works out the same for every
element is worked out once, before the first element.

A filter such as `surrounding(c) where y == c.y + 1` is generated as a comprehension whose
condition works `c.y + 1` out again for every cell it tests, although it is the same for all
of them. This pass finds such parts in the loops the generator makes (a comprehension over
`charged(ctx, ELEMENTS, cost, span)`, codegen_loops.py) and works each of them out once, as a
one-element loop of the same comprehension:

    [e for e in charged(ctx, S, w, s) if COND(e, PART)]
 -> [e for h1 in (charged(ctx, S, w, s),) if h1 for h2 in (PART,) for e in h1 if COND(e, h2)]

(Python allows no `:=` in a comprehension's later iterables: a part that holds a temporary of
the range check, `(t if -M <= (t := V) <= M else out_of_range(t, s))`, is moved with `V` written
out again where `t` is read; `V` is pure, and it is worked out once per loop instead of per element.)

What may move is chosen so that nothing shows but the time:

* a part moves only when it reads no name the loop binds (its element, the names its body's
  inner loops and `:=` bind) and calls nothing but `out_of_range`: it spends no work budget
  and gives the same value for every element, as a rule changes nothing while it runs;
* the parts are worked out only when the loop has elements (`if h1`), after its budget was
  spent, in the order the body would first work them out;
* a part that could fail (arithmetic, a read of a variable, the range check) moves only from
  a place the body reaches for every element, with nothing before it that could fail: so the
  first element would have stopped the rule with the same error at the same place, and the
  budget spent by then is the same. A part that cannot fail (a sure cell's kind, coordinates
  or cell table, which the generator marks as it writes them, a constant table read with the
  element of a loop over its keys, and the comparisons of such reads) may move from anywhere,
  even from a branch the body would not have taken;
* the same part written again elsewhere in the body (`p.mark` in both halves of an `or`) reads
  the local too, wherever it is: the moved part is the first place the body works it out;
* a part is moved only when it costs more than the local that holds it (never a literal or a
  name), and only out of a loop that usually has elements enough to pay for the extra step:
  estimated from what it runs over (a board's cells, a cell table's mean length, a filter of
  them as half of its source, `UNKNOWN_ELEMENTS` for a list the tables do not tell).
"""

from __future__ import annotations

import ast as py
import copy

#: the generated loops' helper that spends their budget (codegen_loops.py): a loop runs over `charged(...)`
CHARGED = "charged"
#: the one call a moved part may hold: the range check's helper, which stops the rule (codegen.py)
RAISING = "out_of_range"
#: a loop estimated to have fewer elements than this is left as it is (the extra step would cost more)
MIN_ELEMENTS = 3
#: the estimate for a list the tables do not tell (a definition's value, a variable, a piece's list)
UNKNOWN_ELEMENTS = 4
_EQUALITIES = (py.Eq, py.NotEq, py.Is, py.IsNot)
_MEMBERSHIPS = (py.In, py.NotIn)


def hoist_invariants(statements: list, constants: dict, safe: dict) -> list:
    """`statements` with the invariant parts of their generated loops worked out once per loop (see
    the module's docstring); `safe`: id -> a read the generator knows cannot fail."""
    fresh = Fresh(statements, constants)
    loops = [node for statement in statements for node in _post_order(statement) if _generated_loop(node)]
    for loop in loops:  # inner loops first: what they hoist is then part of the outer loop's body
        _hoist(loop, constants, safe, fresh)
    return statements


def _generated_loop(node) -> bool:
    if type(node) not in (py.ListComp, py.GeneratorExp) or len(node.generators) != 1:
        return False
    loop = node.generators[0]
    source = loop.iter
    return (type(loop.target) is py.Name and type(source) is py.Call and type(source.func) is py.Name
            and source.func.id == CHARGED and len(source.args) == 4)


def _hoist(node, constants, safe, fresh) -> None:
    loop = node.generators[0]
    if estimated_length(loop.iter.args[1], constants) < MIN_ELEMENTS:
        return
    body = [*loop.ifs, node.elt]
    finder = _Invariants(body, loop.target.id, constants, safe, _constant_elements(loop.iter.args[1], constants))
    for index, condition in enumerate(loop.ifs):
        finder.visit(condition, index == 0)
    finder.visit(node.elt, not loop.ifs)
    if not finder.found:
        return
    source = fresh.name()
    parts, held = _locals_of_parts(body, finder.found, fresh)
    values = [_without_walrus(part) for part in parts]
    replaced_ifs = [_replaced(condition, held) for condition in loop.ifs]
    node.elt = _replaced(node.elt, held)
    names = [held[id(part)] for part in parts]
    if len(names) == 1:
        target, value = _store(names[0]), values[0]
    else:
        target = py.Tuple(elts=[_store(n) for n in names], ctx=py.Store())
        value = py.Tuple(elts=values, ctx=py.Load())
    node.generators = [
        _for(_store(source), py.Tuple(elts=[loop.iter], ctx=py.Load()), [_load(source)]),
        _for(target, py.Tuple(elts=[value], ctx=py.Load()), []),
        _for(loop.target, _load(source), replaced_ifs),
    ]


def _locals_of_parts(body, found, fresh):
    """(the parts to work out, each written the same way once, in the order found; id of a node ->
    the local that holds its value). Every place of the body written as a part is (the part found
    first, and any other): what a part reads no loop binds and nothing changes while a rule runs,
    and the part kept is the first place the body works it out (so the value, or the error, is the
    one it would give)."""
    local_of_shape, parts = {}, []
    for part in found:
        shape = py.dump(part)
        if shape not in local_of_shape:
            local_of_shape[shape] = fresh.name()
            parts.append(part)
    kinds = {type(part) for part in parts}
    held = {}
    for part in body:
        for inner in py.walk(part):
            if type(inner) in kinds:
                local = local_of_shape.get(py.dump(inner))
                if local is not None:
                    held[id(inner)] = local
    return parts, held


def _constant_elements(elements, constants):
    """The elements of a loop over a constant tuple (`directions`, `[east, south]`), else None."""
    if type(elements) is py.Name and isinstance(constants.get(elements.id), tuple):
        return constants[elements.id]
    return None


def estimated_length(elements, constants) -> float:
    """How many elements a loop over `elements` usually has: from the tables it reads when it reads
    one (a board's cells, a cell table's mean length; a filter of a list is half of it)."""
    kind = type(elements)
    if kind is py.Subscript and type(elements.value) is py.Name:
        table = constants.get(elements.value.id)
        entries = list(table.values()) if isinstance(table, dict) else table
        if isinstance(entries, (list, tuple)) and entries and all(isinstance(e, tuple) for e in entries):
            held = [len(e) for e in entries if e]  # (a cell table has an empty entry at each number no cell has)
            return sum(held) / len(held) if held else 0
    if kind is py.Name and isinstance(constants.get(elements.id), tuple):
        return len(constants[elements.id])
    if kind is py.Call and type(elements.func) is py.Name and elements.func.id == "h_tuple" and elements.args:
        inner = elements.args[0]
        if type(inner) is py.ListComp:
            source = inner.generators[0].iter
            if type(source) is py.Tuple:  # a filter whose invariants were hoisted: (charged(...),)
                source = source.elts[0]
            if type(source) is py.Call and source.args and type(source.func) is py.Name and \
                    source.func.id == CHARGED:
                return estimated_length(source.args[1], constants) / 2
    return UNKNOWN_ELEMENTS


class _Invariants:
    """The parts of a loop's body to work out once, found in the order the body works them out."""

    def __init__(self, body, element, constants, safe, elements=None):
        self.constants, self.safe = constants, safe
        self.element, self.elements = element, elements  # the loop's local, and its values when constant
        self.bound = {element}
        self.loads = {}  # name -> how many times the body reads it
        for part in body:
            for inner in py.walk(part):
                if type(inner) is py.Name:
                    if type(inner.ctx) is py.Store:
                        self.bound.add(inner.id)
                    else:
                        self.loads[inner.id] = self.loads.get(inner.id, 0) + 1
        self.found = []
        self.exact = True  # nothing worked out so far could have failed

    def visit(self, node, strict: bool) -> None:
        """Look for parts in `node`; `strict`: the body works `node` out for every element."""
        if self.movable(node) and _worth_holding(node) and (self.cannot_fail(node) or (strict and self.exact)):
            self.found.append(node)
            return
        if id(node) in self.safe:  # a read that cannot fail, made of parts that cannot either
            return
        kind = type(node)
        if kind is py.BoolOp:
            self.visit(node.values[0], strict)
            for value in node.values[1:]:
                self.visit(value, False)
        elif kind is py.IfExp:
            self.visit(node.test, strict)
            self.visit(node.body, False)
            self.visit(node.orelse, False)
        elif kind is py.Compare:
            self.visit(node.left, strict)
            for index, side in enumerate(node.comparators):
                self.visit(side, strict and index == 0)  # a chain stops at its first false link
        elif kind is py.BinOp:
            self.visit(node.left, strict)
            self.visit(node.right, strict)
        elif kind is py.UnaryOp:
            self.visit(node.operand, strict)
        elif kind is py.Subscript:
            self.visit(node.value, strict)
            self.visit(node.slice, strict)
        elif kind is py.Attribute:
            self.visit(node.value, strict)
        elif kind is py.NamedExpr:
            self.visit(node.value, strict)
        elif kind in (py.Tuple, py.List):
            for item in node.elts:
                self.visit(item, strict)
        elif kind is py.Call:
            for argument in node.args:
                self.visit(argument, strict)
        elif kind in (py.ListComp, py.GeneratorExp):
            self.visit(node.generators[0].iter, strict)  # the rest runs per element of the inner loop
        if not self.cannot_fail(node, shallow=True):
            self.exact = False

    def movable(self, node) -> bool:
        """True when `node` reads nothing the loop binds and calls nothing but the range check."""
        own = set()
        for inner in py.walk(node):
            kind = type(inner)
            if kind in (py.ListComp, py.GeneratorExp, py.Lambda, py.Starred):
                return False
            if kind is py.Call and not (type(inner.func) is py.Name and inner.func.id == RAISING):
                return False
            if kind is py.NamedExpr:
                own.add(inner.target.id)
        reads = {}
        for inner in py.walk(node):
            if type(inner) is py.Name and type(inner.ctx) is py.Load:
                reads[inner.id] = reads.get(inner.id, 0) + 1
        if any(reads.get(name, 0) != self.loads.get(name, 0) for name in own):
            return False  # a temporary this part sets is read elsewhere in the body too
        return not any(name in self.bound for name in reads if name not in own)

    def cannot_fail(self, node, shallow: bool = False) -> bool:
        """True when working `node` out cannot fail (`shallow`: its own operation, its parts aside)."""
        if id(node) in self.safe:
            return True
        kind = type(node)
        if kind in (py.Constant, py.Name, py.NamedExpr, py.Tuple, py.List):
            return shallow or all(self.cannot_fail(n) for n in py.iter_child_nodes(node)
                                  if not isinstance(n, py.expr_context))
        if kind is py.Attribute:
            return type(node.value) is py.Name
        if kind is py.Subscript:
            return self.read_by_element(node)
        if kind is py.Compare:
            if not all(type(op) in _EQUALITIES or (type(op) in _MEMBERSHIPS and self.constant_table(side))
                       for op, side in zip(node.ops, node.comparators)):
                return False
            return shallow or all(self.cannot_fail(n) for n in (node.left, *node.comparators))
        if kind in (py.BoolOp, py.IfExp) or (kind is py.UnaryOp and type(node.op) is py.Not):
            return shallow or all(self.cannot_fail(n) for n in py.iter_child_nodes(node)
                                  if isinstance(n, py.expr))
        return False

    def read_by_element(self, node) -> bool:
        """True for `TABLE[e]`, TABLE a constant and `e` the element of a loop over a constant tuple
        whose every value is a key of TABLE (a direction's table read for each direction)."""
        if not (type(node.value) is py.Name and type(node.slice) is py.Name and node.slice.id == self.element
                and self.elements is not None):
            return False
        table = self.constants.get(node.value.id)
        if isinstance(table, dict):
            return all(value in table for value in self.elements)
        if isinstance(table, (tuple, list)):
            return all(type(value) is int and -len(table) <= value < len(table) for value in self.elements)
        return False

    def constant_table(self, node) -> bool:
        return type(node) is py.Name and isinstance(self.constants.get(node.id), (tuple, frozenset))


def _worth_holding(node) -> bool:
    """True when working `node` out costs more than reading the local that would hold it."""
    if type(node) in (py.Constant, py.Name):
        return False
    return not (type(node) is py.Attribute and type(node.value) is py.Name)


def _without_walrus(node):
    """`node` with each `(t := V)` written `V` and each read of `t` written `V` again (V pure)."""
    values = {}

    def rewrite(inner):
        kind = type(inner)
        if kind is py.Name and type(inner.ctx) is py.Load and inner.id in values:
            return copy.deepcopy(values[inner.id])
        for field, value in py.iter_fields(inner):  # in field order: a `:=` comes before its reads
            if isinstance(value, py.AST):
                setattr(inner, field, rewrite(value))
            elif isinstance(value, list):
                setattr(inner, field, [rewrite(v) if isinstance(v, py.AST) else v for v in value])
        if kind is py.NamedExpr:
            values[inner.target.id] = inner.value
            return inner.value
        return inner

    return rewrite(node)


def _replaced(node, held: dict):
    """`node` with each part in `held` (by id) replaced by a read of the local that holds it."""
    if id(node) in held:
        return _load(held[id(node)])
    for field, value in py.iter_fields(node):
        if isinstance(value, py.AST):
            setattr(node, field, _replaced(value, held))
        elif isinstance(value, list):
            setattr(node, field, [_replaced(v, held) if isinstance(v, py.AST) else v for v in value])
    return node


def _post_order(node):
    for child in py.iter_child_nodes(node):
        yield from _post_order(child)
    yield node


class Fresh:
    """Names no generated code of the function uses yet: `h1`, `h2`... (`prefix` h)."""

    def __init__(self, statements, constants, prefix="h"):
        self.taken = set(constants) | {n.id for s in statements for n in py.walk(s) if type(n) is py.Name}
        self.count = 0
        self.prefix = prefix

    def name(self) -> str:
        while True:
            self.count += 1
            name = f"{self.prefix}{self.count}"
            if name not in self.taken:
                self.taken.add(name)
                return name


def _for(target, elements, conditions):
    return py.comprehension(target=target, iter=elements, ifs=conditions, is_async=0)


def _load(name):
    return py.Name(id=name, ctx=py.Load())


def _store(name):
    return py.Name(id=name, ctx=py.Store())
