"""Section readers: one function per top-level section of a pack."""

from __future__ import annotations

from boardrule.dsl.loader import MapNode, ScalarNode, SeqNode
from boardrule.dsl.display import read_display
import re

from boardrule.dsl.diagnostics import PackError, Span, closest, did_you_mean
from boardrule.dsl.exact import Exact
from boardrule.dsl.parser import parse_fragment

from boardrule.dsl import ast
from boardrule.dsl.model import (SECTIONS, Why, RulebookDoc, ActionDef, BoardDef, DeckDef, DefineDef, DiceDef,
                                 EffectDef, FlowDef, GameInfo, OptionDef, PackModel, PieceDef, Reader, RecordKindDef,
                                 ScoreTerm,
                                 ShapeDef, StepDef,
                                 TestDef, VarDef)

STEP_KINDS = ("do", "turns", "together", "decide")
MAX_ROUNDS_DEFAULT = 1000
MAX_ROUNDS = 10_000  # what `max_rounds` may say at most
MAX_DECK_CARDS = 10_000  # in one deck, as declared and as the game goes (interpreter/compiler/effects.py)


def _misspelt_sections(root: MapNode) -> dict:
    """section -> node of an unknown top-level key that is close to a section the pack lacks
    (`peices:`): read as that section, so that the rest of the pack is checked as meant
    (the unknown key is an error all the same)."""
    found = {}
    for key, node in root.entries:
        if key.value in SECTIONS or not isinstance(key.value, str):
            continue
        meant = closest(key.value, SECTIONS)
        if meant is not None and meant not in root and meant not in found:
            found[meant] = node
    return found


def read_pack(root: MapNode, bag, files=(), inherited_tests=()) -> PackModel:
    """Read a merged pack tree into a PackModel; problems go into `bag`. `inherited_tests`
    are the YAML mappings of the tests of the packs it extends (PackTree.inherited_tests)."""
    r = Reader(bag)
    root = r.mapping(root, "a pack", SECTIONS)
    misspelt = _misspelt_sections(root)
    get = lambda name: root.get(name) if name in root else misspelt.get(name)  # noqa: E731
    return PackModel(
        unknown_keys=tuple(key.span for key, _ in root.entries if key.value not in SECTIONS),
        game=read_game(r, get("game"), root.span),
        options=read_options(r, get("options")),
        symbols=read_symbols(r, get("symbols")),
        records=read_records(r, get("records")),
        pieces=read_pieces(r, get("pieces")),
        board=read_board(r, get("board"), root.span),
        shapes=read_shapes(r, get("shapes")),
        charts=read_charts(r, get("charts")),
        vars=read_vars(r, get("vars"), "vars"),
        player_vars=read_vars(r, get("player_vars"), "player_vars"),
        dice=read_dice(r, get("dice")),
        decks=read_decks(r, get("decks")),
        actions=read_actions(r, get("actions")),
        flow=read_flow(r, get("flow"), root.span),
        scoring=read_scoring(r, get("scoring")),
        verdict=r.expr(get("verdict"), "verdict"),
        evaluate=r.expr(get("evaluate"), "evaluate"),
        defines=read_defines(r, get("define")),
        effects=read_effects(r, get("effects")),
        tests=read_tests(r, get("tests")),
        files=tuple(files),
        display=read_display(r, get("display")),
        status=read_scoring(r, get("status"), "status"),
        player_status=read_scoring(r, get("player_status"), "player_status"),
        rulebook=read_rulebook(r, get("doc")),
        inherited_tests=read_tests(r, SeqNode(tuple(inherited_tests), root.span)) if inherited_tests else (),
    )


def _entries(r: Reader, node, what: str):
    if node is None:
        return ()
    return r.mapping(node, what).entries


