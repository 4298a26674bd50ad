"""A pack that extends a bundled one: merged entries, and diagnostics that
point into the file holding the fault."""

from pathlib import Path

from boardrule.interpreter.designer.check import check_pack

HERE = Path(__file__).parent / "extends"


def test_a_variant_extending_a_bundled_pack_checks_and_passes():
    report = check_pack(HERE / "bigger.pack")
    assert report.ok, [d.message for d in report.diagnostics]
    assert report.tests_run == 2  # the child's tests replace the base's


def test_removing_an_entry_the_base_still_uses_is_told_at_the_removal_with_the_bases_use_noted():
    report = check_pack(HERE / "broken_child.pack")
    assert not report.ok
    diag = report.diagnostics[0]
    assert diag.code == "E201" and "`diagonal`" in diag.message
    assert diag.span.file.endswith("broken_child.pack")  # the user's change caused it
    assert any(span.file.endswith("tictactoe.pack") for span, _ in diag.notes)  # where the base uses it


# ------------------------------------------------ flow steps taken by name
def _child(tmp_path, text, name="child.pack"):
    (tmp_path / "steps_base.pack").write_text((HERE / "steps_base.pack").read_text())
    path = tmp_path / name
    path.write_text(text)
    return path


def _codes(report):
    return [(d.code, d.span.file.rsplit("/", 1)[-1] if d.span else None, d.span.line if d.span else None)
            for d in report.diagnostics]


def test_an_extension_takes_the_base_steps_by_name_and_adds_its_own():
    for name in ("steps_base.pack", "steps_child.pack"):
        report = check_pack(HERE / name)
        assert report.ok and not report.diagnostics, [d.message for d in report.diagnostics]
    assert check_pack(HERE / "steps_child.pack").tests_run == 1


def test_a_step_taken_from_the_base_keeps_its_place_in_the_base_file(tmp_path):
    # the child removes the action a base step uses: the fault is in the base's step
    path = _child(tmp_path, "extends: steps_base.pack\nremove: [actions.add]\n"
                            "flow:\n  round:\n    - base: play\n    - base: bonus\n")
    report = check_pack(path)
    assert not report.ok
    diag = report.diagnostics[0]
    assert diag.span.file == str(path) and "`add`" in diag.message  # at the removal
    assert any(span.file.endswith("steps_base.pack") for span, _ in diag.notes)  # the base's step noted


def test_a_base_step_name_that_does_not_exist_is_e114_in_the_child(tmp_path):
    path = _child(tmp_path, "extends: steps_base.pack\nflow:\n  round:\n    - base: plya\n    - base: bonus\n")
    report = check_pack(path)
    [diag] = report.diagnostics
    assert (diag.code, diag.span.file, diag.span.line) == ("E114", str(path), 4)
    assert "markers, play, bonus" in diag.message and diag.hint == "did you mean `play`?"


def test_a_base_step_takes_nothing_else_e115(tmp_path):
    path = _child(tmp_path, "extends: steps_base.pack\nflow:\n  round:\n    - base: play\n      repeat: true\n")
    [diag] = check_pack(path).diagnostics
    assert diag.code == "E115" and "`repeat`" in diag.message and diag.span.line == 5


def test_a_base_step_in_a_pack_that_extends_nothing_is_e115(tmp_path):
    path = tmp_path / "alone.pack"
    path.write_text((HERE / "steps_base.pack").read_text().replace("    - name: bonus\n      do: total += 100\n",
                                                                   "    - base: bonus\n"))
    report = check_pack(path)
    assert [d.code for d in report.diagnostics] == ["E115"]
    assert "extends none" in report.diagnostics[0].message


def test_step_names_are_words_and_unique_e023(tmp_path):
    text = (HERE / "steps_base.pack").read_text()
    path = tmp_path / "twice.pack"
    path.write_text(text.replace("name: bonus", "name: play"))
    [diag] = check_pack(path).diagnostics
    assert diag.code == "E023" and "`play`" in diag.message and diag.notes
    path.write_text(text.replace("name: bonus", "name: two words"))
    [diag] = check_pack(path).diagnostics
    assert diag.code == "E023" and "two words" in diag.message


def test_a_grandchild_takes_a_step_its_parent_took_from_the_base(tmp_path):
    (tmp_path / "steps_child.pack").write_text((HERE / "steps_child.pack").read_text())
    path = _child(tmp_path, "extends: steps_child.pack\nflow:\n  round:\n    - base: bonus\n    - base: play\n"
                            "tests:\n  - name: bonus first\n    moves: [P1 put_marker A1, P2 put_marker A1, P1 add 2, P2 add 2]\n"
                            "    expect: {vars: {total: 204}}\n", name="grandchild.pack")
    report = check_pack(path)
    assert report.ok and report.tests_run == 1, [d.message for d in report.diagnostics]
