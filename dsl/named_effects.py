"""Named effects (`effects:`): each use, `pay(me, 3)`, gets the statements it runs.

A pack's `effects:` section names blocks of statements, maybe with
parameters. A statement `NAME(args)` is an `ast.Do`; once the sections are
read, `attach(model, bag)` fills in each Do's parameters and body (the named
effect's statements, their own uses filled in too). So the checker, the
compiler and every pass that walks statements (which effects may ask a
choice, what a rule costs, the lints) see the statements that run, and a
mistake inside a named effect points at its own line.

Each named effect is filled in once and shared by all its uses, so the
work grows with the pack, not with how often effects use each other. An
effect that uses itself, through others or not, is E240; a name that is no
effect is E204; the wrong number of arguments E220.
"""

from __future__ import annotations

import attrs

from boardrule.dsl import ast
from boardrule.dsl.diagnostics import did_you_mean


def attach(model, bag):
    """The model with every `ast.Do` of every effect filled in (see the module's docstring)."""
    named = {effect.name: effect for effect in model.effects}
    if not named and not _has_do(model):
        return model
    filler = _Filler(named, bag)
    effects = tuple(attrs.evolve(e, body=filler.body_of(e.name)) for e in model.effects)
    actions = tuple(attrs.evolve(a, effect=filler.block(a.effect)) for a in model.actions)
    pieces = tuple(attrs.evolve(p, triggers=tuple((event, filler.block(body)) for event, body in p.triggers))
                   for p in model.pieces)
    flow = attrs.evolve(model.flow, setup=filler.steps(model.flow.setup), round=filler.steps(model.flow.round))
    return attrs.evolve(model, effects=effects, actions=actions, pieces=pieces, flow=flow)


def _has_do(model) -> bool:
    blocks = [a.effect for a in model.actions] + [body for p in model.pieces for _, body in p.triggers]
    blocks += [s.effect for s in model.flow.setup + model.flow.round]
    return any(isinstance(node, ast.Do) for block in blocks for node in _statements(block))


def _statements(block):
    for statement in block:
        yield statement
        for field in attrs.fields(type(statement)):
            value = getattr(statement, field.name)
            if field.name == "branches":
                for _, body in value:
                    yield from _statements(body)
            elif field.name in ("body", "otherwise") and isinstance(value, tuple):
                yield from _statements(value)


class _Filler:
    def __init__(self, named, bag):
        self.named, self.bag = named, bag
        self.filled = {}  # effect name -> its body, filled in
        self.filling = []  # the effects being filled in now: one met again uses itself

    def body_of(self, name) -> tuple:
        if name in self.filled:
            return self.filled[name]
        effect = self.named[name]
        self.filling.append(name)
        try:
            body = self.block(effect.body)
        finally:
            self.filling.pop()
        self.filled[name] = body
        return body

    def steps(self, steps) -> tuple:
        return tuple(attrs.evolve(s, effect=self.block(s.effect)) if s.effect else s for s in steps)

    def block(self, statements) -> tuple:
        return tuple(self.statement(s) for s in statements)

    def statement(self, node):
        if isinstance(node, ast.Do):
            return self.use(node)
        changes = {}
        for field in attrs.fields(type(node)):
            value = getattr(node, field.name)
            if field.name == "branches":
                changes["branches"] = tuple((test, self.block(body)) for test, body in value)
            elif field.name in ("body", "otherwise") and isinstance(value, tuple):
                changes[field.name] = self.block(value)
        return attrs.evolve(node, **changes) if changes else node

    def use(self, node):
        effect = self.named.get(node.name)
        if effect is None:
            hint = did_you_mean(node.name, sorted(self.named))
            self.bag.error("E204", f"unknown effect `{node.name}`" + ("" if self.named else
                           " (the pack names none in `effects:`)"), node.span, hint)
            return node
        if node.name in self.filling:
            chain = " -> ".join(self.filling[self.filling.index(node.name):] + [node.name])
            self.bag.error("E240", f"effect `{node.name}` uses itself ({chain})", node.span,
                           "an effect may use other effects, but not, through them, itself: use `for` to repeat")
            return node
        if len(node.args) != len(effect.params):
            self.bag.error("E220", f"effect `{node.name}` takes {len(effect.params)} argument(s), "
                                   f"{len(node.args)} given", node.span)
            return node
        return attrs.evolve(node, params=effect.params, body=self.body_of(node.name))
