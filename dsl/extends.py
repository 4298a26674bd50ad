"""Pack composition: ``extends:`` a base pack, override entries, ``remove:`` some.

A pack may name a base with a top-level ``extends:``: a bundled pack name, or
a ``.pack`` file relative to the extending file, inside the checked pack's
folder (or a folder the user allowed; see dsl/packpath.py for what is
refused).  The base is loaded first; then:

* a top-level section that is a mapping in both files is merged entry by
  entry, and the child's entry replaces the base's entry whole;
* any other top-level value (sequence, scalar) replaces the base's whole;
* ``remove:`` lists dotted paths (``section``, ``section.entry`` or
  ``section.entry.field``) deleted from the base before the child's entries
  are added.

Example::

    # base.pack                  # child.pack
    pieces:                      extends: base.pack
      a: {moves: 1}              remove: [pieces.b]
      b: {moves: 2}              pieces:
                                   c: {moves: 3}

gives ``pieces: {a: ..., c: ...}``.  Nodes keep the span of the file they
came from.  Codes: E120 unknown bundled pack, E121 file not found, E122
extends cycle, E123 chain too deep, E124 bad ``extends``, E125 bad
``remove``, E126 ``remove`` path not in the base, E127 ``remove`` or
``override`` without ``extends``, E129 bad ``override``.

A child's ``flow: setup:`` or ``round:`` list replaces the base's whole; in
it, ``- base: NAME`` stands for the base's step that says ``name: NAME``
(E114: no such step, E115: a malformed ``base:`` step), so an extension adds
steps around the base's without copying them.

An entry that replaces a base entry says so: ``override: true`` inside the
entry (when it is a mapping), or its path in a top-level ``override:`` list
(``override: [charts.wells]``, for any entry).  The marks are taken out of
the tree; :class:`Shadow` records let a lint warn about unmarked shadowing.
"""

from __future__ import annotations

import os
from pathlib import Path

from boardrule.dsl.diagnostics import DiagnosticBag, PackError, SourceStore, Span, did_you_mean
from boardrule.dsl.loader import MapNode, Node, ScalarNode, SeqNode, key_identity, load_yaml_file
from boardrule.dsl.packpath import PACK_SUFFIX, allowed_folders, bundled_dir, bundled_pack_names, find_base, find_pack
from boardrule.dsl.records import frozen

__all__ = ["PACK_SUFFIX", "bundled_dir", "bundled_pack_names", "load_pack_tree", "PackTree", "Shadow", "Removal"]

MAX_EXTENDS_DEPTH = 16
_RESERVED = ("extends", "remove", "override")
#: Sections made of named entries: an entry of these may say ``override: true``.
ENTRY_SECTIONS = ("options", "symbols", "records", "pieces", "shapes", "charts", "define", "effects", "vars", "player_vars",
                  "dice", "decks", "actions", "scoring", "status", "player_status")


@frozen
class Shadow:
    """An entry of an extending file named like a base entry, or marked ``override``.

    ``base_key`` is the base's entry it replaces (None: it replaces nothing);
    ``marked`` says whether the file said ``override`` for it.
    """

    section: str
    key: ScalarNode
    base_key: ScalarNode | None
    marked: bool


@frozen
class Removal:
    """An entry a ``remove:`` item took out of the base: ``section.name``, and the item's span."""

    section: str
    name: str
    span: Span


@frozen
class Replacement:
    """An entry that said `replace: true`: the base's fields it left out (`dropped`)."""

    section: str
    name: str
    dropped: tuple
    span: Span
    base_span: Span


