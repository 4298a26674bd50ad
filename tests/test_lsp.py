"""`boardrule lsp` driven by a real LSP client over stdio (pytest-lsp): diagnostics as `check`
gives them, tests on save, hover, go to definition and completion, across `extends:`."""

from __future__ import annotations

import asyncio
import shutil
import sys
from pathlib import Path

import pytest

pytest.importorskip("pygls")
pytest_lsp = pytest.importorskip("pytest_lsp")

from lsprotocol import types  # noqa: E402
from pytest_lsp import ClientServerConfig, LanguageClient  # noqa: E402

from boardrule.dsl.diagnostics import SourceStore  # noqa: E402
from boardrule.dsl.packpath import bundled_dir  # noqa: E402
from boardrule.interpreter.designer.check import check_pack  # noqa: E402

SERVER = [sys.executable, "-c", "from boardrule.cli.main import main; main()", "lsp"]


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER))
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(types.InitializeParams(capabilities=types.ClientCapabilities()))
    yield
    await lsp_client.shutdown_session()


def _copy(tmp_path: Path, name: str, edit=None) -> Path:
    text = (bundled_dir() / f"{name}.pack").read_text()
    path = tmp_path / f"{name}.pack"
    path.write_text(edit(text) if edit else text)
    return path


WAIT_S = 60  # a server that never publishes fails the test instead of hanging the suite


async def _diagnostics_of(client: LanguageClient, uri: str) -> list:
    """The next diagnostics published for `uri` (each is taken once: the client keeps the last
    per file, whichever order one check publishes its files in)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT_S
    while uri not in client.diagnostics:
        assert loop.time() < deadline, f"no diagnostics were published for {uri}"
        await asyncio.sleep(0.02)
    return list(client.diagnostics.pop(uri))


def _open(client: LanguageClient, path: Path, text: str | None = None) -> str:
    uri = path.as_uri()
    client.text_document_did_open(types.DidOpenTextDocumentParams(types.TextDocumentItem(
        uri=uri, language_id="yaml", version=1, text=path.read_text() if text is None else text)))
    return uri


def _replace_all(client: LanguageClient, uri: str, version: int, text: str) -> None:
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        types.VersionedTextDocumentIdentifier(uri=uri, version=version),
        [types.TextDocumentContentChangeWholeDocument(text=text)]))


def _where(text: str, needle: str, offset: int = 0) -> types.Position:
    """The LSP position (0-based) of the first `needle` in `text`, `offset` characters in."""
    index = text.index(needle) + offset
    line = text.count("\n", 0, index)
    return types.Position(line, index - (text.rfind("\n", 0, index) + 1))


MISSPELT = ("fits(diagonal, cells where kind == p.mark)", "fits(diagnal, cells where kind == p.mark)")


@pytest.mark.asyncio
async def test_diagnostics_as_typed_are_checks_codes_places_and_hints(client, tmp_path):
    path = _copy(tmp_path, "tictactoe", lambda t: t.replace(*MISSPELT))
    uri = _open(client, path)
    found = await _diagnostics_of(client, uri)
    expected = [d for d in check_pack(path, SourceStore(), run_pack_tests=False).findings()]
    assert [d.code for d in found] == [d.code for d in expected] == ["E201"]
    diag, want = found[0], expected[0]
    assert (diag.range.start.line + 1, diag.range.start.character + 1) == (want.span.line, want.span.col)
    assert (diag.range.end.line + 1, diag.range.end.character + 1) == (want.span.end_line, want.span.end_col)
    assert diag.message == f"{want.message}\nhelp: {want.hint}" and "diagonal" in want.hint
    assert diag.severity == types.DiagnosticSeverity.Error and diag.source == "boardrule"

    fixed = path.read_text().replace(*reversed(MISSPELT))  # typed, not saved: the buffer counts
    _replace_all(client, uri, 2, fixed)
    assert await _diagnostics_of(client, uri) == []


@pytest.mark.asyncio
async def test_the_packs_tests_run_on_save(client, tmp_path):
    wrong = lambda t: t.replace("      score: {P1: 1, P2: 0}\n", "      score: {P1: 0, P2: 1}\n", 1)  # noqa: E731
    path = _copy(tmp_path, "tictactoe", wrong)
    uri = _open(client, path)
    assert await _diagnostics_of(client, uri) == []  # typing: no tests
    client.text_document_did_save(types.DidSaveTextDocumentParams(types.TextDocumentIdentifier(uri=uri)))
    found = await _diagnostics_of(client, uri)
    expected = check_pack(path, SourceStore()).findings()
    assert [d.code for d in found] == [d.code for d in expected] and found and found[0].code.startswith("E7")
    assert [d.range.start.line + 1 for d in found] == [d.span.line for d in expected]


@pytest.mark.asyncio
async def test_an_error_the_variant_causes_in_its_base_is_reported_home(client, tmp_path):
    shutil.copy(bundled_dir() / "tinytowns.pack", tmp_path / "tinytowns.pack")
    path = _copy(tmp_path, "villagers", lambda t: t.replace("extends: tinytowns", "extends: tinytowns.pack")
                 .replace("  open_squares: if tiny_tears then", "  open_square: if tiny_tears then"))
    uri = _open(client, path)
    found = await _diagnostics_of(client, uri)
    expected = check_pack(path, SourceStore(), run_pack_tests=False).findings()
    assert [d.code for d in found if d.severity == types.DiagnosticSeverity.Error] == \
        [d.code for d in expected if d.severity == "error" and d.span.file == str(path)]
    assert found, "the variant's own file gets the diagnostics it causes"


@pytest.mark.asyncio
async def test_errors_a_removal_causes_in_the_base_show_at_the_removal_once(client, tmp_path):
    """Removing a piece the base uses in three places: check reports one E201 at the removal,
    noting the three places in the base; the variant's own file shows it with the three places as
    related information, and the base's file marks the three."""
    shutil.copy(bundled_dir() / "tinytowns.pack", tmp_path / "tinytowns.pack")
    variant = tmp_path / "variant.pack"
    variant.write_text("extends: tinytowns.pack\ngame: {id: v2, name: V2, players: 1..4}\n"
                       "remove: [pieces.cottage]\n")
    everything = check_pack(variant, SourceStore(), run_pack_tests=False).findings()
    assert all(d.span.file == str(variant) for d in everything if d.severity == "error")
    in_base = [span for d in everything if d.code == "E201" for span, text in d.notes
               if span.file.endswith("tinytowns.pack") and text.startswith("it shows in")]
    assert len(in_base) >= 3
    uri = _open(client, variant)
    home = await _diagnostics_of(client, uri)
    assert {d.range.start.line for d in home} == {2}  # all at `remove:`'s line
    assert sorted(d.code for d in home) == sorted(set(d.code for d in everything))  # once per cause
    unknown = next(d for d in home if d.code == "E201")
    related = [r for r in unknown.related_information if r.location.uri.endswith("tinytowns.pack")]
    assert len(related) == len(in_base)
    base = await _diagnostics_of(client, (tmp_path / "tinytowns.pack").as_uri())
    assert sorted(d.code for d in base if d.code == "E201") == ["E201"] * len(in_base)


