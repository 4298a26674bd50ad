"""The one place where the engine turns generated code into a Python function (audited).

Generated code is safe by construction, as template engines that compile to
Python make theirs:

* it is built as Python syntax trees (`ast` nodes) by interpreter/compiler/codegen.py
  from the checked tree only, never from source text: no text of a pack is
  ever parsed as Python;
* every name in it is a generated identifier, a parameter, or a key of the
  function's table of constants (helpers and values the generator put
  there); literals enter only as typed constants;
* before `compile()`, :func:`validate` walks the whole tree against a
  whitelist: the node types below, names that are identifiers the generator
  makes (never a dunder), attributes only from ALLOWED_ATTRIBUTES (the
  engine's own runtime objects: the context, the state), calls only to
  names of the constants table or to ALLOWED_METHODS, constants only of
  plain types;
* the function runs with empty `__builtins__`: what it may call is exactly
  its constants table.

The tests enforce that this module holds the engine's only call of
`compile()` and that no `exec`/`eval` exists anywhere
(tests/test_safety.py), and fuzz the generated code against the reference
evaluator (tests/test_reference.py).

    >>> import ast
    >>> body = [ast.Return(ast.BinOp(ast.Name("x", ast.Load()), ast.Add(), ast.Constant(1)))]
    >>> make_function("plus_one", ["x"], body, {})(41)
    42
"""

from __future__ import annotations

import ast
import re
import types

#: what generated code is made of
ALLOWED_NODES = frozenset({
    ast.Module, ast.FunctionDef, ast.arguments, ast.arg, ast.Return, ast.Assign, ast.AugAssign, ast.If,
    ast.For, ast.Expr, ast.Pass, ast.Break, ast.Continue, ast.Raise,
    ast.Name, ast.Load, ast.Store, ast.Constant, ast.Attribute, ast.Subscript, ast.Call, ast.keyword,
    ast.Tuple, ast.List, ast.BinOp, ast.UnaryOp, ast.BoolOp, ast.Compare, ast.IfExp, ast.NamedExpr,
    ast.ListComp, ast.GeneratorExp, ast.comprehension, ast.Lambda,
    ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Mod, ast.RShift, ast.BitAnd, ast.BitOr, ast.BitXor, ast.USub, ast.Not, ast.And, ast.Or,
    ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.In, ast.NotIn, ast.Is, ast.IsNot,
})
#: attributes generated code may read or write: the evaluation context's and the state's own fields
ALLOWED_ATTRIBUTES = frozenset({
    "state", "me", "it", "self_", "env", "board", "meter", "left", "game", "marks", "event", "answers",
    "vars", "pvars", "options", "kind", "owner", "attrs", "dice", "points", "round", "players", "held", "tokens",
})
#: methods generated code may call on the values it holds
ALLOWED_METHODS = frozenset({"get", "over", "isdisjoint", "append"})
#: the types a literal of generated code may have
CONSTANT_TYPES = (int, float, str, bool, type(None))
_IDENTIFIER = re.compile(r"[a-z][a-z0-9_]*\Z")


class UnsafeCode(Exception):
    """Generated code outside the whitelist: an engine bug, never a pack's doing."""


def make_function(name: str, params: list, body: list, constants: dict):
    """A function `name(*params)` whose statements are `body` (ast nodes), with `constants` as its
    only globals (helpers and values); validated against the whitelist, then compiled."""
    fields = {"type_params": []} if "type_params" in ast.FunctionDef._fields else {}  # Python 3.12+
    function = ast.FunctionDef(name=name, args=ast.arguments(
        posonlyargs=[], args=[ast.arg(arg=p) for p in params], vararg=None, kwonlyargs=[], kw_defaults=[],
        kwarg=None, defaults=[]), body=body, decorator_list=[], returns=None, **fields)
    module = ast.Module(body=[function], type_ignores=[])
    validate(module, set(params) | set(constants), name)
    ast.fix_missing_locations(module)
    code = compile(module, f"<boardrule:{name}>", "exec")  # the engine's only compile() (see the module's docstring)
    function_code = next(c for c in code.co_consts if isinstance(c, types.CodeType))
    return types.FunctionType(function_code, {"__builtins__": {}, **constants}, name)


def validate(tree: ast.AST, known: set, name: str) -> None:
    """Refuse (UnsafeCode) any node, name, attribute, call or constant outside the whitelist."""
    if not _IDENTIFIER.match(name):
        raise UnsafeCode(f"function name {name!r}")
    assigned = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    assigned |= {n.arg for n in ast.walk(tree) if isinstance(n, ast.arg)}  # a generated lambda's argument
    for node in ast.walk(tree):
        if type(node) not in ALLOWED_NODES:
            raise UnsafeCode(f"{type(node).__name__} in generated code")
        if isinstance(node, ast.Name) and (not _IDENTIFIER.match(node.id) or node.id not in known | assigned):
            raise UnsafeCode(f"name {node.id!r}")
        if isinstance(node, ast.arg) and not _IDENTIFIER.match(node.arg):
            raise UnsafeCode(f"argument {node.arg!r}")
        if isinstance(node, ast.Attribute) and node.attr not in ALLOWED_ATTRIBUTES | ALLOWED_METHODS:
            raise UnsafeCode(f"attribute {node.attr!r}")
        if isinstance(node, ast.Call):
            func = node.func
            named = isinstance(func, ast.Name) and func.id in known
            method = isinstance(func, ast.Attribute) and func.attr in ALLOWED_METHODS
            if not (named or method):
                raise UnsafeCode(f"call of {ast.dump(func)[:80]}")
        if isinstance(node, ast.Constant) and not isinstance(node.value, CONSTANT_TYPES):
            raise UnsafeCode(f"constant of type {type(node.value).__name__}")
