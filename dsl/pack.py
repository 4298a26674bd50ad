"""The front door of the language: load, read, check a pack.

    >>> from boardrule.dsl.pack import load_pack
    >>> pack = load_pack("tictactoe")
    >>> pack.model.game.id
    'tictactoe'

Each stage collects its diagnostics and raises one PackError with all of
them; a pack that loads here is ready for `interpreter.game.compile_game`.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import attrs

from boardrule.dsl import named_effects
from boardrule.dsl.check_sections import check_pack
from boardrule.dsl.checker import Checked
from boardrule.dsl.diagnostics import DiagnosticBag, PackError, SourceStore, Span
from boardrule.dsl.extends import ENTRY_SECTIONS, PackTree, load_pack_tree
from boardrule.dsl.loader import load_yaml_text
from boardrule.dsl.model import PackModel
from boardrule.dsl.records import frozen
from boardrule.dsl.sections import read_pack


@frozen
class Pack:
    model: PackModel
    checked: Checked
    tree: PackTree
    content_hash: str
    sources: SourceStore
    warnings: tuple = ()


def load_pack(name_or_path, sources: SourceStore | None = None, extends_from: tuple = ()) -> Pack:
    """Load a pack by bundled name or path, with every base it extends (from its own folder,
    the folders in `extends_from` or the bundled packs: dsl/packpath.py)."""
    sources = sources if sources is not None else SourceStore()
    tree = load_pack_tree(name_or_path, sources, extends_from)
    return _finish(tree, sources, _hash_files(tree.files, sources))


def load_pack_text(text: str, file: str = "<pack>", sources: SourceStore | None = None) -> Pack:
    """Load a pack from text (tests, docs); it cannot use `extends`."""
    sources = sources if sources is not None else SourceStore(read_disk=False)
    sources.add(file, text)
    root = load_yaml_text(text, file)
    if "extends" in root:
        raise PackError("a pack given as text cannot use `extends`; save it to a file", code="E128",
                        span=root.key_node("extends").span, sources=sources)
    tree = PackTree(root, (file,))
    return _finish(tree, sources, hashlib.sha256(text.encode()).hexdigest()[:16])


def _finish(tree: PackTree, sources: SourceStore, content_hash: str) -> Pack:
    bag = DiagnosticBag()
    model = read_pack(tree.root, bag, tree.files, tree.inherited_tests)
    if not _only_unknown_sections(bag, model):  # an unknown top-level key alone: the rest is checked too
        _raise_pointing_home(bag, tree, sources)
    model = named_effects.attach(model, bag)  # its errors are told with the checker's
    try:
        checked = check_pack(model, bag, tree.removed)
    except RecursionError:
        raise PackError("the pack's rules nest too deeply to check (definitions calling definitions?)",
                        code="E137", span=pack_span(tree), sources=sources) from None
    _raise_pointing_home(bag, tree, sources)
    warnings = tree.warnings + tuple(d for d in bag.sorted() if d.severity == "warning")
    return Pack(model, checked, tree, content_hash, sources, warnings)


def _only_unknown_sections(bag: DiagnosticBag, model) -> bool:
    unknown = set(model.unknown_keys)
    return all(d.code == "E011" and d.span in unknown for d in bag.diagnostics if d.severity == "error")


HOME_NOTES = 3  # the extension's own changes named under an error found in a base pack


def _raise_pointing_home(bag: DiagnosticBag, tree: PackTree, sources) -> None:
    """Raise the bag's errors. An error that lies in a base pack (which checks clean on its own) was
    caused by the extension: it is reported in the extension's file, at the change that caused it (the
    removal or replaced entry the checker names, else the first of its changes), once per cause, with a
    note at every place in the bases where it shows and at the extension's other changes."""
    if not bag.has_errors:
        return
    home = tree.files[-1]
    changes = [(r.span, f"this pack removes `{r.section}.{r.name}` here") for r in tree.removed if r.name]
    changes += [(s.key.span, f"this pack changes `{s.section}.{s.key.raw}` here") for s in tree.shadows
                if s.base_key is not None and s.key.span.file == home and s.section in ENTRY_SECTIONS]
    if len(tree.files) > 1 and changes:
        bag.diagnostics = at_home([_with_home_notes(d, changes, home) for d in bag.diagnostics], home)
    bag.raise_if_errors(PackError, sources)


def at_home(diagnostics, home: str) -> list:
    """Errors in a base that name one of the extension's changes, moved to that change (the one whose
    note names what the message names, else the first), one per cause (code, message, change), each
    place in the bases kept as a note."""
    out, moved = [], {}
    for diag in diagnostics:
        own = [(span, text) for span, text in diag.notes if span is not None and span.file == home]
        if diag.severity != "error" or diag.span is None or diag.span.file == home or not own:
            out.append(diag)
            continue
        named = re.findall(r"`([^`]+)`", diag.message)
        place = next((span for span, text in own if any(re.search(r"[.`]" + re.escape(name) + "`", text)
                                                        for name in named)), own[0][0])
        where = (diag.span, f"it shows in `{Path(diag.span.file).name}` here")
        key = (diag.code, diag.message, place)
        if key in moved:
            moved[key][1].append(where)
            continue
        moved[key] = (diag, [where], tuple(n for n in diag.notes if n[0] != place))
        out.append(key)
    return [attrs.evolve(moved[item][0], span=item[2], notes=tuple(moved[item][1]) + moved[item][2])
            if isinstance(item, tuple) else item for item in out]


def _with_home_notes(diag, changes, home):
    if diag.severity != "error" or diag.span is None or diag.span.file == home:
        return diag
    noted = {span for span, _ in diag.notes}
    extra = tuple(c for c in changes if c[0] not in noted)[:HOME_NOTES]
    return attrs.evolve(diag, notes=tuple(diag.notes) + extra)


def pack_span(tree: PackTree):
    """Where an error about the pack as a whole points: its `define:` section, else its first line."""
    define = tree.root.key_node("define") if "define" in tree.root else None
    return define.span if define is not None else Span.point(tree.files[-1], 1, 1)


def _hash_files(files, sources: SourceStore) -> str:
    digest = hashlib.sha256()
    for file in files:
        buffer = sources.buffer(file)  # an editor's unsaved text counts as the file
        digest.update(Path(file).read_bytes() if buffer is None else buffer.encode("utf-8"))
    return digest.hexdigest()[:16]
