"""Lints: warnings about a pack that loads and checks but is probably not what its author meant.

    >>> from boardrule.dsl.pack import load_pack
    >>> lint_pack(load_pack("tictactoe"))
    []

`lint_pack(pack)` takes a checked pack (`dsl.pack.load_pack`) and returns
warnings, never errors: a pack with lints still loads and plays. Each lint
has its own code, explained in docs/diagnostics.md:

* W801-W804: a definition, chart, shape or variable that nothing uses; W805: an action no step offers;
  W806: `to_move` read where no decision is ever open (always none there);
* W811: chart columns that can never be reached, where the range of the value
  looked up is known from the rules alone (`count(adjacent)` is at most 4 on
  a square grid);
* W831: two piece kinds with the same pattern and the same placement rule
  (unless the game picks between them: cards of one deck, faces of one die,
  values of one option);
* W841: an extension entry that replaces a base entry without `override`;
  W842: `override` on an entry that replaces nothing; W843: a name a
  `remove:` took out that the pack still writes, where it now means
  something else.

(Shapes that can never fit on the board, W306, are found when the pack is
compiled: that needs the board's geometry.)
"""

from __future__ import annotations

from collections.abc import Iterator

import attrs

from boardrule.dsl import ast
from boardrule.dsl import model as model_module
from boardrule.dsl.diagnostics import Diagnostic
from boardrule.dsl.extends import ENTRY_SECTIONS, entry_name
from boardrule.dsl.records import frozen
from boardrule.dsl.resolution import (Aggregate, Attr, Define, Family, Function, Global, Pairwise, PlayerProp,
                                      PlayerVar, Prop, Region, Relative, Shape, SymbolSet, Value)
from boardrule.dsl.unparse import ast_equal, unparse

_NODE_MODULES = (ast.__name__, model_module.__name__)
#: Sections whose entries may be written as mappings, and so may say `override: true` inside.
_MAPPING_ENTRIES = ("options", "pieces", "shapes", "actions", "decks", "vars", "player_vars")


def lint_pack(pack) -> list[Diagnostic]:
    """Every lint warning of a loaded and checked pack, in file order."""
    lints = _Lints(pack.model, pack.checked, pack.tree)
    found = (lints.unused() + lints.unreachable_chart_columns() + lints.twin_pieces() + lints.hidden_names()
             + lints.unwritable_symbols()
             + lints.shadows()
             + lints.removed_still_named() + lints.actions_never_offered() + lints.replaced_fields_still_read()
             + lints.to_move_where_no_decision_is_open())
    return sorted(found, key=lambda d: (d.span.file, d.span.line, d.span.col) if d.span else ("", 0, 0))


def _warning(code, message, span, hint=None, notes=()) -> Diagnostic:
    return Diagnostic(code, message, span, "warning", hint, notes)


_FIELDS: dict = {}  # node class -> the names of its fields to walk (None: not a node)


def _fields(cls):
    if cls not in _FIELDS:
        node = attrs.has(cls) and cls.__module__ in _NODE_MODULES
        _FIELDS[cls] = tuple(f.name for f in reversed(attrs.fields(cls)) if f.name != "span") if node else None
    return _FIELDS[cls]


def walk(obj, skip=lambda node: False) -> Iterator[object]:
    """Every AST and model node inside `obj` (tuples, dicts and attrs nodes), depth first."""
    stack = [obj]
    while stack:
        item = stack.pop()
        if isinstance(item, (tuple, list)):
            stack.extend(reversed(item))
        elif isinstance(item, dict):
            stack.extend(reversed(list(item.values())))
        elif isinstance(item, (str, int, float)) or item is None:
            continue
        else:
            names = _fields(type(item))
            if names is None or skip(item):
                continue
            yield item
            stack.extend(getattr(item, name) for name in names)


# ------------------------------------------------------------------ board facts
@frozen
class BoardFacts:
    """What the rules alone say about the board: sizes that bound lists of cells."""

    cells: int
    columns: int
    rows: int
    degree: int  # neighbours of a cell at most
    surrounding: int
    players: int  # at most

    @classmethod
    def of(cls, model) -> BoardFacts | None:
        grid = model.board.grid
        if grid is None:
            return None
        columns, rows, cells = grid.columns, grid.rows, (grid.columns * grid.rows if grid.rows else 0)
        if grid.rows is None:  # `hex hexagon SIDE`: a hexagon inside a rhombus of 2 * SIDE - 1 a side
            columns = rows = 2 * grid.columns - 1
            cells = 3 * grid.columns * (grid.columns - 1) + 1
        if model.board.mask:
            cells = sum(token != "." for row in model.board.mask.split() for token in row) or cells
        options = {name: value for name, value, *_ in grid.options}
        hexes = grid.kind == "hex"
        degree = 6 if hexes else (8 if options.get("adjacency") == "all" else 4)
        players = model.game.players.high if model.game.players is not None else 12
        return cls(cells, columns, rows, degree, 6 if hexes else 8, max(players, model.game.seats or 0))


