"""Safe YAML loading with source positions, built from PyYAML's event stream.

Packs are read event by event (``yaml.parse``), never through PyYAML's
composer or constructor, so no Python object can be created from a pack,
resource limits are enforced while reading, and every node keeps the
:class:`Span` it came from.  Anchors, aliases, tags, duplicate keys and more
than one document are refused.

Plain scalars get a small, predictable typing: decimal ints, floats,
``true``/``false`` and ``null``/``~``/empty; everything else (``yes``,
``0x10``, ``012``) stays a string.

Example::

    >>> root = load_yaml_text("size: 8\\nname: demo\\n", "x.pack")
    >>> root.get("size").value, root.get("name").span.col
    (8, 7)

Codes: E101 YAML syntax, E102 too large, E103 not UTF-8, E104 unreadable,
E105 anchor, E106 alias, E107 tag, E108 duplicate key, E109 too deep,
E110 too many nodes, E111 top level not a mapping, E112 several documents,
E113 complex key.
"""

from __future__ import annotations

import bisect
import os
import re
import sys
from collections.abc import Iterator
from typing import Union

import attrs

import yaml

from boardrule.dsl.diagnostics import Diagnostic, DiagnosticBag, PackError, SourceStore, Span
from boardrule.dsl.diagnostics import UsageError, split_lines
from boardrule.dsl.exact import exact
from boardrule.dsl.limits import MAX_DIGITS, in_range, out_of_range_message
from boardrule.dsl.records import frozen

MAX_DEPTH = 64
# libyaml's parser when it is there (about ten times faster), PyYAML's own otherwise;
# both give the same events and marks (character offsets)
_EVENT_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

MAX_BYTES = 1_000_000
MAX_NODES = 50_000
MAX_INTERNED = 64  # scalars up to this long are interned (names, kinds, symbols)

_STYLES = {None: "plain", "'": "single", '"': "double", "|": "literal", ">": "folded"}
_BREAKS = "\r\n\x85\u2028\u2029"
_BREAK_RE = re.compile("\r\n|[\r\n\x85\u2028\u2029]")
_FOLDING = frozenset({"plain", "single", "double", "folded"})
_ESCAPE_LEN = {"x": 4, "u": 6, "U": 10}
# How far the aligner looks for a value char before giving up on it.
_WINDOW = 4096
_INT_RE = re.compile(r"[-+]?(?:0|[1-9][0-9]*)")
_DECIMAL_RE = re.compile(r"[-+]?[0-9]+\.[0-9]+")
_FLOAT_RE = re.compile(
    r"[-+]?(?:(?:[0-9]+\.[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?|[0-9]+[eE][-+]?[0-9]+)"
)


class OutOfRange(str):
    """The text of a plain number outside the range of numbers (dsl/limits.py)."""


def convert_plain(text: str) -> object:
    """Type a plain scalar; anything unusual stays a string.

    >>> [convert_plain(t) for t in ["-3", "2.5", "TRUE", "~", "", "yes", "012"]]
    [-3, Exact(5, 2), True, None, None, 'yes', '012']
    """
    low = text.lower()
    if low in ("true", "false"):
        return low == "true"
    if low in ("null", "~", ""):
        return None
    if _INT_RE.fullmatch(text):
        if len(text.lstrip("+-")) > MAX_DIGITS:  # read no further: Python refuses ints of 4,300 digits
            return OutOfRange(text)
        value = int(text)
        return value if in_range(value) else OutOfRange(text)
    if _DECIMAL_RE.fullmatch(text) and len(text) <= 2 * MAX_DIGITS:  # 7.5 is exact (dsl/exact.py)
        value = exact(text)
        return value if in_range(value) else OutOfRange(text)
    if _FLOAT_RE.fullmatch(text):
        value = float(text)
        return value if in_range(value) else OutOfRange(text)
    return text


def _yaml_text(value: object) -> str:
    if isinstance(value, bool) or value is None:
        return {True: "true", False: "false", None: "null"}[value]
    return str(value)


