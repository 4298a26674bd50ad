"""Golden tests: what `boardrule check` prints for broken packs, byte for byte.

Each case is a file in tests/golden/:

* ``NAME.pack``: a small broken pack, checked as ``boardrule check tests/golden/NAME.pack``;
* or ``NAME.args``: the command line itself (``#`` lines are comments), for
  cases with no pack file (an unknown bundled pack);
* ``NAME.expected``: the exact stdout of that command.

Packs that other cases extend live in tests/golden/bases/ and are no cases.

The command runs in-process (click's CliRunner) from the repository root, so
paths print as ``tests/golden/NAME.pack``.  One thing is pinned to stay
stable: the clock of `interpreter.check`, so the status line always reads
``(N tests, 0.00 s)``.

Regenerate the expected files after an intended change of wording, then
review the diff by eye::

    BOARDRULE_REGEN=1 python -m pytest tests/test_golden_diagnostics.py

Cases in ``XFAIL`` hold the output the engine *should* print (written by
hand): today's output is unclear or points at the wrong place, so the case is
a strict xfail with the reason, and regeneration leaves its file alone.  When
the engine is fixed the case XPASSes, which fails the run: then drop it from
``XFAIL`` (and regenerate if the final wording differs).
"""

from __future__ import annotations

import json
import os
import re
import shlex
import types
from pathlib import Path

import pytest
from click.testing import CliRunner

import boardrule.cli.commands  # noqa: F401  (registers the commands on the group)
import boardrule.interpreter.designer.check as check_module
from boardrule.cli.main import cli

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "golden"
REGEN = os.environ.get("BOARDRULE_REGEN") == "1"

#: Exit codes other than 1 (findings).
EXIT_CODES = {
    "extends_unknown_bundled": 2,
    "cli_unknown_bundled": 2,
    "piece_unknown_key": 0,  # the wanted output is a warning only
}

#: Cases whose .expected file is the output the engine should give, not what it gives.
XFAIL = {
}  # all the unclear diagnostics found so far have been fixed and are pinned below


def case_names() -> list[str]:
    names = {p.stem for p in GOLDEN.glob("*.pack")} | {p.stem for p in GOLDEN.glob("*.args")}
    return sorted(names)


def case_args(name: str) -> list[str]:
    args_file = GOLDEN / f"{name}.args"
    if args_file.exists():
        lines = [ln for ln in args_file.read_text(encoding="utf-8").splitlines() if not ln.startswith("#")]
        return shlex.split(" ".join(lines))
    return ["check", f"tests/golden/{name}.pack"]


@pytest.fixture
def run_cli(monkeypatch):
    """Run `boardrule ARGS` in-process from the repository root, with a frozen clock."""
    monkeypatch.chdir(ROOT)
    monkeypatch.setattr(check_module, "time", types.SimpleNamespace(perf_counter=lambda: 0.0))

    def run(args):
        result = CliRunner().invoke(cli, args, catch_exceptions=False)
        return result

    return run


def _params():
    out = []
    for name in case_names():
        marks = []
        if name in XFAIL:
            marks.append(pytest.mark.xfail(strict=True, reason=XFAIL[name]))
        out.append(pytest.param(name, marks=marks, id=name))
    return out


@pytest.mark.parametrize("name", _params())
def test_golden(name, run_cli):
    result = run_cli(case_args(name))
    expected_file = GOLDEN / f"{name}.expected"
    if REGEN and name not in XFAIL:
        expected_file.write_text(result.stdout, encoding="utf-8", newline="")
    assert expected_file.exists(), f"no {expected_file.name}; run with BOARDRULE_REGEN=1 and review it"
    expected = expected_file.read_text(encoding="utf-8")
    assert result.stderr == ""
    assert result.stdout == expected
    assert result.exit_code == EXIT_CODES.get(name, 1)


# ------------------------------------------------------------- the collection
HEADER = re.compile(r"^(?:(?P<file>[^\s:]+):(?P<line>\d+):(?P<col>\d+): )?(?:error|warning)\[(?P<code>E\d+|W\d+)\]",
                    re.M)


