"""`to_move`: the player whose decision is open now (none when no decision is open or several players decide
at once; once the game is over, the one whose decision was open when it ended), and `end` judged as a player
with no legal move passes, so that `end:` can say "the player to move cannot move"."""

from __future__ import annotations

import pytest

from boardrule.dsl.pack import load_pack_text
from boardrule.dsl.resolution import Value
from boardrule.interpreter import api
from boardrule.interpreter.compiler import exprs, reference
from boardrule.interpreter.compiler.game import compile_game
from boardrule.interpreter.records.serialize import state_from_json, state_to_json, states_equal
from boardrule.interpreter.runtime import flow
from boardrule.interpreter.runtime.outcome import outcome
from boardrule.interpreter.runtime.values import PLAYERS

BLOCKED = """\
game: {id: stuck, name: Stuck, players: 2}
board: {grid: square 5 x 1, shared: true}
pieces:
  stone: {symbol: S}
vars:
  placed_by: none
  in_do: none
actions:
  place:
    params: {cell: "cells where empty and none(adjacent, occupied)"}
    effect: |
      place stone at cell
      set placed_by = to_move
flow:
  round:
    - turns: [place]
    - do: set in_do = to_move
  end: to_move != none and not can(to_move, place)
scoring:
  stuck: if to_move == me then 0 else 1
"""

TOGETHER = """\
game: {id: both, name: Both, players: 2}
board: {grid: square 3 x 1}
pieces:
  stone: {symbol: S}
actions:
  place:
    params: {cell: cells where empty}
    effect: place stone at cell
flow:
  round:
    - together: [place]
    - turns: [place]
  end: none(cells, empty)
"""


def game_of(text, name="stuck.pack"):
    return compile_game(load_pack_text(text, name))


def play(game, moves, players=2):
    state = flow.initial_state(game, players, seed=0)
    for seat, text in moves:
        state = flow.play_text(game, state, seat, text)
    return state


def to_move(game, state):
    """`to_move` three ways: the generated code, the closures, the reference evaluator."""
    generated = api.evaluate(game, state, "to_move")[0]
    exprs.GENERATE = False
    try:
        closures = api.evaluate(game, state, "to_move")[0]
    finally:
        exprs.GENERATE = True
    node = game.pack.checked.resolved and next(n for n, r in game.pack.checked.resolved.items()
                                                if r == Value("to_move"))
    expected = reference.evaluate(game, node, game.ctx(state, me=PLAYERS[0]))
    assert generated == closures == expected
    return generated


def test_the_player_whose_decision_is_open_is_to_move_and_none_in_a_do_step():
    game = game_of(BLOCKED)
    state = play(game, [])
    assert to_move(game, state) == PLAYERS[0]
    state = play(game, [(0, "place A1")])
    assert to_move(game, state) == PLAYERS[1]
    assert state.vars["placed_by"] == PLAYERS[0]  # inside the move's effect: its mover
    state = play(game, [(0, "place A1"), (1, "place E1")])
    assert state.vars["in_do"] is None and to_move(game, state) == PLAYERS[0]


def test_the_game_ends_as_the_player_to_move_who_cannot_move_passes():
    game = game_of(BLOCKED)
    state = play(game, [(0, "place A1"), (1, "place C1")])
    assert state.phase == "round"
    state = play(game, [(0, "place A1"), (1, "place C1"), (0, "place E1")])  # P2 has no empty square left
    assert state.phase == "over" and state.log[-1] == ["pass", 1]
    assert to_move(game, state) == PLAYERS[1]  # still the one who could not move, once it is over
    assert tuple(outcome(game, state).winners) == (0,)


def test_without_to_move_a_player_who_cannot_move_still_passes_and_play_goes_on():
    game = game_of(BLOCKED.replace("to_move != none and not can(to_move, place)", "round > 3")
                   .replace("set placed_by = to_move", "set placed_by = me")
                   .replace("set in_do = to_move", "set in_do = none")
                   .replace("if to_move == me then 0 else 1", "0"))
    state = play(game, [(0, "place A1"), (1, "place C1"), (0, "place E1")])
    # P2 passes, and so does everyone after, round after round, until `round > 3` holds
    assert state.log[3:] == [["pass", 1], ["pass", 0], ["pass", 1], ["pass", 0]] and state.round == 4
    assert state.to_move_at_end is None  # the pack does not read `to_move`: the state does not keep it


def test_several_players_deciding_at_once_leave_no_one_to_move():
    game = game_of(TOGETHER, "both.pack")
    state = play(game, [])
    assert sorted(state.pending) == [0, 1] and to_move(game, state) is None
    state = play(game, [(0, "place A1")])
    assert to_move(game, state) == PLAYERS[1]


def test_who_was_to_move_at_the_end_is_saved_and_loaded_only_for_a_pack_that_reads_it():
    game = game_of(BLOCKED)
    over = play(game, [(0, "place A1"), (1, "place C1"), (0, "place E1")])
    saved = state_to_json(game, over)
    assert saved["state"]["to_move_at_end"] == 1
    assert states_equal(state_from_json(game, saved), over)
    running = state_to_json(game, play(game, [(0, "place A1")]))
    assert "to_move_at_end" not in running["state"]  # left out at its default: older saves load as they were
    assert state_from_json(game, running).to_move_at_end is None
    other = game_of(TOGETHER, "both.pack")
    assert "to_move_at_end" not in state_to_json(other, play(other, [(0, "place A1"), (1, "place B1"),
                                                                     (0, "place C1")]))["state"]


def test_a_seat_that_is_none_of_the_games_is_refused_in_a_save():
    from boardrule.dsl.diagnostics import SaveError
    game = game_of(BLOCKED)
    saved = state_to_json(game, play(game, [(0, "place A1"), (1, "place C1"), (0, "place E1")]))
    saved["state"]["to_move_at_end"] = 7
    with pytest.raises(SaveError, match="to_move_at_end"):
        state_from_json(game, saved)


def test_a_list_of_players_holding_none_gives_no_decision_to_none():
    # `who: [holder]` before anyone holds the role: once an internal error (int(None))
    text = TOGETHER.replace("    - turns: [place]\n", "    - turns: [place]\n      who: \"[holder, players[1]]\"\n")
    game = game_of(text.replace("actions:", "vars:\n  holder: none\nactions:"), "both.pack")
    state = play(game, [(0, "place A1"), (1, "place B1")])
    assert flow.waiting(state) == [1]
