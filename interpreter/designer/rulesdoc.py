"""A readable rules reference, generated from a checked and compiled pack.

    >>> from boardrule.interpreter.api import open_game
    >>> doc = rules_document(open_game("tictactoe"))
    >>> print(to_markdown(doc).splitlines()[0])
    # Tic-tac-toe

Everything comes from the pack model the engine plays (never from text kept
by hand), so the reference cannot drift from the rules: components, the
board drawn as text, each piece kind with its pattern drawn and its rules in
plain words (with the exact rule beside them), actions, the flow step by
step, charts as tables, options, scoring and the verdict.

`rules_document` builds a small document (headings, paragraphs, tables,
lists, preformatted text); `to_markdown` and `to_html` write it out. HTML
output escapes every text that comes from the pack. The reference is made of
per-topic parts that the terminal game reuses (`boardrule play`'s `rules`
command): `piece_blocks`, `action_blocks` and `shape_blocks` for one piece
kind, action or shape, `piece_line` and `shape_line` for one line each,
`lookup` to find them by name, and `to_text` for plain text.
"""

from __future__ import annotations

import html
import re
import textwrap

import attrs

from boardrule.dsl import ast
from boardrule.dsl.unparse import unparse
from boardrule.interpreter.designer.components_doc import components_blocks, options_blocks
from boardrule.interpreter.designer.docblocks import Code, Heading, Items, Para, Pre, Strong, Table, _parts
from boardrule.interpreter.runtime.geometry import column_letters, even_pitch, row_shift

# ------------------------------------------------------------------ phrasing
_COMPARE_WORDS = {"==": "is", "!=": "is not", ">=": "is at least", "<=": "is at most", ">": "is more than",
                  "<": "is less than"}
_ARITH_WORDS = {"+": "plus", "-": "minus", "*": "times", "/": "divided by", "%": "modulo"}
_LIST_WORDS = {"cells": "cells", "adjacent": "adjacent cells", "surrounding": "surrounding cells",
               "row": "cells of its row", "column": "cells of its column", "players": "players",
               "others": "other players", "edge": "edge cells", "corners": "corner cells",
               "all_corners": "corner cells of the board and of its holes",
               "center": "centre cells", "kinds": "piece kinds"}


class Phrases:
    """Plain words for expressions, where a plain wording is sure; else the rule itself as code."""

    def __init__(self, model):
        self.kinds = {p.name for p in model.pieces}

    def code(self, node) -> tuple:
        return (Code(unparse(node)),)

    def value(self, node) -> tuple:
        if isinstance(node, ast.Number):
            return (str(node.value),)
        if isinstance(node, ast.Negate):
            return ("minus ",) + self.value(node.operand)
        if isinstance(node, ast.Conditional):
            return (self.value(node.then) + (" if ",) + self.condition(node.condition) + (", otherwise ",)
                    + self.value(node.otherwise))
        if isinstance(node, ast.BinOp) and node.op in _ARITH_WORDS:
            left, right = self.value(node.left), self.value(node.right)
            if isinstance(node.right, (ast.BinOp, ast.Conditional)):
                right = ("(",) + right + (")",)
            if isinstance(node.left, ast.Conditional):
                left = ("(",) + left + (")",)
            return left + (f" {_ARITH_WORDS[node.op]} ",) + right
        if isinstance(node, ast.ChartCall):
            chart = (Code(node.chart.id),) if isinstance(node.chart, ast.ChartName) else (
                "the chart ", Code(unparse(node.chart)))
            if isinstance(node.chart, ast.ChartName):
                chart = ("the chart ",) + chart
            return chart + (" at ",) + self.value(node.value)
        if isinstance(node, ast.Call) and node.func == "count" and node.args and \
                not isinstance(node.args[0], ast.Comprehension):
            words = ("the number of ",) + self.listing(node.args[0])
            if len(node.args) == 2:
                words += (" for which ",) + self.condition(node.args[1])
            return words
        if isinstance(node, ast.Call) and node.func == "sum" and len(node.args) == 2:
            return ("the sum of ",) + self.code(node.args[1]) + (" over ",) + self.listing(node.args[0])
        return self.code(node)

    def condition(self, node) -> tuple:
        if isinstance(node, ast.BinOp) and node.op in ("and", "or"):
            return self.condition(node.left) + (f" {node.op} ",) + self.condition(node.right)
        if isinstance(node, ast.BinOp) and node.op in _COMPARE_WORDS:
            return self.value(node.left) + (f" {_COMPARE_WORDS[node.op]} ",) + self.value(node.right)
        if isinstance(node, ast.Call) and node.func in ("any", "none") and len(node.args) == 1 and \
                not isinstance(node.args[0], ast.Comprehension):
            lead = "there is at least one of the " if node.func == "any" else "there is none of the "
            return (lead,) + self.listing(node.args[0])
        if isinstance(node, ast.Name) and node.id in ("empty", "occupied"):
            return (f"the cell is {node.id}",)
        return self.code(node)

    def listing(self, node) -> tuple:
        if isinstance(node, ast.Name) and node.id in _LIST_WORDS:
            return (_LIST_WORDS[node.id],)
        if isinstance(node, ast.Where):
            return self.listing(node.source) + self.filter(node.condition)
        return self.code(node)

    def filter(self, node) -> tuple:
        """`where CONDITION` as words after a list: " holding a house", " that are empty"."""
        if isinstance(node, ast.BinOp) and node.op == "and":
            return self.filter(node.left) + (" and",) + self.filter(node.right)
        if isinstance(node, ast.BinOp) and node.op == "==" and isinstance(node.left, ast.Name) \
                and node.left.id == "kind" and isinstance(node.right, ast.Name) and node.right.id in self.kinds:
            return (" holding an " if node.right.id[:1] in "aeiou" else " holding a ", Code(node.right.id))
        if isinstance(node, ast.Name) and node.id in ("empty", "occupied"):
            return (f" that are {node.id}",)
        return (" where ",) + self.code(node)


