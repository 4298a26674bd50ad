"""Decks: what a designer relies on.

`cards(D)` lists a deck top first; `put X under D` / `put X on D` add a card
or a list of cards (one after the other, in list order); a deck may be
declared empty (`{}`: any card); `draw` from an empty deck is a rule error
naming the deck, at the statement; players' views never show a deck's order, but for the cards every
player saw put into it, which stay known where they went;
saves keep decks exactly; a seed gives the same decks every time.
"""

from __future__ import annotations

import json

import pytest

from boardrule.dsl.checker import Checker, Scope
from boardrule.dsl.diagnostics import BoardruleError, DiagnosticBag, SaveError
from boardrule.dsl.pack import load_pack_text
from boardrule.dsl.parser import parse_fragment
from boardrule.dsl.unparse import ast_equal, unparse
from boardrule.interpreter import api
from boardrule.interpreter.runtime import flow
from boardrule.interpreter.compiler.game import compile_game
from boardrule.interpreter.compiler.reference import evaluate as reference_evaluate
from boardrule.interpreter.designer.scenarios import run_tests
from boardrule.interpreter.records.serialize import state_differences, state_from_json, state_to_json
from boardrule.interpreter.runtime.values import PLAYERS, RuleError
from boardrule.interpreter.runtime.views import HIDDEN, view

# A pack whose one action runs EFFECT (with `n` one of 1..3); `pile` starts a b c (a on top).
PACK = """\
game: {id: decks, players: 1..2}
board: {grid: square 2 x 2}
symbols:
  letters: [a, b, c, d, e]
decks:
  pile: {a: 1, b: 1, c: 1}
  spare: {}
  numbers: {1: 2, 5: 1}
vars:
  got: none
  seen: "[]"
player_vars:
  hand: {initial: none, private: true}
actions:
  go:
    params: {n: 1..3}
    effect: |
EFFECT
flow:
  round:
    - turns: [go]
  end: round > 50
"""


def make(effect: str, pack: str = PACK):
    body = "\n".join("      " + line for line in effect.strip().splitlines())
    return compile_game(load_pack_text(pack.replace("EFFECT", body), "decks.pack"))


def run(effect: str, moves=("go 1",), players: int = 1, seed: int = 0):
    """The game and the state after `moves` (all by P1, or by turns when two play)."""
    game = make(effect)
    state = flow.initial_state(game, players, seed=seed)
    for text in moves:
        seat = flow.waiting(state)[0]
        state = flow.apply(game, state, flow.parse_move(game, state, seat, text))
    return game, state


def value(game, state, text):
    return api.evaluate(game, state, text)[0]


def shown(game, state, text):
    return api.show_value(game, *api.evaluate(game, state, text))


# ----------------------------------------------------------------- cards()
def test_cards_lists_a_deck_top_first_in_the_declared_order():
    game, state = run("set got = none", moves=())
    assert value(game, state, "cards(pile)") == ("a", "b", "c")
    assert value(game, state, "cards(pile)[0]") == "a"
    assert value(game, state, "count(cards(pile))") == 3
    assert value(game, state, "cards(spare)") == ()
    assert value(game, state, "cards(numbers)") == (1, 1, 5)


def test_cards_has_the_type_of_the_decks_cards():
    game, state = run("set got = none", moves=())
    assert str(api.evaluate(game, state, "cards(pile)")[1]) == "list of names"
    assert str(api.evaluate(game, state, "cards(numbers)")[1]) == "list of numbers"
    assert str(api.evaluate(game, state, "cards(spare)")[1]) == "list of any"  # declared empty: any card
    assert value(game, state, "sum(cards(numbers))") == 7


def test_draw_takes_the_top_card_and_cards_follows():
    game, state = run("draw x from pile { set got = x }")
    assert state.vars["got"] == "a"
    assert value(game, state, "cards(pile)") == ("b", "c")


def test_the_reference_evaluator_agrees_on_cards():
    game, state = run("put [d, e] under pile")
    node = parse_fragment("cards(pile)", "expr")
    checker = Checker(game.pack.checked.symbols, DiagnosticBag())
    checker.out = game.pack.checked  # resolve the node as api.evaluate does
    checker.expr(node, Scope({}))
    compiled = value(game, state, "cards(pile)")
    assert reference_evaluate(game, node, game.ctx(state, me=PLAYERS[0])) == compiled == ("a", "b", "c", "d", "e")


