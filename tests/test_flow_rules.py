"""The flow's rules as a player or a front end meets them: options, seats, turns, passes,
simultaneous steps, the limits, and what an illegal move is told, word for word.

One small pack (`PACK`) has a setup decision, turns with a `when` that reads the
parameter, a `together` step, `finish`, options of the three kinds and more seats than
players. Mutation testing of interpreter/runtime/flow.py found these rules unpinned
(docs/architecture.md).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from boardrule.dsl.diagnostics import IllegalMoveError, UsageError
from boardrule.dsl.pack import load_pack_text
from boardrule.interpreter.runtime import flow
from boardrule.interpreter.runtime.flow import (apply, apply_in_place, initial_state, legal_moves, parse_move, play_text,
                                        preview, resolve_options, settle, waiting)
from boardrule.interpreter.compiler.game import compile_game
from boardrule.interpreter.runtime.moves import DONE, Move, move_text
from boardrule.interpreter.records.serialize import state_from_json, state_to_json, states_equal
from boardrule.interpreter.runtime.values import RuleError
from boardrule.interpreter.runtime.views import view

ROOT = Path(__file__).resolve().parents[1]

PACK = """\
game: {id: flowprobe, name: Flow probe, players: 1..3, seats: 4}
board:
  grid: square 3 x 3
  shared: true
pieces:
  x: {symbol: X}
  o: {symbol: O}
options:
  variant: {values: [plain, fancy], default: plain}
  bonus: {type: bool, default: false}
  rounds: {type: int, default: 2}
actions:
  seed:
    params: {cell: cells where empty}
    effect: place o at cell
  play:
    params: {cell: cells where empty}
    when: cell != cell("A1") or me == players[2]
    effect: place x at cell
  retire:
    when: round > 1
    effect: finish me
  pick:
    params: {n: 1..2}
    effect: score n
flow:
  setup:
    - turns: [seed]
      who: players[0]
  round:
    - turns: [play, retire]
    - together: [pick]
  end: round >= rounds or none(cells, empty)
  check_end: round
"""


@pytest.fixture(scope="module")
def game():
    return compile_game(load_pack_text(PACK, "flowprobe.pack"))


def texts(game, state, seat) -> list:
    return [move_text(m, game) for m in legal_moves(game, state, seat)]


def play(game, state, *moves):
    """Each move as `seat: text`, applied in turn."""
    for spec in moves:
        seat, text = spec.split(":", 1)
        state = apply(game, state, parse_move(game, state, int(seat), text.strip()))
    return state


def refusal(call) -> tuple:
    with pytest.raises((IllegalMoveError, UsageError)) as info:
        call()
    d = info.value.diagnostic
    return type(info.value).__name__, d.code, d.message, d.hint


# ------------------------------------------------------------------ options
@pytest.mark.parametrize("text, value", [(w, True) for w in ("true", "yes", "on", "1", " Yes ")]
                         + [(w, False) for w in ("false", "no", "off", "0", "NO")])
def test_a_yes_or_no_option_takes_the_usual_words(game, text, value):
    assert resolve_options(game, {"bonus": text})["bonus"] is value


def test_options_take_their_defaults_a_number_and_a_value_of_their_list(game):
    assert resolve_options(game, {}) == {"variant": "plain", "bonus": False, "rounds": 2}
    assert resolve_options(game, {"rounds": " 7", "variant": "Fancy"}) == {"variant": "fancy", "bonus": False,
                                                                           "rounds": 7}


@pytest.mark.parametrize("given, message", [
    ({"bonus": "maybe"}, "option `bonus` takes yes or no, not `maybe`"),
    ({"rounds": "many"}, "option `rounds` takes a whole number, not `many`"),
    ({"variant": "odd"}, "option `variant` takes plain, fancy, not `odd`"),
])
def test_a_wrong_option_value_says_what_the_option_takes(game, given, message):
    assert refusal(lambda: resolve_options(game, given)) == ("UsageError", "E004", message, None)


KOMI = """\
game: {id: komi, players: 2}
options:
  komi: {type: number, default: 7.5}
