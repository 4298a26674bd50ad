"""The pack model: YAML nodes read into typed sections with parsed fragments.

`read_pack(tree, bag)` walks the merged YAML tree of a pack, checks the shape
of every section (known keys, scalar types) and parses each language field
with the grammar entry point its key calls for. Diagnostics go into `bag`;
nothing is raised here, so one run reports every problem of a pack.
"""

from __future__ import annotations

from typing import Any, Optional

import attrs

from boardrule.dsl.diagnostics import PackError, did_you_mean
from boardrule.dsl.exact import Exact
from boardrule.dsl.loader import MapNode, ScalarNode, SeqNode
from boardrule.dsl.parser import parse_fragment
from boardrule.dsl.records import frozen


@frozen
class GameInfo:
    id: str
    name: str
    players: Any  # ast.PlayerRange
    seats: Optional[int]
    version: str
    doc: str
    inherited_tests: str = "report"  # how check counts the tests of the packs it extends: report or strict


@frozen
class OptionDef:
    name: str
    values: tuple  # allowed values (strings), or () for an int/bool option
    type: str  # "choice", "int", "number" (whole or with decimals: 7.5), "bool"
    default: Any
    doc: str
    span: Any


@frozen
class Why:
    """A reason told to a player when a rule refuses a move (`why:`): literal text and, in braces,
    expressions worked out when it is told (`{object} goes next to a {object.basic} Block`)."""

    text: str
    parts: tuple  # str, or an ast expression for each `{...}`
    span: Any


@frozen
class PieceDef:
    name: str
    symbol: str
    attributes: dict  # static attribute name -> value (scalars)
    variable: tuple  # names of attributes set when placed
    score: Any  # ast expr or None
    score_label: str
    marks: dict  # mark name -> ast expr
    place: Any  # ast expr (a condition on the target cell) or None
    triggers: tuple  # (event name, statements) run for each piece of this kind
    span: Any
    rules: dict = attrs.field(factory=dict)  # rule name -> ast expr, read on a cell holding the piece
    place_why: Any = None  # Why: the reason told when the placement rule refuses a cell
    doc: str = ""  # what the piece is, for the players' rulebook
    variable_types: dict = attrs.field(factory=dict)  # variable attribute -> (type word, span), when declared
    sides: tuple = ()  # (value, span) of each side, clockwise from the top (`sides:`: a tile)
    apart: tuple = ()  # (value, span): side values that one tile does not join to each other
    links: tuple = ()  # groups of (side direction, span): the sides one tile joins (each group one feature)
    sides_span: Any = None
    corners: tuple = ()  # (value, span) of each corner, clockwise from the top right (`corners:`, square tiles)
    centre: Any = None  # (value, span): what lies in the middle of the tile (`centre:`), or None
    corners_span: Any = None


@frozen
class RecordKindDef:
    """A kind of record (`records:`): named fields with declared types, and its records as rows of data."""

    name: str
    fields: tuple  # (field name, type word, span of the type word)
    rows: tuple  # (record id, YAML node of its values, span of the id)
    span: Any
    doc: str = ""


@frozen
class BoardDef:
    grid: Any  # ast.GridDecl
    shared: bool
    mask: Optional[str]
    regions: dict  # name -> ast.CellList
    span: Any
    mask_span: Any = None  # where `mask:` is written
    mask_node: Any = attrs.field(default=None, eq=False)  # the ScalarNode of `mask:`: spans of its rows


@frozen
class ShapeDef:
    name: str
    art: Optional[str]
    art_node: Any
    symmetry: str
    legend: dict  # symbol -> ast expr
    family: Any  # ast expr over x, y, n (or None)
    sizes: Any  # ast.Range for families
    span: Any


@frozen
class VarDef:
    name: str
    initial: Any  # ast expr
    per_seat: tuple  # ast exprs, one per seat (optional)
    span: Any
    private: bool = False  # only its player sees it
    type_word: Any = None  # (type word, span) when declared with `type:`


@frozen
class DiceDef:
    name: str
    faces: tuple  # ast exprs
    span: Any


@frozen
class DeckDef:
    name: str
    cards: tuple  # (ast expr, count)
    span: Any


