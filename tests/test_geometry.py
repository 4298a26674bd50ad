"""Tests for boardrule.interpreter.runtime.geometry."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardrule.interpreter.runtime.geometry import (
    HEX_LAYOUTS, axial_to_offset, border, column_letters, groups, hex_distance,
    make_grid, offset_to_axial, reflect_axial, rotate_axial,
)


def names(grid, cells):
    return sorted(grid.name(c) for c in cells)


def cells_of(grid, *labels):
    return frozenset(grid.parse_name(n) for n in labels)


# ------------------------------------------------------------ square
def test_square_numbering_and_names():
    g = make_grid("square", 4, 3)
    assert g.size == 12 and g.cells == tuple(range(12))
    assert (g.width, g.height) == (4, 3)
    assert g.at(2, 1) == 6 and g.col(6) == 2 and g.row(6) == 1
    assert g.name(6) == "C2" and g.parse_name("c2") == 6 and g.parse_name(" C2 ") == 6
    assert g.at(4, 0) is None and g.at(-1, 0) is None and g.at(0, 3) is None
    assert g.names[:4] == ("A1", "B1", "C1", "D1")


def test_square_neighbours():
    g = make_grid("square", 4, 4)
    b2 = g.parse_name("B2")
    assert names(g, g.neighbours[b2]) == ["A2", "B1", "B3", "C2"]
    assert g.orthogonal[b2] == g.neighbours[b2]
    assert names(g, g.surrounding[b2]) == ["A1", "A2", "A3", "B1", "B3", "C1", "C2", "C3"]
    assert names(g, g.neighbours[0]) == ["A2", "B1"]
    g8 = make_grid("square", 4, 4, adjacency="all")
    assert names(g8, g8.neighbours[0]) == ["A2", "B1", "B2"]
    assert len(g8.neighbours[b2]) == 8 and len(g8.orthogonal[b2]) == 4


def test_lines():
    g = make_grid("square", 3, 2)
    assert g.rows == ((0, 1, 2), (3, 4, 5))
    assert g.columns == ((0, 3), (1, 4), (2, 5))
    assert g.row_cells[4] == (3, 4, 5) and g.column_cells[4] == (1, 4)


def test_column_letters_and_wide_names():
    assert [column_letters(c) for c in (0, 25, 26, 27, 51, 52, 701, 702)] == \
        ["A", "Z", "AA", "AB", "AZ", "BA", "ZZ", "AAA"]
    g = make_grid("square", 30, 2)
    assert g.name(27) == "AB1" and g.parse_name("ab1") == 27 and g.name(30) == "A2"
    assert all(g.parse_name(g.name(c)) == c for c in g.cells)


def test_unknown_names_raise_key_error():
    g = make_grid("square", 4, 4)
    for bad in ("E1", "A5", "A0", "", "1A", "AA1"):
        with pytest.raises(KeyError):
            g.parse_name(bad)


def test_mask():
    full = {(c, r) for c in range(3) for r in range(3)}
    g = make_grid("square", 3, 3, mask=full - {(1, 1)})
    assert g.size == 8 and g.at(1, 1) is None and g.at(2, 1) == 4
    assert g.names == ("A1", "B1", "C1", "A2", "C2", "A3", "B3", "C3")
    with pytest.raises(KeyError):
        g.parse_name("B2")
    assert names(g, g.neighbours[g.parse_name("B1")]) == ["A1", "C1"]
    assert g.edge == frozenset(g.cells)
    assert g.rows[1] == (3, 4) and g.column_cells[g.parse_name("B3")] == (1, 6)
    # A mask keeping every cell is the same board as no mask.
    assert make_grid("square", 3, 3, mask=full) == make_grid("square", 3, 3)


def test_bad_arguments():
    with pytest.raises(ValueError):
        make_grid("triangle", 3, 3)
    with pytest.raises(ValueError):
        make_grid("square", 3, 3, adjacency="diagonal")
    with pytest.raises(ValueError):
        make_grid("hex", 3, 3, hex_layout="flat")
    with pytest.raises(ValueError):
        make_grid("square", 0, 3)
    with pytest.raises(ValueError):
        make_grid("square", 3, 3, mask={(3, 0)})
    with pytest.raises(ValueError):
        make_grid("square", 3, 3, mask=set())


def test_edge_corners_center_4x4():
    g = make_grid("square", 4, 4)
    assert names(g, g.corners) == ["A1", "A4", "D1", "D4"]
    assert g.center == cells_of(g, "B2", "C2", "B3", "C3")
    assert g.edge == frozenset(g.cells) - g.center
    assert make_grid("square", 3, 3).center == {4}
    assert names(make_grid("square", 4, 3), make_grid("square", 4, 3).center) == ["B2", "C2"]


def test_corners_on_masked_square():
    # A one-cell-wide L: its two ends and its bend, not the corridor cells.
    mask = {(0, 0), (0, 1), (0, 2), (1, 2), (2, 2)}
    g = make_grid("square", 3, 3, mask=mask)
    assert names(g, g.corners) == ["A1", "A3", "C3"]
    strip = make_grid("square", 5, 1)
    assert names(strip, strip.corners) == ["A1", "E1"]
    # A 3 x 3 board with its centre missing still has just four corners.
    ring = make_grid("square", 3, 3, mask={(c, r) for c in range(3) for r in range(3)} - {(1, 1)})
    assert names(ring, ring.corners) == ["A1", "A3", "C1", "C3"]


def test_corners_are_the_outer_corners_and_all_corners_those_of_the_holes_too():
    # A 5 x 5 board with a cross-shaped hole: B2 D2 B4 D4 are corners of the hole only.
    hole = {(2, 1), (1, 2), (2, 2), (3, 2), (2, 3)}
    g = make_grid("square", 5, 5, mask={(c, r) for c in range(5) for r in range(5)} - hole)
    assert names(g, g.corners) == ["A1", "A5", "E1", "E5"]
    assert names(g, g.all_corners) == ["A1", "A5", "B2", "B4", "D2", "D4", "E1", "E5"]
    # A notch cut into the outline from outside is no hole: its corners are the board's.
    notch = make_grid("square", 5, 4, mask={(c, r) for c in range(5) for r in range(4)} - {(2, 0), (2, 1)})
    assert names(notch, notch.corners) == ["A1", "A4", "B1", "D1", "E1", "E4"]
    assert notch.corners == notch.all_corners
    # The L of one cell's width has no hole; the ring's one-cell hole has no corners of its own.
    ell = make_grid("square", 3, 3, mask={(0, 0), (0, 1), (0, 2), (1, 2), (2, 2)})
    ring = make_grid("square", 3, 3, mask={(c, r) for c in range(3) for r in range(3)} - {(1, 1)})
    assert ell.all_corners == ell.corners and ring.all_corners == ring.corners


def test_a_hole_in_a_hex_board_makes_no_corners():
    full = {(c, r) for c in range(7) for r in range(6)}
    hole = {(3, 2), (3, 3), (2, 2), (4, 2)}  # D3 D4 C3 E3
    h = make_grid("hex", 7, 6, mask=full - hole)
    assert names(h, h.corners) == ["A1", "A6", "G1", "G6"]
    assert len(h.all_corners) > 4 and h.corners < h.all_corners


def test_distances():
    g = make_grid("square", 4, 4)
    a1, d4, b3 = g.parse_name("A1"), g.parse_name("D4"), g.parse_name("B3")
    assert g.distance(a1, d4) == 6 and g.distance(a1, b3) == 3 and g.distance(b3, b3) == 0
    g8 = make_grid("square", 4, 4, adjacency="all")
    assert g8.distance(a1, d4) == 3 and g8.distance(a1, b3) == 2
    h = make_grid("hex", 5, 4)
    assert h.distance(h.parse_name("A1"), h.parse_name("E1")) == 4
    assert h.distance(h.parse_name("A1"), h.parse_name("A4")) == 3
    assert h.distance(h.parse_name("A1"), h.parse_name("E4")) == 5
    assert hex_distance(2, -1) == 2


def test_opposite_pairs_square():
    g = make_grid("square", 4, 4)
    b2 = g.parse_name("B2")
    assert sorted(tuple(names(g, p)) for p in g.opposite_pairs[b2]) == [("A2", "C2"), ("B1", "B3")]
    assert g.opposite_pairs[0] == ()
    assert [tuple(names(g, p)) for p in g.opposite_pairs[g.parse_name("B1")]] == [("A1", "C1")]
    g8 = make_grid("square", 4, 4, adjacency="all")
    pairs = sorted(tuple(names(g8, p)) for p in g8.opposite_pairs[b2])
    assert pairs == [("A1", "C3"), ("A2", "C2"), ("A3", "C1"), ("B1", "B3")]


def test_groups_and_border():
    g = make_grid("square", 4, 4)
    cells = cells_of(g, "A1", "B1", "D2", "D1", "C4")
    found = groups(g, cells)
    assert [names(g, grp) for grp in found] == [["A1", "B1"], ["D1", "D2"], ["C4"]]
    diag = cells_of(g, "A1", "B2")
    assert len(groups(g, diag)) == 2 and len(groups(g, diag, "surrounding")) == 1
    assert len(groups(make_grid("square", 4, 4, adjacency="all"), diag)) == 1
    assert groups(g, []) == ()
    assert names(g, border(g, cells_of(g, "A1"))) == ["A2", "B1"]
    assert names(g, border(g, cells_of(g, "A1"), "surrounding")) == ["A2", "B1", "B2"]
    assert names(g, border(g, cells_of(g, "A1", "B1"))) == ["A2", "B2", "C1"]


# ------------------------------------------------------------ hex
# A flat-odd board, 5 x 4: flat-topped hexes, columns straight, odd columns
# (B, D) shifted down by half a hex:
#
#     A1      C1      E1
#         B1      D1
#     A2      C2      E2
#         B2      D2
#     A3      C3      E3
#         B3      D3
#     A4      C4      E4
#         B4      D4
#
# C2 (even column) touches C1 and C3 above and below, and B1 B2 / D1 D2 on
# its sides; D2 (odd column) touches D1 D3, and C2 C3 / E2 E3.

def test_flat_odd_hand_drawn():
    h = make_grid("hex", 5, 4)
    assert names(h, h.neighbours[h.parse_name("C2")]) == ["B1", "B2", "C1", "C3", "D1", "D2"]
    assert names(h, h.neighbours[h.parse_name("D2")]) == ["C2", "C3", "D1", "D3", "E2", "E3"]
    assert names(h, h.neighbours[h.parse_name("A1")]) == ["A2", "B1"]
    assert names(h, h.neighbours[h.parse_name("B1")]) == ["A1", "A2", "B2", "C1", "C2"]
    c2 = h.parse_name("C2")
    assert h.orthogonal[c2] == h.surrounding[c2] == h.neighbours[c2]


def test_other_hex_layouts():
    fe = make_grid("hex", 5, 4, hex_layout="flat-even")  # even columns shifted down
    assert names(fe, fe.neighbours[fe.parse_name("C2")]) == ["B2", "B3", "C1", "C3", "D2", "D3"]
    assert names(fe, fe.neighbours[fe.parse_name("D2")]) == ["C1", "C2", "D1", "D3", "E1", "E2"]
    po = make_grid("hex", 4, 5, hex_layout="pointy-odd")  # odd rows shifted right
    assert names(po, po.neighbours[po.parse_name("B2")]) == ["A2", "B1", "B3", "C1", "C2", "C3"]
    assert names(po, po.neighbours[po.parse_name("B3")]) == ["A2", "A3", "A4", "B2", "B4", "C3"]
    pe = make_grid("hex", 4, 5, hex_layout="pointy-even")  # even rows shifted right
    assert names(pe, pe.neighbours[pe.parse_name("B2")]) == ["A1", "A2", "A3", "B1", "B3", "C2"]


def test_hex_opposite_pairs():
    h = make_grid("hex", 5, 4)
    pairs = sorted(tuple(names(h, p)) for p in h.opposite_pairs[h.parse_name("C2")])
    assert pairs == [("B1", "D2"), ("B2", "D1"), ("C1", "C3")]
    assert h.opposite_pairs[h.parse_name("A1")] == ()


def test_hex_rectangle_edge_corners_center():
    h = make_grid("hex", 4, 4)
    assert names(h, h.corners) == ["A1", "A4", "D1", "D4"]
    assert names(h, frozenset(h.cells) - h.edge) == ["B2", "B3", "C2", "C3"]
    small = make_grid("hex", 3, 3)
    assert names(small, small.center) == ["B2"]


def hexagon_board(radius, layout="flat-odd"):
    """A hexagon-shaped board of the given radius, as a masked rectangle."""
    axial = [(q, r) for q in range(-radius, radius + 1) for r in range(-radius, radius + 1)
             if abs(q + r) <= radius]
    offsets = [axial_to_offset(q, r, layout) for q, r in axial]
    mc = min(c for c, _ in offsets)
    mr = min(r for _, r in offsets)
    mc -= mc % 2  # keep column parity, so the offset layout stays valid
    mr -= mr % 2
    mask = {(c - mc, r - mr) for c, r in offsets}
    return make_grid("hex", max(c for c, _ in mask) + 1, max(r for _, r in mask) + 1,
                     mask=mask, hex_layout=layout)


@pytest.mark.parametrize("layout", HEX_LAYOUTS)
def test_hexagon_board(layout):
    h = hexagon_board(2, layout)
    assert h.size == 19
    (middle,) = h.center
    assert len(h.neighbours[middle]) == 6
    assert all(h.distance(middle, c) <= 2 for c in h.cells)
    assert h.edge == {c for c in h.cells if h.distance(middle, c) == 2}
    assert len(h.corners) == 6 and all(len(h.neighbours[c]) == 3 for c in h.corners)
    assert len(h.opposite_pairs[middle]) == 3


@pytest.mark.parametrize("layout", HEX_LAYOUTS)
def test_hex_conversions_round_trip(layout):
    for col in range(-3, 4):
        for row in range(-3, 4):
            assert axial_to_offset(*offset_to_axial(col, row, layout), layout) == (col, row)
    h = make_grid("hex", 5, 5, hex_layout=layout)
    for c in h.cells:
        assert h.from_lattice(*h.lattice(c)) == c
    assert h.from_lattice(100, 100) is None


def test_axial_rotation_and_reflection():
    v = (2, -1)
    seen = [v]
    for _ in range(5):
        seen.append(rotate_axial(*seen[-1]))
    assert rotate_axial(*seen[-1]) == v and len(set(seen)) == 6
    assert all(hex_distance(*w) == hex_distance(*v) for w in seen)
    assert reflect_axial(*reflect_axial(*v)) == v


def test_grid_is_a_cheap_key():
    a, b = make_grid("hex", 5, 4), make_grid("hex", 5, 4)
    assert a == b and hash(a) == hash(b)
    assert a != make_grid("hex", 5, 4, hex_layout="flat-even")
    assert make_grid("square", 3, 3).hex_layout is None
    assert make_grid("hex", 3, 3).adjacency == "all"


# ------------------------------------------------------------ properties
@st.composite
def grids(draw):
    kind = draw(st.sampled_from(["square", "hex"]))
    w, h = draw(st.integers(1, 6)), draw(st.integers(1, 6))
    every = [(c, r) for r in range(h) for c in range(w)]
    mask = draw(st.none() | st.sets(st.sampled_from(every), min_size=1))
    return make_grid(kind, w, h, mask=mask,
                     adjacency=draw(st.sampled_from(["orthogonal", "all"])),
                     hex_layout=draw(st.sampled_from(HEX_LAYOUTS)))


@settings(max_examples=60, deadline=None)
@given(grids())
def test_grid_invariants(g):
    for c in g.cells:
        assert g.at(g.col(c), g.row(c)) == c
        assert g.parse_name(g.name(c).lower()) == c
        assert g.from_lattice(*g.lattice(c)) == c
        assert c in g.row_cells[c] and c in g.column_cells[c]
        for n in g.neighbours[c]:
            assert c in g.neighbours[n] and g.distance(c, n) == 1
        for a, b in g.opposite_pairs[c]:
            assert g.distance(a, b) == 2 and a in g.surrounding[c] and b in g.surrounding[c]
    parts = groups(g, g.cells)
    assert sorted(c for p in parts for c in p) == list(g.cells)
    assert [min(p) for p in parts] == sorted(min(p) for p in parts)
    assert g.center and g.center <= frozenset(g.cells)
    assert not border(g, g.cells)
