"""Speed figures for boardrule: playouts, `boardrule check`, start-up, and a
hand-written Tiny Towns for comparison.

    python benchmarks/run.py             # ~3 s per measurement, a readable table
    python benchmarks/run.py --json      # the same figures as JSON
    python benchmarks/run.py --quick     # 3 games per measurement (a smoke run)
    python benchmarks/run.py --games 50  # a fixed number of games per measurement

It measures, for every bundled pack and for tests/packs/towns.pack:
random-agent and greedy-agent playouts (seeded: game n uses seed n), the
in-process `check_pack` time and the wall time of the `boardrule check PACK`
command; then the start-up time of `boardrule --help` (best of 5, next to a
bare interpreter start), and the hand-written Tiny Towns solo game of
handwritten_tinytowns.py against the engine's solo game. The ratio compares
the same game: the engine plays the pack with the hand-written game's
buildings and no monument (its ENGINE_OPTIONS); the 5 ms target is judged on
the pack as it comes (random buildings, a monument each), the harder game.

Targets are printed next to the figures, never asserted: a random Tiny Towns
solo game under 5 ms and at least as fast as the hand-written one (within
1x: the compiler issue's target; an earlier issue asked for 2x), `--help` under
0.3 s, `check` under 1 s per pack. Rates are from wall-clock time; the CPU
columns (process time) are steadier on a busy machine. The engine vs
hand-written ratio is judged on windows of the two taken in turn (the median
of their ratios): a machine whose speed drifts slows both sides of a pair
alike. The machine's load average is printed so that a reader can tell a
slow machine from a slow engine; `benchmarks/instructions.py` counts
instructions instead, which load does not move.

Exit status: 0 when the run completed (a pack that fails to load or to play
is reported in the output, with `--strict` it makes the exit status 1), 2 on
bad arguments.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
TOWNS_PACK = REPO / "tests" / "packs" / "towns.pack"
sys.path.insert(0, str(HERE))

import handwritten_tinytowns  # noqa: E402  (after the path is set)

from boardrule.dsl.packpath import bundled_pack_names, find_pack  # noqa: E402
from boardrule.interpreter.lab import bench  # noqa: E402
from boardrule.interpreter.api import open_game  # noqa: E402

TARGETS = {
    "tinytowns_ms": 5.0,  # a random Tiny Towns solo game, engine
    "tinytowns_ratio": 1.0,  # engine / hand-written, CPU time per game (the compiler issue: at least as fast)
    "help_s": 0.3,  # `boardrule --help`
    "check_s": 1.0,  # `boardrule check PACK`, per pack
}
SAME_GAME = "first-game buildings, no monument (as hand-written)"
TOWNS_NOTE = ("tests/packs/towns.pack is a test pack that approximates the real game (any of 5 resources "
              "named freely instead of 3 face-up cards; its own 5 test buildings with stand-ins and "
              "storage) until rulepacks/tinytowns.pack lands")


# ------------------------------------------------------------ environment
def git_commit() -> str | None:
    """The commit of the tree being measured (read-only), if this is a git checkout."""
    try:
        out = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short=12", "HEAD"], capture_output=True,
                             text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None if out.returncode == 0 else None


def environment() -> dict:
    report = bench.environment()
    report["engine"]["commit"] = git_commit()
    return report


# ------------------------------------------------------------- measuring
# the measuring itself lives in the library (boardrule.interpreter.lab.bench, also behind `boardrule bench`)
timed_runs = bench.timed_runs
measure_playouts = bench.measure_playouts
boardrule_command = bench.boardrule_command


def _handwritten_game(n) -> int:
    handwritten_tinytowns.play_game(n)
    return 0  # moves are not counted


def handwritten(games, seconds, warmup) -> dict:
    result = timed_runs(_handwritten_game, games, seconds, warmup)
    del result["moves_per_game"]
    return result


def same_game_in_turn(args) -> dict:
    """The engine's same game and the hand-written one, measured in turn (bench.paired_ratio)."""
    engine = bench.playout_runner(open_game("tinytowns"), 1, "random", handwritten_tinytowns.ENGINE_OPTIONS)
    if args.warmup:
        engine(bench.MAX_GAMES)
        _handwritten_game(bench.MAX_GAMES)
    return bench.paired_ratio(engine, _handwritten_game, args.games, args.seconds)


