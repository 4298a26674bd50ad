"""Pictures of positions: what each cell shows and in which colour; SVG and PNG.

    >>> from boardrule.interpreter import api
    >>> game = api.open_game("tictactoe")
    >>> pic = picture(game, api.new_game(game, 2))
    >>> [c.label for c in pic.boards[0].cells][:3]
    ['.', '.', '.']
    >>> to_svg(pic).startswith("<svg")
    True

One model, three drawings: `picture()` says, for every cell of every board
shown, its short label (a piece's symbol, `:` and its variable attributes
shortened, held pieces in `[...]`, tokens after `+`; `.` when empty, a
region's mark when an empty cell lies in a declared region), its colour (from
the pack's `display:` section) and its region. The terminal draws the labels
as text (`cli/render.py`), `to_svg` draws them by hand as squares or hexagons
in the grid's offset layout, and `write_png` draws the same scene with
matplotlib (the optional extra `boardrule[png]`).

The notes under the boards leave out the decks only the setup uses
(`decks_in_play`) and, given the state of the viewer's last screen
(`since`), the values that have not changed since (`unchanged` names them).

A piece's colour is the `display:` colour of its first variable attribute
value that has one, else of its kind, else of its first fixed attribute
value that has one (a `category`, say).
"""

from __future__ import annotations

import math
import textwrap
from functools import lru_cache
from xml.sax.saxutils import escape, quoteattr

import attrs

from boardrule.dsl.resolution import PlayerProp
from boardrule.dsl.types import CELL
from boardrule.interpreter.runtime.geometry import column_letters, row_shift
from boardrule.interpreter.runtime.values import CELL_MASK, PLAYERS, Player
from boardrule.interpreter.runtime.views import seat_names

#: Marks of the empty cells of declared regions, in order, when `display:` gives none.
REGION_MARKS = "*+~^%&$!=?"
HIDDEN = "?"

INK = "#222222"
PAPER = "#fbf8f0"
EDGE = "#5b5b5b"
NO_COLOR_PIECE = "#e6e6e6"
REGION_DEFAULT = "#e9d98b"


@attrs.frozen
class Cell:
    name: str  # "B2"
    col: int
    row: int
    label: str  # what is drawn: "X", "b:br", "GC:r[w]", "*" (an empty region cell), "." (empty)
    kind: object  # the piece kind, or None
    color: object  # "#rrggbb" of the piece, or None
    region: object  # the first declared region holding the cell, or None
    tint: object  # the region's colour, or None
    values: tuple = ()  # the piece's variable attribute values, in full
    inner: tuple = ()  # the kinds of the pieces it holds and of its tokens
    shape: str = "disc"  # how the piece is drawn (display: `shape`): disc, square, diamond, hexagon
    border: object = None  # "#rrggbb" of the piece's edge (display: `border`), or None
    body: str = ""  # the label without its tokens: what is written on the piece
    tokens: tuple = ()  # (symbol, colour) of each token on the cell, drawn as small discs


@attrs.frozen
class Board:
    title: str  # "P1's board", or "" for a shared board
    seat: object  # the board's seat, or None for a shared board
    cells: tuple  # of Cell, in the grid's order (masked cells left out)
    width: int = 1  # the widest label a piece of the game can show: text keeps its columns that wide


@attrs.frozen
class LegendEntry:
    label: str  # "X", "br", "*"
    meaning: str  # "x", "brown", "region star"
    color: object
    what: str  # "piece", "value" or "region"
    shape: str = "disc"
    border: object = None


@attrs.frozen
class Picture:
    title: str
    grid: object
    boards: tuple
    legend: tuple
    notes: tuple  # lines: round, dice, decks, variables, each player's values


