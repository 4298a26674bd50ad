"""Every command of docs/cli.md and docs/ci.md runs: the `sh` blocks, the workflow, the pre-commit hook.

A page's commands run in order in one empty folder (so a later command may
use a file an earlier one wrote), in-process through click's test runner.
The folder holds `packs/`, copies of two bundled packs (the commands test
the command line, not every pack: `test_language_packs` and the pack tests
do that), and the files that
the page gives in blocks starting with `# file: NAME`. Each line of an `sh`
block is one `boardrule` command; a trailing `# exit N` is the exit code it
must give (default 0); `> FILE` writes its output to FILE; globs expand.
"""

from __future__ import annotations

import glob
import os
import re
import shlex
import shutil
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

import boardrule.cli.commands  # noqa: F401  (registers the commands)
import boardrule.cli.designer  # noqa: F401
from boardrule.cli.main import cli
from boardrule.dsl.extends import bundled_dir

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)
EXIT = re.compile(r"\s+#\s*exit\s+(\d+)\s*$")
#: Commands a workflow may hold that cannot run in a test (they install things).
NOT_RUN = ("pip install", "python -m pip install")
#: The pages whose commands run here (a page with commands of its own runner is not listed).
PAGES = ("cli.md", "ci.md")
#: The bundled packs copied into the folder's `packs/`.
DOC_PACKS = ("tictactoe", "connect4")


def _register_all_commands():
    import importlib
    import pkgutil

    import boardrule.cli as package
    for module in pkgutil.iter_modules(package.__path__):
        importlib.import_module(f"boardrule.cli.{module.name}")


_register_all_commands()


def page_blocks(page: Path):
    text = page.read_text(encoding="utf-8")
    for match in FENCE.finditer(text):
        line = text.count("\n", 0, match.start()) + 2
        yield match.group(1), match.group(2), line


def files_of(page: Path) -> dict:
    files = {}
    for _, body, _ in page_blocks(page):
        first, _, rest = body.partition("\n")
        if first.startswith("# file:"):
            files[first.split(":", 1)[1].strip()] = rest
    return files


def commands_of(page: Path) -> list:
    """(line number, command text, expected exit code) of every command on a page, in order."""
    found = []
    for kind, body, line in page_blocks(page):
        if kind == "sh":
            for offset, text in enumerate(body.splitlines()):
                code = EXIT.search(text)
                command = EXIT.sub("", text).split("  #")[0].strip()
                if command and not command.startswith("#"):
                    found.append((line + offset, command, int(code.group(1)) if code else 0))
        elif kind == "yaml" and body.startswith("# workflow"):
            for step in yaml.safe_load(body)["jobs"]["check"]["steps"]:
                for command in str(step.get("run", "")).splitlines():
                    if command.strip():
                        found.append((line, command.strip(), 0))
    return found


def pages_with_commands():
    return [DOCS / name for name in PAGES]


def run_command(command: str, folder: Path):
    args = shlex.split(command)
    output = None
    if ">" in args:
        index = args.index(">")
        args, output = args[:index], args[index + 1]
    assert args[0] == "boardrule", f"not a boardrule command: {command}"
    expanded = []
    for arg in args[1:]:
        matches = sorted(glob.glob(arg)) if any(c in arg for c in "*?[") else []
        expanded.extend(matches or [arg])
    result = CliRunner().invoke(cli, expanded, catch_exceptions=False)
    if output is not None:
        Path(folder, output).write_text(result.stdout)
    return result


@pytest.fixture
def folder(tmp_path, monkeypatch):
    packs = tmp_path / "packs"
    packs.mkdir()
    for name in DOC_PACKS:
        shutil.copy(bundled_dir() / f"{name}.pack", packs / f"{name}.pack")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "100")
    return tmp_path


def test_the_docs_have_commands():
    assert all(len(commands_of(page)) >= 3 for page in pages_with_commands())


@pytest.mark.parametrize("page", pages_with_commands(), ids=lambda p: p.name)
def test_every_command_of_a_page_runs(page, folder):
    for name, text in files_of(page).items():
        Path(folder, name).parent.mkdir(parents=True, exist_ok=True)
        Path(folder, name).write_text(text)
    ran = 0
    for line, command, expected in commands_of(page):
        if command.startswith(NOT_RUN):
            continue
        result = run_command(command, folder)
        assert result.exit_code == expected, (
            f"{page.name}:{line}: `{command}` exited {result.exit_code}, expected {expected}\n{result.output}")
        ran += 1
    assert ran


def test_the_workflow_runs_boardrule_and_installs_it():
    commands = [c for _, c, _ in commands_of(DOCS / "ci.md")]
    assert any(c.startswith("pip install boardrule") for c in commands)
    assert any("--output-format github" in c for c in commands)
    assert any("--output-format junit" in c for c in commands)


