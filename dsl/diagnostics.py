"""Diagnostics: positioned errors and warnings, their rendering, and exceptions.

Every problem the engine reports is a :class:`Diagnostic` with a code, a
message and (usually) a :class:`Span` in a source file.  Diagnostics are
collected in a :class:`DiagnosticBag` and raised together inside a
:class:`BoardruleError` subclass, so a user sees every problem of a pack at
once instead of fixing them one run at a time.

Example::

    >>> store = SourceStore()
    >>> store.add("x.pack", "place: emptyy\\n")
    >>> d = Diagnostic("E201", "unknown name `emptyy`", Span("x.pack", 1, 8, 1, 14))
    >>> print(render(d, store))
    x.pack:1:8: error[E201]: unknown name `emptyy`
       1 | place: emptyy
         |        ^^^^^^
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Literal

import attrs

from boardrule.dsl.records import frozen


Severity = Literal["error", "warning"]

#: Files bigger than this are never read just to show a source line.
SOURCE_READ_LIMIT = 2_000_000

# The same line breaks PyYAML counts, so our line numbers agree with its marks.
_LINE_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")


def split_lines(text: str) -> list[str]:
    """Split ``text`` on the line breaks YAML recognises.

    >>> split_lines("a\\r\\nb\\nc")
    ['a', 'b', 'c']
    """
    return _LINE_BREAK.split(text)


@frozen
class Span:
    """A region of a source file; all numbers 1-based, ``end_col`` exclusive.

    >>> str(Span("x.pack", 3, 12, 3, 18))
    'x.pack:3:12'
    """

    file: str
    line: int
    col: int
    end_line: int
    end_col: int

    @classmethod
    def point(cls, file: str, line: int, col: int) -> Span:
        """An empty span at one position: ``Span.point("x.pack", 2, 5)``."""
        return cls(file, line, col, line, col)

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


@frozen
class Diagnostic:
    """One problem: ``Diagnostic("E201", "unknown name `x`", span, hint="...")``."""

    code: str
    message: str
    span: Span | None = None
    severity: Severity = "error"
    hint: str | None = None
    notes: tuple[tuple[Span | None, str], ...] = attrs.field(default=(), converter=tuple)


def _sort_key(diag: Diagnostic) -> tuple[str, int, int]:
    span = diag.span
    return ("", 0, 0) if span is None else (span.file, span.line, span.col)


class SourceStore:
    """Texts of source files, so renderings can quote the offending line.

    Files not added explicitly are read from disk on first use (unless
    ``read_disk=False``); unreadable or huge files simply have no lines.

    >>> s = SourceStore()
    >>> s.add("a.pack", "one\\ntwo")
    >>> s.line("a.pack", 2)
    'two'
    """

    def __init__(self, *, read_disk: bool = True) -> None:
        self._read_disk = read_disk
        self._texts: dict[str, str | None] = {}
        self._lines: dict[str, list[str]] = {}
        self._buffers: dict[str, str] = {}

    def set_buffer(self, file: str, text: str) -> None:
        """Read ``file`` as ``text`` instead of from disk, when loading packs too: an editor's
        unsaved buffer (the language server, cli/lsp.py).

        >>> s = SourceStore()
        >>> s.set_buffer("/tmp/a.pack", "game: {}")
        >>> s.buffer("/tmp/../tmp/a.pack")
        'game: {}'
        """
        self._buffers[os.path.abspath(file)] = text
        self.add(file, text)

    def buffer(self, file: str) -> str | None:
        """The editor's text of ``file`` (set_buffer), or None: then the file on disk counts."""
        return self._buffers.get(os.path.abspath(file)) if self._buffers else None

    def add(self, file: str, text: str) -> None:
        """Remember ``text`` as the content of ``file`` (replacing any old one)."""
        self._texts[file] = text
        self._lines.pop(file, None)

    def __contains__(self, file: object) -> bool:
        return file in self._texts and self._texts[file] is not None

    def text(self, file: str) -> str | None:
        """The whole text of ``file``, or None when it is unknown."""
        if file not in self._texts:
            self._texts[file] = self._read(file) if self._read_disk else None
        return self._texts[file]

    def line(self, file: str, n: int) -> str | None:
        """Line ``n`` (1-based) of ``file`` without its line break, or None."""
        if file not in self._lines:
            text = self.text(file)
            if text is None:
                return None
            self._lines[file] = split_lines(text)
        lines = self._lines[file]
        return lines[n - 1] if 1 <= n <= len(lines) else None

    @staticmethod
    def _read(file: str) -> str | None:
        # Rendering must never fail or stall, so any trouble means "no source".
        try:
            path = Path(file)
            if not path.is_file() or path.stat().st_size > SOURCE_READ_LIMIT:
                return None
            return path.read_bytes().decode("utf-8", errors="replace").removeprefix("\ufeff")
        except (OSError, ValueError):
            return None


