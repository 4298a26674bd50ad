"""Boards as bitmasks (runtime/state.py `kind_masks`, interpreter/compiler/codegen_masks.py): the masks
follow every change of a board, and a rule asked through them answers, and charges the work budget,
as its list form does."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from boardrule.dsl.loader import load_yaml_text
from boardrule.dsl.pack import load_pack_text
from boardrule.interpreter.agents import make_agent
from boardrule.interpreter.api import evaluate, new_game, open_game
from boardrule.interpreter.compiler import exprs
from boardrule.interpreter.compiler.codegen_masks import MaskGeneration
from boardrule.interpreter.compiler.game import compile_game
from boardrule.interpreter.records.positions import apply_position
from boardrule.interpreter.runtime import flow
from boardrule.interpreter.runtime.moves import move_text
from boardrule.interpreter.runtime.budget import Meter
from boardrule.interpreter.runtime.state import forget_masks, kind_masks
from boardrule.interpreter.runtime.views import view as view_for

HERE = Path(__file__).parent
PACKS = (["tictactoe", "connect4", "tinytowns", "townies", "villagers"]
         + [str(p) for p in sorted((HERE / "packs").glob("*.pack"))]
         + [str(p) for p in sorted((HERE / "suite").glob("*.pack"))])


def _fresh_masks(state):
    """The masks built from the boards' kinds alone."""
    masks = []
    for kinds in state.kind:
        board = {}
        for index, kind in enumerate(kinds):
            board[kind] = board.get(kind, 0) | 1 << index
        masks.append(board)
    return masks


def _same(kept, fresh):
    return [{k: m for k, m in board.items() if m} for board in kept] == fresh


@pytest.mark.parametrize("pack", PACKS)
def test_the_masks_follow_every_move_of_a_game(pack):
    game = open_game(pack)
    low, high = game.players_range
    state = new_game(game, players=min(max(low, 2), high), seed=3)  # two boards where each player has one
    agents = {seat: make_agent("random", seed=seat) for seat in state.players}
    for _ in range(60 if "suite" in pack else 200):
        if state.phase == "over":
            break
        for board in range(len(state.kind)):
            kind_masks(state, board)  # asked every move, so that every change after is kept, not rebuilt
        seat = flow.waiting(state)[0]
        state = flow.apply(game, state, agents[seat](game, state, seat, flow.legal_moves(game, state, seat)))
        assert state.masks is not None and _same(state.masks, _fresh_masks(state))
        seen = view_for(game, state, seat)
        assert seen.masks is None or _same(seen.masks, _fresh_masks(seen))


def test_a_position_laid_on_a_board_keeps_the_masks_true():
    game = open_game("connect4")
    state = new_game(game, players=2)
    kind_masks(state, 0)
    flow.apply(game, state, flow.parse_move(game, state, 0, "drop A6"))
    kind_masks(state, 0)
    apply_position(game, state, load_yaml_text("board: |\n  R . . . . . .\n  Y . . . . . .\n  R . . . . . .\n"
                                               "  Y . . . . . .\n  R . . . . . .\n  Y . . . . . Y\n", "p.yaml"))
    assert _same(state.masks, _fresh_masks(state))


KINDS = """\
game: {id: kinds, players: 2}
board: {grid: square 5 x 4, shared: true}
pieces:
  cross: {symbol: X, tall: true}
  ring: {symbol: O}
  wall: {symbol: W, tall: true}
shapes:
  line: {art: X X X, symmetry: all}
  corner: {art: "X X / X .", symmetry: all}
player_vars:
  mark: {per_seat: [cross, ring]}
  likes: {per_seat: ["true", "false"]}
define:
  mine(p): cells where kind == p.mark
actions:
  put:
    params: {k: "[cross, ring, wall]", c: cells where empty}
    effect: place k at c
flow: {round: [{turns: [put]}], end: "none(cells, empty)"}
"""

QUESTIONS = [
    "fits(line, cells where kind == cross)", "fits(line, cells where kind == mark)",
    "fits(corner, cells where empty or kind == ring)", "fits(line, cells where not (kind == ring))",
    "fits(line, cells where kind != cross and occupied)", "fits(corner, cells where kind in [cross, wall])",
    "fits(line, cells where tall)", "fits(line, mine(me))", "fits(corner, me.cells where kind == cross)",
    "fits(line, cells where kind == none)", "any(fits(line, mine(p)) for p in players)",
    "count(cells where kind == cross)", "count(cells, empty or tall)", "any(cells where kind == mark and y > 1)",
    "none(cells, occupied and x + y < 3)", "count(mine(me))",
    "count(none(column(c) where empty and y > c.y) for c in cells)",
    "count(any(adjacent(c) where kind == ring and x != c.x) for c in cells)",
    "sum(count(row(c) where occupied and not (x <= c.x)) for c in cells)",
    "count(count(surrounding(c), kind == cross or order > 7) > 2 for c in cells)",
    "count(cells where tall == likes)", "any(cells where tall != likes and occupied)",
    "sum(count(cells where tall == p.likes) for p in players)",
]
# a board large enough for its cells where a condition holds to be listed from its mask
LARGE = KINDS.replace("square 5 x 4", "square 8 x 5")
QUESTIONS_LARGE = ["cells where empty", "cells where kind == mark", "cells where not (kind == ring) and y > 1",
                   "cells where tall or kind == none", "mine(me)", "[c.x for c in cells where kind in [ring, wall]]",
                   "cells where kind in [cross, ring, wall]"]
