"""The board of a pack: its `grid:` declaration and `mask:` built into a `geometry.Grid`.

Every board starts from a base outline: the full rectangle of a `square` or `hex` grid, or the
hexagon of `hex hexagon SIDE`. A mask then keeps some cells of that outline: one mark per cell
of each of its rows, `#` (a cell) or `.` (none), written with or without spaces.

>>> from boardrule.dsl import ast
>>> from boardrule.dsl.model import BoardDef
>>> decl = ast.GridDecl("hex", "hexagon", 2, None, (), None)
>>> grid = make_board(BoardDef(decl, True, None, {}, None))
>>> grid.size, [grid.name(c) for c in grid.cells]
(7, ['B1', 'C1', 'A2', 'B2', 'C2', 'A3', 'B3'])
"""

from __future__ import annotations

from boardrule.dsl.diagnostics import PackError, did_you_mean
from boardrule.dsl.unparse import unparse
from boardrule.interpreter.runtime import geometry
from boardrule.interpreter.runtime.values import MAX_CELLS

HEXAGON = "hexagon"
MASK_MARKS = {"#": True, ".": False}


def make_board(board) -> geometry.Grid:
    """The `Grid` of a pack's `board:` (a `BoardDef`); a bad declaration or mask is a PackError."""
    decl = board.grid
    columns, rows, outline = _outline(decl)
    if board.mask and outline is not None:
        outline = _read_mask(board, outline)
    options = {name: value for name, value, _ in decl.options}
    kwargs = {"adjacency": options.get("adjacency", "orthogonal")}
    if decl.kind == "hex":
        kwargs = {"hex_layout": geometry.RHOMBUS if decl.layout == HEXAGON else decl.layout or "flat-odd"}
    try:
        kept = None if outline is None else [p for row in outline for p in row]
        grid = geometry.make_grid(decl.kind, columns, rows, mask=kept, **kwargs)
    except ValueError as err:
        raise PackError(f"bad board: {err}", code="E302", span=decl.span) from None
    if grid.size > MAX_CELLS:
        raise PackError(f"a board has at most {MAX_CELLS} cells; this one has {grid.size}", code="E303",
                        span=decl.span)
    return grid


def _outline(decl):
    """(columns, rows, rows of positions) of the base outline, sizes checked (E302, E303)."""
    _check_words(decl)
    if decl.kind == "hex" and decl.layout == HEXAGON:
        if decl.rows is not None:
            raise PackError(f"a hexagon-shaped board is written with one number, its side: `hex hexagon "
                            f"{decl.columns}`, not {decl.columns} x {decl.rows}", code="E302", span=decl.span)
        side = decl.columns
        if side < 1:
            raise PackError(f"a hexagon needs a side of at least one cell, not {side}", code="E302", span=decl.span)
        if 3 * side * (side - 1) + 1 > MAX_CELLS:
            raise PackError(f"a board has at most {MAX_CELLS} cells; a hexagon of side {side} has "
                            f"{3 * side * (side - 1) + 1}", code="E303", span=decl.span)
        width = 2 * side - 1
        kept = geometry.hexagon_positions(side)
        return width, width, [[(c, r) for c in range(width) if (c, r) in kept] for r in range(width)]
    if decl.rows is None:
        written = f"{decl.kind} {decl.layout} " if decl.layout else f"{decl.kind} "
        raise PackError(f"a {decl.kind} board needs its columns and rows: `{written}{decl.columns} x "
                        f"{decl.columns}`; only `hex hexagon SIDE` takes one number", code="E302", span=decl.span)
    if decl.columns * decl.rows > MAX_CELLS:
        raise PackError(f"a board has at most {MAX_CELLS} cells; {decl.columns} x {decl.rows} is "
                        f"{decl.columns * decl.rows}", code="E303", span=decl.span)
    if decl.columns < 1 or decl.rows < 1:
        return decl.columns, decl.rows, None  # no outline: make_grid says why
    return decl.columns, decl.rows, [[(c, r) for c in range(decl.columns)] for r in range(decl.rows)]


def _check_words(decl) -> None:
    """A square grid has no layout, a hex grid one of its own, and `adjacency` is the one option (of
    square grids): a word the board would ignore is an error (E302), not a board other than the one meant."""
    if decl.kind == "square" and decl.layout:
        raise PackError(f"a square grid has no layout: `square {decl.columns} x {decl.rows or decl.columns}`, not "
                        f"`{decl.layout}` (layouts are for hex grids)", code="E302", span=decl.span)
    layouts = (*geometry.HEX_LAYOUTS, HEXAGON)
    if decl.kind == "hex" and decl.layout and decl.layout not in layouts:
        raise PackError(f"unknown hex layout `{decl.layout}`: one of {', '.join(geometry.HEX_LAYOUTS)} "
                        f"(`hex LAYOUT COLUMNS x ROWS`), or `hex hexagon SIDE`", code="E302", span=decl.span,
                        hint=did_you_mean(decl.layout, layouts))
    for name, _, span in decl.options:
        if name != "adjacency" or decl.kind != "square":
            raise PackError(f"unknown board option `{name}`: the one option is `, adjacency all` of square grids",
                            code="E302", span=span)


def _read_mask(board, outline) -> list:
    """The outline's rows with only the positions the `mask:` marks `#`.

    One mask row per outline row (E307 at the mask), one mark per cell of its row (E307 at the row),
    and only `#` and `.` (E308 at the mark)."""
    decl = board.grid
    lines = _mask_lines(board)
    hint = f"the grid is `{_written(decl)}`: " + _row_lengths(outline)
    if board.mask_span is not None and board.mask_span.file != decl.span.file:
        hint += " (the mask comes from the base pack: give one for this grid, or `remove: [board.mask]`)"
    if len(lines) != len(outline):
        raise PackError(f"the mask has {len(lines)} rows; the board has {len(outline)}", code="E307",
                        span=board.mask_span or decl.span, hint=hint)
    kept = []
    for number, ((marks, span_of), row) in enumerate(zip(lines, outline), 1):
        for mark, at in marks:
            if mark not in MASK_MARKS:
                raise PackError(f"`{mark}` is not a mask mark: a mask is written with `#` (a cell) and `.` (no cell)",
                                code="E308", span=span_of(at, at + 1))
        if len(marks) != len(row):
            raise PackError(f"row {number} of the mask has {len(marks)} marks; row {number} of the board has "
                            f"{len(row)} cells", code="E307",
                            span=span_of(marks[0][1], marks[-1][1] + 1), hint=hint)
        kept.append([p for (mark, _), p in zip(marks, row) if MASK_MARKS[mark]])
    return kept


def _mask_lines(board) -> list:
    """The mask's non-blank rows: each (marks as (character, offset), span_of(start, end))."""
    node = board.mask_node
    text = node.raw if node is not None and isinstance(node.value, str) else board.mask
    if node is not None and text != board.mask:
        node = None  # a mask rebuilt from elsewhere: spans fall back to the whole mask
    lines, start = [], 0
    for line in text.splitlines(keepends=True):
        marks = [(ch, start + i) for i, ch in enumerate(line) if not ch.isspace()]
        if marks:
            lines.append((marks, _spans(board, node)))
        start += len(line)
    return lines


def _spans(board, node):
    if node is not None:
        return node.span_of
    return lambda start, end: board.mask_span or board.grid.span


def _row_lengths(outline) -> str:
    lengths = [len(row) for row in outline]
    if len(set(lengths)) == 1:
        return f"one row of {lengths[0]} marks per row of it"
    return "rows of " + " ".join(str(n) for n in lengths) + " marks"


def _written(decl) -> str:
    return unparse(decl)
