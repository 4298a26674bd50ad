"""`boardrule serve`: start the web server (the optional extra `boardrule[web]`) and print its address."""

from __future__ import annotations

import socket
import sys

import click

from boardrule.cli.main import PACK, cli

LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")


def _web_stack():
    """Starlette and uvicorn, or a usage error naming the extra that brings them."""
    from boardrule.dsl.diagnostics import UsageError
    try:
        import starlette  # noqa: F401
        import uvicorn
    except ImportError:
        raise UsageError("`boardrule serve` needs the web extra: pip install 'boardrule[web]'", code="E001") from None
    return uvicorn


def free_port(host: str) -> int:
    """A port nothing listens on now, on `host`."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return sock.getsockname()[1]


def _check_free(host: str, port: int) -> None:
    """OSError when `port` cannot be listened on at `host` (another server has it, say)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))


def address(host: str, port: int, pack=None, page="play") -> str:
    """The address to open: the front page, or PACK's play (or design) page."""
    from urllib.parse import quote
    shown = f"[{host}]" if ":" in host else host
    path = "/" if pack is None else f"/{page}?pack={quote(str(pack), safe='')}"
    return f"http://{shown}:{port}{path}"


@cli.command()
@click.argument("pack", required=False, type=PACK)
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on; anything but this machine's own (127.0.0.1, localhost, ::1) "
                   "lets other machines play and edit packs here.")
@click.option("--port", type=click.IntRange(0, 65535), default=0, show_default=True,
              help="The port (0: a free one).")
@click.option("--no-open", "no_open", is_flag=True, help="Do not open a browser on the address.")
def serve(pack, host, port, no_open):
    """Play and design packs in a browser: a local web server for PACK (default: every bundled pack).

    Prints the address to open; Ctrl-C stops the server (its games are not kept: save them from the page).
    Needs the extra `boardrule[web]`.
    """
    uvicorn = _web_stack()
    from boardrule.cli.web.app import make_app
    from boardrule.dsl.diagnostics import BoardruleError, UsageError
    from boardrule.dsl.packpath import find_pack
    from boardrule.interpreter.api import open_game
    from boardrule.interpreter.runtime.values import RuleError
    page = "play"
    if pack is not None:
        find_pack(pack)  # an unknown pack: a usage error now
        try:
            open_game(pack)
        except (BoardruleError, RuleError):  # a pack with errors: the designer shows them, to mend it there
            click.echo(f"note: {pack} does not check: the address opens it in the designer", err=True)
            page = "design"
    hosts = None if host not in LOCAL_HOSTS else ("127.0.0.1", "localhost", "[::1]", "::1")
    app = make_app(pack, hosts=hosts)
    try:
        port = port or free_port(host)
        _check_free(host, port)
    except OSError as err:
        raise UsageError(f"cannot listen on {host}:{port or ''}: {err.strerror or err}", code="E001") from None
    url = address(host, port, app.state.served, page)
    click.echo(f"boardrule serve: open {url}  (Ctrl-C stops the server)")
    if host not in LOCAL_HOSTS:
        click.echo(f"note: listening on {host}: other machines can reach this server", err=True)
    sys.stdout.flush()
    if not no_open:
        import webbrowser
        try:
            webbrowser.open(url)
        except Exception:  # no browser here: the address is printed
            pass
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", lifespan="off")
    server = uvicorn.Server(config)
    try:
        server.run()
    except (OSError, SystemExit) as err:  # the port taken meanwhile: uvicorn says why and stops
        if server.started:
            raise
        raise UsageError(f"cannot listen on {host}:{port}", code="E001") from None
