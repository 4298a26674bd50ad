"""Budget checks put off over code that cannot fail: a pass on generated code, after lowering.py.

Generated code spends the work budget and checks it at once, each time:

    meter.left -= h_len(h1) * 3
    if meter.left < 0:
        meter.over(s1)
    <code that cannot fail and changes only its own locals>
    meter.left -= h_len(listed)
    if meter.left < 0:
        meter.over(s2)

Where nothing between two such charges can fail or be seen outside the
function, the first check may wait for the second: the same units are
spent, and the error is the same, since a budget spent by the first charge
is still spent after the second (units are never given back) and the span
named is the one of the charge that spent it:

    meter.left -= h_len(h1) * 3
    <the same code>
    meter.left -= h_len(listed)
    if meter.left < 0:
        meter.over(s1 if meter.left + h_len(listed) < 0 else s2)

(`Meter.over` leaves the meter spent whatever it held, so nothing else
differs.) The second charge's units are worked out again only on the way
to the error, so they must be pure and cheap: a count of a local, times a
constant. What cannot fail is decided by the form of the code alone: reads
of locals and of tables by subscript, the comparisons `==`, `!=`, `is`,
`is not`, `and`, `or`, `not`, conditional values, counts of locals,
assignments to locals, `if`, `for` over a local and appends to a list the
same code made. Anything else (a call, arithmetic, a change of the state
or of `found`) keeps the check before it.

    >>> import ast
    >>> code = ast.parse('''
    ... meter.left -= h_len(a) * 3
    ... if meter.left < 0:
    ...     meter.over(s1)
    ... b = []
    ... for e in a:
    ...     if k[e] is None:
    ...         b.append(e)
    ... meter.left -= h_len(b)
    ... if meter.left < 0:
    ...     meter.over(s2)
    ... ''').body
    >>> print(ast.unparse(ast.fix_missing_locations(ast.Module(put_off_checks(code), []))))
    meter.left -= h_len(a) * 3
    b = []
    for e in a:
        if k[e] is None:
            b.append(e)
    meter.left -= h_len(b)
    if meter.left < 0:
        meter.over(s1 if meter.left + h_len(b) < 0 else s2)
"""

from __future__ import annotations

import ast as py

LENGTH = "h_len"
_QUIET_COMPARISONS = (py.Eq, py.NotEq, py.Is, py.IsNot)


def put_off_checks(statements: list) -> list:
    """`statements` with each budget check that code which cannot fail follows put off to the next charge
    (see the module's docstring), in loops and branches too."""
    for statement in statements:
        for field in ("body", "orelse"):
            inner = getattr(statement, field, None)
            if isinstance(inner, list) and inner and isinstance(inner[0], py.stmt):
                setattr(statement, field, put_off_checks(inner))
    return _merged(statements)


def _merged(statements: list) -> list:
    out = []
    pending = None  # (index in `out` of a check that may be put off, its span, the local lists made since)
    i = 0
    while i < len(statements):
        charge = _charge(statements, i)
        if charge is not None:
            units, span = charge
            out.append(statements[i])
            if pending is not None and _repeatable(units):
                index, first_span, _ = pending
                out[index] = None  # the earlier check goes: this one names its span when it is the one
                span = py.IfExp(test=_spent_before(statements[i], units), body=first_span, orelse=span)
                out.append(_check(statements[i + 1], span))
                pending = None  # (pairs only: a third charge would shift the test of the first)
            else:
                out.append(statements[i + 1])
                pending = (len(out) - 1, span, set())
            i += 2
            continue
        if pending is not None and not _quiet_statement(statements[i], pending[2]):
            pending = None
        out.append(statements[i])
        i += 1
    return [s for s in out if s is not None]


