"""Filters kept in a local, written as statements: the last pass on generated code, after hoisting.py.

A filter is generated as one expression, a comprehension over its source
spent from the work budget by a helper call (codegen_loops.py), with the
parts its condition works out once bound by one-element loops (hoisting.py):

    listed = h_tuple([e for h1 in (charged(ctx, S, w, s),) if h1 for h2 in (P,) for e in h1 if C])

Where such a filter is the whole value of an assignment (a parameter's list
of moves, a local of an effect), an expression is not needed: this pass
writes the same work as statements, which Python runs with fewer calls
(no helper per filter, no one-element loops, no function of the
comprehension's own with cells for the locals its condition reads, and a
filter of a filter keeps its inner list as a plain local):

    h1 = S
    ctx.meter.left -= h_len(h1) * w
    if ctx.meter.left < 0:
        ctx.meter.over(s)
    if h1:
        h2 = P
        listed = []
        for e in h1:
            if C:
                listed.append(e)
        listed = h_tuple(listed)
    else:
        listed = ()

Nothing shows but the time: the same parts are worked out in the same
order (the source, the budget spent and checked with the same span, the
bound parts only when the source has elements, then the elements), so the
value, the units spent and any error are those of the expression
(tests/test_lowering.py, and the whole-game comparisons of
tests/test_codegen.py).

    >>> import ast
    >>> tree = ast.parse("x = h_tuple([e for e in charged(ctx, cells, 2, s1) if e > 3])")
    >>> print(ast.unparse(ast.fix_missing_locations(ast.Module(lower_filters(tree.body), []))))
    f1 = cells
    ctx.meter.left -= h_len(f1) * 2
    if ctx.meter.left < 0:
        ctx.meter.over(s1)
    x = []
    for e in f1:
        if e > 3:
            x.append(e)
    x = h_tuple(x)

A truth fold (`any`, `all`, `none`) that is the whole value a function
returns is written the same way, as the loops of its comprehension, so
that it stops at the first element that decides it without a generator
(the helpers' `any` and `all` each run one): a `let` at the head of the
tested body becomes an assignment before the test.

    return h_any((B for h1 in (charged(ctx, S, w, s),) if h1 for h2 in (P,) for x in h1))
 -> h1 = S
    (the budget spent as above)
    if h1:
        h2 = P
        for x in h1:
            if B:
                return True
    return False

Last, outside comprehensions a range check that the generator wrote with
its value three times (it must, inside a loop's iterable, where Python
refuses `:=`) holds the value once: `t if -M <= (t := V) <= M else
out_of_range(t, s)`.
"""

from __future__ import annotations

import ast as py

from boardrule.interpreter.compiler.hoisting import CHARGED, RAISING, Fresh

TUPLE = "h_tuple"  # the generated filters' wrapper (codegen_loops.g_Where)
LENGTH = "h_len"


def lower_filters(statements: list, constants=(), plain=()) -> list:
    """`statements` with every assignment of a generated filter written as statements (see the
    module's docstring), in loops and branches too; `constants`: the names of the function's
    constants (no local takes one); `plain`: locals the function only iterates and counts, which
    may hold a list instead of the tuple a filter's value is (a lister's lists of values)."""
    fresh = Fresh(statements, constants, prefix="f")
    lowered = _block(statements, fresh, frozenset(plain))
    for statement in lowered:
        _hold_checked_arithmetic(statement, fresh)
    return lowered


def _block(statements: list, fresh, plain) -> list:
    out = []
    for statement in statements:
        if type(statement) is py.Assign and len(statement.targets) == 1 and type(statement.targets[0]) is py.Name:
            name = statement.targets[0].id
            lowered = _assigned(name, statement.value, fresh, as_tuple=name not in plain)
            if lowered is not None:
                out.extend(lowered)
                continue
        if type(statement) is py.Return and statement.value is not None:
            lowered = _returned(statement.value, fresh)
            if lowered is not None:
                out.extend(lowered)
                continue
        for field in ("body", "orelse"):
            inner = getattr(statement, field, None)
            if isinstance(inner, list) and inner and isinstance(inner[0], py.stmt):
                setattr(statement, field, _block(inner, fresh, plain))
        out.append(statement)
    return out


