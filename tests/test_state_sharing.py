"""What a clone shares with its parent, and that neither sees the other's changes.

A clone shares its deck lists with its parent until one of them changes a deck
(`State.own_deck`), and takes over its parent's live random generator
(`LazyRandom.split`), the parent keeping the generator's state alone.
"""

from __future__ import annotations

import json
import random

from boardrule.dsl.pack import load_pack_text
from boardrule.interpreter.runtime import flow
from boardrule.interpreter.compiler.game import compile_game
from boardrule.interpreter.records.serialize import state_differences, state_fields, state_from_json, state_to_json
from boardrule.interpreter.runtime.state import LazyRandom

PACK = """\
game: {id: sharing, players: 1}
board: {grid: square 2 x 2}
symbols:
  letters: [a, b, c, d]
dice:
  d6: [1, 2, 3, 4, 5, 6]
decks:
  pile: {a: 1, b: 1, c: 1}
  spare: {}
vars:
  got: none
actions:
  go:
    params: {n: 1..2}
    effect: |
      roll d6
      draw x from pile { put x under spare }
flow:
  setup:
    - do: shuffle pile
  round:
    - turns: [go]
  end: count(cards(pile)) == 0
"""


def start():
    game = compile_game(load_pack_text(PACK, "sharing.pack"))
    return game, flow.initial_state(game, 1, seed=5)


def go(game, state):
    return flow.apply(game, state, flow.parse_move(game, state, 0, "go 1"))


def test_a_move_changes_the_decks_of_the_new_state_only():
    game, state = start()
    before = {name: list(cards) for name, cards in state.decks.items()}
    after = go(game, state)
    assert state.decks == before  # the parent still holds its cards
    assert len(after.decks["pile"]) == 2 and len(after.decks["spare"]) == 1
    again = go(game, after)
    assert len(after.decks["pile"]) == 2 and len(again.decks["pile"]) == 1


def test_a_clone_and_its_parent_change_their_decks_apart():
    game, state = start()
    child = state.clone()
    assert child.decks["pile"] is state.decks["pile"]  # shared until changed
    child.own_deck("pile").pop()
    state.own_deck("spare").append("d")
    assert len(state.decks["pile"]) == 3 and len(child.decks["pile"]) == 2
    assert state.decks["spare"] == ["d"] and child.decks["spare"] == []
    grandchild = child.clone()  # the child's own list is shared again: its next change copies it
    child.own_deck("pile").pop()
    assert len(child.decks["pile"]) == 1 and len(grandchild.decks["pile"]) == 2


def test_sibling_clones_do_not_see_each_other():
    game, state = start()
    first, second = go(game, state), go(game, state)
    assert state_differences(first, second) == []
    third = go(game, first)
    assert len(third.decks["pile"]) == 1
    assert len(first.decks["pile"]) == len(second.decks["pile"]) == 2 and len(state.decks["pile"]) == 3
    assert state_differences(first, second) == []


def test_a_split_generator_and_its_parent_roll_the_same_apart():
    live = LazyRandom.seeded(3)
    live.random()  # a live generator that has moved
    copy = live.split()
    assert copy.getstate() == live.getstate()
    ours = [live.random() for _ in range(5)]
    theirs = [copy.random() for _ in range(5)]
    assert ours == theirs
    assert copy.getstate() == live.getstate()
    reference = random.Random(3)
    reference.random()
    assert ours == [reference.random() for _ in range(5)]


def test_a_fresh_generator_split_before_any_roll_gives_both_sides_the_seeds_sequence():
    # a seeded generator keeps its seed as its base: a split reads no state out
    parent = LazyRandom.seeded(11)
    child = parent.split()
    assert parent._base == child._base == 11
    expected = random.Random(11)
    assert [child.random() for _ in range(4)] == [parent.random() for _ in range(4)] \
        == [expected.random() for _ in range(4)]
    assert parent.getstate() == child.getstate() == expected.getstate()
    assert LazyRandom.seeded("text").getstate() == random.Random("text").getstate()


def test_a_parent_cloned_twice_gives_two_equal_children():
    game, state = start()
    state.rng.random()  # leave the parent's generator live and moved
    one, two = state.clone(), state.clone()
    assert one.rng.getstate() == two.rng.getstate() == state.rng.getstate()
    assert [one.rng.random() for _ in range(3)] == [two.rng.random() for _ in range(3)]
    assert one.rng.getstate() != state.rng.getstate()


def test_a_game_with_shared_decks_saves_and_loads_exactly():
    game, state = start()
    states = [state]
    for _ in range(2):
        states.append(go(game, states[-1]))
    assert "owned_decks" not in state_fields()  # bookkeeping, not saved
    for one in states:
        data = json.loads(json.dumps(state_to_json(game, one)))
        back = state_from_json(game, data)
        assert state_differences(one, back) == []
        assert json.dumps(state_to_json(game, back)) == json.dumps(data)
        assert state_differences(go(game, one), go(game, back)) == []


def test_a_parent_whose_clone_took_its_generator_replays_its_own_calls():
    reference = random.Random(9)
    parent = LazyRandom.seeded(9)
    deck = list(range(7))
    expected = list(range(7))
    parent.shuffle(deck)
    reference.shuffle(expected)
    assert deck == expected
    deck.pop()  # a list a call was given changes later: the replay must not see it
    assert parent.choice((1, 2, 3)) == reference.choice((1, 2, 3))
    child = parent.split()  # takes the live generator
    rolled = [child.random() for _ in range(3)]
    assert [parent.random() for _ in range(3)] == rolled == [reference.random() for _ in range(3)]
    assert parent.getstate() == child.getstate() == reference.getstate()


def test_a_long_run_of_calls_keeps_the_same_sequence():
    reference = random.Random(4)
    lazy = LazyRandom.seeded(4)
    for i in range(3 * LazyRandom.MAX_CALLS + 5):
        assert lazy.randrange(1000) == reference.randrange(1000)
        if i % 50 == 0:
            lazy = lazy.split()  # the parent left behind is dropped, as in a game
    assert len(lazy._calls) <= LazyRandom.MAX_CALLS
    assert lazy.getstate() == reference.getstate()


def test_a_clone_sets_every_field_of_the_state():
    # clone() sets the fields one by one, without the generated __init__: a field
    # added to State but not to clone() would be missing from every state after a move
    import attrs

    from boardrule.interpreter.runtime.state import State

    game, state = start()
    copy = go(game, state).clone()
    for field in attrs.fields(State):
        getattr(copy, field.name)  # AttributeError if clone() left it unset
    assert state_differences(copy, go(game, state)) == []
