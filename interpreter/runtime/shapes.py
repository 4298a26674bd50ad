"""Pattern shapes: parse ASCII art, enumerate orientations, compile every
placement on a grid once, and match placements against board contents.

Shape art is rows of whitespace-separated tokens, rows separated by "/" or
newlines; "." is a hole, any other token is a slot symbol::

    X X X
    X . .

Token ``x`` (index in its row) is the column and ``y`` (row index) the row.
On hex grids the art is read in the board's own offset layout, with the art's
origin on an even column/row, and converted to axial lattice coordinates; so
a "." column or row in front shifts the parity of the rest.

>>> g = make_grid("square", 3, 3)
>>> table = compile_placements(g, make_shape("bar", "X X", symmetry="rotate"))
>>> len(table.placements)
12
"""

from __future__ import annotations

import collections
import functools
import itertools
import re
import sys
from collections.abc import Callable, Iterable

import attrs

from boardrule.dsl.records import frozen

from boardrule.interpreter.runtime.geometry import HEX, KINDS, SQUARE, Grid, offset_to_axial, reflect_axial, rotate_axial
from boardrule.interpreter.runtime.geometry import make_grid  # noqa: F401  (the doctests use it)

SYMMETRIES = ("none", "rotate", "all")
EMPTY = "."
ANY = "*"  # the symbol passed to `test` when matching by distinct_key

_TOKEN = re.compile(r"[^\s/]+|[/\n]")


class ShapeArtError(ValueError):
    """Bad shape art; ``row`` and ``index`` locate the token (0-based)."""

    def __init__(self, message: str, row: int, index: int):
        super().__init__(f"{message} (row {row + 1}, token {index + 1})")
        self.row = row
        self.index = index


# ------------------------------------------------------------ art
def _art_rows(art: str) -> list[list[tuple[str, int]]]:
    """Rows of (token, character offset); blank rows at either end dropped
    so that triple-quoted art may start and end with a newline."""
    rows: list[list[tuple[str, int]]] = [[]]
    for m in _TOKEN.finditer(art):
        if m.group() in "/\n":
            rows.append([])
        else:
            rows[-1].append((sys.intern(m.group()), m.start()))  # kinds compare by identity in play
    while rows and not rows[0]:
        rows.pop(0)
    while rows and not rows[-1]:
        rows.pop()
    return rows


def parse_art(art: str) -> tuple[tuple[int, int, str], ...]:
    """Parse shape art into ``(x, y, symbol)`` triples in reading order.

    Short rows count as padded with ".".  Raises `ShapeArtError` (a
    ValueError carrying ``row``/``index``) when there are no cells or a token
    looks like a mistyped hole (".x", "..").

    >>> parse_art("X X / . wheat")
    ((0, 0, 'X'), (1, 0, 'X'), (1, 1, 'wheat'))
    """
    cells = []
    for y, row in enumerate(_art_rows(art)):
        for x, (token, _) in enumerate(row):
            if token == EMPTY:
                continue
            if token.startswith(EMPTY):
                raise ShapeArtError(f"unexpected token {token!r}; use '.' for a hole", y, x)
            cells.append((x, y, token))
    if not cells:
        raise ShapeArtError("shape art has no cells", 0, 0)
    return tuple(cells)


def art_positions(art: str) -> dict[tuple[int, int], int]:
    """Character offset in ``art`` of the token at each ``(x, y)``, holes
    included, so diagnostics can point at a token.

    >>> art_positions("X X / . Y")[(1, 1)]
    8
    """
    return {(x, y): offset
            for y, row in enumerate(_art_rows(art))
            for x, (_, offset) in enumerate(row)}


def to_lattice(cells, kind: str, hex_layout: str | None):
    """Art ``(x, y, symbol)`` to lattice coordinates (axial on hex grids).

    >>> to_lattice(((1, 0, "X"),), "hex", "flat-odd")
    ((1, 0, 'X'),)
    """
    if kind == SQUARE or hex_layout is None:
        return tuple(cells)
    return tuple(offset_to_axial(x, y, hex_layout) + (s,) for x, y, s in cells)