def _filter_of(value):
    """The comprehension of `h_tuple([...])` over a charged source, or None."""
    if not (type(value) is py.Call and type(value.func) is py.Name and value.func.id == TUPLE
            and len(value.args) == 1 and not value.keywords and type(value.args[0]) is py.ListComp):
        return None
    comprehension = value.args[0]
    first = comprehension.generators[0]
    if type(first.target) is not py.Name or first.is_async:
        return None
    if _charged(first.iter) is not None:
        return comprehension  # `[e for e in charged(...) if C]`
    held = first.target.id
    if (type(first.iter) is py.Tuple and len(first.iter.elts) == 1 and _charged(first.iter.elts[0]) is not None
            and len(first.ifs) == 1 and type(first.ifs[0]) is py.Name and first.ifs[0].id == held
            and len(comprehension.generators) > 1):
        return comprehension  # hoisted: `[e for h1 in (charged(...),) if h1 ... for e in h1 ...]`
    return None


def _lookup_of(value):
    """`LOOKUP if charged(...) else ()` (codegen_index.py), or None."""
    if (type(value) is py.IfExp and _charged(value.test) is not None and type(value.orelse) is py.Tuple
            and not value.orelse.elts):
        return value
    return None


def _charged(node):
    """`charged(ctx, elements, cost, span)` as (ctx, elements, cost, span), or None."""
    if (type(node) is py.Call and type(node.func) is py.Name and node.func.id == CHARGED and len(node.args) == 4
            and not node.keywords and type(node.args[0]) is py.Name):
        return node.args
    return None


def _assigned(name: str, value, fresh, as_tuple=True):
    """The statements that leave in `name` what the filter `value` gives, or None for any other value;
    without `as_tuple`, the filter's elements as a list (a local only its own filter reads)."""
    looked_up = _lookup_of(value)
    if looked_up is not None:  # `LOOKUP if charged(ctx, S, w, s) else ()`: a filter answered by an index
        held = fresh.name()
        return _held_source(held, looked_up.test.args, fresh) + [
            py.If(test=_load(held), body=[_assign(name, looked_up.body)], orelse=[_assign(name, looked_up.orelse)])]
    comprehension = _filter_of(value)
    if comprehension is None:
        return None
    first, rest = comprehension.generators[0], comprehension.generators[1:]
    hoisted = _charged(first.iter) is None
    if hoisted:
        held = first.target.id
        statements = _held_source(held, _charged(first.iter.elts[0]), fresh)
    else:
        held = fresh.name()
        statements = _held_source(held, _charged(first.iter), fresh)
        rest = [py.comprehension(target=first.target, iter=_load(held), ifs=first.ifs, is_async=0)]
    bound = []
    while len(rest) > 1 and _binding(rest[0]):
        bound.append(py.Assign(targets=[rest[0].target], value=rest[0].iter.elts[0]))
        rest = rest[1:]
    result = _collected(name, comprehension.elt, rest, fresh, as_tuple)
    if not hoisted:
        return statements + bound + result
    nothing = py.Tuple(elts=[], ctx=py.Load()) if as_tuple else py.List(elts=[], ctx=py.Load())
    return statements + [py.If(test=_load(held), body=bound + result, orelse=[_assign(name, nothing)])]


def _collected(name: str, element, loops, fresh, as_tuple) -> list:
    """The statements that leave in `name` the elements of `[element for <loops>]` (a tuple with
    `as_tuple`): the loops as statements appending to a list, which spare the comprehension's own
    function and the cells its body's locals would need (the same elements in the same order)."""
    if not _lowerable(loops):
        listed = py.ListComp(elt=element, generators=loops)
        return [_assign(name, py.Call(func=_load(TUPLE), args=[listed], keywords=[]) if as_tuple else listed)]
    reads = {node.id for loop in loops for node in py.walk(loop) if type(node) is py.Name}
    reads |= {node.id for node in py.walk(element) if type(node) is py.Name}
    building = fresh.name() if name in reads else name  # (a list the loops read is replaced only once built)
    append = py.Expr(value=py.Call(func=py.Attribute(value=_load(building), attr="append", ctx=py.Load()),
                                   args=[element], keywords=[]))
    statements = [_assign(building, py.List(elts=[], ctx=py.Load()))] + _loops(loops, [append], fresh)
    if as_tuple:
        statements.append(_assign(name, py.Call(func=_load(TUPLE), args=[_load(building)], keywords=[])))
    elif building != name:
        statements.append(_assign(name, _load(building)))
    return statements


