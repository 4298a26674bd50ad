"""The ladder: pairs of agents in duplicate matches, one rating scale, intervals (interpreter/lab/ladder.py)."""

from __future__ import annotations

import json
import math
import random

from click.testing import CliRunner

import boardrule.cli.commands  # noqa: F401  (registers the commands)
import boardrule.cli.ladder  # noqa: F401  (registers ladder)
from boardrule.cli.main import cli
from boardrule.interpreter.lab import ladder as ladder_module
from boardrule.interpreter.lab.ladder import bootstrap, deal_results, expected, fit, ladder


def _deals(wins, draws, losses):
    return [[1, 0, 0]] * wins + [[0, 1, 0]] * draws + [[0, 0, 1]] * losses


def test_even_results_rate_the_agents_alike():
    ratings = fit(["a", "b"], {("a", "b"): _deals(30, 40, 30)})
    assert ratings["a"] == 0.0 and abs(ratings["b"]) < 1e-6


def test_three_wins_to_one_is_about_190_elo():
    ratings = fit(["a", "b"], {("a", "b"): _deals(0, 0, 3000) + _deals(1000, 0, 0)})
    # b scores 3 to 1 (plus the prior's one draw): 400 log10(3000.5 / 1000.5)
    assert abs(ratings["b"] - 400 * math.log10(3000.5 / 1000.5)) < 0.01


def test_ratings_follow_the_results_and_stay_finite_when_one_wins_everything():
    results = {("a", "b"): _deals(0, 0, 20), ("b", "c"): _deals(0, 0, 20), ("a", "c"): _deals(0, 0, 20)}
    ratings = fit(["a", "b", "c"], results)
    assert ratings["a"] < ratings["b"] < ratings["c"]
    assert all(math.isfinite(value) for value in ratings.values())


def test_the_bootstrap_interval_holds_the_rating_and_is_reproducible():
    agents = ["a", "b"]
    results = {("a", "b"): _deals(12, 3, 5)}
    low, high = bootstrap(agents, results, random.Random(4))
    rating = fit(agents, results)["b"]
    assert low["b"] <= rating <= high["b"] and low["b"] < high["b"]
    assert bootstrap(agents, results, random.Random(4)) == (low, high)


def test_expected_share_of_points():
    assert expected(0) == 0.5
    assert abs(expected(400) - 10 / 11) < 1e-12


def _record(deal, seats):
    return {"deal": deal, "game": 0, "seats": [dict(agent=a, score=s, place=p) for a, s, p in seats]}


def test_alone_at_the_table_the_higher_score_of_a_deal_wins_it():
    records = [_record(0, [("x", 10, 1)]), _record(0, [("y", 12, 1)]),
               _record(1, [("x", 8, 1)]), _record(1, [("y", 8, 1)])]
    assert deal_results(records, "x", "y", 1) == [[0, 0, 1], [0, 1, 0]]


def test_with_others_the_better_place_wins_and_a_shared_place_is_a_draw():
    records = [_record(0, [("x", 3, 1), ("y", 1, 2)]), _record(0, [("y", 2, 1), ("x", 2, 1)])]
    assert deal_results(records, "x", "y", 2) == [[1, 1, 0]]


def test_a_ladder_of_tic_tac_toe_puts_the_searching_agent_above_random():
    table = ladder("tictactoe", ["random", "greedy"], games=4, seed=1)
    assert [row["agent"] for row in table["ratings"]] == ["greedy", "random"]  # the module's example
    table = ladder("tictactoe", ["random", "mcts:30"], games=12, seed=1)
    top = table["ratings"][0]
    assert top["agent"] == "mcts:30" and top["rating"] > 0 and top["low"] > 0
    assert table["pairs"][0]["games"] == 12 and table["anchor"] == "random"


def test_the_same_seed_gives_the_same_ladder_whatever_the_jobs():
    one = ladder("tictactoe", ["random", "greedy"], games=6, seed=3)
    assert ladder("tictactoe", ["random", "greedy"], games=6, seed=3, jobs=2) == one
    assert ladder("tictactoe", ["random", "greedy"], games=6, seed=4) != one


def test_a_solo_ladder_compares_scores_on_the_same_deal(monkeypatch):
    monkeypatch.setattr(ladder_module, "BOOTSTRAP", 20)
    table = ladder("tinytowns", ["random", "greedy"], games=4, seed=2, players=1)
    assert table["players"] == 1
    assert sum(row["games"] for row in table["ratings"]) == 2 * 2  # 2 deals, each counted for both agents


def test_the_command_prints_the_table_and_refuses_bad_requests():
    runner = CliRunner()
    out = runner.invoke(cli, ["ladder", "tictactoe", "--agents", "random,greedy", "--games", "4"])
    assert out.exit_code == 0, out.output
    assert "rating" in out.output and "(rated 0)" in out.output and "random vs greedy" in out.output
    data = json.loads(runner.invoke(cli, ["ladder", "tictactoe", "--agents", "random,greedy", "--games", "4",
                                          "--format", "json"]).output)
    assert {row["agent"] for row in data["ratings"]} == {"random", "greedy"}
    for bad in (["--agents", "greedy"], ["--agents", "greedy,greedy"], ["--games", "1"], ["--agents", "random,wizard"],
                ["--players", "9"]):
        refused = runner.invoke(cli, ["ladder", "tictactoe", *bad])
        assert refused.exit_code == 2, (bad, refused.output)
        assert "Traceback" not in refused.output