# ------------------------------------------------------------------ the lints
class _Lints:
    def __init__(self, model, checked, tree):
        self.model = model
        self.checked = checked
        self.resolved = checked.resolved
        self.tree = tree
        self.facts = BoardFacts.of(model)
        self.defines = {d.name: d for d in model.defines}
        # every node outside definitions, and each definition's nodes, walked once
        self.outside = list(walk(model, skip=lambda n: isinstance(n, model_module.DefineDef)))
        self.inside = {d.name: list(walk(d.body)) for d in model.defines}

    def deck_holding(self, node):
        """The name of the deck whose card `node` is, or None."""
        return next((deck.name for deck in self.model.decks if any(card is node for card, _ in deck.cards)), None)

    def resolution(self, node):
        if type(node).__module__ != ast.__name__:  # model nodes hash by value and are never resolved
            return None
        return self.resolved.get(node)

    # ------------------------------------------------------------- unused
    def references(self, nodes) -> set:
        """(what, name) for every definition, chart, shape and variable the nodes use."""
        refs = set()
        for node in nodes:
            found = self.resolution(node)
            if isinstance(node, (ast.Target, ast.Rotate)):
                refs.add(("var", node.name))  # (the walk reaches the owner, `mover` in `mover.buttons`, on its own)
                continue
            elif isinstance(node, ast.ChartName):
                refs.add(("chart", node.id))
            elif isinstance(node, model_module.PieceDef):
                refs.update(("shape", value) for value, _ in node.attributes.values() if isinstance(value, str))
            if found is None:
                continue
            what, name = type(found), found.name
            if what in (Define, Shape, Family):
                refs.add(("define" if what is Define else "shape", name))
            elif what in (Global, PlayerVar) and name is not None:
                refs.add(("var", name))
            elif isinstance(node, ast.Name) and what in (Global, PlayerVar):
                refs.add(("var", node.id))
        return refs

    def used(self) -> set:
        """What the pack's rules use, following definitions from the places that use them."""
        refs = self.references(self.outside)
        todo = [name for what, name in refs if what == "define"]
        seen = set()
        while todo:
            name = todo.pop()
            if name in seen or name not in self.inside:
                continue
            seen.add(name)
            more = self.references(self.inside[name])
            refs |= more
            todo.extend(n for what, n in more if what == "define")
        return refs

    def unused(self) -> list:
        used = self.used()
        found = []
        for define in self.model.defines:
            if ("define", define.name) not in used:
                found.append(_warning("W801", f"definition `{define.name}` is never used", define.span,
                                      hint="use it in a rule, or delete it"))
        chart_spans = self._chart_key_spans()
        for name in self.model.charts:
            if ("chart", name) not in used:
                found.append(_warning("W802", f"chart `{name}` is never used", chart_spans.get(name),
                                      hint=f"look it up with `chart(VALUE, {name})`, or delete it"))
        for shape in self.model.shapes:
            if ("shape", shape.name) not in used:
                found.append(_warning("W803", f"shape `{shape.name}` is never used", shape.span,
                                      hint="name it in a rule or as a piece's pattern, or delete it"))
        for what, defs in (("variable", self.model.vars), ("player variable", self.model.player_vars)):
            for var in defs:
                if ("var", var.name) not in used:
                    found.append(_warning("W804", f"{what} `{var.name}` is never used", var.span,
                                          hint="read or change it in a rule, or delete it"))
        return [d for d in found if d.span is not None]

    def _chart_key_spans(self) -> dict:
        """The span of each named chart's key in the pack (the chart's text when the key is unknown)."""
        spans = {}
        charts = self.tree.root.get("charts") if self.tree is not None else None
        for key, _ in getattr(charts, "entries", ()):
            spans[str(key.raw)] = key.span
        for name, chart in self.model.charts.items():
            if name not in spans and chart is not None:
                spans[name] = chart.span
        return spans

    # ------------------------------------------------------------- charts
    def unreachable_chart_columns(self) -> list:
        if self.facts is None:
            return []
        uses: dict = {}  # chart name or inline Chart -> [(low, high, the value node)]
        for node in self.outside + [n for nodes in self.inside.values() for n in nodes]:
            if not isinstance(node, ast.ChartCall):
                continue
            target = node.chart.id if isinstance(node.chart, ast.ChartName) else node.chart
            uses.setdefault(target if isinstance(target, str) else id(target), (target, []))[1].append(
                (bounds(node.value, self), node.value))
        found = []
        for target, values in uses.values():
            chart = self.model.charts.get(target) if isinstance(target, str) else target
            if chart is None or not chart.keys or len(chart.keys) != len(chart.values):
                continue
            if any(lo is None and hi is None for (lo, hi), _ in values):
                continue
            dead = [key for key in chart.keys if not any(_reaches(key, chart, lo, hi) for (lo, hi), _ in values)]
            if not dead:
                continue
            name = f"chart `{target}`" if isinstance(target, str) else "this chart"
            columns = ", ".join(unparse(k) for k in dead)
            word = "column" if len(dead) == 1 else "columns"
            notes = tuple((node.span, f"`{unparse(node)}` is {_range_words(lo, hi)}") for (lo, hi), node in values)
            found.append(_warning("W811", f"{word} {columns} of {name} can never be reached", dead[0].span,
                                  hint="drop the column, or check the value looked up", notes=notes))
        return found

    def actions_never_offered(self) -> list:
        """W805: an action that no flow step offers is never legal (an extension that adds one
        and forgets the step, or a step that lost it)."""
        flow = self.model.flow
        offered = {name for step in (*flow.setup, *flow.round) for name, _ in step.actions}
        return [_warning("W805", f"action `{action.name}` is offered by no flow step: it is never legal",
                         action.span, hint="name it in a step's `turns:`, `together:` or `decide:` list, "
                                           "or delete it")
                for action in self.model.actions if action.name not in offered]

    def to_move_where_no_decision_is_open(self) -> list:
        """W806: `to_move` read where no decision is ever open, so it is always none there: `end:` judged
        after whole rounds (`check_end: round`), a `do` step, a step's `who:` (directly or through a
        definition)."""
        flow = self.model.flow
        places = [(step.effect, "in a `do` step, which runs while no decision is open")
                  for step in (*flow.setup, *flow.round) if step.kind == "do"]
        places += [(step.who, "in `who:`, worked out before the step's decisions open")
                   for step in (*flow.setup, *flow.round) if step.who is not None]
        if flow.end_check == "round" and flow.end is not None:
            places.append((flow.end, "in `end:` judged after whole rounds (`check_end: round`), when no decision "
                                     "is open"))
        found = []
        for nodes, where in places:
            span = self._reads_to_move(nodes)
            if span is not None:
                found.append(_warning("W806", f"`to_move` is always none {where}", span,
                                      hint="`to_move` is the player whose decision is open: read it in `end:` "
                                           "judged per turn, an action or a scoring term"))
        return found

    def _reads_to_move(self, nodes, seen=frozenset()):
        """The span where `nodes` read `to_move`, directly or through a definition (its use), or None."""
        for node in walk(nodes):
            found = self.resolution(node)
            if found == Value("to_move"):
                return node.span
            if type(found) is Define and found.name not in seen and found.name in self.defines:
                if self._reads_to_move(self.defines[found.name].body, seen | {found.name}) is not None:
                    return node.span
        return None

    # ------------------------------------------------------------- pieces
    def alternatives(self) -> list:
        """Sets of names the game picks among: the cards of a deck, the faces of a die, an option's values."""
        groups = [set(option.values) for option in self.model.options]
        groups += [{getattr(face, "id", None) for face in die.faces} for die in self.model.dice]
        groups += [{getattr(card, "id", None) for card, _ in deck.cards} for deck in self.model.decks]
        return groups

    def twin_pieces(self) -> list:
        shapes = {s.name: _shape_key(s) for s in self.model.shapes if s.family is None}
        alternatives = self.alternatives()
        found = []
        pieces = list(self.model.pieces)
        for i, second in enumerate(pieces):
            for first in pieces[:i]:
                shared = _shared_pattern(first, second, shapes)
                if shared is None or not ast_equal(first.place, second.place):
                    continue
                if any(first.name in group and second.name in group for group in alternatives):
                    continue  # cards of one deck (or values of one option): the game says which is in play
                rule = "no placement rule" if first.place is None else "the same placement rule"
                found.append(_warning(
                    "W831", f"pieces `{first.name}` and `{second.name}` have the same pattern ({shared}) and {rule}: "
                            "nothing tells them apart when the pattern is built", second.span,
                    hint="give one of them another pattern or a `place:` rule, or remove one",
                    notes=((first.span, f"`{first.name}` is declared here"),)))
                break
        return found

    def unwritable_symbols(self) -> list:
        """W833: a piece symbol holding a character a position's cell gives a meaning to (`:` values,
        `@` the owner, `[` held pieces, `+` tokens) or a space: no test position can write that piece."""
        found = []
        for piece in self.model.pieces:
            bad = sorted({ch for ch in piece.symbol if ch in ":@[]+" or ch.isspace()})
            if piece.symbol in (".", "-") or bad:
                what = ("`.` is an empty cell" if piece.symbol == "." else "`-` is a missing cell") if not bad else \
                    "it holds " + ", ".join(f"`{ch}`" if not ch.isspace() else "a space" for ch in bad)
                found.append(_warning(
                    "W833", f"the symbol `{piece.symbol}` of `{piece.name}` cannot be written in a position: {what}",
                    piece.span, hint="a position's cell is the symbol, then `:value`, `@P1`, `[held]`, `+token`: "
                                     "choose a symbol without those characters"))
        return found

    def hidden_names(self) -> list:
        """W832: a piece attribute named like a region, a variable or an option. Inside a filter or a
        piece's rules a bare name reads the cell's attribute first, so the other is out of reach there."""
        others = {**{name: "variable" for name in self.checked.symbols.vars},
                  **{name: "option" for name in self.checked.symbols.options},
                  **{name: "region" for name in self.checked.symbols.regions}}
        found, told = [], set()
        for piece in self.model.pieces:
            for name, (_, span) in piece.attributes.items():
                what = others.get(name)
                if what is None or name in told:
                    continue
                told.add(name)
                found.append(_warning(
                    "W832", f"attribute `{name}` of `{piece.name}` has the name of a {what}: inside a filter or a "
                            f"piece's rules, `{name}` reads the cell's attribute, not the {what}", span,
                    hint=f"rename the attribute (or the {what}); `it.{name}` reads the attribute anywhere"))
        return found

    # ------------------------------------------------------------- extends
    def replaced_fields_still_read(self) -> list:
        """W846: a field of a base piece that `replace: true` left out, which the rules still read
        as an attribute (they now read nothing there: `none`, silently)."""
        read = {found.name for found in self.resolved.values() if type(found) in (Prop, Attr)}
        read |= {n.name for n in self.outside + [x for inside in self.inside.values() for x in inside]
                 if isinstance(n, ast.Attribute)}
        found = []
        for replacement in getattr(self.tree, "replaced", ()):
            lost = [f for f in replacement.dropped if f in read]
            if replacement.section == "pieces" and lost:
                names = ", ".join(f"`{f}`" for f in lost)
                found.append(_warning(
                    "W846", f"`pieces.{replacement.name}` says `replace: true` and leaves out {names}, which the "
                            "rules read", replacement.span,
                    hint="give the field again, or drop `replace: true` to keep the base's other fields",
                    notes=((replacement.base_span, "the base's entry is here"),)))
        return found

    def shadows(self) -> list:
        found = []
        for shadow in getattr(self.tree, "shadows", ()):
            if shadow.section not in ENTRY_SECTIONS:
                continue
            path = f"{shadow.section}.{entry_name(shadow.section, shadow.key)}"
            listed = f"`override: [{path}]` at the top"
            # `override: true` goes inside an entry written as a mapping; charts, definitions... take the list
            how = f"add `override: true` to the entry (or {listed})" if shadow.section in _MAPPING_ENTRIES \
                else f"add {listed}"
            if shadow.base_key is not None and not shadow.marked:
                found.append(_warning(
                    "W841", f"`{path}` replaces the base pack's entry without saying `override`", shadow.key.span,
                    hint=f"{how} if you mean it; rename it if you do not",
                    notes=((shadow.base_key.span, "the base's entry is here"),)))
            elif shadow.base_key is None and shadow.marked:
                found.append(_warning("W842", f"`{path}` says `override`, but the base pack has no such entry",
                                      shadow.key.span, hint="check the name, or drop `override`"))
        return found


    def removed_still_named(self) -> list:
        """W843: a name a `remove:` took out that a rule, a deck or a test still writes, and that
        now means something else (a piece removed, whose name is still an option's value or a die face)."""
        removals = {r.name: r for r in getattr(self.tree, "removed", ()) if r.section != "tests"}
        if not removals:
            return []
        found = []
        nodes = self.outside + [n for inside in self.inside.values() for n in inside]
        for node in nodes:
            if not isinstance(node, ast.Name) or node.id not in removals:
                continue
            resolution = self.resolution(node)
            if resolution is None:
                continue
            removal = removals[node.id]
            meaning = _MEANINGS.get(resolution.kind, resolution.kind.replace("_", " "))
            deck = self.deck_holding(node)
            hint = (f"take the card out of the deck too: `remove: [decks.{deck}.{node.id}]`" if deck else
                    f"replace or drop this use of `{node.id}`, or keep the entry")
            found.append(_warning(
                "W843", f"`{node.id}` was removed (`{removal.section}.{removal.name}`), but is still named here,"
                        f" where it now means {meaning}", node.span, hint=hint,
                notes=((removal.span, "removed here"),)))
        return found


