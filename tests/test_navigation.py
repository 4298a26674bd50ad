"""dsl/navigation.py: what a name at a place refers to, on packs with and without errors."""

from __future__ import annotations

import pytest

from boardrule.dsl.diagnostics import SourceStore
from boardrule.dsl.langdocs import builtin_docs
from boardrule.dsl.navigation import read_view
from boardrule.dsl.pack import load_pack
from boardrule.dsl.packpath import bundled_dir, bundled_pack_names

PACK = """game: {id: nav, name: Nav, players: 1}
board: {grid: square 3 x 3, regions: {middle: B2}}
pieces:
  stone: {symbol: S, doc: A grey stone.}
define:
  lonely(c): count(adjacent(c) where kind == stone) == 0
  spare: cells where empty and it in middle
actions:
  drop:
    params: {cell: "spare"}
    effect: place stone at cell
flow:
  round: [{turns: [drop]}]
  end: count(spare) == 0
scoring:
  alone: count(cells where kind == stone and lonely(it))
"""


def _place(text: str, needle: str, offset: int = 0) -> tuple:
    index = text.index(needle) + offset
    return text.count("\n", 0, index) + 1, index - (text.rfind("\n", 0, index) + 1) + 1


def _view(tmp_path, text=PACK):
    path = tmp_path / "nav.pack"
    path.write_text(text)
    sources = SourceStore()
    sources.set_buffer(str(path), text)
    return read_view(path, sources), str(path)


def test_names_resolve_to_their_declarations(tmp_path):
    view, file = _view(tmp_path)
    assert load_pack(file).model.game.id == "nav"  # the pack is clean: every name resolves
    assert view.definition_at(*_place(PACK, "lonely(it)")).line == _place(PACK, "  lonely(c)")[0]
    middle = view.definition_at(*_place(PACK, "in middle", 3))
    assert (middle.line, middle.col) == _place(PACK, "{middle: B2}", 9)
    stone = view.definition_at(*_place(PACK, "place stone", 6))
    assert (stone.line, stone.col) == _place(PACK, "  stone:", 2)
    drop = view.definition_at(*_place(PACK, "turns: [drop]", 8))
    assert (drop.line, drop.col) == _place(PACK, "  drop:", 2)


def test_hover_gives_the_pieces_doc_the_entrys_source_and_the_manual(tmp_path):
    view, _ = _view(tmp_path)
    assert "A grey stone." in view.hover_at(*_place(PACK, "== stone", 4))
    assert "cells where empty and it in middle" in view.hover_at(*_place(PACK, "count(spare)", 7))
    adjacent = view.hover_at(*_place(PACK, "adjacent(c)", 2))
    assert "the cells next to a cell" in adjacent and "adjacent(cell(\"B2\"))" in adjacent


def test_a_pack_with_errors_still_answers(tmp_path):
    broken = PACK.replace("count(spare) == 0", "count(sapre) == 0")
    view, _ = _view(tmp_path, broken)
    assert view is not None
    assert view.definition_at(*_place(broken, "lonely(it)")).line == _place(broken, "  lonely(c)")[0]
    assert view.reference_at(*_place(broken, "sapre")) is None  # unknown: nothing to go to


def test_completions_after_a_dot_are_attributes_and_parameters_are_in_scope(tmp_path):
    view, _ = _view(tmp_path)
    line, col = _place(PACK, "  lonely(c): ", len("  lonely(c): "))
    labels = [c.label for c in view.completions(line, col, "  lonely(c): ")]
    assert "c" in labels and "stone" in labels and "lonely" in labels and "count" in labels
    dotted = [c.label for c in view.completions(line, col, "  lonely(c): c.")]
    assert "owner" in dotted and "count" not in dotted
    steps = [c.label for c in view.completions(line, col, "  round: [{turns: [d")]
    assert steps == ["drop"]


def test_the_manual_is_quoted_for_builtins():
    assert "`ray(c, d)`" in builtin_docs("ray")
    assert builtin_docs("no_such_builtin") == ""


def test_a_variants_entry_that_replaces_a_base_entry_leads_to_it():
    view = read_view(bundled_dir() / "villagers.pack")
    text = (bundled_dir() / "villagers.pack").read_text()
    span = view.definition_at(*_place(text, "  open_squares: if", 3))
    assert span.file.endswith("tinytowns.pack")
    base = view.definition_at(*_place(text, "extends: tinytowns", len("extends: t")))
    assert base.file == view.tree.files[0] and base.file.endswith("tinytowns.pack") and base.line == 1
    assert "tinytowns.pack" in view.hover_at(*_place(text, "extends: tinytowns", len("extends: t")))


@pytest.mark.parametrize("name", bundled_pack_names())
def test_every_name_of_every_bundled_pack_has_a_hover(name):
    view = read_view(bundled_dir() / f"{name}.pack")
    assert len(view.references) > 20
    for ref in view.references:
        assert view.hover(ref), f"{ref.kind} `{ref.name}` at {ref.span} has no hover"
        view.definition(ref)  # never fails
    declared = [r for r in view.references if r.kind in ("define", "shape", "symset", "global", "option")]
    assert declared and all(view.definition(r) is not None for r in declared)