def run_command(argv, repeats: int) -> dict:
    return bench.run_command(argv, repeats, cwd=REPO)


def check_times(spec: str, repeats: int, command: list) -> dict:
    result = bench.check_time(spec, repeats)
    result["command"] = run_command(command + ["check", spec], repeats)
    wall = result["command"].get("best_s")
    result["target_s"] = TARGETS["check_s"]
    result["met"] = wall is not None and wall < TARGETS["check_s"]
    return result


# ---------------------------------------------------------------- the run
def pack_specs() -> list:
    """(label, spec for open_game / boardrule check, players, is a test pack)."""
    specs = [(name, name, None, False) for name in bundled_pack_names()]
    specs.append(("towns.pack (test)", str(TOWNS_PACK), 1, True))
    return specs


def measure_pack(label, spec, players, test_pack, args, command) -> dict:
    entry = {"name": label, "spec": spec, "test_pack": test_pack}
    try:
        path = Path(spec) if test_pack else find_pack(spec).path
        entry["path"] = str(path)
    except Exception:  # noqa: BLE001  (reported, not fatal)
        pass
    entry.update(measure_playouts(spec, players, ("random", "greedy"), args.games, args.seconds, args.warmup, label))
    try:
        entry["check"] = check_times(spec, args.repeats, command)
    except Exception as exc:  # noqa: BLE001
        entry["check"] = {"error": f"{type(exc).__name__}: {exc}"}
    return entry


def same_game(args) -> dict:
    """The engine's solo Tiny Towns dealt as the hand-written one is (ENGINE_OPTIONS), random play."""
    entry = measure_playouts("tinytowns", 1, ("random",), args.games, args.seconds, args.warmup,
                             "tinytowns, " + SAME_GAME, options=handwritten_tinytowns.ENGINE_OPTIONS)
    if "error" in entry:
        return {"error": entry["error"]}
    return entry["random"]


def tinytowns_comparison(packs: list, hand: dict, same: dict | None) -> dict:
    """The engine's ms per game (the pack as it comes) and its ratio to the hand-written game.

    The ratio compares the same game: `same`, the engine's game with the
    hand-written one's buildings and no monument. Without it (the test pack
    only), the ratio falls back to the pack's own solo game.
    """
    real = next((p for p in packs if p["name"] == "tinytowns"), None)
    engine_pack = real or next(p for p in packs if p["test_pack"])
    out = {"handwritten": hand, "engine_pack": engine_pack["name"],
           "note": None if real else TOWNS_NOTE}
    solo = engine_pack.get("random")
    if solo is None or engine_pack.get("players") != 1:
        out["error"] = engine_pack.get("error") or "no solo random playout of the engine to compare"
        return out
    out["engine"] = compared = solo
    if same is not None:
        out["same_game"] = same
        if real is not None and "error" not in same:
            compared = same
    out["ratio_cpu"] = compared["cpu_ms_per_game"] / hand["cpu_ms_per_game"]
    out["ratio_wall"] = compared["ms_per_game"] / hand["ms_per_game"]
    out["targets"] = {
        "engine_ms": {"target": TARGETS["tinytowns_ms"], "value": solo["ms_per_game"],
                      "met": solo["ms_per_game"] < TARGETS["tinytowns_ms"]},
        "ratio": {"target": TARGETS["tinytowns_ratio"], "value": out["ratio_cpu"],
                  "met": out["ratio_cpu"] <= TARGETS["tinytowns_ratio"]},
    }
    return out