def pretty(stmts, depth: int = 0) -> list[str]:
    """Statements one per line, blocks indented: the effect as a designer would write it."""
    pad = "  " * depth
    lines = []
    for stmt in stmts:
        if isinstance(stmt, ast.If):
            for i, (condition, body) in enumerate(stmt.branches):
                lines.append(f"{pad}if {unparse(condition)} {{" if i == 0 else f"{pad}}} elif {unparse(condition)} {{")
                lines += pretty(body, depth + 1)
            if stmt.otherwise:
                lines.append(f"{pad}}} else {{")
                lines += pretty(stmt.otherwise, depth + 1)
            lines.append(f"{pad}}}")
        elif isinstance(stmt, (ast.For, ast.Choose, ast.Draw)) and stmt.body:
            head = unparse(attrs.evolve(stmt, body=()))
            lines.append(f"{pad}{head[:-2].rstrip()} {{")
            lines += pretty(stmt.body, depth + 1)
            lines.append(f"{pad}}}")
        else:
            lines.append(pad + unparse(stmt))
    return lines


def _effect_blocks(lead: tuple, effect) -> list:
    """`lead` (ending in ": ") and the effect: inline when it is one short line, else as a block of code."""
    lines = pretty(effect)
    if len(lines) == 1 and len(lines[0]) <= 80:
        return [Para(lead + (Code(lines[0]), "."))]
    return [Para(lead[:-1] + (lead[-1].rstrip() ,)), Pre("\n".join(lines))]


# ------------------------------------------------------------------ drawing
def _art_rows(text: str) -> list[list[str]]:
    rows = [row.split() for row in text.replace("/", "\n").splitlines()]
    return [row for row in rows if row]


