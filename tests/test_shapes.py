"""Tests for boardrule.interpreter.runtime.shapes."""

import itertools
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardrule.interpreter.compiler import shape_functions
from boardrule.interpreter.runtime.geometry import AXIAL_DIRECTIONS, HEX_LAYOUTS, axial_to_offset, make_grid
from boardrule.interpreter.runtime.shapes import (
    Match, Placement, ShapeArtError, art_positions, compile_placements, explain,
    family_shape, find_anywhere, find_matches, make_shape, normalise, orientations,
    parse_art, to_lattice,
)
from boardrule.interpreter.runtime.values import CELL_BITS


def contents_test(grid, contents):
    """A `test` reading a dict of cell name -> symbol."""
    by_cell = {grid.parse_name(k): v for k, v in contents.items()}
    return lambda symbol, cell: by_cell.get(cell) == symbol


def labels(grid, cells):
    return [grid.name(c) for c in cells]


# ------------------------------------------------------------ art
def test_parse_art_slash_and_newlines_agree():
    assert parse_art("X X / . wheat") == ((0, 0, "X"), (1, 0, "X"), (1, 1, "wheat"))
    assert parse_art("""
        X X
        . wheat
    """) == parse_art("X X / . wheat")


def test_parse_art_ragged_rows():
    assert parse_art("a / b c d / . e") == (
        (0, 0, "a"), (0, 1, "b"), (1, 1, "c"), (2, 1, "d"), (1, 2, "e"))


def test_parse_art_errors_locate_the_token():
    with pytest.raises(ShapeArtError) as err:
        parse_art(" . . / . ")
    assert (err.value.row, err.value.index) == (0, 0) and isinstance(err.value, ValueError)
    with pytest.raises(ValueError):
        parse_art("")
    with pytest.raises(ShapeArtError) as err:
        parse_art("X X / X .x")
    assert (err.value.row, err.value.index) == (1, 1)
    assert "row 2, token 2" in str(err.value)


def test_art_positions_point_at_tokens():
    art = "X  wheat\n . ore"
    pos = art_positions(art)
    assert art[pos[(1, 0)]:].startswith("wheat")
    assert art[pos[(1, 1)]:].startswith("ore")
    assert art[pos[(0, 1)]] == "."


def test_hex_art_is_read_in_the_board_layout():
    # Flat-odd: column 1 is shifted down, so "X X" is two touching hexes and
    # so is "X / X"; a leading "." column moves the art to odd parity.
    assert to_lattice(parse_art("X X"), "hex", "flat-odd") == ((0, 0, "X"), (1, 0, "X"))
    assert to_lattice(parse_art(". X X"), "hex", "flat-odd") == ((1, 0, "X"), (2, -1, "X"))
    # Pointy-odd: row 1 is shifted right.
    assert to_lattice(parse_art("X . / X"), "hex", "pointy-odd") == ((0, 0, "X"), (0, 1, "X"))


# ------------------------------------------------------------ orientations
SQUARE_COUNTS = [
    ("X . / X . / X X", "all", 8),  # L tetromino
    ("X . / X . / X X", "rotate", 4),
    ("X X / X X", "all", 1),
    ("X X X X", "all", 2),
    ("X X X / . X .", "all", 4),
    (". X X / X X .", "all", 4),
    (". X X / X X .", "rotate", 2),
    ("X X / X X", "none", 1),
    ("X . / X . / X X", "none", 1),
    ("a b", "rotate", 4),  # symbols make a domino asymmetric
]


@pytest.mark.parametrize("art, symmetry, count", SQUARE_COUNTS)
def test_square_orientation_counts(art, symmetry, count):
    assert len(make_shape("s", art, symmetry).orientations) == count


def test_orientations_are_normalised_and_start_with_the_shape():
    found = orientations(((5, 5, "X"), (6, 5, "Y")), "square", "rotate")
    assert found[0] == ((0, 0, "X"), (1, 0, "Y"))
    assert all(min(x for x, _, _ in o) == 0 and min(y for _, y, _ in o) == 0 for o in found)
    with pytest.raises(ValueError):
        orientations(found[0], "square", "mirror")


def test_hex_straight_line_of_four():
    assert len(make_shape("bar", "X / X / X / X", "all", kind="hex").orientations) == 3
    assert len(make_shape("bar", "X / X / X / X", "rotate", kind="hex").orientations) == 3


