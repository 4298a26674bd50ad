"""An action's generated lister (interpreter/compiler/codegen_listing.py) lists what the closure lister
lists, in the same order, spends the same work budget and judges `when:` at the same points."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from boardrule.dsl.pack import load_pack_text
from boardrule.interpreter.api import open_game
from boardrule.interpreter.compiler import game as game_module
from boardrule.interpreter.compiler.game import compile_game
from boardrule.interpreter.runtime import flow
from boardrule.interpreter.runtime.budget import Meter

HERE = Path(__file__).parent
PACKS = ["tictactoe", "connect4", "tinytowns", "townies", "villagers",
         *(str(p) for p in sorted((HERE / "packs").glob("*.pack"))),
         *(str(HERE / "suite" / f"{name}.pack") for name in ("breakthrough", "amazons", "kingdom", "crossing", "gomoku"))]


def _both(opener):
    game = opener()
    game_module.GENERATE_LISTERS = False
    try:
        closures = opener()
    finally:
        game_module.GENERATE_LISTERS = True
    return game, closures


def _spent_listing(game, state, seat):
    state.moves_cache.clear()
    before = state.meter.spent()
    moves = flow.legal_moves(game, state, seat)
    return moves, state.meter.spent() - before


@pytest.mark.parametrize("pack", PACKS)
def test_the_generated_lister_lists_and_spends_as_the_closure_lister(pack):
    game, closures = _both(lambda: open_game(pack))
    assert all(a.lister is not None for a in game.actions.values() if a.params)
    assert all(a.lister is None for a in closures.actions.values())  # built on first use, as closures
    states = [flow.initial_state(g, game.players_range[0], seed=3, meter=Meter(operation=10 ** 9, game=10 ** 12))
              for g in (game, closures)]
    chooser = random.Random(3)
    for _ in range(40):
        if states[0].phase == "over":
            break
        seat = flow.waiting(states[0])[0]
        (mine, spent), (theirs, their_spent) = (_spent_listing(g, s, seat) for g, s in zip((game, closures), states))
        assert [m.args for m in mine] == [m.args for m in theirs]
        assert spent == their_spent
        pick = chooser.randrange(len(mine))
        states = [flow.apply(g, s, flow.legal_moves(g, s, seat)[pick]) for g, s in zip((game, closures), states)]


STAGES = """\
game: {id: stages, players: 1}
board: {grid: square 4 x 4}
pieces: {stone: {symbol: S}}
vars: {limit: 3}
define:
  near(c, d): count(surrounding(c) where occupied) + d
actions:
  put:
    params:
      first: {in: cells where empty}
      second: {in: cells where empty and it != first}
      steps: {in: "1..3"}
    when: WHEN
    effect: |
      place stone at first
flow: {round: [{turns: [put]}], end: "count(cells where empty) < 4"}
"""

WHENS = {
    "before any parameter": "limit > 2",
    "after the first": "near(first, 0) < 2",
    "after the second": "near(first, 0) + near(second, 0) < 3",
    "per move": "near(second, steps) < 3",
}


@pytest.mark.parametrize("when", WHENS.values(), ids=WHENS.keys())
def test_when_is_judged_where_it_can_be_in_both_listers(when):
    text = STAGES.replace("WHEN", when)
    game, closures = _both(lambda: compile_game(load_pack_text(text, "stages.pack")))
    state = flow.initial_state(game, 1, seed=0)
    state = flow.apply(game, state, flow.legal_moves(game, state, 0)[5])
    their_state = flow.initial_state(closures, 1, seed=0)
    their_state = flow.apply(closures, their_state, flow.legal_moves(closures, their_state, 0)[5])
    (mine, spent), (theirs, their_spent) = (_spent_listing(game, state, 0), _spent_listing(closures, their_state, 0))
    assert [m.args for m in mine] == [m.args for m in theirs] and mine
    assert spent == their_spent
