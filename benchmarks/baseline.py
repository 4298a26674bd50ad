"""Today's engine against the build tagged when the compiler issue was filed, measured in one run.

    python benchmarks/baseline.py             # townies, villagers, tinytowns with 4 players; ~15 s
    python benchmarks/baseline.py --json
    python benchmarks/baseline.py tinytowns --players 2 --seconds 8

The compiler issue asks that random playouts of Townies, Villagers and Tiny Towns with 4 players
be at least 3x faster than the engine of the tag `issue18-baseline` (fd0cff9). Both engines are
installed as `boardrule`, so the tagged one cannot be imported beside today's: it is extracted
with `git archive TAG` (in a checkout without tags, the commit the tag names) from the repository
this file belongs to, laid out as its pyproject.toml maps it (setuptools' build_py: the
package-dir mapping and pack files, no wheel needed, offline)
and cached in the system's temporary folder under the tag's commit, so reruns start at once.

Each engine runs in a worker process (benchmarks/baseline_worker.py; the tagged one with
PYTHONPATH set to its build) that plays games on command. For each pack, both open the pack
file of this checkout; a build that cannot read it (the language grew since) opens its own
bundled pack, and the output says which files each played. Then windows are taken in turn,
as bench.paired_ratio takes them: in each of 5 pairs both workers play the same seeded
games 0..N-1 (bench.playout_runner: seed n, random agents seeded n * 1000 + seat, moves drawn
uniformly from the legal moves), N chosen so that the slower side's window lasts about
seconds / 10. CPU time per game is measured in each worker; the speed-up of a pair is the
tagged build's CPU time over today's, and the median of the pairs is the one judged against
the 3x target. Figures are printed, never asserted: a slow machine is no failure.

Exit status: 0 when the run completed (a pack that fails is reported in the output), 2 on
bad arguments or when the tagged build cannot be had (no git, or no such tag).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import platform
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
WORKER = HERE / "baseline_worker.py"
TAG = "issue18-baseline"
#: the commit TAG names: a checkout without tags (some clones lack them) finds the build by it
KNOWN_TAGS = {TAG: "fd0cff99e28f79d5343dd1da0d9c1186bb215f01"}
PACKS = ("townies", "villagers", "tinytowns")
PLAYERS = 4
TARGET = 3.0  # at least this many times faster than the tagged build
WINDOWS = 5  # pairs of windows, as bench.WINDOWS
WARMUP_SEED = 1_000_000  # as bench.timed_runs: a game outside the measured ones fills the caches
CALIBRATION_GAMES = 3


class Unavailable(Exception):
    """The tagged build cannot be had: the message says how to get it."""


class NoGit(Unavailable):
    """git could not be run."""


class WorkerError(Exception):
    """A worker answered with an error, or stopped."""


# ------------------------------------------------------------ the tagged build
def git(*args: str) -> bytes:
    try:
        done = subprocess.run(["git", "-C", str(REPO), *args], capture_output=True, stdin=subprocess.DEVNULL)
    except OSError as exc:
        raise NoGit(f"git is needed to extract the tagged build ({exc}); install git and run this "
                          f"from a clone of the repository") from exc
    if done.returncode != 0:
        raise Unavailable(done.stderr.decode(errors="replace").strip() or f"git {' '.join(args)} failed")
    return done.stdout


def tag_commit(tag: str) -> str:
    """The commit `tag` names: the commit it is known to name when it is one of KNOWN_TAGS, else the
    tag itself (or a commit id)."""
    try:
        return git("rev-parse", "--verify", "--quiet", f"{KNOWN_TAGS.get(tag, tag)}^{{commit}}").decode().strip()
    except NoGit:
        raise
    except Unavailable as exc:
        raise Unavailable(f"the tag {tag} is not in the repository {REPO}; fetch it with "
                          f"`git fetch origin tag {tag}` (a clone made with --no-tags lacks it)") from exc


def tagged_build(tag: str, cache: Path) -> dict:
    """The tagged build laid out as installed (TMP/site/boardrule/...), built once per commit."""
    commit = tag_commit(tag)
    folder = cache / f"boardrule-{commit[:12]}"
    site = folder / "site"
    if not (site / "boardrule" / "__init__.py").is_file():
        cache.mkdir(parents=True, exist_ok=True)
        building = Path(tempfile.mkdtemp(prefix=f"{folder.name}.building-", dir=cache))
        try:
            build(commit, building)
            try:
                building.rename(folder)
            except OSError:  # another run built it meanwhile
                if not (site / "boardrule" / "__init__.py").is_file():
                    raise
        finally:
            shutil.rmtree(building, ignore_errors=True)
    return {"tag": tag, "commit": commit, "site": str(site)}


def build(commit: str, folder: Path) -> None:
    source = folder / "src"
    with tarfile.open(fileobj=io.BytesIO(git("archive", "--format=tar", commit))) as archive:
        if hasattr(tarfile, "data_filter"):
            archive.extractall(source, filter="data")
        else:  # Python before 3.10.12: the archive is our own repository's
            archive.extractall(source)
    done = subprocess.run([sys.executable, "-c", "import setuptools; setuptools.setup()", "build_py",
                           "--build-lib", str(folder / "site")], cwd=source, capture_output=True, text=True,
                          stdin=subprocess.DEVNULL)
    if done.returncode != 0:
        raise Unavailable(f"building the tagged build with setuptools failed (is setuptools installed?):\n"
                          f"{done.stderr.strip()[-1500:]}")
    shutil.rmtree(source)


# -------------------------------------------------------------------- workers
class Engine:
    """A worker process playing games with one engine."""

    def __init__(self, label: str, pythonpath: str | None):
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        if pythonpath:
            env["PYTHONPATH"] = pythonpath
        self.label = label
        self.process = subprocess.Popen([sys.executable, str(WORKER)], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True, env=env, cwd=tempfile.gettempdir())
        self.info = self.ask(op="hello")

    def ask(self, **command) -> dict:
        self.process.stdin.write(json.dumps(command) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise WorkerError(f"{self.label}: the worker stopped (exit status {self.process.wait()})")
        answer = json.loads(line)
        if "error" in answer and command["op"] != "open":
            raise WorkerError(f"{self.label}: {answer['error'].strip().splitlines()[-1]}")
        return answer

    def play(self, games: int, first: int = 0) -> dict:
        return self.ask(op="play", first=first, games=games)

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait(timeout=30)


def start_engines(build_info: dict) -> tuple:
    started = []
    try:
        started.append(Engine("today's engine", None))
        started.append(Engine(f"the {build_info['tag']} build", build_info["site"]))
        check_locations(*started, build_info)
    except (Unavailable, WorkerError) as exc:
        for engine in started:
            engine.close()
        raise Unavailable(f"a worker could not start: {exc}") from exc
    return tuple(started)


def check_locations(today: Engine, tagged: Engine, build_info: dict) -> None:
    if not Path(tagged.info["location"]).is_relative_to(Path(build_info["site"]).resolve()):
        raise Unavailable(f"the tagged worker imported boardrule from {tagged.info['location']}, "
                          f"not from the build in {build_info['site']}")
    if Path(today.info["location"]).is_relative_to(Path(build_info["site"]).resolve()):
        raise Unavailable("today's worker imported the tagged build")


# ------------------------------------------------------------------ measuring
def measure_pack(name: str, players: int, seconds: float, today: Engine, tagged: Engine) -> dict:
    """Both engines on one pack: the files each opened, then WINDOWS pairs of windows in turn."""
    current_file = str(REPO / "rulepacks" / f"{name}.pack")
    row = {"pack": name, "players": players, "target": TARGET}
    opened = {"today": today.ask(op="open", specs=[current_file], players=players),
              "tagged": tagged.ask(op="open", specs=[current_file, name], players=players)}
    for side, answer in opened.items():
        if "error" in answer:
            row["error"] = f"{side}: {answer['error']}: " + "; ".join(r["error"] for r in answer["refused"])
            return row
    row["files"] = opened
    row["same_files"] = opened["today"]["files"] == opened["tagged"]["files"]
    for engine in (today, tagged):
        engine.play(1, first=WARMUP_SEED)
    per_game = max(engine.play(CALIBRATION_GAMES)["cpu_s"] / CALIBRATION_GAMES for engine in (today, tagged))
    games = max(1, round(seconds / WINDOWS / 2 / per_game)) if per_game > 0 else 1
    row.update(paired_windows(today, tagged, games))
    return row


def measured_or_failed(name: str, players: int, seconds: float, today: Engine, tagged: Engine) -> dict:
    """A pack that fails (too many players for it, an engine's error) is reported, not raised."""
    try:
        return measure_pack(name, players, seconds, today, tagged)
    except WorkerError as exc:
        return {"pack": name, "players": players, "target": TARGET, "error": str(exc)}


def paired_windows(today: Engine, tagged: Engine, games: int) -> dict:
    """WINDOWS pairs, each engine playing games 0..games-1; who goes first alternates."""
    windows = {"today": [], "tagged": []}
    for pair in range(WINDOWS):
        order = [("tagged", tagged), ("today", today)]
        for side, engine in order if pair % 2 == 0 else order[::-1]:
            windows[side].append(engine.play(games))
    ratios = [old["cpu_s"] / new["cpu_s"] if new["cpu_s"] else None
              for old, new in zip(windows["tagged"], windows["today"])]
    known = sorted(r for r in ratios if r is not None)
    result = {"games_per_window": games, "ratios": ratios, "speedup": known[len(known) // 2] if known else None,
              "same_games": windows["today"][0]["moves"] == windows["tagged"][0]["moves"]}
    for side, runs in windows.items():
        result[side] = side_figures(runs)
    result["verdict"] = "met" if result["speedup"] is not None and result["speedup"] >= TARGET else "missed"
    return result


def side_figures(runs: list) -> dict:
    cpu_ms = sorted(run["cpu_s"] / run["games"] * 1000 for run in runs)
    median = cpu_ms[len(cpu_ms) // 2]
    return {"cpu_ms_per_game": median, "games_per_s": 1000 / median if median else None,
            "windows_cpu_ms": [run["cpu_s"] / run["games"] * 1000 for run in runs],
            "moves_per_game": sum(runs[0]["moves"]) / len(runs[0]["moves"])}


def environment(today: Engine, tagged: Engine, build_info: dict) -> dict:
    load = list(os.getloadavg()) if hasattr(os, "getloadavg") else None
    return {"today": today.info, "tagged": {**tagged.info, **build_info},
            "python": platform.python_version(), "platform": platform.platform(),
            "logical_cpus": os.cpu_count(), "load_average": load}


def report(packs, players: int, seconds: float, tag: str, cache: Path) -> dict:
    build_info = tagged_build(tag, cache)
    today, tagged = start_engines(build_info)
    try:
        started = time.perf_counter()
        rows = [measured_or_failed(name, players, seconds, today, tagged) for name in packs]
        return {"environment": environment(today, tagged, build_info),
                "settings": {"players": players, "seconds": seconds, "windows": WINDOWS, "target": TARGET},
                "packs": rows, "elapsed_s": time.perf_counter() - started}
    finally:
        today.close()
        tagged.close()


# ------------------------------------------------------------------- printing
def shown_file(path: str, result: dict) -> str:
    tagged = result["environment"]["tagged"]
    site = Path(tagged["site"]).resolve() / "boardrule"
    file = Path(path)
    if file.is_relative_to(site):  # the build lays rulepacks/ out as boardrule/rulepacks/
        return f"{tagged['tag']}:{file.relative_to(site).as_posix()}"
    return file.relative_to(REPO).as_posix() if file.is_relative_to(REPO) else path


def print_report(result: dict) -> None:
    env = result["environment"]
    print(f"Today's engine ({env['today']['location']}) against {env['tagged']['tag']} "
          f"({env['tagged']['commit'][:7]}, built in {env['tagged']['site']})")
    load = env["load_average"]
    print(f"Python {env['python']}, {env['logical_cpus']} CPUs, load average "
          f"{' '.join(f'{x:.2f}' for x in load) if load else 'unknown'}")
    settings = result["settings"]
    print(f"Random playouts, {settings['players']} players, CPU time per game, {settings['windows']} pairs of "
          f"windows taken in turn on the same seeds (speed-up = tagged / today, the median pair)\n")
    for row in result["packs"]:
        print_row(row, result)
    print(f"({result['elapsed_s']:.0f} s)")


def print_row(row: dict, result: dict) -> None:
    if "error" in row:
        print(f"  {row['pack']}: FAILED {row['error']}\n")
        return
    verdict = "met" if row["verdict"] == "met" else "MISSED"
    print(f"  {row['pack']:<10} today {row['today']['games_per_s']:7.1f} games/s   "
          f"tagged {row['tagged']['games_per_s']:7.1f} games/s   speed-up {row['speedup']:5.2f}x   "
          f"(target at least {row['target']:g}x: {verdict})")
    pairs = " ".join("n/a" if r is None else f"{r:.2f}" for r in row["ratios"])
    print(f"{'':13}pairs {pairs}; {row['games_per_window']} games a window; "
          f"{row['today']['moves_per_game']:.1f} / {row['tagged']['moves_per_game']:.1f} moves a game "
          f"({'the same games' if row['same_games'] else 'different games'})")
    for side in ("today", "tagged"):
        opened = row["files"][side]
        files = ", ".join(shown_file(f, result) for f in opened["files"])
        refused = "".join(f"; could not read {shown_file(r['spec'], result)}: {r['error']}"
                          for r in opened["refused"])
        print(f"{'':13}{side} played {files} (hash {opened['hash']}){refused}")
    print()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="random playouts of today's engine against the tagged "
                                                 f"build {TAG}, measured in turn in one run")
    parser.add_argument("packs", nargs="*", default=list(PACKS), metavar="PACK",
                        help=f"bundled pack names (default: {' '.join(PACKS)})")
    parser.add_argument("--players", type=positive_int, default=PLAYERS, help="players per game (default 4)")
    parser.add_argument("--seconds", type=positive_float, default=3.0,
                        help="time of the windows per pack, both engines together (default 3)")
    parser.add_argument("--tag", default=TAG, help=f"the build to compare with (default {TAG})")
    parser.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "boardrule-baseline",
                        help="where the tagged build is kept, one folder per commit (default: in the "
                             "system's temporary folder)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    unknown = [name for name in args.packs if not (REPO / "rulepacks" / f"{name}.pack").is_file()]
    if unknown:
        parser.error(f"not a bundled pack: {', '.join(unknown)} (rulepacks/ has "
                     f"{', '.join(sorted(p.stem for p in (REPO / 'rulepacks').glob('*.pack')))})")
    try:
        result = report(args.packs, args.players, args.seconds, args.tag, args.cache)
    except Unavailable as exc:
        print(f"baseline.py: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print_report(result)
    return 0


def positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def positive_float(text: str) -> float:
    value = float(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be above 0, not {value}")
    return value


if __name__ == "__main__":
    sys.exit(main())