class BoardruleError(Exception):
    """Base of all engine errors; carries one or more diagnostics.

    A plain message is accepted for convenience:

    >>> str(UsageError("no such option `--x`"))
    'error[E001]: no such option `--x`'
    """

    default_code = "E000"

    def __init__(
        self,
        diagnostics: Diagnostic | str | Iterable[Diagnostic],
        *,
        code: str | None = None,
        span: Span | None = None,
        hint: str | None = None,
        sources: SourceStore | None = None,
    ) -> None:
        if isinstance(diagnostics, str):
            diagnostics = [Diagnostic(code or self.default_code, diagnostics, span, hint=hint)]
        elif isinstance(diagnostics, Diagnostic):
            diagnostics = [diagnostics]
        self.diagnostics: list[Diagnostic] = list(diagnostics) or [
            Diagnostic(self.default_code, "unknown error")
        ]
        self.sources = sources
        super().__init__(self.diagnostics[0].message)

    @property
    def diagnostic(self) -> Diagnostic:
        """The first (usually most relevant) diagnostic."""
        return self.diagnostics[0]

    def __str__(self) -> str:
        store = self.sources if self.sources is not None else SourceStore(read_disk=False)
        text = render(self.diagnostics[0], store)
        more = len(self.diagnostics) - 1
        return f"{text}\n... and {more} more" if more else text

    def __reduce__(self):  # keep exceptions picklable despite the custom __init__
        return (self.__class__, (self.diagnostics,), {"sources": self.sources})


class PackError(BoardruleError):
    """Problems in a rule pack, raised once with every diagnostic collected."""

    default_code = "E100"


class UsageError(BoardruleError):
    """Bad input to the CLI or the Python API."""

    default_code = "E001"


class IllegalMoveError(BoardruleError):
    """A move that the rules of the loaded pack do not allow."""

    default_code = "E500"


class SaveError(BoardruleError):
    """A saved game that cannot be read or written."""

    default_code = "E600"


class DiagnosticBag:
    """Collects diagnostics, then raises them together.

    >>> bag = DiagnosticBag()
    >>> bag.error("E999", "bad thing", None)
    >>> bag.has_errors
    True
    """

    def __init__(self) -> None:
        self.diagnostics: list[Diagnostic] = []

    def add(self, diag: Diagnostic) -> None:
        """Append an already built diagnostic."""
        self.diagnostics.append(diag)

    def extend(self, diags: Iterable[Diagnostic]) -> None:
        """Append several diagnostics (e.g. from a caught BoardruleError)."""
        self.diagnostics.extend(diags)

    def error(self, code, message, span=None, hint=None, notes=()) -> None:
        """Record an error: ``bag.error("E201", "unknown name", span, hint=...)``."""
        self.add(Diagnostic(code, message, span, "error", hint, notes))

    def warning(self, code, message, span=None, hint=None, notes=()) -> None:
        """Record a warning; warnings alone never make raise_if_errors raise."""
        self.add(Diagnostic(code, message, span, "warning", hint, notes))

    @property
    def has_errors(self) -> bool:
        return any(d.severity == "error" for d in self.diagnostics)

    def sorted(self) -> list[Diagnostic]:
        """All diagnostics ordered by (file, line, col), stable for ties, each cause once: a fault
        reached on several paths (a definition checked for each use) is reported one time."""
        first = {}
        for diag in self.diagnostics:  # the same fault at the same place is one cause, whatever its notes
            first.setdefault((diag.code, diag.message, diag.span, diag.severity), diag)
        return sorted(first.values(), key=_sort_key)

    def raise_if_errors(self, exc_class=PackError, sources: SourceStore | None = None) -> None:
        """Raise ``exc_class`` with every diagnostic if any of them is an error."""
        if self.has_errors:
            raise exc_class(self.sorted(), sources=sources)

    def __len__(self) -> int:
        return len(self.diagnostics)

    def __iter__(self) -> Iterator[Diagnostic]:
        return iter(self.diagnostics)


def did_you_mean(name: str, candidates: Iterable[object]) -> str | None:
    """A hint naming the closest candidate, or None when nothing is close.

    >>> did_you_mean("emptyy", ["empty", "any", "adjacent"])
    'did you mean `empty`?'
    """
    best = closest(name, candidates)
    return f"did you mean `{best}`?" if best else None


def closest(name: str, candidates: Iterable[object]) -> str | None:
    """The candidate a misspelt name most likely means, or None when nothing is close.

    >>> closest("peices", ["pieces", "board"])
    'pieces'
    """
    pool = sorted({str(c) for c in candidates} - {name})
    folded = [c for c in pool if c.lower() == name.lower()]
    import difflib  # only when a name is wrong: `check` of a clean pack never needs it
    best = folded or difflib.get_close_matches(name, pool, n=1, cutoff=0.75)
    return best[0] if best else None


class _Palette:
    """ANSI styling that degrades to identity when color is off."""

    _CODES = {"error": "1;31", "warning": "1;33", "gutter": "1;34", "bold": "1", "help": "1;36"}

    def __init__(self, color: bool) -> None:
        self.color = color

    def __call__(self, kind: str, text: str) -> str:
        if not self.color or not text:
            return text
        return f"\x1b[{self._CODES[kind]}m{text}\x1b[0m"