# ------------------------------------------------------------ orientations
def normalise(cells) -> tuple[tuple[int, int, str], ...]:
    """Translate so the smallest x and y are 0, and sort.

    >>> normalise(((2, 5, "X"), (1, 6, "Y")))
    ((0, 1, 'Y'), (1, 0, 'X'))
    """
    mx = min(c[0] for c in cells)
    my = min(c[1] for c in cells)
    return tuple(sorted((x - mx, y - my, s) for x, y, s in cells))


def _square_rotate(x, y):
    return -y, x


def _square_mirror(x, y):
    return -x, y


def orientations(cells, grid_kind: str, symmetry: str) -> tuple:
    """Distinct normalised orientations of lattice ``cells``; the first is
    the shape as given.  symmetry "none": 1; "rotate": up to 4 (square) or 6
    (hex); "all": also mirror images, up to 8 or 12.

    >>> len(orientations(((0, 0, "X"), (1, 0, "X")), "square", "all"))
    2
    """
    if symmetry not in SYMMETRIES:
        raise ValueError(f"symmetry must be one of {SYMMETRIES}, not {symmetry!r}")
    if grid_kind not in KINDS:
        raise ValueError(f"grid kind must be one of {KINDS}, not {grid_kind!r}")
    hexes = grid_kind == HEX
    rotate, mirror = (rotate_axial, reflect_axial) if hexes else (_square_rotate, _square_mirror)
    turns = 1 if symmetry == "none" else (6 if hexes else 4)
    starts = [tuple(cells)]
    if symmetry == "all":
        starts.append(tuple(mirror(x, y) + (s,) for x, y, s in cells))
    found: dict = {}
    for current in starts:
        for _ in range(turns):
            found.setdefault(normalise(current), None)
            current = tuple(rotate(x, y) + (s,) for x, y, s in current)
    return tuple(found)


# ------------------------------------------------------------ shapes
@attrs.frozen(cache_hash=True)
class Shape:
    """A named pattern.  ``cells`` are as given: art coordinates read in
    ``hex_layout`` for hex art shapes, lattice coordinates when
    ``hex_layout`` is None (square shapes, families).  ``orientations`` are
    in lattice coordinates.  Build with `make_shape` or `family_shape`."""

    name: str
    cells: tuple
    symmetry: str
    kind: str
    hex_layout: str | None
    orientations: tuple = attrs.field(repr=False)

    @property
    def size(self) -> int:
        """Number of slots.  ``make_shape("s", "X X").size == 2``"""
        return len(self.cells)


def make_shape(name: str, art, symmetry: str = "none", kind: str = SQUARE,
               hex_layout: str = "flat-odd") -> Shape:
    """A shape from art text or from ``(x, y, symbol)`` triples.

    >>> len(make_shape("L", "X . / X . / X X", "all").orientations)
    8
    """
    cells = parse_art(art) if isinstance(art, str) else tuple(art)
    positions = [(x, y) for x, y, _ in cells]
    if not cells or len(set(positions)) != len(positions):
        raise ValueError(f"shape {name!r} needs at least one cell and no repeated positions")
    layout = hex_layout if kind == HEX else None
    lattice = to_lattice(cells, kind, layout)
    return Shape(name, cells, symmetry, kind, layout, orientations(lattice, kind, symmetry))


def family_shape(name: str, condition: Callable[[int, int, int], bool], n: int,
                 grid_kind: str, symmetry: str = "none", symbol: str = "X") -> Shape:
    """A shape of parameter ``n``: the lattice cells ``(x, y)`` in
    ``range(0, 2n+1)`` squared where ``condition(x, y, n)`` holds, normalised.
    Lattice coordinates are axial on hex grids, so it fits any hex layout.

    >>> tri = family_shape("tri", lambda x, y, n: x + y < n, 3, "hex", "rotate")
    >>> tri.size, len(tri.orientations)
    (6, 2)
    """
    box = range(0, 2 * n + 1)
    cells = [(x, y, symbol) for y in box for x in box if condition(x, y, n)]
    if not cells:
        raise ValueError(f"shape {name!r} has no cells for n = {n}")
    cells = normalise(cells)
    return Shape(name, cells, symmetry, grid_kind, None, orientations(cells, grid_kind, symmetry))


