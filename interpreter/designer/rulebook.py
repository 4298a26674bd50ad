"""A players' rulebook, generated from a pack's own texts (`boardrule rules PACK --for players`).

    >>> from boardrule.interpreter.api import open_game
    >>> doc = rulebook_document(open_game("tictactoe"))
    >>> doc[0].text
    'Tic-tac-toe: how to play'

The designer's reference (`interpreter.rulesdoc`) shows every rule beside its
words; this book is for the people at the table: it says what the pack's
`doc` texts say, in the order one learns a game (the components, the setup, a
round, each action, the end, the scoring), with the board drawn as the game
draws it (`draw`: the terminal's drawing of a picture's board, given by the
caller), the patterns the pieces are built from, the charts the scoring
reads, and the reasons the pack gives for refusing a move. Rules appear as
code only where the pack has no words for them, and each such place is named
under "Left to the rules" so that a designer sees which texts are missing.
"""

from __future__ import annotations

import re

import attrs

from boardrule.dsl import ast
from boardrule.dsl.lints import walk
from boardrule.dsl.unparse import unparse
from boardrule.interpreter.designer.rulesdoc import (Code, Heading, Items, Para, Phrases, Pre, Strong, Table, draw_grid,
                                            patterns_of, to_html, to_markdown)

_PLACEHOLDER = re.compile(r"\{([^{}]+)\}")
_TAKE = {"turns": "Each player in turn", "together": "All players at once (each unseen by the others)",
         "decide": "One player"}


def rulebook_document(game, draw=None, state=None) -> list:
    """The blocks of the players' rulebook of a compiled game. `draw(picture)`, when given, draws the
    boards of a picture as a player sees them; `state` is the position drawn (a new game by default)."""
    model = game.model
    texts = model.rulebook
    info = model.game
    missing: list = []
    doc: list = [Heading(1, f"{info.name or info.id}: how to play")]
    if info.doc:
        doc += _paras(info.doc)
    low, high = game.players_range
    players = str(low) if low == high else f"{low} to {high}"
    doc.append(Para((f"For {players} player{'' if players == '1' else 's'}.",)))
    doc += _components(game, texts, draw, state, missing)
    if texts.setup or model.flow.setup:
        doc += _told("Setup", texts.setup, "setup", missing)
    doc += _round(game, texts, missing)
    doc += _actions(game, missing)
    doc += _told("The end", texts.end, "end", missing)
    doc += _scoring(game, texts, missing)
    if missing:
        doc += [Heading(2, "Left to the rules"),
                Para(("The pack gives no words for these yet (its ", Code("doc:"), " texts; ", Code("boardrule rules"),
                      " shows the rules themselves): " + ", ".join(missing) + ".",))]
    return doc


def rulebook_text(game, fmt: str = "md", draw=None) -> str:
    doc = rulebook_document(game, draw)
    return to_html(doc) if fmt == "html" else to_markdown(doc)


# ------------------------------------------------------------------ parts
def _told(title: str, text: str, what: str, missing: list) -> list:
    if not text:
        missing.append(f"the {what}")
        return []
    return [Heading(2, title)] + _paras(text)


def _paras(text: str) -> list:
    """A pack's text as paragraphs (blank lines apart), `...` in it as code (a move, an option)."""
    return [Para(_inline(p.strip())) for p in text.split("\n\n") if p.strip()]


def _inline(text: str) -> tuple:
    pieces = text.split("`")
    if len(pieces) % 2 == 0:  # an odd backquote: the text as it is
        return (text,)
    return tuple(Code(piece) if index % 2 else piece for index, piece in enumerate(pieces) if piece)