def key_identity(value: object) -> tuple[str, object]:
    """What makes two mapping keys equal: type and value (so ``1 != true``)."""
    return (type(value).__name__, value)


def _pos_in(src: str, start_line: int, start_col: int, starts: list[int], idx: int):
    """(line, col) of index ``idx`` of ``src``, which begins at the given position."""
    idx = max(0, min(idx, len(src)))
    k = bisect.bisect_right(starts, idx) - 1
    if k <= 0:
        return start_line, start_col + idx
    return start_line + k, idx - starts[k] + 1


def _line_starts(src: str) -> list[int]:
    return [0, *(m.end() for m in _BREAK_RE.finditer(src))]


@frozen
class ScalarNode:
    """A scalar: ``value`` is typed for plain scalars, ``raw`` is its YAML text.

    ``style`` is one of plain, single, double, literal, folded.  ``source`` is
    the file text the scalar was read from (quotes and block header included).
    """

    value: object
    span: Span
    style: str = "plain"
    raw: str = attrs.field(default=attrs.Factory(lambda s: _yaml_text(s.value), takes_self=True))
    source: str = attrs.field(default="", repr=False, eq=False)
    _cache: list = attrs.field(init=False, factory=list, repr=False, eq=False)

    def position_of(self, offset: int) -> tuple[int, int]:
        """File (line, col) of character ``offset`` of ``raw`` (the value as text).

        >>> node = load_yaml_text("k: |\\n  ab\\n  cd\\n").get("k")
        >>> node.position_of(3)
        (3, 3)
        """
        return self._raw_position(self._raw_index(offset))

    def span_of(self, start: int, end: int) -> Span:
        """The file span of ``raw[start:end]``, for diagnostics inside the text."""
        line, col = self.position_of(start)
        if end <= start:
            return Span(self.span.file, line, col, line, col)
        end_line, end_col = self._raw_position(self._raw_index(end - 1) + 1)
        return Span(self.span.file, line, col, end_line, end_col)

    def _raw_index(self, offset: int) -> int:
        offset = max(0, min(offset, len(self.raw)))
        if not self._cache and len(self.raw) <= _ALIGN_AT_ONCE:
            self._cache.extend((_align(self.raw, self.source, self.style), _line_starts(self.source)))
        if self._cache:
            return self._cache[0][offset]
        # a huge text (refused for its length anyway): align only the prefix that is asked for
        return _align(self.raw[: offset + 1], self.source, self.style)[offset]

    def _raw_position(self, idx: int) -> tuple[int, int]:
        if not self.source:  # a synthesized node: assume the text is verbatim
            return self.span.line, self.span.col + idx
        starts = self._cache[1] if self._cache else _line_starts(self.source)
        return _pos_in(self.source, self.span.line, self.span.col, starts, idx)


@frozen
class MapNode:
    """A mapping with its entries in source order.

    >>> m = load_yaml_text("a: 1\\nb: [x]\\n")
    >>> m.keys(), "b" in m, m.get("zzz") is None
    (['a', 'b'], True, True)
    """

    entries: tuple[tuple[ScalarNode, "Node"], ...]
    span: Span
    _index: dict = attrs.field(init=False, repr=False, eq=False)

    def __attrs_post_init__(self) -> None:
        # Frozen class: set the lookup table once, at construction.
        index = {key_identity(k.value): i for i, (k, _) in enumerate(self.entries)}
        object.__setattr__(self, "_index", index)

    def _find(self, key: object) -> int | None:
        try:
            return self._index.get(key_identity(key))
        except TypeError:  # unhashable lookup key: it cannot be in a YAML mapping
            return None

    def get(self, key: object, default: object = None):
        """The value node for ``key``, or ``default``."""
        i = self._find(key)
        return default if i is None else self.entries[i][1]

    def key_node(self, key: object) -> ScalarNode | None:
        """The key node itself (for diagnostics pointing at the key)."""
        i = self._find(key)
        return None if i is None else self.entries[i][0]

    def keys(self) -> list[object]:
        return [k.value for k, _ in self.entries]

    def values(self) -> list[Node]:
        return [v for _, v in self.entries]

    def items(self) -> list[tuple[object, Node]]:
        return [(k.value, v) for k, v in self.entries]

    def __contains__(self, key: object) -> bool:
        return self._find(key) is not None

    def __len__(self) -> int:
        return len(self.entries)

    def __iter__(self) -> Iterator[object]:
        return iter(self.keys())


