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