# ------------------------------------------------------------------ looks
class Looks:
    """What a game's `display:` section and regions mean for drawing; one per game."""

    def __init__(self, game):
        display = getattr(game.model, "display", None) or {}
        self.colors = {name: d.color for name, d in display.items() if d.color}
        taken = set(game.symbols.values()) | {".", "-"}
        taken |= {d.symbol for d in display.values() if d.symbol}
        auto = iter([m for m in REGION_MARKS if m not in taken])
        self.regions = [name for name in game.model.board.regions if name in game.regions]
        self.marks = {}
        for name in self.regions:
            entry = display.get(name)
            self.marks[name] = entry.symbol if entry is not None and entry.symbol else next(auto, "*")
        self.region_of = {}
        for name in self.regions:
            for cell in game.regions[name][0]:
                self.region_of.setdefault(cell & CELL_MASK, name)
        self.variable = {p.name: tuple(p.variable) for p in game.model.pieces}
        self.fixed = {p.name: tuple(v for v, _ in p.attributes.values() if isinstance(v, str))
                      for p in game.model.pieces}
        self.flags = {p.name: tuple(n for n, (v, _) in p.attributes.items() if v is True)
                      for p in game.model.pieces}
        self.display = display
        self.game_sets = getattr(game, "symbol_sets", {})
        self.symbol_sets = tuple(set(items) for items in self.game_sets.values())
        self.all_symbols = set(game.pack.checked.symbols.symbols)
        self._short = {}
        self.play_decks = decks_in_play(game.model)
        self.label_width = max([len(game.symbols.get(p.name, p.name)) + sum(
            1 + self._widest_value(attribute) for attribute in p.variable) for p in game.model.pieces] + [1])

    def _widest_value(self, attribute) -> int:
        """The widest shortened value an attribute may take: from the symbol list named after it (`color`:
        `colors`), else from any symbol list."""
        sets = self.game_sets
        named = [items for name, items in sets.items() if name in (attribute + "s", attribute + "es", attribute)]
        pools = named or list(sets.values())
        return max([len(self.short(v)) for items in pools for v in items] + [1])

    def short(self, value) -> str:
        """An attribute value as drawn: the shortest prefix no other value of its symbol list shares."""
        if isinstance(value, bool):
            return "true" if value else "false"
        if not isinstance(value, str):
            return "none" if value is None else str(value)
        if value not in self._short:
            pools = [s for s in self.symbol_sets if value in s]
            others = (set().union(*pools) if pools else self.all_symbols) - {value}
            shown = value
            for n in range(1, len(value)):
                if not any(o.startswith(value[:n]) for o in others):
                    shown = value[:n]
                    break
            self._short[value] = shown
        return self._short[value]

    def piece_style(self, kind) -> tuple:
        """(shape, border) of a piece kind: from the `display:` entry of its kind, else of its first fixed
        attribute value, else of its first true/false attribute that is true, that gives one."""
        names = (kind, *self.fixed.get(kind, ()), *self.flags.get(kind, ()))
        entries = [self.display[n] for n in names if n in self.display]
        shape = next((e.shape for e in entries if e.shape), "disc")
        border = next((e.border for e in entries if e.border), None)
        return shape, border

    def piece_color(self, kind, values):
        for value in values:
            if isinstance(value, str) and value in self.colors:
                return self.colors[value]
        if kind in self.colors:
            return self.colors[kind]
        for value in self.fixed.get(kind, ()):
            if value in self.colors:
                return self.colors[value]
        return None


def decks_in_play(model) -> set:
    """The decks the rounds use: drawn from, shuffled or added to by a step of a round, by an action a round
    step offers, or by a piece's trigger. The others only serve the setup: their size never changes after it."""
    from boardrule.dsl import ast
    from boardrule.dsl.lints import walk
    names = {d.name for d in model.decks}
    actions = {a.name: a for a in model.actions}
    roots = []
    for step in model.flow.round:
        roots.append(step.effect)
        roots += [actions[name].effect for name, _ in step.actions if name in actions]
    roots += [effect for piece in model.pieces for _, effect in piece.triggers]
    found = set()
    for node in walk(roots):
        if isinstance(node, (ast.Draw, ast.Shuffle, ast.Put)):
            found |= {n.id for n in walk(node.deck) if isinstance(n, ast.Name) and n.id in names}
    return found


def looks(game) -> Looks:
    return game.cache.remember("pictures", "looks", lambda: Looks(game))