def read_game(r: Reader, node, span) -> GameInfo:
    if node is None:
        r.bag.error("E015", "the pack has no `game:` section (id, name, players)", span)
        node = MapNode((), span)
    m = r.mapping(node, "game", ("id", "name", "players", "seats", "version", "doc", "inherited_tests"))
    players = r.fragment(m.get("players"), "players", "game.players") if m.get("players") is not None else None
    if m.get("id") is None:
        r.bag.error("E015", "`game:` needs an `id`", m.span)
    if players is None and m.get("players") is None:
        r.bag.error("E015", "`game:` needs `players` (a number or a range like 1..5)", m.span)
    return GameInfo(id=r.text(m.get("id"), "game.id", "unnamed"), name=r.text(m.get("name"), "game.name", ""),
                    players=players, seats=r.scalar(m.get("seats"), "game.seats", (int,)),
                    version=r.text(m.get("version"), "game.version", "1"), doc=r.text(m.get("doc"), "game.doc", ""),
                    inherited_tests=_inherited_tests_setting(r, m.get("inherited_tests")))


def _inherited_tests_setting(r: Reader, node) -> str:
    """`report` (the base's tests a variant changes are information) or `strict` (findings)."""
    value = r.text(node, "game.inherited_tests", "report")
    if value not in ("report", "strict"):
        r.bag.error("E013", f"`inherited_tests` is `report` or `strict`, not `{value}`", node.span)
        return "report"
    return value


def read_options(r: Reader, node) -> tuple:
    options = []
    for key, value in _entries(r, node, "options"):
        m = r.mapping(value, f"option `{key.value}`", ("values", "type", "default", "doc"))
        values = tuple(str(r.text(v, "an option value")) for v in r.sequence(m.get("values"), "values"))
        kind = r.text(m.get("type"), "type", "choice" if values else "bool")
        if kind not in ("choice", "int", "number", "bool"):
            r.bag.error("E016", f"unknown option type `{kind}`; expected choice, int, number or bool",
                        m.get("type").span)
        default = m.get("default").value if isinstance(m.get("default"), ScalarNode) else None
        if kind == "choice" and values and default is not None and str(default) not in values:
            r.bag.error("E016", f"default `{default}` is not one of the values {', '.join(values)}",
                        m.get("default").span)
        if default is None:
            default = values[0] if values else (0 if kind in ("int", "number") else False)
        options.append(OptionDef(str(key.value), values, kind, default, r.text(m.get("doc"), "doc", ""), key.span))
    return tuple(options)


def read_symbols(r: Reader, node) -> dict:
    symbols = {}
    for key, value in _entries(r, node, "symbols"):
        items = r.sequence(value, f"symbols.{key.value}")
        symbols[str(key.value)] = (tuple((str(r.text(i, "a symbol")), i.span) for i in items), key.span)
    return symbols


PIECE_KEYS = ("symbol", "score", "label", "marks", "rules", "place", "variable", "triggers", "on", "doc", "sides",
              "apart", "links", "corners", "centre")
TURN = "turn"  # the variable attribute of a piece with sides: how many steps clockwise it is turned
MAX_WHY = 300  # characters of a reason: a player reads it in one line


def _read_triggers(r: Reader, m) -> tuple:
    """`triggers: {EVENT: EFFECT}`; the older key `on:` still reads, with a warning: YAML 1.1
    tools (editors' YAML servers, PyYAML's safe_load) read a bare `on` as `true`."""
    key = "triggers"
    if m.get("on") is not None:
        old = m.key_node("on")
        if m.get("triggers") is not None:
            r.bag.error("E011", "a piece gives `triggers:` and `on:`: `on:` is the older name of `triggers:`",
                        old.span, hint="keep `triggers:` only")
        else:
            r.bag.warning("W019", "`on:` is the older name of `triggers:`: YAML tools read a bare `on` as true",
                          old.span, hint="write `triggers:`")
            key = "on"
    return tuple((str(k.value), r.effect(v, f"trigger `{k.value}`")) for k, v in _entries(r, m.get(key), key))