# ------------------------------------------------------------ placements
@frozen
class Placement:
    """One way to lay a shape on the board: ``cells`` ascending, with the
    slot ``symbols`` aligned to them."""

    cells: tuple
    symbols: tuple
    # (cell, symbol) pairs: iterating a ready tuple is ~3x faster than zip()
    # in the matching loops.
    pairs: tuple = attrs.field(init=False, eq=False, repr=False)
    # bit c set for each cell c: whether the placement lies on a set of cells
    # is then one int operation instead of a set test per call.
    mask: int = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self):
        object.__setattr__(self, "pairs", tuple(zip(self.cells, self.symbols)))
        object.__setattr__(self, "mask", cell_mask(self.cells))


def cell_mask(cells: Iterable[int]) -> int:
    """The cells as one int, bit ``c`` set for cell ``c``.

    >>> bin(cell_mask([0, 2, 2]))
    '0b101'
    """
    mask = 0
    for c in cells:
        mask |= 1 << c
    return mask


@attrs.frozen(eq=False)
class PlacementTable:
    """All placements of ``shape`` on ``grid``; ``by_cell[c]`` holds the
    indices (into ``placements``) of the placements covering cell ``c``."""

    grid: Grid
    shape: Shape
    placements: tuple
    by_cell: tuple = attrs.field(repr=False)
    # "index" -> `_index()`, and base -> the distinct cell tuples or-ed with
    # base; filled on first use by `within` and `fits`.
    _cache: dict = attrs.field(init=False, factory=dict, repr=False)

    def touching(self, cells: Iterable[int]) -> tuple[int, ...]:
        """Indices of the placements covering any of ``cells``, ascending.

        >>> t = compile_placements(make_grid("square", 3, 1), make_shape("d", "X X"))
        >>> t.touching([0])
        (0,)
        """
        found: set = set()
        for c in cells:
            found.update(self.by_cell[c])
        return tuple(sorted(found))

    def within(self, allowed: int, base: int = 0) -> tuple:
        """The distinct cell tuples of the placements lying wholly on the
        cells of mask ``allowed`` (bit ``c`` for cell ``c``), ascending, each
        cell or-ed with ``base`` (which must share no bit with a cell number).

        Equals ``tuple(sorted({tuple(base | c for c in p.cells) for p in
        placements if set(p.cells) <= allowed cells}))``: the distinct cell
        tuples are kept in the table's (sorted) order, and ``base | c ==
        base + c`` keeps that order.

        >>> t = compile_placements(make_grid("square", 3, 1), make_shape("d", "X X", "all"))
        >>> t.within(0b011), t.within(0b111, base=1024)
        (((0, 1),), ((1024, 1025), (1025, 1026)))
        """
        return tuple(itertools.compress(self._encoded(base), _bit_flags(self._fitting(allowed))))

    def fits(self, allowed: int) -> bool:
        """Whether some placement lies wholly on the cells of mask ``allowed``.

        >>> t = compile_placements(make_grid("square", 3, 1), make_shape("d", "X X"))
        >>> t.fits(0b101), t.fits(0b110)
        (False, True)
        """
        return self.fitter()(allowed)

    def fitter(self):
        """`fits` as a function of its own, its groups at hand (for generated code, which asks it
        of one table again and again).

        >>> compile_placements(make_grid("square", 3, 1), make_shape("d", "X X")).fitter()(0b110)
        True
        """
        fitter = self._cache.get("fitter")
        if fitter is None:
            groups = self._shift_groups()
            if groups is None:
                fitting = self._fitting
                fitter = lambda allowed: bool(fitting(allowed))  # noqa: E731
            else:
                fitter = _shift_fitter(groups)
            self._cache["fitter"] = fitter
        return fitter

    def _shift_groups(self):
        """The distinct placements grouped by the steps from their lowest cell to the others
        (``(steps, mask of their lowest cells)``), or None when there are too many groups to beat
        `_fitting`. A placement starting at cell c with steps s lies on ``allowed`` exactly when bit c
        is set in ``allowed >> k`` for every k in s: on a rectangular board one group per
        orientation, so a test is a few shifts whatever the board's size."""
        groups = self._cache.get("groups", False)
        if groups is False:
            by_steps: dict = {}
            for cells in self._index()[0]:
                low = min(cells)
                steps = tuple(sorted(c - low for c in cells if c != low))
                by_steps[steps] = by_steps.get(steps, 0) | 1 << low
            groups = tuple(by_steps.items()) if len(by_steps) <= MAX_SHIFT_GROUPS else None
            self._cache["groups"] = groups
        return groups

    def _fitting(self, allowed: int) -> int:
        # Bit-parallel over the placements: those fitting are those covering no
        # disallowed cell, so one or per disallowed cell replaces a test per placement.
        _, covers, every_cell, every_placement = self._index()
        blocked = 0
        for cover in itertools.compress(covers, _bit_flags(every_cell & ~allowed)):
            blocked |= cover
        return every_placement & ~blocked

    def _index(self) -> tuple:
        """``(distinct, covers, every cell, every placement)``: the distinct cell
        tuples in table order, and per grid cell the mask (bit i for
        ``distinct[i]``) of those covering it."""
        index = self._cache.get("index")
        if index is None:
            distinct: list = []
            for p in self.placements:  # sorted, so equal cells are adjacent
                if not distinct or distinct[-1] != p.cells:
                    distinct.append(p.cells)
            covers = [0] * self.grid.size
            for i, cells in enumerate(distinct):
                for c in cells:
                    covers[c] |= 1 << i
            index = self._cache["index"] = (tuple(distinct), tuple(covers),
                                            (1 << self.grid.size) - 1, (1 << len(distinct)) - 1)
        return index

    def _encoded(self, base: int) -> tuple:
        encoded = self._cache.get(base)
        if encoded is None:
            encoded = self._index()[0]
            if base:
                encoded = tuple(tuple(map(base.__or__, cells)) for cells in encoded)
            self._cache[base] = encoded
        return encoded


