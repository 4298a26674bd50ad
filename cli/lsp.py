"""`boardrule lsp`: the language server for packs, over stdio (pygls, the `lsp` extra).

Only the protocol lives here. The diagnostics are `boardrule check`'s
(interpreter/designer/check.py), worked out on the editor's unsaved text; hover,
definitions and completions come from dsl/navigation.py.

- As the designer types (after a short pause): every diagnostic of `check`
  but the pack's own tests, with the same codes, places and hints.
- On save: the same with the pack's tests.
- A diagnostic that lies in a base the pack extends is published to the
  base's file, and shown in the pack's own file too, at the change of the
  pack that it notes (or at its `extends:`), once per cause.

The editor may pass `initializationOptions: {"extendsFrom": ["DIR"]}`, the
folders whose packs `extends:` may read (check's `--extends-from`).
"""

from __future__ import annotations

import asyncio
import os

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from boardrule import __version__
from boardrule.dsl.diagnostics import SourceStore, Span
from boardrule.dsl.navigation import read_view, shown_home, shown_in_bases
from boardrule.interpreter.designer.check import check_pack

PAUSE = 0.3  # seconds of no typing before a check
_KINDS = {"function": types.CompletionItemKind.Function, "variable": types.CompletionItemKind.Variable,
          "constant": types.CompletionItemKind.Constant, "property": types.CompletionItemKind.Property,
          "value": types.CompletionItemKind.EnumMember}
_SEVERITY = {"error": types.DiagnosticSeverity.Error, "warning": types.DiagnosticSeverity.Warning}


class PackServer(LanguageServer):
    """The open packs, the checks waiting for a pause in the typing, and what was published."""

    def __init__(self):
        super().__init__("boardrule", __version__)
        self.pending: dict = {}  # uri -> the task that checks it after a pause
        self.published: dict = {}  # uri of an open pack -> the uris its last check published to
        self.views: dict = {}  # uri -> (the open texts it was read from, PackView)
        self.extends_from: tuple = ()  # folders `extends:` may read (check's --extends-from), from the editor

    # ------------------------------------------------------------ the texts
    def sources(self) -> SourceStore:
        """A source store in which every open pack reads as the editor's text."""
        sources = SourceStore()
        for uri, document in self.workspace.text_documents.items():
            path = to_fs_path(uri)
            if path is not None:
                sources.set_buffer(path, document.source)
        return sources

    def texts_key(self) -> tuple:
        return tuple(sorted((uri, doc.version) for uri, doc in self.workspace.text_documents.items()))

    def view(self, uri: str):
        """The navigation view of a pack; the last one that could be read while its YAML is broken."""
        key = self.texts_key()
        cached = self.views.get(uri)
        if cached is not None and cached[0] == key:
            return cached[1]
        path = to_fs_path(uri)
        view = read_view(path, self.sources(), self.extends_from) if path is not None and os.path.isfile(path) \
            else None
        if view is None:
            return cached[1] if cached is not None else None
        self.views[uri] = (key, view)
        return view

    # ------------------------------------------------------------ diagnostics
    def publish(self, uri: str, run_tests: bool) -> None:
        path = to_fs_path(uri)
        if path is None or not os.path.isfile(path):
            return
        sources = self.sources()
        report = check_pack(path, sources, run_pack_tests=run_tests, extends_from=self.extends_from)
        by_uri: dict = {uri: []}
        found = report.findings()
        for diag in found:
            file = diag.span.file if diag.span is not None else path
            target = uri if os.path.abspath(file) == os.path.abspath(path) else from_fs_path(os.path.abspath(file))
            by_uri.setdefault(target, []).append(self.to_lsp(diag, sources))
            for shown in shown_in_bases(diag, path):  # a base's file marks where a cause of this pack shows
                by_uri.setdefault(from_fs_path(os.path.abspath(shown.span.file)), []).append(
                    self.to_lsp(shown, sources))
        # what the pack causes in the bases it extends shows in its own file too (at its change)
        by_uri[uri] += [self.to_lsp(diag, sources) for diag in shown_home(found, path, sources)]
        for stale in self.published.get(uri, set()) - set(by_uri):
            self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=stale, diagnostics=[]))
        for target, found in by_uri.items():
            self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=target, diagnostics=found))
        self.published[uri] = set(by_uri)

    def to_lsp(self, diag, sources: SourceStore) -> types.Diagnostic:
        message = diag.message + (f"\nhelp: {diag.hint}" if diag.hint else "")
        related = []
        for span, text in diag.notes:
            if span is None:
                message += f"\nnote: {text}"
            else:
                related.append(types.DiagnosticRelatedInformation(
                    types.Location(from_fs_path(os.path.abspath(span.file)), self.to_range(span, sources)), text))
        return types.Diagnostic(range=self.to_range(diag.span, sources), message=message, code=diag.code,
                                severity=_SEVERITY.get(diag.severity, types.DiagnosticSeverity.Error),
                                source="boardrule", related_information=related or None)

    def to_range(self, span: Span | None, sources: SourceStore) -> types.Range:
        if span is None:
            return types.Range(types.Position(0, 0), types.Position(0, 0))
        return types.Range(self.to_position(span.file, span.line, span.col, sources),
                           self.to_position(span.file, span.end_line, span.end_col, sources))

    def to_position(self, file: str, line: int, col: int, sources: SourceStore) -> types.Position:
        text = sources.line(file, line) or ""
        units = self.workspace.position_codec.client_num_units(text[: max(col - 1, 0)])
        return types.Position(max(line - 1, 0), units)

    def from_position(self, uri: str, position: types.Position) -> tuple:
        """(file, line, col) in the 1-based code points of a Span."""
        document = self.workspace.get_text_document(uri)
        lines = document.lines
        server = self.workspace.position_codec.position_from_client_units(lines, position)
        return to_fs_path(uri), server.line + 1, server.character + 1

    def schedule(self, uri: str) -> None:
        """Check a pack once the typing pauses (a newer change replaces the waiting check)."""
        waiting = self.pending.pop(uri, None)
        if waiting is not None:
            waiting.cancel()

        async def later():
            await asyncio.sleep(PAUSE)
            self.pending.pop(uri, None)
            self.publish(uri, run_tests=False)

        self.pending[uri] = asyncio.get_running_loop().create_task(later())