# The seven tetrahexes in flat-odd art, with their numbers of distinct
# orientations under rotation and reflection (12 / order of the symmetry
# group of the piece).  Their sum is 44, the number of fixed tetrahexes.
TETRAHEXES = {
    "bar": ("X / X / X / X", 3),          # straight line: symmetric under 180 deg + 2 mirrors
    "bee": ("X X / X X", 3),              # compact rhombus: same symmetry group as the bar
    "propeller": ("X X X / . X .", 2),    # three arms around a hex: 120 deg turns + mirrors
    "arch": ("X . . / X X X", 6),         # a single mirror
    "wave": ("X . / X X / . X", 6),       # 180 deg turn only
    "pistol": ("X X / X . / X .", 12),    # a triangle with a tail: no symmetry
    "worm": ("X . / X . / X X", 12),      # a line of three with a kink: no symmetry
}


def fixed_polyhexes(n):
    """All polyhexes of n cells up to translation, grown cell by cell."""
    found = {normalise([(0, 0, "X")])}
    for _ in range(n - 1):
        grown = set()
        for shape in found:
            pts = {(x, y) for x, y, _ in shape}
            for (x, y), (dx, dy) in itertools.product(pts, AXIAL_DIRECTIONS):
                if (x + dx, y + dy) not in pts:
                    grown.add(normalise([(a, b, "X") for a, b in pts | {(x + dx, y + dy)}]))
        found = grown
    return found


@pytest.mark.parametrize("name", sorted(TETRAHEXES))
def test_tetrahex_orientation_counts(name):
    art, count = TETRAHEXES[name]
    shape = make_shape(name, art, "all", kind="hex")
    assert shape.size == 4 and len(shape.orientations) == count


def test_tetrahexes_are_the_seven_free_ones():
    sets = {name: frozenset(make_shape(name, art, "all", kind="hex").orientations)
            for name, (art, _) in TETRAHEXES.items()}
    for a, b in itertools.combinations(sets, 2):
        assert not sets[a] & sets[b], (a, b)
    assert frozenset().union(*sets.values()) == fixed_polyhexes(4)
    assert len(fixed_polyhexes(4)) == 44


def test_hex_art_layouts_describe_the_same_pieces():
    # The art is drawn in the board's layout, so the same text is re-read
    # for a board of another layout.
    shape = make_shape("worm", TETRAHEXES["worm"][0], "none", kind="hex", hex_layout="flat-odd")
    board = make_grid("hex", 5, 5, hex_layout="flat-even")
    table = compile_placements(board, shape)
    p = table.placements[0]
    assert len(p.cells) == 4 and len({board.col(c) for c in p.cells}) == 2


def test_hex_triangle_families():
    def tri(n):
        return family_shape(f"tri{n}", lambda x, y, k: x + y < k, n, "hex", "rotate")

    assert [tri(n).size for n in (1, 2, 3)] == [1, 3, 6]
    assert [len(tri(n).orientations) for n in (1, 2, 3)] == [1, 2, 2]
    # A 4 x 4 axial rhombus: an up or down triangle of side n fits (5 - n)^2
    # times each.
    rhombus = {axial_to_offset(q, r, "flat-odd") for q in range(4) for r in range(4)}
    board = make_grid("hex", 4, 5, mask=rhombus)
    assert board.size == 16
    assert [len(compile_placements(board, tri(n)).placements) for n in (1, 2, 3)] == [16, 18, 8]
    # Around one hex: six triangles of side 2, no room for side 3.
    small = hexagon(1)
    assert [len(compile_placements(small, tri(n)).placements) for n in (1, 2, 3)] == [7, 6, 0]
    with pytest.raises(ValueError):
        family_shape("none", lambda x, y, n: False, 2, "hex")


def hexagon(radius, layout="flat-odd"):
    axial = [(q, r) for q in range(-radius, radius + 1) for r in range(-radius, radius + 1)
             if abs(q + r) <= radius]
    offsets = {axial_to_offset(q + 2 * radius, r + radius, layout) for q, r in axial}
    return make_grid("hex", 4 * radius + 1, 4 * radius + 1, mask=offsets, hex_layout=layout)


# ------------------------------------------------------------ placements
def test_placements_on_square_board():
    g = make_grid("square", 4, 4)
    assert len(compile_placements(g, make_shape("o", "X X / X X", "all")).placements) == 9
    table = compile_placements(g, make_shape("L", "X . / X . / X X", "all"))
    assert len(table.placements) == 48
    assert list(table.placements) == sorted(table.placements, key=lambda p: (p.cells, p.symbols))
    assert all(len(table.by_cell[c]) for c in g.cells)
    assert compile_placements(make_grid("square", 4, 4), table.shape) is table


