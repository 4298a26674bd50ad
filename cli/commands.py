"""The commands of `boardrule`; each parses options, calls the library, prints."""

from __future__ import annotations

import json
import sys

import click

from boardrule.cli.main import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, PACK, cli


@cli.command()
@click.argument("packs", nargs=-1, required=True, type=PACK)
@click.option("--output-format", "fmt", type=click.Choice(["text", "json", "github", "junit", "sarif"]),
              default="text", show_default=True,
              help="How to print diagnostics (github: annotations, 10 per kind; junit: XML; sarif: SARIF 2.1.0).")
@click.option("--no-tests", is_flag=True, help="Skip the packs' own tests.")
@click.option("--no-lint", is_flag=True, help="Skip the lint warnings (W8xx).")
@click.option("--strict", is_flag=True, help="Warnings fail the check too (exit 1).")
@click.option("--budget", type=click.FloatRange(min=0, min_open=True), default=1.0, show_default=True,
              help="Scale the work budget of the packs' tests (see docs/safety.md).")
@click.option("--extends-from", "extends_from", multiple=True, type=click.Path(file_okay=False),
              metavar="DIR", help="A folder whose packs `extends:` may read, beside the checked pack's own.")
def check(packs, fmt, no_tests, no_lint, strict, budget, extends_from):
    """Check packs (bundled names or paths) and run their tests."""
    from boardrule.dsl.diagnostics import SourceStore, diagnostic_to_dict, render, summary_line
    from boardrule.interpreter.designer.check import check_pack
    sources = SourceStore()
    reports = [check_pack(p, sources, run_pack_tests=not no_tests, lint=not no_lint, budget=budget,
                          extends_from=extends_from) for p in packs]
    diagnostics = [d for r in reports for d in r.findings(strict)]
    if fmt == "json":
        click.echo(json.dumps({"packs": [{"pack": r.pack, "ok": _clean(r, strict), "tests": r.tests_run,
                                          "inherited_tests": len(r.inherited),
                                          "changed_by_this_pack": [name for name, _ in r.changed_results],
                                          "no_longer_fit": [name for name, _ in r.unfit],
                                          "diagnostics": [diagnostic_to_dict(d) for d in r.findings(strict)]}
                                         for r in reports]}, indent=2))
    elif fmt == "github":
        from boardrule.interpreter.designer.reports import github_lines
        click.echo("\n".join(github_lines(diagnostics)))
    elif fmt == "sarif":
        from boardrule.interpreter.designer.sarif import sarif_report
        click.echo(json.dumps(sarif_report(reports, strict), indent=2))
    elif fmt == "junit":
        from boardrule.interpreter.designer.reports import junit_xml
        click.echo(junit_xml(reports, sources, strict), nl=False)
    else:
        for d in diagnostics:
            click.echo(render(d, sources))
            click.echo()
        for r in reports:
            status = "FAILED" if not _clean(r, strict) and not (strict and r.warnings and r.ok) else (
                "FAILED (warnings, --strict)" if strict and r.warnings else "ok")
            tests = f"{r.tests_run} test" + ("" if r.tests_run == 1 else "s")
            click.echo(f"{r.pack}: {status} ({tests}, {r.seconds:.2f} s)")
            for line in _inherited_lines(r, strict):
                click.echo(line)
        if diagnostics:
            click.echo(summary_line(diagnostics))
    usage = any(d.code in ("E120", "E121", "E124") for d in diagnostics)
    clean = all(_clean(r, strict) for r in reports)
    sys.exit(EXIT_USAGE if usage else EXIT_OK if clean else EXIT_FINDINGS)


def _clean(report, strict: bool) -> bool:
    """No error that counts, and no warning under --strict."""
    counted = report.findings(strict)
    return not any(d.severity == "error" for d in counted) and not (strict and report.warnings)


INHERITED_EXAMPLES = 3  # changed base tests named in the text output