def read_pieces(r: Reader, node) -> tuple:
    pieces = []
    for key, value in _entries(r, node, "pieces"):
        m = r.mapping(value, f"piece `{key.value}`")
        attributes = {}
        for k, v in m.entries:
            if k.value in PIECE_KEYS:
                continue
            close = did_you_mean(str(k.value), PIECE_KEYS)
            if close:
                r.bag.warning("W018", f"`{k.value}` is read as an attribute of `{key.value}`", k.span, hint=close)
            attributes[str(k.value)] = (r.scalar(v, f"attribute `{k.value}`", (str, int, bool)), v.span)
        marks = {str(k.value): r.expr(v, f"mark `{k.value}`") for k, v in _entries(r, m.get("marks"), "marks")}
        rules = {str(k.value): r.expr(v, f"rule `{k.value}`") for k, v in _entries(r, m.get("rules"), "rules")}
        variable, variable_types = _read_variable(r, m.get("variable"))
        sides, apart = _read_names(r, m.get("sides"), "sides"), _read_names(r, m.get("apart"), "apart")
        links = tuple(_read_names(r, group, "a link") for group in r.sequence(m.get("links"), "links")) \
            if m.get("links") is not None else ()
        corners = _read_names(r, m.get("corners"), "corners")
        centre_text = r.text(m.get("centre"), "centre") if m.get("centre") is not None else None
        centre = (str(centre_text), m.get("centre").span) if centre_text else None
        if sides and TURN not in variable:  # a tile is placed turned: `place t at c with turn = 1`
            variable = (TURN,) + variable
            variable_types = {**variable_types, TURN: ("number", m.key_node("sides").span)}
        place, place_why = read_condition(r, m.get("place"), "place", "the placement rule")
        pieces.append(PieceDef(
            name=str(key.value), symbol=r.text(m.get("symbol"), "symbol", str(key.value)[:2].upper()),
            attributes=attributes, variable=variable, score=r.expr(m.get("score"), "score"),
            score_label=r.text(m.get("label"), "label", str(key.value)), marks=marks,
            place=place,
            triggers=_read_triggers(r, m),
            span=key.span, rules=rules, place_why=place_why, doc=r.text(m.get("doc"), "doc", "") or "",
            variable_types=variable_types, sides=sides, apart=apart, links=links,
            sides_span=m.key_node("sides").span if sides else None, corners=corners, centre=centre,
            corners_span=m.key_node("corners").span if corners else None))
    return tuple(pieces)


def _read_names(r: Reader, node, what: str) -> tuple:
    """`sides: [city, road, field, road]`: (name, span) for each."""
    return tuple((str(r.text(v, "a name")), v.span) for v in r.sequence(node, what)) if node is not None else ()


def _read_variable(r: Reader, node):
    """`variable: [color]` (names), or `variable: {crowns: number, tile: domino}` with a type word each
    (dsl/type_words.py): (the attribute names, name -> (type word, span) for those typed)."""
    if isinstance(node, MapNode):
        names, types = [], {}
        for k, v in node.entries:
            names.append(str(k.value))
            types[str(k.value)] = (r.text(v, f"the type of `{k.value}`", "name"), v.span)
        return tuple(names), types
    return tuple(str(r.text(v, "an attribute name")) for v in r.sequence(node, "variable")), {}


RECORD_KEYS = ("fields", "rows", "doc")
RECORD_NAME = re.compile(r"^[a-z_][a-zA-Z0-9_]*$")  # the language's NAME (dsl/boardrule.lark)


def read_records(r: Reader, node) -> tuple:
    """`records: {KIND: {fields: {FIELD: TYPE, ...}, rows: {ID: [VALUE, ...] or {FIELD: VALUE}, ...}}}`;
    the values are checked against the types once every name is known (dsl/check_records.py)."""
    kinds = []
    for key, value in _entries(r, node, "records"):
        m = r.mapping(value, f"record kind `{key.value}`", RECORD_KEYS)
        if m.get("fields") is None:
            r.bag.error("E025", f"record kind `{key.value}` needs `fields:`, a mapping of each field to its type "
                                "(`cost: number`)", key.span)
        fields = tuple((str(k.value), r.text(v, f"the type of field `{k.value}`", "name"), v.span)
                       for k, v in _entries(r, m.get("fields"), f"the fields of `{key.value}`"))
        rows = tuple((str(k.value), v, k.span) for k, v in _entries(r, m.get("rows"), f"the rows of `{key.value}`"))
        for name, span, what in [(f[0], f[2], "a field") for f in fields] + [(w[0], w[2], "a record's id") for w in rows]:
            if not RECORD_NAME.match(name):
                r.bag.error("E025", f"{what} is a name, like the rules write it (a small letter or `_`, then letters, "
                                    f"digits, `_`), not `{name}`", span)
        kinds.append(RecordKindDef(str(key.value), fields, rows, key.span, r.text(m.get("doc"), "doc", "") or ""))
    return tuple(kinds)


