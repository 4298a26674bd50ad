"""`boardrule render`: a picture of a position file or of a saved game, as text, SVG or PNG."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from boardrule.cli.main import EXIT_FINDINGS, PACK, cli

FORMATS = ("text", "svg", "png")


@cli.command()
@click.argument("pack", type=PACK)
@click.argument("source", metavar="POSITION_OR_SAVE", type=click.Path(exists=True, dir_okay=False))
@click.option("--format", "fmt", type=click.Choice(FORMATS), default=None,
              help="text, svg or png (default: from the -o file's suffix, else text).")
@click.option("-o", "--output", "output", type=click.Path(dir_okay=False), default=None,
              help="Write to FILE instead of the terminal (PNG needs a file).")
@click.option("--step", type=int, default=None, help="A saved game after its first N moves (default: the last).")
@click.option("--player", default=None, metavar="P", help="Only what player P sees (P1, P2...), and only their board.")
@click.option("--players", type=int, default=None, help="Number of players of a position file.")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE", help="A pack option (position files).")
@click.option("--color/--no-color", default=None, help="Colour text output (default: when a terminal).")
def render(pack, source, fmt, output, step, player, players, options, color):
    """Draw a position file or a saved game (a step of it) with the pack's colours and a legend."""
    from boardrule.dsl.diagnostics import SaveError, UsageError
    from boardrule.cli.commands import parse_options
    from boardrule.cli.render import color_default, picture_text
    from boardrule.interpreter import api
    from boardrule.interpreter.runtime import picture as pictures
    from boardrule.interpreter.records.positions import parse_seat
    fmt = fmt or _format_of(output)
    if fmt == "png" and not output:
        raise UsageError("a PNG goes to a file: add `-o FILE.png`", code="E001")
    game = api.open_game(pack)
    saved = _saved_game(source)
    if saved is None:
        if step is not None:
            raise UsageError("--step is for saved games; a position file is one position", code="E001")
        state = api.load_position(game, source, players, parse_options(options))
    else:
        if players is not None or options:
            raise UsageError("a saved game has its own players and options: leave out --players and --option",
                             code="E001")
        try:
            state = _saved_state(game, saved, step)
        except SaveError as err:
            click.echo(f"{source}: does not replay: {err.diagnostics[0].message}", err=True)
            sys.exit(EXIT_FINDINGS)
    viewer = None
    if player is not None:
        try:
            viewer = parse_seat(player, seats=state.seats)
        except Exception:
            raise UsageError(f"`{player}` is not a player of this game; write P1, P2, ...", code="E001") from None
        if viewer not in state.players:
            raise UsageError(f"{player} does not play in this game; players: "
                             + ", ".join(f"P{s + 1}" for s in state.players), code="E001")
    pic = pictures.picture(game, state, viewer, seats=None if viewer is None else (viewer,))
    if fmt == "png":
        try:
            pictures.write_png(pic, output)
        except pictures.PngUnavailable as err:
            raise UsageError(str(err), code="E001") from None
        return
    if fmt == "svg":
        text = pictures.to_svg(pic)
    else:
        use_color = (color_default() if output is None else False) if color is None else color
        text = picture_text(pic, use_color) + "\n"
        if output is None:
            click.echo(text, nl=False, color=use_color)
            return
    if output is None:
        click.echo(text, nl=False)
    else:
        Path(output).write_text(text, encoding="utf-8")


def _format_of(output) -> str:
    suffix = Path(output).suffix.lower() if output else ""
    return {".svg": "svg", ".png": "png"}.get(suffix, "text")


def _saved_game(path):
    """The saved game in `path`, or None when it is not one (then it is read as a position)."""
    from boardrule.dsl.diagnostics import SaveError, UsageError
    from boardrule.interpreter.records.gamelog import MAX_SAVE_BYTES
    try:
        with open(path, "rb") as fh:
            raw = fh.read(MAX_SAVE_BYTES + 1)  # a bigger file is no save: gamelog.load says so
    except OSError:
        return None
    text = raw.decode("utf-8", errors="replace")
    if text.lstrip()[:1] != "{":
        return None
    if len(raw) > MAX_SAVE_BYTES:
        return path
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None  # YAML in flow style, say: read as a position
    if not isinstance(data, dict) or data.get("type") not in ("boardrule-log", "boardrule-state"):
        raise UsageError(f"{path} is neither a position (YAML) nor a boardrule save", code="E001")
    return path


def _saved_state(game, path, step):
    from boardrule.dsl.diagnostics import SaveError, UsageError
    from boardrule.interpreter.runtime import flow
    from boardrule.interpreter.records import gamelog
    data = gamelog.load(path, game)
    final = gamelog.restore(game, data)
    if step is None:
        return final
    if data.get("type") != "boardrule-log":
        raise UsageError("--step needs a game log; this save holds one state", code="E001")
    moves = data["moves"]
    if not 0 <= step <= len(moves):
        raise UsageError(f"--step {step}: the game has {len(moves)} moves (0 is the start)", code="E001")
    state = flow.initial_state(game, data["players"], data["seed"], data.get("options", {}))
    for seat, text in moves[:step]:
        state = flow.play_text(game, state, seat, text)
    return state