def test_placements_respect_the_mask():
    ring = make_grid("square", 3, 3, mask={(c, r) for c in range(3) for r in range(3)} - {(1, 1)})
    assert compile_placements(ring, make_shape("o", "X X / X X", "all")).placements == ()
    assert len(compile_placements(ring, make_shape("bar", "X X X", "rotate")).placements) == 4


def test_placements_keep_symbols_and_dedupe():
    g = make_grid("square", 3, 1)
    table = compile_placements(g, make_shape("ab", "a b", "all"))
    assert table.placements == (
        Placement((0, 1), ("a", "b")), Placement((0, 1), ("b", "a")),
        Placement((1, 2), ("a", "b")), Placement((1, 2), ("b", "a")))
    assert table.touching([0]) == (0, 1)


def test_shape_kind_must_match_grid():
    with pytest.raises(ValueError):
        compile_placements(make_grid("hex", 3, 3), make_shape("d", "X X"))


# ------------------------------------------------------------ matching
def test_find_matches_plain():
    g = make_grid("square", 4, 1)
    test = contents_test(g, {"A1": "a", "B1": "b", "C1": "a", "D1": "b"})
    found = find_matches(compile_placements(g, make_shape("ab", "a b")), test)
    assert [m.cells for m in found] == [(0, 1), (2, 3)]
    assert found[0] == Match((0, 1), (0, 1), (), ())
    turned = find_matches(compile_placements(g, make_shape("ab", "a b", "rotate")), test)
    assert [m.cells for m in turned] == [(0, 1), (1, 2), (2, 3)]
    assert turned[1].placement.symbols == ("b", "a")


def test_find_matches_dedupes_equal_matches():
    g = make_grid("square", 3, 1)
    table = compile_placements(g, make_shape("ab", "a b", "all"))
    assert len(table.placements) == 4
    assert [m.cells for m in find_matches(table, lambda s, c: True)] == [(0, 1), (1, 2)]


def test_find_matches_standins():
    g = make_grid("square", 4, 1)
    test = contents_test(g, {"A1": "a", "C1": "b"})
    joker = {g.parse_name("B1"), g.parse_name("D1")}
    found = find_matches(compile_placements(g, make_shape("ab", "a b")), test,
                         standin=joker.__contains__)
    assert [(m.used, m.standins) for m in found] == [((0,), (1,)), ((2,), (1,))]
    # Two stand-ins side by side are not a match: one real cell is needed.
    found = find_matches(compile_placements(g, make_shape("xx", "x x")), test,
                         standin=lambda c: True)
    assert found == ()


def test_find_matches_missing():
    g = make_grid("square", 5, 1)
    test = contents_test(g, {"A1": "X", "B1": "X", "D1": "X", "E1": "X"})
    table = compile_placements(g, make_shape("line", "X X X"))
    assert find_matches(table, test) == ()
    found = find_matches(table, test, missing=1)
    assert [(m.used, m.missing) for m in found] == [((0, 1), (2,)), ((1, 3), (2,)), ((3, 4), (2,))]
    assert all(len(m.cells) == 3 for m in found)
    assert len(find_matches(table, lambda s, c: c == 0, missing=2)) == 1


def test_find_matches_distinct_keys():
    g = make_grid("square", 5, 1)
    kinds = {0: "r1", 1: "r2", 2: "r1", 3: "r3"}  # E1 is empty
    has = lambda symbol, cell: symbol == "*" and cell in kinds  # noqa: E731
    table = compile_placements(g, make_shape("three", "X X X"))
    found = find_matches(table, has, distinct_key=kinds.get)
    assert [m.used for m in found] == [(1, 2, 3)]
    found = find_matches(table, has, distinct_key=kinds.get, missing=1)
    assert [(m.used, m.missing) for m in found] == [((0, 1), (2,)), ((1, 2, 3), ()), ((2, 3), (4,))]
    # A duplicate that can stand in does so, and the other copy is used.
    found = find_matches(table, has, distinct_key=kinds.get, standin=lambda c: c == 0)
    assert [(m.used, m.standins) for m in found] == [((1, 2), (0,)), ((1, 2, 3), ())]


def test_find_matches_touching():
    g = make_grid("square", 5, 1)
    table = compile_placements(g, make_shape("d", "X X"))
    assert [m.cells for m in find_matches(table, lambda s, c: True, touching=[4])] == [(3, 4)]