_MEANINGS = {"symbol": "a plain name (a card, a die face or an option's value)", "define": "a definition",
             "global": "a variable", "player_var": "a player variable", "local": "a local value"}


def _shared_pattern(a, b, shapes) -> str | None:
    """The pattern two pieces share (by name or by identical art), as words; None if none."""
    for attr, (value, _) in a.attributes.items():
        other = b.attributes.get(attr, (None, None))[0]
        if not isinstance(value, str) or not isinstance(other, str):
            continue
        if value not in shapes or other not in shapes:
            continue
        if value == other:
            return f"`{attr}: {value}`"
        if shapes[value] == shapes[other]:
            return f"`{value}` and `{other}` are drawn alike"
    return None


def _shape_key(shape) -> tuple:
    rows = tuple(tuple(row.split()) for row in (shape.art or "").replace("/", "\n").strip().splitlines()
                 if row.strip())
    legend = tuple(sorted((k, unparse(v)) for k, v in shape.legend.items() if v is not None))
    return rows, shape.symmetry, legend


# ------------------------------------------------------------------ value ranges
def _reaches(key, chart, lo, hi) -> bool:
    """Whether a value in [lo, hi] (None: unbounded) can land in this column of the chart."""
    top = max(chart.keys, key=lambda k: k.low)
    above = hi is None or hi >= key.low
    if key is top:  # above the last column the chart keeps its last value
        return above
    return above and (lo is None or key.high is None or lo <= key.high)