def read_board(r: Reader, node, span) -> BoardDef:
    if node is None:
        r.bag.error("E015", "the pack has no `board:` section", span)
        return BoardDef(None, True, None, {}, span)
    m = r.mapping(node, "board", ("grid", "shared", "mask", "regions"))
    if m.get("grid") is None:
        r.bag.error("E015", "`board:` needs a `grid:` such as `square 4 x 4`", m.span)
    regions = {str(k.value): r.fragment(v, "cells", f"region `{k.value}`")
               for k, v in _entries(r, m.get("regions"), "regions")}
    return BoardDef(grid=r.fragment(m.get("grid"), "grid", "board.grid"),
                    shared=bool(r.scalar(m.get("shared"), "board.shared", (bool,), False)),
                    mask=r.scalar(m.get("mask"), "board.mask"), regions=regions, span=m.span,
                    mask_span=m.get("mask").span if m.get("mask") is not None else None,
                    mask_node=m.get("mask") if isinstance(m.get("mask"), ScalarNode) else None)


def read_shapes(r: Reader, node) -> tuple:
    shapes = []
    for key, value in _entries(r, node, "shapes"):
        m = r.mapping(value, f"shape `{key.value}`", ("art", "symmetry", "legend", "family", "sizes", "doc"))
        symmetry = r.text(m.get("symmetry"), "symmetry", "all")
        if symmetry not in ("none", "rotate", "all"):
            r.bag.error("E017", f"unknown symmetry `{symmetry}`; expected none, rotate or all", m.get("symmetry").span)
        legend = {str(k.value): r.expr(v, f"legend `{k.value}`") for k, v in _entries(r, m.get("legend"), "legend")}
        if m.get("art") is None and m.get("family") is None:
            r.bag.error("E017", f"shape `{key.value}` needs `art:` or `family:`", key.span)
        art = r.fragment(m.get("art"), "art", f"the art of shape `{key.value}`") if m.get("art") is not None else None
        _check_art(r, art, key, legend)
        shapes.append(ShapeDef(str(key.value), r.text(m.get("art"), "art"), m.get("art"), symmetry, legend,
                               r.expr(m.get("family"), "family"), r.expr(m.get("sizes"), "sizes"), key.span))
    return tuple(shapes)


def _check_art(r: Reader, art, key, legend) -> None:
    if art is None:
        return
    if all(cell.name == "." for row in art.rows for cell in row):
        r.bag.error("E017", f"shape `{key.value}` has no cell: its art is all holes", art.span)
    for symbol in legend:
        if not any(cell.name == symbol for row in art.rows for cell in row):
            r.bag.warning("W017", f"legend `{symbol}` names no cell of the art of `{key.value}`", key.span)


def read_charts(r: Reader, node) -> dict:
    return {str(k.value): r.fragment(v, "chart", f"chart `{k.value}`") for k, v in _entries(r, node, "charts")}


def read_vars(r: Reader, node, what: str) -> tuple:
    """`name: EXPR`, or a mapping: `{initial: EXPR, per_seat: [EXPR, ...], private: true}`."""
    result = []
    for key, value in _entries(r, node, what):
        name = str(key.value)
        if isinstance(value, MapNode):
            m = r.mapping(value, f"{what}.{name}", ("initial", "per_seat", "private", "type"))
            per_seat = tuple(r.expr(v, "a starting value") for v in r.sequence(m.get("per_seat"), "per_seat"))
            initial = r.expr(m.get("initial"), "initial") if m.get("initial") is not None else None
            if m.get("per_seat") is not None and not per_seat:
                r.bag.error("E020", "`per_seat` needs a list with one starting value per seat", value.span)
            private = bool(r.scalar(m.get("private"), "private", (bool,), False))
            if private and what != "player_vars":
                r.bag.error("E020", "only a player variable can be private", m.get("private").span)
            type_word = (r.text(m.get("type"), "type"), m.get("type").span) if m.get("type") is not None else None
            result.append(VarDef(name, initial if initial is not None else (per_seat[0] if per_seat else None),
                                 per_seat, key.span, private, type_word))
        elif isinstance(value, SeqNode):
            r.bag.error("E020", f"`{name}` is a YAML list; write a list value as text in quotes, like "
                                "\"[a, b]\", or give one value per seat with `per_seat: [...]`", value.span)
        else:
            result.append(VarDef(name, r.expr(value, f"{what}.{name}"), (), key.span))
    return tuple(result)