def test_find_anywhere():
    shape = make_shape("trade", "a a b")
    kinds = {1: "a", 2: "a", 3: "a", 4: "b", 5: "c"}
    test = lambda s, c: kinds.get(c) == s  # noqa: E731
    found = find_anywhere(shape, range(7), test)
    assert [m.cells for m in found] == [(1, 2, 4), (1, 3, 4), (2, 3, 4)]
    assert found[0].placement.symbols == ("a", "a", "b") and found[0].missing == ()
    with_joker = find_anywhere(shape, range(7), test, standin=lambda c: c == 5)
    assert (1, 2, 5) in [m.cells for m in with_joker]
    assert all(5 not in m.used for m in with_joker)
    assert [m for m in with_joker if m.cells == (1, 2, 4)][0].standins == ()
    assert find_anywhere(shape, [1, 4], test) == ()
    assert len(find_anywhere(make_shape("x", "a"), range(100), lambda s, c: True, limit=10)) == 10


# ------------------------------------------------------------ explain
def test_explain():
    g = make_grid("square", 4, 4)
    shape = make_shape("field", "wheat wheat / wheat .", "all")
    test = contents_test(g, {"A1": "wheat", "B1": "wheat", "A2": "wheat", "C3": "ore"})
    cells = lambda *names: tuple(g.parse_name(n) for n in names)  # noqa: E731
    assert explain(g, shape, cells("A1", "B1", "A2"), test) == []
    assert explain(g, shape, cells("A1", "B1"), test) == ["the shape has 3 cells, 2 given"]
    assert explain(g, shape, cells("A1", "B1", "C1"), test) == \
        ["no orientation of the shape covers these cells"]
    assert explain(g, shape, cells("B2", "C2", "C3"), test) == \
        ["B2 needs wheat", "C2 needs wheat", "C3 needs wheat"]
    assert explain(g, shape, cells("A1", "B1", "B2"), test) == ["B2 needs wheat"]
    assert explain(g, shape, cells("A1", "A1", "B1"), test) == ["A1 is given more than once"]
    table = compile_placements(g, shape)
    assert explain(g, table, cells("B2", "B1", "A2"), test, standin=lambda c: True) == []
    assert explain(g, table, cells("B2", "C2", "C3"), test, standin=lambda c: True) == \
        ["at least one cell must be a real piece, not a stand-in"]


# ------------------------------------------------------------ properties
@st.composite
def boards_and_shapes(draw):
    kind = draw(st.sampled_from(["square", "hex"]))
    w, h = draw(st.integers(1, 5)), draw(st.integers(1, 5))
    every = [(c, r) for r in range(h) for c in range(w)]
    mask = draw(st.none() | st.sets(st.sampled_from(every), min_size=1))
    grid = make_grid(kind, w, h, mask=mask, hex_layout=draw(st.sampled_from(HEX_LAYOUTS)))
    art = draw(st.sets(st.tuples(st.integers(0, 2), st.integers(0, 2), st.sampled_from("ab")),
                       min_size=1, max_size=4).filter(lambda s: len({p[:2] for p in s}) == len(s)))
    shape = make_shape("s", sorted(art), draw(st.sampled_from(["none", "rotate", "all"])),
                       kind=kind, hex_layout=grid.hex_layout or "flat-odd")
    return grid, shape


@settings(max_examples=60, deadline=None)
@given(boards_and_shapes())
def test_placements_are_sound(board_and_shape):
    grid, shape = board_and_shape
    table = compile_placements(grid, shape)
    assert len(set(table.placements)) == len(table.placements)
    for p in table.placements:
        assert len(p.cells) == shape.size and list(p.cells) == sorted(set(p.cells))
        assert all(0 <= c < grid.size for c in p.cells)
        lattice = normalise([grid.lattice(c) + (s,) for c, s in zip(p.cells, p.symbols)])
        assert lattice in shape.orientations


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 5), st.integers(1, 5),
       st.sets(st.tuples(st.integers(0, 2), st.integers(0, 2)), min_size=1, max_size=4))
def test_transposed_board_has_as_many_placements(w, h, cells):
    shape = make_shape("s", [(x, y, "X") for x, y in sorted(cells)], "all")
    count = len(compile_placements(make_grid("square", w, h), shape).placements)
    assert count == len(compile_placements(make_grid("square", h, w), shape).placements)


# ------------------------------------------------------------ fast paths against plain code
# `PlacementTable.within`/`fits` and the engine's `placements`/`matches` work on
# bitmasks; these pin them to the obvious set-based versions.
def plain_within(table, allowed, base=0):
    return tuple(sorted({tuple(base | c for c in p.cells) for p in table.placements if set(p.cells) <= allowed}))