@pytest.mark.asyncio
async def test_hover_shows_the_manual_for_builtins_and_the_packs_doc_for_entries(client, tmp_path):
    path = _copy(tmp_path, "tictactoe")
    text = path.read_text()
    uri = _open(client, path)
    await _diagnostics_of(client, uri)
    fits = await client.text_document_hover_async(types.HoverParams(
        types.TextDocumentIdentifier(uri=uri), _where(text, "fits(line", 1)))
    assert "fits(SHAPE, CELLS)" in fits.contents.value  # docs/language.md's own words
    assert "# => true" in fits.contents.value
    play = await client.text_document_hover_async(types.HoverParams(
        types.TextDocumentIdentifier(uri=uri), _where(text, "- turns: [play]", len("- turns: ["))))
    assert "Mark an empty cell of the grid." in play.contents.value  # the action's `doc:`
    mark = await client.text_document_hover_async(types.HoverParams(
        types.TextDocumentIdentifier(uri=uri), _where(text, "place me.mark", len("place me.m"))))
    assert "player variable" in mark.contents.value and "per_seat: [x, o]" in mark.contents.value


@pytest.mark.asyncio
async def test_go_to_definition_finds_shapes_definitions_and_base_entries(client, tmp_path):
    path = _copy(tmp_path, "tictactoe")
    text = path.read_text()
    uri = _open(client, path)
    await _diagnostics_of(client, uri)
    shape = await client.text_document_definition_async(types.DefinitionParams(
        types.TextDocumentIdentifier(uri=uri), _where(text, "fits(diagonal", len("fits(d"))))
    assert shape.uri == uri and shape.range.start == _where(text, "  diagonal:", 2)
    won = await client.text_document_definition_async(types.DefinitionParams(
        types.TextDocumentIdentifier(uri=uri), _where(text, "won(me)", 1)))
    assert won.range.start == _where(text, "  won(p):", 2)

    shutil.copy(bundled_dir() / "tinytowns.pack", tmp_path / "tinytowns.pack")
    variant = _copy(tmp_path, "villagers", lambda t: t.replace("extends: tinytowns", "extends: tinytowns.pack"))
    vtext, base = variant.read_text(), (tmp_path / "tinytowns.pack").read_text()
    vuri = _open(client, variant)
    await _diagnostics_of(client, vuri)
    entry = await client.text_document_definition_async(types.DefinitionParams(
        types.TextDocumentIdentifier(uri=vuri), _where(vtext, "  open_squares: if", 3)))
    assert entry.uri == (tmp_path / "tinytowns.pack").as_uri()
    assert entry.range.start == _where(base, "  open_squares:", 2)
    inherited = await client.text_document_definition_async(types.DefinitionParams(
        types.TextDocumentIdentifier(uri=vuri), _where(vtext, "kind == trading_post", len("kind == t"))))
    assert inherited.uri == entry.uri and inherited.range.start == _where(base, "  trading_post:", 2)


