"""Lints (dsl/lints.py): each is triggered by a small pack in tests/lints/ and silent on the bundled packs;
`override` (dsl/extends.py) silences shadowing; `check --strict` turns warnings into findings."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

import boardrule.cli.commands  # noqa: F401  (registers the commands)
from boardrule.cli.main import cli
from boardrule.dsl.diagnostics import PackError, render
from boardrule.dsl.extends import load_pack_tree
from boardrule.dsl.loader import to_plain
from boardrule.dsl.pack import load_pack
from boardrule.interpreter.designer.check import check_pack

ROOT = Path(__file__).resolve().parent.parent
LINTS = ROOT / "tests" / "lints"
BUNDLED = sorted((ROOT / "rulepacks").glob("*.pack"))

#: What each lint pack must report: code -> how many times, and nothing else.
EXPECTED = {
    "unused": {"W801": 3, "W802": 1, "W803": 1, "W804": 2},
    "chart_columns": {"W811": 2},
    "never_fits": {"W306": 1},
    "twins": {"W831": 1},
    "hidden": {"W832": 1},
    "symbols": {"W833": 2},
    "shadow": {"W841": 2, "W842": 1},
    "removed": {"W843": 2},
    "never_offered": {"W805": 1},
    "replaced": {"W846": 1},
    "to_move_never_open": {"W806": 3},
    "lint_weights": {},
    "override": {},
    "base": {},
}

#: Lint findings on bundled packs already reported to the lead, as (pack, code, name in the message):
#: `test_bundled_packs_have_no_lint_warnings` tolerates them until the pack is fixed. Empty today.
KNOWN: set = set()


def codes(report) -> Counter:
    return Counter(d.code for d in report.diagnostics)


def test_every_lint_pack_is_listed():
    assert {p.stem for p in LINTS.glob("*.pack")} == set(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_lint_pack_reports_exactly_its_lints(name):
    report = check_pack(LINTS / f"{name}.pack")
    assert report.ok, "\n".join(render(d) for d in report.diagnostics)
    assert all(d.severity == "warning" for d in report.diagnostics)
    assert codes(report) == Counter(EXPECTED[name]), "\n".join(render(d) for d in report.diagnostics)


def test_every_lint_code_has_a_pack():
    source = (ROOT / "dsl" / "lints.py").read_text()
    lint_codes = set(re.findall(r'"(W8\d\d)"', source)) | {"W306"}
    covered = {code for found in EXPECTED.values() for code in found}
    assert lint_codes <= covered, lint_codes - covered


def _hits(path):
    """Every warning of a bundled pack: the lints, and the warnings of reading and compiling (W017, W306...)."""
    report = check_pack(path, run_pack_tests=False)
    if not report.ok:
        return []  # a broken pack is for its own tests to report
    hits = []
    for d in report.warnings:
        name = re.search(r"`([^`]+)`", d.message)
        hits.append((path.stem, d.code, name.group(1) if name else "", render(d)))
    return hits


@pytest.mark.parametrize("path", BUNDLED, ids=[p.stem for p in BUNDLED])
def test_bundled_packs_have_no_lint_warnings(path):
    new = [text for pack, code, name, text in _hits(path) if (pack, code, name) not in KNOWN]
    assert not new, "\n".join(new)


def test_the_unused_lints_name_what_is_unused():
    messages = {d.message for d in check_pack(LINTS / "unused.pack").diagnostics}
    assert "definition `lonely` is never used" in messages
    assert "definition `helper` is never used" in messages  # used only by an unused definition
    assert "definition `stones` is never used" not in messages
    assert "chart `spare` is never used" in messages and "chart `bonus` is never used" not in messages
    assert "shape `bar` is never used" in messages and "shape `pair` is never used" not in messages
    assert {"variable `spare_var` is never used", "player variable `coins` is never used"} <= messages


def test_unreachable_chart_columns_say_why():
    report = check_pack(LINTS / "chart_columns.pack")
    first, second = report.diagnostics
    assert first.message == "columns 5, 6+ of chart `crowd` can never be reached"
    assert "between 0 and 4" in first.notes[0][1]
    assert second.message == "column 10+ of this chart can never be reached"
    assert "between 0 and 9" in second.notes[0][1]


def test_shadowing_points_at_both_entries():
    diags = [d for d in check_pack(LINTS / "shadow.pack").diagnostics if d.code == "W841"]
    assert {d.message.split("`")[1] for d in diags} == {"pieces.stone", "charts.bonus"}
    assert all(d.span.file.endswith("shadow.pack") and d.notes[0][0].file.endswith("base.pack") for d in diags)


def test_override_replaces_the_entry_and_leaves_no_mark():
    tree = load_pack_tree(LINTS / "override.pack")
    plain = to_plain(tree.root)
    assert "override" not in plain and plain["pieces"]["stone"] == {"symbol": "S", "score": 2}
    assert plain["charts"]["bonus"] == "1 2 3+ -> 2 4 8"
    marked = {(s.section, str(s.key.raw)): (s.base_key is not None, s.marked) for s in tree.shadows
              if s.section != "game"}  # settings such as game.id are changed without `override`
    assert marked == {("pieces", "stone"): (True, True), ("charts", "bonus"): (True, True)}


def _pack(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return path


BASE = (LINTS / "base.pack").read_text()


@pytest.mark.parametrize("text,where", [
    ("extends: base.pack\npieces:\n  stone: {symbol: S, override: yes}\n", "3:32"),
    ("extends: base.pack\noverride: charts.bonus\n", "2:11"),
    ("extends: base.pack\noverride: [bonus]\n", "2:12"),
    ("extends: base.pack\noverride: [charts.bonnus]\ncharts:\n  bonus: 1 -> 1\n", "2:12"),
])
def test_a_bad_override_is_an_error(tmp_path, text, where):
    _pack(tmp_path, "base.pack", BASE)
    with pytest.raises(PackError) as info:
        load_pack(_pack(tmp_path, "child.pack", text))
    diag = info.value.diagnostics[0]
    assert diag.code == "E129" and f"{diag.span.line}:{diag.span.col}" == where, render(diag)


def test_a_misspelt_override_path_gets_a_hint(tmp_path):
    _pack(tmp_path, "base.pack", BASE)
    with pytest.raises(PackError) as info:
        load_pack(_pack(tmp_path, "child.pack", "extends: base.pack\noverride: [charts.bonnus]\ncharts:\n"
                                                 "  bonus: 1 -> 1\n"))
    assert info.value.diagnostics[0].hint == "did you mean `bonus`?"


def test_override_without_extends_is_an_error(tmp_path):
    with pytest.raises(PackError) as info:
        load_pack(_pack(tmp_path, "alone.pack", BASE + "override: [charts.bonus]\n"))
    assert info.value.diagnostics[0].code == "E127"


def test_an_override_mark_in_a_pack_that_extends_nothing_is_taken_out_and_warned(tmp_path):
    text = BASE.replace("stone: {symbol: S, score: 1}", "stone: {symbol: S, score: 1, override: true}")
    report = check_pack(_pack(tmp_path, "alone.pack", text))
    assert report.ok and codes(report) == Counter({"W842": 1})


def test_the_extends_example_of_the_language_page_overrides_cleanly(tmp_path):
    """(The town pack itself keeps shapes and definitions that only the page's expression examples use.)"""
    page = (ROOT / "docs" / "language.md").read_text()
    town = re.search(r"```yaml\n# pack: town\n(.*?)```", page, re.S).group(1)
    variant = re.search(r"```yaml\n# fragment: extends\n(.*?)```", page, re.S).group(1)
    _pack(tmp_path, "town.pack", town)
    report = check_pack(_pack(tmp_path, "variant.pack", variant.replace("extends: town", "extends: town.pack")),
                        run_pack_tests=False)
    assert report.ok, "\n".join(render(d) for d in report.diagnostics)
    assert not [d for d in report.diagnostics if d.code.startswith("W84")]
    plain = to_plain(load_pack_tree(tmp_path / "variant.pack").root)
    assert plain["pieces"]["well"]["score"] == 2 and "tower" not in plain["pieces"]


def run(*args):
    return CliRunner().invoke(cli, list(args))


def test_warnings_exit_0_unless_strict():
    pack = str(LINTS / "twins.pack")
    assert run("check", pack).exit_code == 0
    strict = run("check", pack, "--strict")
    assert strict.exit_code == 1 and "warning[W831]" in strict.output
    assert "FAILED (warnings, --strict)" in strict.output  # never "ok" on a failing run
    quiet = run("check", pack, "--no-lint", "--strict")
    assert quiet.exit_code == 0 and "W831" not in quiet.output


def test_a_definition_is_replaced_whatever_its_parameters_are_called(tmp_path):
    """A definition is named by its name alone: `near(cell, what)` replaces the base's `near(c, k)` (it was
    E205, "names both a definition and a definition"), `override:` and `remove:` may write `define.near`,
    and W841 gives the path and the one form of `override` a definition can take (it is not a mapping)."""
    base = BASE + '  near stones: near(cell("B2"), stone)\ndefine:\n  near(c, k): count(adjacent(c) where kind == k)\n'
    _pack(tmp_path, "base.pack", base)
    child = "define:\n  near(cell, what): count(surrounding(cell) where kind == what)\n"
    report = check_pack(_pack(tmp_path, "child.pack", "extends: base.pack\n" + child), run_pack_tests=False)
    assert report.ok and codes(report) == Counter({"W841": 1}), "\n".join(render(d) for d in report.diagnostics)
    warning = report.diagnostics[0]
    assert warning.message.startswith("`define.near` replaces")
    assert warning.hint.startswith("add `override: [define.near]` at the top if you mean it")
    assert to_plain(load_pack_tree(tmp_path / "child.pack").root)["define"] == {
        "near(cell, what)": "count(surrounding(cell) where kind == what)"}
    for mark in ("define.near", '"define.near(cell, what)"'):
        marked = _pack(tmp_path, "marked.pack", f"extends: base.pack\noverride: [{mark}]\n" + child)
        report = check_pack(marked, run_pack_tests=False)
        assert report.ok and not report.diagnostics, "\n".join(render(d) for d in report.diagnostics)
    removed = _pack(tmp_path, "removed.pack", "extends: base.pack\nremove: [define.near, scoring.near stones]\n")
    assert to_plain(load_pack_tree(removed).root)["define"] == {}


def test_the_w841_hint_offers_override_true_only_where_an_entry_is_a_mapping():
    hints = {d.message.split("`")[1]: d.hint for d in check_pack(LINTS / "shadow.pack").diagnostics
             if d.code == "W841"}
    assert hints["pieces.stone"].startswith("add `override: true` to the entry (or `override: [pieces.stone]`")
    assert hints["charts.bonus"].startswith("add `override: [charts.bonus]` at the top if you mean it")


def test_a_removed_piece_still_dealt_by_a_deck_says_which_card_to_remove(tmp_path):
    variant = tmp_path / "notavern.pack"
    variant.write_text("extends: tinytowns\ngame: {id: notavern}\nremove: [pieces.tavern]\n")
    report = check_pack(variant, run_pack_tests=False)
    hints = [d.hint for d in report.diagnostics if d.code == "W843"]
    assert "take the card out of the deck too: `remove: [decks.green_cards.tavern]`" in hints
    variant.write_text("extends: tinytowns\ngame: {id: notavern}\nremove: [pieces.tavern, decks.green_cards.tavern,"
                       " decks.solo_green_cards.tavern]\n")
    still = [d for d in check_pack(variant, run_pack_tests=False).diagnostics if d.code == "W843"]
    assert len(still) == 1 and "first_game" in Path(still[0].span.file).read_text().splitlines()[still[0].span.line - 2]


def test_an_unknown_name_that_a_remove_took_out_points_at_the_remove(tmp_path):
    variant = tmp_path / "nowell.pack"
    variant.write_text("extends: tinytowns\ngame: {id: nowell}\nremove: [pieces.well, decks.gray_cards.well]\n"
                       "options:\n  gray_card: {values: [random, fountain, millstone, shed], override: true}\n")
    diag = check_pack(variant).diagnostics[0]
    assert (diag.code, diag.message) == ("E201", "unknown name `well`")
    assert diag.span.file == str(variant) and diag.span.line == 3  # at the removal, in the user's file


def test_an_action_no_step_offers_is_never_legal(tmp_path):
    variant = tmp_path / "extra.pack"
    variant.write_text("extends: tictactoe\ngame: {id: extra}\nactions:\n  pass_turn: {effect: \"\"}\n")
    found = [d for d in check_pack(variant, run_pack_tests=False).diagnostics if d.code == "W805"]
    assert [d.message for d in found] == ["action `pass_turn` is offered by no flow step: it is never legal"]


def test_a_replaced_piece_that_drops_a_field_the_rules_read(tmp_path):
    variant = tmp_path / "plain.pack"
    variant.write_text("extends: tinytowns\ngame: {id: plain}\npieces:\n"
                       "  cottage: {symbol: C, category: blue, pattern: cottage_pattern, replace: true}\n")
    found = [d for d in check_pack(variant, run_pack_tests=False).diagnostics if d.code == "W846"]
    assert len(found) == 1 and "`cottages`" in found[0].message and found[0].span.file == str(variant)


def test_a_player_count_whose_setup_fails(tmp_path):
    variant = tmp_path / "eight.pack"
    variant.write_text('extends: tinytowns\ngame: {id: eight, players: "1..8"}\n')
    found = [d for d in check_pack(variant, run_pack_tests=False).diagnostics if d.code == "W848"]
    assert [d.message.split(":")[0] for d in found] == ["with 8 players the setup fails"]
    assert check_pack("tinytowns", run_pack_tests=False).ok


def test_an_error_a_variant_causes_in_its_base_is_told_once_at_the_variants_change(tmp_path):
    # once reported at the base's line (with notes at the change), once per use of the removed name
    variant = tmp_path / "nowell.pack"
    variant.write_text("extends: tinytowns\ngame: {id: nowell}\nremove: [pieces.well, decks.gray_cards.well]\n"
                       "options:\n  gray_card: {values: [random, fountain, millstone, shed], override: true}\n")
    diagnostics = [d for d in check_pack(variant).diagnostics if d.severity == "error"]
    assert len(diagnostics) == 1
    diag = diagnostics[0]
    assert (diag.span.file, diag.span.line) == (str(variant), 3)
    shown = [(Path(span.file).name, text) for span, text in diag.notes]
    assert ("tinytowns.pack", "it shows in `tinytowns.pack` here") in shown
    assert (variant.name, "this pack changes `options.gray_card` here") in shown
