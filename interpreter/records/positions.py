"""Positions: a readable snapshot of boards and values, written in YAML.

    board: |          # a shared board; or `boards: {P1: |..., P2: |...}`
      X O .
      . X .
      . . O
    vars: {named: wood}
    player_vars: {P1: {stars: 1}}
    points: {P1: [[bonus, 2]]}
    dice: {black: bar}
    decks: {pile: [ruby, jade]}  # a deck's cards, top first
    round: 3
    finished: [P2]
    step: build       # the flow step whose decision is open (by its `name:`)

A cell is `.` when empty, `-` when the board has no such cell, else the
symbol of a piece kind, then optionally `:value` for each of its `variable`
attributes, `@P2` for the player who owns it, `[a,b]` for the pieces it
holds and `+t` for each token on it (`.+t` is a token on an empty cell).
"""

from __future__ import annotations

import re

from boardrule.dsl.diagnostics import PackError
from boardrule.dsl.loader import MapNode, ScalarNode, SeqNode, to_plain
from boardrule.interpreter.runtime import flow
from boardrule.interpreter.runtime.geometry import RHOMBUS, even_pitch
from boardrule.interpreter.runtime.state import set_kind
from boardrule.dsl.sections import MAX_ROUNDS
from boardrule.dsl.type_words import TypeWordError
from boardrule.dsl.types import ANY, BOOL, CELL, NONE, NUM, PLAYER, SHAPE, STR, SYM
from boardrule.interpreter.runtime.values import CELL_BITS, PLAYERS, Player

_TOKEN = re.compile(r"^(?P<sym>[^:@\[\+]+)(?::(?P<attrs>[^@\[\+]+))?(?:@(?P<owner>[^\[\+]+))?"
                    r"(?:\[(?P<held>[^\]]*)\])?(?P<tokens>(?:\+[^+]+)*)$")
_SEAT = re.compile(r"^P([1-9][0-9]{0,3})$")  # P1, P2...: `p02`, `P0` or a longer number is no seat


class PositionError(PackError):
    default_code = "E400"


def parse_seat(text, span=None, seats=None) -> int:
    match = _SEAT.match(str(text).strip())
    if match is None or int(match.group(1)) < 1 or (seats is not None and int(match.group(1)) > seats):
        raise PositionError(f"`{text}` is not a seat; write P1, P2, ...", span=span)
    return int(match.group(1)) - 1


def apply_position(game, state, node: MapNode) -> None:
    """Overwrite `state` with the boards and values a position mapping gives."""
    state.moves_cache.clear()  # the legal moves computed for the old boards no longer hold
    flow.detach_snapshot(state)  # the snapshot shares the boards about to change
    allowed = {"board", "boards", "vars", "player_vars", "points", "dice", "decks", "round", "finished", "step"}
    for key, _ in node.entries:
        if key.value not in allowed:
            raise PositionError(f"unknown key `{key.value}` in a position; expected one of: "
                                + ", ".join(sorted(allowed)), span=key.span)
    if node.get("board") is not None:
        if not game.shared_board and len(state.players) > 1:
            raise PositionError("each player has a board here: use `boards: {P1: ..., P2: ...}`",
                                span=node.get("board").span)
        _load_board(game, state, game.board_of_seat(state.players[0]), node.get("board"))
    for seat_key, board_node in _mapping(node.get("boards")):
        seat = parse_seat(seat_key.value, seat_key.span, state.seats)
        _load_board(game, state, game.board_of_seat(seat), board_node)
    for key, value in _mapping(node.get("vars")):
        _set_var(game, state.vars, key, value, game.model.vars, game.board_of_seat(state.players[0]))
    for seat_key, values in _mapping(node.get("player_vars")):
        seat = parse_seat(seat_key.value, seat_key.span, state.seats)
        for key, value in _mapping(values):
            _set_var(game, state.pvars[seat], key, value, game.model.player_vars, game.board_of_seat(seat))
    for seat_key, values in _mapping(node.get("points")):
        seat = parse_seat(seat_key.value, seat_key.span, state.seats)
        state.points[seat] = _points(values)
    for key, value in _mapping(node.get("dice")):
        state.dice[str(key.value)] = _die_face(game, key, value)
    if node.get("round") is not None:
        state.round = _whole_number(node.get("round"), "`round`", 0, MAX_ROUNDS)
    if node.get("finished") is not None:
        state.finished = [parse_seat(s.value, s.span, state.seats) for s in node.get("finished").items]
    for key, value in _mapping(node.get("decks")):
        state.decks[str(key.value)] = _deck_cards(game, key, value)
        state.owned_decks.add(str(key.value))
    if node.get("step") is not None:
        phase, index = _named_step(game, node.get("step"))
        flow.open_step(game, state, phase, index)


