"""What `set` and `+=`/`-=` write: a variable (`gold`), a variable of any player (`me.gold`, `p.gold`,
`mover.gold`, `set left_of(me).gold += 1`), or one element of a list variable (`track[i]`, `p.row[c] += 1`),
and whether the value fits it.

The checker's `s_Set`/`s_Change` call `check_set`/`check_change`; `checker.out.resolved[target]` records
whose variable it is (global, the player's own, a player named by a local or held in a variable, a player
an expression gives).
"""

from __future__ import annotations

from boardrule.dsl import ast
from boardrule.dsl.diagnostics import did_you_mean
from boardrule.dsl.resolution import ExprPlayerVar, Global, HeldPlayerVar, PlayerVar, Resolution
from boardrule.dsl.types import ANY, NUM, PLAYER, Type, compatible, item_type, unknown
from boardrule.dsl.unparse import unparse


def target_type(checker, target: ast.Target, scope) -> Type:
    """The type of the variable a target names (E207 when it names none, E214 when no player is meant)."""
    if target.owner is None:
        if target.name in checker.sym.vars:
            checker.out.resolved[target] = Global()
            return checker.sym.vars[target.name]
        if target.name in checker.sym.player_vars and scope.me:
            checker.out.resolved[target] = PlayerVar()
            return checker.sym.player_vars[target.name]
        if target.name in checker.sym.player_vars:  # declared, but whose? (it once said "not a variable")
            checker.error("E214", f"`{target.name}` is a player variable, but no player is meant here", target,
                          f"name the player: `for p in players {{ set p.{target.name} = ... }}`")
            return checker.sym.player_vars[target.name]
        names = sorted(set(checker.sym.vars) | set(checker.sym.player_vars))
    else:
        owner = target.owner  # any expression that gives a player: `me`, `p`, `mover`, `left_of(me)`, `c.owner`
        owner_type = checker.expr(owner, scope)
        if owner_type not in (PLAYER, ANY):
            written = unparse(ast.Attribute(owner, target.name, target.span))  # `(1 + 2).coins`, parenthesised
            checker.error("E207", f"`{unparse(owner)}` is not a player (it is a {owner_type}), so "
                          f"`{written}` cannot be set", target)
            return ANY
        if target.name in checker.sym.player_vars:
            checker.out.resolved[target] = _whose(checker, owner, scope)
            return checker.sym.player_vars[target.name]
        names = sorted(checker.sym.player_vars)
    hint = did_you_mean(target.name, names)
    checker.error("E207", f"`{target.name}` is not a variable; declare it under `vars:` or `player_vars:`",
                  target, hint)
    return ANY


def _whose(checker, owner, scope) -> Resolution:
    """The resolution of a player's variable set through `owner`: the compiler reads a bare name its own
    way (the acting player, a local, a variable holding a player), any other expression by evaluating it."""
    if isinstance(owner, ast.Name) and owner.id not in scope.locals and owner.id in checker.sym.vars:
        return HeldPlayerVar(owner.id)
    if isinstance(owner, ast.Name) and (owner.id in scope.locals or owner.id in ("me", "left", "right")):
        return PlayerVar(owner.id)
    return ExprPlayerVar()


def written_type(checker, target: ast.Target, scope) -> Type:
    """The type a set or a change writes: the variable's, or its elements' for `name[i]`."""
    held = target_type(checker, target, scope)
    if target.index is None:
        return held
    checker.expect(target.index, scope, NUM, f"the position in `{target.name}`")
    if not held.is_list and held != ANY:
        checker.error("E210", f"`{target.name}` holds a {held}, not a list, so it has no element "
                      f"`{unparse(target)}` to set", target)
        return ANY
    return item_type(held)


def check_set(checker, node, scope):
    expected = written_type(checker, node.target, scope)
    actual = checker.expr(node.value, scope)
    if node.target.index is None and unknown(expected):
        # what the values of a variable that starts as none or [] are shown as (Checked.shown_type)
        checker.out.written.setdefault(node.target.name, set()).add(actual)
    if not compatible(actual, expected) and not compatible(expected, actual):
        checker.error("E210", f"{_holder(node.target)} {expected}, so it cannot be set to a {actual}",
                      node.value)


def check_change(checker, node, scope):
    expected = written_type(checker, node.target, scope)
    if not compatible(expected, NUM):
        checker.error("E210", f"`{node.op}` changes a number, but {_holder(node.target)} {expected}",
                      node.target)
    checker.expect(node.value, scope, NUM, f"the value of `{node.op}`")


def _holder(target: ast.Target) -> str:
    """`track` holds a / an element of `track` is a: the start of a message about what a target holds."""
    if target.index is None:
        return f"`{target.name}` holds a"
    return f"an element of `{target.name}` is a"
