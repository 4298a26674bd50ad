"""The benchmarks still run: benchmarks/run.py with a tiny budget, and the
hand-written Tiny Towns baseline it compares against. No timing is asserted."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path


REPO = Path(__file__).resolve().parent.parent
RUN = REPO / "benchmarks" / "run.py"
TIMEOUT = 600


def _load_handwritten():
    spec = importlib.util.spec_from_file_location("handwritten_tinytowns",
                                                  REPO / "benchmarks" / "handwritten_tinytowns.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _run(*args):
    return subprocess.run([sys.executable, str(RUN), *args], capture_output=True, text=True, timeout=TIMEOUT,
                          stdin=subprocess.DEVNULL, cwd=str(REPO))


def test_quick_run_prints_every_section():
    done = _run("--quick", "--pack", "tictactoe", "--pack", "tinytowns")  # every section, on two packs
    assert done.returncode == 0, done.stderr
    out = done.stdout
    for heading in ("Environment", "Playouts", "boardrule check", "Start-up",
                    "Tiny Towns solo: engine vs hand-written", "Problems"):
        assert heading in out, f"section {heading!r} missing:\n{out}"
    for label in ("engine    boardrule", "python", "cpu", "boardrule --help", "bare interpreter",
                  "hand-written (benchmarks/handwritten_tinytowns.py)", "engine / hand-written",
                  "target under 5 ms", "under 0.3 s", "under 1 s per pack",
                  "first-game buildings, no monument (as hand-written)", "(the same game)",
                  "measured in turn, window by window", "target within 1x (median in turn)"):
        assert label in out, f"{label!r} missing:\n{out}"
    assert "tictactoe" in out


def test_quick_json_has_the_figures():
    done = _run("--quick", "--json", "--pack", "tictactoe", "--pack", "towns")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert {"engine", "python", "cpu", "packs", "startup", "tinytowns", "targets", "problems"} <= set(report)
    assert [p["name"] for p in report["packs"]] == ["tictactoe", "towns.pack (test)"]
    for pack in report["packs"]:
        assert len(pack["hash"]) == 16
        for agent in ("random", "greedy"):
            assert pack[agent]["games"] == 3
            assert pack[agent]["ms_per_game"] > 0
        assert pack["check"]["tests_run"] > 0
        assert "best_s" in pack["check"]["command"]
    assert report["startup"]["help"]["exit_code"] == 0
    towns = report["tinytowns"]
    assert towns["handwritten"]["games"] == 3
    assert towns["ratio_cpu"] > 0


def test_a_ratio_measured_in_turn_is_the_median_of_its_pairs():
    from boardrule.interpreter.lab import bench
    slow, fast = (lambda n: sum(range(20_000)) and 0), (lambda n: sum(range(5_000)) and 0)
    found = bench.paired_ratio(slow, fast, 3, 0)
    assert len(found["ratios"]) == bench.WINDOWS and found["median"] == sorted(found["ratios"])[bench.WINDOWS // 2]
    assert found["median"] > 1  # four times the work: slower, however busy the machine


def test_bad_arguments_are_a_usage_error():
    done = _run("--games", "0")
    assert done.returncode == 2


def test_handwritten_scoring_of_a_known_town():
    tt = _load_handwritten()
    board = ["cottage", "cottage", "cottage", "farm",
             "well", "chapel", "tavern", "tavern",
             "theater", None, "wood", "factory",
             "cottage", "cottage", "cottage", None]
    # 6 cottages, 1 farm feeds 4: 12; chapel 4; 2 taverns 5; well next to 1 cottage: 1;
    # theater sees factory (row), cottage and well (column): 3; 3 squares without a building: -3
    assert tt.score_town(board) == 22


def test_handwritten_patterns_rotate_and_mirror():
    tt = _load_handwritten()
    assert {name: len(p) for name, p in tt.PLACEMENTS.items()}["well"] == 48  # 4 orientations x 12 spots
    board = [None] * 16
    board[1], board[4], board[5] = "wheat", "brick", "glass"  # `. wheat / brick glass` as printed
    assert sorted(s for b, used, s in tt.legal_builds(board) if b == "cottage") == [1, 4, 5]
    board = [None] * 16
    board[0], board[5], board[4] = "wheat", "brick", "glass"  # its mirror image
    assert sorted(s for b, used, s in tt.legal_builds(board) if b == "cottage") == [0, 4, 5]


def test_handwritten_games_are_seeded_and_fill_the_town():
    tt = _load_handwritten()
    score, board = tt.play_game(7, return_board=True)
    assert tt.play_game(7) == score
    assert None not in board
    assert score == tt.score_town(board)


def test_the_engine_is_compared_on_the_game_the_hand_written_one_plays():
    from boardrule.interpreter.api import new_game, open_game

    tt = _load_handwritten()
    game = open_game("tinytowns")
    for seed in range(3):
        state = new_game(game, players=1, seed=seed, options=tt.ENGINE_OPTIONS)
        assert sorted(state.vars["in_play"]) == sorted(tt.BUILDINGS)
        assert state.pvars[0]["dealt"] == () and state.pvars[0]["my_monument"] is None


def test_the_instruction_count_runs_the_script_it_measures():
    # the valgrind run itself takes minutes: here its game script runs plainly, for one game,
    # and a bad count of games is a usage error
    spec = importlib.util.spec_from_file_location("instructions", REPO / "benchmarks" / "instructions.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    same = json.dumps(_load_handwritten().ENGINE_OPTIONS)
    for script, *arguments in ((module.ENGINE_GAMES, "tictactoe"), (module.ENGINE_GAMES, "tinytowns", "1", same),
                               (module.HANDWRITTEN_GAMES, str(REPO / "benchmarks"))):
        arguments = arguments + ["1"] if len(arguments) == 1 else arguments
        done = subprocess.run([sys.executable, "-c", script, *arguments], capture_output=True, text=True,
                              timeout=TIMEOUT, stdin=subprocess.DEVNULL)
        assert done.returncode == 0, done.stderr
    bad = subprocess.run([sys.executable, str(REPO / "benchmarks" / "instructions.py"), "--games", "0"],
                         capture_output=True, text=True, timeout=TIMEOUT, stdin=subprocess.DEVNULL)
    assert bad.returncode == 2


def test_the_compiler_benchmark_prints_its_three_measures():
    done = subprocess.run([sys.executable, str(REPO / "benchmarks" / "compiler.py"), "--seconds", "0.2", "--json"],
                          capture_output=True, text=True, timeout=TIMEOUT, stdin=subprocess.DEVNULL, cwd=str(REPO))
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert [row["pair"] for row in result["openspiel"]] == ["connect4 / C++", "tictactoe / C++", "tictactoe / Python"]
    for row in result["openspiel"]:  # a ratio where open-spiel is installed, else the reason there is none
        assert (row["ratio"] or 0) > 0 or row["note"] == "open-spiel not installed"
    assert [row["board"] for row in result["board_sizes"]] == ["7x6", "15x15", "30x30"]
    assert all(row["moves_per_game"] >= 7 and row["cpu_ms_per_move"] > 0 for row in result["board_sizes"])
    assert result["flank"]["ratio"] > 0
    assert [row["definitions"] for row in result["chained_definitions"]] == [250, 500, 1000]


def test_the_agents_benchmark_runs_and_prints_its_figures():
    done = subprocess.run([sys.executable, str(REPO / "benchmarks" / "agents.py"), "--quick", "--pack", "tictactoe",
                           "--pack", "tinytowns"], capture_output=True, text=True, timeout=TIMEOUT,
                          stdin=subprocess.DEVNULL, cwd=str(REPO))
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "greedy vs random: greedy wins" in out  # a two-player pack: duplicate matches
    assert "solo, mean score over 1 games each" in out and "(target 25)" in out  # a solo pack, its target
    assert "greedy - random" in out and "paired by deal" in out  # each step of the ladder, paired by deal
    assert out.count("per decision") == 8  # four agents, two packs


def test_the_suite_benchmark_prints_every_suite_pack_and_the_hand_written_ratios():
    done = subprocess.run([sys.executable, str(REPO / "benchmarks" / "suite.py"), "--seconds", "0.1", "--json"],
                          capture_output=True, text=True, timeout=TIMEOUT, stdin=subprocess.DEVNULL, cwd=str(REPO))
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    packs = sorted(p.stem for p in (REPO / "tests" / "suite").glob("*.pack"))
    assert [row["pack"] for row in result["suite"]] == packs
    assert all(row["games"] >= 1 and row["moves_per_game"] > 0 for row in result["suite"])
    assert [row["pack"] for row in result["handwritten"]] == ["gomoku", "breakthrough", "majority"]
    assert all(row["ratio"] > 0 for row in result["handwritten"])


def test_the_hand_written_majority_game_scores_regions_as_the_pack_does():
    spec = importlib.util.spec_from_file_location("handwritten_majority", REPO / "benchmarks" / "handwritten_majority.py")
    majority = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(majority)
    board = [None] * 36
    for cell in (0, 1, 7):  # three in the north-west, for the first player
        board[cell] = 0
    board[6] = 1
    for cell, player in ((3, 0), (4, 1)):  # one each in the north-east: a tie
        board[cell] = player
    worth, scores = list(majority.WORTH), [0, 0]
    majority.score_regions(board, worth, scores)
    assert scores == [8 + 3, 3] and worth == [7, 5, 5, 4]  # the tie shares 6, rounded down; the empty regions keep theirs
    assert majority.legal_squares(board, 1) == [5, 10, 12]  # empty, next to one of the second player's cubes
    assert majority.play_game(0) == 18