def _deck_cards(game, key, node) -> list:
    """A deck's cards as a position lists them, top first (a state keeps the top last); each one a
    card the deck is made of."""
    if key.value not in game.decks:
        names = ", ".join(sorted(game.decks)) or "none"
        raise PositionError(f"`{key.value}` is not a deck (decks: {names})", span=key.span)
    made_of = {_card_text(card): card for card in game.decks[key.value]}
    if not isinstance(node, SeqNode):
        raise PositionError(f"deck `{key.value}`: expected a list of its cards, top first", span=node.span)
    cards = []
    for item in node.items:
        text = str(to_plain(item))
        if text not in made_of:
            raise PositionError(f"`{text}` is not a card of deck `{key.value}` (its cards: "
                                f"{', '.join(sorted(made_of))})", span=item.span)
        cards.append(made_of[text])
    return cards[::-1]


def _card_text(card) -> str:
    return getattr(card, "name", None) or _cell_text(card)


def _named_step(game, node) -> tuple:
    """(phase, index) of the flow step a position opens, by its `name:`."""
    flow_def = game.model.flow
    for phase, steps in (("round", flow_def.round), ("setup", flow_def.setup)):
        for index, step in enumerate(steps):
            if step.name is not None and step.name == node.value:
                return phase, index
    named = [s.name for s in (*flow_def.setup, *flow_def.round) if s.name is not None]
    raise PositionError(f"`{node.value}` is not the name of a flow step (named steps: "
                        f"{', '.join(named) or 'none: give a step a `name:`'})", span=node.span)


def _mapping(node):
    if node is None:
        return ()
    if not isinstance(node, MapNode):
        raise PositionError("expected a mapping here", span=node.span)
    return node.entries


def _set_var(game, table, key, value, declared, board):
    """Variable `key` of `table` set to `value`, read as the variable's type says (`board`: the board a cell
    named there is on)."""
    names = {v.name for v in declared}
    if key.value not in names:
        raise PositionError(f"`{key.value}` is not a declared variable", span=key.span)
    checked = game.pack.checked
    symbols = checked.symbols
    kind = checked.shown_type(str(key.value)) or ANY  # declared, else what the rules set it to (cells...)
    plain = to_plain(value)
    _check_type(kind, plain, f"`{key.value}`", value.span, symbols.record_of)
    table[str(key.value)] = _shaped(game, kind, _rule_value(plain), value.span, board)


def _shaped(game, kind, value, span, board=0):
    """Shapes named in a position become the shapes the rules hold (a hand of pieces: `[bar, ell]`), and
    cells named there (`C1`) the cells of `board`."""
    if kind == CELL and isinstance(value, str):
        try:
            return board << CELL_BITS | game.grid.parse_name(value)
        except (KeyError, ValueError):
            raise PositionError(f"`{value}` is not a cell of the board: cells are written like B2", span=span) from None
    if kind == SHAPE and isinstance(value, str):
        if value not in game.shapes:
            names = ", ".join(sorted(game.shapes)) or "none"
            raise PositionError(f"`{value}` is not a shape of this pack (shapes: {names})", span=span)
        return game.shapes[value]
    if kind.is_list and isinstance(value, tuple):
        return tuple(_shaped(game, kind.item or ANY, item, span, board) for item in value)
    return value


_PLAIN_TYPES = {NUM: (int,), BOOL: (bool,), SYM: (str,), STR: (str,), PLAYER: (str,), CELL: (str,)}


def _check_type(kind, plain, what, span, records) -> None:
    """Refuse a value that the variable's type does not hold (`none` fits any); `records` maps each
    record id to its kind."""
    if plain is None or kind in (ANY, NONE):
        return
    if kind.is_list:
        if not isinstance(plain, list):
            raise PositionError(f"{what} holds a {kind}: write it as a list, like [a, b]", span=span)
        for item in plain:
            _check_type(kind.item or ANY, item, f"an item of {what}", span, records)
        return
    if kind.is_record:
        if not isinstance(plain, str) or records.get(plain) != kind.of:
            shown = f"`{plain}`" if isinstance(plain, str) else repr(plain)
            raise PositionError(f"{what} holds a {kind}, and {shown[:60]} is no record of `{kind.of}`", span=span)
        return
    wanted = _PLAIN_TYPES.get(kind)
    if wanted is None:
        return  # cells, shapes and the like are read as the rules read them
    if type(plain) not in wanted or (kind == PLAYER and not _SEAT.match(plain)):
        shown = repr(plain) if not isinstance(plain, str) else f"`{plain}`"
        raise PositionError(f"{what} holds a {kind}, and {shown[:60]} is not one"
                            + ("; write whole numbers without `_`" if isinstance(plain, str) and "_" in plain
                               else ""), span=span)


