"""Speed of the suite packs (tests/suite/, issue 19): games per second of each, and the engine against
plain hand-written versions of some of them.

    python benchmarks/suite.py              # about half a minute
    python benchmarks/suite.py --json

1. Random playouts of every suite pack (bench.playouts: seeded games, the fastest of 5 windows):
   games per second, ms and moves per game. `boardrule bench tests/suite/*.pack` gives the same
   figures with check and start-up times.
2. Engine / hand-written, CPU time per random game, measured interleaved (bench.paired_ratio:
   windows taken in turn, the median ratio), for the packs that have a plain Python version in
   benchmarks/ (same rules, moves drawn uniformly from the legal moves): issue 19's target is
   within 3x. Figures are printed, never judged by a test: a slow machine is no failure.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
from pathlib import Path

from boardrule.interpreter.api import open_game
from boardrule.interpreter.lab import bench

HERE = Path(__file__).resolve().parent
SUITE = HERE.parent / "tests" / "suite"
#: suite pack -> its hand-written version in benchmarks/
HANDWRITTEN = {"gomoku": "handwritten_gomoku.py", "breakthrough": "handwritten_breakthrough.py",
               "majority": "handwritten_majority.py"}
TARGET = 3.0


def suite_packs() -> list:
    return sorted(SUITE.glob("*.pack"))


def handwritten(file_name: str):
    spec = importlib.util.spec_from_file_location(file_name[:-3], HERE / file_name)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.play_game


def games_per_second(seconds: float) -> list:
    rows = []
    for path in suite_packs():
        game = open_game(str(path))
        run = bench.playouts(game, game.players_range[0], "random", seconds=seconds)
        rows.append({"pack": path.stem, "games": run["games"], "games_per_s": run["games_per_s"],
                     "ms_per_game": run["ms_per_game"], "moves_per_game": run["moves_per_game"]})
    return rows


def against_handwritten(seconds: float) -> list:
    rows = []
    for name, file_name in HANDWRITTEN.items():
        game = open_game(str(SUITE / f"{name}.pack"))
        mine, theirs = bench.playout_runner(game, game.players_range[0], "random"), handwritten(file_name)
        mine(0), theirs(0)  # warm up: placement tables, generated code
        paired = bench.paired_ratio(mine, theirs, None, seconds)
        rows.append({"pack": name, "handwritten": f"benchmarks/{file_name}", "ratio": paired["median"],
                     "ratios": paired["ratios"], "target": TARGET})
    return rows


def report(seconds: float) -> dict:
    return {"environment": bench.environment(), "suite": games_per_second(seconds),
            "handwritten": against_handwritten(seconds)}


def print_report(result: dict) -> None:
    print("Suite packs (tests/suite/), random playouts")
    for row in result["suite"]:
        print(f"  {row['pack']:<14} {row['games_per_s']:8.1f} games/s  {row['ms_per_game']:8.2f} ms/game  "
              f"{row['moves_per_game']:6.1f} moves/game")
    print("\nEngine / hand-written, CPU time per random game (median of windows in turn)")
    for row in result["handwritten"]:
        verdict = "met" if row["ratio"] is not None and row["ratio"] <= row["target"] else "MISSED"
        print(f"  {row['pack']:<14} {row['ratio']:6.1f}x   (target within {row['target']:g}x: {verdict}; "
              f"{row['handwritten']})")


def main(argv=None):
    parser = argparse.ArgumentParser(description="games per second of the suite packs, and ratios against "
                                                 "hand-written versions")
    parser.add_argument("--seconds", type=float, default=3.0, help="time budget per pack and per pair")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    result = report(args.seconds)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print_report(result)


if __name__ == "__main__":
    main()