board: {grid: square 2 x 1, shared: true}
pieces: {stone: {symbol: S}}
actions: {put: {params: {c: cells where empty}, effect: place stone at c}}
flow: {round: [{turns: [put]}], end: "none(cells, empty)"}
scoring:
  komi: if me == last(players) then komi else 0
"""


def test_a_number_option_takes_decimals_exactly_and_saves_as_typed():
    from boardrule.dsl.exact import exact
    from boardrule.interpreter.agents import make_agent, play_out
    from boardrule.interpreter.records.gamelog import record
    from boardrule.interpreter.runtime.flow import initial_state
    from boardrule.interpreter.runtime.scoring import score_sheet
    komi = compile_game(load_pack_text(KOMI, "komi.pack"))
    assert resolve_options(komi, {}) == {"komi": exact("7.5")}
    assert resolve_options(komi, {"komi": "6.5"}) == {"komi": exact("6.5")}
    assert resolve_options(komi, {"komi": "6"}) == {"komi": 6}
    assert refusal(lambda: resolve_options(komi, {"komi": "6,5"})) == (
        "UsageError", "E004", "option `komi` takes a number (7 or 7.5), not `6,5`", None)
    state = play_out(komi, initial_state(komi, 2, options={"komi": "0.5"}), {0: make_agent("random"),
                                                                             1: make_agent("random")})
    assert str(score_sheet(komi, state, 1).total) == "0.5"
    assert record(komi, state)["options"] == {"komi": "0.5"}


def test_an_unknown_option_is_refused_with_a_did_you_mean(game):
    assert refusal(lambda: resolve_options(game, {"bonnus": "yes"})) == \
        ("UsageError", "E003", "Flow probe has no option `bonnus`", "did you mean `bonus`?")


# ------------------------------------------------------------ players, seats
def test_a_wrong_number_of_players_is_refused(game):
    assert refusal(lambda: initial_state(game, 4)) == ("UsageError", "E002", "Flow probe is for 1-3 players, not 4",
                                                       None)


@pytest.mark.parametrize("seating", [(0, 1), (0, 0, 1), (0, 1, 4), (-1, 0, 1)])
def test_a_seating_that_does_not_fit_is_refused(game, seating):
    shown = sorted(seating)
    assert refusal(lambda: initial_state(game, 3, seating=seating)) == \
        ("UsageError", "E007", f"seating {shown} does not fit 3 players at 4 seats", None)


def test_players_sit_at_the_seats_drawn_and_the_log_says_where(game):
    state = initial_state(game, 3, seed=0)
    assert state.seats == 4 and state.players == (0, 1, 3)
    assert state.log[0] == ["seats", [0, 1, 3]]
    chosen = initial_state(game, 2, seating=(3, 1))
    assert chosen.players == (1, 3) and chosen.log[0] == ["seats", [1, 3]]


def test_the_default_seed_is_0(game):
    assert states_equal(initial_state(game, 3), initial_state(game, 3, seed=0))


# ----------------------------------------------------------------- the flow
def test_a_setup_decision_offers_the_setup_step_s_actions(game):
    state = initial_state(game, 3, seed=0)
    assert waiting(state) == [0]
    assert texts(game, state, 0)[:2] == ["seed A1", "seed B1"]


def test_when_rules_out_the_values_it_refuses(game):
    state = play(game, initial_state(game, 3, seed=0), "0: seed C3")
    assert "play A1" not in texts(game, state, 0) and texts(game, state, 0)[0] == "play B1"
    state = play(game, state, "0: play B1", "1: play C1")
    assert texts(game, state, 3)[0] == "play A1"  # the third player may


def test_turns_go_round_the_seats_in_order_then_everyone_decides_together(game):
    state = play(game, initial_state(game, 3, seed=0), "0: seed C3")
    order = []
    for cell in ("B1", "C1", "A2"):
        order.append(waiting(state))
        state = play(game, state, f"{waiting(state)[0]}: play {cell}")
    assert order == [[0], [1], [3]]
    assert waiting(state) == [0, 1, 3]  # the together step


def _to_together(game):
    state = play(game, initial_state(game, 3, seed=0), "0: seed C3", "0: play B1", "1: play C1", "3: play A2")
    assert waiting(state) == [0, 1, 3]
    return state


def test_each_seat_s_move_of_a_together_step_is_legal_in_the_same_state(game):
    state = _to_together(game)
    for seat in (0, 1, 3):  # moves built afresh, as a front end or a save gives them (not the listed objects)
        after = apply(game, state, Move(seat, "pick", (2,)))
        assert seat not in waiting(after)


def test_what_the_others_did_in_a_together_step_stays_hidden_until_it_closes(game):
    state = _to_together(game)
    assert state.snapshot is not None
    closed = play(game, state, "0: pick 2", "1: pick 1", "3: pick 1")
    # apply leaves the state alone; apply_in_place changes the state it owns, whose
    # snapshot shares its boards and values: the snapshot must stay as the step began
    for apply_move in (apply, apply_in_place):
        moved = apply_move(game, state, parse_move(game, state, 0, "pick 2"))
        assert moved.points[0] == [["points", 2]]
        assert view(game, moved, 1).points[0] == [], apply_move.__name__
        assert view(game, moved, 0).points[0] == [["points", 2]]
    assert view(game, closed, 1).points[0] == closed.points[0] and closed.snapshot is None


def test_a_seat_that_moved_in_a_together_step_is_told_who_is_still_deciding(game):
    state = play(game, _to_together(game), "1: pick 1")
    assert refusal(lambda: parse_move(game, state, 1, "pick 2")) == \
        ("IllegalMoveError", "E501", "P2 has no decision to make now (waiting for P1, P4)", None)


def test_a_finished_player_decides_no_more(game):
    state = _to_together(game)
    state = play(game, state, "0: pick 1", "1: pick 1", "3: pick 1")  # round 2
    assert state.round == 2 and "retire" in texts(game, state, 0)
    state = play(game, state, "0: retire")
    assert waiting(state) == [1] and state.finished == [0]
    state = play(game, state, "1: play A3", "3: play B3")
    assert waiting(state) == [1, 3]  # the together step, without the finished player


def test_a_seat_left_without_a_legal_move_passes(game):
    state = play(game, initial_state(game, 3, seed=0), "0: seed C3")
    state.kind[0] = [None, None] + ["o"] * 7  # A1 and B1 free; `when` rules out A1
    settle(game, state)
    state = play(game, state, "0: play B1")
    # the move that leaves P2 without a legal move comes first in the log, then P2's pass
    # (the pass was once logged before the move that caused it)
    assert state.log[-2:] == [["move", 0, "play B1"], ["pass", 1]]
    assert waiting(state) == [3]  # the next seat, who may play A1
    state = play(game, state, "3: play A1")
    assert waiting(state) == [0, 1, 3]  # on to the together step


def test_settle_passes_a_waiting_seat_that_lost_its_moves(game):
    state = play(game, initial_state(game, 3, seed=0), "0: seed C3")
    state.kind[0] = ["x"] * 9
    settle(game, state)
    assert state.log[-3:] == [["pass", 0], ["pass", 1], ["pass", 3]] and waiting(state) == [0, 1, 3]


def test_the_game_ends_at_the_end_of_the_round_its_end_holds_in(game):
    state = _to_together(game)
    for _ in range(2):
        seats = waiting(state) if len(waiting(state)) > 1 else None
        state = play(game, state, "0: pick 1", "1: pick 1", "3: pick 1") if seats else state
        while waiting(state) and len(waiting(state)) == 1:
            state = apply(game, state, legal_moves(game, state, waiting(state)[0])[0])
    assert state.phase == "over" and state.round == 2 and waiting(state) == [] and state.queue == ()
    assert states_equal(state_from_json(game, state_to_json(game, state)), state)


# ----------------------------------------------------------- illegal moves
def test_illegal_moves_are_told_why(game):
    state = play(game, initial_state(game, 3, seed=0), "0: seed C3")
    cases = [
        (lambda: apply(game, state, Move(1, "play", (0,))),
         ("IllegalMoveError", "E501", "P2 has no decision to make now (waiting for P1)", None)),
        (lambda: parse_move(game, state, 3, "play B1"),
         ("IllegalMoveError", "E501", "P4 has no decision to make now (waiting for P1)", None)),
        (lambda: apply(game, state, Move(0, "pick", (1,))),
         ("IllegalMoveError", "E502", "action `pick` is not available now; available: play, retire", None)),
        (lambda: apply(game, state, Move(0, DONE)),
         ("IllegalMoveError", "E502", "`done` is only possible in a decision that may be repeated", None)),
        (lambda: apply(game, state, Move(0, "play", (1, 2))),
         ("IllegalMoveError", "E502", "action `play` takes 1 value(s), 2 given", None)),
        (lambda: apply(game, state, Move(0, "play", (8,))),
         ("IllegalMoveError", "E502", "parameter `cell` of `play`: C3 is not one of `cells where empty`", None)),
        (lambda: apply(game, state, Move(0, "play", (0,))),
         ("IllegalMoveError", "E502", "the condition of `play` fails: `when: cell != cell(\"A1\") or me == "
                                      "players[2]`", None)),
        (lambda: apply(game, state, Move(0, "retire", ())),
         ("IllegalMoveError", "E502", "the condition of `retire` fails: `when: round > 1`", None)),
        (lambda: parse_move(game, state, 0, "paly B1"),
         ("IllegalMoveError", "E503", "`paly` is not an action here; expected one of: play, retire",
          "did you mean `play`?")),
        (lambda: parse_move(game, state, 0, "  "),
         ("IllegalMoveError", "E503", "`` is not an action here; expected one of: play, retire", None)),
        (lambda: parse_move(game, state, 0, "play Z9"),
         ("IllegalMoveError", "E504", "`play Z9` is not a legal move now (7 legal moves)", None)),
        (lambda: play_text(game, state, 0, "play B1 / B2"),
         ("IllegalMoveError", "E505", "`play B1 / B2` answers more choices than the move asks", None)),
    ]
    for call, expected in cases:
        assert refusal(call) == expected


def test_a_move_after_the_end_is_told_the_game_is_over(game):
    state = initial_state(game, 1, options={"rounds": 1}, seating=(0,))
    state = play(game, state, "0: seed A1", "0: play B1", "0: pick 1")
    assert state.phase == "over"
    assert refusal(lambda: apply(game, state, Move(0, "play", (2,)))) == \
        ("IllegalMoveError", "E501", "the game is over", None)


def test_preview_shows_the_move_s_effect_and_leaves_the_state_alone(game):
    state = play(game, initial_state(game, 3, seed=0), "0: seed C3")
    before = state.clone()
    seen = preview(game, state, parse_move(game, state, 0, "play B1"))
    assert seen.kind[0][1] == "x" and state.kind[0][1] is None and states_equal(state, before)
    assert waiting(seen) == [0]  # the flow has not gone on


# ------------------------------------------------------------------ limits
REPEAT = """\
game: {id: loop, name: Loop, players: 1}
board: {grid: square 2 x 2}
pieces: {x: {symbol: X}}
actions:
  wait: {effect: "score 0"}
  mark:
    params: {cell: cells where empty}
    effect: place x at cell