def _range_words(lo, hi) -> str:
    if lo is not None and hi is not None:
        return f"always {lo}" if lo == hi else f"between {lo} and {hi}"
    if hi is not None:
        return f"at most {hi}"
    return f"at least {lo}"


def _add(a, b):
    return None if a is None or b is None else a + b


def bounds(node, lints, depth: int = 0) -> tuple:
    """(low, high) of a number the expression can take; None where the rules alone do not bound it."""
    if depth > 50:
        return None, None
    f = lints.facts
    sub = lambda n: bounds(n, lints, depth + 1)  # noqa: E731
    if isinstance(node, ast.Number):
        return node.value, node.value
    if isinstance(node, ast.Negate):
        lo, hi = sub(node.operand)
        return (None if hi is None else -hi), (None if lo is None else -lo)
    if isinstance(node, (ast.Not, ast.Member)):
        return 0, 1
    if isinstance(node, ast.Conditional):
        (a, b), (c, d) = sub(node.then), sub(node.otherwise)
        return (None if a is None or c is None else min(a, c)), (None if b is None or d is None else max(b, d))
    if isinstance(node, ast.BinOp):
        if node.op in ("and", "or", "==", "!=", "<", "<=", ">", ">="):
            return 0, 1
        (a, b), (c, d) = sub(node.left), sub(node.right)
        if node.op == "+":
            return _add(a, c), _add(b, d)
        if node.op == "-":
            return (None if a is None or d is None else a - d), (None if b is None or c is None else b - c)
        if node.op == "*" and None not in (a, b, c, d):
            products = (a * c, a * d, b * c, b * d)
            return min(products), max(products)
        if node.op == "/" and None not in (a, b) and c is not None and c == d and c > 0:
            return a // c, b // c
        if node.op == "%" and c is not None and c == d and c > 0 and a is not None and a >= 0:
            return 0, c - 1
        return None, None
    if isinstance(node, ast.ChartCall):
        chart = node.chart
        if isinstance(chart, ast.ChartName):
            chart = lints.model.charts.get(chart.id)
        numbers = [v for v in getattr(chart, "values", ()) if isinstance(v, int)]
        return (min(numbers + [0]), max(numbers + [0])) if numbers else (None, None)
    found = lints.resolution(node)
    if isinstance(node, ast.Name) and found is not None:
        if type(found) is Define:
            define = lints.defines.get(found.name)
            return sub(define.body) if define is not None and define.body is not None else (None, None)
        if found == Value("round"):
            return 1, None
        if found == Prop("x"):
            return 0, f.columns - 1
        if found == Prop("y"):
            return 0, f.rows - 1
        if found == Prop("order"):
            return 0, f.cells - 1
        if found in (Prop("empty"), Prop("occupied")):
            return 0, 1
        return None, None
    if isinstance(node, ast.Call) and found is not None:
        what, name = type(found), found.name
        if what is Aggregate:
            return _aggregate_bounds(node, lints, depth)
        if what is Pairwise:
            (a, b), (c, d) = sub(node.args[0]), sub(node.args[1])
            pick = min if name == "min" else max
            return (None if a is None or c is None else pick(a, c)), (None if b is None or d is None else pick(b, d))
        if found == Function("abs"):
            lo, hi = sub(node.args[0]) if node.args else (None, None)
            if lo is None or hi is None:
                return 0, None
            return (0 if lo <= 0 <= hi else min(abs(lo), abs(hi))), max(abs(lo), abs(hi))
        if what is Function and name in ("fits", "reaches", "allowed"):
            return 0, 1
    return None, None