@frozen
class PackTree:
    """A merged pack: ``root`` is clean (no ``extends``/``remove`` keys).

    ``files`` lists the files of the chain, base first; ``overridden`` holds
    (child key, base key) pairs for every base entry a child replaced, so a
    lint can warn about shadowing; ``shadows`` holds a :class:`Shadow` for
    each entry that replaces a base entry or says ``override``; ``removed``
    holds a :class:`Removal` for each entry a ``remove:`` took out.
    """

    root: MapNode
    files: tuple[str, ...]
    overridden: tuple[tuple[ScalarNode, ScalarNode], ...] = ()
    shadows: tuple[Shadow, ...] = ()
    removed: tuple[Removal, ...] = ()
    warnings: tuple = ()  # diagnostics of the chain itself (W844)
    inherited_tests: tuple = ()  # the bases' tests (YAML mappings) left after the variant's own and removals
    replaced: tuple = ()  # a Replacement for each entry that said `replace: true` over a base entry


def load_pack_tree(name_or_path: str | os.PathLike, sources: SourceStore | None = None,
                   extends_from: tuple = ()) -> PackTree:
    """Load a pack and every base it extends, merged into one :class:`PackTree`.

    Bases are read only from the pack's own folder, the folders in
    `extends_from` and the bundled packs (packpath.py).

    >>> tree = load_pack_tree("child.pack")  # doctest: +SKIP
    >>> tree.files                            # doctest: +SKIP
    ('base.pack', 'child.pack')
    """
    bag = DiagnosticBag()
    try:
        chain = _load_chain(name_or_path, sources, tuple(extends_from), bag)
    except PackError as exc:
        exc.sources = exc.sources or sources
        raise
    overridden: list[tuple[ScalarNode, ScalarNode]] = []
    shadows: list[Shadow] = []
    removed: list[Removal] = []
    base_file, base_root = chain[-1]
    for word in ("remove", "override"):
        if word in base_root:
            key = base_root.key_node(word)
            bag.error("E127", f"`{word}` needs `extends`: there is no base to {word}", key.span)
    base_root, marks, _ = _take_marks(base_root, bag)
    shadows.extend(Shadow(section, key, None, True) for section, key in marks.values())
    merged = _strip(base_root)
    inherited: tuple = ()
    replaced_all: dict = {}  # (section, entry) -> (the base's entry, the child's) for `replace: true`
    for _file, child in reversed(chain[:-1]):
        child, marks, replaced = _take_marks(child, bag)
        replaced_all.update(_replaced_pairs(merged, child, replaced))
        merged, inherited = _inherit_tests(merged, child, inherited, bag, removed)
        merged = _merge(merged, child, bag, overridden, shadows, marks, removed, replaced)
    bag.raise_if_errors(PackError, sources)
    files = tuple(f for f, _ in reversed(chain))
    warnings = tuple(d for d in bag.sorted() if d.severity == "warning")
    replacements = tuple(_replacements(replaced_all))
    return PackTree(merged, files, tuple(overridden), tuple(shadows), tuple(removed), warnings, inherited,
                    replacements)


def _replaced_pairs(merged: MapNode, child: MapNode, replaced: frozenset) -> dict:
    """For each entry the child replaces whole, the base's entry and the child's, before merging."""
    pairs = {}
    for section, name in replaced:
        base_section, child_section = merged.get(section), child.get(section)
        base_entry = base_section.get(name) if isinstance(base_section, MapNode) else None
        child_entry = child_section.get(name) if isinstance(child_section, MapNode) else None
        if isinstance(base_entry, MapNode) and isinstance(child_entry, MapNode):
            pairs[(section, name)] = (base_section.key_node(name), base_entry, child_section.key_node(name),
                                      child_entry)
    return pairs


def _replacements(replaced: dict):
    for (section, name), (base_key, base_entry, key, entry) in replaced.items():
        kept = {key_identity(k.value) for k, _ in entry.entries}
        dropped = tuple(str(k.raw) for k, _ in base_entry.entries if key_identity(k.value) not in kept)
        yield Replacement(section, name, dropped, key.span, base_key.span)


def _test_name(test: Node):
    name = test.get("name") if isinstance(test, MapNode) else None
    return name.value if isinstance(name, ScalarNode) else None


