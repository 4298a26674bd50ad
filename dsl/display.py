"""The optional `display:` section: how a pack's pieces and regions look.

    display:
      x: "#c0392b"                        # pieces of kind x
      red: "#c0392b"                      # pieces whose attribute is `red` (`color: red`)
      star: {color: "#f4d03f", symbol: "*"}   # region `star`: tinted, empty cells drawn `*`

Each key names a piece kind, a symbol (a name of a `symbols:` list, an
option value or an attribute value), a true/false attribute of pieces (the
pieces where it is true) or a region of the board; its value is a colour
`#rrggbb` (or `#rgb`), or a mapping with `color`, for pieces `shape` (disc,
square, diamond, hexagon) and `border` (a colour), and for a region `symbol`
(the mark drawn in its empty cells). Nothing here changes the rules:
boards are drawn with it (`boardrule play`, `boardrule render`).

`read_display` checks the YAML shape (E030, E032; E011 for an unknown key);
`check_display` checks the names once the symbol table is built (E031).
"""

from __future__ import annotations

import re

from boardrule.dsl.diagnostics import did_you_mean
from boardrule.dsl.loader import MapNode, ScalarNode
from boardrule.dsl.records import frozen
from boardrule.dsl.types import BOOL

COLOR = re.compile(r"^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$")
DISPLAY_KEYS = ("color", "symbol", "shape", "border")
#: How a piece is drawn: a disc, a square, a diamond or a hexagon (`token` pieces are small discs).
SHAPES = ("disc", "square", "diamond", "hexagon")
#: Characters a region's mark may not use: they mean something in boards and positions.
RESERVED_MARKS = set(".-:+[],")
MAX_MARK = 2


@frozen
class DisplayDef:
    name: str
    color: str | None  # "#rrggbb", lower case
    symbol: str | None  # the mark of a region's empty cells
    span: object
    symbol_span: object = None
    shape: str | None = None  # a piece's outline: one of SHAPES
    border: str | None = None  # "#rrggbb": the colour of a piece's edge, drawn thick


def normal_color(text: str) -> str:
    """`#abc` -> `#aabbcc`, lower case."""
    text = text.lower()
    if len(text) == 4:
        text = "#" + "".join(c * 2 for c in text[1:])
    return text


def read_display(r, node) -> dict:
    """name -> DisplayDef; shape problems go into `r.bag`."""
    out = {}
    if node is None:
        return out
    section = r.mapping(node, "display")
    for key, value in section.entries:
        name = str(key.value)
        color, symbol, symbol_span, shape, border = None, None, None, None, None
        if isinstance(value, MapNode):
            m = r.mapping(value, f"display `{name}`", DISPLAY_KEYS)
            color = _color(r, m.get("color"), name, key.span) if m.get("color") is not None else None
            border = _color(r, m.get("border"), name, key.span) if m.get("border") is not None else None
            mark = m.get("symbol")
            if mark is not None:
                symbol, symbol_span = _mark(r, mark, name), mark.span
            if m.get("shape") is not None:
                shape = _shape(r, m.get("shape"), name)
            if all(m.get(k) is None for k in DISPLAY_KEYS):
                r.bag.error("E030", f"display `{name}` gives none of " + ", ".join(f"`{k}`" for k in DISPLAY_KEYS),
                            key.span,
                            hint='write `' + name + ': "#c0392b"` or `' + name + ': {color: "#c0392b"}`')
        else:
            color = _color(r, value, name, key.span)
        out[name] = DisplayDef(name, color, symbol, key.span, symbol_span, shape, border)
    return out


def _color(r, node, name, key_span):
    value = node.value if isinstance(node, ScalarNode) else None
    if isinstance(node, ScalarNode) and value is None:
        r.bag.error("E030", f"display `{name}` has no colour", key_span,
                    hint=f'YAML reads an unquoted `#` as the start of a comment: write `{name}: "#c0392b"`')
        return None
    if not isinstance(value, str) or not COLOR.match(value.strip()):
        shown = value if isinstance(value, (str, int, float)) else "this"
        r.bag.error("E030", f"display `{name}`: `{shown}` is not a colour", getattr(node, "span", key_span),
                    hint='a colour is `#` and 6 (or 3) hexadecimal digits, in quotes: "#c0392b"')
        return None
    return normal_color(value.strip())


def _shape(r, node, name):
    value = node.value if isinstance(node, ScalarNode) else None
    if value not in SHAPES:
        r.bag.error("E030", f"display `{name}`: `{value}` is not a shape", getattr(node, "span", None),
                    hint="a piece is drawn as one of: " + ", ".join(SHAPES))
        return None
    return value


def _mark(r, node, name):
    value = node.value if isinstance(node, ScalarNode) else None
    text = str(value).strip() if isinstance(value, (str, int)) and not isinstance(value, bool) else ""
    if not text or len(text) > MAX_MARK or any(c.isspace() or c in RESERVED_MARKS for c in text):
        r.bag.error("E032", f"display `{name}`: a region's symbol is 1 or {MAX_MARK} characters, "
                            "without spaces or any of . - : + [ ] ,", getattr(node, "span", None),
                    hint='e.g. `symbol: "*"` (in quotes: YAML reads a bare `*` as an alias)')
        return None
    return text


def check_display(model, symbols, bag) -> None:
    """Every key names a piece kind, a symbol or a region; a symbol only marks a region."""
    flags = {name for name, kind in symbols.piece_attributes.items() if kind == BOOL}
    known = set(symbols.kinds) | set(symbols.symbols) | set(symbols.regions) | flags
    piece_symbols = {p.symbol: p.name for p in model.pieces}
    for name, entry in model.display.items():
        if name not in known:
            hint = did_you_mean(name, sorted(known))
            bag.error("E031", f"display `{name}` names no piece kind, symbol or region of this pack", entry.span,
                      hint=hint or "display keys are piece kinds, symbols (attribute values) and regions")
            continue
        if (entry.shape or entry.border) and name in symbols.regions:
            bag.error("E032", f"display `{name}`: a region takes a colour and a symbol, not a `shape` or `border`",
                      entry.span, hint="shapes and borders are for pieces: their kind, category or flag")
        if entry.symbol is None:
            continue
        if name not in symbols.regions:
            bag.error("E032", f"display `{name}`: only a region takes a `symbol` here",
                      entry.symbol_span or entry.span,
                      hint="a piece's symbol is given in `pieces:`")
        elif entry.symbol in piece_symbols:
            bag.error("E032", f"display `{name}`: `{entry.symbol}` is already the symbol of "
                              f"piece `{piece_symbols[entry.symbol]}`", entry.symbol_span or entry.span)
