"""`boardrule simulate` and `boardrule bench`: the balance lab and the speed figures."""

from __future__ import annotations

import json
import sys
import time

import click

from boardrule.cli.main import PACK, cli


class ProgressBar:
    """`simulate  42% [########..........] 420/1000 games  85 games/s  ~7 s left` on one line of stderr."""

    WIDTH = 24
    EVERY_S = 0.2

    def __init__(self, stream, label="simulate"):
        self.stream, self.label = stream, label
        self.start = time.perf_counter()
        self.shown = 0.0
        self.drawn = False

    def __call__(self, done, total):
        now = time.perf_counter()
        if done < total and now - self.shown < self.EVERY_S:
            return
        self.shown = now
        elapsed = now - self.start
        fraction = done / total if total else 1.0
        filled = int(self.WIDTH * fraction)
        rate = done / elapsed if elapsed > 0 else 0.0
        left = (total - done) / rate if rate > 0 else None
        eta = "done" if done >= total else (f"~{_duration(left)} left" if left is not None else "")
        self.stream.write(f"\r{self.label} {fraction * 100:3.0f}% [{'#' * filled}{'.' * (self.WIDTH - filled)}] "
                          f"{done}/{total} games  {rate:.1f} games/s  {eta}\033[K")
        self.stream.flush()
        self.drawn = True

    def close(self):
        if self.drawn:
            self.stream.write("\n")
            self.stream.flush()


def _duration(seconds) -> str:
    seconds = int(round(seconds))
    if seconds < 60:
        return f"{seconds} s"
    if seconds < 3600:
        return f"{seconds // 60} min {seconds % 60:02d} s"
    return f"{seconds // 3600} h {seconds % 3600 // 60:02d} min"


def _options(pairs) -> dict:
    from boardrule.dsl.diagnostics import UsageError
    options = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"--option takes KEY=VALUE, not `{pair}`", code="E001")
        options[key.strip()] = value.strip()
    return options


@cli.command()
@click.argument("pack", type=PACK)
@click.option("--games", "-n", type=int, default=100, show_default=True,
              help="How many games (with --duplicate: games in all, every deal played once per rotation).")
@click.option("--seats", default="random", show_default=True, metavar="AGENT,AGENT...",
              help="The agents, comma-separated: random, greedy, mcts (mcts:ITERATIONS, mcts:SECONDSs, "
                   "mcts:50:depth=20), strong (strong:ITERATIONS, strong:work=UNITS). They rotate around "
                   "the table from game to game.")
@click.option("--players", type=int, default=None,
              help="Number of players (default: one per agent named, within what the pack allows).")
@click.option("--seed", type=int, default=0, show_default=True, help="The root seed; game g is played from (seed, g).")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE", help="A pack option (repeatable).")
@click.option("--duplicate", is_flag=True,
              help="Duplicate chance: every rotation of the agents meets the same dice and decks, so that "
                   "differences between agents are skill, not luck.")
@click.option("--compare", "compare", metavar="OTHER_PACK", default=None, type=PACK,
              help="Play the same games through another pack too and report the differences.")
@click.option("--jobs", "-j", type=int, default=1, show_default=True,
              help="Worker processes for the local backend (0: one per CPU). Results do not depend on it.")
@click.option("--backend", type=click.Choice(["local", "dask"]), default="local", show_default=True,
              help="Where the games run: local processes, or a Dask cluster (boardrule[dask]).")
@click.option("--address", metavar="HOST:PORT", default=None,
              help="The Dask scheduler, with --backend dask (default: a cluster of --jobs workers started here).")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "csv"]), default="text", show_default=True,
              help="text: tables; json: the whole report; csv: one row per game and seat, a column per term.")
@click.option("--plot", "plot", type=click.Path(dir_okay=False), default=None,
              help="Also draw score histograms and term bars to FILE (.png or .svg; needs boardrule[plot]).")
@click.option("--report", "report_path", type=click.Path(dir_okay=False), default=None, metavar="FILE.html",
              help="Also write the report as one self-contained HTML page with its charts (inline SVG: "
                   "matplotlib's when installed, else plain SVG).")
@click.option("--progress/--no-progress", default=None,
              help="A progress bar on stderr (default: when stderr is a terminal).")
