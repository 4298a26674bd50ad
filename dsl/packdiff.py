"""What one pack changes of another, entry by entry, in words (`boardrule diff BASE VARIANT`).

Both packs are compared as merged trees (every base they extend applied), so
the answer is what a player of the variant meets that a player of the base
does not, whatever the variant wrote to get there:

    >>> from boardrule.dsl.extends import load_pack_tree
    >>> [c.path for c in pack_diff(load_pack_tree("tictactoe"), load_pack_tree("tictactoe"))]
    []

Each :class:`Change` names a path (`pieces.runner`, `board.grid`), what
happened (added, removed, changed: with the fields of an entry that changed,
or the old and new text of a value), and where each side is written.
"""

from __future__ import annotations

import attrs

from boardrule.dsl.diagnostics import Span
from boardrule.dsl.loader import MapNode, Node, ScalarNode, SeqNode, key_identity, to_plain

SHOWN = 60  # characters of a value shown in a change


@attrs.frozen
class Change:
    kind: str  # added, removed, changed
    path: str
    detail: str  # the fields that changed, or `old -> new`; empty when there is nothing more to say
    span: Span | None  # where the variant writes it (None: removed)
    base_span: Span | None  # where the base writes it (None: added)


def pack_diff(base, variant) -> list:
    """The changes from `base` to `variant` (two dsl.extends.PackTree), in the variant's order."""
    changes = _mapping_changes("", base.root, variant.root, depth=0)
    changes = [c for c in changes if c.path != "tests"]
    return changes + _test_changes(base, variant)


def _entries(node: MapNode) -> dict:
    return {key_identity(k.value): (k, v) for k, v in node.entries}


def _mapping_changes(prefix: str, base: MapNode, variant: MapNode, depth: int) -> list:
    """Sections (depth 0) and their entries (depth 1) added, removed or changed."""
    old, new = _entries(base), _entries(variant)
    changes = []
    for ident, (key, node) in new.items():
        path = f"{prefix}{key.raw}"
        if ident not in old:
            changes.append(Change("added", path, "", key.span, None))
            continue
        base_key, base_node = old[ident]
        if to_plain(base_node) == to_plain(node):
            continue
        if depth == 0 and isinstance(node, MapNode) and isinstance(base_node, MapNode):
            changes += _mapping_changes(path + ".", base_node, node, depth + 1)
        else:
            changes.append(Change("changed", path, _what_changed(base_node, node), key.span, base_key.span))
    for ident, (key, _) in old.items():
        if ident not in new:
            changes.append(Change("removed", f"{prefix}{key.raw}", "", None, key.span))
    return changes


def _what_changed(base: Node, variant: Node) -> str:
    """`fields a, b` of an entry, or `old -> new` of a value."""
    if isinstance(base, MapNode) and isinstance(variant, MapNode):
        old, new = _entries(base), _entries(variant)
        parts = []
        changed = [str(k.raw) for i, (k, v) in new.items() if i in old and to_plain(old[i][1]) != to_plain(v)]
        added = [str(k.raw) for i, (k, _) in new.items() if i not in old]
        gone = [str(k.raw) for i, (k, _) in old.items() if i not in new]
        for label, names in (("changed", changed), ("added", added), ("removed", gone)):
            if names:
                parts.append(f"{label} {', '.join(names)}")
        return "; ".join(parts)
    return f"{_shown(base)} -> {_shown(variant)}"


def _shown(node: Node) -> str:
    text = str(node.raw) if isinstance(node, ScalarNode) else str(to_plain(node))
    text = " ".join(text.split())
    return text if len(text) <= SHOWN else text[: SHOWN - 3] + "..."


def _test_changes(base, variant) -> list:
    """Tests the variant adds, replaces (same name) and drops of the base's."""
    def named(nodes):  # name -> (its key node, the test)
        out = {}
        for node in nodes:
            name = node.get("name") if isinstance(node, MapNode) else None
            if isinstance(name, ScalarNode):
                out[name.value] = (name, node)
        return out
    base_tests = named(_own(base) + tuple(base.inherited_tests))
    own = named(_own(variant))
    kept = named(tuple(variant.inherited_tests))
    changes = []
    for name, (key, node) in own.items():
        if name not in base_tests:
            changes.append(Change("added", f"tests.{name}", "", key.span, None))
        elif to_plain(base_tests[name][1]) != to_plain(node):
            changes.append(Change("changed", f"tests.{name}", "", key.span, base_tests[name][0].span))
    for name, (key, _) in base_tests.items():
        if name not in own and name not in kept:
            changes.append(Change("removed", f"tests.{name}", "", None, key.span))
    return changes


def _own(tree) -> tuple:
    tests = tree.root.get("tests")
    return tuple(tests.items) if isinstance(tests, SeqNode) else ()
