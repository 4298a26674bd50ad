"""What a name at a place in a pack refers to: hover text, definitions, completions.

The language knowledge of an editor (the language server, cli/lsp.py, is only
the protocol around it). A :class:`PackView` is read leniently: a pack with
errors still gives what could be read, so that an editor keeps answering while
the designer types.

    >>> view = read_view(bundled_dir() / "tictactoe.pack")
    >>> ref = view.reference_at(32, 12)            # `fits` in `won(p): fits(line, ...)`
    >>> ref.kind, ref.name
    ('function', 'fits')
    >>> view.definition_at(32, 17).line            # `line`: the shape's key
    21

Positions are 1-based lines and columns, as in :class:`Span`.
"""

from __future__ import annotations

import os
import re

import attrs

from boardrule.dsl.builtins import AGGREGATES, CELL_PROPERTIES, FUNCTIONS, PLAYER_PROPERTIES, VALUES
from boardrule.dsl.check_sections import check_pack
from boardrule.dsl.diagnostics import BoardruleError, DiagnosticBag, SourceStore, Span
from boardrule.dsl.extends import ENTRY_SECTIONS, load_pack_tree
from boardrule.dsl.langdocs import builtin_docs
from boardrule.dsl.loader import MapNode, ScalarNode, load_yaml_text
from boardrule.dsl.packpath import bundled_dir
from boardrule.dsl.sections import read_pack
from boardrule.dsl.symbols import SymbolTable, build_symbols

__all__ = ["PackView", "Reference", "Completion", "read_view", "shown_home", "extends_value", "bundled_dir"]

MAX_SOURCE_LINES = 12  # an entry's source shown in a hover, at most
#: resolutions whose definition is a declaration of the pack (SymbolTable.declared)
DECLARED = frozenset({"symbol", "shape", "family", "region", "global", "player_var", "option", "die", "deck",
                      "symset", "define", "record", "record_kind"})
#: the top-level sections whose keys name something (an entry of `board.regions` too)
NAMED_SECTIONS = tuple(s for s in ENTRY_SECTIONS if s not in ("scoring", "status", "player_status"))
_WORD_BEFORE = re.compile(r"(\.?)([A-Za-z_][A-Za-z0-9_]*)?$")
_STEP_ACTIONS = re.compile(r"\b(turns|together|decide):\s*\[[^\]]*$")  # inside `turns: [...`


@attrs.frozen
class Reference:
    """A name written in a pack: where (`span`, the name alone), what kind of thing, which."""

    span: Span
    kind: str  # the kind of the checker's resolution (`define`, `function`, `prop`...), `action` or `entry`
    name: str
    node: object = None  # the AST node (its type is in Checked.types), or the YAML key of an entry
    section: str = ""  # for an entry: its section


@attrs.frozen
class Completion:
    label: str
    kind: str  # function, variable, constant, property, value
    detail: str


def _contains(span: Span, line: int, col: int) -> bool:
    if (line, col) < (span.line, span.col):
        return False
    return (line, col) < (span.end_line, span.end_col) or (line, col) == (span.end_line, span.end_col)


def _size(span: Span) -> tuple:
    return (span.end_line - span.line, span.end_col - span.col if span.end_line == span.line else 10**6)


def _name_span(node, name: str) -> Span:
    """The span of the name itself: a call's function name leads, an attribute's name ends it."""
    span = node.span
    if hasattr(node, "func"):
        return Span(span.file, span.line, span.col, span.line, span.col + len(name))
    if hasattr(node, "obj") or getattr(node, "owner", None):
        return Span(span.file, span.end_line, max(span.end_col - len(name), 1), span.end_line, span.end_col)
    return span


def _node_name(node) -> str | None:
    for field in ("id", "func", "name"):
        value = getattr(node, field, None)
        if isinstance(value, str):
            return value
    return None


def read_view(path, sources: SourceStore | None = None, extends_from: tuple = ()) -> PackView | None:
    """The pack at `path` as far as it can be read (None: its YAML itself does not parse).

    Unlike dsl.pack.load_pack, errors do not stop it: the declarations are read and
    checked all the same, and what the checker resolved is kept."""
    sources = sources if sources is not None else SourceStore()
    try:
        tree = load_pack_tree(path, sources, extends_from)
    except BoardruleError:
        return None
    bag = DiagnosticBag()
    model = read_pack(tree.root, bag, tree.files, tree.inherited_tests)
    try:
        checked = check_pack(model, bag, tree.removed)
        symbols, resolved = checked.symbols, checked.resolved
        types = checked.types
    except Exception:  # noqa: BLE001 - a pack with errors may hold parts the checker never sees
        symbols, resolved, types = _declarations(model), {}, {}
    return PackView(tree, model, symbols, resolved, types, sources)


