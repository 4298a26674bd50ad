"""Every example in docs/ runs: packs check and pass their tests, fragments
parse, expressions give the value the page prints after `# =>`."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from boardrule.dsl.diagnostics import DiagnosticBag, SourceStore, render
from boardrule.dsl.loader import MapNode, load_yaml_text
from boardrule.dsl.pack import load_pack_text
from boardrule.dsl.sections import read_pack
from boardrule.interpreter import api
from boardrule.interpreter.designer.check import check_pack
from boardrule.interpreter.compiler.game import compile_game
from boardrule.interpreter.designer.scenarios import _start, run_tests

DOCS = Path(__file__).resolve().parent.parent / "docs"
FENCE = re.compile(r"^```(\w+)\n(.*?)^```", re.S | re.M)


def blocks(kind):
    found = []
    for page in sorted(DOCS.glob("*.md")):
        text = page.read_text()
        for match in FENCE.finditer(text):
            if match.group(1) == kind:
                line = text.count("\n", 0, match.start()) + 2
                found.append((f"{page.name}:{line}", match.group(2)))
    return found


def pack_blocks():
    return [(where, body) for where, body in blocks("yaml") if body.startswith("# pack:")]


def fragment_blocks():
    return [(where, body) for where, body in blocks("yaml") if body.startswith("# fragment:")]


def test_the_docs_have_examples():
    assert len(pack_blocks()) >= 2 and len(fragment_blocks()) >= 10 and len(blocks("expr")) >= 6


def _ids(items):
    return [where for where, _ in items]


def _pack_name(body):
    return body.split("\n", 1)[0].removeprefix("# pack:").strip()


@pytest.mark.parametrize("where,body", pack_blocks(), ids=_ids(pack_blocks()))
def test_pack_examples_check_and_pass_their_tests(where, body, tmp_path):
    if re.search(r"^extends:", body, re.M):
        # `extends` needs files: every pack example is written next to this one (`extends: tally.pack`)
        for _, other in pack_blocks():
            (tmp_path / f"{_pack_name(other)}.pack").write_text(other)
        report = check_pack(tmp_path / f"{_pack_name(body)}.pack")
        assert report.ok and not report.warnings, "\n".join(render(d) for d in report.diagnostics)
        assert report.tests_run, "a pack example should carry a test"
        return
    sources = SourceStore(read_disk=False)
    pack = load_pack_text(body, where, sources)
    game = compile_game(pack)
    failures = run_tests(game)
    assert not failures, "\n".join(render(d, sources) for d in failures)
    assert game.model.tests, "a pack example should carry a test"


@pytest.mark.parametrize("where,body", fragment_blocks(), ids=_ids(fragment_blocks()))
def test_fragment_examples_are_valid_sections(where, body):
    root = load_yaml_text(body, where)
    bag = DiagnosticBag()
    sections = dict(_town_sections())
    for key, value in root.entries:
        sections[key.value] = (key, value)
    sections.pop("extends", None)
    sections.pop("remove", None)
    sections.pop("override", None)
    merged = MapNode(tuple(sections.values()), root.span)
    read_pack(merged, bag)
    assert not bag.has_errors, "\n".join(d.message for d in bag)


def _town_sections():
    body = [b for w, b in pack_blocks() if b.startswith("# pack: town")][0]
    root = load_yaml_text(body, "town")
    return [(key.value, (key, value)) for key, value in root.entries]


def _town():
    body = [b for w, b in pack_blocks() if b.startswith("# pack: town")][0]
    game = compile_game(load_pack_text(body, "docs/language.md"))
    test = [t for t in game.model.tests if t.name == "the example position"][0]
    return game, _start(game, test.node)


def expression_lines():
    lines = []
    for where, body in blocks("expr"):
        for offset, line in enumerate(body.splitlines()):
            if "# =>" in line:
                expr, expected = line.split("# =>")
                lines.append((f"{where.split(':')[0]}:{int(where.split(':')[1]) + offset}", expr.strip(),
                              expected.strip()))
    return lines


@pytest.fixture(scope="module")
def town():
    return _town()


@pytest.mark.parametrize("where,expr,expected", expression_lines(), ids=[w for w, _, _ in expression_lines()])
def test_expression_examples_give_the_printed_value(town, where, expr, expected):
    game, state = town
    value, value_type = api.evaluate(game, state, expr)
    assert api.show_value(game, value, value_type) == expected, f"{where}: {expr}"
