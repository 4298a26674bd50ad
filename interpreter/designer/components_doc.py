"""The parts of the rules reference about what is in the box: options, names, records, pieces, dice,
decks and the values kept during the game (interpreter/designer/rulesdoc.py puts them together).

    >>> from boardrule.interpreter.api import open_game
    >>> game = open_game("tictactoe")
    >>> components_blocks(game, game.model)[0].text
    'Components'
"""

from __future__ import annotations

from boardrule.dsl.unparse import unparse
from boardrule.interpreter.designer.docblocks import Code, Heading, Items, Para, Strong, Table


#: what an option without a list of values takes, by its type
_OPTION_TAKES = {"int": "a whole number", "number": "a number (whole, or with decimals: 7.5)", "bool": "true or false"}


def options_blocks(model) -> list:
    if not model.options:
        return []
    rows = []
    for o in model.options:
        values = ", ".join(o.values) if o.values else _OPTION_TAKES.get(o.type, "")
        default = str(o.default).lower() if isinstance(o.default, bool) else str(o.default)
        rows.append(((Code(o.name),), (values,), (Code(default),), (o.doc,)))
    return [Heading(2, "Options"),
            Para(("Chosen before the game, e.g. ", Code(f"--option {model.options[0].name}=..."), ".")),
            Table((("option",), ("values",), ("default",), ("what it does",)), tuple(rows))]


def components_blocks(game, model) -> list:
    blocks = [Heading(2, "Components")]
    if model.symbols:
        blocks.append(Heading(3, "Names"))
        blocks.append(Items(tuple((Code(name), ": " + ", ".join(s for s, _ in items))
                                  for name, (items, _) in model.symbols.items())))
    blocks += records_blocks(game, model)
    if model.pieces:
        blocks.append(Heading(3, "Pieces"))
        rows = []
        for p in model.pieces:
            attributes = ", ".join(f"{k}: {_plain(v)}" for k, (v, _) in p.attributes.items())
            label = (f" (“{p.score_label}”)",) if p.score_label != p.name else ()
            typed = p.variable_types
            rows.append(((Strong(p.name),) + label, (Code(p.symbol),), (attributes,),
                         (", ".join(f"{v} ({typed[v][0]})" if v in typed else v for v in p.variable),)))
        blocks.append(Table((("piece",), ("symbol",), ("attributes",), ("set when placed",)), tuple(rows)))
    if model.dice:
        blocks.append(Heading(3, "Dice"))
        blocks.append(Items(tuple((Code(d.name), ": faces " + ", ".join(unparse(f) for f in d.faces if f is not None))
                                  for d in model.dice)))
    if model.decks:
        blocks.append(Heading(3, "Decks"))
        blocks.append(Items(tuple(
            (Code(d.name), f": {len(game.decks[d.name])} cards: "
             + ", ".join(f"{unparse(c)}" + (f" x{n}" if n != 1 else "") + (" (each of them)" if _is_list(game, c)
                                                                            else "") for c, n in d.cards if c is not None))
            if game.decks[d.name] else (Code(d.name), ": empty at the start (filled during the game)")
            for d in model.decks)))
    if model.vars or model.player_vars:
        blocks.append(Heading(3, "Values kept during the game"))
        rows = []
        for scope, defs in (("game", model.vars), ("each player", model.player_vars)):
            for v in defs:
                start = ", ".join(unparse(s) for s in v.per_seat) + " (by seat)" if v.per_seat else (
                    unparse(v.initial) if v.initial is not None else "none")
                rows.append(((Code(v.name),), (scope + (", private" if v.private else ""),), (Code(start),)))
        blocks.append(Table((("name",), ("kept by",), ("starts at",)), tuple(rows)))
    return blocks if len(blocks) > 1 else []


def _plain(value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def _is_list(game, card) -> bool:
    """A deck's entry naming a list (a kind of record, a symbol list): each of its cards."""
    t = game.pack.checked.types.get(card)
    return t is not None and t.is_list


def records_blocks(game, model) -> list:
    """A table per kind of record: each record by its id, with its fields."""
    blocks = []
    values = game.pack.checked.symbols.record_values
    for kind in model.records:
        blocks.append(Heading(3, f"Records: {kind.name}"))
        if kind.doc:
            blocks.append(Para((kind.doc,)))
        names = [name for name, _, _ in kind.fields]
        headers = (("record",),) + tuple((f"{name} ({word})",) for name, word, _ in kind.fields)
        rows = tuple(((Code(rid),),) + tuple((_shown(values.get(rid, {}).get(name)),) for name in names)
                     for rid, _, _ in kind.rows)
        blocks.append(Table(headers, rows))
    return blocks


def _shown(value) -> str:
    if isinstance(value, tuple):
        return ", ".join(_shown(v) for v in value) or "-"
    return "-" if value is None else _plain(value)