def read_dice(r: Reader, node) -> tuple:
    return tuple(DiceDef(str(k.value), tuple(r.expr(f, "a face") for f in r.sequence(v, "faces")), k.span)
                 for k, v in _entries(r, node, "dice"))


def read_decks(r: Reader, node) -> tuple:
    """`name: {card: count, ...}`; `name: {}` is a deck that starts empty."""
    decks = []
    for key, value in _entries(r, node, "decks"):
        cards = []
        for k, v in _entries(r, value, f"deck `{key.value}`"):
            count = r.scalar(v, "a card count", (int,), 1)
            if count < 0:
                r.bag.error("E022", f"a card count is a whole number from 0, not {count}", v.span)
                count = 0
            cards.append((r.expr(k, "a card"), count))
        total = sum(count for _, count in cards)
        if total > MAX_DECK_CARDS:
            r.bag.error("E022", f"deck `{key.value}` has {total} cards; a deck holds at most {MAX_DECK_CARDS}",
                        key.span)
            cards = []
        decks.append(DeckDef(str(key.value), tuple(cards), key.span))
    return tuple(decks)


def read_actions(r: Reader, node) -> tuple:
    actions = []
    for key, value in _entries(r, node, "actions"):
        m = r.mapping(value, f"action `{key.value}`",
                      ("params", "when", "why", "effect", "refuse_after", "label", "doc"))
        params, whys = [], {}
        for k, v in _entries(r, m.get("params"), "params"):
            domain, why = read_domain(r, v, f"parameter `{k.value}`")
            params.append((str(k.value), domain))
            if why is not None:
                whys[str(k.value)] = why
        when, parts = read_when(r, m.get("when"), m.get("why"))
        after, after_parts = read_when(r, m.get("refuse_after"), None, "refuse_after", "or")
        actions.append(ActionDef(str(key.value), tuple(params), when,
                                 r.effect(m.get("effect"), "effect"), r.text(m.get("label"), "label"), key.span,
                                 param_whys=whys, when_parts=parts, doc=r.text(m.get("doc"), "doc", "") or "",
                                 refuse_after=after, refuse_after_parts=after_parts))
    return tuple(actions)


def read_why(r: Reader, node, what: str):
    """A reason told to players (`why:`): text, with expressions in braces (`{cell}`; `{{` is a brace)."""
    if node is None:
        return None
    text = r.text(node, f"the reason (`why`) of {what}")
    if text is None:
        return None
    if len(text) > MAX_WHY:
        r.bag.error("E024", f"a reason is one short line for a player, not {len(text)} characters "
                    f"(at most {MAX_WHY})", node.span)
        return None
    parts, literal, index = [], "", 0
    while index < len(text):
        char = text[index]
        if text.startswith("{{", index) or text.startswith("}}", index):
            literal += char
            index += 2
            continue
        if char == "}":
            r.bag.error("E024", "a `}` without its `{` in a reason; write `}}` for a brace", _within(node, index))
            return None
        if char != "{":
            literal += char
            index += 1
            continue
        end = text.find("}", index)
        if end < 0:
            r.bag.error("E024", "a `{` without its `}` in a reason; write `{{` for a brace", _within(node, index))
            return None
        if literal:
            parts.append(literal)
            literal = ""
        start = index + 1
        try:
            locate = (lambda a, b, start=start: node.span_of(start + a, start + b)) \
                if hasattr(node, "span_of") else None
            parts.append(parse_fragment(text[start:end], "expr", locate))
        except PackError as err:
            for diag in err.diagnostics:
                r.bag.add(diag)
            return None
        index = end + 1
    if literal:
        parts.append(literal)
    return Why(text, tuple(parts), node.span)