# --------------------------------------------------------------------- put
def test_put_under_puts_at_the_bottom_and_on_puts_on_top():
    game, state = run("put d under pile\nput e on pile")
    assert value(game, state, "cards(pile)") == ("e", "a", "b", "c", "d")


def test_a_list_is_put_one_card_after_the_other_in_list_order():
    game, state = run("put [d, e] under pile\nput [d, e] on spare")
    assert value(game, state, "cards(pile)") == ("a", "b", "c", "d", "e")  # e went under d
    assert value(game, state, "cards(spare)") == ("e", "d")  # e went on d


def test_put_takes_any_list_expression():
    game, state = run("put cards(pile) where it != b under spare\nput cards(numbers) on spare")
    assert value(game, state, "cards(spare)") == (5, 1, 1, "a", "c")


def test_put_into_an_empty_deck_then_draw_it_back():
    game, state = run("put c on spare\ndraw x from spare { set got = x }")
    assert state.vars["got"] == "c" and state.decks["spare"] == []


def test_put_is_logged_like_draw_and_shuffle():
    game, state = run("draw x from pile { put x under spare }\nput [d, e] on pile\nshuffle pile")
    chance = [entry for entry in state.log if entry[0] != "move"]
    # a put says whether every player saw its card: not a card drawn (deck_order.put_seen)
    assert chance == [["draw", "pile", "a"], ["put", "spare", "a", "under", False], ["put", "pile", "d", "on", True],
                      ["put", "pile", "e", "on", True], ["shuffle", "pile"]]


def test_putting_none_is_a_rule_error_at_the_statement():
    game = make("put hand under spare")
    state = flow.initial_state(game, 1, seed=0)
    with pytest.raises(RuleError, match="a card") as err:
        flow.apply(game, state, flow.parse_move(game, state, 0, "go 1"))
    assert err.value.span.line == PACK.splitlines().index("EFFECT") + 1


def test_a_deck_holds_at_most_10000_cards():
    game = make("put 1..n on numbers\nfor i in 1..4 { put 1..2500 on numbers }")
    state = flow.initial_state(game, 1, seed=0)
    with pytest.raises(RuleError, match="more than 10000 cards"):
        flow.apply(game, state, flow.parse_move(game, state, 0, "go 1"))


# -------------------------------------------------------------- empty deck
def test_drawing_from_an_empty_deck_is_a_rule_error_naming_the_deck_at_the_statement():
    effect = "set got = a\ndraw x from spare { set got = x }"
    game = make(effect)
    state = flow.initial_state(game, 1, seed=0)
    with pytest.raises(RuleError) as err:
        flow.apply(game, state, flow.parse_move(game, state, 0, "go 1"))
    assert "`spare`" in str(err.value) and "empty" in str(err.value)
    line = PACK.splitlines().index("EFFECT") + 2  # the second line of the effect
    assert (err.value.span.file, err.value.span.line, err.value.span.col) == ("decks.pack", line, 7)
    assert state.vars["got"] is None  # the state given to apply is untouched


def test_a_pack_test_reports_the_empty_draw_as_a_failed_rule():
    pack = PACK.replace("  end: round > 50\n", "  end: round > 50\ntests:\n  - name: empty\n    moves: [P1 go 1]\n"
                        "    expect: {vars: {got: a}}\n")
    game = make("draw x from spare { set got = x }", pack)
    failures = run_tests(game)
    assert [d.code for d in failures] == ["E702"] and "`spare`" in failures[0].message


def test_testing_the_size_first_avoids_the_error():
    game, state = run("if count(cards(spare)) > 0 { draw x from spare { set got = x } } else { set got = e }")
    assert state.vars["got"] == "e"


# --------------------------------------------------------------- patterns
RESHUFFLE = """
if count(cards(pile)) == 0 {
  for old in cards(spare) { draw card from spare { put card on pile } }
  shuffle pile
}
draw card from pile { put card on spare; set got = card }
"""


