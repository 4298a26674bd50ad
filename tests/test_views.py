"""What each player may see: private variables, decks, simultaneous moves."""

from boardrule.dsl.pack import load_pack_text
from boardrule.interpreter.runtime import flow
from boardrule.interpreter.compiler.game import compile_game
from boardrule.interpreter.runtime.views import HIDDEN, view

PACK = """
game: {id: secrets, players: 2}
board: {grid: square 2 x 2}
symbols: {cards: [ace, king]}
pieces:
  stone: {symbol: S}
player_vars:
  secret: {per_seat: [ace, king], private: true}
  open: 1
decks:
  pile: {ace: 2, king: 2}
actions:
  put:
    params: {cell: cells where empty}
    effect: place stone at cell
flow:
  setup:
    - do: shuffle pile
  round:
    - together: [put]
  end: count(cells where empty) == 0
"""


def game_and_state():
    game = compile_game(load_pack_text(PACK, "secrets.pack"))
    return game, flow.initial_state(game, 2, seed=3)


def test_a_private_variable_is_hidden_from_the_others():
    game, state = game_and_state()
    assert view(game, state, 0).pvars[0]["secret"] == "ace"
    assert view(game, state, 0).pvars[1]["secret"] == HIDDEN
    assert view(game, state, 1).pvars[0]["secret"] == HIDDEN
    assert view(game, state, 1).pvars[0]["open"] == 1


def test_the_order_of_a_deck_is_hidden_but_not_its_size():
    game, state = game_and_state()
    seen = view(game, state, 0)
    assert seen.decks["pile"] == [HIDDEN] * 4
    assert sorted(state.decks["pile"]) == ["ace", "ace", "king", "king"]


def test_moves_made_at_once_are_hidden_until_everyone_has_moved():
    game, state = game_and_state()
    state = flow.apply(game, state, flow.parse_move(game, state, 0, "put A1"))
    assert state.kind[0][0] == "stone"
    assert view(game, state, 1).kind[0][0] is None  # P2 does not see P1's stone yet
    assert view(game, state, 0).kind[0][0] == "stone"
    moves_seen = lambda seat: [e for e in view(game, state, seat).log if e[0] == "move"]  # noqa: E731
    assert moves_seen(1) == [] and moves_seen(0) == [["move", 0, "put A1"]]  # nor the move in the log
    state = flow.apply(game, state, flow.parse_move(game, state, 1, "put B2"))
    assert view(game, state, 1).kind[0][0] == "stone"  # the step is over: all is shown
    assert len(moves_seen(1)) == 2


def test_a_view_never_changes_the_state():
    game, state = game_and_state()
    before = (state.pvars[1]["secret"], list(state.decks["pile"]))
    view(game, state, 0)
    assert (state.pvars[1]["secret"], state.decks["pile"]) == before


# ------------------------------------------------------------------ secrets in the moves told to others
def test_a_move_chosen_from_a_secret_hand_is_told_to_others_without_its_value():
    from boardrule.interpreter import api
    from boardrule.interpreter.runtime import views
    game = api.open_game("tinytowns")
    assert views.secret_params(game) == {"keep_monument": {0}}  # `build` puts its building on the board
    state = api.new_game(game, 2, seed=3)
    kept = api.legal_moves(game, state, 1)[0]
    state = api.apply(game, state, api.legal_moves(game, state, 0)[0])
    state = api.apply(game, state, kept)
    told, _ = views.events(game, state, 0, range(len(state.log)))
    texts = [text for kind, seat, text, _ in told if kind == "move"]
    assert texts[-1] == "keep_monument ?" and kept.args[0] not in " ".join(texts)
    mine, _ = views.events(game, state, 1, range(len(state.log)))
    assert [t for k, _, t, _ in mine if k == "move"][-1] == f"keep_monument {kept.args[0]}"
    assert not views.scoring_reads_private(game)  # the score sheets may be shown to all


def test_passes_in_a_row_are_one_event():
    from boardrule.interpreter.runtime import views
    state = type("S", (), {"log": [["pass", 0], ["pass", 0], ["pass", 1], ["roll", "d", 3], ["pass", 0]]})()
    told, _ = views.events(None, state, 0, range(5))
    assert told == (("pass", 0, "", 2), ("pass", 1, "", 1), ("roll", None, "d: 3", 1), ("pass", 0, "", 1))


def test_players_are_named_in_turn_order_whatever_seats_they_took():
    from boardrule.interpreter import api
    from boardrule.interpreter.runtime.views import player_names, seat_names, seating_text
    game = api.open_game("townies")
    state = flow.initial_state(game, 2, seed=0, options={}, seating=(2, 4))
    assert player_names(state) == {2: "P1", 4: "P2"}
    assert seat_names(state) == {2: "P3", 4: "P5"}  # as the pack's tests and positions name them
    assert seating_text(state) == "P1 at seat 3, P2 at seat 5 (seats 1, 2 and 4 empty)"
    full = flow.initial_state(game, 5, seed=0, options={})
    assert player_names(full) == seat_names(full)
    assert seating_text(full) == "P1 at seat 1, P2 at seat 2, P3 at seat 3, P4 at seat 4, P5 at seat 5"