def _inherited_lines(report, strict: bool) -> list:
    """What the tests of the packs it extends say of a variant: information, unless counted."""
    if not report.inherited:
        return []
    changed, unfit = report.changed_results, report.unfit
    held = len(report.inherited) - len(changed) - len(unfit)
    head = (f"  inherited: {len(report.inherited)} tests of the packs it extends: {held} hold, "
            f"{len(changed)} changed by this pack, {len(unfit)} no longer fit it")
    counted = strict or report.strict_inherited
    if (changed or unfit) and not counted:
        head += " (information: --strict or `inherited_tests: strict` counts them)"
    lines = [head]
    if not counted:
        for name, failures in (changed + unfit)[:INHERITED_EXAMPLES]:
            message = failures[0].message.removeprefix(f"test `{name}`: ")
            lines.append(f"    `{name}`: {message}"[:300])
        if len(changed) + len(unfit) > INHERITED_EXAMPLES:
            lines.append(f"    ... and {len(changed) + len(unfit) - INHERITED_EXAMPLES} more "
                         "(`--output-format json` lists them)")
    return lines


@cli.command()
@click.argument("pack", type=PACK)
@click.argument("position", type=click.Path(exists=True, dir_okay=False))
@click.option("--players", type=int, default=None, help="Number of players.")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE", help="A pack option.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def score(pack, position, players, options, fmt):
    """Print the score sheet of a position file."""
    from boardrule.cli.session import load_game, score_position
    game = load_game(pack)
    result = score_position(game, position, players, parse_options(options))
    if fmt == "json":
        click.echo(json.dumps(result, indent=2))
        return
    from boardrule.cli.render import render_sheets
    click.echo(render_sheets(result))


def parse_options(pairs) -> dict:
    options = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise click.UsageError(f"--option takes KEY=VALUE, not `{pair}`")
        options[key.strip()] = value.strip()
    return options


@cli.command()
@click.argument("pack", type=PACK)
@click.option("--seats", default=None,
              help="Who plays each seat, comma-separated: human or an agent (random, greedy, mcts, strong).")
@click.option("--players", type=int, default=None, help="Number of players (default: the number of seats).")
@click.option("--seed", type=int, default=None,
              help="Seed of the game's random generator (default: a fresh one, printed at the start).")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE", help="A pack option.")
@click.option("--save", "save_path", type=click.Path(dir_okay=False), default=None, help="Save the game here.")
@click.option("--resume", "resume_path", type=click.Path(exists=True, dir_okay=False), default=None,
              help="Resume a saved game.")
@click.option("--color/--no-color", default=None, help="Colour output (default: when a terminal).")
@click.option("--budget", type=click.FloatRange(min=0, min_open=True), default=1.0, show_default=True,
              help="Scale the work budget of the game's rules (see docs/safety.md).")
def play(pack, seats, players, seed, options, save_path, resume_path, color, budget):
    """Play a game in the terminal, with humans and bots."""
    from boardrule.cli.play import run_play
    code = run_play(pack, seats, players, seed, parse_options(options), save_path, resume_path, color, budget)
    sys.exit(code)


@cli.command()
@click.argument("save", type=click.Path(exists=True, dir_okay=False))
@click.option("--pack", "pack_name", default=None, type=PACK,
              help="The pack (bundled name or path); default: the one the save names.")
@click.option("--verify", is_flag=True, help="Only check that the game still replays (exit 1 if not).")
@click.option("--force", is_flag=True, help="Replay even if the pack changed since the save.")
@click.option("--budget", type=click.FloatRange(min=0, min_open=True), default=1.0, show_default=True,
              help="Scale the work budget of the game's rules (see docs/safety.md).")
def replay(save, pack_name, verify, force, budget):
    """Replay a saved game move by move, or check that it still replays."""
    from boardrule.cli.render import render_sheets, render_state
    from boardrule.dsl.diagnostics import SaveError
    from boardrule.interpreter import api
    from boardrule.interpreter.records import gamelog
    from boardrule.interpreter.runtime.budget import Meter
    from boardrule.interpreter.runtime.views import player_names
    try:
        data = gamelog.load(save)
        game = api.open_game(pack_name or gamelog.pack_of_save(data))
        data = gamelog.load(save, game, force=force)
        state = gamelog.replay(game, data, force=force, meter=Meter.scaled(budget))
    except SaveError as err:
        click.echo(f"{save}: does not replay: {err.diagnostics[0].message}")
        sys.exit(EXIT_FINDINGS)
    if verify:
        click.echo(f"{save}: replays ({len(data['moves'])} moves, {game.name})")
        return
    names = player_names(state)  # as play names them: P1, P2... in turn order, whichever seats they took
    for index, (seat, text) in enumerate(data["moves"], 1):
        click.echo(f"{index:>4}. {names[seat]} {text}")
    click.echo(render_state(game, state, names=names))
    if state.phase == "over":
        click.echo(render_sheets(api.score_report(game, state, names=names)))
