"""The balance lab: statistics, seeds, simulate's report and formats, duplicate chance,
comparisons, parallel and Dask runs, the search agent, and bad input."""

from __future__ import annotations

import csv
import io
import json
import math
import os
import re
import shlex
import statistics
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import boardrule.cli.ladder  # noqa: F401  (registers ladder)
import boardrule.cli.simulate  # noqa: F401  (registers simulate and bench)
from boardrule.cli.main import cli
from boardrule.dsl.diagnostics import UsageError
from boardrule.dsl.extends import bundled_pack_names
from boardrule.interpreter.lab import stats
from boardrule.interpreter.api import new_game, open_game
from boardrule.interpreter.lab.backends import run_plan
from boardrule.interpreter.lab import simulate
from boardrule.interpreter.agents.montecarlo import MonteCarloAgent, determinize, parse_settings
from boardrule.interpreter.lab.simreport import report
from boardrule.interpreter.lab.simulate import derive, make_plan
from boardrule.interpreter.runtime.state import LazyRandom

ROOT = Path(__file__).resolve().parent.parent
PACKS = ROOT / "tests" / "packs"

# Luck and a little skill: a die is rolled every round; take its face or a safe 3.
DICEY = """\
game: {id: dicey, name: Dicey, players: 1..2}
board: {grid: square 1 x 1}
dice:
  d: [1, 2, 3, 4, 5, 6]
vars:
  turn: 0
actions:
  take:
    effect: score d as "dice"
  safe:
    effect: score SAFE as "safe"
flow:
  round:
    - do: |
        roll d
        turn += 1
    - turns: [take, safe]
  end: turn >= 4
  check_end: round
"""

# Hidden order: a shuffled deck with one high card in four; draw it or take 1.
PEEK = """\
game: {id: peek, name: Peek, players: 1}
board: {grid: square 1 x 1}
symbols:
  faces: [high, low]
decks:
  cards: {high: 1, low: 3}
vars:
  turn: 0
actions:
  draw:
    effect: |
      draw card from cards { if card == high { score 5 as "high" } }
  pass:
    effect: score 1 as "pass"
flow:
  setup:
    - do: shuffle cards
  round:
    - do: turn += 1
    - turns: [draw, pass]
  end: turn >= 3
  check_end: round
"""


