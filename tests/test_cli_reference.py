"""docs/cli.md documents every command and option of `boardrule`, so the reference cannot drift
as commands are added: each command has a `## boardrule NAME` section naming all its options."""

from __future__ import annotations

import importlib
import pkgutil
import re
from pathlib import Path

import click
import pytest

import boardrule.cli as cli_package
from boardrule.cli.main import cli

ROOT = Path(__file__).resolve().parent.parent
PAGE = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")

# every module of cli/ registers its commands when imported, as `main()` does
for module in pkgutil.iter_modules(cli_package.__path__):
    importlib.import_module(f"boardrule.cli.{module.name}")


def section(name: str) -> str:
    match = re.search(rf"^## boardrule {re.escape(name)}\n(.*?)(?=^## |\Z)", PAGE, re.S | re.M)
    return match.group(1) if match else ""


def option_names(command: click.Command) -> list[str]:
    names = []
    for param in command.params:
        if isinstance(param, click.Option) and "--help" not in param.opts:
            names += [*param.opts, *param.secondary_opts]
    return names


COMMANDS = sorted(cli.commands)


def test_there_are_commands():
    assert {"check", "play", "replay", "score", "rules", "new", "schema"} <= set(COMMANDS)


@pytest.mark.parametrize("name", COMMANDS)
def test_every_command_has_a_section(name):
    assert section(name), f"docs/cli.md has no `## boardrule {name}` section"
    assert f"[boardrule {name}](#boardrule-{name})" in PAGE, f"the contents of docs/cli.md miss {name}"


@pytest.mark.parametrize("name", COMMANDS)
def test_every_option_is_documented_in_its_section(name):
    text = section(name)
    missing = [opt for opt in option_names(cli.commands[name]) if not re.search(rf"`{re.escape(opt)}[ `=]", text)]
    assert not missing, f"docs/cli.md, `boardrule {name}`: options not documented: {missing}"


@pytest.mark.parametrize("name", COMMANDS)
def test_every_choice_is_documented(name):
    text = section(name)
    for param in cli.commands[name].params:
        if isinstance(param, click.Option) and isinstance(param.type, click.Choice):
            for choice in param.type.choices:
                assert f"{param.opts[-1]} {choice}" in text or f"{param.opts[0]} {choice}" in text, \
                    f"`boardrule {name}`: {param.opts[-1]} {choice} is not documented"


def test_the_group_options_are_documented():
    for param in cli.params:
        for opt in param.opts:
            assert f"`{opt}`" in PAGE, opt
