"""Instructions per random game, counted by valgrind: a speed figure that load does not move.

    python benchmarks/instructions.py                 # Tiny Towns solo, and the hand-written one
    python benchmarks/instructions.py townies --games 10
    python benchmarks/instructions.py villagers --players 4 --games 6

On a shared machine, times per game swing by half between runs of the same
code (the engine's working set is large, so it suffers from other work more
than the small hand-written game does). The instructions executed do not
change: compare two versions of the engine with this, and with
`benchmarks/run.py` for time. Each figure is (count with N games - count
with none) / N, so imports and compiling the pack are left out. Needs
valgrind; slow (about a minute for 20 games).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
# a fixed hash seed (set orders move the count by ~2%), and bytecode written (see per_game)
ENVIRONMENT = {**{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}, "PYTHONHASHSEED": "0"}

import handwritten_tinytowns  # noqa: E402  (after the path is set)

TARGET_RATIO = 2.0  # the engine's same game against the hand-written one (issue 3's target, as in run.py)

ENGINE_GAMES = """\
import json
import sys
from boardrule.interpreter.agents import make_agent, play_out
from boardrule.interpreter.api import new_game, open_game
game = open_game(sys.argv[1])
options = json.loads(sys.argv[3]) if len(sys.argv) > 3 and sys.argv[3] else None
players = int(sys.argv[4]) if len(sys.argv) > 4 else game.players_range[0]
warm_up = new_game(game, players=players, seed=10**6, options=options)
play_out(game, warm_up, {s: make_agent("random", seed=1) for s in warm_up.players})
for n in range(int(sys.argv[2])):
    state = new_game(game, players=players, seed=n, options=options)
    play_out(game, state, {s: make_agent("random", seed=n * 1000 + s) for s in state.players})
"""
HANDWRITTEN_GAMES = """\
import sys
sys.path.insert(0, sys.argv[1])
import handwritten_tinytowns
handwritten_tinytowns.play_game(10**6)
for n in range(int(sys.argv[2])):
    handwritten_tinytowns.play_game(n)
"""


def instructions(script: str, argument: str, games: int, *more: str) -> int:
    """Instructions valgrind counts for `script` run with `argument`, `games` and `more`."""
    done = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                           sys.executable, "-c", script, argument, str(games), *more],
                          env=ENVIRONMENT,
                          capture_output=True, text=True, check=False)
    found = re.search(r"Collected : (\d+)", done.stderr)
    if done.returncode != 0 or found is None:
        raise SystemExit(f"valgrind failed (exit {done.returncode}): {done.stderr.strip()[-500:]}")
    return int(found.group(1))


def per_game(script: str, argument: str, games: int, *more: str) -> float:
    # a plain run first writes the .pyc of every module the games import: a module compiled from
    # its source at import leaves the heap laid out differently, and the count ~4% off (not the
    # collector: gc.freeze() after the import changes nothing)
    subprocess.run([sys.executable, "-c", script, argument, "0", *more], capture_output=True, check=False,
                   env=ENVIRONMENT)
    return (instructions(script, argument, games, *more) - instructions(script, argument, 0, *more)) / games


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="instructions per random game, counted by valgrind")
    parser.add_argument("pack", nargs="?", default="tinytowns", help="a bundled pack name or a path")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, help="default: the pack's smallest number")
    args = parser.parse_args(argv)
    if shutil.which("valgrind") is None:
        print("valgrind is not installed: `apt-get install valgrind`", file=sys.stderr)
        return 2
    if args.games < 1:
        parser.error("--games must be at least 1")
    seats = () if args.players is None else ("", str(args.players))
    engine = per_game(ENGINE_GAMES, args.pack, args.games, *seats)
    who = f"{args.players} players" if args.players is not None else "the fewest players"
    print(f"engine, {args.pack}, random, {who}: {engine / 1e6:.2f} M instructions per game ({args.games} games)")
    if args.pack == "tinytowns":
        same = per_game(ENGINE_GAMES, args.pack, args.games, json.dumps(handwritten_tinytowns.ENGINE_OPTIONS))
        hand = per_game(HANDWRITTEN_GAMES, str(HERE), args.games)
        print(f"engine, the same game as hand-written (options {handwritten_tinytowns.ENGINE_OPTIONS}): "
              f"{same / 1e6:.2f} M")
        print(f"hand-written Tiny Towns:      {hand / 1e6:.2f} M instructions per game")
        ratio = same / hand
        verdict = "met" if ratio <= TARGET_RATIO else "MISSED"
        print(f"engine / hand-written, the same game: {ratio:.2f}x (target within {TARGET_RATIO:g}x: {verdict})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