def judge_in_turn(towns: dict, in_turn: dict) -> None:
    """The ratio target is judged on the median of the windows taken in turn, the steadiest figure."""
    towns["in_turn"] = in_turn
    if in_turn["median"] is not None:
        towns["targets"]["ratio"] = {"target": TARGETS["tinytowns_ratio"], "value": in_turn["median"],
                                     "met": in_turn["median"] <= TARGETS["tinytowns_ratio"],
                                     "measured": "median of windows taken in turn, CPU time"}


def run(args) -> dict:
    report = environment()
    command = boardrule_command()
    report["settings"] = {"games": args.games, "seconds": None if args.games else args.seconds,
                          "repeats": args.repeats, "quick": args.quick, "boardrule_command": command}
    report["packs"] = []
    for label, spec, players, test_pack in pack_specs():
        names = {label, spec} | ({"towns", "towns.pack"} if test_pack else set())
        if args.pack and not names & set(args.pack):
            continue
        progress(args, f"measuring {label}...")
        report["packs"].append(measure_pack(label, spec, players, test_pack, args, command))
    progress(args, "measuring start-up...")
    report["startup"] = {
        "help": run_command(command + ["--help"], args.startup_repeats),
        "bare_python": run_command([sys.executable, "-c", "pass"], args.startup_repeats),
        "target_s": TARGETS["help_s"],
    }
    help_s = report["startup"]["help"].get("best_s")
    report["startup"]["met"] = help_s is not None and help_s < TARGETS["help_s"]
    progress(args, "measuring the hand-written Tiny Towns...")
    hand = handwritten(args.games, args.seconds, args.warmup)
    if any(p["test_pack"] or p["name"] == "tinytowns" for p in report["packs"]):
        same = None
        if any(p["name"] == "tinytowns" for p in report["packs"]):
            progress(args, "measuring the engine's Tiny Towns dealt as the hand-written one...")
            same = same_game(args)
        report["tinytowns"] = tinytowns_comparison(report["packs"], hand, same)
        if same is not None and "error" not in same:
            progress(args, "measuring the engine's same game and the hand-written one in turn...")
            judge_in_turn(report["tinytowns"], same_game_in_turn(args))
    else:
        report["tinytowns"] = {"handwritten": hand, "error": "the towns pack was not measured (--pack)"}
    report["targets"] = TARGETS
    report["problems"] = problems(report)
    return report


def problems(report) -> list:
    found = []
    for pack in report["packs"]:
        if "error" in pack:
            found.append(f"{pack['name']}: {pack['error'].splitlines()[0]}")
        check = pack.get("check", {})
        for key in ("error",):
            if key in check:
                found.append(f"{pack['name']} check: {check[key].splitlines()[0]}")
        if "error" in check.get("command", {}):
            found.append(f"{pack['name']} `boardrule check`: {check['command']['error'].splitlines()[0]}")
        if check.get("ok") is False:
            found.append(f"{pack['name']}: check_pack reports errors")
    for name, result in report["startup"].items():
        if isinstance(result, dict) and "error" in result:
            found.append(f"start-up ({name}): {result['error'].splitlines()[0]}")
    return found


def progress(args, text):
    if not args.json:
        print(text, file=sys.stderr, flush=True)


# --------------------------------------------------------------- printing
def fmt(value, spec=".1f", missing="-"):
    return missing if value is None else format(value, spec)


def verdict(met) -> str:
    return "ok" if met else "MISSED"


def table(headers, rows) -> str:
    widths = [max(len(str(h)), *(len(str(r[i])) for r in rows)) if rows else len(str(h))
              for i, h in enumerate(headers)]
    lines = ["  ".join(str(h).ljust(w) for h, w in zip(headers, widths)).rstrip(),
             "  ".join("-" * w for w in widths)]
    for row in rows:
        lines.append("  ".join(str(c).ljust(w) for c, w in zip(row, widths)).rstrip())
    return "\n".join("  " + line for line in lines)