def test_the_pre_commit_hook_runs(folder):
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    hook = {h["id"]: h for h in hooks}["boardrule-check"]
    assert hook["language"] == "python" and re.search(hook["files"], "x.pack") and not re.search(hook["files"], "x.py")
    config = next(body for kind, body, _ in page_blocks(DOCS / "ci.md") if body.startswith("# pre-commit-config"))
    used = yaml.safe_load(config)["repos"][0]["hooks"][0]
    assert used["id"] == hook["id"]
    command = " ".join([hook["entry"], *hook.get("args", []), *used.get("args", []), "packs/tictactoe.pack",
                        "packs/connect4.pack"])
    result = run_command(command, folder)
    assert result.exit_code == 0, result.output


def test_a_failing_command_is_noticed(folder):
    """The runner itself: a wrong expectation fails, and `> FILE` writes the output."""
    result = run_command("boardrule check packs/tictactoe.pack --output-format json > out.json", folder)
    assert result.exit_code == 0 and '"ok": true' in Path(folder, "out.json").read_text()
    assert run_command("boardrule check no-such-pack", folder).exit_code == 2
    assert os.path.exists(folder / "packs" / "tictactoe.pack")


# ------------------------------------------------------------------ the tutorial
# docs/tutorial.md is followed from start to end in one empty folder, as a reader would: each `sh` block
# runs (a trailing `# exit N` is its exit code), and the `text` block right after it is what its last
# command prints; each `yaml` block is preceded by `<!-- FILE: WHAT -->`, saying what the reader does
# with it (see `_follow_file_step`); a `<!-- excerpt of FILE -->` block shows parts of a written file.
# In what the page shows, a line `...` stands for lines left out and `…` for a part of a line.
TUTORIAL = DOCS / "tutorial.md"
_STEP = re.compile(r"^(?:<!-- (?:(?P<file>[\w.]+): )?(?P<what>.+?) -->\n)?(?P<fence>`{3,})(?P<kind>\w*)\n(?P<body>.*?)"
                   r"^(?P=fence)[ \t]*$", re.S | re.M)
#: The simulate step runs with this many games here (the page shows a run of its own).
TUTORIAL_GAMES = 2
#: The output of these commands depends on whole games of the bundled base (a change to tinytowns.pack
#: plays other games), so it is compared by these lines only: each is on the page and in the output, in order.
_KEY_LINES = {
    "play": (r"Greater Towns: P1 random", r"    A  B  C  D  E", r"buildings Cottage, .*Watchtower, .*",
             r"    A  B  C  D  E", r"game over", r"P1: -?\d+ points", r"winner: P1"),
    "simulate": (r"Comparison: the same games through two packs \(differences: first minus second\)",
                 r"\[first\] Greater Towns \(greater_towns, pack .*\)",
                 r"\[second\] Tiny Towns \(tinytowns, pack .*\)", r"  \d+ games, 1 player, seats greedy, .*",
                 r"Mean score by agent", r"  greedy .*", r"Game length", r"  rounds .*",
                 r"Where the points come from: mean points per result"),
}


def tutorial_steps():
    """(line, kind, body, (file, what) or None) of every block of the tutorial, in order."""
    text = TUTORIAL.read_text(encoding="utf-8")
    for match in _STEP.finditer(text):
        line = text.count("\n", 0, match.start("fence")) + 2
        directive = (match.group("file"), match.group("what")) if match.group("what") else None
        yield line, match.group("kind"), match.group("body"), directive


def _find(patterns, lines, position, where, segment):
    for start in range(position, len(lines) - len(patterns) + 1):
        if all(p.fullmatch(lines[start + i]) for i, p in enumerate(patterns)):
            return start + len(patterns)
    raise AssertionError(f"{where}: not found in this order:\n" + "\n".join(segment) +
                         f"\n--- in what was printed (from line {position + 1}):\n" +
                         "\n".join(lines[position:position + 60]))


def assert_shows(shown: str, actual: str, where: str, key_lines=None):
    """What the page shows is what was printed. Shown lines are found in order; lines with no `...`
    between them are consecutive; `…` is any part of a line; a block without `...` is the whole output.
    With `key_lines` (regexes), only those are compared: each is on the page and in the output, in order."""
    actual_lines = actual.rstrip("\n").splitlines()
    lines = shown.rstrip("\n").splitlines()
    position = 0
    if key_lines is not None:
        for key in key_lines:
            assert any(re.fullmatch(key, x) for x in lines), f"{where}: the page does not show a line `{key}`"
            position = _find([re.compile(key)], actual_lines, position, where, [key])
        return
    segments, current = [], []
    for x in lines:
        if x.strip() == "...":
            segments.append(current)
            current = []
        else:
            current.append(x)
    segments = [s for s in segments + [current] if s]
    if all(x.strip() != "..." for x in lines):
        assert len(actual_lines) == len(lines), (
            f"{where}: the page shows {len(lines)} lines, the command printed {len(actual_lines)}:\n{actual}")
    for segment in segments:
        patterns = [re.compile(".*".join(re.escape(part) for part in x.rstrip().split("…")) + r"\s*")
                    for x in segment]
        position = _find(patterns, actual_lines, position, where, segment)


