"""What a player's screen says of the game: the pack's `status:` and `player_status:`, labelled in its
words; the variables as they are for `debug`; the final score once the game is over."""

from __future__ import annotations

import random

import pytest

from boardrule.dsl.diagnostics import PackError
from boardrule.dsl.pack import load_pack_text
from boardrule.interpreter import api
from boardrule.interpreter.runtime import flow
from boardrule.interpreter.runtime import picture as pictures
from boardrule.interpreter.compiler.game import compile_game

PACK = """
game: {id: secrets, players: 2}
board: {grid: square 2 x 2}
pieces:
  stone: {symbol: S}
player_vars:
  secret: {per_seat: [3, 5], private: true}
  stones: 0
vars:
  turns: 0
actions:
  put:
    params: {cell: cells where empty}
    effect: |
      place stone at cell
      set me.stones = me.stones + 1
      set turns = turns + 1
flow:
  round:
    - turns: [put]
  end: count(cells where empty) == 0
scoring:
  stones: me.stones
  secret bonus: SECRET_TERM
status:
  moves made: turns
player_status:
  stones placed: me.stones
  bonus card: me.secret
  score so far: me.score
"""


def secrets(secret_term="me.secret"):
    game = compile_game(load_pack_text(PACK.replace("SECRET_TERM", secret_term), "secrets.pack"))
    return game, flow.initial_state(game, 2, seed=1)


def play_out(game, state, seed=0):
    rng = random.Random(seed)
    while state.phase != "over":
        seat = flow.waiting(state)[0]
        state = flow.apply(game, state, rng.choice(flow.legal_moves(game, state, seat)))
    return state


def test_the_screen_shows_the_declared_values_in_the_packs_words():
    game, state = secrets()
    notes = pictures.notes(game, state, viewer=0)
    assert "moves made 0" in notes
    assert "P1: stones placed 0, bonus card 3, score so far 3" in notes
    assert not any("turns" in line or "secret" in line for line in notes)


def test_debug_shows_the_variables_as_they_are():
    game, state = secrets()
    notes = pictures.notes(game, state, viewer=0, raw=True)
    assert "turns 0" in notes
    assert any(line.startswith("P1: secret 3, stones 0") for line in notes)


def test_a_value_read_from_a_secret_is_shown_to_its_player_only():
    game, state = secrets()
    notes = pictures.notes(game, pictures_view(game, state, 0), viewer=0)
    assert "P2: stones placed 0" in notes  # neither the card nor a score worked out from it
    assert "P1: stones placed 0, bonus card 3, score so far 3" in notes


def test_a_score_that_reads_no_secret_is_shown_to_all():
    game, state = secrets(secret_term="0")
    notes = pictures.notes(game, pictures_view(game, state, 0), viewer=0)
    assert "P2: stones placed 0, score so far 0" in notes


def test_a_finished_game_is_captioned_with_its_final_scores():
    game, state = secrets()
    state = play_out(game, state)
    notes = pictures.notes(game, state)
    totals = [game.score_total(state, seat) for seat in state.players]
    assert notes[0].endswith("game over")
    for seat, total in zip(state.players, totals):
        line = next(n for n in notes if n.startswith(f"P{seat + 1}: "))
        assert line.endswith(f"final score {total}") and "so far" not in line


def test_a_finished_townies_game_says_its_final_score_not_the_points_so_far():
    game = api.open_game("townies")
    state = play_out(game, api.new_game(game, 2, seed=5, options={"mode": "first"}), seed=5)
    notes = pictures.notes(game, state)
    for seat in state.players:
        line = next(n for n in notes if n.startswith(f"P{seat + 1}: "))
        assert line.endswith(f"final score {game.score_total(state, seat)}")
        assert "so far" not in line


def test_without_a_declared_status_the_variables_show_with_the_points_so_far():
    text = PACK.replace("SECRET_TERM", "me.secret")
    text = text[:text.index("status:")]  # the pack without its status: and player_status: (its last sections)
    game = compile_game(load_pack_text(text, "secrets.pack"))
    state = flow.initial_state(game, 2, seed=1)
    notes = pictures.notes(game, state, viewer=0)
    assert "turns 0" in notes


def test_a_value_that_is_none_or_empty_is_left_out():
    game = api.open_game("tinytowns")
    state = api.new_game(game, 2, seed=1)
    notes = " ".join(pictures.notes(game, state, viewer=0))
    assert "monument" not in notes and "Opaleye" not in notes and "score so far" in notes


def test_an_extension_adds_its_status_to_the_bases():
    game = api.open_game("villagers")
    labels = [label for label, *_ in game.player_status]
    assert labels[:2] == ["monument", "to place for Opaleye's Watch"] and "villagers" in labels


def test_a_shared_status_value_may_not_name_me():
    text = PACK.replace("SECRET_TERM", "0").replace("  moves made: turns", "  mine: me.stones")
    with pytest.raises(PackError) as err:
        compile_game(load_pack_text(text, "secrets.pack"))
    assert [d.code for d in err.value.diagnostics] == ["E214"]


def pictures_view(game, state, seat):
    from boardrule.interpreter.runtime.views import view
    return view(game, state, seat)


def test_a_status_rule_that_fails_fails_the_packs_tests():
    # it would stop a game at its first screen: `boardrule check` says so first
    from boardrule.interpreter.designer.scenarios import test_results
    text = PACK.replace("SECRET_TERM", "0").replace("  moves made: turns", "  broken: 1 / turns") + """
tests:
  - name: a first move
    moves: [P1 put A1]
    expect:
      score: {P1: 1}
  - name: the start
    expect:
      score: {P1: 0}
"""
    game = compile_game(load_pack_text(text, "secrets.pack"))
    results = dict(test_results(game))
    assert results["a first move"] == []
    (failure,) = results["the start"]
    assert failure.code == "E702" and "division by zero" in failure.message
    assert failure.span.line == text.splitlines().index("  broken: 1 / turns") + 1