def _inherit_tests(merged: MapNode, child: MapNode, inherited: tuple, bag: DiagnosticBag,
                   removed: list) -> tuple[MapNode, tuple]:
    """The base's tests leave its tree and join those it inherited: a variant's `tests:` are its
    own, and the base's run against it apart (interpreter/designer/check.py). A test of the variant
    named like a base test replaces it; `remove: [tests.NAME]` drops one, `remove: [tests]` all."""
    own = merged.get("tests")
    tests = tuple(inherited) + (tuple(own.items) if isinstance(own, SeqNode) else ())
    replaced = {_test_name(t) for t in child.get("tests").items} if isinstance(child.get("tests"), SeqNode) else set()
    dropped = set()
    removes = child.get("remove")
    for item in removes.items if isinstance(removes, SeqNode) else ():
        if isinstance(item, ScalarNode) and item.value == "tests":  # every base test: the variant's replace them
            dropped.update(_test_name(t) for t in tests)
            removed.append(Removal("tests", "", item.span))
            continue
        if isinstance(item, ScalarNode) and isinstance(item.value, str) and item.value.startswith("tests."):
            name = item.value[len("tests."):]
            names = [_test_name(t) for t in tests]
            if name not in names:
                _missing(bag, item, len("tests."), name, [n for n in names if n], "the base has no test named")
                continue
            dropped.add(name)
            removed.append(Removal("tests", name, item.span))
    kept = tuple(t for t in tests if _test_name(t) not in replaced | dropped)
    return MapNode(tuple((k, v) for k, v in merged.entries if k.value != "tests"), merged.span), kept


def _load_chain(name_or_path, sources, extends_from: tuple, bag: DiagnosticBag) -> list[tuple[str, MapNode]]:
    """The files of the extends chain, child first."""
    chain: list[tuple[str, MapNode]] = []
    seen: list[Path] = []
    path, span = find_pack(name_or_path).path, None
    roots = (path.parent, *allowed_folders(extends_from))
    while True:
        real = path.resolve()
        if real in seen:
            names = [p.name for p in seen[seen.index(real) :]] + [real.name]
            raise PackError(f"extends cycle: {' -> '.join(names)}", code="E122", span=span)
        if len(seen) > MAX_EXTENDS_DEPTH:
            message = f"extends chain is longer than {MAX_EXTENDS_DEPTH} packs"
            raise PackError(message, code="E123", span=span)
        seen.append(real)
        root = load_yaml_file(path, sources)
        chain.append((os.fspath(path), root))
        ext = root.get("extends")
        if ext is None and "extends" not in root:
            return chain
        span = ext.span if ext is not None else root.key_node("extends").span
        if not isinstance(ext, ScalarNode) or not isinstance(ext.value, str):
            raise PackError("`extends` must be a pack name or a path", code="E124", span=span)
        found = find_base(ext.value, path, roots, span=span)
        if found.note is not None:
            stem = found.path.stem
            bag.warning("W844", found.note, span, hint=f"write `extends: {stem}` to mean the bundled pack")
        path = found.path


def _strip(root: MapNode) -> MapNode:
    entries = tuple((k, v) for k, v in root.entries if k.value not in _RESERVED)
    return MapNode(entries, root.span)


def _merge(base: MapNode, child: MapNode, bag: DiagnosticBag, overridden: list, shadows: list | None = None,
           marks: dict | None = None, removed: list | None = None, replaced: frozenset = frozenset()) -> MapNode:
    """Apply ``child`` (its ``remove`` first, then its entries) on top of ``base``."""
    shadows = shadows if shadows is not None else []
    removed = removed if removed is not None else []
    marks = marks or {}
    table = {key_identity(k.value): (k, v) for k, v in base.entries}
    if "remove" in child:
        _apply_removes(table, child.get("remove"), child.key_node("remove"), bag, removed)
    for key, node in child.entries:
        if key.value in _RESERVED:
            continue
        ident = key_identity(key.value)
        if ident not in table:
            table[ident] = (key, node)
            if isinstance(node, MapNode):  # a new section: its marked entries replace nothing
                shadows.extend(Shadow(str(key.raw), k, None, True) for k, _ in node.entries
                               if (str(key.raw), str(k.raw)) in marks)
            continue
        base_key, base_node = table[ident]
        if isinstance(base_node, MapNode) and isinstance(node, MapNode):
            if key.value == "flow":
                node = _resolve_base_steps(base_node, node, bag)
            table[ident] = (key, _merge_section(base_node, node, overridden, shadows, str(key.raw), marks,
                                                replaced))
        else:
            overridden.append((key, base_key))
            shadows.append(Shadow(str(key.raw), key, base_key, False))
            table[ident] = (key, node)
    return MapNode(tuple(table.values()), child.span)


