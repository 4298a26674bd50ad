"""The symbol table of a pack: every name a pack declares, and what it is.

Names share one namespace: a name declared twice (a piece kind and a region,
say) is an error, so a bare name in an expression always means one thing.
"""

from __future__ import annotations

import attrs

from boardrule.dsl.builtins import (CELL_PROPERTIES, CELL_RELATIVE, CORNER_DIRECTIONS, DIRECTIONS, SIDE_DIRECTIONS,
                                    direction_family)
from boardrule.dsl.resolution import (Deck, Define, Die, Global, Option, PlayerVar, Record, RecordKind, Region, Shape,
                                      Symbol, SymbolSet)
from boardrule.dsl.type_words import TypeWordError, read_type_word
from boardrule.dsl.types import ANY, BOOL, CELL, DECK, NUM, SHAPE, SYM, list_of, record_of
from boardrule.dsl import ast as nodes

RESERVED = {"it", "self", "me"}


@attrs.define
class SymbolTable:
    kinds: dict = attrs.field(factory=dict)
    directions: tuple = ()  # the names of the board's directions (builtins.DIRECTIONS)
    side_directions: tuple = ()  # the directions a tile's sides face (builtins.SIDE_DIRECTIONS)
    corner_directions: tuple = ()  # the directions a tile's corners point to (builtins.CORNER_DIRECTIONS)
    piece_attributes: dict = attrs.field(factory=dict)  # name -> Type
    marks: set = attrs.field(factory=set)
    rules: dict = attrs.field(factory=dict)  # rule name -> ((piece kind, expr), ...): the kinds' own rules
    symbol_sets: dict = attrs.field(factory=dict)  # name -> tuple of symbols
    symbols: set = attrs.field(factory=set)
    shapes: dict = attrs.field(factory=dict)
    families: dict = attrs.field(factory=dict)
    charts: dict = attrs.field(factory=dict)
    vars: dict = attrs.field(factory=dict)  # name -> Type
    player_vars: dict = attrs.field(factory=dict)
    options: dict = attrs.field(factory=dict)
    dice: dict = attrs.field(factory=dict)
    decks: dict = attrs.field(factory=dict)
    deck_cards: dict = attrs.field(factory=dict)  # deck name -> Type of its cards, set by the checker
    regions: dict = attrs.field(factory=dict)
    actions: dict = attrs.field(factory=dict)
    defines: dict = attrs.field(factory=dict)
    declared: dict = attrs.field(factory=dict)  # name -> (what, span)
    record_kinds: dict = attrs.field(factory=dict)  # kind of record -> RecordKindDef
    record_of: dict = attrs.field(factory=dict)  # record id -> its kind
    record_fields: dict = attrs.field(factory=dict)  # kind of record -> {field: type_words.DeclaredType}
    variable_types: dict = attrs.field(factory=dict)  # a piece's typed variable attribute -> DeclaredType
    var_types: dict = attrs.field(factory=dict)  # a variable declared with `type:` -> DeclaredType
    record_values: dict = attrs.field(factory=dict)  # record id -> {field: value}, set by dsl/check_records.py

    def record_ids_of(self, kind: str) -> tuple:
        """The ids of the records of one kind, in the order the pack gives them."""
        return tuple(rid for rid, of in self.record_of.items() if of == kind)

    def field_types(self, name: str) -> list:
        """The types of the fields called `name`, over every kind of record."""
        return [fields[name].type for fields in self.record_fields.values() if name in fields]

    def lookup(self, name: str):
        """(resolution, type) for a declared name, or None."""
        if name in self.vars:
            return Global(name), self.vars[name]
        if name in self.player_vars:
            return PlayerVar(name), self.player_vars[name]
        if name in self.options:
            option = self.options[name]
            return Option(name), {"int": NUM, "number": NUM, "bool": BOOL}.get(option.type, SYM)
        if name in self.regions:
            return Region(name), list_of(CELL)
        if name in self.dice:
            return Die(name), die_type(self, self.dice[name])
        if name in self.decks:
            return Deck(name), DECK
        if name in self.shapes:
            return Shape(name), SHAPE
        if name in self.symbol_sets:
            return SymbolSet(name), list_of(SYM)
        if name in self.kinds or name in self.symbols:
            return Symbol(name), SYM
        if name in self.record_of:
            return Record(name), record_of(self.record_of[name])
        if name in self.record_kinds:
            return RecordKind(name), list_of(record_of(name))
        if name in self.defines and not self.defines[name].params:
            return Define(name), None
        return None

    def all_names(self) -> set:
        return (set(self.vars) | set(self.player_vars) | set(self.options) | set(self.regions) | set(self.dice)
                | set(self.decks) | set(self.shapes) | set(self.symbol_sets) | set(self.kinds) | self.symbols
                | set(self.defines) | set(self.record_kinds) | set(self.record_of))