flow:
  round:
    - turns: [wait]
      repeat: true
    - turns: [mark]
  end: none(cells, empty)
  max_rounds: 4
"""


@pytest.fixture(scope="module")
def loop():
    return compile_game(load_pack_text(REPEAT, "loop.pack"))


def test_a_step_may_take_exactly_its_limit_of_moves(loop, monkeypatch):
    monkeypatch.setattr(flow, "MAX_MOVES_PER_STEP", 5)
    state = initial_state(loop, 1)
    for _ in range(5):
        state = apply(loop, state, Move(0, "wait", ()))
    with pytest.raises(RuleError) as info:
        apply(loop, state, Move(0, "wait", ()))
    assert str(info.value).startswith("the players made 5 moves in this step without it ending "
                                      "(a repeated step whose moves change nothing never ends)")
    assert info.value.span.line == 11  # the step's `turns:`


def test_a_new_step_counts_its_moves_from_zero(loop, monkeypatch):
    monkeypatch.setattr(flow, "MAX_MOVES_PER_STEP", 3)
    state = initial_state(loop, 1)
    for _ in range(2):
        for _ in range(2):
            state = apply(loop, state, Move(0, "wait", ()))
        state = apply(loop, state, Move(0, DONE))  # the third move of the step
        state = apply(loop, state, legal_moves(loop, state, 0)[0])  # mark: a step of its own
    assert state.round == 3


def test_a_game_may_last_exactly_max_rounds(loop):
    state = initial_state(loop, 1)
    for _ in range(4):
        state = apply(loop, state, Move(0, DONE))
        state = apply(loop, state, legal_moves(loop, state, 0)[0])
    assert state.phase == "over" and state.round == 4


def test_a_game_past_max_rounds_is_stopped_naming_end():
    shorter = compile_game(load_pack_text(REPEAT.replace("max_rounds: 4", "max_rounds: 3"), "loop.pack"))
    state = initial_state(shorter, 1)
    for _ in range(2):
        state = apply(shorter, state, Move(0, DONE))
        state = apply(shorter, state, legal_moves(shorter, state, 0)[0])
    state = apply(shorter, state, Move(0, DONE))
    with pytest.raises(RuleError) as info:
        apply(shorter, state, legal_moves(shorter, state, 0)[0])  # the fourth round would begin
    assert str(info.value).startswith("the game did not end within 3 rounds (max_rounds); check `end:`")
    assert info.value.span.line == 14  # `end:`


def test_a_game_may_run_exactly_its_limit_of_flow_steps(game, monkeypatch):
    def finish(limit):
        monkeypatch.setattr(flow, "MAX_STEPS", limit)
        state = initial_state(game, 1, options={"rounds": 1}, seating=(0,))
        return play(game, state, "0: seed A1", "0: play B1", "0: pick 1")
    steps = finish(100_000).steps_run
    assert finish(steps).phase == "over"
    with pytest.raises(RuleError) as info:
        finish(steps - 1)
    assert str(info.value).startswith(f"the flow ran {steps - 1} steps without ending; check `end:`")


def test_the_limits_in_the_docs_are_the_engine_s():
    page = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    assert f"a game at {flow.MAX_STEPS:,} flow steps" in page  # MAX_COMBINATIONS: test_score_sheets.py
    safety = (ROOT / "docs" / "safety.md").read_text(encoding="utf-8")
    assert f"{flow.MAX_MOVES_PER_STEP:,} moves in one step" in safety


CHOICES = """\
game: {id: choices, name: Choices, players: 1}
board: {grid: square 3 x 1}
pieces: {x: {symbol: X}, o: {symbol: O}}
shapes: {pair: {art: X X}}
vars: {ready: 0}
actions:
  mark:
    params: {cell: cells where empty}
    when: |
      cell != cell("C1")
        or ready == 1
    effect: |
      place x at cell
      choose optional c from cells where empty { place o at c }
  lay:
    params: {at: "placements(pair, cells where empty) where count(it) == 2"}
    effect: for c in at { place o at c }
