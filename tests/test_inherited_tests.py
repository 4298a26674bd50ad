"""A variant runs its base's tests against itself, apart from its own: those it changes are
information (with the difference), counted only with --strict or `inherited_tests: strict`."""

from __future__ import annotations

import json

from click.testing import CliRunner

import boardrule.cli.commands  # noqa: F401  (registers the commands)
from boardrule.cli.main import cli
from boardrule.interpreter.designer.check import check_pack

DOUBLE = ("extends: tictactoe\ngame: {id: double, name: Double}\noverride: [scoring.three in a row]\n"
          "scoring:\n  three in a row: if won(me) then 2 else 0\n")


def _variant(tmp_path, text):
    path = tmp_path / "variant.pack"
    path.write_text(text)
    return path


def test_a_variant_runs_its_bases_tests_and_names_those_it_changes(tmp_path):
    report = check_pack(_variant(tmp_path, DOUBLE))
    assert report.ok and report.tests_run == 0 and len(report.inherited) == 5
    assert [name for name, _ in report.changed_results] == ["a row wins", "a diagonal wins"]
    assert "P1 scores 2, expected 1" in report.changed_results[0][1][0].message
    assert report.unfit == ()


def test_changed_base_tests_are_information_unless_strict(tmp_path):
    path = _variant(tmp_path, DOUBLE)
    plain = CliRunner().invoke(cli, ["check", str(path)])
    assert plain.exit_code == 0, plain.output
    assert "inherited: 5 tests of the packs it extends: 3 hold, 2 changed by this pack, 0 no longer fit it" \
        in plain.output
    assert "`a row wins`:" in plain.output
    strict = CliRunner().invoke(cli, ["check", str(path), "--strict"])
    assert strict.exit_code == 1 and "error[E701]: test `a row wins`" in strict.output
    as_json = json.loads(CliRunner().invoke(cli, ["check", str(path), "--output-format", "json"]).output)
    assert as_json["packs"][0]["changed_by_this_pack"] == ["a row wins", "a diagonal wins"]


def test_a_pack_may_count_its_changed_base_tests(tmp_path):
    path = _variant(tmp_path, DOUBLE.replace("name: Double}", "name: Double, inherited_tests: strict}"))
    assert CliRunner().invoke(cli, ["check", str(path)]).exit_code == 1


def test_a_test_named_like_a_base_test_replaces_it(tmp_path):
    text = DOUBLE + ("tests:\n  - name: a row wins\n    position:\n      board: |\n        X X X\n"
                     "        O O .\n        . . .\n    expect:\n      score: {P1: 2, P2: 0}\n")
    report = check_pack(_variant(tmp_path, text))
    assert report.ok and report.tests_run == 1
    assert [name for name, _ in report.inherited] == ["a diagonal wins", "the first move can go anywhere",
                                                       "a played cell cannot be played again",
                                                       "a whole game to a draw"]


def test_remove_drops_a_base_test_by_name_or_all_of_them(tmp_path):
    one = check_pack(_variant(tmp_path, DOUBLE + "remove: [tests.a diagonal wins]\n"))
    assert "a diagonal wins" not in [name for name, _ in one.inherited] and len(one.inherited) == 4
    every = check_pack(_variant(tmp_path, DOUBLE + "remove: [tests]\n"))
    assert every.ok and every.inherited == ()
    typo = check_pack(_variant(tmp_path, DOUBLE + "remove: [tests.a diagonal win]\n"))
    assert [d.code for d in typo.diagnostics] == ["E126"]
    assert typo.diagnostics[0].hint == "did you mean `a diagonal wins`?"


def test_junit_shows_the_inherited_tests_as_information_unless_strict(tmp_path):
    path = _variant(tmp_path, DOUBLE)
    plain = CliRunner().invoke(cli, ["check", str(path), "--output-format", "junit"]).output
    assert 'classname="variant.pack.inherited"' in plain.replace(str(tmp_path) + "/", "")
    assert 'failures="0"' in plain and "P1 scores 2, expected 1" in plain
    strict = CliRunner().invoke(cli, ["check", str(path), "--output-format", "junit", "--strict"])
    assert strict.exit_code == 1 and 'failures="2"' in strict.output