# ------------------------------------------------------------------ the model
def picture(game, state, viewer=None, seats=None, since=None, names=None) -> Picture:
    """The boards of `state` as `viewer` (a seat, or None for everything) sees them.

    `seats` limits the boards drawn to those seats' (boards of their own only). With `since` (an earlier
    state: the one on the viewer's last screen), the notes leave out the deck sizes and values that have
    not changed since (`unchanged` names them). `names` (seat -> text) names the players: by their
    seats unless given (`views.player_names` numbers them in turn order, as play shows them).
    """
    names = names or seat_names(state)
    if viewer is not None:
        from boardrule.interpreter.runtime.views import view
        state = view(game, state, viewer)
        since = view(game, since, viewer) if since is not None else None
    look = looks(game)
    boards = []
    if game.shared_board:
        boards.append(board_picture(game, state, 0, "", None))
    else:
        for seat in state.players:
            if seats is None or seat in seats:
                boards.append(board_picture(game, state, game.board_of_seat(seat), f"{names[seat]}'s board", seat))
    return Picture(game.name, game.grid, tuple(boards), legend(game, boards, look),
                   tuple(notes(game, state, since, viewer=viewer, names=names)))


def board_picture(game, state, board, title="", seat=None) -> Board:
    grid = game.grid
    look = looks(game)
    cells = []
    for cell in grid.cells:
        cells.append(cell_look(game, state, board, cell, look))
    return Board(title, seat, tuple(cells), look.label_width)


def cell_look(game, state, board, cell, look=None) -> Cell:
    look = look or looks(game)
    grid = game.grid
    kind = state.kind[board][cell]
    region = look.region_of.get(cell)
    tint = look.colors.get(region) if region is not None else None
    color, values, shape, border = None, [], "disc", None
    if kind is None:
        label = look.marks[region] if region is not None else "."
    else:
        label = game.symbols.get(kind, str(kind))
        given = state.attrs[board].get(cell) or {}
        values = [given.get(a) for a in look.variable.get(kind, ())]
        label += "".join(":" + look.short(v) for v in values)
        color = look.piece_color(kind, values)
        shape, border = look.piece_style(kind)
    held = state.held[board].get(cell) or ()
    if held:
        label += "[" + ",".join(game.symbols.get(h, str(h)) for h in held) + "]"
    body = label
    tokens = state.tokens[board].get(cell, ())
    for token in tokens:
        label += "+" + game.symbols.get(token, str(token))
    return Cell(grid.name(cell), grid.col(cell), grid.row(cell), label, kind, color, region, tint,
                tuple(values), tuple(held) + tuple(tokens), shape, border, body,
                tuple((game.symbols.get(t, str(t)), look.piece_color(t, ())) for t in tokens))


def legend(game, boards, look=None) -> tuple:
    """The symbols (a piece by its label), shortened values and region marks the boards use, in the pack's
    order."""
    look = look or looks(game)
    kinds, values, regions = set(), set(), set()
    drawn = {}  # kind -> the colours its cells show
    for board in boards:
        for cell in board.cells:
            if cell.kind is not None:
                kinds.add(cell.kind)
                drawn.setdefault(cell.kind, set()).add(cell.color)
            kinds.update(cell.inner)
            values.update(v for v in cell.values if isinstance(v, str))
            if cell.region is not None:
                regions.add(cell.region)
    entries = [LegendEntry(p.symbol, p.score_label, _legend_color(look, p.name, drawn.get(p.name)), "piece",
                           *look.piece_style(p.name))
               for p in game.model.pieces if p.name in kinds]
    for value in sorted(values, key=lambda v: _value_order(game, v)):
        short = look.short(value)
        if short != value or value in look.colors:
            entries.append(LegendEntry(short, value, look.colors.get(value), "value"))
    entries += [LegendEntry(look.marks[n], f"region {n}", look.colors.get(n), "region")
                for n in look.regions if n in regions]
    return tuple(entries)


def _legend_color(look, kind, colors):
    """The colour the legend gives a kind: the one its pieces show on the boards (none when they show
    several: the `values:` colours say which), else its own."""
    if colors is None:
        return look.piece_color(kind, ())
    return next(iter(colors)) if len(colors) == 1 else None


