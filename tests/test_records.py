"""Records (`records:`): kinds of records with typed fields and rows of data, read as `r.field`;
typed piece variables (`variable: {crowns: number}`) and variables (`type:`); records in decks,
moves, positions, screens and saves. The diagnostics are pinned word for word."""

from __future__ import annotations

from pathlib import Path

import pytest

from boardrule.dsl.diagnostics import PackError
from boardrule.dsl.pack import load_pack, load_pack_text
from boardrule.dsl.types import list_of, record_of
from boardrule.interpreter.api import evaluate, show_value
from boardrule.interpreter.compiler.game import compile_game
from boardrule.interpreter.designer.scenarios import run_tests
from boardrule.interpreter.records.serialize import state_from_json, state_to_json, states_equal
from boardrule.interpreter.runtime.flow import apply, initial_state, legal_moves, parse_move
from boardrule.interpreter.runtime.moves import move_text

BAZAAR = Path(__file__).parent / "packs" / "bazaar.pack"

PACK = """\
game: {id: deal, players: 2}
board: {grid: square 3 x 1, shared: true}
symbols:
  suits: [red, blue]
records:
  card:
    fields: {cost: number, suit: suits, next: card}
    rows:
      ace: [1, red, king]
      king: {cost: 3, suit: blue, next: ace}
pieces:
  tile: {symbol: T, variable: {card: card, crowns: number}}
  flag: {symbol: F, variable: [color]}
decks:
  pile: {card: 2}
vars:
  shown: {initial: none, type: card}
player_vars:
  hand: {initial: "[]", type: list of cards}
actions:
  take:
    params:
      c: card
      cell: cells where empty
    effect: |
      set hand = hand + [c]
      place tile at cell with card = c, crowns = c.cost
flow:
  round:
    - turns: [take]
  end: none(cells, empty)
scoring:
  crowns: sum(cells where kind == tile, crowns)
  costs: sum(hand, cost)
"""


def load(text):
    return load_pack_text(text, "deal.pack")


def diagnostics(text) -> list:
    with pytest.raises(PackError) as err:
        load(text)
    return [(d.code, d.message, d.span.line, d.span.col) for d in err.value.diagnostics]


def with_rule(rule: str) -> str:
    return PACK.replace("  costs: sum(hand, cost)", f"  costs: sum(hand, cost)\n  probe: {rule}")


# ------------------------------------------------------------------ reading and checking
def test_the_pack_checks_and_fields_are_typed():
    game = compile_game(load(PACK))
    state = initial_state(game, 2, seed=1)
    assert evaluate(game, state, "ace.cost + king.next.cost")[0] == 2
    value, value_type = evaluate(game, state, "card where it.suit == blue")
    assert value == ("king",) and str(value_type) == "list of cards"
    assert evaluate(game, state, "sum(card, cost)")[0] == 4


def test_an_unknown_field_is_named_with_the_fields_of_its_kind():
    found = diagnostics(with_rule("ace.costs"))
    assert found == [("E217", "a card has no field `costs`; its fields: `cost`, `suit`, `next`", 35, 10)]


def test_a_field_of_the_wrong_type_is_refused_where_it_is_used():
    assert diagnostics(with_rule("ace.suit + 1")) == [
        ("E210", "`+` needs numbers, but this is a name", 35, 10)]


def test_a_row_value_its_field_does_not_hold():
    text = PACK.replace("ace: [1, red, king]", "ace: [one, green, queen]")
    assert diagnostics(text) == [
        ("E026", "field `cost` of `ace`: a number is a whole number, not `one`", 9, 13),
        ("E026", "field `suit` of `ace`: `green` is not one of `suits`", 9, 18),
        ("E026", "field `next` of `ace`: `queen` is not a record of `card`", 9, 25)]


def test_a_row_with_too_few_values_or_a_missing_field():
    text = PACK.replace("ace: [1, red, king]", "ace: [1, red]").replace(
        "king: {cost: 3, suit: blue, next: ace}", "king: {cost: 3, suit: blue, rank: 2}")
    assert [(code, message) for code, message, _, _ in diagnostics(text)] == [
        ("E026", "record `ace` gives 2 value(s) for the 3 field(s) of `card` (cost, suit, next)"),
        ("E026", "record `king` gives no `next`"),
        ("E026", "`card` has no field `rank`; its fields: cost, suit, next")]


def test_an_unknown_type_word_lists_the_words():
    text = PACK.replace("fields: {cost: number,", "fields: {cost: integer,")
    code, message, line, col = diagnostics(text)[0]
    assert (code, line, col) == ("E025", 7, 20)
    assert message == ("`integer` is no type; write one of number, name, text, bool, kind, shape, cell, suits, card, "
                       "or `list of` one of them")


def test_a_field_named_like_a_cell_property_is_refused():
    text = PACK.replace("next: card}", "kind: card}")
    assert diagnostics(text)[0][:2] == ("E025", "a field of `card` cannot be called `kind`: `kind` is a property "
                                                "every cell has")


def test_record_ids_and_fields_are_names_the_rules_can_write():
    text = PACK.replace("ace: [1, red, king]", "Ace: [1, red, king]").replace("next: card}", "2nd: card}")
    assert [(code, message) for code, message, _, _ in diagnostics(text)][:2] == [
        ("E025", "a field is a name, like the rules write it (a small letter or `_`, then letters, digits, `_`), "
                 "not `2nd`"),
        ("E025", "a record's id is a name, like the rules write it (a small letter or `_`, then letters, digits, "
                 "`_`), not `Ace`")]


