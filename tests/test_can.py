"""`can(p, ACTION)`: whether a player has a legal move of an action, said once in `end:` and `when:`."""

from __future__ import annotations

import pytest

from boardrule.dsl.diagnostics import PackError
from boardrule.dsl.pack import load_pack_text
from boardrule.interpreter.runtime import flow
from boardrule.interpreter.compiler.game import compile_game
from boardrule.interpreter.runtime.values import RuleError

PACK = """\
game: {{id: probe, name: Probe, players: 2}}
board: {{grid: square 3 x 1, shared: true}}
pieces:
  stone: {{symbol: S}}
actions:
  place:
    params:
      cell: cells where empty
    when: {place_when}
    effect: place stone at cell
  wait:
    when: {wait_when}
    effect: score 0
flow:
  round:
    - turns: [place, wait]
  end: {end}
"""


def game_of(place_when='"true"', wait_when="not can(me, place)", end="none(players, can(it, place))"):
    return compile_game(load_pack_text(PACK.format(place_when=place_when, wait_when=wait_when, end=end), "probe.pack"))


def codes(text_error) -> set:
    return {d.code for d in text_error.value.diagnostics}


def test_a_player_may_wait_only_when_they_cannot_place_and_nobody_placing_ends_the_game():
    game = game_of()
    state = flow.initial_state(game, 2, seed=0)
    assert [m.action for m in flow.legal_moves(game, state, 0)] == ["place"] * 3
    for text in ("place A1", "place B1"):
        state = flow.play_text(game, state, flow.waiting(state)[0], text)
    assert state.phase != "over"
    state = flow.play_text(game, state, 0, "place C1")
    assert state.phase == "over"  # the board is full: nobody can place


def test_can_reads_the_actions_when_and_its_parameters():
    game = game_of(place_when="count(cells where occupied) < 1")
    state = flow.play_text(game, flow.initial_state(game, 2, seed=0), 0, "place A1")
    assert state.phase == "over"  # place's `when:` now fails for both, though cells are empty


def test_an_action_asking_can_of_itself_is_refused_by_the_checker():
    with pytest.raises(PackError) as err:
        game_of(place_when="can(me, place)")
    assert "E241" in codes(err)


def test_the_second_argument_is_an_action_and_there_are_two():
    with pytest.raises(PackError) as err:
        game_of(end="none(players, can(it, stone))")
    assert "E210" in codes(err) and "`place`" in str(err.value)
    with pytest.raises(PackError) as err:
        game_of(end="can(players[0])")
    assert "E220" in codes(err)


def test_two_actions_asking_each_other_are_refused_by_the_checker():
    with pytest.raises(PackError) as err:
        game_of(place_when="not can(me, wait)", wait_when="not can(me, place)")
    assert codes(err) == {"E241"} and "ask `can` of each other" in str(err.value)


def test_a_loop_the_checker_cannot_see_stops_in_play_with_an_error_naming_the_action(monkeypatch):
    from boardrule.dsl import check_sections
    monkeypatch.setattr(check_sections, "_check_can_cycles", lambda *args: None)  # as if it slipped through
    game = game_of(place_when="not can(me, wait)", wait_when="not can(me, place)", end='"false"')
    with pytest.raises(RuleError, match="`can\\(..., (place|wait)\\)` asks itself"):
        flow.legal_moves(game, flow.initial_state(game, 2, seed=0), 0)  # the first decision is opened


def test_can_agrees_with_the_listed_moves_through_whole_games():
    # `can` of a one-parameter action whose values are a filter stops at the first value that passes
    # (flow._first_value_passes): it must say what listing the moves says, position after position
    import random
    from pathlib import Path

    from boardrule.dsl.pack import load_pack
    game = compile_game(load_pack(str(Path(__file__).parent / "packs" / "flank.pack")))
    assert game.actions["place"].filtered is not None
    rng = random.Random(3)
    checked = 0
    for seed in range(4):
        state = flow.initial_state(game, 2, seed=seed)
        while state.phase != "over":
            for seat in state.players:
                listed = flow.action_moves(game, state, seat, game.actions["place"])
                assert flow.can_move(game, state, seat, "place") == bool(listed)
                checked += 1
            seat = flow.waiting(state)[0]
            state = flow.apply(game, state, rng.choice(flow.legal_moves(game, state, seat)))
    assert checked > 100
