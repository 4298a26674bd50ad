"""A pack that extends a bundled one: merged entries, and diagnostics that
point into the file holding the fault."""

from pathlib import Path

from boardrule.interpreter.check import check_pack

HERE = Path(__file__).parent / "extends"


def test_a_variant_extending_a_bundled_pack_checks_and_passes():
    report = check_pack(HERE / "bigger.pack")
    assert report.ok, [d.message for d in report.diagnostics]
    assert report.tests_run == 2  # the child's tests replace the base's


def test_removing_an_entry_the_base_still_uses_points_into_the_base():
    report = check_pack(HERE / "broken_child.pack")
    assert not report.ok
    diag = report.diagnostics[0]
    assert diag.code == "E201" and "`diagonal`" in diag.message
    assert diag.span.file.endswith("tictactoe.pack")  # the use is in the base file