def test_a_record_id_is_a_name_of_the_pack():
    text = PACK.replace("ace: [1, red, king]", "tile: [1, red, king]")
    assert diagnostics(text)[0][:2] == ("E205", "`tile` names both a piece kind and a record of `card`")


def test_a_typed_piece_variable_is_set_only_to_its_type():
    text = PACK.replace("crowns = c.cost", "crowns = c.suit")
    assert diagnostics(text) == [
        ("E210", "`crowns` is declared a number, so it cannot be set to a name", 27, 50)]


def test_a_typed_variable_starts_as_its_type():
    text = PACK.replace("shown: {initial: none, type: card}", "shown: {initial: 3, type: card}")
    assert diagnostics(text) == [("E210", "`shown` is declared a card, so it cannot start as a number", 17, 20)]


def test_a_number_put_into_a_deck_of_records_is_refused():
    text = PACK.replace("      set hand = hand + [c]", "      set hand = hand + [c]\n      put 3 on pile")
    assert diagnostics(text)[0][:2] == ("E210", "`put` into `pile` takes a card or a list of cards, but this is a "
                                                "number")


# ------------------------------------------------------------------ playing
def test_a_deck_of_a_kind_of_records_holds_each_record_as_often_as_written():
    game = compile_game(load(PACK))
    assert sorted(initial_state(game, 2, seed=0).decks["pile"]) == ["ace", "ace", "king", "king"]


def test_moves_name_records_and_lay_them_on_the_board():
    game = compile_game(load(PACK))
    state = initial_state(game, 2, seed=0)
    texts = [move_text(m, game) for m in legal_moves(game, state, 0)]
    assert texts[:2] == ["take ace A1", "take ace B1"]
    state = apply(game, state, parse_move(game, state, 0, "take king B1"))
    assert state.attrs[0][1] == {"card": "king", "crowns": 3}
    assert state.pvars[0]["hand"] == ("king",)
    assert show_value(game, state.pvars[0]["hand"], evaluate(game, state, "hand")[1]) == "king"
    assert evaluate(game, state, "cell(\"B1\").card.next.suit")[0] == "red"
    copy = state_from_json(game, state_to_json(game, state))
    assert states_equal(copy, state)


# ------------------------------------------------------------------ positions (tests inside a pack)
def test_a_number_in_a_position_is_a_number():
    """Regression: `W:1` set the attribute to the text "1", so rules comparing it with 1 failed silently."""
    text = PACK + """\
tests:
  - name: numbers and records in a board
    position:
      board: |
        T:king:3 T:ace:1 .
      player_vars: {P1: {hand: [ace, king]}}
    expect:
      terms: {P1: {crowns: 4, costs: 4}}
"""
    game = compile_game(load(text))
    assert run_tests(game) == []


@pytest.mark.parametrize("cell,message", [
    ("T:king:three", "`crowns` of `tile`: a number is a whole number, not `three`"),
    ("T:queen:3", "`card` of `tile`: `queen` is not a record of `card`"),
    ("T:king:3:4", "`tile` has 2 variable attribute(s) (card, crowns), this cell gives 3 values"),
])
def test_a_value_a_typed_attribute_does_not_hold_is_a_position_error(cell, message):
    text = PACK + f"""\
tests:
  - name: a bad cell
    position:
      board: |
        {cell} . .
"""
    found = run_tests(compile_game(load(text)))
    assert [(d.code, d.message) for d in found] == [("E400", f"test `a bad cell`: {message}")]
    assert (found[0].span.line, found[0].span.col) == (39, 9)  # the cell in the board's rows


def test_a_position_naming_a_record_of_another_kind_is_refused():
    text = PACK + """\
tests:
  - name: a bad hand
    position:
      player_vars: {P1: {hand: [ace, red]}}
"""
    found = run_tests(compile_game(load(text)))
    assert [d.message for d in found] == [
        "test `a bad hand`: an item of `hand` holds a card, and `red` is no record of `card`"]


# ------------------------------------------------------------------ the test pack
def test_the_bazaar_pack_plays_records_to_the_end():
    game = compile_game(load_pack(str(BAZAAR)))
    assert run_tests(game) == []
    assert len(game.decks["supply"]) == 14



def test_a_kind_of_record_is_named_in_the_plural_with_es_after_list_of():
    # a suite finding (tests/suite/kingdom.pack): `list of dominoes` was "no type"
    text = """\
game: {id: row, name: Row, players: 1}
board: {grid: square 2 x 1}
pieces: {stone: {symbol: S}}
records:
  domino:
    fields: {n: number}
    rows: {d1: 1, d2: 2}
vars:
  market: {initial: "[]", type: list of dominoes}
actions:
  add:
    params: {d: domino}
    effect: set market = market + [d]
flow:
  round:
    - turns: [add]
  end: count(market) >= 2
"""
    game = compile_game(load(text))
    state = initial_state(game, 1, seed=1)
    assert evaluate(game, state, "market")[1] == list_of(record_of("domino"))


def test_a_cell_is_no_type_for_data():
    text = PACK.replace("fields: {cost: number,", "fields: {cost: cell,")
    assert ("E026", "field `cost` of `ace`: a cell is a type for variables only: a record's field or a piece's "
                    "value cannot hold one") in [(c, m) for c, m, _, _ in diagnostics(text)]
