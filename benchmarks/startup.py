"""Start-up of the `boardrule` command: instructions (valgrind) and wall time, beside a bare Python.

    python benchmarks/startup.py                     # this interpreter's boardrule
    python benchmarks/startup.py --python OTHER/bin/python --python .venv/bin/python

Each figure is for a whole process: `python -c pass`, `boardrule --help`,
`boardrule check tictactoe` and `boardrule check --no-tests tinytowns` (whose
check itself is larger), and the modules each imports. Instructions are what
load on a shared machine does not move, so two versions compare by them;
the wall times are the best of `--runs`. Bytecode is written first (a
module compiled from source at every start would count its compiling), and
PYTHONDONTWRITEBYTECODE is left out of the environment. Instructions need
valgrind (`--no-valgrind` skips them).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

ENVIRONMENT = {**{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}, "PYTHONHASHSEED": "0"}
COMMANDS = (("bare python", None), ("boardrule --help", ["--help"]),
            ("boardrule check tictactoe", ["check", "tictactoe"]),
            ("boardrule check --no-tests tinytowns", ["check", "--no-tests", "tinytowns"]))
MODULES = "import sys; from boardrule.cli.main import main; sys.argv[0] = 'boardrule'\ntry:\n    main()\n" \
          "except SystemExit:\n    pass\nprint(len(sys.modules), sum(m.startswith('boardrule') for m in sys.modules))"


def argv_of(python: str, args) -> list:
    if args is None:
        return [python, "-c", "pass"]
    return [python, "-c", "import sys; from boardrule.cli.main import main; sys.argv[0] = 'boardrule'; main()", *args]


def instructions(argv) -> int:
    done = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *argv],
                          env=ENVIRONMENT, capture_output=True, text=True, check=False)
    found = re.search(r"Collected : (\d+)", done.stderr)
    if found is None:
        raise SystemExit(f"valgrind failed (exit {done.returncode}): {done.stderr.strip()[-500:]}")
    return int(found.group(1))


def best_wall(argv, runs: int) -> float:
    best = None
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(argv, env=ENVIRONMENT, capture_output=True, check=False)
        elapsed = time.perf_counter() - start
        best = elapsed if best is None else min(best, elapsed)
    return best


def modules(python: str, args) -> str:
    if args is None:
        code = "import sys; print(len(sys.modules), 0)"
        done = subprocess.run([python, "-c", code], env=ENVIRONMENT, capture_output=True, text=True)
    else:
        done = subprocess.run([python, "-c", MODULES, *args], env=ENVIRONMENT, capture_output=True, text=True)
    total, ours = done.stdout.split()[-2:]
    return f"{total} ({ours} of boardrule)"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="start-up of the boardrule command")
    parser.add_argument("--python", action="append", help="an interpreter with boardrule installed (repeatable)")
    parser.add_argument("--runs", type=int, default=15, help="wall-time runs, the best kept (default 15)")
    parser.add_argument("--no-valgrind", action="store_true", help="wall times only")
    args = parser.parse_args(argv)
    pythons = args.python or [sys.executable]
    counting = not args.no_valgrind and shutil.which("valgrind") is not None
    if not args.no_valgrind and not counting:
        print("valgrind is not installed (`apt-get install valgrind`): wall times only", file=sys.stderr)
    for python in pythons:
        print(f"{python}")
        for label, command in COMMANDS:
            full = argv_of(python, command)
            subprocess.run(full, env=ENVIRONMENT, capture_output=True, check=False)  # writes the bytecode
            count = f"{instructions(full) / 1e6:8.1f} M instructions  " if counting else ""
            print(f"  {label:38s} {count}{best_wall(full, args.runs):.3f} s  modules {modules(python, command)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
