"""The `boardrule` command: a thin layer over the library that owns printing and exit codes.

Exit codes: 0 all good, 1 findings (diagnostics, failed tests, a game that no
longer replays), 2 usage errors (bad arguments, unknown pack or option).
"""

from __future__ import annotations

import os
import sys

import click

from boardrule import __version__

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3
EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE, what a shell reports for a program whose reader went away


def _silence_stdout() -> None:
    """Point stdout at /dev/null so that Python's final flush does not fail again."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


#: The module of cli/ that defines each command: a command's module is imported only when it runs
#: (or when the help lists the commands), so that `--help` and `check` import only what they need.
COMMAND_MODULES = {
    "check": "commands", "score": "commands", "play": "commands", "replay": "commands",
    "simulate": "simulate", "bench": "simulate", "ladder": "ladder", "serve": "serve",
    "rules": "designer", "new": "designer", "schema": "designer", "diff": "designer", "lsp": "designer",
    "render": "picture",
}


class BoardruleGroup(click.Group):
    """Turns any boardrule error that escapes a command into a clean message; finds each command
    in its module (COMMAND_MODULES) when it is asked for."""

    def list_commands(self, ctx):
        return sorted(set(self.commands) | set(COMMAND_MODULES))

    def get_command(self, ctx, cmd_name):
        if cmd_name not in self.commands and cmd_name in COMMAND_MODULES:
            _register(COMMAND_MODULES[cmd_name])
        return self.commands.get(cmd_name)

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except (click.exceptions.Exit, click.exceptions.ClickException, click.exceptions.Abort):
            raise
        except BrokenPipeError:  # the reader stopped reading (`| head`): no message, as a shell would
            _silence_stdout()
            sys.exit(EXIT_BROKEN_PIPE)
        except RecursionError:  # a pack whose rules nest past what Python evaluates: the pack's fault
            click.echo("error[E700]: a rule of the pack failed: the rules nest too deeply to evaluate "
                       "(definitions calling definitions?)", err=True)
            sys.exit(EXIT_FINDINGS)
        except Exception as err:
            _report(err)


def _register(module: str) -> None:
    """Import one module of commands (importing it registers them); each named in the code, since
    the engine imports nothing by a name it computes (tests/test_safety.py)."""
    if module == "commands":
        from boardrule.cli import commands  # noqa: F401
    elif module == "simulate":
        from boardrule.cli import simulate  # noqa: F401
    elif module == "designer":
        from boardrule.cli import designer  # noqa: F401
    elif module == "picture":
        from boardrule.cli import picture  # noqa: F401
    elif module == "ladder":
        from boardrule.cli import ladder  # noqa: F401
    elif module == "serve":
        from boardrule.cli import serve  # noqa: F401


def _report(err: Exception):
    """A boardrule error as its diagnostics (exit 2), a rule that failed (exit 1), anything else as
    an engine bug (exit 3). The error classes are looked up among the loaded modules: an error of a
    module that was never imported cannot have been raised, so nothing is imported for this."""
    diagnostics = sys.modules.get("boardrule.dsl.diagnostics")
    values = sys.modules.get("boardrule.interpreter.runtime.values")
    if diagnostics is not None and isinstance(err, diagnostics.BoardruleError):
        for diag in err.diagnostics:
            click.echo(diagnostics.render(diag, err.sources or diagnostics.SourceStore()), err=True)
        sys.exit(EXIT_USAGE)
    if values is not None and isinstance(err, values.RuleError):
        where = f"{err.span}: " if err.span is not None else ""
        click.echo(f"{where}error[E700]: a rule of the pack failed: {err}", err=True)
        sys.exit(EXIT_FINDINGS)
    if os.environ.get("BOARDRULE_DEBUG"):  # an engine bug: say so plainly, trace only on request
        raise err
    click.echo(f"internal error: {type(err).__name__}: {err}\n"
               "this is a bug in boardrule; run again with BOARDRULE_DEBUG=1 for details", err=True)
    sys.exit(EXIT_INTERNAL)


class PackParam(click.ParamType):
    """A pack on the command line: a file here, a bundled name, or `NAME.pack` naming a bundled
    pack when no such file is here (said in one line on stderr, so that a user who meant a
    local file notices). A name that is neither goes on as typed: the command reports it."""

    name = "pack"

    def convert(self, value, param, ctx):
        from boardrule.dsl.diagnostics import BoardruleError
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
    try:
        cli(standalone_mode=True)
    except KeyboardInterrupt:  # pragma: no cover - interactive
        click.echo("\ninterrupted", err=True)
        sys.exit(130)