def _whole_number(node, what, low, high) -> int:
    value = node.value if isinstance(node, ScalarNode) else None
    if type(value) is not int or not low <= value <= high:
        raise PositionError(f"{what} is a whole number from {low} to {high:,}", span=node.span)
    return value


def _points(node) -> list:
    """Recorded points: a list of [label, points] pairs."""
    plain = to_plain(node)
    pairs = plain if isinstance(plain, list) else None
    if pairs is None or not all(isinstance(p, list) and len(p) == 2 and isinstance(p[0], str)
                                and type(p[1]) is int for p in pairs):
        raise PositionError("points are a list of [label, points] pairs, like [[bonus, 2]]", span=node.span)
    return [[label, points] for label, points in pairs]


def _die_face(game, key, node):
    """A die's face in a position: a die of the pack, showing one of its faces."""
    faces = game.dice_faces.get(key.value)
    if faces is None:
        raise PositionError(f"`{key.value}` is not a die of this pack", span=key.span)
    face = to_plain(node)
    if face not in faces:
        listing = ", ".join(str(f) for f in faces)
        raise PositionError(f"die `{key.value}` has no face `{face}`; its faces: {listing}", span=node.span)
    return face


def _rule_value(plain):
    """A YAML value as the rules hold it: seats as players, lists as tuples (like `[a, b]` in a rule)."""
    if isinstance(plain, list):
        return tuple(_rule_value(item) for item in plain)
    return PLAYERS[parse_seat(plain)] if isinstance(plain, str) and _SEAT.match(plain) else plain


def _load_board(game, state, board, node):
    if not isinstance(node, ScalarNode) or not isinstance(node.value, str):
        raise PositionError("a board is written as rows of cell symbols", span=node.span)
    text = node.value
    starts_and_rows = _rows(text)
    rows = [row for _, row in starts_and_rows]
    grid = game.grid
    if len(rows) != grid.height:
        raise PositionError(f"the board has {grid.height} rows, this position gives {len(rows)}", span=node.span)
    by_symbol = {symbol: kind for kind, symbol in game.symbols.items()}
    for y, (row_start, row) in enumerate(starts_and_rows):
        found = list(re.finditer(r"\S+", row))
        tokens = [token.group() for token in found]
        present = [grid.col(c) for c in grid.rows[y]]
        if len(tokens) == grid.width:
            columns = range(grid.width)  # every column, `-` where no cell is
        elif len(tokens) == len(present):
            columns = present  # only the row's cells (a hexagon's rows)
        else:
            offset = row_start
            message = f"row {y + 1} has {len(tokens)} cells; the board is {grid.width} wide"
            if len(present) < grid.width:
                message += f" (a `-` for each missing cell), or give only the row's {len(present)} cells"
            raise PositionError(message, span=node.span_of(offset, offset + len(row)))
        for x, token in zip(columns, found):
            span = node.span_of(row_start + token.start(), row_start + token.end())
            _load_cell(game, state, board, x, y, token.group(), by_symbol, span)


def _rows(text) -> list:
    """(where it starts in the text, the row) of each row of a board's text that is not blank."""
    out, offset = [], 0
    for line in text.splitlines(keepends=True):
        if line.strip():
            out.append((offset, line.rstrip("\r\n")))
        offset += len(line)
    return out


def _load_cell(game, state, board, x, y, token, by_symbol, span):
    """One cell of a position's board, from its token (`span`: where the token is written)."""
    cell = game.grid.at(x, y)
    if token == "-":
        if cell is not None:
            raise PositionError(f"{game.grid.name(cell)} is on the board; `-` marks a missing cell", span=span)
        return
    if cell is None:
        raise PositionError(f"there is no cell at column {x + 1}, row {y + 1}; write `-`", span=span)
    match = _TOKEN.match(token)
    symbol = match.group("sym") if match else token
    if match is None or (symbol != "." and symbol not in by_symbol):
        choices = ", ".join(sorted(by_symbol))
        raise PositionError(f"`{token}` is not a piece symbol of this pack (symbols: {choices})", span=span)
    _clear_cell(state, board, cell)  # the position gives the whole cell: `.` empties it
    if symbol != ".":
        kind = by_symbol[symbol]
        set_kind(state, board, cell, kind)
        values = (match.group("attrs") or "").split(":") if match.group("attrs") else []
        variable = _variable_attributes(game, kind)
        if values:
            state.attrs[board][cell] = _cell_values(game, kind, variable, values, span)
        if match.group("owner"):
            state.owner[board][cell] = parse_seat(match.group("owner"), span, state.seats)
        if match.group("held"):
            state.held[board][cell] = tuple(by_symbol.get(h.strip(), h.strip())
                                            for h in match.group("held").split(",") if h.strip())
    if match.group("tokens"):
        state.tokens[board][cell] = tuple(by_symbol.get(t, t) for t in match.group("tokens").split("+") if t)