def _value_order(game, value):
    for index, items in enumerate(getattr(game, "symbol_sets", {}).values()):
        if value in items:
            return (index, items.index(value), value)
    return (len(getattr(game, "symbol_sets", {})), 0, value)


def notes(game, state, since=None, every_deck=False, viewer=None, raw=False, names=None) -> list:
    """One line each: the round, the dice, the decks' sizes, the game's values, each player's values.

    The values are those the pack's `status:` and `player_status:` declare, labelled as it says, with
    each player's score (the final score once the game is over); a pack that declares none, or `raw`,
    shows its variables as they are. `viewer` (a seat, None: everything) is who reads them: a player
    value that reads a private variable is shown to its player only. Decks only the setup uses are left
    out (see `decks_in_play`) unless `every_deck`; with `since` (an earlier state, seen by the same viewer),
    so are the deck sizes and values equal to those of `since`.
    """
    lines = []
    if state.phase == "over":
        lines.append(f"round {state.round}, game over")
    elif state.round:
        lines.append(f"round {state.round}")
    if state.dice:
        lines.append("dice: " + ", ".join(f"{name} {_say(game, v)}" for name, v in state.dice.items()))
    names = names or seat_names(state)
    before = _texts(_note_items(game, since, every_deck, viewer, raw, names)) if since is not None else {}
    for head, items in _note_items(game, state, every_deck, viewer, raw, names):
        shown = [text for name, text in items if since is None or name is None or before.get(name) != text]
        if shown:
            lines.append(head + ", ".join(shown))
    return lines


def unchanged(game, state, since, every_deck=False, viewer=None, raw=False, names=None) -> list:
    """The deck sizes and values `notes(game, state, since)` leaves out because `since` had them too."""
    if since is None:
        return []
    if viewer is not None:
        from boardrule.interpreter.runtime.views import view
        state, since = view(game, state, viewer), view(game, since, viewer)
    names = names or seat_names(state)
    before = _texts(_note_items(game, since, every_deck, viewer, raw, names))
    return [name for _, items in _note_items(game, state, every_deck, viewer, raw, names) for name, text in items
            if name is not None and before.get(name) == text]


def _texts(groups) -> dict:
    return {name: text for _, items in groups for name, text in items if name is not None}


def _note_items(game, state, every_deck, viewer, raw, names) -> list:
    """(line head, [(name, text)]): the notes' items; `name` tells an item in another state (None: always
    shown)."""
    groups = []
    play_decks = looks(game).play_decks
    decks = [(name, cards) for name, cards in state.decks.items() if every_deck or name in play_decks]
    if decks:
        groups.append(("decks: ", [(name, f"{name} {len(cards)} card{'' if len(cards) == 1 else 's'}")
                                   for name, cards in decks]))
    declared = not raw and bool(game.status or game.player_status)
    if declared:
        groups.append(("", [(label, f"{label} {text}") for label, text in _status(game, state, None)]))
    else:
        groups.append(("", [(k, f"{k} {_variable_text(game, k, v)}") for k, v in state.vars.items()]))
    over = state.phase == "over"
    for seat in state.players:
        who = f"{names[seat]} "
        if declared:
            items = [(who + label, f"{label} {text}") for label, text in _status(game, state, seat, viewer)]
        else:
            items = [(who + k, f"{k} {_variable_text(game, k, v)}") for k, v in state.pvars[seat].items()
                     if v != HIDDEN]
        if over and _scored(game, state, seat):  # the end: every sheet is shown, so is every total
            items.append((who + "score", f"final score {game.score_total(state, seat)}"))
        elif not declared and state.points[seat]:
            items.append((who + "score", f"points so far {sum(p for _, p in state.points[seat])}"))
        if seat in state.finished and not over:  # once the game is over, everyone is
            items.append((who + "finished", "finished"))
        groups.append((f"{names[seat]}: ", items))
    return groups


def _reads_score(game, node) -> bool:
    from boardrule.dsl.lints import walk
    resolved = game.pack.checked.resolved
    return any(resolved.get(item) == PlayerProp("score") for item in walk(node))


def _scored(game, state, seat) -> bool:
    return bool(game.scoring or game.piece_scores or state.points[seat])


