"""Board geometry: square and hex grids compiled to tables of ints.

A `Grid` numbers its existing cells 0..n-1 in row-major order (row 0 first,
then by column) and precomputes every neighbourhood table as tuples of ints,
because simulations read them in hot loops and must not recompute anything.

Two coordinate systems are used:

* offset coordinates ``(col, row)``: what the board looks like on screen and
  what cell names (``C4``) refer to;
* lattice coordinates ``(x, y)``: square grids use ``(col, row)``, hex grids
  use axial ``(q, r)``.  In lattice coordinates a translation is a plain
  vector addition, which is what shape matching needs.

The ``rhombus`` hex layout has pointy-top hexes whose offset coordinates are
axial ones: each row is drawn half a hex right of the row above, so a full
grid is a rhombus and its columns run down to the right.  A hexagon-shaped
board (`hexagon_positions`) is that grid with two corners masked off, so its
names are natural coordinates too: a letter along one axis, a number along
the other.

>>> g = make_grid("square", 4, 4)
>>> g.name(g.at(2, 3)), g.parse_name("c4")
('C4', 14)
"""

from __future__ import annotations

from collections.abc import Iterable

import attrs

from boardrule.dsl.builtins import DIRECTIONS, direction_family

SQUARE = "square"
HEX = "hex"
KINDS = (SQUARE, HEX)
ADJACENCIES = ("orthogonal", "all")
HEX_LAYOUTS = ("flat-odd", "flat-even", "pointy-odd", "pointy-even", "rhombus")
RHOMBUS = "rhombus"

ORTHOGONAL_STEPS = ((1, 0), (0, 1), (-1, 0), (0, -1))
DIAGONAL_STEPS = ((1, 1), (1, -1), (-1, 1), (-1, -1))
# The six axial directions, counter-clockwise; direction i+3 is opposite to i.
AXIAL_DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))

# The directions of each grid (dsl/builtins.DIRECTIONS names them), as lattice steps (rows count down).
_DIRECTION_STEPS = {family: tuple(zip(DIRECTIONS[family], steps)) for family, steps in {
    "square": ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1)),
    "pointy": ((1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1)),
    "flat": ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)),
}.items()}

# One step per axis: a cell's opposite pairs are (cell + step, cell - step).
_SQUARE_AXES = ((1, 0), (0, 1))
_DIAGONAL_AXES = ((1, 1), (1, -1))
_HEX_AXES = AXIAL_DIRECTIONS[:3]


# ------------------------------------------------------------ hex helpers
def offset_to_axial(col: int, row: int, layout: str) -> tuple[int, int]:
    """Convert offset ``(col, row)`` of a hex layout to axial ``(q, r)``.

    >>> offset_to_axial(3, 0, "flat-odd")
    (3, -1)
    """
    if layout == "flat-odd":
        return col, row - (col - (col & 1)) // 2
    if layout == "flat-even":
        return col, row - (col + (col & 1)) // 2
    if layout == "pointy-odd":
        return col - (row - (row & 1)) // 2, row
    if layout == "pointy-even":
        return col - (row + (row & 1)) // 2, row
    if layout == RHOMBUS:
        return col, row
    raise ValueError(f"unknown hex layout {layout!r}")


def axial_to_offset(q: int, r: int, layout: str) -> tuple[int, int]:
    """Convert axial ``(q, r)`` back to offset ``(col, row)``.

    >>> axial_to_offset(3, -1, "flat-odd")
    (3, 0)
    """
    if layout == "flat-odd":
        return q, r + (q - (q & 1)) // 2
    if layout == "flat-even":
        return q, r + (q + (q & 1)) // 2
    if layout == "pointy-odd":
        return q + (r - (r & 1)) // 2, r
    if layout == "pointy-even":
        return q + (r + (r & 1)) // 2, r
    if layout == RHOMBUS:
        return q, r
    raise ValueError(f"unknown hex layout {layout!r}")


