"""Rewrite passes: the checked tree made cheaper to run, before any code is written for it.

    checked tree (dsl/checker.py) --rewrites (this package)--> code generation (exprs.py, codegen*.py) --> runtime

Each pass is a module with one function, `rewrite(node, facts) -> node`. It gives back an
expression that means exactly what `node` means (the same value, the same errors, the same
work, or less of it), written in fewer or cheaper nodes or in the one form later stages know,
or it records in `facts` what later stages may rely on about a node. (The work budget charges a
rule by its size as rewritten: `empty`, written `kind in [none]`, is charged 4 units per cell
where it was 1, `not empty and kind != tower` 5 where it was 6; the limits are far above what
the difference can reach.) A pass never changes a node in place: it makes a new one
(`facts.made`) and keeps every node it does not change, so the checker's resolutions and types
still hold for them. Every pass is for a construct of the language (docs/architecture.md says
how to add one), never for one pack's way of writing it.

    >>> from boardrule.dsl.unparse import unparse
    >>> facts, node = fixture("not (1 + 2 == size)", {"size": "3"})
    >>> unparse(rewrite(node, facts))
    'size != 3'

The passes run in the order of PASSES; each gets what the one before gave. The compiler keeps
the rewritten tree of every rule and definition it compiles; the reference evaluator
(reference.py) reads the tree as the checker left it, so the property tests that compare the
two check the passes too.
"""

from __future__ import annotations

from boardrule.interpreter.compiler.rewrites import aggregates, bounds, fold, kinds, normalise
from boardrule.interpreter.compiler.rewrites.tree import Facts, transform

__all__ = ["PASSES", "Facts", "rewrite", "transform", "fixture"]

#: the passes, in the order they run (aggregates.py asks what bounds.py found)
PASSES = (fold.rewrite, normalise.rewrite, bounds.rewrite, kinds.rewrite, aggregates.rewrite)


def rewrite(node, facts: Facts):
    """`node` after every pass of PASSES."""
    for run in PASSES:
        node = run(node, facts)
    return node


def fixture(text: str, defines: dict | None = None):
    """(facts, node) for the expression `text` checked in a small pack on a 4x4 square board, with
    `defines` as its definitions: the input of a pass's fixture tests."""
    from boardrule.dsl.pack import load_pack_text
    from boardrule.interpreter.compiler.game import compile_game
    import json
    lines = ["game: {id: fixture, players: 1}", "board: {grid: square 4 x 4}",
             "pieces: {house: {symbol: H, height: 1}, tower: {symbol: T, height: 3}}", "vars: {total: 0, flag: \"false\"}",
             "player_vars: {coins: 0}"]
    defines = {**(defines or {}), "probe": text}
    lines.append("define:")
    lines += [f"  {name}: {json.dumps(body)}" for name, body in defines.items()]
    lines += ["actions: {pass_turn: {effect: set total = total + 1}}", "flow: {round: [{turns: [pass_turn]}],"
              " end: total > 2}", "scoring: {probe: 0}"]
    game = compile_game(load_pack_text("\n".join(lines) + "\n", "fixture.pack"))
    checked = game.pack.checked
    facts = Facts(game, checked.resolved, checked.types)
    return facts, next(d.body for d in game.model.defines if d.name == "probe")
