"""`boardrule ladder`: agents rated against each other in duplicate matches (interpreter/lab/ladder.py)."""

from __future__ import annotations

import json
import sys

import click

from boardrule.cli.main import PACK, cli


@cli.command()
@click.argument("pack", type=PACK)
@click.option("--agents", default="random,greedy,mcts", show_default=True, metavar="AGENT,AGENT...",
              help="The agents to rate, comma-separated, as --seats of simulate names them (mcts:200, strong...). "
                   "The first is rated 0.")
@click.option("--games", "-n", type=int, default=20, show_default=True,
              help="Duplicate games per pair of agents (every deal in both seatings).")
@click.option("--players", type=int, default=None,
              help="Players per game (default: 2 if the pack allows it, else the fewest it allows).")
@click.option("--seed", type=int, default=0, show_default=True, help="The root seed of every match.")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE", help="A pack option (repeatable).")
@click.option("--jobs", "-j", type=int, default=1, show_default=True,
              help="Worker processes (0: one per CPU). Results do not depend on it.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--progress/--no-progress", default=None,
              help="A progress bar on stderr (default: when stderr is a terminal).")
def ladder(pack, agents, games, players, seed, options, jobs, fmt, progress):
    """Rate agents on PACK: every pair plays duplicate games; Elo-style ratings with 95% intervals.

    \b
    Examples:
      boardrule ladder tictactoe --agents random,greedy,mcts --games 40
      boardrule ladder my.pack --players 1 --agents greedy,mcts,strong --games 10

    How far apart the ratings are says how much skill matters in the game;
    ratings whose intervals overlap are not told apart by this many games.
    """
    from boardrule.cli.commands import parse_options
    from boardrule.cli.simulate import ProgressBar
    from boardrule.dsl.diagnostics import UsageError
    from boardrule.interpreter.lab.ladder import ladder as run_ladder
    if jobs < 0:
        raise UsageError(f"--jobs must be 0 (one per CPU) or more, not {jobs}", code="E001")
    names = [name.strip() for name in agents.split(",") if name.strip()]
    show = progress if progress is not None else sys.stderr.isatty()
    bar = ProgressBar(sys.stderr, label="ladder") if show else None
    try:
        table = run_ladder(pack, names, games, seed, players, parse_options(options), jobs, bar)
    finally:
        if bar is not None:
            bar.close()
    if fmt == "json":
        click.echo(json.dumps(table, indent=2))
    else:
        click.echo(render_ladder(table))


def render_ladder(table) -> str:
    solo = table["players"] == 1
    lines = [f"{table['pack']}: {len(table['ratings'])} agents, {table['games_per_pair']} duplicate games per pair, "
             + ("alone at the table (the higher score of a deal wins it)" if solo
                else f"{table['players']} players (the better place wins)"),
             "",
             f"  {'agent':<24} {'rating':>7}  {'95% interval':<16} {'games':>6} {'points':>7}"]
    anchor = table["anchor"]
    for row in table["ratings"]:
        interval = "(rated 0)" if row["agent"] == anchor else f"[{row['low']:.0f}, {row['high']:.0f}]"
        lines.append(f"  {row['agent']:<24} {row['rating']:>7.0f}  {interval:<16} {row['games']:>6} "
                     f"{row['points']:>7.2f}")
    lines += ["", "pairs (wins-draws-losses of the first; points: draws count half):"]
    for pair in table["pairs"]:
        match = f"{pair['first']} vs {pair['second']}"
        lines.append(f"  {match:<40} {pair['wins']}-{pair['draws']}-{pair['losses']}  points {pair['points']:.2f}")
    spread = table["spread"]
    lines += ["", f"skill: {spread['best']} is rated {spread['difference']:.0f} above {spread['worst']}: it "
              f"expects {spread['expected'] * 100:.0f}% of the points against it",
              f"neighbours told apart (intervals that do not overlap): {spread['separated']} of {spread['steps']}"]
    if spread["separated"] < spread["steps"]:
        lines.append("  where intervals overlap, these games cannot tell the agents apart: play more games, or "
                     "luck weighs more than skill there")
    return "\n".join(lines)
