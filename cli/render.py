"""Text pictures of boards, legends and score sheets for the terminal.

Boards come from `interpreter.picture` (the same cells, labels and colours
the SVG shows): square grids as a table, hex grids as offset rows (flat-topped
hexes as straight columns, every other one half a line lower; pointy-topped ones
as rows, every other one half a cell right, or each row half a cell right of the
one above on the rhombus layout). With colour,
pieces take the pack's `display:` colours (xterm's 256 colours), region
marks their region's colour; without, the text is the same, only plain.
"""

from __future__ import annotations

import os
import sys

import click

from boardrule.interpreter.runtime import picture as pictures
from boardrule.interpreter.runtime.geometry import column_letters, even_pitch, row_shift


def color_default(stream=None) -> bool:
    """Colour when writing to a terminal, unless NO_COLOR is set (https://no-color.org) or TERM is dumb."""
    stream = stream or sys.stdout
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


# ------------------------------------------------------------------ boards
def board_text(grid, board, color=False) -> str:
    """One board of a picture as text."""
    by_pos = {(c.col, c.row): c for c in board.cells}
    letters = [column_letters(x) for x in range(grid.width)]
    width = max([len(c.label) for c in board.cells] + [len(letter) for letter in letters] + [board.width])
    width = even_pitch(grid.hex_layout, width)
    lines = ["    " + " ".join(letter.ljust(width) for letter in letters)]

    def cell_text(x, y, shown=True):
        cell = by_pos.get((x, y))
        if cell is None or not shown:
            return " " * width
        return paint(cell, color) + " " * (width - len(cell.label))

    layout = grid.hex_layout or ""
    if grid.kind == "hex" and layout.startswith("flat"):
        odd_low = layout.endswith("odd")
        for y in range(grid.height):
            high = [cell_text(x, y, (x % 2 == 0) == odd_low) for x in range(grid.width)]
            low = [cell_text(x, y, (x % 2 == 1) == odd_low) for x in range(grid.width)]
            lines.append(f"{y + 1:>3} " + " ".join(high))
            lines.append("    " + " ".join(low))
    else:
        for y in range(grid.height):
            shift = " " * (row_shift(grid.kind, grid.hex_layout, y) * (width + 1) // 2)  # half a cell a shift
            lines.append(f"{y + 1:>3} " + shift + " ".join(cell_text(x, y) for x in range(grid.width)))
    return "\n".join(line.rstrip() for line in lines)


def paint(cell, color) -> str:
    """A cell's label, styled when colour is on."""
    label = cell.label
    if not color:
        return label
    if cell.kind is None:
        if label == ".":
            return click.style(label, dim=True)
        if cell.region is not None:
            return click.style(label, fg=ansi256(cell.tint) if cell.tint else "yellow", bold=True)
        return label
    return click.style(label, **piece_style(cell.shape, cell.color, underline=cell.region is not None))


def piece_style(shape, color, underline=False) -> dict:
    """click styles of a piece: a disc is its label in its colour; a square, diamond or hexagon (a filled
    shape) is its label on its colour, as in pictures."""
    style = {"bold": True}
    if underline:
        style["underline"] = True
    if color and shape != "disc":
        style["bg"], style["fg"] = ansi256(color), ansi256(pictures.ink_on(color))
    elif color:
        style["fg"] = ansi256(color)
    elif shape != "disc":
        style["reverse"] = True
    return style


def ansi256(color: str) -> int:
    """The nearest of xterm's 256 colours to `#rrggbb` (the 6x6x6 cube or the grey ramp)."""
    r, g, b = (int(color[i:i + 2], 16) for i in (1, 3, 5))
    steps = (0, 95, 135, 175, 215, 255)

    def level(v):
        return min(range(6), key=lambda i: abs(steps[i] - v))

    cube = (level(r), level(g), level(b))
    cube_rgb = tuple(steps[i] for i in cube)
    grey = min(range(24), key=lambda i: abs(8 + 10 * i - (r + g + b) / 3))
    grey_rgb = (8 + 10 * grey,) * 3

    def distance(rgb):
        return sum((a - b) ** 2 for a, b in zip(rgb, (r, g, b)))

    if distance(grey_rgb) < distance(cube_rgb):
        return 232 + grey
    return 16 + 36 * cube[0] + 6 * cube[1] + cube[2]


def legend_text(entries, color=False) -> str:
    """`X x, O o; values: br brown; regions: * star`, each symbol in its colour."""
    groups = {"piece": [], "value": [], "region": []}
    for entry in entries:
        label = entry.label
        if color and entry.what == "piece":
            label = click.style(label, **piece_style(entry.shape, entry.color))
        elif color and entry.color:
            label = click.style(label, fg=ansi256(entry.color), bold=True)
        elif color:
            label = click.style(label, bold=True)
        meaning = entry.meaning[len("region "):] if entry.what == "region" else entry.meaning
        groups[entry.what].append(f"{label} {meaning}")
    parts = []
    if groups["piece"]:
        parts.append("legend: " + ", ".join(groups["piece"]))
    if groups["value"]:
        parts.append("values: " + ", ".join(groups["value"]))
    if groups["region"]:
        parts.append("regions: " + ", ".join(groups["region"]))
    return "; ".join(parts)


def picture_text(pic, color=False, legend=True, notes=True) -> str:
    """Every board of a picture, its legend and its notes."""
    parts = []
    for board in pic.boards:
        if board.title:
            parts.append(board.title)
        parts.append(board_text(pic.grid, board, color))
    if legend and pic.legend:
        parts.append(legend_text(pic.legend, color))
    if notes:
        parts.extend(pic.notes)
    return "\n".join(parts)


def render_state(game, state, viewer=None, color=False, names=None) -> str:
    """Every board (as `viewer` sees them, if given), the legend, the dice and each player's values;
    `names` (seat -> text) names the players, by seat unless given."""
    return picture_text(pictures.picture(game, state, viewer, names=names), color)


# ------------------------------------------------------------------ sheets
def render_sheets(report: dict) -> str:
    """Score sheets term by term, then the winner (from `api.score_report`)."""
    lines = []
    for player in report["players"]:
        total = player["total"]
        lines.append(f"{player.get('name', player['seat'])}: {total} point{'' if abs(total) == 1 else 's'}")
        for term in player["terms"]:
            count = f" (x{term['count']})" if term["count"] > 1 else ""
            lines.append(f"  {term['label']:<28} {term['points']:>4}{count}")
        if player.get("verdict"):
            lines.append(f"  verdict: {player['verdict']}")
    winners = report["winners"]
    lines.append(("winner: " if len(winners) == 1 else "shared win: ") + ", ".join(winners))
    return "\n".join(lines)


def render_outcome(game, state, names=None) -> str:
    """The end of a game: the sheets, the ranking with the tie-breaks that decided it, the winner;
    `names` (seat -> text) names the players, by seat unless given."""
    from boardrule.dsl.unparse import unparse
    from boardrule.interpreter import api
    from boardrule.interpreter.runtime.outcome import outcome
    from boardrule.interpreter.runtime.views import seat_names
    names = names or seat_names(state)
    report = api.score_report(game, state, names=names)
    result = outcome(game, state)
    lines = [render_sheets(report).rsplit("\n", 1)[0]]
    totals = [result.keys[s][0] for s in result.ranking]
    tied = len(set(totals)) < len(totals)
    terms = [t for t in game.model.flow.ranking if t is not None]
    if len(result.ranking) > 1:
        lines.append("ranking:")
        place = 0
        for index, seat in enumerate(result.ranking):
            if index == 0 or result.keys[seat] != result.keys[result.ranking[index - 1]]:
                place = index + 1
            total = result.keys[seat][0]
            lines.append(f"  {place}. {names[seat]} {total} point{'' if abs(total) == 1 else 's'}")
        if tied and terms:
            lines.append("tie-breaks (higher is better):")
            for number, term in enumerate(terms, 1):
                values = ", ".join(f"{names[s]} {result.keys[s][number]}" for s in result.ranking)
                lines.append(f"  {number}. {unparse(term)}: {values}")
    winners = [names[s] for s in result.winners]
    decided = ""
    if len(result.ranking) > 1 and len(winners) == 1:
        runner = result.ranking[1]
        best = result.ranking[0]
        if result.keys[best][0] == result.keys[runner][0]:
            decided = " (on the tie-breaks)"
    lines.append(("winner: " if len(winners) == 1 else "shared win: ") + ", ".join(winners) + decided)
    return "\n".join(lines)