def _components(game, texts, draw, state, missing) -> list:
    model = game.model
    blocks = [Heading(2, "Components")]
    if texts.components:
        blocks += _paras(texts.components)
    grid = game.grid
    kind = "hex map" if grid.kind == "hex" else "grid"
    whose = "one board for the table" if model.board.shared else "a board for each player"
    blocks.append(Para((f"The board: a {kind} of {grid.size} spaces, {whose}, drawn as the game draws it "
                        "(columns are letters, rows numbers: a space is written ", Code("A1"), "):")))
    blocks.append(Pre(_board_drawing(game, draw, state)))
    shapes = {s.name: s for s in model.shapes}
    pieces = [p for p in model.pieces if p.doc or patterns_of(game, p) or p.place_why is not None]
    if pieces:
        blocks.append(Heading(3, "Pieces"))
        for piece in pieces:
            label = piece.score_label if piece.score_label != piece.name else piece.name.replace("_", " ")
            words = (": " + _sentence(piece.doc),) if piece.doc else ()
            if piece.place_why is not None and piece.place_why.text:
                words += ((" " if words else ": ") + _sentence(_said(piece.place_why.text)),)
            if piece.score is not None and not piece.doc:  # its score in words, as far as words go
                words += ((" " if words else ": "), "Scores at the end: ") + Phrases(model).value(piece.score) + (".",)
            blocks.append(Para((Strong(label), f" ({piece.symbol})") + words))
            for _, name in patterns_of(game, piece):
                if shapes[name].art:
                    blocks.append(Pre(_drawing(shapes[name].art, grid)))
    untold = [p.score_label for p in pieces if not p.doc]
    if untold:
        missing.append(f"{len(untold)} piece{'s' if len(untold) != 1 else ''} (" + ", ".join(untold[:6])
                       + (", ..." if len(untold) > 6 else "") + ")")
    for die in model.dice:
        faces = [unparse(f) for f in die.faces if f is not None]
        blocks.append(Para((Strong(f"the {die.name.replace('_', ' ')} die"), ": " + ", ".join(map(_word, faces)) + ".")))
        drawn = [(face, shapes[face].art) for face in faces if face in shapes and shapes[face].art]
        for face, art in drawn:  # a die of shapes: each drawn as on the board
            blocks.append(Para((Strong(_word(face)), ":")))
            blocks.append(Pre(_drawing(art, grid)))
    return blocks


def _drawing(art: str, grid) -> str:
    rows = [row.split() for row in art.replace("/", "\n").splitlines() if row.split()]
    return draw_grid([[None if t == "." and grid.kind == "hex" else t for t in row] for row in rows],
                     grid.kind, grid.hex_layout)


def _board_drawing(game, draw, state) -> str:
    from boardrule.interpreter.runtime import flow
    from boardrule.interpreter.runtime.picture import picture
    if state is None:
        state = flow.initial_state(game, game.players_range[0], seed=0)
    pic = picture(game, state, viewer=state.players[0], seats=(state.players[0],))
    pic = attrs.evolve(pic, boards=tuple(attrs.evolve(b, title="") for b in pic.boards))  # anyone's board
    if draw is not None:
        return draw(pic)
    from boardrule.interpreter.designer.rulesdoc import draw_board
    return draw_board(game.grid, {})


def _round(game, texts, missing) -> list:
    blocks = [Heading(2, "A round")]
    if texts.round:
        blocks += _paras(texts.round)
    else:
        missing.append("a round")
    actions = {a.name: a for a in game.model.actions}
    steps = []
    for step in game.model.flow.round:
        if step.kind == "do" or not step.actions:
            continue
        names = [n for n, _ in step.actions if n in actions]
        words = (f"{_TAKE.get(step.kind, 'A player')}: ",) + (("one of ",) if len(names) > 1 else ())
        for index, name in enumerate(names):
            words += ((", " if index < len(names) - 1 else " or ") if index else "",) + (Code(name),)
        if step.required:
            words += (", again and again while one is possible",)
        elif step.repeat:
            words += (", as often as they like, then ", Code("done"))
        steps.append(tuple(w for w in words if w) + (".",))
    if steps:
        blocks += [Para(("The players' part of each round, in order:",)), Items(tuple(steps), ordered=True)]
    return blocks


