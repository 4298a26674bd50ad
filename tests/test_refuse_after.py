"""`refuse_after:`, conditions judged on the state a move's effect leaves (a move is not legal when one holds),
and `repeated`, whether the boards are in a position they were in before (runtime/after.py): listing, `can`,
the reasons told, the checker's and compiler's diagnostics, the history of positions in saves and replays."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from boardrule.dsl.diagnostics import IllegalMoveError, PackError, SaveError
from boardrule.dsl.pack import load_pack_text
from boardrule.dsl.resolution import Value
from boardrule.interpreter import api
from boardrule.interpreter.compiler import exprs, reference
from boardrule.interpreter.compiler.game import compile_game
from boardrule.interpreter.records import gamelog
from boardrule.interpreter.records.serialize import state_from_json, state_to_json, states_equal
from boardrule.interpreter.runtime import after, flow
from boardrule.interpreter.runtime.moves import move_text
from boardrule.interpreter.runtime.reasons import refusal
from boardrule.interpreter.runtime.values import PLAYERS

ROOT = Path(__file__).resolve().parent.parent

BACK = """\
game: {id: back, name: Back, players: 2}
board: {grid: square 3 x 1, shared: true}
pieces:
  stone: {symbol: S}
vars:
  taken: 0
actions:
  put:
    params: {cell: cells where empty}
    effect: place stone at cell
  take:
    params: {cell: cells where occupied}
    refuse_after: {if: repeated, why: "the board may not come back to where it was"}
    effect: |
      remove cell
      taken += 1
  wait:
    refuse_after: repeated
    effect: taken += 0
flow:
  round:
    - turns: [put, take, wait]
  end: taken >= 3
"""

CROWDED = """\
game: {id: crowded, name: Crowded, players: 2}
board: {grid: square 5 x 1, shared: true}
pieces:
  stone: {symbol: S}
actions:
  put:
    params: {cell: cells where empty}
    refuse_after:
      - {if: "any(cells where owner == me and none(adjacent, empty))", why: "a stone of yours would be shut in"}
      - {if: count(cells where occupied) > 2, why: two stones are enough}
    effect: place stone at cell
  wait:
    when: not can(me, put)
    effect: score 0
flow:
  round:
    - turns: [put, wait]
  end: round > 4