def _shift_fitter(groups):
    def fits(allowed: int) -> bool:
        for steps, starts in groups:
            fitting = starts & allowed
            for step in steps:
                if not fitting:
                    break
                fitting &= allowed >> step
            if fitting:
                return True
        return False
    return fits


#: more groups of placements than this, and `_fitting`'s test per disallowed cell is cheaper
MAX_SHIFT_GROUPS = 24

_FLAG_BYTES = bytes.maketrans(b"01", b"\x00\x01")


def _bit_flags(mask: int) -> bytes:
    """Byte i is 1 when bit i of ``mask`` (>= 0) is set, else 0: lets
    `itertools.compress` select by a bitmask at C speed."""
    return bin(mask)[:1:-1].encode().translate(_FLAG_BYTES)


def _lattice_orientations(grid: Grid, shape: Shape) -> tuple:
    if shape.kind != grid.kind:
        raise ValueError(f"shape {shape.name!r} is for {shape.kind} grids, not {grid.kind}")
    if shape.hex_layout is not None and shape.hex_layout != grid.hex_layout:
        # Art is read in the board's own layout, so re-read it for this board.
        lattice = to_lattice(shape.cells, HEX, grid.hex_layout)
        return orientations(lattice, HEX, shape.symmetry)
    return shape.orientations