def _label(action) -> str:
    return action.label or action.name.replace("_", " ")


def _actions(game, missing) -> list:
    blocks = [Heading(2, "Actions")]
    for action in game.model.actions:
        blocks.append(Heading(3, _label(action)))
        if action.doc:
            blocks += _paras(action.doc)
        else:
            missing.append(f"the action {action.name}")
        typed = " ".join([action.name] + [name.upper() for name, _ in action.params])
        blocks.append(Para(("Typed as ", Code(typed), ".")))
        reasons = _reasons(action)
        if reasons:
            blocks.append(Para(("It is refused when:",)))
            blocks.append(Items(tuple((r,) for r in reasons)))
    return blocks if len(blocks) > 1 else []


def _reasons(action) -> list:
    """The pack's reasons for refusing the action, its values named in words: `{cell}` -> "the cell"."""
    found = []
    for why in list(action.param_whys.values()) + [why for _, why in action.when_parts + action.refuse_after_parts]:
        if why is not None and why.text:
            text = _said(why.text)
            if text not in found:
                found.append(text)
    return found


def _said(text: str) -> str:
    """A reason's text with its `{...}` values named: `{cell} is taken` -> "the cell is taken"."""
    return _PLACEHOLDER.sub(lambda m: "the " + _word(m.group(1).split(".")[-1]), text)


def _scoring(game, texts, missing) -> list:
    model = game.model
    told = {name: text for name, text, _ in texts.scoring}
    charts = {name: chart for name, chart in model.charts.items() if chart is not None}
    defines = {d.name: d.body for d in model.defines if d.body is not None}
    say = Phrases(model)
    blocks = [Heading(2, "Scoring")]
    scored = [p for p in model.pieces if p.score is not None or "points" in p.rules]
    if scored:
        names = f" ({', '.join(p.score_label for p in scored)})" if len(scored) <= 8 else ""
        blocks.append(Para((f"The pieces{names} score as their texts under Components say.",)))
    for term in model.scoring:
        if term.expr is None:
            continue
        if told.get(term.name):
            words = _inline(told[term.name])
        else:
            missing.append(f"the scoring term {term.name}")
            words = say.value(term.expr)
        blocks.append(Para((Strong(term.name), ": ") + tuple(words)))
        for name in _charts_read(term.expr, charts, defines):
            blocks.append(_chart(name, charts[name]))
    blocks.append(Para(("The highest score wins.",) + ((" Ties are broken as the end of the game says.",)
                                                       if model.flow.ranking else ())))
    if model.verdict is not None:
        verdict = model.verdict
        for name in _charts_read(verdict, charts, defines):
            blocks += [Para(("Alone, your score gives your verdict:",)), _chart(name, charts[name])]
    return blocks


def _charts_read(node, charts, defines=None, seen=frozenset()) -> list:
    """The named charts a rule reads, itself or through the definitions it uses, in the order it reads them."""
    found = []
    for item in walk([node]):
        if isinstance(item, ast.ChartCall) and isinstance(item.chart, ast.ChartName) and item.chart.id in charts:
            names = [item.chart.id]
        else:
            name = item.id if isinstance(item, ast.Name) else item.func if isinstance(item, ast.Call) else None
            body = (defines or {}).get(name)
            names = _charts_read(body, charts, defines, seen | {name}) if body is not None and name not in seen \
                else []
        found += [n for n in names if n not in found]
    return found


def _chart(name, chart) -> Table:
    keys = tuple((unparse(k),) for k in chart.keys)
    values = tuple((str(v),) for v in chart.values)
    return Table(((_word(name),),) + keys, ((("points" if all(isinstance(v, int) for v in chart.values)
                                             else "gives",),) + values,))


def _sentence(text: str) -> str:
    text = text.strip()
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "!", "?")) else ".")


def _word(text: str) -> str:
    return text.replace("_", " ")