def test_the_discards_become_the_new_pile_when_it_runs_out():
    game, state = run(RESHUFFLE, moves=["go 1"] * 3)
    assert state.decks["pile"] == [] and sorted(state.decks["spare"]) == ["a", "b", "c"]
    game, state = run(RESHUFFLE, moves=["go 1"] * 4)
    assert len(state.decks["pile"]) == 2 and len(state.decks["spare"]) == 1
    assert sorted(state.decks["pile"] + state.decks["spare"]) == ["a", "b", "c"]
    assert state.log[-2:-1] == [["put", "spare", state.vars["got"], "on", False]]
    # nine draws from three cards: every card is drawn, none is lost or made
    game, state = run(RESHUFFLE, moves=["go 1"] * 9)
    assert sorted(state.decks["pile"] + state.decks["spare"]) == ["a", "b", "c"]


DISPLAY_PACK = PACK.replace("vars:\n  got: none\n", "vars:\n  got: none\n  row: \"[]\"\n").replace(
    "flow:\n", "flow:\n  setup:\n    - do: for i in 1..3 { draw card from pile { set row = row + [card] } }\n")
TAKE = """
set got = row[n - 1]
put row[n - 1] under pile
draw card from pile {
  set row = [if n == 1 then card else row[0], if n == 2 then card else row[1], if n == 3 then card else row[2]]
}
"""


def test_a_display_card_goes_under_the_deck_and_a_new_one_is_revealed():
    game = make(TAKE, DISPLAY_PACK.replace("pile: {a: 1, b: 1, c: 1}", "pile: {a: 1, b: 1, c: 1, d: 1, e: 1}"))
    state = flow.initial_state(game, 1, seed=0)
    assert state.vars["row"] == ("a", "b", "c") and value(game, state, "cards(pile)") == ("d", "e")
    state = flow.apply(game, state, flow.parse_move(game, state, 0, "go 2"))
    assert state.vars["got"] == "b"
    assert state.vars["row"] == ("a", "d", "c")
    assert value(game, state, "cards(pile)") == ("e", "b")


def test_dealing_two_cards_and_keeping_one_secretly():
    pack = PACK.replace("  hand: {initial: none, private: true}\n",
                        "  hand: {initial: none, private: true}\n  offer: {initial: \"[]\", private: true}\n").replace(
        "flow:\n", "flow:\n  setup:\n    - do: |\n        shuffle pile\n"
                   "        for p in players { draw x from pile { draw y from pile { set p.offer = [x, y] } } }\n")
    pack = pack.replace("pile: {a: 1, b: 1, c: 1}", "pile: {a: 2, b: 2, c: 2}")
    game = make("set hand = offer[n - 1]\nput offer[2 - n] under pile\nset offer = []", pack)
    state = flow.initial_state(game, 2, seed=4)
    offers = [state.pvars[s]["offer"] for s in (0, 1)]
    assert len(state.decks["pile"]) == 2 and all(len(o) == 2 for o in offers)
    state = flow.apply(game, state, flow.parse_move(game, state, 0, "go 1"))
    assert state.pvars[0]["hand"] == offers[0][0]
    assert state.decks["pile"][0] == offers[0][1]  # the card returned is at the bottom
    assert view(game, state, 1).pvars[0]["hand"] == HIDDEN
    assert view(game, state, 0).pvars[0]["hand"] == offers[0][0]
    # the card put back came from a secret: where it went is not known (the order is, to nobody)
    assert view(game, state, 1).decks["pile"] == [HIDDEN] * 3 == view(game, state, 0).decks["pile"]


# ------------------------------------------------------------------ views
def test_views_hide_the_order_of_every_deck_and_the_deck_entries_of_the_log():
    game, state = run("draw x from pile { put x under spare }\nput [d, e] on pile\nshuffle pile", players=2)
    for seat in (0, 1):  # the player who moved as well as the other
        seen = view(game, state, seat)
        assert seen.decks == {"pile": [HIDDEN] * 4, "spare": [HIDDEN], "numbers": [HIDDEN] * 3}
        assert [entry[0] for entry in seen.log if entry[0] != "seats"] == ["move"]
    assert state.decks["spare"] == ["a"]  # the view changed nothing
    assert [entry[0] for entry in state.log if entry[0] != "seats"] == ["draw", "put", "put", "put", "shuffle", "move"]


