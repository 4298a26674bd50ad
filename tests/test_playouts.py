"""Playouts make their moves in place: what a simulation relies on.

`flow.apply_in_place` makes a listed move on the state itself, and gives
the same game as `apply` (which copies): same states move after move, same
final scores. A move whose effect may stop to ask a choice, there or in a
trigger it sets off, is made on a copy, so the state before it is kept to
ask it. `play_out` leaves the state it is given as it was.
"""

from __future__ import annotations

import random

import pytest

from boardrule.dsl.diagnostics import IllegalMoveError
from boardrule.dsl.pack import load_pack_text
from boardrule.interpreter.runtime import flow
from boardrule.interpreter.agents import make_agent, play_out
from boardrule.interpreter.api import new_game, open_game
from boardrule.interpreter.compiler.game import compile_game
from boardrule.interpreter.runtime.moves import Move
from boardrule.interpreter.records.serialize import state_to_json

# `ring` sets off `rung`, whose listener sets off `echoed`, whose listener asks.
TRIGGERS = """\
game: {id: asks, players: 1..2}
board: {grid: square 2 x 2}
pieces:
  stone: {symbol: S}
  bell:
    symbol: B
    triggers:
      rung: |
        emit echoed
  horn:
    symbol: H
    triggers:
      echoed: |
        choose c from cells where empty { place stone at c }
      PLACED_LISTENER
actions:
  plant:
    effect: |
      place bell at cell("A1")
  ring:
    effect: |
      emit rung
  put:
    params: {c: cells where empty}
    effect: |
      place stone at c
flow:
  setup:
    - do: |
        place bell at cell("A1")
        place horn at cell("B1")
  round:
    - turns: [ring, put, plant]
  end: round > 3
"""


def triggers_game(placed_listener: str = ""):
    text = TRIGGERS.replace("PLACED_LISTENER", placed_listener)
    return compile_game(load_pack_text(text, "asks.pack"))


def test_an_action_may_ask_through_the_triggers_it_sets_off():
    game = triggers_game()
    assert game.actions["ring"].may_ask  # rung -> echoed -> choose
    assert not game.actions["put"].may_ask  # nobody listens to `placed`


def test_placing_may_ask_when_a_placed_listener_asks():
    game = triggers_game("placed: |\n        if event.cell != self { choose d from cells where empty { place stone at d } }")
    assert game.actions["put"].may_ask
    assert game.actions["plant"].may_ask


def test_a_move_that_asks_is_asked_on_a_copy():
    game = triggers_game()
    state = new_game(game, players=1, seed=1)
    before = state_to_json(game, state)
    ring = next(m for m in flow.legal_moves(game, state, 0) if m.action == "ring")
    asking = flow.apply_in_place(game, state, ring)
    assert asking is not state and asking.pending[0].choice is not None
    assert state_to_json(game, state) == before
    answer = flow.legal_moves(game, asking, 0)[0]
    assert state_to_json(game, flow.apply_in_place(game, asking, answer)) == \
        state_to_json(game, flow.apply(game, asking, answer))


def _same_game_both_ways(game, players, seed):
    copied = new_game(game, players=players, seed=seed)
    in_place = copied.clone()
    rng = random.Random(seed)
    moves = 0
    while copied.phase != "over":
        for waiting in flow.waiting(copied):  # what each seat may do now, as a table shows it
            assert flow.legal_moves(game, in_place, waiting) == flow.legal_moves(game, copied, waiting)
        seat = flow.waiting(copied)[0]
        listed = flow.legal_moves(game, copied, seat)
        pick = rng.randrange(len(listed))
        copied = flow.apply(game, copied, listed[pick])
        in_place = flow.apply_in_place(game, in_place, flow.legal_moves(game, in_place, seat)[pick])
        assert state_to_json(game, in_place) == state_to_json(game, copied), f"differs after move {moves}"
        moves += 1
    assert in_place.phase == "over"
    return moves


@pytest.mark.parametrize("pack", ["tinytowns", "townies", "villagers", "connect4", "tictactoe"])
def test_moves_made_in_place_give_the_states_apply_gives(pack):
    game = open_game(pack)
    low, high = game.players_range
    for players, seed in ((low, 3), (high, 4)):
        assert _same_game_both_ways(game, players, seed) > 0


def test_play_out_leaves_the_state_it_is_given_as_it_was():
    game = open_game("tinytowns")
    state = new_game(game, players=2, seed=5)
    before = state_to_json(game, state)
    agents = {seat: make_agent("random", seed=seat) for seat in state.players}
    final = play_out(game, state, agents)
    assert final.phase == "over"
    assert state_to_json(game, state) == before


def test_a_simultaneous_step_hides_moves_only_when_there_are_others():
    game = open_game("tinytowns")  # places and builds are made by all at once
    assert new_game(game, players=2, seed=1).snapshot is not None
    assert new_game(game, players=1, seed=1).snapshot is None


SHARED = """\
game: {id: shared, players: 2}
board: {grid: square 2 x 2, shared: true}
pieces:
  stone: {symbol: S}
actions:
  put:
    params: {c: cells where empty}
    effect: place stone at c
flow:
  round:
    - together: [put]
  end: round > 1
"""


def test_a_move_made_in_place_changes_what_the_others_may_do():
    game = compile_game(load_pack_text(SHARED, "shared.pack"))
    state = new_game(game, players=2, seed=1)
    assert len(flow.legal_moves(game, state, 1)) == 4  # listed before seat 0 moves
    state = flow.apply_in_place(game, state, flow.legal_moves(game, state, 0)[0])
    assert len(flow.legal_moves(game, state, 1)) == 3


def test_play_out_judges_a_move_the_agent_was_not_given():
    game = open_game("tictactoe")
    state = new_game(game, players=2, seed=1)
    taken = flow.legal_moves(game, state, 0)[0]

    def stubborn(game, state, seat, moves):  # plays the first square again and again
        return Move(seat, taken.action, taken.args)

    with pytest.raises(IllegalMoveError):
        play_out(game, state, {0: stubborn, 1: stubborn})
    equal_copies = {seat: (lambda g, s, seat, moves: Move(seat, moves[0].action, moves[0].args)) for seat in (0, 1)}
    assert play_out(game, state, equal_copies).phase == "over"  # equal to a listed move: played