@frozen
class ActionDef:
    name: str
    params: tuple  # (name, ast expr)
    when: Any  # ast expr or None
    effect: tuple  # statements
    label: Optional[str]
    span: Any
    param_whys: dict = attrs.field(factory=dict)  # parameter name -> Why: the reason a value is refused
    when_parts: tuple = ()  # (ast expr, Why or None): the conditions `when` is made of, each with its reason
    doc: str = ""  # what the action does, for the players' rulebook
    # `refuse_after:`: conditions judged on the state the move's effect leaves; any that holds refuses the move
    refuse_after: Any = None  # ast expr (the conditions joined with `or`) or None
    refuse_after_parts: tuple = ()  # (ast expr, Why or None), as `when_parts`


@frozen
class StepDef:
    kind: str  # do, turns, together, decide
    effect: tuple
    actions: tuple  # (name, span)
    who: Any  # ast expr or None
    repeat: bool
    span: Any
    required: bool = False  # `repeat: while possible`: again and again, no `done`
    name: Optional[str] = None  # `name:`, by which an extending pack takes the step (`- base: NAME`)


@frozen
class FlowDef:
    setup: tuple
    round: tuple
    end: Any  # ast expr
    end_check: str  # "turn" or "round"
    max_rounds: int
    ranking: tuple  # ast exprs, higher is better
    span: Any


@frozen
class DefineDef:
    """A named expression, maybe with parameters: `won(p): fits(line, ...)`."""

    name: str
    params: tuple
    body: Any
    span: Any


@frozen
class EffectDef:
    """A named effect, maybe with parameters, used as a statement: `pay(p, n): p.coins -= n; pot += n`."""

    name: str
    params: tuple
    body: tuple  # statements
    span: Any


@frozen
class ScoreTerm:
    name: str
    expr: Any
    span: Any


@frozen
class TestDef:
    name: str
    node: Any  # the YAML mapping; the test runner reads it
    span: Any


@frozen
class RulebookDoc:
    """The top-level `doc:` mapping: the texts of the players' rulebook (`boardrule rules --for players`)."""
    components: str = ""
    setup: str = ""
    round: str = ""
    end: str = ""
    scoring: tuple = ()  # (scoring term, text, span of its key)


@frozen
class PackModel:
    game: GameInfo
    options: tuple
    symbols: dict  # set name -> tuple of (symbol, span)
    pieces: tuple
    board: BoardDef
    shapes: tuple
    charts: dict  # name -> ast.Chart
    vars: tuple  # global
    player_vars: tuple
    dice: tuple
    decks: tuple
    actions: tuple
    flow: FlowDef
    scoring: tuple
    verdict: Any  # ast expr or None: a text shown at the end (solo)
    defines: tuple
    tests: tuple
    files: tuple
    display: dict = attrs.field(factory=dict)  # name -> dsl.display.DisplayDef: how pieces look
    status: tuple = ()  # ScoreTerm-like (label, expr, span): the shared values a player's screen shows
    player_status: tuple = ()  # (label, expr, span): each player's values on the screen, for that player
    rulebook: RulebookDoc = attrs.field(factory=RulebookDoc)  # the players' rulebook texts (`doc:`)
    inherited_tests: tuple = ()  # TestDefs of the packs this one extends, run against it apart
    evaluate: Any = None  # ast expr or None: what agents add to a position's value for `me` (a hint)
    unknown_keys: tuple = ()  # spans of unknown top-level keys (E011): the rest is checked all the same
    effects: tuple = ()  # EffectDef: named effects, used as statements (`pay(me, 3)`)
    records: tuple = ()  # RecordKindDef: kinds of records with their data


_TYPE_WORDS = {str: "text", int: "a number", bool: "true/false", Exact: "a number with a fraction (7.5)"}

SECTIONS = ("game", "options", "symbols", "records", "pieces", "board", "shapes", "charts", "define", "effects", "vars",
            "player_vars", "dice", "decks", "actions", "flow", "scoring", "verdict", "evaluate", "tests", "doc",
            "display", "status", "player_status")