@functools.lru_cache(maxsize=256)
def compile_placements(grid: Grid, shape: Shape) -> PlacementTable:
    """Every orientation and translation of ``shape`` whose cells all exist,
    deduplicated by (cells, symbols) and sorted.  Cached per (grid, shape).

    >>> t = compile_placements(make_grid("square", 2, 2), make_shape("o", "X X / X X"))
    >>> t.placements
    (Placement(cells=(0, 1, 2, 3), symbols=('X', 'X', 'X', 'X')),)
    """
    found = set()
    for orient in _lattice_orientations(grid, shape):
        x0, y0, _ = orient[0]
        for anchor in grid.cells:
            ax, ay = grid.lattice(anchor)
            dx, dy = ax - x0, ay - y0
            slots = [(grid.from_lattice(x + dx, y + dy), s) for x, y, s in orient]
            if all(c is not None for c, _ in slots):
                slots.sort()
                found.add((tuple(c for c, _ in slots), tuple(s for _, s in slots)))
    placements = tuple(Placement(c, s) for c, s in sorted(found))
    by_cell: list[list[int]] = [[] for _ in grid.cells]
    for i, p in enumerate(placements):
        for c in p.cells:
            by_cell[c].append(i)
    return PlacementTable(grid, shape, placements, tuple(tuple(b) for b in by_cell))


# ------------------------------------------------------------ matching
@frozen
class Match:
    """A matched placement.  ``used`` cells are consumed by the match;
    ``standins`` filled slots without being consumed; ``missing`` slots were
    unmet.  All four cell tuples are ascending.  ``placement`` (slot symbols
    per cell) is informative and ignored by equality."""

    cells: tuple
    used: tuple
    standins: tuple
    missing: tuple
    placement: Placement | None = attrs.field(default=None, eq=False, repr=False)


def _match_symbols(p, test, standin, missing):
    used, stand, miss = [], [], []
    for cell, sym in p.pairs:
        if test(sym, cell):
            used.append(cell)
        elif standin is not None and standin(cell):
            stand.append(cell)
        elif len(miss) < missing:
            miss.append(cell)
        else:
            return None
    return used, stand, miss


def _match_distinct(p, test, standin, missing, key):
    chosen: dict = {}
    for cell in p.cells:
        if not test(ANY, cell):
            continue
        k = key(cell)
        if k not in chosen:
            chosen[k] = cell
        elif standin is not None and standin(chosen[k]) and not standin(cell):
            # Use the cell that could not stand in, so the other one can.
            chosen[k] = cell
    real = set(chosen.values())
    used, stand, miss = [], [], []
    for cell in p.cells:
        if cell in real:
            used.append(cell)
        elif standin is not None and standin(cell):
            stand.append(cell)
        elif len(miss) < missing:
            miss.append(cell)
        else:
            return None
    return used, stand, miss


def find_matches(table: PlacementTable, test: Callable[[str, int], bool], *,
                 standin: Callable[[int], bool] | None = None, missing: int = 0,
                 distinct_key: Callable[[int], object] | None = None,
                 touching: Iterable[int] | None = None) -> tuple[Match, ...]:
    """Placements whose slots are satisfied, as `Match` objects.

    ``test(symbol, cell)``: does the cell satisfy the slot.  ``standin(cell)``:
    the cell may fill any slot without being consumed (a match still needs
    one real cell).  ``missing``: up to that many slots may be unmet.
    ``distinct_key(cell)``: ignore symbols; used cells must pass
    ``test("*", cell)`` and have pairwise different keys.  ``touching``: only
    look at placements covering one of these cells (incremental checks).

    >>> t = compile_placements(make_grid("square", 3, 1), make_shape("d", "X X"))
    >>> [m.used for m in find_matches(t, lambda s, c: c != 2, missing=1)]
    [(0, 1), (1,)]
    """
    placements = table.placements
    if touching is not None:
        placements = [placements[i] for i in table.touching(touching)]
    if standin is None and not missing and distinct_key is None:
        return _exact_matches(placements, test)
    seen: set = set()
    out = []
    for p in placements:
        if distinct_key is None:
            got = _match_symbols(p, test, standin, missing)
        else:
            got = _match_distinct(p, test, standin, missing, distinct_key)
        if got is None or not got[0]:
            continue
        key = (p.cells, tuple(got[0]), tuple(got[1]), tuple(got[2]))
        if key not in seen:
            seen.add(key)
            out.append(Match(*key, placement=p))
    return tuple(out)


