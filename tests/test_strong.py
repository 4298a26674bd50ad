"""The `strong` agent (interpreter/agents/ismcts.py) and the evaluation it judges by (interpreter/agents/evaluation.py):
settings, determinism whatever the processes, legal moves only, nothing seen that the player may not see."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from boardrule.dsl.diagnostics import UsageError
from boardrule.interpreter.agents import evaluation
from boardrule.interpreter.runtime import flow
from boardrule.interpreter.agents import make_agent
from boardrule.interpreter.api import new_game, open_game
from boardrule.interpreter.runtime.moves import move_text
from boardrule.interpreter.agents.ismcts import SearchAgent, info_key, parse_settings
from boardrule.interpreter.runtime.state import LazyRandom
from test_simulate import PEEK  # the one-card peeking pack: what a seat may not see

PACKS = Path(__file__).resolve().parent / "packs"


def _moves_of(agent_name, game, players, seed, agent_seed=3):
    """The moves one agent makes in a whole game (it plays every seat)."""
    state = new_game(game, players=players, seed=seed)
    agent = make_agent(agent_name, agent_seed)
    made = []
    while state.phase != "over":
        seat = flow.waiting(state)[0]
        moves = flow.legal_moves(game, state, seat)
        move = agent(game, state, seat, moves)
        assert move in moves  # only legal moves
        made.append(move_text(move, game))
        state = flow.apply(game, state, move)
    return made


def test_strong_settings():
    assert parse_settings("") == {}
    assert parse_settings("50") == {"iterations": 50, "work": None}
    assert parse_settings("0.5s") == {"seconds": 0.5, "iterations": None, "work": None}
    assert parse_settings("20:depth=4:trees=2:jobs=2") == {"iterations": 20, "work": None, "depth": 4, "trees": 2,
                                                          "jobs": 2}
    for bad in ("0", "depth=-1", "x=1", "-1s", "trees=0", "widen=-1", "playout=many"):
        with pytest.raises(UsageError) as info:
            parse_settings(bad)
        assert info.value.diagnostic.code == "E005", bad
    assert parse_settings("stranded=0:shapes=0") == {"stranded": 0.0, "shapes": 0.0}  # 0 turns a term off
    assert parse_settings("missing=3") == {"missing": 3}
    with pytest.raises(UsageError, match="missing must be 1 to"):
        parse_settings("missing=0")
    with pytest.raises(UsageError, match="stranded must be a number, 0 or more, not -1"):
        parse_settings("stranded=-1")


def test_a_guided_playout_charges_the_work_of_each_move_it_judges(monkeypatch):
    from boardrule.interpreter.agents import ismcts
    game = open_game("tictactoe")  # (no shapes: the shape potential charges nothing of its own)
    state = new_game(game, players=2, seed=1)
    moves = flow.legal_moves(game, state, 0)
    spent = []
    for extra in (0, 10_000):
        monkeypatch.setattr(ismcts, "JUDGED", ismcts.patterns.COPY_UNITS + ismcts.patterns.JUDGED_UNITS + extra)
        agent = make_agent("strong:6:playout=4", 2)
        agent(game, state, 0, moves)
        spent.append(agent._work_spent)
    assert spent[1] - spent[0] >= 10_000 * 6  # each playout judges moves: at least one per iteration


def test_strong_is_deterministic_for_a_seed_and_budget():
    game = open_game(str(PACKS / "towns.pack"))
    first = _moves_of("strong:12:depth=4", game, 1, seed=5)
    assert first == _moves_of("strong:12:depth=4", game, 1, seed=5)


def test_strong_makes_the_same_moves_in_one_process_or_several():
    game = open_game(str(PACKS / "towns.pack"))
    state = new_game(game, players=1, seed=2)
    alone = _moves_of("strong:16:depth=4:trees=2", game, 1, seed=2)
    together = _moves_of("strong:16:depth=4:trees=2:jobs=2", game, 1, seed=2)
    assert alone == together
    assert state.phase != "over"


@pytest.mark.parametrize("name", ["strong:6:depth=3", "greedy", "mcts:4:depth=2"])
def test_agents_play_only_legal_moves_in_every_bundled_pack(name):
    from boardrule.dsl.extends import bundled_pack_names
    for pack in bundled_pack_names():
        game = open_game(pack)
        players = max(game.players_range[0], min(2, game.players_range[1]))
        made = _moves_of(name, game, players, seed=1) if pack in ("tictactoe", "connect4") else None
        if made is None:  # the long games: a few decisions are enough
            state = new_game(game, players=players, seed=1)
            agent = make_agent(name, 1)
            for _ in range(6):
                if state.phase == "over":
                    break
                seat = flow.waiting(state)[0]
                moves = flow.legal_moves(game, state, seat)
                move = agent(game, state, seat, moves)
                assert move in moves
                state = flow.apply(game, state, move)


def test_strong_does_not_see_the_deck_order_or_the_future_dice(tmp_path):
    (tmp_path / "peek.pack").write_text(PEEK)
    game = open_game(str(tmp_path / "peek.pack"))
    state = new_game(game, players=1, seed=1)
    other = state.clone()
    other.decks["cards"] = list(reversed(other.decks["cards"]))
    other.rng = LazyRandom.seeded(12345)
    assert other.decks != state.decks
    moves = flow.legal_moves(game, state, 0)
    for seed in range(4):
        assert SearchAgent(seed, iterations=30, work=None)(game, state, 0, moves) == \
            SearchAgent(seed, iterations=30, work=None)(game, other, 0, moves)
    assert info_key(state, 0) == info_key(other, 0)


def test_evaluation_is_the_score_as_if_the_game_ended_now():
    game = open_game(str(PACKS / "towns.pack"))
    state = new_game(game, players=1, seed=0)
    from boardrule.interpreter.runtime.scoring import score_sheet
    assert evaluation.score_now(game, state, 0) == score_sheet(game, state, 0).total
    judged = evaluation.evaluate(game, state, 0, ahead=False)
    assert judged == score_sheet(game, state, 0).total
    assert evaluation.evaluate(game, state, 0, random.Random(0)) >= judged  # the next move may only add


@pytest.mark.parametrize("name", ["greedy", "mcts:6:depth=3", "strong:6:depth=3"])
def test_agents_never_see_another_players_private_values(name):
    game = open_game("tinytowns")
    state = new_game(game, players=2, seed=4)
    agent = make_agent("random", 0)
    while any(not state.pvars[s]["my_monument"] for s in state.players) or flow.waiting(state) != [0]:
        seat = flow.waiting(state)[0]
        state = flow.apply(game, state, agent(game, state, seat, flow.legal_moves(game, state, seat)))
    other = state.clone()
    other.pvars[1] = dict(other.pvars[1])
    other.pvars[1]["my_monument"] = other.pvars[0]["my_monument"]  # the opponent holds something else
    other.pvars[1]["dealt"] = list(other.pvars[0]["dealt"])
    assert other.pvars[1] != state.pvars[1]
    moves = flow.legal_moves(game, state, 0)
    assert moves == flow.legal_moves(game, other, 0)
    for seed in range(3):
        assert make_agent(name, seed)(game, state, 0, moves) == make_agent(name, seed)(game, other, 0, moves)
    assert info_key(state, 0, game.private_vars) == info_key(other, 0, game.private_vars)


def test_a_packs_evaluate_hint_is_added_to_the_value_while_the_game_is_on(tmp_path):
    (tmp_path / "hinted.pack").write_text(PEEK + "evaluate: turn * 10 + me.score\n")
    game = open_game(str(tmp_path / "hinted.pack"))
    state = new_game(game, players=1, seed=1)
    assert state.vars["turn"] == 1
    assert evaluation.hint(game, state, 0) == 10.0
    assert evaluation.evaluate(game, state, 0, ahead=False) == evaluation.score_now(game, state, 0) + 10.0
    agent = make_agent("strong:8", 0)
    while state.phase != "over":
        state = flow.apply(game, state, agent(game, state, 0, flow.legal_moves(game, state, 0)))
    assert evaluation.hint(game, state, 0) == 0.0  # the game is over: the final score alone


def test_an_evaluate_hint_that_is_not_a_number_is_a_diagnostic(tmp_path):
    from boardrule.dsl.diagnostics import PackError
    (tmp_path / "bad.pack").write_text(PEEK + "evaluate: high\n")
    with pytest.raises(PackError) as info:
        open_game(str(tmp_path / "bad.pack"))
    text = str(info.value)
    assert "E210" in text and "`evaluate` (the agents' hint) must be a number" in text
    assert "evaluate: high" in text  # the source line, with its caret