def _header(diag: Diagnostic, paint: _Palette) -> str:
    label = paint(diag.severity, f"{diag.severity}[{diag.code}]")
    where = f"{diag.span}: " if diag.span is not None else ""
    return f"{paint('bold', where)}{label}: {diag.message}"


def _caret_width(span: Span, line_len: int) -> int:
    if span.end_line == span.line:
        return max(1, span.end_col - span.col)
    if span.end_line > span.line:  # multi-line span: underline to the end of its first line
        return max(1, line_len - span.col + 1)
    return 1


def _snippet(diag: Diagnostic, sources: SourceStore, paint: _Palette) -> list[str]:
    span = diag.span
    src = sources.line(span.file, span.line) if span is not None else None
    if src is None:
        return []
    number = str(span.line)
    pad = " " * len(number)
    # Tabs count as one column in positions, so show them as one space.
    shown = src.replace("\t", " ")
    width = _caret_width(span, len(src))
    shown, col, width = _window(shown, span.col, width)
    carets = paint(diag.severity, "^" * width)
    return [
        f"   {paint('gutter', number + ' |')} {shown}".rstrip(),
        f"   {paint('gutter', pad + ' |')} {' ' * max(0, col - 1)}{carets}",
    ]


MAX_SHOWN = 120  # characters of a source line shown; a longer line is cut around the caret


def _window(line: str, col: int, width: int) -> tuple[str, int, int]:
    """`line` cut to about MAX_SHOWN characters around the columns the caret marks, with `...`
    where it was cut; the caret's column and width in what is shown."""
    if len(line) <= MAX_SHOWN:
        return line, col, width
    width = min(width, MAX_SHOWN // 2)
    start = max(0, min(col - 1 - MAX_SHOWN // 4, len(line) - MAX_SHOWN))
    end = start + MAX_SHOWN
    head = "..." if start > 0 else ""
    tail = "..." if end < len(line) else ""
    return head + line[start:end] + tail, col - start + len(head), width


def render(diag: Diagnostic, sources: SourceStore | None = None, color: bool = False) -> str:
    """Render one diagnostic in the stable, human-readable text form.

    >>> print(render(Diagnostic("E201", "unknown name `x`", hint="did you mean `y`?")))
    error[E201]: unknown name `x`
       = help: did you mean `y`?
    """
    paint = _Palette(color)
    lines = [_header(diag, paint)]
    if sources is not None:
        lines += _snippet(diag, sources, paint)
    if diag.hint:
        lines.append(f"   {paint('help', '=')} help: {diag.hint}")
    for span, text in diag.notes:
        where = f"{span}: " if span is not None else ""
        lines.append(f"   {paint('help', '=')} note: {where}{text}")
    return "\n".join(lines)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def summary_line(diags: Iterable[Diagnostic]) -> str:
    """``"2 errors, 1 warning"`` for the given diagnostics."""
    diags = list(diags)
    errors = sum(d.severity == "error" for d in diags)
    return f"{_plural(errors, 'error')}, {_plural(len(diags) - errors, 'warning')}"


def render_all(
    diags: Iterable[Diagnostic], sources: SourceStore | None = None, color: bool = False
) -> str:
    """Render diagnostics separated by blank lines, then a summary line.

    >>> print(render_all([Diagnostic("E1", "a"), Diagnostic("W2", "b", severity="warning")]))
    error[E1]: a
    <BLANKLINE>
    warning[W2]: b
    <BLANKLINE>
    1 error, 1 warning
    """
    diags = list(diags)
    blocks = [render(d, sources, color) for d in diags]
    return "\n\n".join([*blocks, summary_line(diags)])


def diagnostic_to_dict(d: Diagnostic) -> dict[str, object]:
    """The JSON form; position keys are None when there is no span.

    >>> diagnostic_to_dict(Diagnostic("E1", "m"))["line"] is None
    True
    """
    span = d.span
    nowhere = dict.fromkeys(attrs.fields_dict(Span))
    pos = attrs.asdict(span) if span is not None else nowhere
    notes = [{"message": text, **(attrs.asdict(where) if where is not None else nowhere)} for where, text in d.notes]
    return {"code": d.code, "severity": d.severity, "message": d.message, **pos, "hint": d.hint, "notes": notes}


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def render_github(d: Diagnostic) -> str:
    """A GitHub Actions workflow command that annotates the span.

    >>> render_github(Diagnostic("E1", "bad", Span("a.pack", 2, 3, 2, 5)))
    '::error file=a.pack,line=2,col=3,endLine=2,endColumn=5,title=E1::bad'
    """
    props = []
    if d.span is not None:
        s = d.span
        props = [f"file={_escape_property(s.file)}", f"line={s.line}", f"col={s.col}"]
        props += [f"endLine={s.end_line}", f"endColumn={s.end_col}"]
    props.append(f"title={_escape_property(d.code)}")
    message = d.message if not d.hint else f"{d.message}\nhelp: {d.hint}"
    kind = "warning" if d.severity == "warning" else "error"
    return f"::{kind} {','.join(props)}::{_escape_data(message)}"