def print_report(report):
    env = report["engine"]
    load = report["load_average"]
    cpus = report["cpu"]["logical_cpus"]
    busy = load is not None and cpus and load[0] > cpus
    settings = report["settings"]
    budget = f"{settings['games']} games per measurement" if settings["games"] else \
        f"~{settings['seconds']:g} s per measurement"
    print("boardrule benchmarks")
    print("====================")
    print()
    print("Environment")
    print(f"  engine    boardrule {env['version']} ({env['location']}"
          + (f", commit {env['commit']}" if env["commit"] else "") + ")")
    print(f"  python    {report['python']['version']} ({report['python']['implementation']}, "
          f"{report['python']['executable']})")
    print(f"  cpu       {report['cpu']['model']} ({cpus} logical CPUs)")
    if load is not None:
        print(f"  load      {' '.join(f'{x:.2f}' for x in load)}"
              + ("  (busy machine: wall times are inflated; the CPU columns are steadier)" if busy else ""))
    print(f"  budget    {budget}; seeded: game n uses seed n")
    print()

    print("Playouts (every seat played by the same agent)")
    rows = []
    for pack in report["packs"]:
        if "error" in pack and "random" not in pack:
            rows.append([pack["name"], "-", pack.get("hash", "-"), "FAILED", "", "", "", "", ""])
            continue
        for agent in ("random", "greedy"):
            r = pack[agent]
            rows.append([pack["name"] if agent == "random" else "", pack["players"] if agent == "random" else "",
                         pack["hash"] if agent == "random" else "", agent, r["games"], fmt(r["games_per_s"]),
                         fmt(r["ms_per_game"], ".2f"), fmt(r["cpu_ms_per_game"], ".2f"),
                         fmt(r["moves_per_game"], ".1f")])
    print(table(["pack", "players", "hash", "agent", "games", "games/s", "ms/game", "cpu ms/game", "moves/game"],
                rows))
    print("  games: in all; per-game figures: with a time budget, the fastest of "
          f"{bench.WINDOWS} windows that each replay games 0, 1, 2... (slower windows measure the machine)")
    for pack in report["packs"]:
        if "error" in pack:
            print(f"  ! {pack['name']}: {pack['error'].splitlines()[0]}")
    print()

    print(f"boardrule check (target: under {TARGETS['check_s']:g} s per pack)")
    rows = []
    for pack in report["packs"]:
        check = pack.get("check", {})
        cmd = check.get("command", {})
        if "error" in check:
            rows.append([pack["name"], "FAILED", "", "", "", ""])
            continue
        wall = cmd.get("best_s")
        rows.append([pack["name"], fmt(check["in_process_s"], ".3f"), fmt(wall, ".3f"),
                     f"{check['tests_run']} tests" + ("" if check["ok"] else ", ERRORS"),
                     cmd.get("exit_code", "-"), verdict(check["met"])])
    print(table(["pack", "in-process s", "command s", "result", "exit", "target"], rows))
    print(f"  command: {' '.join(settings['boardrule_command'])} check PACK (best of {settings['repeats']})")
    print()

    startup = report["startup"]
    help_s, bare_s = startup["help"].get("best_s"), startup["bare_python"].get("best_s")
    print(f"Start-up (best of {len(startup['help'].get('runs_s', [])) or '-'})")
    rows = [["boardrule --help", fmt(help_s, ".3f"),
             f"under {TARGETS['help_s']:g} s: {verdict(startup['met'])}"],
            ["bare interpreter (python -c pass)", fmt(bare_s, ".3f"), "the floor on this machine"]]
    if help_s is not None and bare_s is not None:
        rows.append(["boardrule's own share", fmt(help_s - bare_s, ".3f"), "imports and click"])
    print(table(["what", "s", "note"], rows))
    print()

    towns = report["tinytowns"]
    hand = towns["handwritten"]
    print("Tiny Towns solo: engine vs hand-written (random play)")
    if towns.get("note"):
        print(f"  NOTE: {towns['note']}.")
    rows = [["hand-written (benchmarks/handwritten_tinytowns.py)", hand["games"], fmt(hand["games_per_s"]),
             fmt(hand["ms_per_game"], ".3f"), fmt(hand["cpu_ms_per_game"], ".3f")]]
    if "engine" in towns:
        e = towns["engine"]
        rows.append([f"engine, {towns['engine_pack']}, 1 player", e["games"], fmt(e["games_per_s"]),
                     fmt(e["ms_per_game"], ".3f"), fmt(e["cpu_ms_per_game"], ".3f")])
    same = towns.get("same_game")
    if same is not None and "error" not in same:
        rows.append([f"engine, tinytowns, 1 player, {SAME_GAME}", same["games"], fmt(same["games_per_s"]),
                     fmt(same["ms_per_game"], ".3f"), fmt(same["cpu_ms_per_game"], ".3f")])
    print(table(["implementation", "games", "games/s", "ms/game", "cpu ms/game"], rows))
    if "engine" in towns:
        t = towns["targets"]
        print(f"  engine ms per game: {towns['engine']['ms_per_game']:.2f} "
              f"(target under {TARGETS['tinytowns_ms']:g} ms: {verdict(t['engine_ms']['met'])})")
        compared = "the same game" if same is not None and "error" not in same else "the pack's own solo game"
        print(f"  engine / hand-written ({compared}): {towns['ratio_cpu']:.1f}x by CPU time, "
              f"{towns['ratio_wall']:.1f}x by wall time (fastest windows, measured apart)")
        in_turn = towns.get("in_turn")
        if in_turn is not None and in_turn["median"] is not None:
            pairs = ", ".join(f"{r:.1f}" for r in in_turn["ratios"] if r is not None)
            print(f"  measured in turn, window by window: {pairs}; median {in_turn['median']:.1f}x by CPU time")
        print(f"  target within {TARGETS['tinytowns_ratio']:g}x "
              f"({'median in turn' if in_turn else 'CPU time'}): {verdict(t['ratio']['met'])}")
        print("  by instructions executed (steady on a busy machine; valgrind, minutes): "
              "python benchmarks/instructions.py")
        if same is not None and "error" in same:
            print(f"  the same game could not be played: {same['error']}")
    else:
        print(f"  engine: not measured ({towns.get('error')})")
    print()

    print("Problems")
    if report["problems"]:
        for line in report["problems"]:
            print(f"  ! {line}")
    else:
        print("  none")


