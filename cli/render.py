"""Text pictures of boards and score sheets for the terminal."""

from __future__ import annotations

import click

from boardrule.interpreter.geometry import column_letters
from boardrule.interpreter.positions import board_rows
from boardrule.interpreter.values import PLAYERS


def render_board(game, state, board, color=False) -> str:
    """A board as text: square grids as a table, hex grids as offset rows."""
    rows = board_rows(game, state, board)
    width = max((len(t) for row in rows for t in row), default=1)
    letters = [column_letters(x) for x in range(game.grid.width)]
    width = max(width, max(len(l) for l in letters))
    if game.grid.kind == "hex" and (game.grid.hex_layout or "").startswith("flat"):
        return _render_flat_hex(rows, letters, width, game.grid.hex_layout.endswith("odd"), color)
    lines = ["    " + " ".join(l.ljust(width) for l in letters)]
    for y, row in enumerate(rows):
        shift = " " * ((width + 1) // 2) if game.grid.kind == "hex" and (y % 2 == 1) == \
            (game.grid.hex_layout or "").endswith("odd") else ""
        lines.append(f"{y + 1:>3} " + shift + " ".join(_paint(t, color).ljust(width) for t in row))
    return "\n".join(line.rstrip() for line in lines)


def _render_flat_hex(rows, letters, width, odd_low, color) -> str:
    # flat-topped hexes: columns are straight; the shifted half of the columns
    # is printed on a half line below its row
    lines = ["    " + " ".join(l.ljust(width) for l in letters)]
    for y, row in enumerate(rows):
        high = [t if (x % 2 == 0) == odd_low else " " * len(t) for x, t in enumerate(row)]
        low = [t if (x % 2 == 1) == odd_low else " " * len(t) for x, t in enumerate(row)]
        lines.append(f"{y + 1:>3} " + " ".join(_paint(t, color).ljust(width) for t in high))
        lines.append("    " + " ".join(_paint(t, color).ljust(width) for t in low))
    return "\n".join(line.rstrip() for line in lines)


def _paint(token, color):
    if not color or token in (".", "-"):
        return token
    return click.style(token, bold=True)


def render_legend(game) -> str:
    return "legend: " + ", ".join(f"{symbol} {kind}" for kind, symbol in game.symbols.items())


def render_sheets(report: dict) -> str:
    lines = []
    for player in report["players"]:
        lines.append(f"{player['seat']}: {player['total']} points")
        for term in player["terms"]:
            count = f" (x{term['count']})" if term["count"] > 1 else ""
            lines.append(f"  {term['label']:<28} {term['points']:>4}{count}")
        if player.get("verdict"):
            lines.append(f"  verdict: {player['verdict']}")
    winners = report["winners"]
    lines.append(("winner: " if len(winners) == 1 else "shared win: ") + ", ".join(winners))
    return "\n".join(lines)


def render_state(game, state, viewer=None, color=False) -> str:
    """Every board (or the viewer's view), the dice and each player's values."""
    parts = []
    if game.shared_board:
        parts.append(render_board(game, state, 0, color))
    else:
        for seat in state.players:
            parts.append(f"{PLAYERS[seat]!r}'s board")
            parts.append(render_board(game, state, game.board_of_seat(seat), color))
    if state.dice:
        parts.append("dice: " + ", ".join(f"{k} {v}" for k, v in state.dice.items()))
    values = [f"{PLAYERS[s]!r}: " + ", ".join(f"{k} {_value(v)}" for k, v in state.pvars[s].items())
              for s in state.players if state.pvars[s]]
    parts.extend(values)
    if state.vars:
        parts.append(", ".join(f"{k} {_value(v)}" for k, v in state.vars.items()))
    return "\n".join(parts)


def _value(value):
    if isinstance(value, tuple):
        return "[" + ", ".join(str(v) for v in value) + "]"
    return str(value)