@frozen
class SeqNode:
    """A sequence: ``load_yaml_text("a: [1, 2]").get("a").items[1].value == 2``."""

    items: tuple["Node", ...]
    span: Span

    def __len__(self) -> int:
        return len(self.items)

    def __iter__(self) -> Iterator[Node]:
        return iter(self.items)

    def __getitem__(self, i: int) -> Node:
        return self.items[i]


Node = Union[ScalarNode, MapNode, SeqNode]


def _content_start(text: str, src: str, style: str) -> tuple[int, int]:
    """Where the scalar's text starts in ``src``, and its block indentation."""
    if style in ("single", "double"):
        return (1 if src[:1] in ("'", '"') else 0), 0
    m = _BREAK_RE.search(src)
    if style == "plain" or m is None:
        return (0 if style == "plain" else len(src)), 0
    # Block scalar: skip the header line.  The indentation is what the first
    # content line loses, which also covers explicit indicators like `|2`.
    first_src = next((x for x in split_lines(src[m.end() :]) if x.strip()), "")
    first_text = next((x for x in split_lines(text) if x.strip()), "")
    lead = len(first_src) - len(first_src.lstrip(" "))
    indent = max(0, lead - (len(first_text) - len(first_text.lstrip(" "))))
    return _skip_indent(src, m.end(), style, indent), indent


def _skip_indent(src: str, q: int, style: str, indent: int) -> int:
    if style in ("literal", "folded"):
        limit = min(len(src), q + indent)
        while q < limit and src[q] == " ":
            q += 1
        return q
    while q < len(src) and src[q] in " \t":  # flow scalars drop leading blanks of a line
        q += 1
    return q


def _find(src: str, p: int, ch: str, style: str) -> int | None:
    q, limit = p, min(len(src), p + _WINDOW)
    while q < limit:
        c = src[q]
        if style == "double" and c == "\\":
            if q + 1 < len(src) and src[q + 1] in _BREAKS:  # escaped line break: no char
                q = _skip_indent(src, q + 1 + (src.startswith("\r\n", q + 1)) + 1, style, 0)
                continue
            return q  # any other escape yields exactly one value char
        if c == ch or (c in _BREAKS and (ch == "\n" or (ch == " " and style in _FOLDING))):
            return q
        q += 1
    return None


def _after(src: str, q: int, style: str, indent: int) -> int:
    c = src[q]
    if style == "double" and c == "\\":
        return min(len(src), q + _ESCAPE_LEN.get(src[q + 1 : q + 2], 2))
    if c in _BREAKS:
        return _skip_indent(src, q + (2 if src.startswith("\r\n", q) else 1), style, indent)
    return q + 1


#: Texts up to this long are aligned once, char by char, and cached; longer ones
#: (refused for their length anyway) only as far as a diagnostic asks.
_ALIGN_AT_ONCE = 100_000


def _align(text: str, src: str, style: str) -> list[int]:
    """Greedy map from each char of ``text`` (plus its end) to an index in ``src``.

    Folding, indentation, quotes and escapes make the two differ; when the
    model fails on a char it is mapped to the current point, never raised on.
    """
    if not src:
        return list(range(len(text) + 1))
    p, indent = _content_start(text, src, style)
    out = []
    for ch in text:
        q = _find(src, p, ch, style)
        if q is None:
            out.append(min(p, len(src)))
            continue
        out.append(q)
        p = _after(src, q, style, indent)
    out.append(out[-1] + 1 if out else p)
    return out