def _exact_matches(placements, test):
    """The common case, kept lean: every slot must pass ``test``."""
    seen: set = set()
    out = []
    for p in placements:
        for cell, sym in p.pairs:
            if not test(sym, cell):
                break
        else:
            if p.cells not in seen:
                seen.add(p.cells)
                out.append(Match(p.cells, p.cells, (), (), p))
    return tuple(out)


def find_anywhere(shape: Shape, candidate_cells: Iterable[int],
                  test: Callable[[str, int], bool],
                  standin: Callable[[int], bool] | None = None,
                  limit: int = 5000) -> tuple[Match, ...]:
    """Ignore geometry: pick one distinct cell per slot of ``shape`` from
    ``candidate_cells`` so each slot's symbol is satisfied (or filled by a
    stand-in).  Each set of cells is reported once, with the assignment using
    the most real cells, sorted by cells.  Enumeration stops after ``limit``
    complete assignments, so on huge inputs the result may be partial.

    >>> s = make_shape("pair", "a b")
    >>> [m.placement.symbols for m in find_anywhere(s, [5, 6, 7], lambda s, c: (s == "a") == (c == 5))]
    [('a', 'b'), ('a', 'b')]
    """
    counts: dict = {}
    for _, _, sym in shape.cells:
        counts[sym] = counts.get(sym, 0) + 1
    symbols = sorted(counts)
    pool = sorted(set(candidate_cells))
    real = {s: frozenset(c for c in pool if test(s, c)) for s in symbols}
    spare = frozenset(c for c in pool if standin is not None and standin(c))
    eligible = [[c for c in pool if c in real[s] or c in spare] for s in symbols]
    best: dict = {}
    budget = [limit]

    def record(chosen):
        pairs = sorted((c, s) for s, group in zip(symbols, chosen) for c in group)
        used = tuple(c for c, s in pairs if c in real[s])
        if not used:
            return
        cells = tuple(c for c, _ in pairs)
        if cells not in best or len(used) > len(best[cells].used):
            stand = tuple(c for c, s in pairs if c not in real[s])
            best[cells] = Match(cells, used, stand, (), Placement(cells, tuple(s for _, s in pairs)))

    def walk(i, chosen, taken):
        if budget[0] <= 0:
            return
        if i == len(symbols):
            budget[0] -= 1
            record(chosen)
            return
        free = [c for c in eligible[i] if c not in taken]
        # Slots with the same symbol are interchangeable: combinations, not
        # permutations, keep the enumeration from exploding.
        for group in itertools.combinations(free, counts[symbols[i]]):
            walk(i + 1, chosen + [group], taken | set(group))
            if budget[0] <= 0:
                return

    walk(0, [], frozenset())
    return tuple(best[k] for k in sorted(best))


# ------------------------------------------------------------ diagnostics
def explain(grid: Grid, table_or_shape, cells, test: Callable[[str, int], bool],
            standin: Callable[[int], bool] | None = None) -> list[str]:
    """Why ``cells`` are not a placement of the shape; [] if they are.

    >>> g = make_grid("square", 3, 1)
    >>> explain(g, make_shape("d", "a b", "all"), (0, 1), lambda s, c: s == "b")
    ['A1 needs a']
    """
    table = table_or_shape
    if isinstance(table_or_shape, Shape):
        table = compile_placements(grid, table_or_shape)
    cells = tuple(cells)
    wanted = frozenset(cells)
    problems = _shape_size_problems(grid, table.shape, cells)
    if problems:
        return problems
    fitting = [table.placements[i] for i in table.by_cell[cells[0]]
               if frozenset(table.placements[i].cells) == wanted]
    if not fitting:
        return ["no orientation of the shape covers these cells"]
    reports = [_slot_problems(grid, p, test, standin) for p in fitting]
    return min(reports, key=len)