def _within(node, offset):
    return node.span_of(offset, offset + 1) if hasattr(node, "span_of") else node.span


def read_domain(r: Reader, node, what: str):
    """A parameter: `EXPR` (the list it is chosen from), or `{in: EXPR, why: TEXT}` with the reason told
    when a value is not in it."""
    if isinstance(node, MapNode):
        m = r.mapping(node, what, ("in", "why"))
        if m.get("in") is None:
            r.bag.error("E015", f"{what} written as a mapping needs `in:`, the list it is chosen from", m.span)
        return r.expr(m.get("in"), what), read_why(r, m.get("why"), what)
    return r.expr(node, what), None


def read_condition(r: Reader, node, key: str, what: str):
    """A condition: `EXPR`, or `{if: EXPR, why: TEXT}` with the reason told when it fails."""
    if isinstance(node, MapNode):
        m = r.mapping(node, f"`{key}`", ("if", "why"))
        if m.get("if") is None:
            r.bag.error("E015", f"`{key}` written as a mapping needs `if:`, the condition", m.span)
        return r.expr(m.get("if"), what), read_why(r, m.get("why"), what)
    return r.expr(node, key), None


def read_when(r: Reader, node, why_node, key: str = "when", joined: str = "and"):
    """`when:` as one condition (with `why:` beside it), or as a list of conditions that must all hold,
    each `EXPR` or `{if: EXPR, why: TEXT}`: (the condition as one expression, its parts with their reasons).
    `refuse_after:` is read the same way (key), its list joined with `or` (any condition refuses)."""
    if isinstance(node, SeqNode):
        if why_node is not None:
            r.bag.error("E015", "`why:` beside a list of conditions: give each condition its own "
                        "(`- {if: ..., why: ...}`)", why_node.span)
        parts = [read_condition(r, item, key, f"a condition of `{key}`") for item in node.items]
        parts = [(expr, why) for expr, why in parts if expr is not None]
        if not parts:
            return None, ()
        combined = parts[0][0]
        for expr, _ in parts[1:]:
            combined = ast.BinOp(joined, combined, expr, combined.span)
        return combined, tuple(parts)
    if isinstance(node, MapNode):
        expr, why = read_condition(r, node, key, f"the condition `{key}`")
    else:
        expr, why = r.expr(node, key), None
    if why_node is not None:
        if why is not None:
            r.bag.error("E015", "two reasons for one `when:`: keep the one inside it or the one beside it",
                        why_node.span)
        why = read_why(r, why_node, "the condition `when`")
    return expr, (((expr, why),) if expr is not None else ())


STEP_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def read_step(r: Reader, node) -> StepDef | None:
    m = r.mapping(node, "a flow step")
    if "base" in m:  # left after the merge: there is no base (see dsl/extends.py)
        r.bag.error("E115", "`- base: NAME` takes a step of the pack this one extends, and this pack extends "
                    "none", m.key_node("base").span, hint="add `extends: BASE`, or write the step out")
        return None
    kinds = [k for k, _ in m.entries if k.value in STEP_KINDS]
    if len(kinds) != 1:
        r.bag.error("E018", "a flow step needs exactly one of: " + ", ".join(STEP_KINDS), m.span)
        return None
    kind = str(kinds[0].value)
    allowed = {"do": ("do", "name"), "turns": ("turns", "who", "repeat", "name"),
               "together": ("together", "who", "repeat", "name"), "decide": ("decide", "who", "repeat", "name")}[kind]
    r.mapping(node, f"a `{kind}` step", allowed)
    name = _step_name(r, m.get("name"))
    if kind == "do":
        return StepDef("do", r.effect(m.get("do"), "do"), (), None, False, m.span, name=name)
    actions = tuple((str(r.text(a, "an action name")), a.span) for a in r.sequence(m.get(kind), "actions"))
    repeat, required = _repeat(r, m.get("repeat"))
    return StepDef(kind, (), actions, r.expr(m.get("who"), "who"), repeat, m.span, required, name)