def to_plain(node: Node | None) -> object:
    """Plain Python data (dicts, lists, scalars) without positions.

    >>> to_plain(load_yaml_text("a: [1, {b: null}]"))
    {'a': [1, {'b': None}]}
    """
    if isinstance(node, MapNode):
        return {k.value: to_plain(v) for k, v in node.entries}
    if isinstance(node, SeqNode):
        return [to_plain(v) for v in node.items]
    return node.value if isinstance(node, ScalarNode) else node


def _line_col(text: str, index: int) -> tuple[int, int]:
    lines = split_lines(text[:index])
    return len(lines), len(lines[-1]) + 1


_NO_KEY = object()
_EMPTY = "the pack is empty; expected a mapping at top level"
_NO_REUSE = "write the value out again; packs do not share YAML nodes"
_PROPERTY_RE = re.compile(r"[&*!][^\s,\[\]{}]*")
_NODE_EVENTS = (yaml.ScalarEvent, yaml.AliasEvent, yaml.MappingStartEvent, yaml.SequenceStartEvent)


class _Frame:
    """An open collection while its events are being read."""

    __slots__ = ("kind", "start", "items", "key", "seen", "last_end")

    def __init__(self, kind: str, start: yaml.Event) -> None:
        self.kind, self.start = kind, start
        self.items: list = []
        self.key: object = _NO_KEY
        self.seen: dict[tuple, ScalarNode] = {}
        self.last_end: tuple[int, int] | None = None


_REPARSE_LIMIT = 200_000  # characters: asking PyYAML's slower parser again stays quick


def _clearer_error(exc, text):
    """PyYAML's own parser words syntax errors better than libyaml: ask it again.

    Not for nesting libyaml refused as too deep (the pure parser would take
    seconds to say the same), nor for long texts.
    """
    if _EVENT_LOADER is yaml.SafeLoader or len(text) > _REPARSE_LIMIT or "nesting depth" in str(exc):
        return exc
    try:
        for _ in yaml.parse(text, Loader=yaml.SafeLoader):
            pass
    except Exception as again:  # noqa: BLE001 - the same error, in better words
        return again
    return exc


#: Texts longer than this have their nodes counted before any is built.
_COUNT_FIRST_ABOVE = 200_000