server = PackServer()


@server.feature(types.INITIALIZE)
def initialize(ls: PackServer, params: types.InitializeParams):
    """`initializationOptions: {"extendsFrom": [DIR, ...]}`: what `check --extends-from DIR` says."""
    options = params.initialization_options if isinstance(params.initialization_options, dict) else {}
    folders = options.get("extendsFrom") or ()
    ls.extends_from = tuple(str(f) for f in folders if isinstance(f, str)) if isinstance(folders, list) else ()


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
async def did_open(ls: PackServer, params: types.DidOpenTextDocumentParams):
    ls.publish(params.text_document.uri, run_tests=False)


@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
async def did_change(ls: PackServer, params: types.DidChangeTextDocumentParams):
    ls.schedule(params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_SAVE)
async def did_save(ls: PackServer, params: types.DidSaveTextDocumentParams):
    waiting = ls.pending.pop(params.text_document.uri, None)
    if waiting is not None:
        waiting.cancel()
    ls.publish(params.text_document.uri, run_tests=True)


@server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: PackServer, params: types.DidCloseTextDocumentParams):
    uri = params.text_document.uri
    ls.views.pop(uri, None)
    for target in ls.published.pop(uri, set()):
        ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=target, diagnostics=[]))


@server.feature(types.TEXT_DOCUMENT_HOVER)
def hover(ls: PackServer, params: types.HoverParams):
    view = ls.view(params.text_document.uri)
    if view is None:
        return None
    file, line, col = ls.from_position(params.text_document.uri, params.position)
    ref = view.reference_at(file, line, col)
    text = view.hover(ref) if ref is not None else None
    if text is None:
        return None
    return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text),
                       range=ls.to_range(ref.span, view.sources))


@server.feature(types.TEXT_DOCUMENT_DEFINITION)
def definition(ls: PackServer, params: types.DefinitionParams):
    view = ls.view(params.text_document.uri)
    if view is None:
        return None
    span = view.definition_at(*ls.from_position(params.text_document.uri, params.position))
    if span is None:
        return None
    return types.Location(uri=from_fs_path(os.path.abspath(span.file)), range=ls.to_range(span, view.sources))


@server.feature(types.TEXT_DOCUMENT_COMPLETION, types.CompletionOptions(trigger_characters=["."]))
def completion(ls: PackServer, params: types.CompletionParams):
    view = ls.view(params.text_document.uri)
    if view is None:
        return None
    file, line, col = ls.from_position(params.text_document.uri, params.position)
    document = ls.workspace.get_text_document(params.text_document.uri)
    text = document.lines[line - 1] if line - 1 < len(document.lines) else ""
    items = [types.CompletionItem(label=c.label, kind=_KINDS.get(c.kind), detail=c.detail)
             for c in view.completions(line, col, text[: col - 1])]
    return types.CompletionList(is_incomplete=False, items=items)


def serve() -> None:
    """Answer an editor on stdin and stdout until it says exit."""
    server.start_io()