# A deck every player watches: `go 1` puts d under the pile, `go 2` e on it, `go 3` draws, `go 4` shuffles.
WATCHED = """\
if n == 1 { put d under pile }
elif n == 2 { put e on pile }
elif n == 3 { draw x from pile { set got = x } }
else { shuffle pile }"""
WATCHED_PACK = PACK.replace("params: {n: 1..3}", "params: {n: 1..4}")


def watched(moves, players=2):
    game = make(WATCHED, WATCHED_PACK)
    state = flow.initial_state(game, players, seed=0)
    for text in moves:
        state = flow.apply(game, state, flow.parse_move(game, state, flow.waiting(state)[0], text))
    return game, state


def test_a_card_every_player_saw_put_into_a_deck_stays_known_where_it_went():
    game, state = watched(["go 1", "go 2"])
    for seat in (0, 1):  # bottom first, as the state keeps a deck
        assert view(game, state, seat).decks["pile"] == ["d", HIDDEN, HIDDEN, HIDDEN, "e"]
    game, state = watched(["go 1", "go 2", "go 3", "go 3"])  # e, then a card not known
    assert view(game, state, 1).decks["pile"] == ["d", HIDDEN, HIDDEN]
    game, state = watched(["go 1", "go 3", "go 3", "go 3"])  # the cards that were there go first
    assert view(game, state, 1).decks["pile"] == ["d"] == state.decks["pile"]


def test_a_view_of_a_view_still_knows_the_cards_watched():
    game, state = watched(["go 1", "go 2"])
    assert view(game, view(game, state, 1), 1).decks["pile"] == ["d", HIDDEN, HIDDEN, HIDDEN, "e"]


def test_a_card_read_from_a_deck_goes_in_unseen():
    # `cards(D)` reads the hidden order: the card it gives is not one every player saw
    game, state = run("put cards(pile)[0] under spare\nput d under spare", players=2)
    assert state.decks["spare"] == ["d", "a"]
    assert view(game, state, 1).decks["spare"] == ["d", HIDDEN]
    # through a definition too
    pack = PACK.replace("flow:\n", "define:\n  top_card: cards(pile)[0]\nflow:\n")
    game = make("put top_card under spare", pack)
    state = flow.initial_state(game, 2, seed=0)
    state = flow.apply(game, state, flow.parse_move(game, state, 0, "go 1"))
    assert state.decks["spare"] == ["a"] and view(game, state, 1).decks["spare"] == [HIDDEN]


def test_a_shuffle_makes_a_watched_deck_unknown_again():
    game, state = watched(["go 1", "go 2", "go 4"])
    assert view(game, state, 1).decks["pile"] == [HIDDEN] * 5
    game, state = watched(["go 1", "go 4", "go 2"])
    assert view(game, state, 1).decks["pile"] == [HIDDEN] * 4 + ["e"]


def test_a_search_keeps_the_cards_it_saw_where_they_went():
    import random
    from boardrule.interpreter.agents.montecarlo import determinize
    game, state = watched(["go 1", "go 2"], players=1)
    worlds = [determinize(game, state, 0, random.Random(seed)).decks["pile"] for seed in range(30)]
    assert all(world[0] == "d" and world[-1] == "e" and sorted(world[1:4]) == ["a", "b", "c"] for world in worlds)
    assert len({tuple(world) for world in worlds}) == 6  # the three cards not known in every order
    # the order of the cards not known is not seen: the same worlds, whatever it is
    other = state.clone()
    other.decks["pile"] = ["d", "c", "a", "b", "e"]
    assert other.decks["pile"] != state.decks["pile"]
    assert all(determinize(game, other, 0, random.Random(seed)).decks == determinize(
        game, state, 0, random.Random(seed)).decks for seed in range(10))