def _status(game, state, seat, viewer=None) -> list:
    """(label, text) of the values the pack's status declares: the shared ones (seat None) or a player's
    (for `viewer`: one that reads what the player keeps secret is left out for the others). A value that
    is none or an empty list is left out: there is nothing to track; so is the score so far once the
    game is over (the final score says it)."""
    from boardrule.interpreter.runtime.views import reads_private
    entries = game.status if seat is None else game.player_status
    ctx = game.ctx(state, me=PLAYERS[seat] if seat is not None else None)
    found = []
    over = state.phase == "over"
    for label, rule, value_type, node in entries:
        if seat is not None and viewer is not None and seat != viewer and reads_private(game, node):
            continue
        if over and _reads_score(game, node):
            continue  # the final score says it
        value = rule(ctx)
        if value is None or value == [] or value == ():
            continue  # nothing to track now (no card drawn, nothing owed)
        found.append((label, _say(game, value, value_type)))
    return found


def _say(game, value, value_type=None) -> str:
    from boardrule.interpreter.runtime.reasons import say
    return say(game, value, value_type) if game is not None else value_text(value)


def _variable_text(game, name, value) -> str:
    """A variable's value as the notes show it: cells by name when the variable holds cells (declared so,
    or only ever set to cells: `Checked.shown_type`)."""
    pack = getattr(game, "pack", None)
    shown = pack.checked.shown_type(name) if pack is not None and pack.checked is not None else None
    if shown is not None and (shown == CELL or (shown.is_list and shown.item == CELL)):
        return value_text(value, game.grid)
    return value_text(value)


