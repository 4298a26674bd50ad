"""Speed figures: random playouts per second, check time, start-up time, and where they were taken.

Used by `boardrule bench` and by `benchmarks/run.py`. Figures are measured
and returned, never judged: a slow machine is not a failure. Rates are from
wall-clock time; the CPU columns (process time) are steadier on a busy
machine, and the load average is reported so that a reader can tell a slow
machine from a slow engine.

Playouts are seeded (game n uses seed n, every seat's agent seed
n * 1000 + seat), so two runs play the same games.
"""

from __future__ import annotations

import os
import platform
import shutil
import subprocess
import sys
import time
from pathlib import Path

import boardrule
from boardrule.interpreter.runtime import flow
from boardrule.interpreter.agents import make_agent, play_out
from boardrule.interpreter.api import new_game, open_game
from boardrule.interpreter.designer.check import check_pack

MAX_GAMES = 1_000_000
SUBPROCESS_TIMEOUT = 300


# ------------------------------------------------------------ environment
def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.lower().startswith(("model name", "hardware", "cpu model")):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown"


def environment() -> dict:
    """The engine, Python and CPU the figures were taken with."""
    load = list(os.getloadavg()) if hasattr(os, "getloadavg") else None
    return {
        "engine": {"version": boardrule.__version__, "location": str(Path(boardrule.__file__).parent)},
        "python": {"version": platform.python_version(), "implementation": platform.python_implementation(),
                   "executable": sys.executable},
        "cpu": {"model": cpu_model(), "logical_cpus": os.cpu_count()},
        "platform": platform.platform(),
        "load_average": load,
    }


# ------------------------------------------------------------- measuring
WINDOWS = 5  # a time budget is spent in this many windows; the fastest is reported


def timed_runs(play_one, games: int | None, seconds: float, warmup: bool) -> dict:
    """Run play_one(n) for n = 0, 1, ...: `games` times, or until `seconds` have passed.

    `play_one` returns the number of moves of its game. With a time budget, the
    games are played in WINDOWS windows that each start again from game 0, and
    the per-game figures are the fastest window's (as `timeit` advises: slower
    windows measure the machine's other work, not the code); `windows_ms` keeps
    every window's wall time per game.
    """
    if warmup:
        play_one(MAX_GAMES)  # fills caches (placement tables...) outside the timing
    if games is not None:
        return _window(play_one, games, None)
    runs = [_window(play_one, None, seconds / WINDOWS) for _ in range(WINDOWS)]
    best = dict(min(runs, key=lambda r: r["ms_per_game"]))
    best["windows_ms"] = [r["ms_per_game"] for r in runs]
    best["games"] = sum(r["games"] for r in runs)
    return best


