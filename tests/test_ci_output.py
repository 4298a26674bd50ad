"""`boardrule check` for CI: JUnit XML (a testcase per pack test and per diagnostic) and GitHub
annotations capped at 10 per kind, with a summary saying how many more."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from click.testing import CliRunner

import boardrule.cli.commands  # noqa: F401  (registers the commands)
from boardrule.cli.main import cli
from boardrule.dsl.diagnostics import Diagnostic, Span
from boardrule.interpreter.designer.reports import github_lines


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


FAILING = """\
game: {id: failing, players: 1}
board: {grid: square 2 x 2}
pieces:
  stone: {symbol: S}
define:
  spare: 1
actions:
  put:
    params: {cell: cells where empty}
    effect: place stone at cell
flow:
  round: [{turns: [put]}]
  end: none(cells, empty)
tests:
  - name: four moves
    expect: {legal: {P1: 4}}
  - name: a wrong count <&>
    expect: {legal: {P1: 5}}
"""


def test_junit_has_a_testcase_per_test_and_per_diagnostic(tmp_path):
    pack = tmp_path / "failing.pack"
    pack.write_text(FAILING)
    result = run("check", pack, "tictactoe", "--output-format", "junit")
    assert result.exit_code == 1
    root = ET.fromstring(result.output)
    assert root.tag == "testsuites"
    suites = {s.get("name"): s for s in root}
    mine = suites[str(pack)]
    cases = {c.get("name"): c for c in mine.iter("testcase")}
    assert set(cases) == {"four moves", "a wrong count <&>", "warning W801 at " + f"{pack}:6:3"}
    assert cases["four moves"].find("failure") is None
    failure = cases["a wrong count <&>"].find("failure")
    assert failure is not None and "expected 5" in failure.get("message") and "E701" in failure.text
    assert cases[f"warning W801 at {pack}:6:3"].find("failure") is None
    assert "never used" in cases[f"warning W801 at {pack}:6:3"].find("system-out").text
    assert mine.get("tests") == "3" and mine.get("failures") == "1"
    assert len(list(suites["tictactoe"].iter("testcase"))) == 5
    assert root.get("failures") == "1"


def test_junit_strict_fails_warnings_and_errors_fail_always(tmp_path):
    pack = tmp_path / "broken.pack"
    pack.write_text("game: {id: b, players: 1}\nboard: {grid: square 2 x 2}\nflow: {end: nope}\n")
    root = ET.fromstring(run("check", pack, "--output-format", "junit").output)
    (case,) = root.iter("testcase")
    assert case.get("name").startswith("error E201") and case.find("failure").get("type") == "error"
    unused = tmp_path / "unused.pack"
    unused.write_text(FAILING.split("tests:")[0])
    strict = run("check", unused, "--output-format", "junit", "--strict")
    assert strict.exit_code == 1
    (case,) = ET.fromstring(strict.output).iter("testcase")
    assert case.find("failure").get("type") == "warning"


def test_junit_of_a_clean_pack_without_tests_has_one_passing_case(tmp_path):
    pack = tmp_path / "clean.pack"
    pack.write_text(FAILING.split("define:")[0] + FAILING.split("spare: 1\n")[1].split("tests:")[0])
    root = ET.fromstring(run("check", pack, "--output-format", "junit").output)
    (case,) = root.iter("testcase")
    assert case.get("name") == "the pack checks clean" and len(case) == 0


def diag(code, severity, n):
    return Diagnostic(code, f"problem {n}", Span("a.pack", n, 1, n, 2), severity)


def test_github_annotations_are_capped_at_10_per_kind():
    found = [diag("E201", "error", n) for n in range(1, 13)] + [diag("W801", "warning", n) for n in range(1, 15)]
    lines = github_lines(found)
    assert sum(line.startswith("::error ") for line in lines) == 10
    assert sum(line.startswith("::warning ") for line in lines) == 10
    assert "a.pack:11:1: error[E201]: problem 11" in lines and "a.pack:14:1: warning[W801]: problem 14" in lines
    assert lines[-1] == ("12 errors, 14 warnings (2 errors and 4 warnings more than the 10 GitHub annotates "
                         "are listed above as text)")


def test_github_below_the_cap_is_all_annotations():
    lines = github_lines([diag("E201", "error", 1)])
    assert lines == ["::error file=a.pack,line=1,col=1,endLine=1,endColumn=2,title=E201::problem 1",
                     "1 error, 0 warnings"]
    assert github_lines([]) == ["no problems"]


def test_github_output_of_check(tmp_path):
    pack = tmp_path / "many.pack"
    names = " and ".join(f"x{i} > 0" for i in range(12))
    pack.write_text(f"game: {{id: m, players: 1}}\nboard: {{grid: square 2 x 2}}\nflow: {{end: {names}}}\n")
    result = run("check", pack, "--output-format", "github")
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert sum(line.startswith("::error ") for line in lines) == 10
    assert lines[-1].startswith("12 errors, 0 warnings (2 errors more than the 10 GitHub annotates")


def test_sarif_gives_each_diagnostic_with_its_region_and_notes(tmp_path, monkeypatch):
    import json as json_module

    from click.testing import CliRunner

    import boardrule.cli.commands  # noqa: F401
    from boardrule.cli.main import cli
    monkeypatch.chdir(tmp_path)
    (tmp_path / "nowell.pack").write_text(
        "extends: tinytowns\ngame: {id: nowell}\nremove: [pieces.well, decks.gray_cards.well]\n"
        "options:\n  gray_card: {values: [random, fountain, millstone, shed], override: true}\n")
    result = CliRunner().invoke(cli, ["check", "nowell.pack", "--output-format", "sarif"])
    assert result.exit_code == 1
    log = json_module.loads(result.output)
    assert log["version"] == "2.1.0"
    [found] = log["runs"][0]["results"]
    assert (found["ruleId"], found["level"], found["message"]["text"]) == ("E201", "error", "unknown name `well`")
    location = found["locations"][0]["physicalLocation"]  # at the removal that caused it, in the user's file
    assert location["artifactLocation"]["uri"] == "nowell.pack"
    assert (location["region"]["startLine"], location["region"]["startColumn"]) == (3, 10)
    from boardrule.dsl.packpath import bundled_dir
    lines = (bundled_dir() / "tinytowns.pack").read_text().splitlines()
    line = next(i for i, text in enumerate(lines, 1) if "in_play = [cottage, chapel, farm, tavern, well" in text)
    related = found["relatedLocations"][0]  # where the base uses what was removed
    assert related["physicalLocation"]["artifactLocation"]["uri"].endswith("tinytowns.pack")
    assert related["physicalLocation"]["region"]["startLine"] == line
    assert [r["id"] for r in log["runs"][0]["tool"]["driver"]["rules"]] == ["E201"]