def extends_value(file: str, sources: SourceStore):
    """The node of a pack file's own `extends:` value (a merged tree has none), or None."""
    text = sources.text(file)
    if text is None:
        return None
    try:
        root = load_yaml_text(text, file)
    except BoardruleError:
        return None
    node = root.get("extends")
    return node if isinstance(node, ScalarNode) else None


def shown_home(diagnostics, home: str, sources: SourceStore) -> list:
    """The diagnostics that lie in the bases a variant extends, as the variant's own file shows
    them: at the variant's change that a note names (a removal, a replaced entry), else at its
    `extends:` value; one per cause (the same code and message at the same place), with a note
    at every place in the bases it stands for. Diagnostics in `home` itself are left out."""
    home = os.path.abspath(home)
    extends = extends_value(home, sources)
    shown: dict = {}
    for diag in diagnostics:
        if diag.span is None or os.path.abspath(diag.span.file) == home:
            continue
        own = [span for span, _ in diag.notes if span is not None and os.path.abspath(span.file) == home]
        place = own[0] if own else (extends.span if extends is not None else None)
        if place is None:
            continue
        key = (diag.code, diag.message, place)
        where = (diag.span, f"in `{os.path.basename(diag.span.file)}`, line {diag.span.line}")
        if key in shown:
            shown[key] = attrs.evolve(shown[key], notes=shown[key].notes + (where,))
            continue
        notes = tuple(n for n in diag.notes if n[0] != place)
        shown[key] = attrs.evolve(diag, span=place, notes=(where,) + notes)
    return list(shown.values())


def shown_in_bases(diag, home: str) -> list:
    """For an error of `home` (a variant) that shows in the bases it extends (check's notes
    `it shows in ... here`), the same error at each of those places, with a note back at its cause."""
    home = os.path.abspath(home)
    if diag.span is None or os.path.abspath(diag.span.file) != home:
        return []
    cause = (diag.span, "caused here")
    return [attrs.evolve(diag, span=span, notes=(cause,)) for span, text in diag.notes
            if span is not None and os.path.abspath(span.file) != home and text.startswith("it shows in")]


def _declarations(model) -> SymbolTable:
    try:
        return build_symbols(model, DiagnosticBag())
    except Exception:  # noqa: BLE001 - see read_view
        return SymbolTable()