flow:
  setup:
    - do: set ready = 0
  round:
    - turns: [mark, lay]
  end: none(cells, empty)
"""


@pytest.fixture(scope="module")
def choices():
    return compile_game(load_pack_text(CHOICES, "choices.pack"))


def test_an_optional_choice_lists_its_options_then_the_answer_none(choices):
    state = apply(choices, initial_state(choices, 1), parse_move(choices, initial_state(choices, 1), 0, "mark A1"))
    assert texts(choices, state, 0) == ["mark A1 / B1", "mark A1 / C1", "mark A1 / -"]
    assert apply(choices, state, legal_moves(choices, state, 0)[-1]).kind[0] == ["x", None, None]


def test_an_answer_that_is_no_option_is_told_so(choices):
    state = initial_state(choices, 1)
    state = apply(choices, state, parse_move(choices, state, 0, "mark A1"))
    assert refusal(lambda: apply(choices, state, Move(0, "mark", (0,), (0,)))) == \
        ("IllegalMoveError", "E502", "this answer is not one of the options of the choice being made", None)


def test_a_condition_on_several_lines_is_named_by_where_it_is(choices):
    state = initial_state(choices, 1)
    assert refusal(lambda: apply(choices, state, Move(0, "mark", (2,)))) == \
        ("IllegalMoveError", "E502", "the condition of `mark` fails: `when: choices.pack:10:7`", None)


def test_a_shape_that_does_not_fit_is_told_why(choices):
    state = initial_state(choices, 1)
    assert refusal(lambda: apply(choices, state, Move(0, "lay", ((0, 2),)))) == \
        ("IllegalMoveError", "E502", "parameter `at` of `lay`: A1+C1 is not one of `placements(pair, cells where "
                                     "empty) where count(it) == 2`: no orientation of the shape covers these cells",
         None)


def test_the_end_is_judged_after_a_do_step_when_checked_every_turn():
    game = compile_game(load_pack_text(CHOICES.replace("  end: none(cells, empty)", "  end: ready == 1")
                                       .replace("    - turns: [mark, lay]", "    - do: set ready = 1\n"
                                                "    - turns: [mark, lay]"), "choices.pack"))
    state = initial_state(game, 1)
    assert state.phase == "over" and state.round == 1 and waiting(state) == []


def test_a_flow_without_round_steps_is_a_rule_error_naming_end():
    text = CHOICES.replace("  round:\n    - turns: [mark, lay]\n", "")
    with pytest.raises(RuleError) as info:
        initial_state(compile_game(load_pack_text(text, "choices.pack")), 1)
    assert str(info.value).startswith("the flow has no `round:` steps") and info.value.span.line == 21


def test_a_do_step_with_nothing_to_do_does_nothing():
    # found by tests/test_fuzz.py (a mutated pack): an empty `do: |` crashed check and play with an internal error
    text = (ROOT / "tests" / "packs" / "groups.pack").read_text(encoding="utf-8")
    empty = text.replace("  setup:\n    - do: |\n", "  setup:\n    - do: |\n    - do: |\n", 1)
    empty = empty.replace("  round:\n", "  round:\n    - do: |\n", 1)
    assert empty.count("- do: |\n") == 3
    game = compile_game(load_pack_text(empty, "empty-do.pack"))
    state = initial_state(game, 1, 0)
    assert len(legal_moves(game, state, 0)) == 2  # the setup after the empty step placed the stones
    state = play_text(game, state, 0, "take C3")
    assert len(legal_moves(game, state, 0)) == 1  # and the round's empty step let the next turn come


HELD = """\
game: {id: held, name: Held, players: 2}
board: {grid: square 3 x 1, shared: true}
pieces:
  stone: {symbol: S}
vars:
  mover: none
player_vars:
  buttons: 0
actions:
  go:
    params: {cell: cells where empty}
    effect: |
      place stone at cell
      set mover = me
      mover.buttons += 2
flow:
  round:
    - turns: [go]
    - do: for p in players { score p.buttons as "buttons" }
  end: none(cells, empty)
"""


def test_a_player_held_in_a_variable_has_variables_to_set_and_a_loop_over_players_scores_in_a_do_step():
    # once refused: `mover` "is not a player" (E207), and `score` in a `for` over players needed a player (E208)
    game = compile_game(load_pack_text(HELD, "held.pack"))
    state = initial_state(game, 2, seed=0)
    for seat, cell in ((0, "A1"), (1, "B1")):
        state = play_text(game, state, seat, f"go {cell}")
    assert [v["buttons"] for v in state.pvars] == [2, 2]
    assert state.points[0] == [["buttons", 2]] and state.points[1] == [["buttons", 2]]