def axial_to_cube(q: int, r: int) -> tuple[int, int, int]:
    """Axial to cube coordinates (x + y + z == 0).

    >>> axial_to_cube(1, 2)
    (1, -3, 2)
    """
    return q, -q - r, r


def cube_to_axial(x: int, y: int, z: int) -> tuple[int, int]:
    """Cube to axial coordinates.

    >>> cube_to_axial(1, -3, 2)
    (1, 2)
    """
    return x, z


def rotate_cube(x: int, y: int, z: int) -> tuple[int, int, int]:
    """Rotate a cube vector by 60 degrees.

    >>> rotate_cube(1, -1, 0)
    (0, -1, 1)
    """
    return -z, -x, -y


def reflect_cube(x: int, y: int, z: int) -> tuple[int, int, int]:
    """Mirror a cube vector (swap the y and z axes).

    >>> reflect_cube(1, -3, 2)
    (1, 2, -3)
    """
    return x, z, y


def rotate_axial(q: int, r: int) -> tuple[int, int]:
    """Rotate an axial vector by 60 degrees: six calls give it back.

    >>> rotate_axial(1, 0)
    (0, 1)
    """
    return cube_to_axial(*rotate_cube(*axial_to_cube(q, r)))


def reflect_axial(q: int, r: int) -> tuple[int, int]:
    """Mirror an axial vector.

    >>> reflect_axial(1, 0)
    (1, -1)
    """
    return cube_to_axial(*reflect_cube(*axial_to_cube(q, r)))


def hex_distance(dq: int, dr: int) -> int:
    """Number of hex steps for an axial difference ``(dq, dr)``.

    >>> hex_distance(2, -1)
    2
    """
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def hexagon_positions(side: int) -> frozenset:
    """The ``(col, row)`` positions of a hexagon with `side` cells a side, on a ``rhombus`` grid
    of ``2 * side - 1`` columns and rows: the rhombus without its top-left and bottom-right corners.

    >>> sorted(hexagon_positions(2))
    [(0, 1), (0, 2), (1, 0), (1, 1), (1, 2), (2, 0), (2, 1)]
    """
    if side < 1:
        raise ValueError(f"a hexagon needs a side of at least one cell, not {side}")
    width = 2 * side - 1
    return frozenset((c, r) for r in range(width) for c in range(width) if side - 1 <= c + r <= 3 * side - 3)


def row_shift(kind: str, layout: str | None, row: int) -> int:
    """How many half cells a row of a grid is drawn right of row 0: 0 or 1 on pointy-top
    offset layouts, ``row`` on the rhombus layout, 0 on squares and flat-top layouts
    (whose columns, not rows, are shifted).

    >>> row_shift("hex", "pointy-odd", 3), row_shift("hex", "rhombus", 3), row_shift("hex", "flat-odd", 3)
    (1, 3, 0)
    """
    if kind != HEX or layout is None or layout.startswith("flat"):
        return 0
    if layout == RHOMBUS:
        return row
    return int((row % 2 == 1) == layout.endswith("odd"))


def even_pitch(layout: str | None, width: int) -> int:
    """The width of a cell in a text picture: on the rhombus layout, where every row is half a cell
    right of the one above, one more when a cell and its space would not halve evenly.

    >>> even_pitch("rhombus", 2), even_pitch("rhombus", 1), even_pitch("pointy-odd", 2)
    (3, 1, 2)
    """
    return width + 1 if layout == RHOMBUS and width % 2 == 0 else width