def paired_ratio(play_a, play_b, games: int | None, seconds: float) -> dict:
    """CPU time per game of a over b, from WINDOWS pairs of windows taken in turn.

    A machine whose speed drifts (other work, clock changes) slows both
    sides of a pair alike, so the ratio of each pair is steadier than a ratio
    of figures measured apart; `median` is the one to judge by. With `games`,
    each window plays that many games.
    """
    ratios = []
    for _ in range(WINDOWS):
        b = _window(play_b, games, None if games else seconds / WINDOWS / 2)
        a = _window(play_a, games, None if games else seconds / WINDOWS / 2)
        ratios.append(a["cpu_ms_per_game"] / b["cpu_ms_per_game"] if b["cpu_ms_per_game"] else None)
    known = sorted(r for r in ratios if r is not None)
    return {"ratios": ratios, "median": known[len(known) // 2] if known else None}


def _window(play_one, games: int | None, seconds: float | None) -> dict:
    wall0, cpu0 = time.perf_counter(), time.process_time()
    count, moves = 0, 0
    while True:
        moves += play_one(count)
        count += 1
        wall = time.perf_counter() - wall0
        if (games is not None and count >= games) or (games is None and wall >= seconds) or count >= MAX_GAMES:
            break
    cpu = time.process_time() - cpu0
    return {"games": count, "wall_s": wall, "cpu_s": cpu, "games_per_s": count / wall if wall else None,
            "ms_per_game": wall / count * 1000, "cpu_ms_per_game": cpu / count * 1000,
            "moves_per_game": moves / count}


def playout_runner(game, players: int, agent: str, options: dict | None = None):
    """`play_one(n)`: game n (seed n) with every seat played by `agent`; returns its number of moves."""
    def play_one(n):
        state = new_game(game, players=players, seed=n, options=options)
        agents = {seat: make_agent(agent, seed=n * 1000 + seat) for seat in state.players}
        state = play_out(game, state, agents)
        return sum(1 for entry in state.log if entry[0] == "move")
    return play_one


def playouts(game, players: int, agent: str, games: int | None = None, seconds: float = 1.0,
             warmup: bool = True, options: dict | None = None) -> dict:
    """Games per second with every seat played by `agent` (seeded: game n uses seed n), with the
    pack's `options` (its defaults if None)."""
    result = timed_runs(playout_runner(game, players, agent, options), games, seconds, warmup)
    result["agent"] = agent
    return result


def decision_rate(game, players: int, agent: str, games: int | None = None, seconds: float = 1.0,
                  options: dict | None = None) -> dict:
    """How fast `agent` decides: it plays every seat of games 0, 1, ... (seeded as the playouts) and
    only its decisions between two or more moves are timed, until `seconds` of them have passed
    (at least one) or `seconds` of the clock (so a fast agent is not timed for long), or through
    `games` whole games."""
    spent, decisions, played = 0.0, 0, 0
    began = time.perf_counter()
    while True:
        state = new_game(game, players=players, seed=played, options=options)
        agents = {seat: make_agent(agent, seed=played * 1000 + seat) for seat in state.players}
        while state.phase != "over":
            seat = flow.waiting(state)[0]
            moves = flow.legal_moves(game, state, seat)
            start = time.perf_counter()
            move = agents[seat](game, state, seat, moves)
            if len(moves) > 1:
                spent += time.perf_counter() - start
                decisions += 1
            state = flow.apply(game, state, move)
            if games is None and decisions and _timed_out(spent, began, seconds):
                break
        played += 1
        if (games is not None and played >= games) or (games is None and decisions and
                                                        _timed_out(spent, began, seconds)):
            break
        if played >= MAX_GAMES:
            break
    return {"agent": agent, "decisions": decisions, "decision_s": spent,
            "decisions_per_s": decisions / spent if spent else None,
            "ms_per_decision": spent / decisions * 1000 if decisions else None}


def _timed_out(spent, began, seconds) -> bool:
    return spent >= seconds or time.perf_counter() - began >= seconds


def check_time(spec: str, repeats: int = 3) -> dict:
    """In-process `check_pack` (load, check, compile, the pack's tests): best of `repeats`."""
    best, report = None, None
    for _ in range(max(1, repeats)):
        start = time.perf_counter()
        report = check_pack(spec)
        elapsed = time.perf_counter() - start
        best = elapsed if best is None else min(best, elapsed)
    return {"in_process_s": best, "ok": report.ok, "tests_run": report.tests_run,
            "diagnostics": len(report.diagnostics)}


#: Start-up is timed as a user's install starts: with its bytecode cached. With PYTHONDONTWRITEBYTECODE
#: set (as some sandboxes and CI set it), every start would compile every module from its source.
STARTUP_ENVIRONMENT = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def run_command(argv, repeats: int, cwd=None) -> dict:
    """Wall time of a command, best of `repeats`, after one run that writes its bytecode."""
    times, code, err = [], None, ""
    for attempt in range(max(1, repeats) + 1):
        start = time.perf_counter()
        try:
            done = subprocess.run(argv, capture_output=True, text=True, timeout=SUBPROCESS_TIMEOUT,
                                  stdin=subprocess.DEVNULL, cwd=None if cwd is None else str(cwd),
                                  env=STARTUP_ENVIRONMENT)
        except (OSError, subprocess.SubprocessError) as exc:
            return {"command": argv, "error": f"{type(exc).__name__}: {exc}"}
        if attempt:  # the first run only writes the bytecode
            times.append(time.perf_counter() - start)
        code, err = done.returncode, done.stderr
    result = {"command": argv, "best_s": min(times), "runs_s": times, "exit_code": code}
    if code not in (0, 1):  # 1 = findings, still a completed check
        result["error"] = f"exit status {code}: {err.strip()[-300:]}"
    return result


def boardrule_command() -> list:
    """The `boardrule` script of this interpreter (not a pyenv shim, which adds its own start-up)."""
    folder = Path(sys.executable).parent
    for name in ("boardrule", "boardrule.exe"):
        if (folder / name).is_file():
            return [str(folder / name)]
    found = shutil.which("boardrule")
    return [found] if found else [sys.executable, "-m", "boardrule"]


def startup_time(spec: str, repeats: int = 3) -> dict:
    """A fresh interpreter importing boardrule and opening the pack: best of `repeats`."""
    code = f"from boardrule.interpreter.api import open_game; open_game({str(spec)!r})"
    return run_command([sys.executable, "-c", code], repeats)


def startup(repeats: int = 3) -> dict:
    """`boardrule --help` and a bare interpreter, best of `repeats` each."""
    return {"help": run_command(boardrule_command() + ["--help"], repeats),
            "bare_python": run_command([sys.executable, "-c", "pass"], repeats)}


def measure_pack(spec: str, players: int | None = None, agents=("random",), games: int | None = None,
                 seconds: float = 1.0, repeats: int = 3, warmup: bool = True, name: str | None = None,
                 options: dict | None = None, deciders=()) -> dict:
    """Playouts, check time and start-up time of one pack, and how fast each of the agents
    `deciders` decides; a pack that fails is reported, not raised."""
    entry = measure_playouts(spec, players, agents, games, seconds, warmup, name, options)
    if deciders and "error" not in entry:
        try:
            game = open_game(spec)
            entry["decisions"] = [decision_rate(game, entry["players"], agent, games, seconds, options)
                                  for agent in deciders]
        except Exception as exc:  # noqa: BLE001
            entry["error"] = f"{type(exc).__name__}: {exc}"
    try:
        entry["check"] = check_time(spec, repeats)
    except Exception as exc:  # noqa: BLE001
        entry["check"] = {"error": f"{type(exc).__name__}: {exc}"}
    entry["startup"] = startup_time(spec, repeats)
    entry["check_command"] = run_command(boardrule_command() + ["check", str(spec)], repeats)
    return entry


def measure_playouts(spec: str, players: int | None = None, agents=("random",), games: int | None = None,
                     seconds: float = 1.0, warmup: bool = True, name: str | None = None,
                     options: dict | None = None) -> dict:
    """Open a pack and time random (or other) playouts of it; a pack that fails is reported, not raised."""
    entry = {"name": name or str(spec), "spec": str(spec), "options": options}
    try:
        start = time.perf_counter()
        game = open_game(spec)
        entry["open_ms"] = (time.perf_counter() - start) * 1000
        entry["hash"] = game.pack_hash
        entry["players"] = players if players is not None else game.players_range[0]
        for agent in agents:
            entry[agent] = playouts(game, entry["players"], agent, games, seconds, warmup, options)
    except Exception as exc:  # noqa: BLE001  (a broken pack is a finding, not a crash of the benchmark)
        entry["error"] = f"{type(exc).__name__}: {exc}"
    return entry


def bench(specs, games: int | None = None, seconds: float = 1.0, repeats: int = 3, warmup: bool = True,
          players: int | None = None, options: dict | None = None, deciders=()) -> dict:
    """The figures of `boardrule bench` for the packs `specs` (bundled names or paths), each played
    with `players` (default: the fewest it allows) and the pack options `options`; with `deciders`
    (agent names), how many decisions per second each makes in each pack."""
    return {"environment": environment(),
            "settings": {"games": games, "seconds": None if games else seconds, "repeats": repeats,
                         "players": players, "options": dict(options or {}), "seats": list(deciders)},
            "packs": [measure_pack(spec, players=players, games=games, seconds=seconds, repeats=repeats,
                                   warmup=warmup, options=options, deciders=deciders) for spec in specs],
            "startup": startup(repeats)}