def _follow_file_step(folder: Path, name: str, what: str, body: str, where: str):
    """Do to FILE what the page tells the reader to do with the block (or check what it says of it)."""
    path = folder / name
    if what == "as boardrule new writes it":
        assert path.read_text() == body, f"{where}: `boardrule new` writes another file:\n{path.read_text()}"
    elif what == "replace the whole file":
        path.write_text(body)
    elif what == "add at the end":
        path.write_text(path.read_text() + body)
    elif what.startswith("insert above "):
        anchor = what[len("insert above "):].strip('"') + "\n"
        text = path.read_text()
        assert text.count("\n" + anchor) == 1, f"{where}: no single line `{anchor.strip()}` in {name}"
        path.write_text(text.replace("\n" + anchor, "\n" + body + "\n" + anchor))
    elif what.startswith("replace the line "):
        old = what[len("replace the line "):].strip('"') + "\n"
        text = path.read_text()
        assert text.count(old) == 1, f"{where}: no single line `{old.strip()}` in {name}"
        path.write_text(text.replace(old, body))
    elif what == "the whole file now":
        assert path.read_text() == body, f"{where}: following the steps gives another file:\n{path.read_text()}"
    else:
        raise AssertionError(f"{where}: unknown step `{what}`")


def _tutorial_command(command: str) -> str:
    return re.sub(r"--games \d+", f"--games {TUTORIAL_GAMES}", command) if " simulate " in command else command


def test_the_tutorial_has_every_step():
    steps = list(tutorial_steps())
    commands = [body for _, kind, body, _ in steps if kind == "sh"]
    for needed in ("boardrule new greater_towns --extends tinytowns", "boardrule check", "boardrule rules",
                   "--seats random", "--compare tinytowns"):
        assert any(needed in c for c in commands), f"the tutorial has no `{needed}`"
    whats = [d[1] for _, _, _, d in steps if d]
    assert whats.count("the whole file now") == 1 and whats[0] == "as boardrule new writes it"
    assert all(d for _, kind, _, d in steps if kind not in ("sh", "text")), "a tutorial block says not what it is"
    assert sum(1 for _, _, _, d in steps if d and d[1].startswith("excerpt of ")) == 2


def test_following_the_tutorial_gives_a_working_variant(tmp_path, monkeypatch):
    """From an empty folder, every step as the page says: the starter `boardrule new` writes is the one shown,
    the pack built from the page's blocks is the whole file shown at the end, every command gives its exit code
    and prints what the page shows (the diagnostics with their line:col, `ok (N tests`...)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "100")
    ran = []
    last = None
    previous_kind = None
    for line, kind, body, directive in tutorial_steps():
        where = f"tutorial.md:{line}"
        if kind == "sh":
            for offset, text in enumerate(body.splitlines()):
                code = EXIT.search(text)
                command = EXIT.sub("", text).split("  #")[0].strip()
                if not command:
                    continue
                result = run_command(_tutorial_command(command), tmp_path)
                expected = int(code.group(1)) if code else 0
                assert result.exit_code == expected, (
                    f"tutorial.md:{line + offset}: `{command}` exited {result.exit_code}, expected {expected}\n"
                    f"{result.output}")
                last = (command, result.output)
                ran.append(command)
        elif kind == "text" and previous_kind == "sh":
            command, output = last
            verb = command.split()[1]
            assert_shows(body, output, f"{where} (output of `{command}`)", _KEY_LINES.get(verb))
        elif directive and directive[1].startswith("excerpt of"):
            written = tmp_path / directive[1].split()[-1]
            hint = ""
            if written.name == "tinytowns.md":
                hint = (" (if tinytowns.pack no longer numbers its squares for 4 columns in `feed_order`, "
                        "steps 2 and 3 of the tutorial have to change)")
            assert_shows(body, written.read_text(), f"{where} (excerpt of {written.name}){hint}")
        elif directive:
            _follow_file_step(tmp_path, directive[0], directive[1], body, where)
        previous_kind = kind
    commands = [c for _, kind, body, _ in tutorial_steps() if kind == "sh" for c in body.splitlines() if c.strip()]
    assert len(ran) == len(commands) >= 10


def test_the_editor_set_ups_start_the_language_server():
    """docs/ci.md's Neovim and VS Code set-ups: the JSON parses, and both start `boardrule lsp` on packs."""
    import json
    blocks = {kind: body for kind, body, _ in page_blocks(DOCS / "ci.md") if kind in ("lua", "json", "js")}
    assert 'cmd = { "boardrule", "lsp" }' in blocks["lua"] and "%.pack$" in blocks["lua"]
    manifest = json.loads(blocks["json"])
    assert manifest["main"] == "extension.js" and "vscode-languageclient" in manifest["dependencies"]
    assert manifest["contributes"]["configurationDefaults"]["files.associations"] == {"*.pack": "yaml"}
    assert '{ command: "boardrule", args: ["lsp"] }' in blocks["js"] and '"**/*.pack"' in blocks["js"]
    assert "boardrule lsp" in (DOCS / "cli.md").read_text() and "boardrule[lsp]" in (DOCS / "cli.md").read_text()
