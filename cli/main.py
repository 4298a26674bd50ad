"""The `boardrule` command: a thin layer over the library that owns printing and exit codes.

Exit codes: 0 all good, 1 findings (diagnostics, failed tests, a game that no
longer replays), 2 usage errors (bad arguments, unknown pack or option).
"""

from __future__ import annotations

import os
import sys

import click

from boardrule import __version__
from boardrule.dsl.diagnostics import BoardruleError, SourceStore, render
from boardrule.interpreter.runtime.values import RuleError

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3
EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE, what a shell reports for a program whose reader went away


def _silence_stdout() -> None:
    """Point stdout at /dev/null so that Python's final flush does not fail again."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


class BoardruleGroup(click.Group):
    """Turns any boardrule error that escapes a command into a clean message."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except BoardruleError as err:
            for diag in err.diagnostics:
                click.echo(render(diag, err.sources or SourceStore()), err=True)
            sys.exit(EXIT_USAGE)
        except RuleError as err:
            where = f"{err.span}: " if err.span is not None else ""
            click.echo(f"{where}error[E700]: a rule of the pack failed: {err}", err=True)
            sys.exit(EXIT_FINDINGS)
        except RecursionError:  # a pack whose rules nest past what Python evaluates: the pack's fault
            click.echo("error[E700]: a rule of the pack failed: the rules nest too deeply to evaluate "
                       "(definitions calling definitions?)", err=True)
            sys.exit(EXIT_FINDINGS)
        except (click.exceptions.Exit, click.exceptions.ClickException, click.exceptions.Abort, SystemExit):
            raise
        except BrokenPipeError:  # the reader stopped reading (`| head`): no message, as a shell would
            _silence_stdout()
            sys.exit(EXIT_BROKEN_PIPE)
        except Exception as err:  # an engine bug: say so plainly, trace only on request
            if os.environ.get("BOARDRULE_DEBUG"):
                raise
            click.echo(f"internal error: {type(err).__name__}: {err}\n"
                       "this is a bug in boardrule; run again with BOARDRULE_DEBUG=1 for details", err=True)
            sys.exit(EXIT_INTERNAL)


class PackParam(click.ParamType):
    """A pack on the command line: a file here, a bundled name, or `NAME.pack` naming a bundled
    pack when no such file is here (said in one line on stderr, so that a user who meant a
    local file notices). A name that is neither goes on as typed: the command reports it."""

    name = "pack"

    def convert(self, value, param, ctx):
        from boardrule.dsl.packpath import find_pack
        try:
            found = find_pack(value)
        except BoardruleError:
            return value
        if found.note is not None:
            click.echo(f"note: {found.note}", err=True)
            return found.path.stem
        return value


PACK = PackParam()


@click.group(cls=BoardruleGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="boardrule")
def cli():
    """boardrule: grid board games written as declarative rule packs."""


def main():
    from boardrule.cli import commands  # noqa: F401  (registers the commands)
    from boardrule.cli import simulate  # noqa: F401  (registers simulate and bench)
    from boardrule.cli import ladder  # noqa: F401  (registers ladder)
    from boardrule.cli import designer  # noqa: F401  (registers rules, new and schema)
    from boardrule.cli import picture  # noqa: F401  (registers render)
    from boardrule.cli import serve  # noqa: F401  (registers serve)
    try:
        cli(standalone_mode=True)
    except KeyboardInterrupt:  # pragma: no cover - interactive
        click.echo("\ninterrupted", err=True)
        sys.exit(130)