"""


def game_of(text, name="back.pack"):
    return compile_game(load_pack_text(text, name))


def play(game, moves, players=2):
    state = flow.initial_state(game, players, seed=0)
    for seat, text in moves:
        state = flow.play_text(game, state, seat, text)
    return state


def listed(game, state, seat):
    return [move_text(m, game) for m in flow.legal_moves(game, state, seat)]


def test_a_move_that_brings_back_an_earlier_position_is_not_listed():
    game = game_of(BACK)
    state = play(game, [(0, "put A1")])
    # taking A1 back empties the board, as it was when P1 put: refused; `wait` changes nothing: refused too
    assert listed(game, state, 1) == ["put B1", "put C1"]
    state = play(game, [(0, "put A1"), (1, "put B1"), (0, "take A1")])
    assert "take B1" not in listed(game, state, 1)  # the empty board again
    state = play(game, [(0, "put A1"), (1, "put B1")])
    assert "take A1" in listed(game, state, 0)  # B1 alone: never seen


def test_the_refusal_is_told_in_the_packs_words_and_explained_by_its_rule():
    game = game_of(BACK)
    state = play(game, [(0, "put A1")])
    assert refusal(game, state, 1, "take A1").startswith("the board may not come back to where it was")
    assert refusal(game, state, 1, "wait").startswith("not allowed: after this move, `repeated` would hold")
    move = flow.Move(1, "take", (0,))
    assert flow.explain_illegal(game, state, move) == (
        "the condition after the move of `take` refuses it: `refuse_after: repeated` holds on the state the move "
        "would leave")
    with pytest.raises(IllegalMoveError) as err:
        flow.apply(game, state, move)
    assert "refuse_after: repeated" in str(err.value)


def test_a_pack_test_whose_move_is_refused_after_names_the_condition(tmp_path):
    from boardrule.interpreter.designer.check import check_pack
    path = tmp_path / "back.pack"
    path.write_text(BACK + "tests:\n  - name: back\n    moves: [P1 put A1, P2 take A1]\n")
    report = check_pack(path)
    found = [d for d in report.diagnostics if d.code == "E504"]
    assert found and "`refuse_after: repeated` holds on the state the move would leave" in found[0].message


def test_any_condition_of_a_list_refuses_and_can_sees_it():
    game = game_of(CROWDED, "crowded.pack")
    state = play(game, [(0, "put A1")])
    assert listed(game, state, 1) == ["put B1", "put C1", "put D1", "put E1"]  # no stone of P2's is shut in
    state = play(game, [(0, "put A1"), (1, "put E1")])
    # B1 shuts A1 in; C1 and D1 would make three stones: `can(me, put)` is false, so P1 waits
    assert listed(game, state, 0) == ["wait"]
    assert refusal(game, state, 0, "put B1").startswith("a stone of yours would be shut in")
    assert refusal(game, state, 0, "put C1").startswith("two stones are enough")


def test_repeated_agrees_in_the_generated_code_the_closures_and_the_reference():
    game = game_of(BACK)
    node = next(n for n, r in game.pack.checked.resolved.items() if r == Value("repeated"))
    for seen, expected in ((False, False), (True, True)):
        state = play(game, [(0, "put A1"), (1, "put B1")])
        if seen:  # as if the game had been in this position before
            state.positions = state.positions + (after.position_digest(state),)
        generated = api.evaluate(game, state, "repeated")[0]
        exprs.GENERATE = False
        try:
            closures = api.evaluate(game, state, "repeated")[0]
        finally:
            exprs.GENERATE = True
        assert generated == closures == reference.evaluate(game, node, game.ctx(state, me=PLAYERS[0])) == expected


def test_the_history_is_kept_only_by_a_pack_that_reads_repeated_and_saved_with_the_state():
    game = game_of(BACK)
    state = play(game, [(0, "put A1"), (1, "put B1")])
    assert len(state.positions) == 2
    saved = state_to_json(game, state)
    assert saved["state"]["positions"] == {"T": list(state.positions)}
    assert states_equal(state_from_json(game, saved), state)
    saved["state"]["positions"] = {"T": ["not a digest"]}
    with pytest.raises(SaveError, match=r"state.positions\[0\]"):
        state_from_json(game, saved)
    other = game_of(CROWDED, "crowded.pack")
    plain = play(other, [(0, "put A1")])
    assert plain.positions == () and "positions" not in state_to_json(other, plain)["state"]


def test_a_replay_makes_the_history_again_from_the_moves():
    game = game_of(BACK)
    state = play(game, [(0, "put A1"), (1, "put B1"), (0, "take A1")])
    log = gamelog.record(game, state, seed=0)
    assert gamelog.replay(game, log).positions == state.positions == (
        after.position_digest(flow.initial_state(game, 2, seed=0)),) + state.positions[1:]


def test_the_digest_of_a_position_is_the_same_in_every_process():
    code = ("from boardrule.dsl.pack import load_pack\n"
            "from boardrule.interpreter.compiler.game import compile_game\n"
            "from boardrule.interpreter.runtime import flow, after\n"
            "game = compile_game(load_pack('tests/suite/go.pack'))\n"
            "state = flow.initial_state(game, 2, seed=0)\n"
            "for seat, text in ((0, 'play C3'), (1, 'play D4'), (0, 'pass')):\n"
            "    state = flow.play_text(game, state, seat, text)\n"
            "print(after.position_digest(state), state.positions)\n")
    outputs = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True,
                              env={**os.environ, "PYTHONHASHSEED": seed}).stdout for seed in ("1", "2")}
    assert len(outputs) == 1, outputs


@pytest.mark.parametrize("action, code, message", [
    ("put:\n    params: {cell: cells where empty}\n    refuse_after: count(cells)\n    effect: place stone at cell",
     "E210", "the condition after the move of action `put` must be"),
    ("put:\n    params: {cell: cells where empty}\n    refuse_after: can(me, put)\n    effect: place stone at cell",
     "E241", "`can(..., put)` in the rules of `put` itself"),
    ("put:\n    refuse_after: repeated\n    effect: choose c from cells where empty { place stone at c }",
     "E242", "action `put` asks a choice in its effect, so the state after its move is not known"),
])
def test_misuse_of_refuse_after_is_a_typed_error(action, code, message):
    text = ("game: {id: bad, players: 1}\nboard: {grid: square 2 x 1}\npieces:\n  stone: {symbol: S}\n"
            f"actions:\n  {action}\nflow:\n  round:\n    - turns: [put]\n  end: none(cells, empty)\n")
    with pytest.raises(PackError) as err:
        game_of(text, "bad.pack")
    found = [d for d in err.value.diagnostics if d.code == code]
    assert found and found[0].span is not None and found[0].span.line > 0, [str(d) for d in err.value.diagnostics]
    assert message in found[0].message, found[0].message


COUNTED = """\
game: {id: counted, name: Counted, players: 2}
board: {grid: square 3 x 1, shared: true}
pieces:
  stone: {symbol: S}
define:
  filled: count(cells where occupied)
vars:
  grew: 0
actions:
  put:
    params: {cell: cells where empty}
    refuse_after: {if: grew != 1, why: "a stone adds one to the count"}
    effect: |
      let before = filled
      place stone at cell
      let later = filled
      set grew = later - before
flow:
  round:
    - turns: [put]
  end: none(cells, empty)
"""


def test_the_lets_an_effect_starts_with_read_the_listing_memo_and_those_after_a_change_do_not():
    # the candidates of a `refuse_after:` action share what their effects read before changing anything
    # (effects.trial_block); a `let` after the first change works its value out afresh: `later` is one more
    game = game_of(COUNTED, "counted.pack")
    state = api.new_game(game, players=2, seed=0)
    assert listed(game, state, 0) == ["put A1", "put B1", "put C1"]
    state = play(game, [(0, "put B1")])
    assert listed(game, state, 1) == ["put A1", "put C1"]


def test_the_listing_of_a_capture_game_with_superko_is_the_same_with_the_shared_memo_and_without():
    game = api.open_game(str(ROOT / "tests" / "suite" / "go.pack"))
    trials = {name: action.trial_effect for name, action in game.actions.items()}
    assert trials["play"] is not None  # its effect starts with a `let`
    import random
    chooser = random.Random(3)
    state = api.new_game(game, players=2, seed=3)
    try:
        for _ in range(60):
            seat = flow.waiting(state)[0]
            with_memo = flow.legal_moves(game, state.clone(), seat)
            for action in game.actions.values():
                action.trial_effect = None
            without = flow.legal_moves(game, state.clone(), seat)
            for name, action in game.actions.items():
                action.trial_effect = trials[name]
            assert with_memo == without
            state = flow.apply(game, state, chooser.choice(with_memo))
    finally:
        for name, action in game.actions.items():
            action.trial_effect = trials[name]
