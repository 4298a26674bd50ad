"""Commands for pack designers: `rules` (a generated rules reference), `new` (a starter pack), `schema`,
`diff` (what a variant changes)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from boardrule.cli.main import EXIT_USAGE, PACK, cli


def _write(text: str, output: str | None, overwrite: bool = True) -> None:
    if output is None or output == "-":
        click.echo(text, nl=False)
        return
    path = Path(output)
    if not overwrite and path.exists():
        click.echo(f"error: {path} exists already; boardrule never overwrites a pack (choose another name or -o)",
                   err=True)
        sys.exit(EXIT_USAGE)
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as err:
        click.echo(f"error: cannot write {path}: {err.strerror or err}", err=True)
        sys.exit(EXIT_USAGE)


@cli.command()
@click.argument("pack", type=PACK)
@click.option("--format", "fmt", type=click.Choice(["md", "html"]), default="md", show_default=True,
              help="Markdown or a standalone HTML page.")
@click.option("-o", "--output", default=None, metavar="FILE", help="Write to FILE instead of the terminal.")
@click.option("--for", "reader", type=click.Choice(["designers", "players"]), default="designers",
              show_default=True, help="The designer's reference (every rule beside its words), or the players' "
              "rulebook written from the pack's doc texts.")
def rules(pack, fmt, output, reader):
    """Print a rules reference generated from a pack (bundled name or path)."""
    from boardrule.interpreter.api import open_game
    if reader == "players":
        from boardrule.cli.render import picture_text
        from boardrule.interpreter.designer.rulebook import rulebook_text
        text = rulebook_text(open_game(pack), fmt, draw=lambda pic: picture_text(pic, notes=False))
    else:
        from boardrule.interpreter.designer.rulesdoc import rules_text
        text = rules_text(open_game(pack), fmt)
    _write(text, output)
    if output not in (None, "-"):
        click.echo(f"wrote {output}")


@cli.command()
@click.argument("name")
@click.option("--extends", "base", default=None, metavar="PACK", type=PACK,
              help="Write a minimal extension of PACK (a bundled name or a path) instead.")
@click.option("-o", "--output-dir", "folder", default=".", show_default=True, metavar="DIR",
              type=click.Path(file_okay=False), help="The folder to write NAME.pack into.")
def new(name, base, folder):
    """Write NAME.pack: a starter pack that checks clean, with a test scenario."""
    from boardrule.interpreter.designer.starter import base_outside, check_name, extension_pack, starter_pack
    check_name(name)
    path = Path(folder) / f"{name}.pack"
    if path.exists():
        click.echo(f"error: {path} exists already; boardrule never overwrites a pack (choose another name or -o)",
                   err=True)
        sys.exit(EXIT_USAGE)
    if not Path(folder).is_dir():
        click.echo(f"error: folder {folder} does not exist", err=True)
        sys.exit(EXIT_USAGE)
    text = extension_pack(name, base, folder) if base else starter_pack(name)
    _write(text, os.fspath(path), overwrite=False)
    outside = base_outside(base, folder) if base else None
    allow = f" --extends-from {outside}" if outside else ""
    click.echo(f"wrote {path}; check it with: boardrule check {path}{allow}")


@cli.command()
@click.option("-o", "--output", default=None, metavar="FILE", help="Write to FILE instead of the terminal.")
def schema(output):
    """Print the JSON Schema (draft-07) of a pack's YAML, for editors and CI."""
    from boardrule.schema import schema_text
    _write(schema_text(), output)
    if output not in (None, "-"):
        click.echo(f"wrote {output}")


TESTS_LISTED = 5  # base tests named one by one in `diff`; more are counted


@cli.command()
@click.argument("base", type=PACK)
@click.argument("variant", type=PACK)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def diff(base, variant, fmt):
    """What VARIANT changes of BASE: entries added, removed and changed, with their lines."""
    import json

    from boardrule.dsl.extends import load_pack_tree
    from boardrule.dsl.packdiff import pack_diff
    changes = pack_diff(load_pack_tree(base), load_pack_tree(variant))
    if fmt == "json":
        click.echo(json.dumps([{"kind": c.kind, "path": c.path, "detail": c.detail,
                                "where": str(c.span) if c.span else None,
                                "base": str(c.base_span) if c.base_span else None} for c in changes], indent=2))
        return
    if not changes:
        click.echo(f"{variant} changes nothing of {base}")
        return
    click.echo(f"{variant} changes {base}:")
    dropped = [c for c in changes if c.kind == "removed" and c.path.startswith("tests.")]
    for change in changes:
        if change in dropped[TESTS_LISTED:] and len(dropped) > TESTS_LISTED + 1:
            continue
        detail = f": {change.detail}" if change.detail else ""
        where = f"  ({_place(change.span)})" if change.span else f"  (base: {_place(change.base_span)})"
        click.echo(f"  {change.kind:<8} {change.path}{detail}{where}")
    if len(dropped) > TESTS_LISTED + 1:
        click.echo(f"  removed  ... and {len(dropped) - TESTS_LISTED} more of the base's tests")


def _place(span) -> str:
    """`file:line`, the file by name only when it is a bundled pack's."""
    from boardrule.dsl.packpath import bundled_dir
    file = Path(span.file)
    shown = file.name if file.parent.resolve() == bundled_dir().resolve() else span.file
    return f"{shown}:{span.line}"


@cli.command()
def lsp():
    """Run the language server for packs on stdin/stdout (for editors; needs the `lsp` extra)."""
    try:
        from boardrule.cli.lsp import serve
    except ImportError as err:
        missing = getattr(err, "name", None) or "pygls"
        if missing.startswith("boardrule"):
            raise
        raise click.UsageError(f"the language server needs {missing}, which is not installed: "
                               "pip install 'boardrule[lsp]'") from None
    serve()