def value_text(value, grid=None) -> str:
    """A value as the notes show it; with `grid`, whole numbers are cells, shown by name."""
    if isinstance(value, tuple) or isinstance(value, list):
        return "[" + ", ".join(value_text(v, grid) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    if type(value) is Player:
        return repr(value)
    if grid is not None and type(value) is int:
        return grid.name(value & CELL_MASK)
    return str(value)


# ------------------------------------------------------------------ geometry
SQUARE_SIDE = 44.0
HEX_RADIUS = 26.0
MARGIN = 12.0
LABEL_ROOM = 26.0  # left of the boards (row numbers) and above them (column letters)
TITLE_ROOM = 22.0
LINE = 18.0


def cell_geometry(grid, col, row):
    """(centre x, centre y, corner points) of a cell, with the board's top-left cell near (0, 0)."""
    if grid.kind != "hex":
        s = SQUARE_SIDE
        x0, y0 = col * s, row * s
        return x0 + s / 2, y0 + s / 2, [(x0, y0), (x0 + s, y0), (x0 + s, y0 + s), (x0, y0 + s)]
    r = HEX_RADIUS
    layout = grid.hex_layout or "flat-odd"
    if layout.startswith("flat"):
        h = math.sqrt(3) * r
        shifted = (col % 2 == 1) == layout.endswith("odd")
        cx, cy = r + col * 1.5 * r, h / 2 + row * h + (h / 2 if shifted else 0)
        angles = [0, 60, 120, 180, 240, 300]
    else:
        w = math.sqrt(3) * r
        halves = row_shift(grid.kind, layout, row) - _leftmost_shift(grid)
        cx, cy = w / 2 + col * w + halves * w / 2, r + row * 1.5 * r
        angles = [30, 90, 150, 210, 270, 330]
    points = [(cx + r * math.cos(math.radians(a)), cy + r * math.sin(math.radians(a))) for a in angles]
    return cx, cy, points


@lru_cache(maxsize=64)
def _leftmost_shift(grid) -> int:
    """How many half cells the leftmost cell of a rhombus-layout board lies right of column 0
    (a hexagon's corners are cut off: its picture starts at its leftmost cell); 0 on other layouts."""
    if grid.hex_layout != "rhombus":
        return 0
    return min(2 * grid.col(c) + row_shift(grid.kind, grid.hex_layout, grid.row(c)) for c in grid.cells)


def board_size(grid):
    """(width, height) of one board's cells."""
    xs, ys = [], []
    for cell in grid.cells:
        _, _, points = cell_geometry(grid, grid.col(cell), grid.row(cell))
        xs += [p[0] for p in points]
        ys += [p[1] for p in points]
    if grid.hex_layout == "rhombus":  # room for the letters past each column's last cell (`_coordinates`)
        for col in set(map(grid.col, grid.cells)):
            last = max(grid.row(c) for c in grid.cells if grid.col(c) == col)
            lx, ly, _ = cell_geometry(grid, col, last + 1)
            xs.append(lx + 8)
            ys.append(ly)
    return max(xs, default=0), max(ys, default=0)


def _hex_to_rgb(color):
    return tuple(int(color[i:i + 2], 16) for i in (1, 3, 5))


def _rgb_to_hex(rgb):
    return "#" + "".join(f"{max(0, min(255, round(c))):02x}" for c in rgb)


def blend(color, amount, base="#ffffff"):
    """`color` mixed with `base`: amount 1 is the colour, 0 the base."""
    a, b = _hex_to_rgb(color), _hex_to_rgb(base)
    return _rgb_to_hex(tuple(b[i] + (a[i] - b[i]) * amount for i in range(3)))


def ink_on(color) -> str:
    """Black or white text, whichever reads better on `color`."""
    r, g, b = _hex_to_rgb(color)
    return "#111111" if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#ffffff"


# ------------------------------------------------------------------ the scene
def scene(pic: Picture) -> tuple:
    """(width, height, items): shapes and texts in pixels, drawn in order by SVG and PNG alike.

    An item is a dict: {"type": "poly", "points", "fill", "stroke"}, {"type": "circle", "x", "y", "r",
    "fill", "stroke"}, {"type": "text", "x", "y", "text", "size", "fill", "bold", "anchor"} or
    {"type": "group", "attrs": {...}, "items": [...]} (a cell, for SVG's structure).
    """
    grid = pic.grid
    bw, bh = board_size(grid)
    items = []
    y = MARGIN
    items.append(_text(MARGIN, y + 8, pic.title, 16, INK, True, "start"))
    y += TITLE_ROOM + 4
    width = MARGIN * 2 + LABEL_ROOM + bw
    for board in pic.boards:
        if board.title:
            items.append(_text(MARGIN, y + 8, board.title, 13, INK, True, "start"))
            y += TITLE_ROOM
        top, left = y + LABEL_ROOM, MARGIN + LABEL_ROOM
        items.extend(_coordinates(grid, left, top))
        for cell in board.cells:
            items.append(_cell_items(grid, cell, left, top))
        y = top + bh + MARGIN
    y += 4
    column = 0
    for entry in pic.legend:
        items.extend(_legend_items(entry, MARGIN + column * 150, y))
        column += 1
        if MARGIN + (column + 1) * 150 > max(width, 460):
            column, y = 0, y + LINE + 6
    if column:
        y += LINE + 6
    width = max(width, MARGIN * 2 + 9 * len(pic.title), MARGIN + min(len(pic.legend), 3) * 150, 460)
    for note in pic.notes:
        for line in textwrap.wrap(note, max(40, int((width - 2 * MARGIN) / 6.8)), subsequent_indent="    "):
            items.append(_text(MARGIN, y + 6, line, 12, INK, False, "start"))
            y += LINE
    return math.ceil(width), math.ceil(y + MARGIN), items


def _text(x, y, text, size, fill, bold=False, anchor="middle"):
    return {"type": "text", "x": x, "y": y, "text": text, "size": size, "fill": fill, "bold": bold,
            "anchor": anchor}


def _coordinates(grid, left, top):
    items = []
    done_cols, done_rows = set(), set()
    for cell in grid.cells:
        col, row = grid.col(cell), grid.row(cell)
        cx, cy, points = cell_geometry(grid, col, row)
        if col not in done_cols:
            done_cols.add(col)
            first = min(grid.row(c) for c in grid.cells if grid.col(c) == col)
            fx, fy, fpoints = cell_geometry(grid, col, first)
            if first == 0 or grid.hex_layout != "rhombus":
                items.append(_text(left + fx, top + min(p[1] for p in fpoints) - 9, column_letters(col), 11, EDGE))
            if grid.hex_layout == "rhombus":
                # columns run down to the right: each letter also where its column would go on past its
                # last cell (below the board, or right of a hexagon's lower right side)
                last = max(grid.row(c) for c in grid.cells if grid.col(c) == col)
                lx, ly, _ = cell_geometry(grid, col, last + 1)
                items.append(_text(left + lx, top + ly - HEX_RADIUS * 0.4, column_letters(col), 11, EDGE))
        if row not in done_rows:
            done_rows.add(row)
            first = min(grid.col(c) for c in grid.cells if grid.row(c) == row)
            fx, fy, fpoints = cell_geometry(grid, first, row)
            items.append(_text(left + min(p[0] for p in fpoints) - 12, top + fy, str(row + 1), 11, EDGE))
    return items


def _cell_items(grid, cell, left, top):
    cx, cy, points = cell_geometry(grid, cell.col, cell.row)
    cx, cy = left + cx, top + cy
    points = [(left + x, top + y) for x, y in points]
    fill = PAPER
    if cell.region is not None:
        fill = blend(cell.tint or REGION_DEFAULT, 0.4, PAPER)
    inner = [{"type": "poly", "points": points, "fill": fill, "stroke": EDGE}]
    radius = (SQUARE_SIDE if grid.kind != "hex" else HEX_RADIUS * 1.6) * 0.38
    text = cell.body or cell.label
    size = 15 if len(text) <= 2 else 12 if len(text) <= 4 else 9
    if cell.kind is not None:
        color = cell.color or NO_COLOR_PIECE
        inner.append(piece_item(cell.shape, cx, cy, radius, color, cell.border))
        inner.append(_text(cx, cy, text, size, ink_on(color), True))
    elif text not in (".", ""):
        mark = blend(cell.tint, 0.7, "#000000") if cell.tint else EDGE
        inner.append(_text(cx, cy, text, size, mark, True))
    for index, (symbol, color) in enumerate(cell.tokens):  # tokens: small discs at the lower right
        tx, ty = cx + radius * 0.75 - index * 11, cy + radius * 0.75
        inner.append({"type": "circle", "x": tx, "y": ty, "r": 6.5, "fill": color or "#ffffff", "stroke": INK,
                      "width": 1.2})
        inner.append(_text(tx, ty, symbol, 8, ink_on(color or "#ffffff"), True))
    title = f"{cell.name}: {cell.kind}" if cell.kind is not None else f"{cell.name}: empty"
    if cell.region is not None:
        title += f" (region {cell.region})"
    marks = {"class": "cell", "data-cell": cell.name, "data-label": cell.label}
    if cell.tokens:
        marks["data-tokens"] = len(cell.tokens)
        title += " with " + ", ".join(symbol for symbol, _ in cell.tokens)
    return {"type": "group", "attrs": marks, "title": title, "items": inner}


def piece_item(shape, cx, cy, r, fill, border=None) -> dict:
    """A piece drawn as its shape: a disc, or a square, diamond or hexagon about as large."""
    stroke, width = (border, 3.0) if border else (EDGE, 1.0)
    if shape == "disc":
        return {"type": "circle", "x": cx, "y": cy, "r": r, "fill": fill, "stroke": stroke, "width": width}
    if shape == "square":
        h = r * 0.9
        points = [(cx - h, cy - h), (cx + h, cy - h), (cx + h, cy + h), (cx - h, cy + h)]
    elif shape == "diamond":
        h = r * 1.15
        points = [(cx, cy - h), (cx + h, cy), (cx, cy + h), (cx - h, cy)]
    else:  # hexagon
        h = r * 1.05
        points = [(cx + h * math.cos(math.radians(a)), cy + h * math.sin(math.radians(a))) for a in range(0, 360, 60)]
    return {"type": "poly", "points": points, "fill": fill, "stroke": stroke, "width": width}


def _legend_items(entry, x, y):
    items = []
    if entry.what == "region":
        fill = blend(entry.color or REGION_DEFAULT, 0.4, PAPER)
        items.append({"type": "poly", "points": [(x, y), (x + 18, y), (x + 18, y + 18), (x, y + 18)],
                      "fill": fill, "stroke": EDGE})
        items.append(_text(x + 9, y + 9, entry.label, 11, EDGE, True))
    else:
        color = entry.color or NO_COLOR_PIECE
        items.append(piece_item(entry.shape, x + 9, y + 9, 9, color, entry.border))
        items.append(_text(x + 9, y + 9, entry.label, 9 if len(entry.label) > 2 else 10, ink_on(color), True))
    items.append(_text(x + 24, y + 9, entry.meaning, 12, INK, False, "start"))
    return items


# ------------------------------------------------------------------ SVG
def to_svg(pic: Picture) -> str:
    """A standalone SVG document (UTF-8 text)."""
    width, height, items = scene(pic)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Verdana, sans-serif">',
           f"<title>{escape(pic.title)}</title>",
           f'<rect x="0" y="0" width="{width}" height="{height}" fill="#ffffff"/>']
    _svg_items(items, out)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _num(value) -> str:
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _svg_items(items, out):
    for item in items:
        kind = item["type"]
        if kind == "group":
            attrs_text = " ".join(f"{k}={quoteattr(str(v))}" for k, v in item["attrs"].items())
            out.append(f"<g {attrs_text}>")
            if item.get("title"):
                out.append(f"<title>{escape(item['title'])}</title>")
            _svg_items(item["items"], out)
            out.append("</g>")
        elif kind == "poly":
            points = " ".join(f"{_num(x)},{_num(y)}" for x, y in item["points"])
            out.append(f'<polygon points="{points}" fill="{item["fill"]}" stroke="{item["stroke"]}" '
                       f'stroke-width="{_num(item.get("width", 1))}"/>')
        elif kind == "circle":
            out.append(f'<circle cx="{_num(item["x"])}" cy="{_num(item["y"])}" r="{_num(item["r"])}" '
                       f'fill="{item["fill"]}" stroke="{item["stroke"]}" stroke-width="{_num(item.get("width", 1))}"/>')
        elif kind == "text":
            weight = ' font-weight="bold"' if item["bold"] else ""
            out.append(f'<text x="{_num(item["x"])}" y="{_num(item["y"])}" font-size="{item["size"]}" '
                       f'fill="{item["fill"]}" text-anchor="{item["anchor"]}" dominant-baseline="central"'
                       f"{weight}>{escape(item['text'])}</text>")