# ------------------------------------------------------------------ saves
def test_a_save_keeps_decks_exactly():
    game, state = run("draw x from pile { put x under spare }\nput [d, e] on pile\nput 5 on spare\nshuffle pile",
                      moves=["go 1", "go 2"], seed=7)
    data = json.loads(json.dumps(state_to_json(game, state)))
    back = state_from_json(game, data)
    assert state_differences(state, back) == []
    assert back.decks == state.decks and back.decks["spare"][-1] == 5
    # the loaded game goes on like the original
    one = flow.apply(game, state, flow.parse_move(game, state, 0, "go 3"))
    two = flow.apply(game, back, flow.parse_move(game, back, 0, "go 3"))
    assert state_differences(one, two) == []


@pytest.mark.parametrize("mangle, message", [
    (lambda decks: decks.pop("spare"), "state.decks: expected the decks"),
    (lambda decks: decks.update(extra=[]), "state.decks: expected the decks"),
    (lambda decks: decks["pile"].append({"T": ["a"]}), r"state.decks.pile\[3\]: expected a card"),
    (lambda decks: decks["pile"].append(None), r"state.decks.pile\[3\]: expected a card"),
])
def test_a_save_with_damaged_decks_is_refused(mangle, message):
    game, state = run("set got = none", moves=())
    data = state_to_json(game, state)
    mangle(data["state"]["decks"]["O"])
    with pytest.raises(SaveError, match=message):
        state_from_json(game, data)


# ------------------------------------------------------------ determinism
def test_a_seed_gives_the_same_decks_every_time():
    effect = "shuffle pile\ndraw x from pile { put x under spare }\nput [d, e] on pile\nshuffle pile"
    decks = [run(effect, moves=["go 1", "go 2"], seed=seed)[1].decks for seed in (3, 3, 4, 5, 6)]
    assert decks[0] == decks[1]
    assert any(d != decks[0] for d in decks[2:])


# ---------------------------------------------------------------- checker
def diagnostics(effect: str, pack: str = PACK):
    with pytest.raises(BoardruleError) as err:
        make(effect, pack)
    return [(d.code, d.message) for d in err.value.diagnostics]


@pytest.mark.parametrize("effect, message", [
    ("put 3 on pile", "`put` into `pile` takes a name or a list of names, but this is a number"),
    ("put a under numbers", "`put` into `numbers` takes a number or a list of numbers, but this is a name"),
    ("put cards(numbers) on pile", "`put` into `pile` takes a name or a list of names, but this is a list of numbers"),
    ("put cells on spare", "`put` takes a card (a name or a number) or a list of cards, but this is a list of cells"),
    ("put a under b", "`put ... under` puts cards into a deck, but this is a name"),
    ("set got = cards(a)[0]", "argument of `cards` must be a deck, but this is a name"),
    ("draw x from pile { got += x }", "the value of `+=` must be a number, but this is a name"),
])
def test_the_checker_refuses_cards_of_the_wrong_type(effect, message):
    found = diagnostics(effect)
    assert any(code == "E210" and message in text for code, text in found), found


def test_a_drawn_card_has_the_decks_card_type():
    game, state = run("draw x from numbers { set seen = seen + [x * 10] }")
    assert state.vars["seen"] == (10,)


def test_an_empty_deck_takes_any_card():
    game, state = run("put [a, b] on spare\nput [1, 2] on spare")
    assert value(game, state, "cards(spare)") == (2, 1, "b", "a")


@pytest.mark.parametrize("decks, code, message", [
    ("  bad: {a: -1}", "E022", "a card count is a whole number from 0, not -1"),
    ("  bad: {a: 10001}", "E022", "deck `bad` has 10001 cards; a deck holds at most 10000"),
    ("  bad: {'\"x\"': 1}", "E210", "a card is a name or a number, not a text"),
])
def test_deck_declarations_are_checked(decks, code, message):
    pack = PACK.replace("  numbers: {1: 2, 5: 1}\n", "  numbers: {1: 2, 5: 1}\n" + decks + "\n")
    assert (code, message) in diagnostics("set got = none", pack)


# ------------------------------------------------------------------ syntax
@pytest.mark.parametrize("text", ["put a under pile", "put [a, b] on pile", "put cards(d)[0] under d",
                                  "put if x then a else b on pile"])
def test_put_unparses_to_text_that_parses_back(text):
    tree = parse_fragment(text, "effect")
    assert ast_equal(parse_fragment(unparse(tree), "effect"), tree)