def _step_name(r: Reader, node) -> str | None:
    """A step's `name:` (a word), by which a pack that extends this one takes the step (`- base: NAME`)."""
    if node is None:
        return None
    text = r.text(node, "a step name")
    if not isinstance(text, str) or not STEP_NAME.match(text):
        r.bag.error("E023", f"a step name is one word (letters, digits, `_`), not `{text}`", node.span)
        return None
    return text


def _repeat(r: Reader, node):
    """`repeat: true` (any number of times, then `done`) or `repeat: while possible` (until nothing is legal)."""
    if node is None:
        return False, False
    if isinstance(node, ScalarNode) and node.value == "while possible":
        return True, True
    value = r.scalar(node, "repeat", (bool,), False)
    return bool(value), False


def read_flow(r: Reader, node, span) -> FlowDef:
    if node is None:
        r.bag.error("E015", "the pack has no `flow:` section (the steps of a round and an `end:`)",
                    Span.point(span.file, 1, 1) if span is not None else None)
        return FlowDef((), (), None, "turn", MAX_ROUNDS_DEFAULT, (), span)
    m = r.mapping(node, "flow", ("setup", "round", "end", "check_end", "max_rounds", "ranking"))
    steps = lambda key: tuple(s for s in (read_step(r, n) for n in r.sequence(m.get(key), key)) if s)
    setup, round_steps = steps("setup"), steps("round")
    seen: dict = {}
    for step in setup + round_steps:
        if step.name is None:
            continue
        if step.name in seen:
            r.bag.error("E023", f"two flow steps are named `{step.name}`", step.span,
                        notes=((seen[step.name], "the first is here"),),
                        hint="a step's name tells it apart from the others: give each its own")
        else:
            seen[step.name] = step.span
    check = r.text(m.get("check_end"), "check_end", "turn")
    if check not in ("turn", "round"):
        r.bag.error("E018", f"check_end must be `turn` or `round`, not `{check}`", m.get("check_end").span)
    if m.get("end") is None:
        r.bag.error("E015", "`flow:` needs an `end:` condition", m.span)
    max_rounds = r.scalar(m.get("max_rounds"), "max_rounds", (int,), MAX_ROUNDS_DEFAULT)
    if type(max_rounds) is int and not 1 <= max_rounds <= MAX_ROUNDS:
        r.bag.error("E013", f"max_rounds is 1 to {MAX_ROUNDS:,}, not {max_rounds:,}", m.get("max_rounds").span,
                    hint="a game of more rounds than that is a pack that never ends")
        max_rounds = MAX_ROUNDS_DEFAULT
    return FlowDef(setup, round_steps, r.expr(m.get("end"), "end"), check, max_rounds,
                   tuple(r.expr(n, "a ranking term") for n in r.sequence(m.get("ranking"), "ranking")), m.span)


def read_scoring(r: Reader, node, section: str = "scoring") -> tuple:
    """`LABEL: EXPR` entries: the scoring terms, or the values a player's screen shows (status)."""
    return tuple(ScoreTerm(str(k.value), r.expr(v, f"{section} `{k.value}`"), k.span)
                 for k, v in _entries(r, node, section))


RULEBOOK_KEYS = ("components", "setup", "round", "end", "scoring")


def read_rulebook(r: Reader, node) -> RulebookDoc:
    """The top-level `doc:`: a note (text), or the texts of the players' rulebook (a mapping)."""
    if node is None or isinstance(node, ScalarNode):
        if node is not None:
            r.text(node, "doc")
        return RulebookDoc()
    m = r.mapping(node, "doc", RULEBOOK_KEYS)
    texts = {key: (r.text(m.get(key), f"doc.{key}", "") or "").strip() for key in RULEBOOK_KEYS[:-1]}
    scoring = tuple((str(k.value), (r.text(v, f"doc.scoring `{k.value}`", "") or "").strip(), k.span)
                    for k, v in _entries(r, m.get("scoring"), "doc.scoring"))
    return RulebookDoc(**texts, scoring=scoring)