class Reader:
    """Reads YAML nodes, reporting every problem to the bag instead of raising."""

    def __init__(self, bag):
        self.bag = bag

    # ------------------------------------------------------------ YAML shape
    def mapping(self, node, what: str, keys=None) -> MapNode:
        if not isinstance(node, MapNode):
            self.bag.error("E010", f"{what} must be a mapping", getattr(node, "span", None))
            return MapNode((), getattr(node, "span", None))
        if keys is not None:
            for key, _ in node.entries:
                if key.value not in keys:
                    hint = _leftover_hint(str(key.value)) or did_you_mean(str(key.value), keys)
                    self.bag.error("E011", f"unknown key `{key.value}` in {what}", key.span,
                                   hint=hint or f"expected one of: {', '.join(keys)}")
        return node

    def sequence(self, node, what: str) -> tuple:
        if node is None:
            return ()
        if not isinstance(node, SeqNode):
            self.bag.error("E012", f"{what} must be a list", node.span)
            return ()
        return node.items

    def scalar(self, node, what: str, types=(str,), default=None):
        if node is None:
            return default
        if not isinstance(node, ScalarNode) or not isinstance(node.value, types) or \
                (bool not in types and isinstance(node.value, bool)):
            words = [_TYPE_WORDS[t] for t in types]
            names = words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]
            hint = ("in a pack, yes/no/on/off are plain text: write true or false"
                    if bool in types and isinstance(getattr(node, "value", None), str) else None)
            self.bag.error("E013", f"{what} must be {names}", node.span, hint=hint)
            return default
        return node.value

    def text(self, node, what: str, default=None):
        value = self.scalar(node, what, (str, int), default)
        return None if value is None else str(value)

    # ------------------------------------------------------------ fragments
    def fragment(self, node, kind: str, what: str):
        if node is None:
            return None
        written_truth = isinstance(node, ScalarNode) and isinstance(node.value, bool) and node.raw in ("true", "false")
        if not isinstance(node, ScalarNode) or node.value is None or (isinstance(node.value, bool)
                                                                       and not written_truth):
            self.bag.error("E014", f"{what} must be written in the boardrule language as text",
                           getattr(node, "span", None), hint=_leftover_hint(what) or _not_text_hint(node))
            return None
        text = node.value if isinstance(node.value, str) else node.raw
        try:
            return parse_fragment(text, kind, node.span_of)
        except PackError as err:
            for diag in err.diagnostics:
                self.bag.add(_flow_comma_hint(diag, node))
            return None

    def expr(self, node, what: str):
        return self.fragment(node, "expr", what)

    def effect(self, node, what: str) -> tuple:
        parsed = self.fragment(node, "effect", what)
        return parsed or ()


_COMMA_TRAP = ("inside `{...}` or `[...]` YAML cuts text at each comma: "
               "put the text in quotes, or write the entry on its own line")


def _not_text_hint(node):
    """What YAML made of a value that should have been text: a true/false value, or nothing."""
    if isinstance(node, ScalarNode) and isinstance(node.value, bool):
        raw = node.raw or str(node.value).lower()
        return f"YAML reads `{raw}` as a true/false value, not as text: write it in quotes, \"{raw}\""
    if isinstance(node, ScalarNode) and node.value is None:
        return "the value is empty: write the rule after the colon"
    if isinstance(node, SeqNode):
        return "YAML reads `[...]` as its own list, not as text: quote the whole rule, \"[1, 2]\""
    if isinstance(node, MapNode):
        return "YAML reads `{...}` or `key: value` as a mapping, not as text: quote the whole rule"
    return None


def _leftover_hint(text: str):
    """The tail of a text YAML cut at a comma has more closing brackets than opening ones."""
    if text.count(")") > text.count("(") or text.count("]") > text.count("["):
        return _COMMA_TRAP
    return None


def _flow_comma_hint(diag, node):
    """Explain the classic trap: YAML cuts `{a: f(x, y)}` at the comma.

    A plain scalar with more opening than closing brackets was cut short.
    """
    text = node.raw or ""
    if node.style != "plain" or (text.count("(") <= text.count(")") and text.count("[") <= text.count("]")):
        return diag
    return attrs.evolve(diag, hint=_COMMA_TRAP)