class _Builder:
    """Turns the event stream into nodes with an explicit stack (no recursion)."""

    def __init__(self, text: str, file: str, sources: SourceStore | None) -> None:
        self.text, self.file, self.sources = text, file, sources
        self.bag = DiagnosticBag()
        self.stack: list[_Frame] = []
        self.root: Node | None = None
        self.documents = 0
        self.nodes = 0

    def build(self, loader=_EVENT_LOADER) -> MapNode:
        if len(self.text) > _COUNT_FIRST_ABOVE:
            self.refuse_too_many_nodes(loader)
        events = yaml.parse(self.text, Loader=loader)
        while True:
            try:
                event = next(events)
            except StopIteration:
                break
            except Exception as exc:  # noqa: BLE001 - no parser exception may escape
                if loader is not yaml.SafeLoader and "nesting depth" in str(exc):
                    # some libyaml builds refuse deep nesting while scanning ahead, before our
                    # own limit is reached: PyYAML's parser streams, so our limit speaks first
                    return _Builder(self.text, self.file, self.sources).build(yaml.SafeLoader)
                self.fatal(_yaml_error(_clearer_error(exc, self.text), self.text, self.file))
            self.feed(event)
        self.bag.raise_if_errors(PackError, self.sources)
        if not isinstance(self.root, MapNode):
            self.fatal(self.diag("E111", _EMPTY, None))
        return self.root

    def refuse_too_many_nodes(self, loader) -> None:
        """Count a large text's nodes before building any: building 50,000 takes seconds."""
        count = 0
        try:
            for event in yaml.parse(self.text, Loader=loader):
                if isinstance(event, yaml.NodeEvent):
                    count += 1
                    if count > MAX_NODES:
                        self.fatal(self.diag("E110", f"too many YAML nodes (limit {MAX_NODES})", event.start_mark))
        except yaml.YAMLError:
            return  # the building pass reports it, with its position

    def fatal(self, diag) -> None:
        self.bag.add(diag)
        self.bag.raise_if_errors(PackError, self.sources)

    def diag(self, code: str, message: str, mark, length: int = 0, **kw):
        line, col = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
        return Diagnostic(code, message, Span(self.file, line, col, line, col + length), **kw)

    def feed(self, event: yaml.Event) -> None:
        if isinstance(event, yaml.DocumentStartEvent):
            self.documents += 1
            if self.documents > 1:
                message = "a pack must be a single YAML document; found a second one"
                self.fatal(self.diag("E112", message, event.start_mark, 3))
        elif isinstance(event, _NODE_EVENTS):
            self.start_node(event)
        elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            self.end_collection(event)

    def start_node(self, event) -> None:
        self.nodes += 1
        if self.nodes > MAX_NODES:
            message = f"too many YAML nodes (limit {MAX_NODES})"
            self.fatal(self.diag("E110", message, event.start_mark))
        if not self.stack and not isinstance(event, yaml.MappingStartEvent):
            self.refuse_top(event)
        if isinstance(event, yaml.AliasEvent):
            self.refuse_property(event, "E106", "alias", _NO_REUSE)
            return self.add(None)
        if event.anchor is not None:
            self.refuse_property(event, "E105", "anchor", _NO_REUSE)
        if event.tag is not None:
            self.refuse_property(event, "E107", "tag", "remove the tag and write the plain value")
        if isinstance(event, yaml.ScalarEvent):
            return self.add(self.scalar(event))
        top = self.stack[-1] if self.stack else None
        if top is not None and top.kind == "map" and top.key is _NO_KEY:
            message = "mapping keys must be plain or quoted scalars"
            self.bag.add(self.diag("E113", message, event.start_mark, 1))
        if len(self.stack) >= MAX_DEPTH:
            message = f"nesting is deeper than {MAX_DEPTH} levels"
            self.fatal(self.diag("E109", message, event.start_mark, 1))
        kind = "map" if isinstance(event, yaml.MappingStartEvent) else "seq"
        self.stack.append(_Frame(kind, event))

    def refuse_top(self, event) -> None:
        if isinstance(event, yaml.ScalarEvent) and event.value == "" and event.style is None:
            message = _EMPTY
        else:
            kinds = {yaml.SequenceStartEvent: "a sequence", yaml.AliasEvent: "an alias"}
            found = kinds.get(type(event), "a scalar")
            message = f"expected a mapping at top level, found {found}"
        self.fatal(self.diag("E111", message, event.start_mark, 1))

    def refuse_property(self, event, code: str, what: str, why: str) -> None:
        # A node may carry both an anchor and a tag: point at this one's sigil
        # (a shift on the mark's own line only, so no rescan of the text).
        mark, sigil = event.start_mark, {"anchor": "&", "alias": "*"}.get(what, "!")
        at = self.text.find(sigil, mark.index, mark.index + 1024)
        shift = at - mark.index if at >= 0 and "\n" not in self.text[mark.index : at] else 0
        m = _PROPERTY_RE.match(self.text, mark.index + shift)
        token = m.group() if m and m.group()[0] == sigil else sigil
        line, col = mark.line + 1, mark.column + 1 + shift
        span = Span(self.file, line, col, line, col + len(token))
        self.bag.error(code, f"{what} `{token}` is not allowed in packs", span, hint=why)

    def scalar(self, event: yaml.ScalarEvent) -> ScalarNode:
        style = _STYLES.get(event.style, "plain")
        value = convert_plain(event.value) if style == "plain" else event.value
        if type(value) is OutOfRange:  # a number too large to be one: kept as its text, refused
            mark = event.start_mark
            span = Span(self.file, mark.line + 1, mark.column + 1, mark.line + 1, mark.column + 1 + len(value))
            self.bag.error("E138", out_of_range_message(value), span)
            value = str(value)
        if type(value) is str and len(value) <= MAX_INTERNED:
            value = sys.intern(value)  # names and kinds: compared by identity all game long
        start, end = event.start_mark, event.end_mark
        src = self.text[start.index : end.index]
        line, col = start.line + 1, start.column + 1
        end_line, end_col = end.line + 1, end.column + 1
        if style in ("literal", "folded"):  # the end mark runs on past trailing blank lines
            end_line, end_col = _pos_in(src, line, col, _line_starts(src), len(src.rstrip()))
        span = Span(self.file, line, col, end_line, end_col)
        return ScalarNode(value, span, style, event.value, src)

    def end_collection(self, event) -> None:
        frame = self.stack.pop()
        start = frame.start.start_mark
        end = (event.end_mark.line + 1, event.end_mark.column + 1)
        if not frame.start.flow_style and frame.last_end is not None:
            end = frame.last_end  # a block collection ends where its last child does
        span = Span(self.file, start.line + 1, start.column + 1, *end)
        items = tuple(frame.items)
        self.add(MapNode(items, span) if frame.kind == "map" else SeqNode(items, span))

    def add(self, node: Node | None) -> None:
        if not self.stack:
            self.root = node
            return
        frame = self.stack[-1]
        if node is not None:
            frame.last_end = (node.span.end_line, node.span.end_col)
        if frame.kind == "seq":
            frame.items.append(node)
        elif frame.key is _NO_KEY:
            frame.key = node
        else:
            key, frame.key = frame.key, _NO_KEY
            if isinstance(key, ScalarNode) and self.unique(frame, key):
                frame.items.append((key, node))

    def unique(self, frame: _Frame, key: ScalarNode) -> bool:
        first = frame.seen.setdefault(key_identity(key.value), key)
        if first is key:
            return True
        note = ((first.span, "first defined here"),)
        self.bag.error("E108", f"duplicate key `{key.raw}`", key.span, notes=note)
        return False


