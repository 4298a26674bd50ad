"""The compiler's speed figures, measured in one run: OpenSpiel, board size, chained definitions.

    pip install '.[bench]'              # open-spiel, for the OpenSpiel columns
    python benchmarks/compiler.py       # about a minute
    python benchmarks/compiler.py --json

1. Random playouts of the bundled Connect Four and tic-tac-toe against
   OpenSpiel's C++ `connect_four` and `tic_tac_toe` and its pure-Python
   `python_tic_tac_toe`, each pair timed in turn (bench.paired_ratio: CPU
   time per game, median of windows taken alternately), with the targets of
   the compiler issue: Connect Four within 20x of C++, tic-tac-toe faster
   than the Python version and within 10x of C++. Without open-spiel the
   OpenSpiel rows say so.
2. Connect Four on 7x6, 15x15 and 30x30 (the bundled pack with its board
   changed, as a designer's variant would): CPU time per move, and per move
   per cell, which stays flat when time per move grows no faster than the
   number of cells.
3. The 8-direction flanking game of tests/packs/flank.pack (written with
   `ray` and `step`) against benchmarks/handwritten_flank.py, the same rules
   in plain Python, timed in turn.
4. Check and compile time of a pack of N chained definitions for N = 250,
   500, 1000, each using the one before twice (`dN: dN-1 + dN-1`, the case
   that once never finished), in chains of 50 (E137 refuses a chain deeper
   than 64): linear when time per definition stays flat.

Figures are printed, never judged by a test: a slow machine is no failure.
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
import time
from pathlib import Path

from boardrule.dsl.pack import load_pack, load_pack_text
from boardrule.interpreter.lab import bench
from boardrule.interpreter.api import open_game
from boardrule.interpreter.compiler.game import compile_game

RULEPACKS = Path(__file__).resolve().parent.parent / "rulepacks"
CHAIN = 50  # definitions per chain (E137: at most 64 deep)
TARGETS = {"connect4 / C++": 20.0, "tictactoe / C++": 10.0, "tictactoe / Python": 1.0}


# ------------------------------------------------------------------ OpenSpiel
def openspiel_runner(name: str):
    """`play_one(n)` for an OpenSpiel game: random moves from seed n; None without open-spiel."""
    try:
        import pyspiel
        import open_spiel.python.games  # noqa: F401  (registers python_tic_tac_toe)
    except ImportError:
        return None
    game = pyspiel.load_game(name)

    def play_one(n):
        chooser, state, moves = random.Random(n), game.new_initial_state(), 0
        while not state.is_terminal():
            state.apply_action(chooser.choice(state.legal_actions()))
            moves += 1
        return moves
    return play_one


def engine_runner(pack: str):
    game = open_game(pack)
    return bench.playout_runner(game, game.players_range[0], "random")


def against_openspiel(seconds: float) -> list:
    rows = []
    for label, pack, other in (("connect4 / C++", "connect4", "connect_four"),
                               ("tictactoe / C++", "tictactoe", "tic_tac_toe"),
                               ("tictactoe / Python", "tictactoe", "python_tic_tac_toe")):
        theirs = openspiel_runner(other)
        if theirs is None:
            rows.append({"pair": label, "openspiel": other, "ratio": None, "note": "open-spiel not installed"})
            continue
        mine = engine_runner(pack)
        mine(0), theirs(0)  # warm up: placement tables, OpenSpiel's loading
        paired = bench.paired_ratio(mine, theirs, None, seconds)
        rows.append({"pair": label, "openspiel": other, "ratio": paired["median"], "ratios": paired["ratios"],
                     "target": TARGETS[label]})
    return rows


# ------------------------------------------------------------------ board size
def connect4_on(width: int, height: int, folder: Path):
    """The bundled Connect Four with its board changed, as a variant pack (`extends: connect4`)."""
    path = folder / f"connect4_{width}x{height}.pack"
    path.write_text(f"extends: connect4\ngame: {{id: connect4_{width}x{height}}}\n"
                    f"board: {{grid: square {width} x {height}}}\n")
    return compile_game(load_pack(path, extends_from=(str(RULEPACKS),)))


def board_sizes(seconds: float) -> list:
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for width, height in ((7, 6), (15, 15), (30, 30)):
            game = connect4_on(width, height, Path(folder))
            run = bench.playouts(game, 2, "random", seconds=seconds)
            per_move = run["cpu_ms_per_game"] / run["moves_per_game"]
            rows.append({"board": f"{width}x{height}", "cells": width * height, "games": run["games"],
                         "moves_per_game": run["moves_per_game"], "cpu_ms_per_move": per_move,
                         "us_per_move_per_cell": per_move * 1000 / (width * height)})
    return rows


# ------------------------------------------------------------------ flanking
def flank_against_handwritten(seconds: float) -> dict:
    import importlib.util
    spec = importlib.util.spec_from_file_location("handwritten_flank", Path(__file__).parent / "handwritten_flank.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    mine = engine_runner(str(Path(__file__).resolve().parent.parent / "tests" / "packs" / "flank.pack"))
    mine(0)
    paired = bench.paired_ratio(mine, module.play_game, None, seconds)
    return {"ratio": paired["median"], "ratios": paired["ratios"]}


# ------------------------------------------------------------------ chained definitions
def chained_pack(count: int) -> str:
    lines = ["game: {id: chain, players: 1}", "board: {grid: square 2 x 2}", "pieces: {stone: {symbol: S}}",
             "define:", "  d0: count(cells where occupied)"]
    lines += [f"  d{n}: count(cells where empty)" if n % CHAIN == 0 else f"  d{n}: d{n - 1} + d{n - 1}"
              for n in range(1, count)]
    lines += ["actions: {put: {params: {c: cells where empty}, effect: place stone at c}}",
              "flow: {round: [{turns: [put]}], end: \"none(cells, empty)\"}",
              "scoring: {chain: " + " + ".join(f"d{n}" for n in range(CHAIN - 1, count, CHAIN)) + "}"]
    return "\n".join(lines) + "\n"


def chained_definitions() -> list:
    rows = []
    for count in (250, 500, 1000):
        text = chained_pack(count)
        start = time.process_time()
        compile_game(load_pack_text(text, "chain.pack"))
        spent = time.process_time() - start
        rows.append({"definitions": count, "check_compile_s": spent, "ms_per_definition": spent * 1000 / count})
    return rows


# ------------------------------------------------------------------ report
def report(seconds: float) -> dict:
    return {"environment": bench.environment(), "openspiel": against_openspiel(seconds),
            "board_sizes": board_sizes(seconds / 2), "flank": flank_against_handwritten(seconds),
            "chained_definitions": chained_definitions()}


def print_report(result: dict) -> None:
    print("Random playouts against OpenSpiel (CPU time per game, median of windows in turn)")
    for row in result["openspiel"]:
        if row["ratio"] is None:
            print(f"  {row['pair']:<20} {row['note']}")
            continue
        verdict = "met" if row["ratio"] <= row["target"] else "MISSED"
        print(f"  {row['pair']:<20} {row['ratio']:7.1f}x   (target within {row['target']:g}x: {verdict})")
    print("\nConnect Four by board size (random playouts)")
    for row in result["board_sizes"]:
        print(f"  {row['board']:<6} {row['cells']:4d} cells  {row['moves_per_game']:6.1f} moves/game  "
              f"{row['cpu_ms_per_move']:7.3f} ms/move  {row['us_per_move_per_cell']:6.2f} us/move/cell")
    print("\nFlanking in eight directions (tests/packs/flank.pack) / hand-written (benchmarks/handwritten_flank.py)")
    print(f"  {result['flank']['ratio']:7.1f}x   (issue 19's target for its suite games: within 3x)")
    print("\nCheck and compile of N chained definitions")
    for row in result["chained_definitions"]:
        print(f"  {row['definitions']:5d} definitions  {row['check_compile_s']:6.2f} s  "
              f"{row['ms_per_definition']:5.2f} ms/definition")


def main(argv=None):
    parser = argparse.ArgumentParser(description="the compiler's speed figures, measured in one run")
    parser.add_argument("--seconds", type=float, default=6.0, help="time budget per measured pair")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    result = report(args.seconds)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print_report(result)


if __name__ == "__main__":
    main()