def _declare(table: SymbolTable, bag, name: str, what: str, span) -> bool:
    if name in RESERVED:
        bag.error("E205", f"`{name}` is a reserved word and cannot name a {what}", span)
        return False
    previous = table.declared.get(name)
    if previous is not None:
        bag.error("E205", f"`{name}` names both a {previous[0]} and a {what}", span,
                  hint="every name in a pack must be unique",
                  notes=((previous[1], f"`{name}` is first declared here"),) if previous[1] is not None else ())
        return False
    table.declared[name] = (what, span)
    return True


def _attribute_type(value, shapes) -> object:
    if isinstance(value, bool):
        return BOOL
    if isinstance(value, int):
        return NUM
    return SHAPE if value in shapes else SYM


def build_symbols(model, bag) -> SymbolTable:
    """Collect the declarations of a pack model into a SymbolTable."""
    t = SymbolTable()
    grid = model.board.grid if model.board is not None else None
    if grid is not None:
        t.directions = DIRECTIONS[direction_family(grid.kind, grid.layout)]
        t.side_directions = SIDE_DIRECTIONS[direction_family(grid.kind, grid.layout)]
        t.corner_directions = CORNER_DIRECTIONS[direction_family(grid.kind, grid.layout)]
    for shape in model.shapes:
        if _declare(t, bag, shape.name, "shape", shape.span):
            (t.families if shape.family is not None else t.shapes)[shape.name] = shape
    for piece in model.pieces:
        if _declare(t, bag, piece.name, "piece kind", piece.span):
            t.kinds[piece.name] = piece
    for name, (items, span) in model.symbols.items():
        if _declare(t, bag, name, "symbol set", span):
            t.symbol_sets[name] = tuple(s for s, _ in items)
        for symbol, item_span in items:
            if symbol not in t.kinds and symbol not in t.symbols and _declare(t, bag, symbol, "symbol", item_span):
                t.symbols.add(symbol)
    _declare_records(t, model, bag)
    _collect_attributes(t, model, bag)
    for what, table, defs in (("global variable", t.vars, model.vars),
                              ("player variable", t.player_vars, model.player_vars)):
        for var in defs:
            if _declare(t, bag, var.name, what, var.span):
                table[var.name] = ANY
    for option in model.options:
        if _declare(t, bag, option.name, "option", option.span):
            t.options[option.name] = option
            for value in option.values:
                if value not in t.declared:
                    t.symbols.add(value)
    for name, chart in model.charts.items():
        t.charts[name] = chart
    for die in model.dice:
        if _declare(t, bag, die.name, "die", die.span):
            t.dice[die.name] = die
    for deck in model.decks:
        if _declare(t, bag, deck.name, "deck", deck.span):
            t.decks[deck.name] = deck
    for name, cells in model.board.regions.items():
        if cells is not None and _declare(t, bag, name, "region", cells.span):
            t.regions[name] = cells
    for action in model.actions:
        t.actions[action.name] = action
    for define in model.defines:
        if _declare(t, bag, define.name, "definition", define.span):
            t.defines[define.name] = define
    _type_declarations(t, model, bag)
    return t


def _declare_records(t: SymbolTable, model, bag) -> None:
    """Each kind of record and each record id is a name of the pack."""
    for kind in model.records:
        if not _declare(t, bag, kind.name, "kind of record", kind.span):
            continue
        t.record_kinds[kind.name] = kind
        for rid, _, span in kind.rows:
            if _declare(t, bag, rid, f"record of `{kind.name}`", span):
                t.record_of[rid] = kind.name


def _type_declarations(t: SymbolTable, model, bag) -> None:
    """The types the pack declares in words (records' fields, typed piece variables and variables),
    read once every name they may use is declared."""
    for kind in t.record_kinds.values():
        fields = {}
        for name, word, span in kind.fields:
            clash = _property_clash(t, name) if name not in t.piece_attributes else None
            if clash is None and name in t.rules:
                clash = "a rule of a piece"
            if clash is not None:
                bag.error("E025", f"a field of `{kind.name}` cannot be called `{name}`: `{name}` is {clash}", span,
                          hint="a field reads like an attribute (`r.name`, or the bare name in a filter): "
                               "give it another name")
                continue
            declared = _type_word(t, bag, word, span)
            if declared is not None:
                fields[name] = declared
        t.record_fields[kind.name] = fields
    for piece in model.pieces:
        for name, (word, span) in piece.variable_types.items():
            declared = _type_word(t, bag, word, span)
            if declared is None:
                continue
            known = t.variable_types[name].type if name in t.variable_types else t.piece_attributes.get(name)
            if known is not None and known != declared.type:
                bag.error("E206", f"attribute `{name}` is declared a {declared.type} here but holds a {known} on "
                                  "another piece kind", span)
                continue
            t.variable_types[name] = declared
            t.piece_attributes[name] = declared.type
    for var in tuple(model.vars) + tuple(model.player_vars):
        if var.type_word is not None:
            declared = _type_word(t, bag, *var.type_word)
            if declared is not None:
                t.var_types[var.name] = declared


def _type_word(t: SymbolTable, bag, word, span):
    try:
        return read_type_word(word, t)
    except TypeWordError as err:
        bag.error("E025", str(err), span)
        return None