@pytest.mark.asyncio
async def test_completion_offers_the_names_in_scope(client, tmp_path):
    path = _copy(tmp_path, "tictactoe")
    text = path.read_text()
    uri = _open(client, path)
    await _diagnostics_of(client, uri)
    typed = text.replace("  won(p): fits(line,", "  won(p): di fits(line,")
    _replace_all(client, uri, 2, typed)
    found = await client.text_document_completion_async(types.CompletionParams(
        types.TextDocumentIdentifier(uri=uri), _where(typed, "won(p): di", len("won(p): di"))))
    labels = {item.label for item in found.items}
    assert {"diagonal", "distance", "distinct", "directions"} <= labels and "fits" not in labels
    param = await client.text_document_completion_async(types.CompletionParams(
        types.TextDocumentIdentifier(uri=uri), _where(typed, "won(p): di", len("won(p): "))))
    assert "p" in {item.label for item in param.items}  # the definition's parameter
    dotted = await client.text_document_completion_async(types.CompletionParams(
        types.TextDocumentIdentifier(uri=uri), _where(typed, "p.mark)", 2)))
    assert {"mark", "score", "seat"} <= {item.label for item in dotted.items}


def test_without_the_extra_lsp_is_a_usage_error_naming_the_pip_command(monkeypatch):
    from click.testing import CliRunner

    from boardrule.cli.main import cli, main  # noqa: F401
    import boardrule.cli.designer  # noqa: F401  (registers lsp)

    monkeypatch.setitem(sys.modules, "pygls", None)
    monkeypatch.delitem(sys.modules, "boardrule.cli.lsp", raising=False)
    for name in [n for n in sys.modules if n.startswith("pygls.")]:
        monkeypatch.delitem(sys.modules, name)
    result = CliRunner().invoke(cli, ["lsp"])
    assert result.exit_code == 2
    assert "pip install 'boardrule[lsp]'" in result.output and "pygls" in result.output


@pytest.mark.asyncio
async def test_extends_from_comes_from_the_initialization_options(tmp_path):
    """A base in another folder: refused without the editor's `extendsFrom`, as check refuses it
    without --extends-from; read with it."""
    bases, mine = tmp_path / "bases", tmp_path / "mine"
    bases.mkdir()
    mine.mkdir()
    shutil.copy(bundled_dir() / "tictactoe.pack", bases / "base.pack")
    variant = mine / "variant.pack"
    variant.write_text("extends: ../bases/base.pack\ngame: {id: v, name: V, players: 2}\n")
    outside = [d.code for d in check_pack(variant, SourceStore()).findings()]
    assert outside and outside == [d.code for d in check_pack(variant, SourceStore(), run_pack_tests=False)
                                   .findings()]
    for options, expected in ((None, outside), ({"extendsFrom": [str(bases)]}, [])):
        client = await ClientServerConfig(server_command=SERVER).start()
        try:
            await client.initialize_session(types.InitializeParams(capabilities=types.ClientCapabilities(),
                                                                   initialization_options=options))
            uri = _open(client, variant)
            assert [d.code for d in await _diagnostics_of(client, uri)] == expected
            await client.shutdown_session()
        finally:
            await client.stop()


@pytest.mark.asyncio
async def test_docs_ci_shows_what_the_server_publishes(client, tmp_path):
    import json
    import re

    from lsprotocol.converters import get_converter
    page = (Path(__file__).resolve().parent.parent / "docs" / "ci.md").read_text()
    shown = re.search(r"^```text\n# textDocument/publishDiagnostics, its diagnostics\n(.*?)^```", page,
                      re.S | re.M).group(1)
    path = _copy(tmp_path, "tictactoe", lambda t: t.replace(*MISSPELT))
    found = await _diagnostics_of(client, _open(client, path))
    assert get_converter().unstructure(found) == json.loads(shown)