# next to a cell where a kind condition holds, read from the masks of the table's cells; the work is
# charged by budget.py's rule for lists (the board's cells times the condition's weight, and the neighbour
# test's table size times its weight for each cell where the conditions before it hold), which is what the
# generated list form charges where the pack compiled to one before (True: compared), a closure otherwise
QUESTIONS_NEAR = [("cells where empty and any(adjacent, kind == mark)", True),
                  ("count(cells where any(adjacent, kind == mark))", True),
                  ("cells where any(surrounding, kind in [ring, wall]) and occupied", False),
                  ("cells where empty and any(adjacent, not (kind == cross))", False),
                  ("count(cells where occupied and any(surrounding, kind == cross) and any(adjacent, empty))", False),
                  ("any(cells where empty and any(adjacent, kind == ring and not tall))", False),
                  ("none(cells, tall and any(surrounding, kind == mark))", False)]


# each player with a board of their own: `me.cells` and `p.cells` are the masks of another board
OWN_BOARDS = KINDS.replace("shared: true", "shared: false")
QUESTIONS_OWN_BOARDS = ["count(me.cells where kind == ring)", "fits(line, me.cells where occupied)",
                        "me.cells where occupied", "[p.cells where kind == p.mark for p in players]",
                        "sum(count(p.cells where kind == p.mark or kind == wall) for p in players)",
                        "any(fits(corner, p.cells where not empty) for p in players)"]


def _games(text=KINDS):
    game = compile_game(load_pack_text(text, "kinds.pack"))
    exprs.GENERATE = False
    try:
        closures = compile_game(load_pack_text(text, "kinds.pack"))
    finally:
        exprs.GENERATE = True
    return game, closures


@pytest.mark.parametrize("question, text", [(q, KINDS) for q in QUESTIONS]
                         + [(q, OWN_BOARDS) for q in QUESTIONS_OWN_BOARDS]
                         + [(q, t) for q in QUESTIONS_LARGE for t in (LARGE, KINDS)]
                         + [(q, LARGE.replace("shared: true", "shared: false")) for q in QUESTIONS_OWN_BOARDS])
def test_a_rule_asked_through_the_masks_answers_and_charges_as_its_list_form(question, text):
    game, closures = _games(text)
    chooser = random.Random(question)
    for _ in range(12):
        states = [flow.initial_state(g, 2, seed=1, meter=Meter(operation=10 ** 9, game=10 ** 12))
                  for g in (game, closures)]
        for _ in range(chooser.randrange(20)):
            seat = flow.waiting(states[0])[0]
            pick = chooser.randrange(len(flow.legal_moves(game, states[0], seat)))
            states = [flow.apply(g, s, flow.legal_moves(g, s, seat)[pick]) for g, s in zip((game, closures), states)]
        answers, spent = [], []
        for g, s in zip((game, closures), states):
            before = s.meter.left
            answers.append(evaluate(g, s, question, seat=1)[0])
            spent.append(before - s.meter.left)
        assert answers[0] == answers[1], question
        assert spent[0] == spent[1], question


@pytest.mark.parametrize("question, same_charge", QUESTIONS_NEAR)
@pytest.mark.parametrize("text", [LARGE, KINDS])
def test_next_to_a_kind_answers_and_charges_as_its_generated_list_form(question, same_charge, text, monkeypatch):
    game = compile_game(load_pack_text(text, "kinds.pack"))
    chooser = random.Random(question)
    for _ in range(12):
        state = flow.initial_state(game, 2, seed=1, meter=Meter(operation=10 ** 9, game=10 ** 12))
        for _ in range(chooser.randrange(30)):
            if state.phase == "over":
                break
            seat = flow.waiting(state)[0]
            moves = flow.legal_moves(game, state, seat)
            state = flow.apply(game, state, moves[chooser.randrange(len(moves))])
        answers = []
        for near in (True, False):
            if not near:  # the neighbour test asked per cell, as the list form asks it
                monkeypatch.setattr(MaskGeneration, "near_mask", lambda self, node, masks: None)
            before = state.meter.left
            answers.append((evaluate(game, state, question, seat=1)[0], before - state.meter.left))
            monkeypatch.undo()
        assert answers[0][0] == answers[1][0], question
        if same_charge:
            assert answers[0][1] == answers[1][1], question