FLOW_LISTS = ("setup", "round")


def _resolve_base_steps(base_flow: MapNode, child_flow: MapNode, bag: DiagnosticBag) -> MapNode:
    """The child's flow with every ``- base: NAME`` step replaced by the base's step named NAME.

    A step of the base's ``setup`` or ``round`` list is named by its ``name:``
    key; the step taken keeps its text and spans in the base file, so its
    diagnostics point there.  E114: no base step of that name; E115: a
    ``base:`` step with other keys, or a name that is not a word.
    """
    named: dict = {}
    for part in FLOW_LISTS:
        steps = base_flow.get(part)
        for item in steps.items if isinstance(steps, SeqNode) else ():
            name = item.get("name") if isinstance(item, MapNode) else None
            if isinstance(name, ScalarNode) and isinstance(name.value, str):
                named.setdefault(name.value, item)
    entries = []
    for key, node in child_flow.entries:
        if key.value in FLOW_LISTS and isinstance(node, SeqNode):
            node = SeqNode(tuple(_base_step(item, named, bag) for item in node.items), node.span)
        entries.append((key, node))
    return MapNode(tuple(entries), child_flow.span)


def _base_step(item: Node, named: dict, bag: DiagnosticBag) -> Node:
    if not isinstance(item, MapNode) or "base" not in item:
        return item
    ref = item.get("base")
    others = [k for k, _ in item.entries if k.value != "base"]
    if others:
        bag.error("E115", f"a `base:` step takes the base's step as it is: `{others[0].raw}` is not allowed "
                  "beside `base`", others[0].span,
                  hint="to change a base step, write the whole step here instead of `base:`")
        return item
    if not isinstance(ref, ScalarNode) or not isinstance(ref.value, str) or not ref.value.strip():
        span = ref.span if ref is not None else item.span
        bag.error("E115", "`base:` names a step of the base pack: `- base: NAME`", span)
        return item
    found = named.get(ref.value)
    if found is None:
        listing = ", ".join(named) if named else "none: give the base's steps a `name:`"
        bag.error("E114", f"the base pack has no flow step named `{ref.value}` (named steps: {listing})",
                  ref.span, hint=did_you_mean(ref.value, list(named)))
        return item
    return found


#: fields of a settings section whose mappings are named entries: they merge by key too
NAMED_FIELDS = {("board", "regions"), ("doc", "scoring")}


def _merge_section(base: MapNode, child: MapNode, overridden: list, shadows: list | None = None,
                   section: str = "", marks: dict | None = None, replaced: frozenset = frozenset()) -> MapNode:
    """One level down: an entry the child names changes the fields it names and keeps the
    base's others (both mappings), unless it says `replace: true`; any other value replaces
    the base's whole. In a settings section (`board`, `game`), a field in NAMED_FIELDS
    merges by key."""
    shadows = shadows if shadows is not None else []
    marks = marks or {}
    table = {key_identity(entry_name(section, k)): (k, v) for k, v in base.entries}
    for key, node in child.entries:
        ident = key_identity(entry_name(section, key))
        marked = (section, str(key.raw)) in marks
        if ident in table:
            base_key, base_node = table[ident]
            overridden.append((key, base_key))
            shadows.append(Shadow(section, key, base_key, marked))
            node = _merged_value(section, key, base_node, node, replaced)
        elif marked:
            shadows.append(Shadow(section, key, None, True))
        table[ident] = (key, node)
    return MapNode(tuple(table.values()), child.span)