def _aggregate_bounds(node, lints, depth) -> tuple:
    name = node.func
    if name in ("any", "all", "none"):
        return 0, 1
    args = node.args
    if len(args) == 1 and isinstance(args[0], ast.Comprehension):
        source, body = args[0].source, args[0].body
    elif args:
        source, body = args[0], (args[1] if len(args) > 1 else None)
    else:
        return None, None
    most = max_length(source, lints, depth + 1)
    if name in ("count", "distinct"):
        return 0, most
    if body is None:
        return None, None
    lo, hi = bounds(body, lints, depth + 1)
    if name == "sum":
        if most is None or lo is None or hi is None:
            return None, None
        return min(0, most * lo), max(0, most * hi)
    # min and max: 0 for nothing, else a value of the body
    return (None if lo is None else min(0, lo)), (None if hi is None else max(0, hi))


def max_length(node, lints, depth: int = 0):
    """How many elements a list can hold at most, from the rules alone; None if unknown."""
    if depth > 50:
        return None
    f = lints.facts
    more = lambda n: max_length(n, lints, depth + 1)  # noqa: E731
    if isinstance(node, ast.Where):
        return more(node.source)
    if isinstance(node, ast.ListExpr):
        return len(node.items)
    if isinstance(node, ast.Range):
        (a, _), (_, d) = bounds(node.low, lints, depth + 1), bounds(node.high, lints, depth + 1)
        return None if a is None or d is None else max(0, d - a + 1)
    if isinstance(node, ast.BinOp) and node.op == "+":
        a, b = more(node.left), more(node.right)
        return None if a is None or b is None else a + b
    found = lints.resolution(node)
    if found is None:
        return None
    what, name = type(found), found.name
    if isinstance(node, ast.Attribute) and found == PlayerProp("cells"):
        return f.cells
    if what is Value:
        return {"cells": f.cells, "edge": f.cells, "corners": f.cells, "all_corners": f.cells, "center": f.cells,
                "players": f.players, "others": max(0, f.players - 1)}.get(name)
    if what is Region:
        region = lints.model.board.regions.get(name)
        return len(region.cells) if region is not None else None
    if what is SymbolSet:
        return len(lints.model.symbols.get(name, ((), None))[0])
    if what is Define and isinstance(node, ast.Name):
        define = lints.defines.get(name)
        return more(define.body) if define is not None and define.body is not None else None
    if what in (Relative, Function):
        return {"adjacent": f.degree, "surrounding": f.surrounding, "row": f.columns, "column": f.rows,
                "opposite_pairs": f.degree // 2, "border": f.cells, "groups": f.cells}.get(name)
    return None