def test_every_case_has_its_files():
    for name in case_names():
        assert (GOLDEN / f"{name}.expected").exists(), name
    for expected in GOLDEN.glob("*.expected"):
        assert expected.stem in case_names(), f"{expected.name} has no case"
    assert set(XFAIL) <= set(case_names())
    assert set(EXIT_CODES) <= set(case_names())


def test_at_least_twenty_distinct_diagnostics_are_pinned():
    pinned = set()
    for name in case_names():
        if name in XFAIL:
            continue
        text = (GOLDEN / f"{name}.expected").read_text(encoding="utf-8")
        pinned |= {(m["code"], name) for m in HEADER.finditer(text)}
    assert len({code for code, _ in pinned}) >= 20
    assert len(pinned) >= 30


def test_the_comma_trap_hint_is_given(run_cli):
    """While `comma_trap` is an xfail for its follow-on error, its hint must stay."""
    out = run_cli(case_args("comma_trap")).stdout
    assert "help: inside `{...}` or `[...]` YAML cuts text at each comma" in out
    first = out.split("\n\n")[0]
    assert first.startswith("tests/golden/comma_trap.pack:10:28: error[") and "ends too early" in first


#: case -> the text the first diagnostic must point at, read from the pack file itself, so a
#: regeneration cannot pin a caret in the wrong place.
POINTS_AT = {
    "syntax_in_literal_block": "*",
    "syntax_in_folded_block": "*",
    "syntax_in_block_indicator": "*",
    "syntax_in_quoted_escape": "]",
    "syntax_crlf": "*",
    "unexpected_character": "&",
    "unexpected_token": ")",
    "unexpected_end_token": "empty",
    "expression_ends_early": "+",
    "unknown_name": "emptty",
    "unknown_function": "abss(-2)",
    "unknown_attribute": "it.emty",
    "unknown_action": "paly",
    "wrong_type_count": "3",
    "wrong_type_plus": "cells",
    "chart_mixed_values": '1 2 3 -> 0 "one" 2',
    "region_cell_off_board": "Z9",
    "yaml_anchor_alias": "&base",
    "yaml_duplicate_key": "stone",
    "test_score_mismatch": "2",
    "test_illegal_move": "P2 play A1",
    "not_utf8": "\ufffd",
}


@pytest.mark.parametrize("name", sorted(POINTS_AT))
def test_carets_point_at_the_offending_text(name, run_cli):
    out = run_cli(case_args(name)).stdout
    first = HEADER.search(out)
    assert first is not None and first["file"] == f"tests/golden/{name}.pack", out
    raw = (GOLDEN / f"{name}.pack").read_bytes().decode("utf-8", errors="replace")
    line = re.split("\r\n|\n", raw)[int(first["line"]) - 1]
    col = int(first["col"])
    wanted = POINTS_AT[name]
    assert line[col - 1: col - 1 + len(wanted)] == wanted, f"{line!r} at column {col}"
    caret_line = out.splitlines()[2]
    assert caret_line.index("^") - caret_line.index("|") - 2 == col - 1  # the caret sits under that column


@pytest.mark.parametrize("name", [n for n in case_names() if n not in XFAIL])
def test_json_and_github_formats_agree_with_text(name, run_cli):
    """The other output formats report the same diagnostics at the same places."""
    text = (GOLDEN / f"{name}.expected").read_text(encoding="utf-8")
    wanted = [(m["code"], int(m["line"]) if m["line"] else None, int(m["col"]) if m["col"] else None)
              for m in HEADER.finditer(text)]
    result = run_cli([*case_args(name), "--output-format", "json"])
    data = json.loads(result.stdout)
    got = [(d["code"], d["line"], d["col"]) for p in data["packs"] for d in p["diagnostics"]]
    assert got == wanted
    assert result.exit_code == EXIT_CODES.get(name, 1)
    result = run_cli([*case_args(name), "--output-format", "github"])
    annotations = [ln for ln in result.stdout.splitlines() if ln.startswith("::")]
    assert len(annotations) == len(wanted)
    assert result.exit_code == EXIT_CODES.get(name, 1)