def _merged_value(section: str, key: ScalarNode, base: Node, child: Node, replaced: frozenset) -> Node:
    """What a child's entry (or settings field) becomes over the base's."""
    if not isinstance(base, MapNode) or not isinstance(child, MapNode) or (section, str(key.raw)) in replaced:
        return child
    if section in ENTRY_SECTIONS or (section, str(key.raw)) in NAMED_FIELDS:
        return _merge_fields(base, child)
    return child


def _merge_fields(base: MapNode, child: MapNode) -> MapNode:
    """The base's fields with the child's in their place, then the child's new ones."""
    mine = {key_identity(k.value): (k, v) for k, v in child.entries}
    entries = [mine.pop(key_identity(k.value), (k, v)) for k, v in base.entries]
    return MapNode(tuple(entries) + tuple(mine.values()), child.span)


def entry_name(section: str, key: ScalarNode) -> object:
    """What names an entry: its key, except that a definition ``near(c, k)`` is named ``near``.

    So an extension replaces a base definition whatever it calls the
    parameters, and ``override:`` or ``remove:`` may write ``define.near``.
    """
    if section in ("define", "effects") and isinstance(key.value, str) and "(" in key.value:
        return key.value.split("(", 1)[0].strip()
    return key.value


def _entry_names(section: str, sec_node: Node | None) -> dict:
    """The entries of a section by the names a dotted path may give them (a definition: also by its name alone)."""
    if not isinstance(sec_node, MapNode):
        return {}
    names = {str(k.raw): k for k, _ in sec_node.entries}
    for key, _ in sec_node.entries:
        names.setdefault(str(entry_name(section, key)), key)
    return names


def _take_marks(root: MapNode, bag: DiagnosticBag) -> tuple[MapNode, dict]:
    """Take the ``override`` marks out of one file's tree.

    Returns the tree without them and ``{(section, entry): (section, key node)}``
    for every entry marked, inside the entry (``override: true``) or in the
    top-level ``override:`` list.
    """
    marks: dict = {}
    replaced: set = set()
    entries = []
    for sec_key, sec_node in root.entries:
        section = str(sec_key.raw)
        if section in ENTRY_SECTIONS and isinstance(sec_node, MapNode):
            sec_node = _take_entry_marks(section, sec_node, marks, bag, replaced)
        entries.append((sec_key, sec_node))
    root = MapNode(tuple(entries), root.span)
    listed = root.get("override")
    if "override" in root:
        _take_listed_marks(root, listed, root.key_node("override"), marks, bag)
    return root, marks, frozenset(replaced)


def _take_entry_marks(section: str, sec_node: MapNode, marks: dict, bag: DiagnosticBag,
                      replaced: set) -> MapNode:
    """Take `override: true` and `replace: true` out of each entry of a section; `replace`
    (the entry stands alone, nothing of the base's is kept) says `override` too."""
    entries = []
    for key, node in sec_node.entries:
        for word in ("override", "replace"):
            if not isinstance(node, MapNode) or word not in node:
                continue
            flag = node.get(word)
            if not isinstance(flag, ScalarNode) or not isinstance(flag.value, bool):
                span = flag.span if flag is not None else node.key_node(word).span
                bag.error("E129", f"`{word}` is true or false", span)
            elif flag.value:
                marks[(section, str(key.raw))] = (section, key)
                if word == "replace":
                    replaced.add((section, str(key.raw)))
            node = MapNode(tuple((k, v) for k, v in node.entries if k.value != word), node.span)
        entries.append((key, node))
    return MapNode(tuple(entries), sec_node.span)