def _shape_size_problems(grid, shape, cells):
    for c in cells:
        if not (isinstance(c, int) and 0 <= c < grid.size):
            return [f"cell {c!r} is not on the board"]
    repeated = sorted({c for c in cells if cells.count(c) > 1})
    if repeated:
        return [f"{grid.name(c)} is given more than once" for c in repeated]
    if len(cells) != shape.size:
        return [f"the shape has {shape.size} cells, {len(cells)} given"]
    return []


def _slot_problems(grid, placement, test, standin):
    problems, real = [], 0
    for cell, sym in placement.pairs:
        if test(sym, cell):
            real += 1
        elif standin is None or not standin(cell):
            problems.append(f"{grid.name(cell)} needs {sym}")
    if not problems and not real:
        problems.append("at least one cell must be a real piece, not a stand-in")
    return problems


def kind_index(game, shape) -> "KindIndex":
    """The `KindIndex` of `shape`, made on first use and kept in the game's cache."""
    indexes = game.cache.table("kind_indexes")
    index = indexes.get(shape.name)
    if index is None:
        index = game.cache.bounded(indexes)[shape.name] = KindIndex(game, shape)
    return index


class KindIndex:
    """What the pattern searches (compiler/shape_functions.py) and the stranded pieces of the agents
    (agents/patterns.py) know of one shape whose slots name kinds, built once per game and shape
    (`kind_index`).

    `needs` is ((kind, count), ...), the pieces a placement needs. Bit i of a
    mask stands for `placements[i]`. `accepts[cell]` is `(by_kind, other)`:
    `by_kind.get(kind, other)` is the mask of the placements that allow a
    piece of `kind` on `cell`: those not covering the cell, those with a slot
    there that takes anything, and those whose slot there names the kind. The
    placements that fit a board are then the and of one mask per cell, a few
    int operations instead of a test per slot of every placement.
    """

    __slots__ = ("needs", "placements", "everything", "accepts", "order", "ordered")

    def __init__(self, game, shape):
        placements = self.placements = game.placement_table(shape).placements
        known = game.static_attrs
        wanted = collections.Counter(s for _, s in placements[0].pairs if s in known) if placements else {}
        self.needs = tuple(wanted.items())
        everything = self.everything = (1 << len(placements)) - 1
        other = [everything] * game.grid.size
        by_kind = collections.defaultdict(dict)  # cell -> kind -> placements wanting that kind there
        for i, placement in enumerate(placements):
            for cell, symbol in placement.pairs:
                if symbol in known:
                    other[cell] &= ~(1 << i)
                    by_kind[cell][symbol] = by_kind[cell].get(symbol, 0) | 1 << i
        self.accepts = tuple(({kind: other[cell] | mask for kind, mask in by_kind[cell].items()}, other[cell])
                             for cell in game.grid.cells)
        # the cells where most placements need a given kind first: an empty one rules them out soonest
        self.order = tuple(sorted(game.grid.cells, key=lambda cell: bin(other[cell]).count("1")))
        self.ordered = tuple(self.accepts[cell] for cell in self.order)

    def usable(self, kinds) -> set:
        """The occupied cells of a board (its kinds by cell) that a placement can still use: one whose
        slot there names the piece's kind and whose other slots allow the pieces they cover (an empty
        cell may still be filled)."""
        completable = self.everything
        for (by_kind, other), kind in zip(self.accepts, kinds):
            if kind is not None:
                completable &= by_kind.get(kind, other)
        if not completable:
            return set()
        return {cell for cell, ((by_kind, other), kind) in enumerate(zip(self.accepts, kinds))
                if kind is not None and completable & by_kind.get(kind, 0) & ~other}
