"""The data of `records:`: each row's values checked against its kind's declared fields.

A row is `ID: [VALUE, ...]` (the values in the order of the fields) or
`ID: {FIELD: VALUE, ...}` (every field named); a kind of one field may give
its value alone (`ID: VALUE`). `check_records(checker, model)` reports every
value its field's type does not hold (E026) and keeps the values that rules
read, by record id, in `checker.sym.record_values`.
"""

from __future__ import annotations

from boardrule.dsl.diagnostics import did_you_mean
from boardrule.dsl.loader import MapNode, SeqNode, to_plain
from boardrule.dsl.resolution import Attr
from boardrule.dsl.type_words import TypeWordError
from boardrule.dsl.types import ANY

MAX_RECORDS = 10_000  # records in a pack, all kinds together (a deck holds at most as many cards)


def record_field(checker, node, owner):
    """The type of `r.cost`, `r` a record of kind `owner.of`: one of its fields (E217 for any other name)."""
    fields = checker.sym.record_fields.get(owner.of, {})
    if node.name in fields:
        checker.out.resolved[node] = Attr(node.name)
        return fields[node.name].type
    listing = ", ".join(f"`{f}`" for f in fields) or "none"
    checker.error("E217", f"a {owner} has no field `{node.name}`; its fields: {listing}", node,
                  did_you_mean(node.name, list(fields)))
    return ANY


def check_records(checker, model) -> None:
    sym, bag = checker.sym, checker.bag
    total = sum(len(kind.rows) for kind in model.records)
    if total > MAX_RECORDS:
        bag.error("E025", f"the pack declares {total:,} records; a pack holds at most {MAX_RECORDS:,}",
                  model.records[0].span)
        return
    values = {}
    for kind in model.records:
        if sym.record_kinds.get(kind.name) is not kind:
            continue  # refused as a duplicate name
        fields = sym.record_fields.get(kind.name, {})
        for rid, node, span in kind.rows:
            if sym.record_of.get(rid) == kind.name:
                values[rid] = _row(bag, kind, fields, rid, node, span)
    sym.record_values = values


def _row(bag, kind, fields, rid, node, span) -> dict:
    """{field: value} of one record; a value its field does not hold is reported and left out."""
    names = [name for name, _, _ in kind.fields]
    if isinstance(node, MapNode):
        given = [(str(k.value), v, k.span) for k, v in node.entries]
        for name, _, key_span in given:
            if name not in names:
                bag.error("E026", f"`{kind.name}` has no field `{name}`; its fields: " + ", ".join(names), key_span)
        missing = [name for name in names if name not in {g for g, _, _ in given}]
        if missing:
            bag.error("E026", f"record `{rid}` gives no {', '.join(f'`{m}`' for m in missing)}", span,
                      hint="a row written as a mapping names every field")
        pairs = [(name, value) for name, value, _ in given if name in names]
    elif isinstance(node, SeqNode) and not (len(names) == 1 and fields.get(names[0]) is not None
                                            and fields[names[0]].item is not None and not _is_row_of_one(node)):
        if len(node.items) != len(names):
            bag.error("E026", f"record `{rid}` gives {len(node.items)} value(s) for the {len(names)} field(s) of "
                              f"`{kind.name}` ({', '.join(names)})", node.span,
                      hint="a row written as a list gives one value per field, in the fields' order")
        pairs = list(zip(names, node.items))
    elif len(names) == 1:
        pairs = [(names[0], node)]
    else:
        bag.error("E026", f"record `{rid}` is a list of its values ([{', '.join(names)}]) or a mapping of its "
                          "fields", getattr(node, "span", span))
        return {}
    out = {}
    for name, value in pairs:
        declared = fields.get(name)
        if declared is None:
            continue  # a field whose type was refused (E025)
        try:
            out[name] = declared.plain_value(to_plain(value))
        except TypeWordError as err:
            bag.error("E026", f"field `{name}` of `{rid}`: {err}", value.span)
    return out


def _is_row_of_one(node) -> bool:
    """A kind of one list field: `[[a, b]]` is the row, `[a, b]` the value itself."""
    return len(node.items) == 1 and isinstance(node.items[0], SeqNode)