@pytest.fixture(scope="module")
def packs(tmp_path_factory):
    folder = tmp_path_factory.mktemp("packs")
    (folder / "dicey.pack").write_text(DICEY.replace("SAFE", "3"))
    (folder / "dicey4.pack").write_text(DICEY.replace("SAFE", "4").replace("id: dicey,", "id: dicey4,"))
    (folder / "peek.pack").write_text(PEEK)
    (folder / "endless.pack").write_text(
        "game: {id: endless, players: 1}\nboard: {grid: square 1 x 1}\nactions:\n  wait: {effect: score 1}\n"
        "flow:\n  round:\n    - turns: [wait]\n  end: 'false'\n  max_rounds: 3\n")
    return folder


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def run_json(*args):
    result = run(*args, "--format", "json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


# ------------------------------------------------------------------ statistics
def test_summary_quantiles_interpolate_like_numpy():
    s = stats.summary([1, 2, 3, 4, 10])
    assert (s["n"], s["mean"], s["min"], s["max"]) == (5, 4.0, 1, 10)
    assert s["p10"] == pytest.approx(1.4) and s["p25"] == 2 and s["median"] == 3 and s["p75"] == 4
    assert s["p90"] == pytest.approx(7.6)
    assert s["sd"] == pytest.approx(statistics.stdev([1, 2, 3, 4, 10]))
    assert s["se"] == pytest.approx(s["sd"] / math.sqrt(5))
    assert stats.summary([7])["sd"] is None and stats.summary([])["mean"] is None


def test_wilson_interval_known_values():
    low, high = stats.wilson(5, 10)
    assert (round(low, 4), round(high, 4)) == (0.2366, 0.7634)
    assert stats.wilson(0, 10)[0] == 0 and round(stats.wilson(0, 10)[1], 4) == 0.2775
    assert round(stats.wilson(81, 263)[0], 4) == 0.2553 and round(stats.wilson(81, 263)[1], 4) == 0.3662
    assert stats.rate(3, 4)["rate"] == 0.75


def test_welch_matches_reference_values():
    # reference: scipy.stats.ttest_ind(b, a, equal_var=False) and its confidence_interval()
    a, b = [1, 2, 3, 4, 5, 6, 7, 9], [3, 5, 4, 8, 9, 10, 12, 11, 13]
    w = stats.welch(a, b)
    assert w["diff"] == pytest.approx(3.708333333)
    assert w["t"] == pytest.approx(2.42677138, rel=1e-7)
    assert w["df"] == pytest.approx(14.574387275, rel=1e-7)
    assert w["p"] == pytest.approx(0.02871895841, rel=1e-6)
    assert w["ci"] == pytest.approx([0.4429755075, 6.973691159], rel=1e-6)
    assert w["beyond_noise"]
    assert not stats.welch([1, 2, 3], [1, 2, 3])["beyond_noise"]


def test_paired_and_t_quantiles_match_reference_values():
    p = stats.paired([1, 2, -1, 3, 2])
    assert p["t"] == pytest.approx(2.0641873862) and p["p"] == pytest.approx(0.1079388223, rel=1e-6)
    assert not p["beyond_noise"] and p["pairs"] == 5
    assert stats.t_quantile(0.975, 3) == pytest.approx(3.182446305, rel=1e-8)
    assert stats.t_quantile(0.975, 1e9) == pytest.approx(stats.Z95, rel=1e-6)
    assert stats.t_two_sided_p(2.5, 7) == pytest.approx(0.04099221859, rel=1e-8)


def test_rate_difference_newcombe():
    # Newcombe (1998), example (a): 56/70 vs 48/80, difference 0.2, interval 0.0524 to 0.3339
    d = stats.rate_difference(48, 80, 56, 70)
    assert d["diff"] == pytest.approx(0.2)
    assert d["ci"] == pytest.approx([0.0524, 0.3339], abs=1e-4)
    assert d["beyond_noise"]


# ------------------------------------------------------------------ seeds and plans
def test_derived_seeds_are_pinned():
    # seeds derive from integers only (no hash(), no platform): a change here changes every simulation
    assert derive(0, 1, 0) == derive(0, 1, 0) != derive(0, 1, 1)
    assert derive(7, 1, 3) == 15068375702381615036
    assert derive(-1, 2) != derive(1, 2)


def test_plan_rotates_the_lineup_and_duplicates_deals():
    game = open_game("tictactoe")
    plan = make_plan(game, "tictactoe", 6, 5, ["greedy", "random"], duplicate=True)
    assert plan.players == 2
    assert [plan.seating(g) for g in range(3)] == [["greedy", "random"], ["random", "greedy"],
                                                   ["greedy", "random"]]
    assert [plan.deal(g) for g in range(6)] == [0, 0, 1, 1, 2, 2]
    assert plan.chance_seed(0) == plan.chance_seed(1) != plan.chance_seed(2)
    independent = make_plan(game, "tictactoe", 6, 5, ["greedy", "random"])
    assert independent.chance_seed(0) != independent.chance_seed(1)
    solo = make_plan(open_game(str(PACKS / "towns.pack")), str(PACKS / "towns.pack"), 4, 0, ["greedy", "mcts:2"], 1)
    assert solo.players == 1 and solo.seating(1) == ["mcts:2"]


# ------------------------------------------------------------------ the report
def test_text_report_has_every_section(packs):
    result = run("simulate", packs / "dicey.pack", "--games", 40, "--seats", "greedy,random")
    assert result.exit_code == 0, result.output
    for heading in ("Final scores by agent", "Final scores by seat", "Wins (first place alone",
                    "Game length", "First seat", "Where the points come from", "Agent differences"):
        assert heading in result.stdout
    assert "40 games in" in result.stdout


def test_json_report_shape(packs):
    data = run_json("simulate", packs / "dicey.pack", "--games", 20, "--seats", "greedy,random", "--seed", 3)
    assert data["settings"] == {"games": 20, "seed": 3, "seats": ["greedy", "random"], "players": 2,
                                "options": {}, "mode": "independent", "deals": 20}
    assert data["terms"] == ["dice", "safe"]
    greedy = data["agents"][0]
    assert greedy["agent"] == "greedy" and greedy["results"] == 20
    assert set(greedy["score"]) == {"n", "mean", "sd", "se", "min", "p10", "p25", "median", "p75", "p90", "max"}
    assert set(greedy["wins"]) == {"count", "of", "rate", "ci"}
    assert [t["label"] for t in greedy["terms"]] == ["dice", "safe"]
    # every result's terms add up to its score, so the term means add up to the mean score
    assert sum(t["mean"] for t in greedy["terms"]) == pytest.approx(greedy["score"]["mean"])
    assert [s["seat"] for s in data["seats"]] == ["P1", "P2"]
    assert data["first_seat"]["fair_share"] == 0.5
    assert data["games"]["moves"]["mean"] == 8 and data["games"]["rounds"]["mean"] == 4
    assert data["differences"][0]["method"] == "Welch"


def test_csv_has_a_row_per_game_and_seat(packs):
    result = run("simulate", packs / "dicey.pack", "--games", 5, "--seats", "greedy,random", "--format", "csv")
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert len(rows) == 10
    assert list(rows[0]) == ["game", "deal", "rotation", "seed", "seat", "position", "agent", "score", "place",
                             "result", "verdict", "moves", "rounds", "first_seat", "term:dice", "term:safe"]
    assert [r["agent"] for r in rows[:4]] == ["greedy", "random", "random", "greedy"]  # the lineup rotates
    for row in rows:
        assert int(row["score"]) == int(row["term:dice"]) + int(row["term:safe"])
        assert row["result"] in ("win", "shared", "loss")


def test_solo_attribution_on_a_scoring_pack():
    data = run_json("simulate", PACKS / "towns.pack", "--games", 6, "--seats", "random")
    assert data["settings"]["players"] == 1 and "first_seat" not in data and "wins" not in data["agents"][0]
    labels = data["terms"]
    assert labels[:4] == ["cottage", "shed", "post", "depot"] and "empty squares" in labels
    terms = {t["label"]: t for t in data["agents"][0]["terms"]}
    assert terms["empty squares"]["nonzero"] == 1.0 and terms["empty squares"]["mean"] < 0
    assert sum(t["mean"] for t in terms.values()) == pytest.approx(data["agents"][0]["score"]["mean"])


# ------------------------------------------------------------------ duplicate chance
def _difference_estimates(game, spec, duplicate, runs, games):
    estimates, errors = [], []
    for seed in range(runs):
        plan = make_plan(game, spec, games, seed, ["greedy", "random"], players=1, duplicate=duplicate)
        result = report(game, plan, run_plan(plan))
        difference = result["differences"][0]
        estimates.append(difference["diff"])
        errors.append(difference["se"])
    return estimates, errors


def test_duplicate_mode_reduces_the_variance_of_agent_differences(packs):
    spec = str(packs / "dicey.pack")
    game = open_game(spec)
    # the same experiment (greedy vs random, solo, 20 games) repeated with 40 root seeds, both ways
    independent, independent_se = _difference_estimates(game, spec, False, 40, 20)
    duplicate, duplicate_se = _difference_estimates(game, spec, True, 40, 20)
    var_independent, var_duplicate = statistics.variance(independent), statistics.variance(duplicate)
    print(f"\nvariance of greedy-random over 40 runs of 20 solo games: independent {var_independent:.3f}, "
          f"duplicate {var_duplicate:.3f} (ratio {var_duplicate / var_independent:.2f}); mean reported se "
          f"{statistics.mean(independent_se):.3f} vs {statistics.mean(duplicate_se):.3f}")
    assert var_duplicate < 0.6 * var_independent
    assert statistics.mean(duplicate_se) < 0.8 * statistics.mean(independent_se)
    # both estimate the same thing: greedy (max(die, 3)) beats random by 0.75 a round, 3 in 4 rounds
    assert statistics.mean(duplicate) == pytest.approx(-3, abs=0.6)
    assert statistics.mean(independent) == pytest.approx(-3, abs=0.6)


def test_duplicate_games_share_their_dice(packs):
    data = run("simulate", packs / "dicey.pack", "--games", 4, "--seats", "greedy,random", "--duplicate",
               "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(data.stdout)))
    assert [r["deal"] for r in rows] == ["1", "1", "1", "1", "2", "2", "2", "2"]
    assert rows[0]["seed"] == rows[2]["seed"] != rows[4]["seed"]


# ------------------------------------------------------------------ compare
def test_compare_finds_a_real_change_and_no_change(packs):
    data = run_json("simulate", packs / "dicey.pack", "--compare", packs / "dicey4.pack", "--games", 60,
                    "--seats", "greedy,random")
    first, second = data["compare"]
    assert (first["pack"]["id"], second["pack"]["id"]) == ("dicey", "dicey4")
    diffs = data["differences"]
    assert diffs["method"] == "paired by game"
    for entry in diffs["agents"]:
        assert entry["score"]["diff"] < 0 and entry["score"]["beyond_noise"]  # dicey minus dicey4
        assert set(entry["wins"]) == {"diff", "ci", "beyond_noise"}
    safe = [t for t in diffs["terms"] if t["agent"] == "random" and t["label"] == "safe"][0]
    assert safe["beyond_noise"] and safe["diff"] < 0
    assert not diffs["moves"]["beyond_noise"]
    same = run_json("simulate", packs / "dicey.pack", "--compare", packs / "dicey.pack", "--games", 20,
                    "--seats", "greedy,random")
    assert all(e["score"]["diff"] == 0 and not e["score"]["beyond_noise"] for e in same["differences"]["agents"])


def test_compare_text_and_csv(packs):
    result = run("simulate", packs / "dicey.pack", "--compare", packs / "dicey4.pack", "--games", 10,
                 "--seats", "greedy,random")
    assert result.exit_code == 0, result.output
    assert "Comparison: the same games through two packs" in result.stdout and "beyond noise" in result.stdout
    result = run("simulate", packs / "dicey.pack", "--compare", packs / "dicey4.pack", "--games", 3,
                 "--seats", "greedy,random", "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert len(rows) == 12 and [r["pack"] for r in rows[::6]] == ["dicey", "dicey4"]


# ------------------------------------------------------------------ parallel, Dask, hash seeds
SAME_RUN = ("--games", 24, "--seats", "greedy,random", "--duplicate", "--seed", 9)


def test_jobs_1_and_2_give_identical_reports(packs):
    one = run("simulate", packs / "dicey.pack", *SAME_RUN, "--format", "json", "--jobs", 1)
    two = run("simulate", packs / "dicey.pack", *SAME_RUN, "--format", "json", "--jobs", 2)
    assert one.exit_code == two.exit_code == 0, one.output + two.output
    assert one.stdout == two.stdout


def test_every_game_is_the_same_whatever_the_batches(packs):
    spec = str(packs / "dicey.pack")
    game = open_game(spec)
    plan = make_plan(game, spec, 30, 4, ["greedy", "random"], duplicate=True)
    from boardrule.interpreter.lab.simulate import run_batch
    whole = run_batch((plan, 0, 30))
    pieces = run_batch((plan, 0, 7)) + run_batch((plan, 7, 8)) + run_batch((plan, 8, 30))
    assert whole == pieces == run_plan(plan)
    assert [r["game"] for r in whole] == list(range(30))


def test_dask_backend_gives_the_same_report(packs):
    distributed = pytest.importorskip("distributed")
    local = run("simulate", packs / "dicey.pack", *SAME_RUN, "--format", "json")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False, protocol="tcp",
                                  dashboard_address=None) as cluster:
        address = cluster.scheduler_address.split("://", 1)[1]  # HOST:PORT, as a user types it
        remote = run("simulate", packs / "dicey.pack", *SAME_RUN, "--format", "json", "--backend", "dask",
                     "--address", address)
    assert remote.exit_code == 0, remote.output
    assert remote.stdout == local.stdout


def test_dask_without_an_address_starts_a_cluster_here_and_gives_the_same_report(packs):
    pytest.importorskip("distributed")
    local = run("simulate", packs / "dicey.pack", *SAME_RUN, "--format", "json")
    here = run("simulate", packs / "dicey.pack", *SAME_RUN, "--format", "json", "--backend", "dask", "--jobs", "2")
    assert here.exit_code == 0, here.output
    assert here.stdout == local.stdout


def test_results_do_not_depend_on_the_hash_seed():
    args = [sys.executable, "-m", "boardrule", "simulate", str(PACKS / "towns.pack"), "--games", "2",
            "--players", "2", "--seats", "greedy,mcts:2:depth=2", "--format", "csv", "--no-progress"]
    outputs = []
    for hash_seed in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed)
        done = subprocess.run(args, capture_output=True, text=True, env=env, timeout=120, stdin=subprocess.DEVNULL)
        assert done.returncode == 0, done.stderr
        outputs.append(done.stdout)
    assert outputs[0] == outputs[1]


# ------------------------------------------------------------------ progress and plots
def test_progress_goes_to_stderr_only(packs):
    result = run("simulate", packs / "dicey.pack", "--games", 30, "--format", "json", "--progress")
    assert result.exit_code == 0
    json.loads(result.stdout)  # the report alone on stdout
    assert "30/30 games" in result.stderr and "%" in result.stderr


def test_plot_writes_png_and_svg(packs, tmp_path):
    pytest.importorskip("matplotlib")
    for name in ("scores.png", "scores.svg"):
        target = tmp_path / name
        result = run("simulate", packs / "dicey.pack", "--games", 10, "--seats", "greedy,random", "--plot", target)
        assert result.exit_code == 0, result.output
        assert target.stat().st_size > 1000
    assert (tmp_path / "scores.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert b"<svg" in (tmp_path / "scores.svg").read_bytes()[:500]


def test_plot_without_matplotlib_is_a_usage_error(packs, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib now fails
    result = run("simulate", packs / "dicey.pack", "--games", 2, "--plot", tmp_path / "x.png")
    assert result.exit_code == 2
    assert result.stderr.strip() == "error[E001]: --plot needs matplotlib: pip install 'boardrule[plot]'"
    assert not (tmp_path / "x.png").exists()


# ------------------------------------------------------------------ bad input
@pytest.mark.parametrize("args,message", [
    (["--seats", "greedy,randm"], "error[E005]: unknown agent `randm`"),
    (["--games", "0"], "error[E001]: --games must be at least 1, not 0"),
    (["--games", "-5"], "error[E001]: --games must be at least 1, not -5"),
    (["--option", "nosuch=1"], "error[E003]: Tic-tac-toe has no option `nosuch`"),
    (["--option", "nosuch"], "error[E001]: --option takes KEY=VALUE"),
    (["--players", "3"], "error[E002]: Tic-tac-toe is for 2-2 players, not 3"),
    (["--seats", "mcts:lots"], "error[E005]: mcts setting `lots` is not a number"),
    (["--seats", "random:9"], "error[E005]: agent `random` takes no settings"),
    (["--jobs", "-1"], "error[E001]: --jobs must be 0"),
    (["--plot", "x.jpg"], "error[E001]: --plot writes PNG or SVG"),
    (["--compare", "no-such-pack"], "error[E120]: unknown pack `no-such-pack`"),
])
def test_bad_input_is_a_one_line_usage_error(args, message):
    result = run("simulate", "tictactoe", "--games", 2, *args)
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(message), result.stderr
    assert "Traceback" not in result.output and result.stdout == ""
    assert len([line for line in result.stderr.splitlines() if not line.lstrip().startswith("= help")]) == 1


def test_a_failing_rule_names_the_game(packs):
    result = run("simulate", packs / "endless.pack", "--games", 3)
    assert result.exit_code == 1
    assert "game 1: the game did not end within 3 rounds" in result.stderr and "Traceback" not in result.output


# ------------------------------------------------------------------ the search agent
def test_mcts_settings():
    assert parse_settings("") == {}
    assert parse_settings("50") == {"iterations": 50}
    assert parse_settings("0.5s") == {"seconds": 0.5, "iterations": None}
    assert parse_settings("20:depth=end:c=1.5:playout=4") == {"iterations": 20, "depth": None, "c": 1.5, "playout": 4}
    for bad in ("0", "depth=-1", "x=1", "-1s", "playout=many"):
        with pytest.raises(UsageError) as info:
            parse_settings(bad)
        assert info.value.diagnostic.code == "E005", bad


def test_mcts_is_deterministic_for_a_seed():
    game = open_game(str(PACKS / "towns.pack"))
    state = new_game(game, players=1, seed=0)
    from boardrule.interpreter.runtime.flow import legal_moves
    moves = legal_moves(game, state, 0)
    picks = {MonteCarloAgent(4, iterations=12, depth=4)(game, state, 0, moves) for _ in range(3)}
    assert len(picks) == 1


def test_mcts_does_not_see_the_deck_order_or_the_future_dice(packs):
    game = open_game(str(packs / "peek.pack"))
    state = new_game(game, players=1, seed=1)
    other = state.clone()
    other.decks["cards"] = list(reversed(other.decks["cards"]))  # another order of the same cards
    other.rng = LazyRandom.seeded(12345)
    assert other.decks != state.decks
    from boardrule.interpreter.runtime.flow import legal_moves
    moves = legal_moves(game, state, 0)
    for seed in range(4):
        assert MonteCarloAgent(seed, iterations=30)(game, state, 0, moves) == \
            MonteCarloAgent(seed, iterations=30)(game, other, 0, moves)
    world = determinize(game, state, 0, __import__("random").Random(0))
    assert sorted(world.decks["cards"]) == sorted(state.decks["cards"])


def _solo_scoring_packs():
    """Every bundled pack (those without a solo game or scores skip) and the two language-test
    packs with real scoring."""
    specs = [(name, name) for name in bundled_pack_names()]
    specs += [(f"tests/packs/{name}", str(PACKS / name)) for name in ("towns.pack", "feeding.pack")]
    return specs


@pytest.mark.parametrize("label,spec", _solo_scoring_packs(), ids=[label for label, _ in _solo_scoring_packs()])
def test_greedy_and_mcts_beat_random_on_solo_scores(label, spec):
    game = open_game(spec)
    if game.players_range[0] > 1:
        pytest.skip(f"{label} has no solo game")
    if not game.scoring and not game.piece_scores:
        pytest.skip(f"{label} has no scores")
    # two deals, each played by every agent with the same chance (duplicate), with a small search budget
    result = simulate(spec, games=6, seats=["random", "greedy", "mcts:8:depth=4"], players=1, duplicate=True, seed=0)
    random_play, greedy, search = (a["score"] for a in result.report["agents"])
    print(f"\n{label}: random {random_play['mean']:.2f}, greedy {greedy['mean']:.2f}, "
          f"mcts:8:depth=4 {search['mean']:.2f}")
    if random_play["min"] == random_play["max"] == greedy["min"] == search["max"]:
        return  # no decision changes the score (a pack that only tests scoring)
    assert greedy["mean"] > random_play["mean"] and search["mean"] > random_play["mean"]


# ------------------------------------------------------------------ the designers' page
def _doc_commands():
    text = (ROOT / "docs" / "simulate.md").read_text()
    commands = []
    for block in re.findall(r"^```sh\n(.*?)^```", text, re.S | re.M):
        commands += [line.strip() for line in block.splitlines() if line.strip().startswith("boardrule ")]
    files = dict(re.findall(r"^```yaml\n# file: (\S+)\n(.*?)^```", text, re.S | re.M))
    return commands, files


def _quick(command: str) -> list:
    """The command with at most 2 games, one job, a tiny search budget, and `bench` of one pack
    (the page's figures are for real runs)."""
    args = shlex.split(command)[1:]
    for index, arg in enumerate(args):
        if args[index - 1] in ("--games", "-n"):
            args[index] = str(min(int(arg), 2))
        if args[index - 1] == "--jobs":
            args[index] = "1"
        if args[index - 1] in ("--seats", "--agents"):
            args[index] = re.sub(r"(mcts|strong)(:[^,]*)?", r"\1:2:depth=2", arg)
    if args[0] == "bench":
        packs = [a for a in args[1:] if not a.startswith("-") and a not in ("json", "text")]
        args += ([] if packs else ["tictactoe"]) + ["--games", "1", "--repeats", "1"]
    return args


def test_the_simulate_page_examples_run(tmp_path, monkeypatch):
    commands, files = _doc_commands()
    assert len(commands) >= 8 and "variant.pack" in files
    for name, body in files.items():
        (tmp_path / name).write_text(body)
    monkeypatch.chdir(tmp_path)
    has_plot = True
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        has_plot = False
    for command in commands:
        if "--plot" in command and not has_plot:
            continue
        result = CliRunner().invoke(cli, _quick(command))
        assert result.exit_code == 0, f"{command}\n{result.output}"


def test_the_report_says_how_often_each_action_was_taken():
    from boardrule.interpreter.lab import simulate as run_simulation
    run = run_simulation("tictactoe", games=4, seats=["random", "random"], seed=1)
    report, records = run.report, run.records
    assert report["actions"][0] == "play"
    plays = report["agents"][0]["actions"][0]
    assert plays["action"] == "play" and plays["used"] == 1.0
    per_game = sum(dict(seat["actions"]).get("play", 0) for r in records for seat in r["seats"]) / 8
    assert plays["mean"] == per_game and per_game >= 2.5  # a game of tic-tac-toe takes 5 to 9 plays


def test_done_is_listed_only_where_a_step_may_be_closed_by_it():
    # a pack without a `repeat` step (or only `repeat: while possible`) once reported "never taken: done"
    from boardrule.interpreter.lab import simulate as run_simulation
    assert "done" not in run_simulation("tictactoe", games=2, seats=["random", "random"], seed=1).report["actions"]
    towns = str(Path(__file__).parent / "packs" / "towns.pack")  # builds in a `repeat` step closed by `done`
    assert "done" in run_simulation(towns, games=1, seats=["random"], seed=1).report["actions"]


# ------------------------------------------------------------------ warnings about the agents
def _plan_like(lineup, players=1, duplicate=True):
    import types
    return types.SimpleNamespace(lineup=tuple(lineup), players=players, duplicate=duplicate)


def _difference(first, second, diff, ci, beyond):
    return {"first": first, "second": second, "diff": diff, "ci": ci, "beyond_noise": beyond}


def test_an_agent_that_loses_to_random_in_duplicate_play_is_warned_about():
    from boardrule.interpreter.lab.simreport import _warnings
    out = {"differences": [_difference("random", "greedy", -2.0, [-3.0, -1.0], True),
                           _difference("mcts", "random", -1.5, [-2.5, -0.5], True),
                           _difference("greedy", "mcts", 4.0, [3.0, 5.0], True)],
           "agents": []}
    warned = _warnings(out, _plan_like(["random", "greedy", "mcts"]))
    assert [(w["agent"], w["diff"], w["ci"]) for w in warned] == [("greedy", -2.0, [-3.0, -1.0])]
    out["differences"][1] = _difference("mcts", "random", 1.5, [0.5, 2.5], True)  # random scores more
    warned = _warnings(out, _plan_like(["random", "greedy", "mcts"]))
    assert [(w["agent"], w["ci"]) for w in warned] == [("greedy", [-3.0, -1.0]), ("mcts", [-2.5, -0.5])]
    assert _warnings(out, _plan_like(["random", "greedy", "mcts"], duplicate=False)) == []
    assert _warnings(out, _plan_like(["greedy", "mcts"])) == []


def test_a_multiplayer_agent_that_wins_less_than_random_is_warned_about():
    from boardrule.interpreter.lab.simreport import _warnings
    out = {"differences": [_difference("random", "greedy", 0.5, [0.1, 0.9], True)],
           "agents": [{"agent": "random", "wins": {"rate": 0.6}}, {"agent": "greedy", "wins": {"rate": 0.4}}]}
    warned = _warnings(out, _plan_like(["random", "greedy"], players=2))
    assert [(w["agent"], w["what"]) for w in warned] == [("greedy", "wins")]


def test_the_report_prints_the_warning_and_what_never_scored_means(packs):
    from boardrule.cli.simprint import render_report
    result = simulate("tinytowns", games=2, seats=["random", "greedy"], players=1, duplicate=True, seed=0)
    data = result.report
    assert data["never_scored"] and all(label in data["terms"] for label in data["never_scored"])
    data["warnings"] = [{"agent": "greedy", "what": "score", "diff": -2.0, "ci": [-3.0, -1.0], "beyond_noise": True}]
    text = render_report(data)
    assert "--compare cannot see a change to them" in text
    assert "warning: greedy scores 2.00 points less than random in duplicate play" in text
