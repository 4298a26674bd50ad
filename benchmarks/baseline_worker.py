"""The worker of benchmarks/baseline.py: plays seeded random games with whichever boardrule it imports.

    python benchmarks/baseline_worker.py            # the installed engine
    PYTHONPATH=OLD/site python benchmarks/baseline_worker.py   # a tagged build

It reads one JSON command a line on stdin and answers each with one JSON line on stdout:

    {"op": "hello"}                                   -> the engine's version and where it was imported from
    {"op": "open", "specs": [...], "players": 4}      -> the first of `specs` (pack paths or bundled names)
                                                         that this engine opens: its files and hash, and why
                                                         each spec before it was refused
    {"op": "play", "first": 0, "games": 20}           -> CPU and wall seconds of games first..first+games-1
                                                         and their moves, played in this process

Game n is played as `bench.playout_runner` plays it (seed n, every seat a random agent seeded
n * 1000 + seat), with that engine's own runner: `boardrule.interpreter.lab.bench` today,
`boardrule.interpreter.bench` in builds from before the interpreter was split into folders. Only the
standard library and boardrule are imported, so the same file serves both engines.
"""

from __future__ import annotations

import json
import sys
import time
import traceback
from pathlib import Path


def playout_runner_module():
    try:
        from boardrule.interpreter.lab import bench
    except ImportError:
        from boardrule.interpreter import bench  # the layout of the tagged build: flat interpreter/ files
    return bench


OPS = ("hello", "open", "play")


class Worker:
    def __init__(self):
        self.bench = playout_runner_module()
        self.play_one = None

    def hello(self, command: dict) -> dict:
        import boardrule
        return {"version": boardrule.__version__, "location": str(Path(boardrule.__file__).resolve().parent),
                "runner": self.bench.__name__, "python": sys.version.split()[0], "executable": sys.executable}

    def open(self, command: dict) -> dict:
        from boardrule.interpreter.api import open_game
        refused = []
        for spec in command["specs"]:
            try:
                game = open_game(spec)
            except Exception as exc:  # noqa: BLE001  (a pack this engine cannot read: try the next spec)
                refused.append({"spec": spec, "error": first_line(exc)})
                continue
            self.play_one = self.bench.playout_runner(game, command["players"], "random")
            return {"spec": spec, "files": [str(Path(f).resolve()) for f in game.pack.tree.files],
                    "hash": game.pack_hash, "refused": refused}
        return {"error": "no spec could be opened", "refused": refused}

    def play(self, command: dict) -> dict:
        if self.play_one is None:
            return {"error": "no pack is open"}
        first, games = command["first"], command["games"]
        wall0, cpu0 = time.perf_counter(), time.process_time()
        moves = [self.play_one(n) for n in range(first, first + games)]
        cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
        return {"games": games, "cpu_s": cpu, "wall_s": wall, "moves": moves}


def first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0] if text else ''}"


def answer_to(worker: Worker, command: dict) -> dict:
    if command.get("op") not in OPS:
        return {"error": f"unknown op {command.get('op')!r}; known: {', '.join(OPS)}"}
    try:
        return getattr(worker, command["op"])(command)
    except Exception:  # noqa: BLE001  (reported to the benchmark, which prints it)
        return {"error": traceback.format_exc(limit=3)}


def serve(commands, answers) -> None:
    worker = Worker()
    for line in commands:
        if not line.strip():
            continue
        answers.write(json.dumps(answer_to(worker, json.loads(line))) + "\n")
        answers.flush()


def main() -> None:
    answers = sys.stdout
    sys.stdout = sys.stderr  # anything the engine prints must not mix with the answers
    serve(sys.stdin, answers)


if __name__ == "__main__":
    main()