def _yaml_hint(problem: str, text: str, mark) -> str | None:
    """The usual causes behind PyYAML's terse problems, in a designer's words."""
    line = text.splitlines()[mark.line] if mark is not None and mark.line < len(text.splitlines()) else ""
    if "\t" in line[: (mark.column + 1) if mark is not None else 0] or "'\\t'" in problem:
        return "a tab character: indent YAML with spaces only"
    if "mapping values are not allowed" in problem:
        return ("a `: ` inside plain text starts a mapping: put the text in quotes, "
                "or check that this line is indented like its neighbours")
    if "could not find expected ':'" in problem or "expected <block end>" in problem:
        bracketed = re.match(r"^\s*((?:-\s+)?[^\s:#][^:#]*):\s+([\[{].*?)\s*(?:#.*)?$", line)
        if bracketed is not None and mark is not None and mark.column > bracketed.start(2):
            key, value = bracketed.group(1).strip(), bracketed.group(2).replace('"', '\\"')
            return (f"YAML reads a value that starts with `{value[0]}` as a list or a mapping, and text follows "
                    f"it: put the whole rule in quotes, `{key}: \"{value}\"`")
        return "check the indentation of this line against the lines around it"
    return None


def _yaml_error(exc: Exception, text: str, file: str) -> Diagnostic:
    """A Diagnostic for anything PyYAML raised, at its problem mark."""

    def point(mark) -> Span:
        return Span(file, mark.line + 1, mark.column + 1, mark.line + 1, mark.column + 2)

    if isinstance(exc, yaml.MarkedYAMLError) and "nesting depth" in str(exc):
        mark = exc.problem_mark or exc.context_mark
        span = point(mark) if mark is not None else Span.point(file, 1, 1)
        return Diagnostic("E109", f"nesting is deeper than {MAX_DEPTH} levels", span)
    if isinstance(exc, yaml.MarkedYAMLError):
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or exc.context or "invalid YAML"
        notes = []
        if exc.problem and exc.context and exc.context_mark is not None:
            notes.append((point(exc.context_mark), exc.context))
        span = point(mark) if mark is not None else Span.point(file, 1, 1)
        return Diagnostic("E101", f"invalid YAML: {problem}", span, notes=notes, hint=_yaml_hint(problem, text, mark))
    if isinstance(exc, yaml.reader.ReaderError):
        line, col = _line_col(text, exc.position)
        char = exc.character
        shown = f"#x{char:04x}" if isinstance(char, int) else repr(char)
        message = f"invalid YAML: character {shown} is not allowed"
        return Diagnostic("E101", message, Span(file, line, col, line, col + 1))
    return Diagnostic("E101", f"invalid YAML: {exc}", Span.point(file, 1, 1))