def simulate(pack, games, seats, players, seed, options, duplicate, compare, jobs, backend, address, fmt, plot,
             report_path, progress):
    """Simulate many games of PACK between agents and report scores, wins and where points come from.

    \b
    Examples:
      boardrule simulate tictactoe --games 1000 --seats greedy,random
      boardrule simulate my.pack --players 1 --seats greedy,mcts --duplicate --games 200
      boardrule simulate variant.pack --compare base.pack --games 2000 --jobs 0

    The report goes to stdout, the progress bar to stderr. Exit status: 0 done,
    1 a rule of the pack failed during a game, 2 a usage error.
    """
    from boardrule.dsl.diagnostics import UsageError
    from boardrule.interpreter.lab import simulate as run_simulation
    if games < 1:
        raise UsageError(f"--games must be at least 1, not {games}", code="E001")
    if jobs < 0:
        raise UsageError(f"--jobs must be 0 (one per CPU) or more, not {jobs}", code="E001")
    if address and backend != "dask":
        raise UsageError("--address is for --backend dask", code="E001")
    if plot is not None:
        from boardrule.cli.plots import check_plot_target
        check_plot_target(plot)
    if report_path is not None and not report_path.lower().endswith((".html", ".htm")):
        raise UsageError(f"--report writes an HTML page: name the file *.html, not `{report_path}`", code="E001")
    if backend == "dask":
        try:
            import distributed  # noqa: F401
        except ImportError:
            raise UsageError("--backend dask needs dask.distributed: pip install 'boardrule[dask]'",
                             code="E001") from None
    lineup = [name.strip() for name in seats.split(",")]
    show = progress if progress is not None else sys.stderr.isatty()
    bar = ProgressBar(sys.stderr) if show else None
    started = time.perf_counter()
    try:
        result = run_simulation(pack, games, lineup, seed, players, _options(options), duplicate, compare, jobs,
                                backend, address, bar)
    finally:
        if bar is not None:
            bar.close()
    elapsed = time.perf_counter() - started
    report = result.report
    if fmt == "json":
        click.echo(json.dumps(report, indent=2))
    elif fmt == "csv":
        from boardrule.cli.simprint import render_csv
        if "compare" in report:
            labels = list(dict.fromkeys(report["compare"][0]["terms"] + report["compare"][1]["terms"]))
            packs = [part["pack"]["id"] for part in report["compare"]]
            click.echo(render_csv(result.records, labels, packs), nl=False)
        else:
            click.echo(render_csv(result.records, report["terms"]), nl=False)
    else:
        from boardrule.cli.simprint import render_report
        click.echo(render_report(report))
        played = games * (2 if compare else 1)
        click.echo(f"\n{played} games in {elapsed:.1f} s ({played / elapsed:.1f} games/s)")
    if plot is not None:
        from boardrule.cli.plots import plot_report
        plot_report(report, result.records, plot)
        click.echo(f"plot written to {plot}", err=True)
    if report_path is not None:
        _write_page(report, result.records, report_path)


def _write_page(report, records, path) -> None:
    from boardrule.dsl.diagnostics import UsageError
    from boardrule.interpreter.lab.simhtml import report_page
    try:
        with open(path, "w", encoding="utf-8") as out:
            out.write(report_page(report, records))
    except OSError as err:
        raise UsageError(f"cannot write {path}: {err.strerror or err}", code="E001") from None
    click.echo(f"report written to {path}", err=True)


def _agent_names(seats: str) -> tuple:
    """The agents named by --seats, each checked now (an unknown one is a usage error)."""
    from boardrule.dsl.diagnostics import UsageError
    from boardrule.interpreter.agents import make_agent
    names = tuple(dict.fromkeys(name.strip() for name in seats.split(",") if name.strip()))
    if not names:
        raise UsageError("--seats names no agent; write e.g. `greedy,strong`", code="E005")
    for name in names:
        make_agent(name)
    return names


@cli.command()
@click.argument("packs", nargs=-1, type=PACK)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--seconds", type=float, default=1.0, show_default=True, help="Time per playout measurement.")
@click.option("--games", type=int, default=None, help="A fixed number of games per measurement instead.")
@click.option("--repeats", type=int, default=3, show_default=True,
              help="Check and start-up runs per pack; the best is kept.")
@click.option("--players", type=int, default=None, help="Players in the playouts (default: the fewest allowed).")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE", help="A pack option (repeatable).")
@click.option("--seats", "seats", default=None, metavar="AGENT,AGENT...",
              help="Also time these agents' decisions (decisions per second), e.g. greedy,strong.")
def bench(packs, fmt, seconds, games, repeats, players, options, seats):
    """Speed figures for PACKS (default: every bundled pack).

    Random-playout games per second, check time and start-up time (a fresh
    interpreter importing boardrule and opening the pack), with the engine
    version, pack hashes, Python and CPU. Figures are printed, never judged.
    """
    from boardrule.dsl.diagnostics import UsageError
    from boardrule.dsl.packpath import bundled_pack_names, find_pack
    from boardrule.interpreter.lab.bench import bench as run_bench
    for pack in packs:
        find_pack(pack)  # an unknown pack is a usage error, before any measuring
        if players is not None:
            from boardrule.interpreter.api import open_game
            low, high = open_game(pack).players_range
            if not low <= players <= high:
                raise UsageError(f"{pack} is for {low}-{high} players, not {players}", code="E002")
    if games is not None and games < 1:
        raise UsageError(f"--games must be at least 1, not {games}", code="E001")
    if not seconds > 0:
        raise UsageError(f"--seconds must be positive, not {seconds:g}", code="E001")
    if repeats < 1:
        raise UsageError(f"--repeats must be at least 1, not {repeats}", code="E001")
    from boardrule.cli.commands import parse_options
    deciders = _agent_names(seats) if seats is not None else ()
    report = run_bench(list(packs) or bundled_pack_names(), games, seconds, repeats, players=players,
                       options=parse_options(options), deciders=deciders)
    if fmt == "json":
        click.echo(json.dumps(report, indent=2))
    else:
        from boardrule.cli.simprint import render_bench
        click.echo(render_bench(report))