class PackView:
    """One pack as an editor sees it: its references by place, and what each refers to."""

    def __init__(self, tree, model, symbols: SymbolTable, resolved: dict, types: dict, sources: SourceStore):
        self.tree, self.model, self.symbols, self.types, self.sources = tree, model, symbols, types, sources
        self.references = self._collect(resolved)

    # ------------------------------------------------------------ references
    def _collect(self, resolved: dict) -> list:
        found = []
        for node, resolution in resolved.items():
            name = resolution.name if isinstance(resolution.name, str) else _node_name(node)
            if name is not None and getattr(node, "span", None) is not None:
                found.append(Reference(_name_span(node, name), resolution.kind, name, node))
        for step in self.model.flow.setup + self.model.flow.round:
            for name, span in step.actions:
                if span is not None:
                    found.append(Reference(span, "action", name))
        for section, key, _ in self.entries():
            found.append(Reference(key.span, "entry", self._entry_name(section, key), key, section))
        base = self._extends_value()
        if base is not None and len(self.tree.files) > 1:
            found.append(Reference(base.span, "extends", self.tree.files[-2]))
        return found

    def _extends_value(self):
        return extends_value(self.home, self.sources)

    def entries(self):
        """(section, key node, value node) for every named entry of the merged pack."""
        root = self.tree.root
        for section in NAMED_SECTIONS:
            node = root.get(section)
            if isinstance(node, MapNode):
                for key, value in node.entries:
                    yield section, key, value
        board = root.get("board")
        regions = board.get("regions") if isinstance(board, MapNode) else None
        if isinstance(regions, MapNode):
            for key, value in regions.entries:
                yield "regions", key, value

    @staticmethod
    def _entry_name(section: str, key: ScalarNode) -> str:
        text = str(key.value)
        return text.split("(", 1)[0].strip() if section == "define" else text

    def reference_at(self, file_or_line, line: int | None = None, col: int | None = None) -> Reference | None:
        """The reference at a place: `reference_at(line, col)` in the pack's own file, or
        `reference_at(file, line, col)`. The innermost one wins."""
        if line is None or col is None:
            file, line, col = self.home, file_or_line, line
        else:
            file = file_or_line
        hits = [r for r in self.references if r.span.file == file and _contains(r.span, line, col)]
        return min(hits, key=lambda r: _size(r.span)) if hits else None

    @property
    def home(self) -> str:
        """The pack's own file (the others are the bases it extends)."""
        return self.tree.files[-1]

    # ------------------------------------------------------------ definitions
    def definition(self, ref: Reference) -> Span | None:
        """Where the thing a reference names is declared: a definition, a piece, a shape,
        a region...; for an entry that replaces a base entry, the base's entry."""
        if ref.kind == "extends":  # the base pack's file
            return Span.point(ref.name, 1, 1)
        if ref.kind == "entry":
            for shadow in self.tree.shadows:
                if shadow.base_key is not None and shadow.key.span == ref.span:
                    return shadow.base_key.span
            return None
        if ref.kind in DECLARED or (ref.kind == "attr" and ref.name in self.symbols.player_vars):
            declared = self.symbols.declared.get(ref.name)
            return declared[1] if declared is not None else None
        if ref.kind == "action" and ref.name in self.symbols.actions:
            return self.symbols.actions[ref.name].span
        if ref.kind == "rule" and self.symbols.rules.get(ref.name):
            return self.symbols.rules[ref.name][0][1].span
        return None

    def definition_at(self, *where) -> Span | None:
        ref = self.reference_at(*where)
        return self.definition(ref) if ref is not None else None

    # ------------------------------------------------------------ hover
    def hover_at(self, *where) -> str | None:
        """Markdown about the name at a place, or None."""
        ref = self.reference_at(*where)
        return self.hover(ref) if ref is not None else None

    def hover(self, ref: Reference) -> str | None:
        kind, name = ref.kind, ref.name
        if kind == "entry":
            return self._entry_hover(ref.section, name)
        if kind == "extends":
            return f"**extends** `{name}`: this pack is that pack with the changes written here"
        if kind == "function":
            signature = FUNCTIONS[name]
            return _builtin(f"{name}({', '.join(str(p) for p in signature.params)})", signature.doc, name)
        if kind == "aggregate" or kind == "pairwise":
            return _builtin(f"{name}(LIST[, BODY])", AGGREGATES.get(name, ("", ""))[1], name)
        if kind == "value":
            return _builtin(name, VALUES[name][1], name)
        if kind in ("prop", "attr") and name in CELL_PROPERTIES:
            return _builtin(f"CELL.{name}", CELL_PROPERTIES[name][1], name)
        if kind == "player_prop" and name in PLAYER_PROPERTIES:
            return _builtin(f"PLAYER.{name}", PLAYER_PROPERTIES[name][1], name)
        if kind == "relative":
            return _builtin(name, FUNCTIONS[name].doc + " (of `it`, or `self`)", name)
        if kind == "direction":
            return _builtin(name, "a direction of the board's grid", "directions")
        if kind in ("prop", "attr") and name in self.symbols.piece_attributes:
            owners = [p.name for p in self.model.pieces if name in p.attributes or name in p.variable]
            return f"**{name}**: attribute of the pieces {', '.join(f'`{o}`' for o in owners)}" + self._type(ref)
        if kind == "local":
            return f"**{name}**: a local name (a parameter or a loop's name)" + self._type(ref)
        section = _SECTION_OF.get(kind)
        if kind == "symbol" and name in self.symbols.kinds:
            section = "pieces"
        if kind == "attr" and name in self.symbols.player_vars:
            section = "player_vars"
        if section is not None:
            return self._entry_hover(section, name)
        if kind == "action":
            return self._entry_hover("actions", name)
        return f"**{name}** ({kind})" + self._type(ref)

    def _type(self, ref: Reference) -> str:
        t = self.types.get(ref.node) if ref.node is not None else None
        return f"\n\ntype: {t}" if t is not None else ""

    def _entry_hover(self, section: str, name: str) -> str:
        what = _WHAT.get(section, section)
        head = f"**{name}**: {what}"
        doc = self._doc(section, name)
        source = self._entry_source(section, name)
        parts = [head] + ([doc] if doc else []) + ([f"```yaml\n{source}\n```"] if source else [])
        declared = self.symbols.declared.get(name)
        if declared is not None and declared[1] is not None and declared[1].file != self.home:
            parts.append(f"from `{declared[1].file.rsplit('/', 1)[-1]}`")
        return "\n\n".join(parts)

    def _doc(self, section: str, name: str) -> str:
        table = {"pieces": self.model.pieces, "actions": self.model.actions, "options": self.model.options}
        for entry in table.get(section, ()):
            if entry.name == name and getattr(entry, "doc", ""):
                return entry.doc.strip()
        return ""

    def _entry_source(self, section: str, name: str) -> str:
        for sec, key, value in self.entries():
            if sec == section and self._entry_name(sec, key) == name:
                end = min(getattr(value, "span", key.span).end_line, key.span.line + MAX_SOURCE_LINES - 1)
                lines = [self.sources.line(key.span.file, n) for n in range(key.span.line, end + 1)]
                lines = [ln for ln in lines if ln is not None]
                written = [ln for ln in lines if ln.strip()]
                if written:
                    indent = min(len(ln) - len(ln.lstrip()) for ln in written)
                    return "\n".join(ln[indent:].rstrip() for ln in lines).strip("\n")
        return ""

    # ------------------------------------------------------------ completion
    def completions(self, line: int, col: int, text_before: str) -> list:
        """The names that may be written at a place, given the line's text before the cursor:
        inside a flow step's `turns: [...]`, the actions; after a `.`, attributes; else the pack's
        names, the built-ins and the parameters of the definition the place lies in. Only those
        that start with the word being typed."""
        match = _WORD_BEFORE.search(text_before)
        dotted, prefix = bool(match.group(1)), match.group(2) or ""
        if _STEP_ACTIONS.search(text_before):  # a flow step's list of actions: the pack's actions
            found = {name: Completion(name, "function", f"action: {action.doc or action.label or name}")
                     for name, action in self.symbols.actions.items()}
        else:
            found = self._attribute_names() if dotted else self._names_at(line, col)
        return sorted((c for c in found.values() if c.label.startswith(prefix)), key=lambda c: c.label)

    def _attribute_names(self) -> dict:
        found = {}
        for name, (_t, doc) in PLAYER_PROPERTIES.items():
            found[name] = Completion(name, "property", f"player: {doc}")
        for name, (_t, doc) in CELL_PROPERTIES.items():
            found.setdefault(name, Completion(name, "property", f"cell: {doc}"))
        for name in self.symbols.player_vars:
            found[name] = Completion(name, "variable", "player variable")
        for name in self.symbols.piece_attributes:
            found.setdefault(name, Completion(name, "property", "piece attribute"))
        for name in self.symbols.marks:
            found.setdefault(name, Completion(name, "property", "mark"))
        for name in self.symbols.rules:
            found.setdefault(name, Completion(name, "property", "piece rule"))
        return found

    def _names_at(self, line: int, col: int) -> dict:
        found = {}
        s = self.symbols
        for name, define in s.defines.items():
            label = f"{name}({', '.join(define.params)})" if define.params else name
            found[name] = Completion(name, "function" if define.params else "variable", f"definition {label}")
        for table, kind, what in ((s.vars, "variable", "global variable"),
                                  (s.player_vars, "variable", "player variable"),
                                  (s.options, "constant", "option"), (s.regions, "constant", "region"),
                                  (s.dice, "variable", "die"), (s.decks, "variable", "deck"),
                                  (s.shapes, "constant", "shape"), (s.families, "function", "shape family"),
                                  (s.symbol_sets, "constant", "symbol list"), (s.kinds, "value", "piece kind")):
            for name in table:
                found.setdefault(name, Completion(name, kind, what))
        for name in s.symbols:
            found.setdefault(name, Completion(name, "value", "symbol"))
        for name in s.directions:
            found.setdefault(name, Completion(name, "value", "direction"))
        for name, signature in FUNCTIONS.items():
            found.setdefault(name, Completion(name, "function", signature.doc))
        for name, (_t, doc) in AGGREGATES.items():
            found.setdefault(name, Completion(name, "function", doc))
        for name, (_t, doc) in VALUES.items():
            found.setdefault(name, Completion(name, "constant", doc))
        for name, (_t, doc) in CELL_PROPERTIES.items():
            found.setdefault(name, Completion(name, "property", f"cell: {doc}"))
        for name in list(s.piece_attributes) + list(s.marks):
            found.setdefault(name, Completion(name, "property", "of the cell looked at"))
        for param in self._params_at(line, col):
            found[param] = Completion(param, "variable", "parameter")
        return found

    def _params_at(self, line: int, col: int) -> tuple:
        """The parameters of the definition whose entry holds the place."""
        for section, key, value in self.entries():
            if section != "define" or key.span.file != self.home:
                continue
            end = getattr(value, "span", key.span)
            if key.span.line <= line <= end.end_line:
                define = self.symbols.defines.get(self._entry_name(section, key))
                return define.params if define is not None else ()
        return ()


_SECTION_OF = {"define": "define", "shape": "shapes", "family": "shapes", "region": "regions",
               "global": "vars", "player_var": "player_vars", "option": "options", "die": "dice",
               "deck": "decks", "symset": "symbols"}
_WHAT = {"define": "definition", "shapes": "shape", "regions": "region of the board", "vars": "global variable",
         "player_vars": "player variable", "options": "option", "dice": "die", "decks": "deck",
         "symbols": "symbol list", "pieces": "piece kind", "actions": "action", "charts": "chart",
         "scoring": "scoring term"}


def _builtin(signature: str, doc: str, name: str) -> str:
    parts = [f"**{signature}** (built in)", doc]
    manual = builtin_docs(name)
    if manual:
        parts.append(manual)
    return "\n\n".join(p for p in parts if p)