# ------------------------------------------------------------------ PNG
class PngUnavailable(Exception):
    """matplotlib is not installed: PNG needs the optional extra `boardrule[png]`."""


def write_png(pic: Picture, path, scale: float = 2.0) -> None:
    """Draw the picture's scene with matplotlib into a PNG file."""
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
        from matplotlib.patches import Circle, Polygon
    except ImportError:
        raise PngUnavailable("PNG pictures need matplotlib: pip install 'boardrule[png]'") from None
    width, height, items = scene(pic)
    figure = Figure(figsize=(width / 100, height / 100), dpi=100)
    FigureCanvasAgg(figure)
    axes = figure.add_axes([0, 0, 1, 1])
    axes.set_xlim(0, width)
    axes.set_ylim(height, 0)
    axes.axis("off")

    def draw(entries):
        for item in entries:
            kind = item["type"]
            if kind == "group":
                draw(item["items"])
            elif kind == "poly":
                axes.add_patch(Polygon(item["points"], closed=True, facecolor=item["fill"],
                                       edgecolor=item["stroke"], linewidth=0.8 * item.get("width", 1)))
            elif kind == "circle":
                axes.add_patch(Circle((item["x"], item["y"]), item["r"], facecolor=item["fill"],
                                      edgecolor=item["stroke"], linewidth=0.8 * item.get("width", 1)))
            elif kind == "text":
                axes.text(item["x"], item["y"], item["text"], fontsize=item["size"] * 0.72, color=item["fill"],
                          ha={"middle": "center", "start": "left"}[item["anchor"]], va="center",
                          fontweight="bold" if item["bold"] else "normal")
    draw(items)
    figure.savefig(path, dpi=100 * scale, facecolor="white", format="png")