# -------------------------------------------------------------------- main
def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--json", action="store_true", help="print JSON instead of tables")
    parser.add_argument("--quick", action="store_true",
                        help="3 games per measurement, no warm-up, single check and start-up runs")
    parser.add_argument("--games", type=int, help="a fixed number of games per measurement")
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement (default 3)")
    parser.add_argument("--repeats", type=int, help="check runs per pack, best kept (default 3, quick 1)")
    parser.add_argument("--pack", action="append", help="only this pack: a bundled name, or `towns` for the test pack (repeatable)")
    parser.add_argument("--strict", action="store_true", help="exit 1 if any pack failed to load, play or check")
    args = parser.parse_args(argv)
    if args.quick and args.games is None:
        args.games = 3
    if args.games is not None and args.games < 1:
        parser.error("--games must be at least 1")
    if args.seconds <= 0:
        parser.error("--seconds must be positive")
    args.repeats = args.repeats or (1 if args.quick else 3)
    args.startup_repeats = 2 if args.quick else 5
    args.warmup = not args.quick
    return args


def main(argv=None) -> int:
    args = parse_args(argv)
    report = run(args)
    if args.json:
        print(json.dumps(report, indent=2, default=str))
    else:
        print_report(report)
    return 1 if args.strict and report["problems"] else 0


if __name__ == "__main__":
    sys.exit(main())