def _too_large(file: str, size: int, sources: SourceStore | None):
    message = f"file is too large ({size} bytes; the limit is {MAX_BYTES})"
    raise PackError(message, code="E102", span=Span.point(file, 1, 1), sources=sources)


def _decode(data: bytes, file: str, sources: SourceStore | None) -> str:
    data = data.removeprefix(b"\xef\xbb\xbf")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        prefix = data[: exc.start].decode("utf-8", errors="replace")
        line, col = _line_col(prefix, len(prefix))
        if sources is not None:
            sources.add(file, data.decode("utf-8", errors="replace"))
        message = f"file is not valid UTF-8 (byte 0x{data[exc.start]:02x})"
        span = Span(file, line, col, line, col + 1)
        hint = "save the file as UTF-8"
        raise PackError(message, code="E103", span=span, hint=hint, sources=sources) from None


def load_yaml_text(
    text: str | bytes, file: str = "<string>", sources: SourceStore | None = None
) -> MapNode:
    """Parse a pack's text into a :class:`MapNode`, or raise :class:`PackError`.

    >>> load_yaml_text("a: 1\\na: 2\\n").get("a")
    Traceback (most recent call last):
    ...
    boardrule.dsl.diagnostics.PackError: <string>:2:1: error[E108]: duplicate key `a`
       = note: <string>:1:1: first defined here
    """
    if isinstance(text, (bytes, bytearray)):
        text = _decode(bytes(text), file, sources)
    if not isinstance(text, str):
        raise UsageError(f"expected the text of a pack, got {type(text).__name__}")
    text = text.removeprefix("\ufeff")
    size = len(text)
    if size > MAX_BYTES // 4:  # only then can the UTF-8 form exceed the limit
        size = len(text.encode("utf-8", errors="surrogatepass"))
    if size > MAX_BYTES:
        _too_large(file, size, sources)
    if sources is not None:
        sources.add(file, text)
    return _Builder(text, file, sources).build()


def load_yaml_file(path: str | os.PathLike, sources: SourceStore | None = None) -> MapNode:
    """Read and parse a pack file; its size is checked before it is read.

    >>> load_yaml_file("/no/such.pack")
    Traceback (most recent call last):
    ...
    boardrule.dsl.diagnostics.PackError: error[E104]: cannot read `/no/such.pack`: No such file ...
    """
    file = os.fspath(path)
    buffer = sources.buffer(file) if sources is not None else None
    if buffer is not None:  # an editor's unsaved text of the file
        return load_yaml_text(buffer, file, sources)
    try:
        with open(path, "rb") as fh:
            size = os.fstat(fh.fileno()).st_size
            # Read one byte past the limit: sizes of pipes and /proc files lie.
            data = b"" if size > MAX_BYTES else fh.read(MAX_BYTES + 1)
    except OSError as exc:
        message = f"cannot read `{file}`: {exc.strerror or exc}"
        raise PackError(message, code="E104", sources=sources) from None
    if max(size, len(data)) > MAX_BYTES:
        _too_large(file, max(size, len(data)), sources)
    return load_yaml_text(data, file, sources)