# ------------------------------------------------------------ names
def column_letters(col: int) -> str:
    """Spreadsheet-style column letters: 0 -> A, 25 -> Z, 26 -> AA.

    >>> column_letters(0), column_letters(26)
    ('A', 'AA')
    """
    letters = ""
    col += 1
    while col:
        col, rest = divmod(col - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


def cell_label(col: int, row: int) -> str:
    """The A1-style name of offset position ``(col, row)`` (row is 1-based).

    >>> cell_label(2, 3)
    'C4'
    """
    return f"{column_letters(col)}{row + 1}"


# ------------------------------------------------------------ the grid
def _table():
    # Tables stay out of equality and hashing: the defining key is enough.
    return attrs.field(eq=False, repr=False)


@attrs.frozen(cache_hash=True)
class Grid:
    """An immutable board; build it with `make_grid`.

    ``width``/``height`` are the bounding box in columns/rows.  All tables are
    indexed by cell number.  Equality and hashing use only the defining
    parameters, so a grid is a cheap cache key.

    >>> g = make_grid("hex", 3, 3)
    >>> g.size, [g.name(c) for c in g.neighbours[g.parse_name("B2")]]
    (9, ['B1', 'A2', 'C2', 'A3', 'B3', 'C3'])
    """

    kind: str
    width: int
    height: int
    adjacency: str
    hex_layout: str | None
    mask: frozenset | None
    size: int = _table()
    cells: tuple = _table()
    names: tuple = _table()
    neighbours: tuple = _table()
    orthogonal: tuple = _table()
    surrounding: tuple = _table()
    opposite_pairs: tuple = _table()
    rows: tuple = _table()
    columns: tuple = _table()
    row_cells: tuple = _table()
    column_cells: tuple = _table()
    edge: frozenset = _table()
    corners: frozenset = _table()
    all_corners: frozenset = _table()
    center: frozenset = _table()
    _col_of: tuple = _table()
    _row_of: tuple = _table()
    _index: tuple = _table()
    _by_name: dict = _table()
    _lx: tuple = _table()
    _ly: tuple = _table()
    _by_lattice: dict = _table()

    def col(self, cell: int) -> int:
        """Offset column of a cell.  ``make_grid("square", 3, 2).col(4) == 1``"""
        return self._col_of[cell]

    def row(self, cell: int) -> int:
        """Offset row of a cell.  ``make_grid("square", 3, 2).row(4) == 1``"""
        return self._row_of[cell]

    def at(self, col: int, row: int) -> int | None:
        """The cell at offset ``(col, row)``, or None if off-board or masked.

        >>> make_grid("square", 3, 2).at(1, 1), make_grid("square", 3, 2).at(3, 0)
        (4, None)
        """
        if 0 <= col < self.width and 0 <= row < self.height:
            return self._index[row * self.width + col]
        return None

    def name(self, cell: int) -> str:
        """The A1-style name.  ``make_grid("square", 4, 4).name(14) == "C4"``"""
        return self.names[cell]

    def parse_name(self, name: str) -> int:
        """Cell of a name, case-insensitive; KeyError if unknown or masked out.

        >>> make_grid("square", 4, 4).parse_name("c4")
        14
        """
        try:
            return self._by_name[name.strip().upper()]
        except KeyError:
            raise KeyError(name) from None

    def lattice(self, cell: int) -> tuple[int, int]:
        """Lattice coordinates: ``(col, row)`` on squares, axial on hexes.

        >>> make_grid("hex", 4, 4).lattice(3)
        (3, -1)
        """
        return self._lx[cell], self._ly[cell]

    def from_lattice(self, x: int, y: int) -> int | None:
        """The cell at lattice ``(x, y)`` or None.

        >>> make_grid("hex", 4, 4).from_lattice(3, -1)
        3
        """
        return self._by_lattice.get((x, y))

    def directions(self) -> tuple:
        """(name, lattice step) of each direction of the grid, clockwise from the top.

        >>> [name for name, _ in make_grid("hex", 3, 3).directions()][:2]
        ['north', 'northeast']
        """
        return _DIRECTION_STEPS[direction_family(self.kind, self.hex_layout)]

    def step_table(self, step) -> tuple:
        """For each cell, the cell one lattice `step` away, or None off the board."""
        dx, dy = step
        return tuple(self.from_lattice(x + dx, y + dy) for x, y in map(self.lattice, range(self.size)))

    def distance(self, a: int, b: int) -> int:
        """Steps between cells: Manhattan (square orthogonal), Chebyshev
        (square all) or hex distance; holes in the board are ignored.

        >>> make_grid("square", 4, 4).distance(0, 15)
        6
        """
        dx = self._lx[a] - self._lx[b]
        dy = self._ly[a] - self._ly[b]
        if self.kind == HEX:
            return (abs(dx) + abs(dy) + abs(dx + dy)) // 2
        if self.adjacency == "all":
            return max(abs(dx), abs(dy))
        return abs(dx) + abs(dy)


def make_grid(kind: str, columns: int, rows: int, mask: Iterable | None = None,
              adjacency: str = "orthogonal", hex_layout: str = "flat-odd") -> Grid:
    """Build a `Grid`.  ``mask`` lists the ``(col, row)`` positions that
    exist (default: the full rectangle).  ``adjacency`` ("orthogonal" or
    "all") applies to square grids; ``hex_layout`` to hex grids.

    >>> make_grid("square", 3, 3, mask={(0, 0), (1, 0), (1, 1)}).size
    3
    """
    mask = _check_args(kind, columns, rows, mask, adjacency, hex_layout)
    layout = hex_layout if kind == HEX else None
    adjacency = adjacency if kind == SQUARE else "all"
    positions = sorted(mask if mask is not None else
                       ((c, r) for r in range(rows) for c in range(columns)),
                       key=lambda p: (p[1], p[0]))
    index = [None] * (columns * rows)
    for cell, (c, r) in enumerate(positions):
        index[r * columns + c] = cell
    if kind == HEX:
        lattice = [offset_to_axial(c, r, layout) for c, r in positions]
    else:
        lattice = list(positions)
    by_lattice = {xy: cell for cell, xy in enumerate(lattice)}
    tables = _neighbour_tables(kind, adjacency, lattice, by_lattice)
    names = tuple(cell_label(c, r) for c, r in positions)
    rows_t = _lines(positions, rows, lambda p: p[1])
    cols_t = _lines(positions, columns, lambda p: p[0])
    return Grid(
        kind=kind, width=columns, height=rows, adjacency=adjacency,
        hex_layout=layout, mask=mask, size=len(positions),
        cells=tuple(range(len(positions))), names=names, **tables,
        rows=rows_t, columns=cols_t,
        row_cells=tuple(rows_t[r] for _, r in positions),
        column_cells=tuple(cols_t[c] for c, _ in positions),
        edge=_edge(kind, adjacency, tables["neighbours"]),
        corners=_corners(kind, layout, positions, columns, rows, _holes(kind, layout, positions, columns, rows)),
        all_corners=_corners(kind, layout, positions, columns, rows, frozenset()),
        center=_center(kind, layout, lattice),
        col_of=tuple(c for c, _ in positions), row_of=tuple(r for _, r in positions),
        index=tuple(index), by_name={n: i for i, n in enumerate(names)},
        lx=tuple(x for x, _ in lattice), ly=tuple(y for _, y in lattice),
        by_lattice=by_lattice,
    )


def _check_args(kind, columns, rows, mask, adjacency, hex_layout):
    """Validate make_grid's arguments; return the mask as a frozenset or None."""
    if kind not in KINDS:
        raise ValueError(f"grid kind must be one of {KINDS}, not {kind!r}")
    if kind == SQUARE and adjacency not in ADJACENCIES:
        raise ValueError(f"adjacency must be one of {ADJACENCIES}, not {adjacency!r}")
    if kind == HEX and hex_layout not in HEX_LAYOUTS:
        raise ValueError(f"hex layout must be one of {HEX_LAYOUTS}, not {hex_layout!r}")
    if columns < 1 or rows < 1:
        raise ValueError(f"a board needs at least one column and row, not {columns} x {rows}")
    if mask is None:
        return None
    mask = frozenset((int(c), int(r)) for c, r in mask)
    outside = sorted(p for p in mask if not (0 <= p[0] < columns and 0 <= p[1] < rows))
    if outside:
        raise ValueError(f"mask position {outside[0]} is outside the {columns} x {rows} board")
    if not mask:
        raise ValueError("the mask leaves no cells on the board")
    # A mask that keeps every cell is no mask: keeps equal boards equal.
    return None if len(mask) == columns * rows else mask


def _step_table(lattice, by_lattice, steps):
    """For each cell, the sorted existing cells one of ``steps`` away."""
    get = by_lattice.get
    table = []
    for x, y in lattice:
        found = (get((x + dx, y + dy)) for dx, dy in steps)
        table.append(tuple(sorted(c for c in found if c is not None)))
    return tuple(table)


def _pair_table(lattice, by_lattice, axes):
    """For each cell, pairs of existing cells on opposite sides of it."""
    get = by_lattice.get
    table = []
    for x, y in lattice:
        pairs = []
        for dx, dy in axes:
            a, b = get((x + dx, y + dy)), get((x - dx, y - dy))
            if a is not None and b is not None:
                pairs.append((min(a, b), max(a, b)))
        table.append(tuple(pairs))
    return tuple(table)


def _neighbour_tables(kind, adjacency, lattice, by_lattice):
    if kind == HEX:
        six = _step_table(lattice, by_lattice, AXIAL_DIRECTIONS)
        return dict(neighbours=six, orthogonal=six, surrounding=six,
                    opposite_pairs=_pair_table(lattice, by_lattice, _HEX_AXES))
    orth = _step_table(lattice, by_lattice, ORTHOGONAL_STEPS)
    around = _step_table(lattice, by_lattice, ORTHOGONAL_STEPS + DIAGONAL_STEPS)
    axes = _SQUARE_AXES + (_DIAGONAL_AXES if adjacency == "all" else ())
    return dict(neighbours=around if adjacency == "all" else orth,
                orthogonal=orth, surrounding=around,
                opposite_pairs=_pair_table(lattice, by_lattice, axes))


def _lines(positions, count, coord):
    """Cells grouped by one offset coordinate; empty lines kept so that
    ``rows[r]`` is always row ``r``."""
    lines = [[] for _ in range(count)]
    for cell, pos in enumerate(positions):
        lines[coord(pos)].append(cell)
    return tuple(tuple(line) for line in lines)


def _edge(kind, adjacency, neighbours):
    """Cells missing at least one neighbour of the board's adjacency: the
    outer border and the cells next to holes."""
    full = 6 if kind == HEX else (8 if adjacency == "all" else 4)
    return frozenset(c for c, near in enumerate(neighbours) if len(near) < full)


def _holes(kind, layout, positions, columns, rows) -> frozenset:
    """The holes of a masked board: the positions of its bounding box without a cell that no
    path of such positions, side by side (a hex's six sides), links to the outside of the box.
    A gap cut into the board's outline from outside is no hole."""
    present = set(positions)
    missing = {(c, r) for r in range(rows) for c in range(columns)} - present
    if not missing:
        return frozenset()

    def beside(c, r):
        if kind == SQUARE:
            return [(c + dc, r + dr) for dc, dr in ORTHOGONAL_STEPS]
        q, s = offset_to_axial(c, r, layout)
        return [axial_to_offset(q + dq, s + ds, layout) for dq, ds in AXIAL_DIRECTIONS]

    outside = [p for p in missing if any(not (0 <= c < columns and 0 <= r < rows) for c, r in beside(*p))]
    reached, todo = set(outside), list(outside)
    while todo:
        for p in beside(*todo.pop()):
            if p in missing and p not in reached:
                reached.add(p)
                todo.append(p)
    return frozenset(missing - reached)


def _corners(kind, layout, positions, columns, rows, filled) -> frozenset:
    """The cells at the corners of the outline the cells make, the positions `filled` counted as cells.

    `corners` fills the holes (`_holes`): the board's outer corners, the holes inside it
    making none; `all_corners` fills nothing: the holes' corners too.
    Square grids: cells missing a neighbour on the left or the right and one above or below
    (the corners of the outline; on a full rectangle of at least 2 x 2 exactly its four
    corners; in a one-cell-wide corridor only its ends and bends, not every cell).
    Hex grids on a full rectangle: the four bounding-box corner cells (a rule by neighbour
    count would also pick every other cell of the zig-zag edges).
    Other hex grids: cells with at most 3 neighbours (the six corners of a hexagon-shaped
    board; note it also picks the protruding cells of any zig-zag edge).
    """
    present = set(positions) | filled
    if kind == SQUARE:
        return frozenset(
            cell for cell, (c, r) in enumerate(positions)
            if not ((c - 1, r) in present and (c + 1, r) in present)
            and not ((c, r - 1) in present and (c, r + 1) in present))
    if len(present) == columns * rows:
        box = {(0, 0), (columns - 1, 0), (0, rows - 1), (columns - 1, rows - 1)}
        return frozenset(cell for cell, p in enumerate(positions) if p in box)

    def neighbours(c, r):
        q, s = offset_to_axial(c, r, layout)
        return sum(axial_to_offset(q + dq, s + ds, layout) in present for dq, ds in AXIAL_DIRECTIONS)
    return frozenset(cell for cell, (c, r) in enumerate(positions) if neighbours(c, r) <= 3)


def _center(kind, layout, lattice):
    """Cells nearest the centroid of all cell centres (ties all kept).

    Works in scaled integer pixel coordinates so ties are exact: squares use
    (x, y) with metric dx^2 + dy^2; flat hexes (3q, 2r + q) with metric
    dx^2 + 3 dy^2; pointy hexes (2q + r, 3r) with metric 3 dx^2 + dy^2.
    """
    if kind == SQUARE:
        points, wx, wy = lattice, 1, 1
    elif layout.startswith("flat"):
        points, wx, wy = [(3 * q, 2 * r + q) for q, r in lattice], 1, 3
    else:
        points, wx, wy = [(2 * q + r, 3 * r) for q, r in lattice], 3, 1
    n = len(points)
    sx = sum(x for x, _ in points)
    sy = sum(y for _, y in points)
    # Distances to the centroid (sx/n, sy/n), multiplied by n^2.
    dist = [wx * (n * x - sx) ** 2 + wy * (n * y - sy) ** 2 for x, y in points]
    best = min(dist)
    return frozenset(c for c, d in enumerate(dist) if d == best)


# ------------------------------------------------------------ cell sets
def _adjacency_table(grid: Grid, adjacency) -> tuple:
    if adjacency is None or adjacency == "neighbours":
        return grid.neighbours
    if adjacency == "orthogonal":
        return grid.orthogonal
    if adjacency in ("all", "surrounding"):
        return grid.surrounding
    if isinstance(adjacency, tuple):
        return adjacency
    raise ValueError(f"unknown adjacency {adjacency!r}")


def groups(grid: Grid, cells: Iterable[int], adjacency=None) -> tuple[frozenset, ...]:
    """Connected components of ``cells``, ordered by their smallest cell.

    ``adjacency``: None (the board's neighbours), "orthogonal", "surrounding"
    (or "all"), or a neighbour table of your own.

    >>> g = make_grid("square", 4, 1)
    >>> groups(g, [0, 1, 3])
    (frozenset({0, 1}), frozenset({3}))
    """
    table = _adjacency_table(grid, adjacency)
    todo = set(cells)
    found = []
    for start in sorted(todo):
        if start not in todo:
            continue
        todo.discard(start)
        group, stack = [start], [start]
        while stack:
            for other in table[stack.pop()]:
                if other in todo:
                    todo.discard(other)
                    group.append(other)
                    stack.append(other)
        found.append(frozenset(group))
    return tuple(found)


def border(grid: Grid, cells: Iterable[int], adjacency=None) -> frozenset:
    """Existing cells adjacent to ``cells`` but not in them.

    >>> border(make_grid("square", 4, 1), [1])
    frozenset({0, 2})
    """
    table = _adjacency_table(grid, adjacency)
    inside = set(cells)
    return frozenset(o for c in inside for o in table[c] if o not in inside)