def test_next_to_a_kind_is_read_from_the_masks():
    game, _ = _games(LARGE)
    state = new_game(game, players=2)
    forget_masks(state)
    evaluate(game, state, "cells where empty and any(adjacent, kind == cross)")
    assert state.masks is not None  # (the list form builds no masks: this fails without the mask form)


def test_a_rule_reads_the_masks_when_it_asks_a_shape_of_a_kind():
    game, _ = _games()
    state = new_game(game, players=2)
    forget_masks(state)  # (listing the first moves, `cells where empty`, read them already)
    assert state.masks is None
    evaluate(game, state, "fits(line, cells where kind == cross)")
    assert state.masks is not None  # (the list form builds no masks: this fails without the mask form)


def test_a_large_boards_cells_where_a_kind_condition_holds_are_listed_from_its_mask():
    game, _ = _games(LARGE)
    state = new_game(game, players=2)
    forget_masks(state)
    assert evaluate(game, state, "cells where kind == none")[0] == tuple(range(40))
    assert state.masks is not None  # (the list form builds no masks: this fails without the mask form)
    small, _ = _games()
    state = new_game(small, players=2)
    forget_masks(state)
    evaluate(small, state, "cells where kind == none")
    assert state.masks is None  # a small board's list form costs as little


def test_a_condition_of_many_kinds_is_listed_cell_by_cell():
    many = LARGE.replace("  wall: {symbol: W, tall: true}\n", "".join(
        f"  k{n}: {{symbol: {chr(65 + n)}}}\n" for n in range(6)) + "  wall: {symbol: W, tall: true}\n")
    game, _ = _games(many)
    state = new_game(game, players=2)
    forget_masks(state)
    assert evaluate(game, state, "cells where kind in [k0, k1, k2, k3, k4]")[0] == ()
    assert state.masks is None  # five kinds' masks cost more than one test per cell
    evaluate(game, state, "cells where kind in [k0, k1, k2, k3]")
    assert state.masks is not None


def test_a_board_set_from_outside_is_read_afresh_once_settled():
    game = open_game(str(HERE / "suite" / "gomoku.pack"))
    state = new_game(game, players=2)
    assert len(flow.legal_moves(game, state, 0)) == 225  # (listed from the masks of the empty board)
    state.kind[0] = ["black"] * 223 + [None, None]  # written past set_kind, as a test's position may be
    flow.settle(game, state)
    assert [move_text(m, game) for m in flow.legal_moves(game, state, 0)] == ["play N15", "play O15"]


def test_every_change_of_a_cells_kind_goes_through_set_kind():
    # a write of `state.kind[board][cell]` past `set_kind` would leave the masks a rule reads untrue
    import re
    root = HERE.parent
    write = re.compile(r"\.kind\[[^\]]+\]\[[^\]]+\]\s*=[^=]")
    found = [f"{path.relative_to(root)}:{number}" for folder in ("interpreter", "cli", "dsl")
             for path in sorted((root / folder).rglob("*.py"))
             for number, line in enumerate(path.read_text().splitlines(), 1) if write.search(line)]
    assert found == []


@pytest.mark.parametrize("seed", range(40))
def test_a_kind_test_as_a_mask_holds_on_the_cells_it_holds_on_one_by_one(seed):
    # the neighbour filters (fastpaths._next_to_mask) judge a whole board as one mask: the same cells
    # as the test judged on each cell, for kind sets in and outside, with pieces that set the attribute
    from boardrule.interpreter.compiler.fastpaths import KindTest
    from boardrule.interpreter.runtime.state import _masks_of
    rng = random.Random(seed)
    kinds = [rng.choice([None, None, "a", "b", "c"]) for _ in range(rng.randrange(1, 30))]
    attrs = {i: {"tone": rng.choice(["red", "blue"])} if rng.random() < 0.7 else {}
             for i in range(len(kinds)) if rng.random() < 0.4}
    members = frozenset(rng.sample([None, "a", "b", "c"], rng.randrange(0, 4)))
    attribute = rng.choice([None, "tone"])
    test = KindTest(members, rng.random() < 0.5, attribute, "red" if attribute else None)
    expected = sum(1 << i for i, kind in enumerate(kinds) if test(kind, attrs.get(i)))
    assert test.mask(_masks_of(kinds), kinds, attrs) == expected


def test_a_neighbour_table_reaching_another_board_is_not_made_a_mask():
    # the masks are of one board: a table relating cells of two boards keeps the cell-by-cell filter
    from boardrule.interpreter.compiler.fastpaths import _neighbour_masks
    from boardrule.interpreter.runtime.values import CELL_BITS
    assert _neighbour_masks({0: frozenset({1, 2}), 1: frozenset()}) == {0: 0b110, 1: 0}
    assert _neighbour_masks([frozenset({1}), frozenset({0})]) == [0b10, 0b01]
    assert _neighbour_masks({0: frozenset({1 << CELL_BITS | 3})}) is None