def draw_grid(tokens: list[list], kind: str = "square", layout: str | None = None, labels: bool = False) -> str:
    """Rows of tokens (None: no cell) in aligned columns, hex rows or columns offset as on the board.

    >>> print(draw_grid([["a", "b"], ["c", None]], labels=True))
        A B
      1 a b
      2 c
    """
    columns = max((len(row) for row in tokens), default=0)
    rows = [list(row) + [None] * (columns - len(row)) for row in tokens]
    width = max([len(t) for row in rows for t in row if t] + [1])
    if labels:
        width = max(width, len(column_letters(max(columns - 1, 0))))
    width = even_pitch(layout, width)
    blank = " " * width
    layout = layout or ""
    head = ["    " + " ".join(column_letters(x).ljust(width) for x in range(columns))] if labels else []
    margin = (lambda y: f"{y + 1:>3} ") if labels else (lambda y: "")  # noqa: E731
    under = "    " if labels else ""
    lines = list(head)
    if kind == "hex" and layout.startswith("flat"):
        odd_low = layout.endswith("odd")  # the shifted half of the columns is drawn half a row lower
        for y, row in enumerate(rows):
            high = [(t or blank) if (x % 2 == 0) == odd_low else blank for x, t in enumerate(row)]
            low = [(t or blank) if (x % 2 == 1) == odd_low else blank for x, t in enumerate(row)]
            lines.append(margin(y) + " ".join(t.ljust(width) for t in high))
            lines.append(under + " ".join(t.ljust(width) for t in low))
    else:
        for y, row in enumerate(rows):
            indent = " " * (row_shift(kind, layout or None, y) * (width + 1) // 2)  # half a cell a shift
            lines.append(margin(y) + indent + " ".join((t or blank).ljust(width) for t in row))
    lines = [line.rstrip() for line in lines]
    while lines and not lines[-1]:
        lines.pop()
    while lines and not lines[0]:
        lines.pop(0)
    # a blank line inside is a half row with no cell: kept, so a hex shape keeps its geometry
    return "\n".join(lines)


def draw_orientations(shape, per_line: int = 4) -> str:
    """Every orientation of a square-grid shape, side by side."""
    pictures = []
    for cells in shape.orientations:
        w = max(x for x, _, _ in cells) + 1
        h = max(y for _, y, _ in cells) + 1
        grid = [["."] * w for _ in range(h)]
        for x, y, symbol in cells:
            grid[y][x] = symbol
        pictures.append(grid)
    width = max((len(t) for g in pictures for row in g for t in row), default=1)
    blocks = []
    for start in range(0, len(pictures), per_line):
        chunk = pictures[start:start + per_line]
        height = max(len(g) for g in chunk)
        lines = []
        for y in range(height):
            pieces = []
            for g in chunk:
                cols = len(g[0])
                row = g[y] if y < len(g) else [""] * cols
                pieces.append(" ".join(t.ljust(width) for t in row).ljust(cols * (width + 1) - 1))
            lines.append("   ".join(pieces).rstrip())
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def draw_board(grid, marks: dict) -> str:
    """The board with column letters and row numbers; `marks` maps a cell to its token ("." otherwise)."""
    tokens = [[None] * grid.width for _ in range(grid.height)]
    for cell in grid.cells:
        tokens[grid.row(cell)][grid.col(cell)] = marks.get(cell, ".")
    return draw_grid(tokens, grid.kind, grid.hex_layout, labels=True)


# ------------------------------------------------------------------ the reference
_SYMMETRY_WORDS = {"none": "as drawn, never turned", "rotate": "turned any way (not mirrored)",
                   "all": "turned or mirrored any way"}
_STEP_WORDS = {
    "turns": "Each player in seat order, one after the other, takes",
    "together": "All players at once (nobody sees the others' choices until all are done) take",
    "decide": "One player decides:",
}


def rules_document(game) -> list:
    """The blocks of the rules reference of a compiled game (`interpreter.game.compile_game`)."""
    model = game.model
    say = Phrases(model)
    info = model.game
    doc: list = [Heading(1, info.name or info.id)]
    if info.doc:
        doc.append(Para((info.doc.strip(),)))
    players = unparse(info.players) if info.players is not None else "?"
    facts = [("players", players), ("pack", info.id), ("version", info.version)]
    if info.seats:
        facts.insert(1, ("seats at the table", str(info.seats)))
    doc.append(Para(tuple(x for name, value in facts for x in (Strong(name), f": {value}", "; "))[:-1] + (".",)))
    doc.append(Para(("This reference is generated from the pack by ", Code("boardrule rules"),
                     "; the pack is the authority, and each rule is shown beside its plain words.")))
    doc += options_blocks(model)
    doc += components_blocks(game, model)
    doc += _board(game, model)
    doc += _pieces(game, model, say)
    doc += _other_shapes(game, model)
    doc += _charts(model)
    doc += _defines(model)
    doc += _actions(model)
    doc += _flow(model)
    doc += _scoring(model, say)
    return doc


def _neighbours(game) -> str:
    """How many neighbours (`adjacent`) the board's cells have, counted on the board as it is (a mask's
    holes are no neighbours)."""
    grid = game.grid
    how = {"square": "orthogonal" if grid.adjacency == "orthogonal" else "diagonals too"}.get(grid.kind)
    table = game.cell_tables["adjacent"]
    most = max((len(table[c]) for c in grid.cells), default=0)
    if most == 0:
        return "no cell has a neighbour" + (f" ({how}: the mask leaves none)" if how else " (the mask leaves none)")
    return f"each cell has up to {most} neighbour{'' if most == 1 else 's'}" + (f" ({how})" if how else "")


def _board(game, model) -> list:
    grid = game.grid
    decl = model.board.grid
    kind = "square" if grid.kind == "square" else f"hex ({grid.hex_layout})"
    neighbours = _neighbours(game)
    whose = "one board shared by all players" if model.board.shared else "each player has a board of their own"
    size = f"grid of {decl.columns} columns and {decl.rows} rows"
    naming = ("Cells are named by column letter and row number from the top left (", Code("A1"), ").")
    if grid.hex_layout == "rhombus":
        naming = ("Cells are named by column letter and row number from the top (", Code(grid.name(0)),
                  " is the first cell of the top row); each row lies half a cell right of the row above, "
                  "so a column runs down to the right.")
    if decl.rows is None:
        kind, size = "hexagon-shaped hex", f"board of side {decl.columns}"
    blocks = [Heading(2, "Board"),
              Para((f"A {kind} {size}, {grid.size} cells; {neighbours}; {whose}. ", *naming))]
    regions = [(name, cells) for name, cells in model.board.regions.items() if cells is not None]
    marks: dict = {}
    legend = []
    for index, (name, cells) in enumerate(regions):
        letter = chr(ord("a") + index) if index < 26 else "#"
        for ref in cells.cells:
            try:
                cell = grid.parse_name(ref.name)
            except KeyError:
                continue
            marks[cell] = "*" if cell in marks else letter
        legend.append((Code(letter), " region ", Code(name), ": " + " ".join(r.name for r in cells.cells)))
    blocks.append(Pre(draw_board(grid, marks)))
    if legend:
        if "*" in marks.values():
            legend.append((Code("*"), " a cell of several regions"))
        blocks.append(Items(tuple(legend)))
    return blocks


def _shape_blocks(game, shape) -> list:
    blocks = []
    if shape.family is not None:
        blocks.append(Para(("The shape of size ", Code("n"), " is made of the cells (x, y) where ",
                            Code(unparse(shape.family)), "; ", _SYMMETRY_WORDS.get(shape.symmetry, ""), ".")))
        return blocks
    rows = _art_rows(shape.art or "")
    blocks.append(Pre(draw_grid([[None if t == "." and game.grid.kind == "hex" else t for t in row] for row in rows],
                                game.grid.kind, game.grid.hex_layout)))
    compiled = game.shapes.get(shape.name)
    count = len(compiled.orientations) if compiled is not None else 1
    words = f"It may be {_SYMMETRY_WORDS.get(shape.symmetry, shape.symmetry)}: {count} orientation" + (
        "s" if count != 1 else "")
    slots = sorted({t for row in rows for t in row if t != "."})
    legend = []
    for s in slots:
        cond = shape.legend.get(s)
        if cond is not None:
            legend.append((Code(s), " is a cell where ", Code(unparse(cond))))
        elif s in game.kind_names:
            legend.append((Code(s), " must hold a ", Code(s)))
        else:
            legend.append((Code(s), " is any cell"))
    if legend:
        blocks.append(Para(("In the drawing, ",) + tuple(x for i, item in enumerate(legend)
                                                        for x in ((("; ",) if i else ()) + item)) + (".",)))
    blocks.append(Para((words + ("; every orientation:" if compiled is not None and game.grid.kind == "square"
                                 and 1 < count <= 8 else "."),)))
    if compiled is not None and game.grid.kind == "square" and 1 < count <= 8:
        blocks.append(Pre(draw_orientations(compiled)))
    return blocks


def _rule(label: str, words: tuple, node) -> tuple:
    """`label: words. (rule: code)`, or just the rule when the words are the rule."""
    code = unparse(node)
    if len(words) == 1 and isinstance(words[0], Code):
        return (Strong(label), ": ", Code(code))
    if "".join(w.text if isinstance(w, (Code, Strong)) else w for w in words) == code:
        return (Strong(label), ": ") + words
    return (Strong(label), ": ") + words + (" (rule: ", Code(code), ")")


def patterns_of(game, piece) -> list:
    """(attribute, shape name) of each pattern a piece kind is built from."""
    shapes = {s.name for s in game.model.shapes}
    return [(k, v) for k, (v, _) in piece.attributes.items() if isinstance(v, str) and v in shapes]


def has_rules(game, piece) -> bool:
    """Does the piece kind have rules of its own (a pattern, a placement rule, a score, marks, named rules,
    triggers)?"""
    return bool(patterns_of(game, piece) or piece.place or piece.score or piece.marks or piece.rules
                or piece.triggers)


def piece_blocks(game, piece, say=None, level: int = 3) -> list:
    """One piece kind in full: a heading, its patterns drawn, where it may be placed, its score, marks, triggers."""
    say = say or Phrases(game.model)
    shapes = {s.name: s for s in game.model.shapes}
    label = f", “{piece.score_label}”" if piece.score_label != piece.name else ""
    blocks = [Heading(level, f"{piece.name} ({piece.symbol}{label})")]
    for attr, shape_name in patterns_of(game, piece):
        blocks.append(Para((Strong(attr), ": ", Code(shape_name))))
        blocks += _shape_blocks(game, shapes[shape_name])
    items = []
    if piece.place is not None:
        items.append(_rule("placed only where", say.condition(piece.place), piece.place))
    if piece.score is not None:
        label = f" (as “{piece.score_label}”)" if piece.score_label != piece.name else ""
        items.append(_rule(f"scores at the end, each{label}", say.value(piece.score), piece.score))
    for mark, expr in piece.marks.items():
        if expr is not None:
            items.append((Strong(f"marks {mark}"), ": ", Code(unparse(expr))))
    for name, expr in piece.rules.items():
        if expr is not None:
            items.append(_rule(f"its rule {name}", say.value(expr), expr))
    if items:
        blocks.append(Items(tuple(items)))
    for event, effect in piece.triggers:
        blocks += _effect_blocks((Strong(f"When {event}"), " (for each piece of this kind, ", Code("self"),
                                  " its cell): "), effect)
    return blocks


def piece_line(game, piece, say=None) -> str:
    """A piece kind in one line: its label, its pattern as drawn in the pack, where it may be placed."""
    say = say or Phrases(game.model)
    shapes = {s.name: s for s in game.model.shapes}
    parts = [piece.score_label] if _folded(piece.score_label) != _folded(piece.name) else []
    for _, shape_name in patterns_of(game, piece):
        shape = shapes[shape_name]
        parts.append("pattern " + (shape_line(shape) if shape.art else shape_name))
    if piece.place is not None:
        parts.append("placed only where " + inline_text(say.condition(piece.place)))
    if not parts and piece.score is not None:
        parts.append("scores " + inline_text(say.value(piece.score)))
    return "; ".join(parts)


def _folded(text: str) -> str:
    return " ".join(str(text).lower().replace("_", " ").replace("'", "").split())


def lookup(game, name: str) -> list:
    """The piece kinds, actions and shapes `name` means: by name, symbol or label (any case, `_` or spaces),
    else the names it begins. Pieces come as PieceDef, actions as ActionDef, shapes (those not a piece's
    pattern) as ShapeDef; empty when nothing matches."""
    model = game.model
    folded = _folded(name)
    topics = list(model.pieces) + list(model.actions) + other_shapes(game)
    exact = [t for t in topics if _folded(t.name) == folded]
    if exact:
        return exact
    symbols = [p for p in model.pieces if p.symbol == name.strip()]
    if symbols:
        return symbols
    others = [p for p in model.pieces if p.symbol.lower() == folded or _folded(p.score_label) == folded]
    others += [a for a in model.actions if a.label and _folded(a.label) == folded]
    if others:
        return others
    return [t for t in topics if folded and _folded(t.name).startswith(folded)]


def _pieces(game, model, say) -> list:
    blocks = []
    for p in model.pieces:
        if has_rules(game, p):
            blocks += piece_blocks(game, p, say)
    return [Heading(2, "Pieces and their rules")] + blocks if blocks else []


def other_shapes(game) -> list:
    """The shapes that are no piece kind's pattern (those a move or a die names)."""
    patterns = {v for p in game.model.pieces for v, _ in p.attributes.values() if isinstance(v, str)}
    return [shape for shape in game.model.shapes if shape.name not in patterns]


def shape_blocks(game, shape, level: int = 3) -> list:
    """One shape: a heading, the shape drawn, its legend and orientations."""
    return [Heading(level, shape.name)] + _shape_blocks(game, shape)


def shape_line(shape) -> str:
    """A shape in one line, as the pack draws it (rows separated by `/`)."""
    if shape.art:
        return " / ".join(" ".join(row) for row in _art_rows(shape.art))
    return "the cells (x, y) where " + unparse(shape.family)


def _other_shapes(game, model) -> list:
    blocks = []
    for shape in other_shapes(game):
        blocks += shape_blocks(game, shape)
    return [Heading(2, "Shapes")] + blocks if blocks else []


def _chart_table(chart) -> Table:
    keys = tuple((unparse(k),) for k in chart.keys)
    values = tuple((f'"{v}"' if isinstance(v, str) else str(v),) for v in chart.values)
    return Table((("value",),) + keys, ((("gives",),) + values,))


def _charts(model) -> list:
    charts = [(name, c) for name, c in model.charts.items() if c is not None]
    if not charts:
        return []
    blocks = [Heading(2, "Charts"),
              Para(("A chart gives 0 below its first column and keeps its last value above its last column.",))]
    for name, chart in charts:
        blocks += [Heading(3, name), _chart_table(chart)]
    return blocks


def _defines(model) -> list:
    defines = [d for d in model.defines if d.body is not None]
    effects = [e for e in model.effects if e.body]
    if not defines and not effects:
        return []
    blocks = [Heading(2, "Terms")]
    if defines:
        items = tuple((Code(d.name + (f"({', '.join(d.params)})" if d.params else "")), " means ",
                       Code(unparse(d.body))) for d in defines)
        blocks += [Para(("Names the rules below use:",)), Items(items)]
    if effects:
        items = tuple((Code(e.name + (f"({', '.join(e.params)})" if e.params else "")), " does ",
                       Code("; ".join(unparse(s) for s in e.body))) for e in effects)
        blocks += [Para(("Effects the rules below use by name:",)), Items(items)]
    return blocks


def action_blocks(action, level: int = 3) -> list:
    """One action: its heading and label, what it chooses, when it may be taken, its effect, its notation."""
    blocks = [Heading(level, action.name + (f": {action.label}" if action.label else ""))]
    items = []
    for name, domain in action.params:
        items.append(("choose ", Code(name), " from ", Code(unparse(domain) if domain is not None else "?")))
    if action.when is not None:
        items.append(("only when ", Code(unparse(action.when))))
    if action.refuse_after is not None:
        items.append(("refused when, after the move, ", Code(unparse(action.refuse_after))))
    if items:
        blocks.append(Items(tuple(items)))
    if action.effect:
        blocks += _effect_blocks(("Then: ",), action.effect)
    notation = " ".join([action.name] + [name.upper() for name, _ in action.params])
    blocks.append(Para(("Written as a move: ", Code(notation), ".")))
    return blocks


def _actions(model) -> list:
    if not model.actions:
        return []
    blocks = [Heading(2, "Actions")]
    for a in model.actions:
        blocks += action_blocks(a)
    return blocks


def _step_blocks(number: int, step) -> list:
    if step.kind == "do":
        return _effect_blocks((f"{number}. The game does: ",), step.effect)
    return [Para((f"{number}. ",) + _step(step))]


def _step(step) -> tuple:
    names = tuple(x for i, (n, _) in enumerate(step.actions) for x in ((", " if i else ""), Code(n)) if x)
    lead = _STEP_WORDS[step.kind]
    words = (lead + " ",) + (("one of ",) if len(step.actions) > 1 else ()) + names
    if step.who is not None:
        words += (" (who: ", Code(unparse(step.who)), ")")
    if step.required:
        words += (", again and again as long as one is legal",)
    elif step.repeat:
        words += (", as often as they like, then ", Code("done"))
    return words + (".",)


def _flow(model) -> list:
    flow = model.flow
    blocks = [Heading(2, "How a game goes")]
    for title, steps in (("Setup", flow.setup), ("Each round", flow.round)):
        if steps:
            blocks.append(Heading(3, title))
            for number, step in enumerate(steps, 1):
                blocks += _step_blocks(number, step)
    blocks.append(Heading(3, "The end"))
    when = "after every move and step" if flow.end_check == "turn" else "after every whole round"
    if flow.end is not None:
        blocks.append(Para(("The game ends when ", Code(unparse(flow.end)), f" (checked {when}).")))
    blocks.append(Para((f"A game that has not ended after {flow.max_rounds} rounds stops with an error.",)))
    return blocks


def _scoring(model, say) -> list:
    blocks = [Heading(2, "Scoring")]
    scored = [p for p in model.pieces if p.score is not None]
    lines = [("points scored during the game (", Code("score N as \"label\""), ")",)]
    if scored:
        lines.append(("each piece's score (see Pieces and their rules: ", ", ".join(p.name for p in scored[:8])
                      + (", ..." if len(scored) > 8 else ""), ")"))
    for term in model.scoring:
        if term.expr is not None:
            lines.append(_rule(term.name, say.value(term.expr), term.expr))
    blocks += [Para(("A player's score is the sum of:",)), Items(tuple(lines))]
    flow = model.flow
    ties = [t for t in flow.ranking if t is not None]
    if ties:
        items = tuple(("fewer ", Code(unparse(t.operand))) if isinstance(t, ast.Negate)
                      else ("more ", Code(unparse(t))) for t in ties)
        blocks += [Para(("The highest score wins; ties are broken by, in order:",)), Items(items, ordered=True),
                   Para(("Players still equal after these share the win.",))]
    else:
        blocks.append(Para(("The highest score wins; players still equal share the win.",)))
    if model.verdict is not None:
        blocks.append(Heading(3, "Verdict"))
        verdict = model.verdict
        if isinstance(verdict, ast.ChartCall) and isinstance(verdict.chart, ast.Chart):
            blocks.append(Para(("At the end each player reads their verdict from ", Code(unparse(verdict.value)),
                                ":")))
            blocks.append(_chart_table(verdict.chart))
        else:
            blocks.append(Para(("At the end each player reads their verdict: ", Code(unparse(verdict)), ".")))
    return blocks


# ------------------------------------------------------------------ writers
_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>|#])")


def _md_text(text: str) -> str:
    return _MD_SPECIAL.sub(r"\\\1", text)


def _md_code(text: str, in_table: bool) -> str:
    text = text.replace("\n", " ")
    if in_table:
        text = text.replace("|", "\\|")
    fence = "``" if "`" in text else "`"
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _md_inline(parts, in_table=False) -> str:
    out = []
    for part in parts:
        if isinstance(part, Code):
            out.append(_md_code(part.text, in_table))
        elif isinstance(part, Strong):
            out.append(f"**{_md_text(part.text)}**")
        else:
            out.append(_md_text(str(part)).replace("\n", " "))
    return "".join(out)


def to_markdown(doc) -> str:
    """The document as Markdown (GitHub flavour: tables, fenced blocks)."""
    out = []
    for block in doc:
        if isinstance(block, Heading):
            out.append("#" * block.level + " " + _md_text(block.text))
        elif isinstance(block, Para):
            out.append(_md_inline(block.parts))
        elif isinstance(block, Pre):
            fence = "````" if "```" in block.text else "```"
            out.append(f"{fence}text\n{block.text}\n{fence}")
        elif isinstance(block, Table):
            head = "| " + " | ".join(_md_inline(h, True) for h in block.headers) + " |"
            rule = "|" + "|".join(" --- " for _ in block.headers) + "|"
            rows = ["| " + " | ".join(_md_inline(c, True) for c in row) + " |" for row in block.rows]
            out.append("\n".join([head, rule] + rows))
        elif isinstance(block, Items):
            out.append("\n".join((f"{i}. " if block.ordered else "- ") + _md_inline(item)
                                 for i, item in enumerate(block.items, 1)))
    return "\n\n".join(out) + "\n"


def _html_inline(parts) -> str:
    out = []
    for part in parts:
        if isinstance(part, Code):
            out.append(f"<code>{html.escape(part.text)}</code>")
        elif isinstance(part, Strong):
            out.append(f"<strong>{html.escape(part.text)}</strong>")
        else:
            out.append(html.escape(str(part)))
    return "".join(out)


_CSS = ("body{font-family:system-ui,sans-serif;max-width:60em;margin:2em auto;padding:0 1em;line-height:1.45}"
        "table{border-collapse:collapse}td,th{border:1px solid #bbb;padding:.2em .5em;text-align:left}"
        "pre{background:#f4f4f4;padding:.5em;overflow-x:auto}code{background:#f4f4f4}")


def to_html(doc) -> str:
    """The document as one standalone HTML page; every text from the pack is escaped."""
    title = next((b.text for b in doc if isinstance(b, Heading)), "rules")
    body = []
    for block in doc:
        if isinstance(block, Heading):
            body.append(f"<h{block.level}>{html.escape(block.text)}</h{block.level}>")
        elif isinstance(block, Para):
            body.append(f"<p>{_html_inline(block.parts)}</p>")
        elif isinstance(block, Pre):
            body.append(f"<pre>{html.escape(block.text)}</pre>")
        elif isinstance(block, Table):
            head = "".join(f"<th>{_html_inline(h)}</th>" for h in block.headers)
            rows = "".join("<tr>" + "".join(f"<td>{_html_inline(c)}</td>" for c in row) + "</tr>"
                           for row in block.rows)
            body.append(f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>")
        elif isinstance(block, Items):
            tag = "ol" if block.ordered else "ul"
            items = "".join(f"<li>{_html_inline(item)}</li>" for item in block.items)
            body.append(f"<{tag}>{items}</{tag}>")
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"<title>{html.escape(title)}</title>\n<style>{_CSS}</style>\n</head>\n<body>\n"
            + "\n".join(body) + "\n</body>\n</html>\n")


def inline_text(parts) -> str:
    """Inline parts as plain text, code between backquotes (as the terminal writes moves and commands)."""
    return "".join(f"`{p.text}`" if isinstance(p, Code) else p.text if isinstance(p, Strong) else str(p)
                   for p in parts)


def to_text(doc, width: int = 78) -> str:
    """The document as plain text for a terminal: paragraphs wrapped, drawings indented, no markup."""
    out = []
    for block in doc:
        if isinstance(block, Heading):
            out.append(block.text)
        elif isinstance(block, Para):
            out.append(textwrap.fill(inline_text(block.parts), width, break_on_hyphens=False))
        elif isinstance(block, Pre):
            out.append(textwrap.indent(block.text, "    "))
        elif isinstance(block, Table):
            rows = [[inline_text(c) for c in row] for row in (block.headers,) + tuple(block.rows)]
            widths = [max(len(r[i]) for r in rows) for i in range(len(block.headers))]
            out.append("\n".join("  " + "  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows))
        elif isinstance(block, Items):
            out.append("\n".join(textwrap.fill(inline_text(item), width, initial_indent=(
                f"{i}. " if block.ordered else "- "), subsequent_indent="  ", break_on_hyphens=False)
                for i, item in enumerate(block.items, 1)))
    return "\n\n".join(out)


def rules_text(game, fmt: str = "md") -> str:
    """The rules reference of a compiled game as Markdown (`md`) or HTML (`html`)."""
    doc = rules_document(game)
    return to_html(doc) if fmt == "html" else to_markdown(doc)
