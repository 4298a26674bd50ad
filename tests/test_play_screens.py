"""docs/play.md shows real screens: each block after a `<!-- screen: ARGS -->` line is what
`boardrule play ARGS` prints up to its first prompt (the input then ends), and each block after a
`<!-- end: ARGS -->` line the last screen of that game of bots and its score sheets, and each block after a
`<!-- rulebook: PACK -->` line is the start of `boardrule rules PACK --for players`, up to the line
`...` the page ends it with. Run with BOARDRULE_REGEN=1 to write them anew (and review the diff)."""

from __future__ import annotations

import os
import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

import boardrule.cli.commands  # noqa: F401  (registers the commands)
import boardrule.cli.designer  # noqa: F401
from boardrule.cli.main import cli
from boardrule.dsl.extends import bundled_pack_names

PAGE = Path(__file__).resolve().parent.parent / "docs" / "play.md"
BLOCK = re.compile(r"^<!-- (screen|end|rulebook): (.+?) -->\n(`{3,})text\n(.*?)^\3$", re.S | re.M)
REGEN = os.environ.get("BOARDRULE_REGEN") == "1"


def first_screen(args: str) -> str:
    result = CliRunner().invoke(cli, ["play", *shlex.split(args), "--no-color"], input="")
    assert result.exit_code == 0, result.output
    head, found, _ = result.output.partition("> ")
    assert found, result.output
    return head.rsplit("\n", 1)[0].rstrip() + "\n"  # up to the line before the prompt


def last_screen(args: str) -> str:
    """A game of bots only: its last screen (the final boards and scores), then the score sheets."""
    result = CliRunner().invoke(cli, ["play", *shlex.split(args), "--no-color"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    over = max(i for i, line in enumerate(lines) if re.match(r"^round \d+, game over$", line))
    # the screen starts after a blank line, with a board's title or its column letters
    start = 1 + max(i for i in range(over) if not lines[i] and (lines[i + 1].endswith("board")
                                                                or lines[i + 1].startswith("    A")))
    return "\n".join(lines[start:]) + "\n"


def rulebook_start(pack: str, lines: int) -> str:
    result = CliRunner().invoke(cli, ["rules", pack, "--for", "players"])
    assert result.exit_code == 0, result.output
    return "\n".join(result.output.splitlines()[:lines]) + "\n...\n"


def shown(kind, args, body) -> str:
    if kind == "screen":
        return first_screen(args)
    if kind == "end":
        return last_screen(args)
    pack, _, count = args.partition(" ")
    return rulebook_start(pack, int(count or 40))


def test_the_page_shows_each_bundled_game_and_a_rulebook():
    blocks = BLOCK.findall(PAGE.read_text(encoding="utf-8"))
    games = {shlex.split(args)[0] for kind, args, _, _ in blocks if kind == "screen"}
    assert games >= set(bundled_pack_names()), games
    assert any(kind == "rulebook" for kind, *_ in blocks) and any(kind == "end" for kind, *_ in blocks)


@pytest.mark.parametrize("kind,args,fence,body", BLOCK.findall(PAGE.read_text(encoding="utf-8")),
                         ids=lambda v: v if isinstance(v, str) and len(v) < 60 and "\n" not in v else "")
def test_a_screen_on_the_page_is_what_the_game_shows(kind, args, fence, body):
    if REGEN:
        text = PAGE.read_text(encoding="utf-8")
        head = f"<!-- {kind}: {args} -->\n{fence}text\n"
        PAGE.write_text(text.replace(head + body, head + shown(kind, args, body)), encoding="utf-8")
        return
    assert body == shown(kind, args, body)