def _take_listed_marks(root: MapNode, listed: Node | None, key: ScalarNode, marks: dict,
                       bag: DiagnosticBag) -> None:
    if not isinstance(listed, SeqNode):
        span = listed.span if listed is not None else key.span
        bag.error("E129", "`override` must be a list of dotted paths like `section.entry`", span)
        return
    for item in listed.items:
        parts = item.value.split(".", 1) if isinstance(item, ScalarNode) and isinstance(item.value, str) else []
        if len(parts) != 2 or not all(parts):
            bag.error("E129", "each `override` item is a `section.entry` path", item.span)
            continue
        section, name = parts
        sec_node = root.get(section)
        names = _entry_names(section, sec_node)
        if name not in names:
            bag.error("E129", f"`override` names `{item.value}`, but this file has no such entry", item.span,
                      hint=did_you_mean(name, names) if names else None)
            continue
        marks[(section, str(names[name].raw))] = (section, names[name])


def _apply_removes(table: dict, removes: Node | None, key: ScalarNode, bag: DiagnosticBag, removed: list) -> None:
    if not isinstance(removes, SeqNode):
        span = removes.span if removes is not None else key.span
        bag.error("E125", "`remove` must be a list of dotted paths like `section.entry`", span)
        return
    for item in removes.items:
        if not isinstance(item, ScalarNode) or not isinstance(item.value, str):
            bag.error("E125", "each `remove` item must be a dotted path string", item.span)
            continue
        if item.value == "tests" or item.value.startswith("tests."):
            continue  # base tests (all, or one by name): _inherit_tests drops them
        _remove_one(table, item, bag, removed)


def _remove_one(table: dict, item: ScalarNode, bag: DiagnosticBag, removed: list) -> None:
    parts = item.value.split(".")
    if len(parts) > 3 or not all(parts):
        bag.error("E125", f"`{item.value}` is not a `section`, `section.entry` or `section.entry.field` path",
                  item.span)
        return
    by_name = {str(k.raw): ident for ident, (k, _) in table.items()}
    section = parts[0]
    if section not in by_name:
        _missing(bag, item, 0, section, by_name, "the base has no section")
        return
    if len(parts) == 1:
        del table[by_name[section]]
        return
    sec_key, sec_node = table[by_name[section]]
    names = _entry_names(section, sec_node)
    if parts[1] not in names:
        what = f"section `{section}` of the base has no entry"
        _missing(bag, item, len(section) + 1, parts[1], names, what)
        return
    gone = key_identity(names[parts[1]].value)
    if len(parts) == 3:  # one field of an entry: a card of a deck, a key of a mapping
        table[by_name[section]] = (sec_key, _without_field(sec_node, gone, item, bag))
        return
    kept = tuple((k, v) for k, v in sec_node.entries if key_identity(k.value) != gone)
    table[by_name[section]] = (sec_key, MapNode(kept, sec_node.span))
    removed.append(Removal(section, parts[1], item.span))


def _without_field(sec_node: MapNode, entry: object, item: ScalarNode, bag: DiagnosticBag) -> MapNode:
    """The section with field `section.entry.FIELD` (the last part of `item`) taken out of the entry."""
    section, name, field = item.value.split(".")
    entries = []
    for key, node in sec_node.entries:
        if key_identity(key.value) == entry:
            fields = {str(k.raw): k for k, _ in node.entries} if isinstance(node, MapNode) else {}
            if field not in fields:
                what = f"`{section}.{name}` of the base has no field"
                _missing(bag, item, len(section) + len(name) + 2, field, fields, what)
                return sec_node
            node = MapNode(tuple((k, v) for k, v in node.entries if str(k.raw) != field), node.span)
        entries.append((key, node))
    return MapNode(tuple(entries), sec_node.span)


def _missing(bag: DiagnosticBag, item: ScalarNode, start: int, name: str, pool, what: str) -> None:
    # Point at the offending part of the dotted path, not the whole string.
    span = item.span_of(start, start + len(name))
    message = f"cannot remove `{item.value}`: {what} `{name}`"
    bag.error("E126", message, span, hint=did_you_mean(name, pool))
