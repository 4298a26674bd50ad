"""What a name or a call means: the checker's resolution of a node.

The checker records, for each name, call and attribute it makes sense of, a
`Resolution(kind, detail)`: `kind` is one of `KINDS` below, `detail` the
name it found (None where there is nothing to name). Later stages (lints,
the compiler, the reference evaluator) read these instead of resolving names
again. A Resolution is a named tuple, so `resolution == ("define", "near")`
and `kind, detail = resolution` read as before; `resolution.kind` and
`resolution.detail` say what they are.

    >>> table = Resolutions()
    >>> table["node"] = ("define", "near")
    >>> table["node"].kind, table["node"] == ("define", "near"), table.kind_of("nothing")
    ('define', True, '')
    >>> table["other"] = ("defined", "near")
    Traceback (most recent call last):
    ...
    ValueError: a resolution of an unknown kind: 'defined'
"""

from __future__ import annotations

from typing import NamedTuple

#: every kind of resolution, and what its detail holds
KINDS = {
    # names the rules or the pack declare
    "local": "a parameter, a loop's variable or a `let` name: its name",
    "global": "a game variable (`vars:`): its name",
    "player_var": "a variable of a player (`coins`, `me.coins`): its name (None on a `set` target)",
    "held_player_var": "a `set` target's player variable through a player held in a local: the local",
    "expr_player_var": "a `set` target's player variable through any expression that gives a player: None",
    "option": "an option of the pack: its name",
    "define": "a definition: its name",
    "symbol": "a piece kind or a symbol: its name",
    "symset": "a set of symbols: its name",
    "record": "a record: its id",
    "record_kind": "a kind of record: its name",
    "shape": "a shape: its name",
    "family": "a family of shapes: its name",
    "direction": "a direction of the grid: its name",
    "region": "a named region of the board: its name",
    "deck": "a deck: its name",
    "die": "a die: its name",
    "action": "an action named as an argument (`can(p, ACTION)`): its name",
    "mark": "a mark named as an argument (`uses(KIND, MARK)`): its name",
    # the language's own names
    "value": "a built-in value (`me`, `cells`, `none`, `round`...): its name",
    "function": "a built-in function: its name",
    "aggregate": "an aggregate (`count`, `sum`, `any`...): its name",
    "pairwise": "an aggregate over pairs of elements: its name",
    "it": "the element a filter or an aggregate is looking at: None",
    "self": "the cell a piece's rule is about: None",
    # what a cell, a piece, a player or an event holds
    "prop": "a property of the cell, piece or record looked at, read bare (`empty`, `kind`): its name",
    "relative": "a table of the cell looked at, read bare (`adjacent`): its name",
    "attr": "`x.name`: a property of a cell, an attribute of a piece kind, a field of a record: its name",
    "rule": "a piece kind's rule read like an attribute (`c.points`): its name",
    "player_prop": "a built-in property of a player (`seat`, `score`): its name",
    "event_attr": "a field of the event a trigger answers: its name",
}


class Resolution(NamedTuple):
    kind: str
    detail: object = None


class Resolutions(dict):
    """node -> Resolution. A pair stored is made a Resolution, and a kind outside KINDS is refused: a
    checker's mistake, found where it is made instead of as a name no later stage knows."""

    __slots__ = ()

    def kind_of(self, node) -> str:
        """The kind of `node`'s resolution; "" when the checker resolved nothing there."""
        found = self.get(node)
        return "" if found is None else found[0]

    def __setitem__(self, node, resolution):
        kind, detail = resolution
        if kind not in KINDS:
            raise ValueError(f"a resolution of an unknown kind: {kind!r}")
        dict.__setitem__(self, node, Resolution(kind, detail))