def _cell_values(game, kind, variable, values, span) -> dict:
    """`W:2:red`: the values of a piece's variable attributes, in the order its kind declares them, each
    read as its declared type (`variable: {crowns: number}`); an undeclared type reads a name."""
    if len(values) > len(variable):
        raise PositionError(f"`{kind}` has {len(variable)} variable attribute(s) ({', '.join(variable) or 'none'}), "
                            f"this cell gives {len(values)} values", span=span)
    declared = game.pack.checked.symbols.variable_types
    out = {}
    for name, text in zip(variable, values):
        kind_of_value = declared.get(name)
        if kind_of_value is None:
            out[name] = text
            continue
        try:
            out[name] = kind_of_value.text_value(text)
        except TypeWordError as err:
            raise PositionError(f"`{name}` of `{kind}`: {err}", span=span) from None
    return out


def _clear_cell(state, board, cell):
    """Nothing on a cell: no piece, attributes, held pieces, tokens or owner (what setup put there goes)."""
    set_kind(state, board, cell, None)
    state.owner[board][cell] = None
    for table in (state.attrs, state.held, state.tokens):
        table[board].pop(cell, None)


def _variable_attributes(game, kind):
    for piece in game.model.pieces:
        if piece.name == kind:
            return piece.variable
    return ()


def board_rows(game, state, board) -> list:
    """The board as rows of cell tokens, the inverse of a position's board: every column, `-` for a
    missing cell; on the rhombus layout (a hexagon) only the cells of each row."""
    grid = game.grid
    if grid.hex_layout == RHOMBUS:
        return [[cell_token(game, state, board, cell) for cell in row] for row in grid.rows]
    rows = []
    for y in range(grid.height):
        tokens = []
        for x in range(grid.width):
            cell = grid.at(x, y)
            tokens.append("-" if cell is None else cell_token(game, state, board, cell))
        rows.append(tokens)
    return rows


def cell_token(game, state, board, cell) -> str:
    kind = state.kind[board][cell]
    token = "." if kind is None else game.symbols[kind]
    extra = state.attrs[board].get(cell)
    if extra and kind is not None:
        token += "".join(":" + _cell_text(extra.get(a)) for a in _variable_attributes(game, kind))
    owner = state.owner[board][cell]
    if owner is not None and kind is not None:
        token += f"@{PLAYERS[owner]!r}"
    held = state.held[board].get(cell)
    if held:
        token += "[" + ",".join(game.symbols.get(h, h) for h in held) + "]"
    for t in state.tokens[board].get(cell, ()):
        token += "+" + game.symbols.get(t, t)
    return token


def _cell_text(value) -> str:
    """A piece's attribute value as a cell of a position writes it (`true`, not Python's `True`)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def position_dict(game, state) -> dict:
    """A position mapping (plain data) for the whole state."""
    def text(board):
        rows = board_rows(game, state, board)
        width = even_pitch(game.grid.hex_layout, max((len(t) for row in rows for t in row), default=1))
        indents = _indents(game.grid, width + 1)
        return "\n".join((" " * indent + " ".join(t.ljust(width) for t in row)).rstrip()
                         for indent, row in zip(indents, rows)) + "\n"
    out = {}
    if game.shared_board:
        out["board"] = text(0)
    else:
        out["boards"] = {repr(PLAYERS[s]): text(game.board_of_seat(s)) for s in state.players}
    if state.vars:
        out["vars"] = {k: _plain(v) for k, v in state.vars.items()}
    if any(state.pvars):
        out["player_vars"] = {repr(PLAYERS[s]): {k: _plain(v) for k, v in state.pvars[s].items()}
                              for s in state.players}
    if any(state.points):
        out["points"] = {repr(PLAYERS[s]): state.points[s] for s in state.players if state.points[s]}
    if state.dice:
        out["dice"] = dict(state.dice)
    out["round"] = state.round
    if state.finished:
        out["finished"] = [repr(PLAYERS[s]) for s in state.finished]
    return out


def _indents(grid, pitch) -> list:
    """Spaces before each row of a rhombus-layout board, so that its rows lie as on the board
    (the rows are read without them); none on other layouts."""
    if grid.hex_layout != RHOMBUS:
        return [0] * grid.height
    starts = [(2 * grid.col(row[0]) + y) * pitch // 2 if row else 0 for y, row in enumerate(grid.rows)]
    least = min(starts)
    return [start - least for start in starts]


def _plain(value):
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    if type(value) is Player:
        return repr(value)
    return value
