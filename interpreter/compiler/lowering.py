"""Filters kept in a local, written as statements: the last pass on generated code, after hoisting.py.

A filter is generated as one expression, a comprehension over its source
spent from the work budget by a helper call (codegen_loops.py), with the
parts its condition works out once bound by one-element loops (hoisting.py):

    listed = h_tuple([e for h1 in (charged(ctx, S, w, s),) if h1 for h2 in (P,) for e in h1 if C])

Where such a filter is the whole value of an assignment (a parameter's list
of moves, a local of an effect), an expression is not needed: this pass
writes the same work as statements, which Python runs with fewer calls
(no helper per filter, no one-element loops, and a filter of a filter
keeps its inner list as a plain local):

    h1 = S
    ctx.meter.left -= h_len(h1) * w
    if ctx.meter.left < 0:
        ctx.meter.over(s)
    if h1:
        h2 = P
        listed = h_tuple([e for e in h1 if C])
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
    x = h_tuple([e for e in f1 if e > 3])
"""

from __future__ import annotations

import ast as py

from boardrule.interpreter.compiler.hoisting import CHARGED, Fresh

TUPLE = "h_tuple"  # the generated filters' wrapper (codegen_loops.g_Where)
LENGTH = "h_len"


def lower_filters(statements: list, constants=(), plain=()) -> list:
    """`statements` with every assignment of a generated filter written as statements (see the
    module's docstring), in loops and branches too; `constants`: the names of the function's
    constants (no local takes one); `plain`: locals the function only iterates and counts, which
    may hold a list instead of the tuple a filter's value is (a lister's lists of values)."""
    fresh = Fresh(statements, constants, prefix="f")
    return _block(statements, fresh, frozenset(plain))


def _block(statements: list, fresh, plain) -> list:
    out = []
    for statement in statements:
        if type(statement) is py.Assign and len(statement.targets) == 1 and type(statement.targets[0]) is py.Name:
            name = statement.targets[0].id
            lowered = _assigned(name, statement.value, fresh, as_tuple=name not in plain)
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


def _charged(node):
    """`charged(ctx, elements, cost, span)` as (ctx, elements, cost, span), or None."""
    if (type(node) is py.Call and type(node.func) is py.Name and node.func.id == CHARGED and len(node.args) == 4
            and not node.keywords and type(node.args[0]) is py.Name):
        return node.args
    return None


def _assigned(name: str, value, fresh, as_tuple=True):
    """The statements that leave in `name` what the filter `value` gives, or None for any other value;
    without `as_tuple`, the filter's elements as a list (a local only its own filter reads)."""
    comprehension = _filter_of(value)
    if comprehension is None:
        return None
    first, rest = comprehension.generators[0], comprehension.generators[1:]
    hoisted = _charged(first.iter) is None
    if hoisted:
        held = first.target.id
        ctx, elements, cost, span = _charged(first.iter.elts[0])
    else:
        held = fresh.name()
        ctx, elements, cost, span = _charged(first.iter)
        rest = [py.comprehension(target=first.target, iter=_load(held), ifs=first.ifs, is_async=0)]
    statements = _assigned(held, elements, fresh, as_tuple=False) or [_assign(held, elements)]
    statements += _spend(ctx, held, cost, span)
    bound = []
    while len(rest) > 1 and _binding(rest[0]):
        bound.append(py.Assign(targets=[rest[0].target], value=rest[0].iter.elts[0]))
        rest = rest[1:]
    listed = py.ListComp(elt=comprehension.elt, generators=rest)
    result = _assign(name, py.Call(func=_load(TUPLE), args=[listed], keywords=[]) if as_tuple else listed)
    if not hoisted:
        return statements + bound + [result]
    nothing = py.Tuple(elts=[], ctx=py.Load()) if as_tuple else py.List(elts=[], ctx=py.Load())
    return statements + [py.If(test=_load(held), body=bound + [result], orelse=[_assign(name, nothing)])]


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