def _charge(statements, i):
    """(units, span) when statements i and i + 1 are `M.left -= units` and `if M.left < 0: M.over(span)`."""
    if i + 1 >= len(statements):
        return None
    spend, check = statements[i], statements[i + 1]
    if not (type(spend) is py.AugAssign and type(spend.op) is py.Sub and type(spend.target) is py.Attribute
            and spend.target.attr == "left"):
        return None
    meter = py.dump(spend.target.value)
    if not (type(check) is py.If and not check.orelse and len(check.body) == 1 and type(check.test) is py.Compare
            and len(check.test.ops) == 1 and type(check.test.ops[0]) is py.Lt
            and type(check.test.left) is py.Attribute and check.test.left.attr == "left"
            and py.dump(check.test.left.value) == meter
            and type(check.test.comparators[0]) is py.Constant and check.test.comparators[0].value == 0):
        return None
    over = check.body[0]
    if not (type(over) is py.Expr and type(over.value) is py.Call and type(over.value.func) is py.Attribute
            and over.value.func.attr == "over" and py.dump(over.value.func.value) == meter
            and len(over.value.args) == 1 and not over.value.keywords):
        return None
    return spend.value, over.value.args[0]


def _check(check, span):
    """The check `if M.left < 0: M.over(...)` naming `span`."""
    over = check.body[0].value
    call = py.Call(func=over.func, args=[span], keywords=[])
    return py.If(test=check.test, body=[py.Expr(value=call)], orelse=[])


def _spent_before(spend, units):
    """`M.left + units < 0`: the budget was spent before this charge."""
    left = py.Attribute(value=spend.target.value, attr="left", ctx=py.Load())
    return py.Compare(left=py.BinOp(left=left, op=py.Add(), right=units), ops=[py.Lt()],
                      comparators=[py.Constant(0)])


def _repeatable(units) -> bool:
    """Units that may be worked out again: `h_len(local)`, or that times a constant."""
    if type(units) is py.BinOp and type(units.op) is py.Mult and type(units.right) is py.Constant:
        units = units.left
    return (type(units) is py.Call and type(units.func) is py.Name and units.func.id == LENGTH
            and len(units.args) == 1 and not units.keywords and type(units.args[0]) is py.Name)


def _quiet_statement(statement, made: set) -> bool:
    """True when `statement` cannot fail and changes nothing but locals (`made`: the local lists it made,
    which it may append to)."""
    kind = type(statement)
    if kind is py.Assign:
        if not (len(statement.targets) == 1 and type(statement.targets[0]) is py.Name
                and _quiet(statement.value)):
            return False
        name = statement.targets[0].id
        if type(statement.value) is py.List and not statement.value.elts:
            made.add(name)
        else:
            made.discard(name)
        return True
    if kind is py.If:
        return (_quiet(statement.test) and all(_quiet_statement(s, made) for s in statement.body)
                and all(_quiet_statement(s, made) for s in statement.orelse))
    if kind is py.For:
        return (type(statement.target) is py.Name and type(statement.iter) is py.Name and not statement.orelse
                and statement.target.id not in made and all(_quiet_statement(s, made) for s in statement.body))
    if kind is py.Expr:
        call = statement.value
        return (type(call) is py.Call and type(call.func) is py.Attribute and call.func.attr == "append"
                and type(call.func.value) is py.Name and call.func.value.id in made and len(call.args) == 1
                and not call.keywords and _quiet(call.args[0]))
    return False


def _quiet(node) -> bool:
    """True when the expression `node` cannot fail and changes nothing."""
    kind = type(node)
    if kind in (py.Name, py.Constant):
        return True
    if kind is py.Attribute:  # the context's own fields (`ctx.state.kind`)
        return type(node.value) is py.Attribute and _quiet(node.value) or (
            type(node.value) is py.Name and node.value.id == "ctx")
    if kind is py.Subscript:
        return type(node.value) in (py.Name, py.Attribute, py.Subscript) and _quiet(node.value) and _quiet(node.slice)
    if kind is py.Compare:
        return (all(type(op) in _QUIET_COMPARISONS for op in node.ops) and _quiet(node.left)
                and all(_quiet(c) for c in node.comparators))
    if kind is py.BoolOp:
        return all(_quiet(v) for v in node.values)
    if kind is py.UnaryOp:
        return type(node.op) is py.Not and _quiet(node.operand)
    if kind is py.IfExp:
        return _quiet(node.test) and _quiet(node.body) and _quiet(node.orelse)
    if kind is py.List:
        return all(_quiet(e) for e in node.elts)
    if kind is py.Call:
        return _repeatable(node)
    return False