EXPECT_SHAPES = {"score": "seats", "terms": "seats", "legal": "seats", "illegal": "seats", "verdict": "seats",
                 "player_vars": "seats", "vars": "mapping", "over": "flag", "winner": "winner"}


def read_tests(r: Reader, node) -> tuple:
    tests = []
    for index, item in enumerate(r.sequence(node, "tests")):
        m = r.mapping(item, "a test", ("name", "options", "players", "seats", "seed", "position", "moves", "expect"))
        name = str(r.text(m.get("name"), "name", f"test {index + 1}"))
        r.scalar(m.get("players"), "players", (int,))
        r.scalar(m.get("seed"), "seed", (int,))
        for key in ("seats", "moves"):
            for entry in r.sequence(m.get(key), key):
                r.scalar(entry, f"an entry of `{key}`", (str,))
        for key in ("options", "position"):
            if m.get(key) is not None:
                r.mapping(m.get(key), f"`{key}` of a test")
        if m.get("expect") is not None:
            _read_expect(r, r.mapping(m.get("expect"), "`expect` of a test", tuple(EXPECT_SHAPES)))
        tests.append(TestDef(name, m, m.span))
    return tuple(tests)


def _read_expect(r: Reader, m) -> None:
    for key, value in m.entries:
        shape = EXPECT_SHAPES.get(key.value)
        if shape == "flag":
            r.scalar(value, f"`{key.value}`", (bool,))
        elif shape == "mapping":
            r.mapping(value, f"`{key.value}`")
        elif shape == "winner" and not isinstance(value, (ScalarNode, SeqNode)):
            r.bag.error("E021", "`winner` is a seat like P1, or a list of seats for a shared win", value.span)
        elif shape == "seats":
            for seat, entry in r.mapping(value, f"`{key.value}` (by seat, like {{P1: ...}})").entries:
                _read_seat_entry(r, key.value, entry)


def _read_seat_entry(r: Reader, what: str, entry) -> None:
    if what in ("score",):
        r.scalar(entry, "a score", (int, Exact))
    elif what in ("terms", "player_vars"):
        r.mapping(entry, f"`{what}` of a seat")
    elif what == "legal" and not (isinstance(entry, SeqNode) or
                                  (isinstance(entry, ScalarNode) and isinstance(entry.value, int))):
        r.bag.error("E021", "`legal` gives a number of moves or a list of moves", entry.span)
    elif what == "illegal":
        for item in r.sequence(entry, "illegal moves"):
            if isinstance(item, MapNode):
                r.mapping(item, "an illegal move", ("move", "because"))
            else:
                r.scalar(item, "an illegal move", (str,))


_DEFINE_KEY = re.compile(r"^\s*([a-z_][a-zA-Z0-9_]*)\s*(?:\(\s*([a-z_][a-zA-Z0-9_]*(?:\s*,\s*[a-z_][a-zA-Z0-9_]*)*)?\s*\))?\s*$")


def read_effects(r: Reader, node) -> tuple:
    """`effects:`: named effects, `name` or `name(a, b)`, each a block of statements."""
    effects = []
    for key, value in _entries(r, node, "effects"):
        match = _DEFINE_KEY.match(str(key.value))
        if match is None:
            r.bag.error("E019", f"`{key.value}` is not the name of an effect; write `name` or `name(a, b)`", key.span)
            continue
        params = tuple(p.strip() for p in (match.group(2) or "").split(",") if p.strip())
        effects.append(EffectDef(match.group(1), params, r.effect(value, f"effect `{key.value}`"), key.span))
    return tuple(effects)


def read_defines(r: Reader, node) -> tuple:
    defines = []
    for key, value in _entries(r, node, "define"):
        match = _DEFINE_KEY.match(str(key.value))
        if match is None:
            r.bag.error("E019", f"`{key.value}` is not a definition name; write `name` or `name(a, b)`", key.span)
            continue
        params = tuple(p.strip() for p in (match.group(2) or "").split(",") if p.strip())
        defines.append(DefineDef(match.group(1), params, r.expr(value, f"definition `{key.value}`"), key.span))
    return tuple(defines)
