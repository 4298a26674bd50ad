"""What a name or a call means: the checker's resolution of a node.

The checker records, for each name, call and attribute it makes sense of, a
`Resolution`: one of the small classes below, a union whose class says what
the name is and whose `name` says which one (None where there is nothing to
name). Later stages (lints, the compiler, the reference evaluator) read these
instead of resolving names again, and tell them apart by class:

    >>> table = Resolutions()
    >>> table["node"] = Define("near")
    >>> table["node"], table["node"] == Define("near"), table["node"] == Local("near")
    (Define('near'), True, False)
    >>> table.find("node", Define).name, table.find("node", Local, Global), table.find("nothing", Define)
    ('near', None, None)
    >>> table["other"] = ("define", "near")
    Traceback (most recent call last):
    ...
    TypeError: a resolution is one of the classes of dsl/resolution.py, not ('define', 'near')

Each class's `kind` is its name in words (`player_var` for PlayerVar), for
messages and the language server's references; the compiler never reads it.
"""

from __future__ import annotations

from typing import ClassVar

import attrs


@attrs.frozen(repr=False)
class Resolution:
    """What a name means; `name` is the name found (None where there is nothing to name)."""

    name: object = None
    kind: ClassVar[str] = ""

    def __repr__(self) -> str:
        return f"{type(self).__name__}({'' if self.name is None else repr(self.name)})"


# names the rules or the pack declare
class Local(Resolution):
    """A parameter, a loop's variable or a `let` name: its name."""
    kind = "local"


class Global(Resolution):
    """A game variable (`vars:`): its name (None on a `set` target)."""
    kind = "global"


class PlayerVar(Resolution):
    """A variable of a player (`coins`, `me.coins`): its name (on a `set` target, the owner's name or None)."""
    kind = "player_var"


class HeldPlayerVar(Resolution):
    """A `set` target's player variable through a player held in a local: the local."""
    kind = "held_player_var"


class ExprPlayerVar(Resolution):
    """A `set` target's player variable through any expression that gives a player: None."""
    kind = "expr_player_var"


class Option(Resolution):
    """An option of the pack: its name."""
    kind = "option"


class Define(Resolution):
    """A definition: its name."""
    kind = "define"


class Symbol(Resolution):
    """A piece kind or a symbol: its name."""
    kind = "symbol"


class SymbolSet(Resolution):
    """A set of symbols: its name."""
    kind = "symset"


class Record(Resolution):
    """A record: its id."""
    kind = "record"


class RecordKind(Resolution):
    """A kind of record: its name."""
    kind = "record_kind"


class Shape(Resolution):
    """A shape: its name."""
    kind = "shape"


class Family(Resolution):
    """A family of shapes: its name."""
    kind = "family"


class Direction(Resolution):
    """A direction of the grid: its name."""
    kind = "direction"


class Region(Resolution):
    """A named region of the board: its name."""
    kind = "region"


class Deck(Resolution):
    """A deck: its name."""
    kind = "deck"


class Die(Resolution):
    """A die: its name."""
    kind = "die"


class ActionName(Resolution):
    """An action named as an argument (`can(p, ACTION)`): its name."""
    kind = "action"


class MarkName(Resolution):
    """A mark named as an argument (`uses(KIND, MARK)`): its name."""
    kind = "mark"

# the language's own names
class Value(Resolution):
    """A built-in value (`me`, `cells`, `none`, `round`...): its name."""
    kind = "value"


class Function(Resolution):
    """A built-in function: its name."""
    kind = "function"


class Aggregate(Resolution):
    """An aggregate (`count`, `sum`, `any`...): its name."""
    kind = "aggregate"


class Pairwise(Resolution):
    """An aggregate over pairs of elements: its name."""
    kind = "pairwise"


class It(Resolution):
    """The element a filter or an aggregate is looking at: None."""
    kind = "it"


class Self(Resolution):
    """The cell a piece's rule is about: None."""
    kind = "self"

# what a cell, a piece, a player or an event holds
class Prop(Resolution):
    """A property of the cell, piece or record looked at, read bare (`empty`, `kind`): its name."""
    kind = "prop"


class Relative(Resolution):
    """A table of the cell looked at, read bare (`adjacent`): its name."""
    kind = "relative"


class Attr(Resolution):
    """`x.name`: a property of a cell, an attribute of a piece kind, a field of a record: its name."""
    kind = "attr"


class Rule(Resolution):
    """A piece kind's rule read like an attribute (`c.points`): its name."""
    kind = "rule"


class PlayerProp(Resolution):
    """A built-in property of a player (`seat`, `score`): its name."""
    kind = "player_prop"


class EventAttr(Resolution):
    """A field of the event a trigger answers: its name."""
    kind = "event_attr"



#: every class of resolution
CLASSES = tuple(Resolution.__subclasses__())
#: kind in words -> class
BY_KIND = {cls.kind: cls for cls in CLASSES}


class Resolutions(dict):
    """node -> Resolution. Anything else stored is refused: a checker's mistake, found where it is
    made instead of as a meaning no later stage knows."""

    __slots__ = ()

    def find(self, node, *classes):
        """`node`'s resolution when it is one of `classes`, else None."""
        found = self.get(node)
        return found if type(found) in classes else None

    def __setitem__(self, node, resolution):
        if type(resolution) not in _CLASS_SET:
            raise TypeError(f"a resolution is one of the classes of dsl/resolution.py, not {resolution!r}")
        dict.__setitem__(self, node, resolution)


_CLASS_SET = frozenset(CLASSES)