def _collect_sides(t: SymbolTable, piece, bag) -> None:
    """A tile's side, corner and centre values are values of the pack (`road`); it has one side per side
    direction, and one corner per corner direction if any."""
    for value, _ in piece.sides + piece.apart + piece.corners + ((piece.centre,) if piece.centre else ()):
        if value not in t.declared and value not in t.shapes:
            t.symbols.add(value)
    _check_corners(t, piece, bag)
    wanted = len(t.side_directions)
    if piece.sides and wanted and len(piece.sides) != wanted:
        bag.error("E027", f"`{piece.name}` gives {len(piece.sides)} sides, but a tile on this board has {wanted}: "
                          f"one facing each of {', '.join(t.side_directions)}", piece.sides_span,
                  hint="list the sides clockwise from the top")
    if piece.apart and not piece.sides:
        bag.error("E027", f"`{piece.name}` gives `apart:` but no `sides:`", piece.apart[0][1],
                  hint="`apart:` lists side values a tile does not join to each other; it needs `sides:`")
    _check_links(t, piece, bag)


def _check_corners(t: SymbolTable, piece, bag) -> None:
    """`corners:` (one per corner direction: a square tile's four) and `centre:` belong to tiles (`sides:`)."""
    for key, span in (("corners", piece.corners_span), ("centre", piece.centre[1] if piece.centre else None)):
        if span is not None and not piece.sides:
            bag.error("E027", f"`{piece.name}` gives `{key}:` but no `sides:`", span,
                      hint=f"`{key}:` is part of a tile, which `sides:` makes")
    if not piece.corners or not piece.sides:
        return
    wanted = len(t.corner_directions)
    if not wanted:
        bag.error("E027", f"`{piece.name}` gives `corners:`, but a tile on this board has no corners to name: "
                          "its corners point to no direction of a hex grid", piece.corners_span,
                  hint="corners are for square tiles (northeast, southeast, southwest, northwest)")
    elif len(piece.corners) != wanted:
        bag.error("E027", f"`{piece.name}` gives {len(piece.corners)} corners, but a tile on this board has "
                          f"{wanted}: one pointing to each of {', '.join(t.corner_directions)}", piece.corners_span,
                  hint="list the corners clockwise from the top right")


def _check_links(t: SymbolTable, piece, bag) -> None:
    """`links: [[north], [south], [east, west]]`: groups of the tile's side directions (as it lies
    unturned), each side in one group at most."""
    if piece.links and not piece.sides:
        bag.error("E027", f"`{piece.name}` gives `links:` but no `sides:`", piece.links[0][0][1] if piece.links[0]
                  else piece.span, hint="`links:` groups the sides a tile joins; it needs `sides:`")
        return
    seen = set()
    for group in piece.links:
        for name, span in group:
            if name not in t.side_directions:
                bag.error("E027", f"`{name}` is no side of a tile on this board: its sides face "
                                  f"{', '.join(t.side_directions)}", span)
            elif name in seen:
                bag.error("E027", f"side `{name}` is in two links of `{piece.name}`", span,
                          hint="each side joins one group of sides")
            seen.add(name)


def _collect_attributes(t: SymbolTable, model, bag) -> None:
    for piece in model.pieces:
        _collect_sides(t, piece, bag)
        for name, (value, span) in piece.attributes.items():
            kind = _attribute_type(value, t.shapes)
            if t.piece_attributes.get(name, kind) != kind:
                bag.error("E206", f"attribute `{name}` holds a {kind} here but a {t.piece_attributes[name]} "
                                  "on another piece kind", span)
            t.piece_attributes[name] = kind
            if isinstance(value, str) and not isinstance(value, bool) and value not in t.shapes \
                    and value not in t.declared:
                t.symbols.add(value)
        for name in piece.variable:
            if name not in piece.variable_types:  # a typed one is read with the other type words
                t.piece_attributes.setdefault(name, SYM)
        t.marks.update(piece.marks)
    for piece in model.pieces:
        for name, expr in piece.rules.items():
            clash = _property_clash(t, name)
            if clash is not None:
                bag.error("E205", f"`{name}` names both a rule of `{piece.name}` and {clash}", expr.span if expr
                          is not None else piece.span, hint="a cell's rules, attributes, marks and properties "
                          "share one namespace")
                continue
            t.rules[name] = t.rules.get(name, ()) + ((piece.name, expr),)


def _property_clash(t: SymbolTable, name: str):
    """What else `name` means on a cell (an attribute, a mark, a built-in property), or None."""
    if name in t.piece_attributes:
        return "an attribute of a piece"
    if name in t.marks:
        return "a mark"
    if name in CELL_PROPERTIES or name in CELL_RELATIVE:
        return "a property every cell has"
    if name in RESERVED:
        return "a reserved word"
    return None


def die_type(table: SymbolTable, die):
    """A die shows numbers, shapes or names, judged from its faces."""
    faces = [f for f in die.faces if f is not None]
    if faces and all(type(f) is nodes.Number for f in faces):
        return NUM
    if faces and all(type(f) is nodes.Name and f.id in table.shapes for f in faces):
        return SHAPE
    return SYM
