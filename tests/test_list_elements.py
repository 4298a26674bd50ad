"""One element of a list variable: `set track[i] = v`, `track[i] += n`, `p.row[i] -= n` (global and player
variables), checked by the checker, bounds refused as typed rule errors; and `size(S)`, the squares of a
shape, beside `size(D)`, the cards left in a deck."""

from __future__ import annotations

import textwrap

import pytest

from boardrule.dsl.diagnostics import PackError
from boardrule.dsl.pack import load_pack_text
from boardrule.interpreter import api
from boardrule.interpreter.compiler.game import compile_game
from boardrule.interpreter.runtime import flow
from boardrule.interpreter.runtime.values import RuleError

TRACK = """\
game: {{id: track, name: Track, players: 2}}
board: {{grid: square 3 x 1, shared: true}}
pieces:
  stone: {{symbol: S}}
shapes:
  bar: {{art: X X X}}
vars:
  track: "[0, 0, 0]"
  owners: "[none, none, none]"
  kinds: "[stone, stone]"
player_vars:
  row: "[1, 2, 3]"
actions:
  mark:
    params: {{i: 0..3}}
    effect: |
{effect}
flow:
  round:
    - turns: [mark]
  end: round >= 2
"""


def pack(effect, text=TRACK):
    return compile_game(load_pack_text(text.format(effect=textwrap.indent(effect, " " * 6)), "track.pack"))


def move(game, state, text):
    return flow.parse_move(game, state, int(text[1]) - 1, text.split(" ", 1)[1])


def play(effect, moves):
    game = pack(effect)
    state = flow.initial_state(game, 2, seed=0)
    for text in moves:
        state = flow.apply(game, state, move(game, state, text))
    return state


def test_an_element_of_a_global_list_is_set_and_changed():
    state = play("set track[i] = 5\ntrack[0] += 2\ntrack[-1] -= 1", ["P1 mark 1"])
    assert state.vars["track"] == (2, 5, -1)


def test_an_element_of_a_player_list_is_set_for_me_and_for_a_named_player():
    state = play("set row[i] = 9\nfor p in players { p.row[0] += 10 }\nset owners[i] = me", ["P1 mark 2"])
    assert state.pvars[0]["row"] == (11, 2, 9)
    assert state.pvars[1]["row"] == (11, 2, 3)
    assert state.vars["owners"][2] == state.players[0] and state.vars["owners"][:2] == (None, None)


def test_setting_an_element_leaves_the_state_it_came_from_unchanged():
    game = pack("track[i] += 1\nme.row[i] += 1")
    before = flow.initial_state(game, 2, seed=0)
    after = flow.apply(game, before, move(game, before, "P1 mark 0"))
    assert after.vars["track"] == (1, 0, 0) and after.pvars[0]["row"] == (2, 2, 3)
    assert before.vars["track"] == (0, 0, 0) and before.pvars[0]["row"] == (1, 2, 3)


def test_a_position_outside_the_list_is_a_rule_error_naming_the_element():
    with pytest.raises(RuleError) as err:
        play("set track[i] = 1", ["P1 mark 3"])
    assert "`track[3]` cannot be set: the position is outside a list of 3" in str(err.value)
    with pytest.raises(RuleError):
        play("track[i - 5] += 1", ["P1 mark 1"])  # -4: before the first


@pytest.mark.parametrize("effect, code, words", [
    ("set me.gold[0] = 1", "E207", "`gold` is not a variable"),
    ("set row = 3\nset track[0][1] = 2", None, None),  # a syntax error: only one position
    ("set track[0] = stone", "E210", "an element of `track` is a number, so it cannot be set to a name"),
    ("set track[stone] = 1", "E210", "the position in `track` must be a number"),
    ("kinds[0] += 1", "E210", "`+=` changes a number, but an element of `kinds` is a name"),
])
def test_element_targets_are_checked(effect, code, words):
    with pytest.raises(PackError) as err:
        pack(effect)
    if code is not None:
        found = {d.code: d.message for d in err.value.diagnostics}
        assert code in found and words in found[code], found


def test_an_element_of_a_variable_that_is_no_list_is_refused():
    with pytest.raises(PackError) as err:
        pack("set track[i] = 1", TRACK.replace('  track: "[0, 0, 0]"', '  track: 0'))
    assert "`track` holds a number, not a list, so it has no element `track[i]` to set" in str(err.value)


def test_size_of_a_shape_counts_its_squares_and_size_of_a_deck_its_cards():
    game = api.open_game("tictactoe")
    state = api.new_game(game, 2)
    with pytest.raises(PackError) as err:
        api.evaluate(game, state, "size(3)")
    assert "argument of `size` must be a deck or a shape, but this is a number" in str(err.value)
    assert play("set track[0] = size(bar)", ["P1 mark 0"]).vars["track"] == (3, 0, 0)