def _held_source(held: str, charged_args, fresh) -> list:
    """A loop's source (the arguments of its `charged(ctx, S, cost, span)`) in the local `held` (a filter
    as a plain list), then its budget spent as the helper spends it."""
    ctx, elements, cost, span = charged_args
    statements = _assigned(held, elements, fresh, as_tuple=False) or [_assign(held, elements)]
    return statements + _spend(ctx, held, cost, span)


def _binding(loop) -> bool:
    """A one-element loop that binds a part worked out once (hoisting.py): `for h2 in (P,)`."""
    return (type(loop.iter) is py.Tuple and len(loop.iter.elts) == 1 and not loop.ifs
            and type(loop.target) in (py.Name, py.Tuple))


def _spend(ctx, held: str, cost, span) -> list:
    """The budget spent as the helper `charged` spends it: `len(elements) * cost`, then `over`."""
    meter = py.Attribute(value=ctx, attr="meter", ctx=py.Load())
    units = py.Call(func=_load(LENGTH), args=[_load(held)], keywords=[])
    if not (type(cost) is py.Constant and cost.value == 1):
        units = py.BinOp(left=units, op=py.Mult(), right=cost)
    spend = py.AugAssign(target=py.Attribute(value=meter, attr="left", ctx=py.Store()), op=py.Sub(), value=units)
    spent = py.Compare(left=py.Attribute(value=meter, attr="left", ctx=py.Load()), ops=[py.Lt()],
                       comparators=[py.Constant(0)])
    over = py.Expr(value=py.Call(func=py.Attribute(value=meter, attr="over", ctx=py.Load()), args=[span],
                                 keywords=[]))
    return [spend, py.If(test=spent, body=[over], orelse=[])]


def _assign(name, value):
    return py.Assign(targets=[py.Name(id=name, ctx=py.Store())], value=value)


def _load(name):
    return py.Name(id=name, ctx=py.Load())


#: the truth folds of generated code (codegen_loops.py): helper -> (the element's truth that decides, the result then)
_DECIDING = {"h_any": (True, True), "h_all": (False, False)}


def _returned(value, fresh):
    """The statements that return what the truth fold `value` gives (`h_any(...)`, `h_all(...)`, or
    `not` of one) as loops that stop at the deciding element, or None for any other value; a `let`
    at the head of the value becomes an assignment before the rest is returned."""
    lets, rest = _lets(value)
    if lets:
        return lets + (_returned(rest, fresh) or [py.Return(value=rest)])
    negated = type(value) is py.UnaryOp and type(value.op) is py.Not
    fold = value.operand if negated else value
    if not (type(fold) is py.Call and type(fold.func) is py.Name and fold.func.id in _DECIDING
            and len(fold.args) == 1 and not fold.keywords and type(fold.args[0]) is py.GeneratorExp):
        return None
    comprehension = fold.args[0]
    if not _lowerable(comprehension.generators):
        return None
    deciding, result = _DECIDING[fold.func.id]
    if negated:
        result = not result
    lets, test = _lets(comprehension.elt)
    if not deciding:
        test = py.UnaryOp(op=py.Not(), operand=test)
    decide = lets + [py.If(test=test, body=[py.Return(value=py.Constant(result))], orelse=[])]
    return _loops(comprehension.generators, decide, fresh) + [py.Return(value=py.Constant(not result))]


def _lowerable(generators) -> bool:
    """True when every loop of a comprehension can be a statement: a plain target (a local, or a
    tuple of them for a one-element loop binding parts worked out once)."""
    for loop in generators:
        if loop.is_async:
            return False
        target = loop.target
        if not (type(target) is py.Name or (_binding(loop) and type(target) is py.Tuple
                                             and all(type(n) is py.Name for n in target.elts))):
            return False
    return True