@st.composite
def allowed_cells(draw, grid):
    return draw(st.sets(st.sampled_from(grid.cells)) | st.just(set(grid.cells)))


@settings(max_examples=80, deadline=None)
@given(boards_and_shapes(), st.data())
def test_within_and_fits_agree_with_sets(board_and_shape, data):
    grid, shape = board_and_shape
    table = compile_placements(grid, shape)
    allowed = data.draw(allowed_cells(grid))
    base = data.draw(st.sampled_from([0, 1 << 10, 3 << 10]))
    mask = sum(1 << c for c in allowed)
    assert table.within(mask, base) == plain_within(table, allowed, base)
    assert table.within(mask) == plain_within(table, allowed)  # a cached encoding for base 0 too
    assert table.fits(mask) == any(set(p.cells) <= allowed for p in table.placements)


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(["square", "hex"]), st.integers(4, 9), st.integers(4, 9),
       st.sampled_from(["X X / X .", "X . / X . / X X", "X X X", "X X / X X"]), st.data())
def test_within_on_bigger_boards(kind, w, h, art, data):
    grid = make_grid(kind, w, h)
    table = compile_placements(grid, make_shape("s", art, "all", kind=kind))
    allowed = data.draw(allowed_cells(grid))
    assert table.within(sum(1 << c for c in allowed), 2 << 10) == plain_within(table, allowed, 2 << 10)


def fake_ctx(grid, kinds, board):
    """Just what the engine's shape functions read from a context."""
    from boardrule.interpreter.compiler.compiled import GameCache
    game = SimpleNamespace(grid=grid, static_attrs={"a": {}, "b": {}, "c": {}}, cache=GameCache(),
                           placement_table=lambda shape: compile_placements(grid, shape))
    return SimpleNamespace(game=game, board=board, state=SimpleNamespace(kind={board: kinds}))


@settings(max_examples=60, deadline=None)
@given(boards_and_shapes(), st.data())
def test_engine_placements_agree_with_sets(board_and_shape, data):
    grid, shape = board_and_shape
    board = data.draw(st.integers(0, 3))
    allowed = data.draw(allowed_cells(grid))
    # cells in any order and repeated, as a list of the language may hold them
    cells = data.draw(st.permutations(sorted(allowed) + sorted(allowed)[:2]))
    cells = [board << CELL_BITS | c for c in cells]
    table = compile_placements(grid, shape)
    found = shape_functions._placements_on(fake_ctx(grid, [None] * grid.size, 0), shape, cells)
    assert found == plain_within(table, allowed, (board if cells else 0) << CELL_BITS)


@st.composite
def kind_boards(draw):
    """A board of kinds a, b, c (known) and empty cells, and a shape whose
    slots name a or b, or X (anything)."""
    kind = draw(st.sampled_from(["square", "hex"]))
    w, h = draw(st.integers(1, 5)), draw(st.integers(1, 5))
    grid = make_grid(kind, w, h, hex_layout=draw(st.sampled_from(HEX_LAYOUTS)))
    art = draw(st.sets(st.tuples(st.integers(0, 2), st.integers(0, 2), st.sampled_from("aabX")),
                       min_size=1, max_size=4).filter(lambda s: len({p[:2] for p in s}) == len(s)))
    shape = make_shape("s", sorted(art), draw(st.sampled_from(["none", "rotate", "all"])),
                       kind=kind, hex_layout=grid.hex_layout or "flat-odd")
    kinds = draw(st.lists(st.sampled_from([None, "a", "b", "c"]), min_size=grid.size, max_size=grid.size))
    stand = draw(st.just(frozenset()) | st.frozensets(st.sampled_from(grid.cells)))
    return grid, shape, kinds, stand


@settings(max_examples=150, deadline=None)
@given(kind_boards(), st.integers(0, 3))
def test_engine_kind_matches_agree_with_find_matches(board, board_index):
    grid, shape, kinds, stand = board
    ctx = fake_ctx(grid, kinds, board_index)
    base = board_index << CELL_BITS
    known = ctx.game.static_attrs
    test = lambda symbol, cell: kinds[cell] == symbol if symbol in known else True  # as Game.slot_test
    general = find_matches(compile_placements(grid, shape), test, standin=stand.__contains__ if stand else None)
    expected = {tuple(base | c for c in m.cells) for m in general}
    assert shape_functions._kind_matches(ctx, shape, base, stand) == expected
    assert shape_functions._kind_matches(ctx, shape, base, stand) == expected  # again, from the cached index