def _loops(generators, innermost: list, fresh) -> list:
    """The comprehension's loops as statements around `innermost`: a loop over a charged source
    spends its budget before its first element, a one-element loop is an assignment, each
    condition an `if` (the same parts worked out in the same order as the comprehension)."""
    loop = generators[0]
    body = _loops(generators[1:], innermost, fresh) if len(generators) > 1 else innermost
    for condition in reversed(loop.ifs):
        body = [py.If(test=condition, body=body, orelse=[])]
    target = loop.target
    if type(loop.iter) is py.Tuple and len(loop.iter.elts) == 1:
        part = loop.iter.elts[0]
        spent = _charged(part)
        if spent is not None and type(target) is py.Name:  # `for h1 in (charged(...),)`: the source, held
            return _held_source(target.id, spent, fresh) + body
        return [py.Assign(targets=[target], value=part)] + body
    spent = _charged(loop.iter)
    if spent is None:
        return [py.For(target=target, iter=loop.iter, body=body, orelse=[])]
    held = fresh.name()
    return _held_source(held, spent, fresh) + [py.For(target=target, iter=_load(held), body=body, orelse=[])]


def _lets(test):
    """(assignments, the rest of the test) of a test whose head binds `let` names as generated:
    `((v := A) or True) and B` is `v = A`, then the test `B`."""
    lets = []
    while (type(test) is py.BoolOp and type(test.op) is py.And and len(test.values) >= 2
           and _let_binding(test.values[0])):
        named = test.values[0].values[0]
        lets.append(py.Assign(targets=[py.Name(id=named.target.id, ctx=py.Store())], value=named.value))
        rest = test.values[1:]
        test = rest[0] if len(rest) == 1 else py.BoolOp(op=py.And(), values=rest)
    return lets, test


def _let_binding(node) -> bool:
    """`(v := A) or True`: always true, `v` bound."""
    return (type(node) is py.BoolOp and type(node.op) is py.Or and len(node.values) == 2
            and type(node.values[0]) is py.NamedExpr and type(node.values[1]) is py.Constant
            and node.values[1].value is True)


#: what a loop's iterable may not hold, so the generator writes a checked sum twice there (codegen.py)
_NO_WALRUS = (py.ListComp, py.GeneratorExp, py.SetComp, py.DictComp, py.Lambda)


def _hold_checked_arithmetic(node, fresh) -> None:
    """Outside comprehensions, `V if -M <= V <= M else out_of_range(V, s)`, V written out three times
    (as the generator writes it inside a loop's iterable, where `:=` is refused), becomes
    `t if -M <= (t := V) <= M else out_of_range(t, s)`: V worked out once (it is pure)."""
    for field, value in py.iter_fields(node):
        if isinstance(value, list):
            for i, item in enumerate(value):
                if isinstance(item, py.AST) and not isinstance(item, _NO_WALRUS):
                    value[i] = _held(item, fresh)
                    _hold_checked_arithmetic(value[i], fresh)
        elif isinstance(value, py.AST) and not isinstance(value, _NO_WALRUS):
            held = _held(value, fresh)
            setattr(node, field, held)
            _hold_checked_arithmetic(held, fresh)


def _held(node, fresh):
    """`node` with V held once if it is the range check of V written out three times; else `node`."""
    if not (type(node) is py.IfExp and type(node.test) is py.Compare and len(node.test.ops) == 2
            and all(type(op) is py.LtE for op in node.test.ops) and type(node.test.left) is py.Constant
            and len(node.test.comparators) == 2 and type(node.test.comparators[1]) is py.Constant
            and type(node.orelse) is py.Call and type(node.orelse.func) is py.Name
            and node.orelse.func.id == RAISING and len(node.orelse.args) == 2):
        return node
    value = node.test.comparators[0]
    shape = py.dump(value)
    if type(value) is py.Name or py.dump(node.body) != shape or py.dump(node.orelse.args[0]) != shape:
        return node
    held = fresh.name()
    node.test.comparators[0] = py.NamedExpr(target=py.Name(id=held, ctx=py.Store()), value=value)
    node.body = _load(held)
    node.orelse.args[0] = _load(held)
    return node
