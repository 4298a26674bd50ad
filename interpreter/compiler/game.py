"""Compile a checked pack into an immutable Game.

`Game` holds everything that does not change during play: the grid and its
tables (neighbours, regions, every shape placement), the compiled closures of
every rule, and the flow. `Game.initial_state(...)` starts a game; the
functions in flow.py move it on.
"""

from __future__ import annotations

import attrs

from boardrule.dsl.diagnostics import Diagnostic, PackError
from boardrule.dsl.resolution import Attr, Define, Function, PlayerProp, Prop, Region, Rule, Value
from boardrule.dsl.types import ANY, SHAPE, item_type
from boardrule.interpreter.compiler.board import make_board
from boardrule.interpreter.compiler.directions import direction_tables
from boardrule.interpreter.runtime import shapes as shape_lib
from boardrule.interpreter.compiler.asking import asking_events, may_ask
from boardrule.interpreter.runtime.budget import weight
from boardrule.interpreter.compiler.codegen_loops import sure_cell_list
from boardrule.interpreter.compiler.compiled import Game, placements as _placements
from boardrule.interpreter.runtime.context import Ctx
from boardrule.interpreter.compiler.effects import EffectCompiler
from boardrule.interpreter.compiler import exprs as exprs_module
from boardrule.interpreter.compiler.codegen_listing import generate_lister, once_each
from boardrule.interpreter.compiler.exprs import ExprCompiler
from boardrule.interpreter.runtime.values import CELL_BITS, RuleError
from boardrule.dsl import ast as nodes

MAX_SEATS = 12
GENERATE_LISTERS = True  # an action's moves listed by a generated function (codegen_listing.py); False: closures


class CompiledAction:
    __slots__ = ("name", "index", "params", "param_names", "param_nodes", "when", "when_node", "when_at", "effect",
                 "label", "span", "lister", "may_ask", "whys", "when_parts", "filtered", "refuse_after",
                 "shape_params", "trial_effect")

    def __init__(self, **fields):
        self.lister = None  # flow._parameter_lister, built on first use
        for key, value in fields.items():
            setattr(self, key, value)


class CompiledStep:
    __slots__ = ("kind", "effect", "actions", "who", "repeat", "required", "span", "index")

    def __init__(self, **fields):
        for key, value in fields.items():
            setattr(self, key, value)


# ------------------------------------------------------------------ compile
def compile_game(pack) -> Game:
    """Compile a loaded and checked pack (see dsl.pack.load_pack) into a Game."""
    try:
        return _compile(pack)
    except RecursionError:
        from boardrule.dsl.pack import pack_span
        raise PackError("the pack's rules nest too deeply to compile (definitions calling definitions?)",
                        code="E137", span=pack_span(pack.tree), sources=pack.sources) from None


def _compile(pack) -> Game:
    model = pack.model
    grid = make_board(model.board)
    high = model.game.players.high
    seats_max = max(model.game.seats or 0, high)
    if seats_max > MAX_SEATS:
        raise PackError(f"at most {MAX_SEATS} seats are supported", code="E301", span=model.game.players.span)
    game = Game(pack, grid, seats_max)
    game.choice_types = []  # the item type of every `choose`, by index
    game.warnings = []  # findings that do not stop the game (shown by `boardrule check`)
    exprs = ExprCompiler(game, pack.checked)
    game.facts = exprs.facts
    effects = EffectCompiler(game, pack.checked, exprs)
    _tables(game, model)
    _data(game, model, exprs)
    _shapes(game, model, exprs)
    _pieces(game, model, exprs, effects)
    _components(game, model, exprs)
    _actions(game, model, exprs, effects)
    _flow(game, model, exprs, effects)
    return game.seal()


def _encode_table(game, table):
    """A list indexed by encoded cell: the table's cells re-encoded on that board."""
    out = [()] * (game.boards << CELL_BITS)
    for board in range(game.boards):
        base = board << CELL_BITS
        for cell in game.grid.cells:
            out[base | cell] = tuple(base | n for n in table[cell])
    return out


def _tables(game, model):
    grid = game.grid
    game.board_cells = [tuple(b << CELL_BITS | c for c in grid.cells) for b in range(game.boards)]
    game.direction_tables = direction_tables(game)
    game.direction_names = tuple(name for name, _ in grid.directions())
    game.cell_tables = {
        "adjacent": _encode_table(game, grid.neighbours),
        "surrounding": _encode_table(game, grid.surrounding),
        "row": _encode_table(game, grid.row_cells),
        "column": _encode_table(game, grid.column_cells),
    }
    pairs = [()] * (game.boards << CELL_BITS)
    for board in range(game.boards):
        base = board << CELL_BITS
        for cell in grid.cells:
            pairs[base | cell] = tuple((base | a, base | b) for a, b in grid.opposite_pairs[cell])
    game.cell_tables["opposite_pairs"] = pairs
    regions = {"edge": grid.edge, "corners": grid.corners, "all_corners": grid.all_corners, "center": grid.center}
    for name, cell_list in model.board.regions.items():
        regions[name] = _region_cells(grid, cell_list)
    game.regions = {name: [tuple(sorted(b << CELL_BITS | c for c in cells)) for b in range(game.boards)]
                    for name, cells in regions.items()}


def _region_cells(grid, cell_list):
    cells = []
    for ref in cell_list.cells:
        try:
            cells.append(grid.parse_name(ref.name))
        except (KeyError, ValueError):
            raise PackError(f"there is no cell {ref.name} on this board", code="E304", span=ref.span) from None
    return cells


def _pieces(game, model, exprs, effects):
    # an attribute naming a shape (a building's pattern) holds the shape itself
    game.static_attrs = {p.name: {k: game.shapes.get(v, v) if isinstance(v, str) else v
                                  for k, (v, _) in p.attributes.items()} for p in model.pieces}
    game.named_fields.update(_record_fields(game))
    game.named_fields.update(game.static_attrs)
    game.piece_scores = {p.name: (exprs.compile(p.score), p.score_label, p.score.span)
                         for p in model.pieces if p.score is not None}
    game.place_rules = {p.name: exprs.compile(p.place) for p in model.pieces if p.place is not None}
    game.place_whys = {p.name: compile_why(exprs, p.place_why) for p in model.pieces if p.place_why is not None}
    game.piece_rules = {}  # rule name -> piece kind -> its compiled rule (filled before any is compiled:
    for piece in model.pieces:  # a rule may read another kind's rule)
        for name in piece.rules:
            game.piece_rules.setdefault(name, {})
    for piece in model.pieces:
        for name, rule in piece.rules.items():
            if rule is not None:
                game.piece_rules[name][piece.name] = exprs.compile(rule)
    game.marks = {p.name: tuple((m, exprs.compile(e)) for m, e in p.marks.items() if e is not None)
                  for p in model.pieces if p.marks}
    game.triggers, game.trigger_spans = {}, {}
    for piece in model.pieces:
        for event, effect in piece.triggers:
            if effect:
                game.triggers.setdefault(event, []).append((piece.name, effects.block(effect)))
                game.trigger_spans.setdefault(piece.name, (effect[0].span, weight(effect)))


def _record_fields(game) -> dict:
    """Record id -> {field: value}, a field declared a shape (or a list of shapes) holding the shape."""
    symbols = game.pack.checked.symbols
    out = {}
    for rid, values in symbols.record_values.items():
        declared = symbols.record_fields.get(symbols.record_of[rid], {})
        out[rid] = {name: _with_shapes(game, declared[name], value) for name, value in values.items()}
    return out


def _with_shapes(game, declared, value):
    if declared.item is not None:
        return tuple(_with_shapes(game, declared.item, v) for v in value)
    return game.shapes.get(value, value) if declared.type == SHAPE and value is not None else value


def mark_uses(model, resolved) -> dict:
    """Piece kind -> the marks its rules use: the marks it sets (`marks:`) and every mark read by
    its score, placement rule, marks, named rules and triggers, and by what those read in turn
    (definitions, the rules of that name of every kind, the placement rules `allowed` asks,
    and every mark for a player's `score`)."""
    from boardrule.dsl.lints import walk
    marks = frozenset(m for p in model.pieces for m in p.marks)
    parts = {Define(d.name): d.body for d in model.defines}  # what a rule may read, by its resolution
    parts[Function("allowed")] = tuple(p.place for p in model.pieces)
    for piece in model.pieces:
        for name, body in piece.rules.items():
            parts[Rule(name)] = parts.get(Rule(name), ()) + (body,)

    def direct(roots):
        """(the marks read right here, the keys of the parts read from here)."""
        found, refs = set(), set()
        for node in walk(roots):
            what = resolved.get(node) if type(node) in (nodes.Name, nodes.Attribute, nodes.Call) else None
            if what is None:
                continue
            if type(what) in (Prop, Attr) and what.name in marks:
                found.add(what.name)
            elif type(what) in (Define, Rule) or what == Function("allowed"):
                refs.add(what)
            elif what == PlayerProp("score"):
                found |= marks  # a score sheet reads every mark
        return found, refs

    edges = {key: direct(body) for key, body in parts.items()}

    def uses(piece) -> frozenset:
        found, todo = direct((piece.score, piece.place, piece.marks, piece.rules, piece.triggers))
        found |= set(piece.marks)
        seen = set(todo)
        todo = list(todo)
        while todo:  # definitions and rules may read each other: every part reached once
            more, refs = edges.get(todo.pop(), ((), ()))
            found |= more
            todo.extend(r for r in refs if r not in seen)
            seen |= refs
        return frozenset(found)

    return {p.name: uses(p) for p in model.pieces}


def _shapes(game, model, exprs):
    kind = game.grid.kind
    layout = game.grid.hex_layout
    game.shapes, game.shape_defs, game.legends, game.families = {}, {}, {}, {}
    for shape in model.shapes:
        game.legends[shape.name] = {s: exprs.compile(e) for s, e in shape.legend.items() if e is not None}
        if shape.family is not None:
            game.families[shape.name] = _family(game, shape, exprs.compile(shape.family), kind, layout)
            continue
        try:
            compiled = shape_lib.make_shape(shape.name, shape.art, symmetry=shape.symmetry, kind=kind,
                                            hex_layout=layout)
        except ValueError as err:
            raise PackError(f"bad shape art: {err}", code="E305", span=shape.art_node.span) from None
        game.shapes[shape.name] = compiled
        game.shape_defs[shape.name] = compiled
        if not _placements(game.grid, compiled).placements:
            where = shape.art_node.span if shape.art_node is not None else shape.span
            game.warnings.append(Diagnostic("W306", f"shape `{shape.name}` can never fit on this board", where,
                                            severity="warning"))


def _family(game, shape, condition, kind, layout):
    cache = {}
    # a member wider than the board fits nowhere: sizes past it are refused, not built
    largest = 2 * max(game.grid.width, game.grid.height)

    def member(n):
        if n not in cache:
            if type(n) is not int or not 1 <= n <= largest:
                raise RuleError(f"shape family `{shape.name}` has members of size 1 to {largest} on this board, "
                                f"not {n!r}", shape.span)
            ctx = Ctx(game, None)

            def test(x, y, size):
                ctx.env = {"x": x, "y": y, "n": size}
                return bool(condition(ctx))
            made = shape_lib.family_shape(f"{shape.name}({n})", test, n, kind, shape.symmetry)
            cache[n] = made
            game.shape_defs[made.name] = made
            game.legends.setdefault(made.name, game.legends.get(shape.name, {}))
        return cache[n]
    return member


def _face(node):
    """A die face as stored in a state: a number or a name (never an object)."""
    return node.value if type(node) is nodes.Number else getattr(node, "id", None)


def _cards(value) -> list:
    """The cards a deck's entry gives: a card, or each card of a list (`card: 2`, `card` a kind of
    record: two of each of its records)."""
    return list(value) if type(value) is tuple else [value]


def _constant(exprs, node):
    return exprs.compile(node)(Ctx.__new__(Ctx)) if node is not None else None


def _placed_attributes(model) -> frozenset:
    """The attributes an effect gives a piece as it places it (`place K at c with crowns = 2`)."""
    from boardrule.dsl.lints import walk
    return frozenset(kw.name for node in walk(model) if type(node) is nodes.Place for kw in node.attributes)


def _data(game, model, exprs):
    """Plain tables that compiled closures look up (so they come first: a shape's legend is compiled
    before the pieces, and reads which names are marks and variable attributes). The definitions
    are kept after the rewrite passes (the model keeps them as written, for the reference evaluator)."""
    game.kind_names = tuple(p.name for p in model.pieces)
    game.variable_attributes = frozenset(a for p in model.pieces for a in p.variable)
    game.per_piece_attributes = game.variable_attributes | _placed_attributes(model)
    game.static_attribute_names = frozenset(a for p in model.pieces for a in p.attributes)
    game.token_kinds = frozenset(p.name for p in model.pieces if p.attributes.get("token", (False,))[0] is True)
    game.symbols = {p.name: p.symbol for p in model.pieces}
    game.mark_names = frozenset(m for p in model.pieces for m in p.marks)
    symbols = game.pack.checked.symbols
    game.record_kinds = {kind: symbols.record_ids_of(kind) for kind in symbols.record_kinds}
    # the fields of every named value that has some, read by `x.field`: records here, piece kinds'
    # attributes and the shapes records hold once those are compiled (_pieces): closures keep this dict
    game.named_fields = {}
    game.symbol_sets = {name: tuple(s for s, _ in items) for name, (items, _) in model.symbols.items()}
    game.charts_ast = dict(model.charts)
    game.dice_faces = {d.name: tuple(_face(f) for f in d.faces) for d in model.dice}
    game.shape_dice = frozenset(d.name for d in model.dice
                                if d.faces and all(_face(f) in model_shape_names(model) for f in d.faces))
    game.mark_uses = mark_uses(model, game.pack.checked.resolved)  # before any rule is compiled: `uses` reads it
    # last: the rewrite passes read the tables above (rewrites/kinds.py)
    game.defines = {d.name: d if d.body is None else attrs.evolve(d, body=exprs.rewritten(d.body))
                    for d in model.defines}


def model_shape_names(model):
    return {s.name for s in model.shapes if s.family is None}


def _components(game, model, exprs):
    # a deck starts in the order its cards are declared, the first on top (a state keeps the top last)
    game.decks = {d.name: tuple(reversed([card for node, count in d.cards
                                          for card in _cards(_constant(exprs, node)) * count]))
                  for d in model.decks}
    game.options = {o.name: o for o in model.options}
    game.vars = [(v.name, exprs.compile(v.initial) if v.initial is not None else None) for v in model.vars]
    game.private_vars = frozenset(v.name for v in model.player_vars if v.private)
    game.player_vars = [(v.name, exprs.compile(v.initial) if v.initial is not None else None,
                         tuple(exprs.compile(s) for s in v.per_seat)) for v in model.player_vars]
    game.scoring = tuple((t.name, exprs.compile(t.expr), t.span) for t in model.scoring if t.expr is not None)
    game.verdict = exprs.compile(model.verdict) if model.verdict is not None else None
    game.evaluation_hint = exprs.compile(model.evaluate) if model.evaluate is not None else None
    game.status = tuple((t.name, exprs.compile(t.expr), exprs.types.get(t.expr), t.expr)
                        for t in model.status if t.expr is not None)
    game.player_status = tuple((t.name, exprs.compile(t.expr), exprs.types.get(t.expr), t.expr)
                               for t in model.player_status if t.expr is not None)


def _filtered_domain(exprs, action):
    """(source, condition) compiled apart for an action of one parameter whose values are a filter
    (`cell: cells where empty and ...`), so that `can` stops at the first value that passes; else None."""
    if len(action.params) != 1:
        return None
    domain = action.params[0][1]
    if type(domain) is not nodes.Where:
        return None
    return exprs.compile(domain.source), exprs.compile(domain.condition)


def _actions(game, model, exprs, effects):
    game.actions = {}
    asking = asking_events(model.pieces)
    for index, action in enumerate(model.actions):
        # a parameter over cells holds a cell while the action's lists, conditions and effect compile
        # (in the effect, unless a `let`, a loop or a choice there gives the name another value)
        sure = frozenset(name for name, domain in action.params if sure_cell_list(exprs.resolved, domain, game.defines))
        exprs.sure_locals = sure - names_bound_in(action.effect)
        effect = effects.block(action.effect) if action.effect else (lambda ctx: None)
        trial_effect = effects.trial_block(action.effect) if action.refuse_after_parts and action.effect else None
        exprs.sure_locals = sure
        game.actions[action.name] = CompiledAction(
            name=action.name, index=index,
            params=tuple((name, _once_each(exprs.compile(domain), domain, exprs.resolved, game.defines))
                         for name, domain in action.params),
            param_names=tuple(name for name, _ in action.params), param_nodes=action.params,
            when=exprs.compile(action.when) if action.when is not None else None, when_node=action.when,
            when_at=_when_at(action),
            effect=effect, may_ask=may_ask(action.effect or (), asking), label=action.label, span=action.span,
            whys={name: compile_why(exprs, why) for name, why in action.param_whys.items()},
            when_parts=tuple((exprs.compile(node), node, compile_why(exprs, why))
                             for node, why in action.when_parts),
            filtered=_filtered_domain(exprs, action), refuse_after=_refuse_after(exprs, action, asking),
            shape_params=_shape_params(exprs, action),
            trial_effect=trial_effect)
        if action.params and GENERATE_LISTERS and exprs_module.GENERATE:
            compiled = game.actions[action.name]
            compiled.lister = generate_lister(exprs, compiled, action.params, [
                _distinct(domain, exprs.resolved, game.defines) for _, domain in action.params])
        exprs.sure_locals = frozenset()
    game.action_index = {name: a.index for name, a in game.actions.items()}
    types = game.pack.checked.types
    game.param_types = {a.name: tuple(item_type(types.get(domain, ANY)) for _, domain in a.params)
                        for a in model.actions}


def _variable(node):
    return node.var


def _named(node):
    return node.name


#: the statements and expressions that give a name a value of their own -> the name they bind
_BINDERS = {nodes.For: _variable, nodes.Choose: _variable, nodes.Draw: _variable, nodes.Comprehension: _variable,
            nodes.ListComp: _variable, nodes.Let: _named, nodes.LetStmt: _named}


def names_bound_in(effect) -> frozenset:
    """The names a loop, a `let`, a choice or a draw inside `effect` binds (each may hide a parameter)."""
    from boardrule.dsl.lints import walk
    return frozenset(_BINDERS[type(node)](node) for node in walk(effect or ()) if type(node) in _BINDERS)


def _shape_params(exprs, action) -> tuple:
    """The parameters whose values are the matches of a pattern (`matches(SHAPE, ...)`), as
    (index, the shape's expression compiled): what the agents' shape potential looks for on a board
    (agents/patterns.py). The shape may read the parameters before it."""
    found = []
    for index, (_, domain) in enumerate(action.params):
        if type(domain) is nodes.Call and exprs.resolved.get(domain) == Function("matches") and domain.args:
            found.append((index, exprs.compile(domain.args[0])))
    return tuple(found)


def _refuse_after(exprs, action, asking):
    """`refuse_after:` compiled: its parts as (condition, node, reason), or None. The conditions are judged
    on the state the move's effect leaves, so an effect that may stop to ask a choice cannot have them
    (E242: that state is not known until the choice is made)."""
    if not action.refuse_after_parts:
        return None
    if may_ask(action.effect or (), asking):
        raise PackError(f"action `{action.name}` asks a choice in its effect, so the state after its move is not "
                        "known when its moves are listed: `refuse_after:` cannot judge it", code="E242",
                        span=action.refuse_after.span,
                        hint="make the choice a parameter of the move, or refuse the move in `when:`")
    return tuple((exprs.compile(node), node, compile_why(exprs, why)) for node, why in action.refuse_after_parts)


#: values whose elements are never the same twice: the board's cells and regions, the pack's kinds,
#: directions and players, the cell tables
_DISTINCT_NAMES = {Value(n) for n in ("cells", "edge", "corners", "all_corners", "center", "kinds",
                                          "directions", "players", "others")}
_DISTINCT_CALLS = {Function(n) for n in ("adjacent", "surrounding", "row", "column", "placements", "matches",
                                             "groups", "border", "ray", "between")}


def _distinct(node, resolved, defines, depth=0) -> bool:
    """True when a parameter's values can never hold one value twice (a filter of such a list too, and
    a definition whose body is one)."""
    kind = type(node)
    if kind is nodes.Where:
        return _distinct(node.source, resolved, defines, depth)
    if kind is nodes.Range:
        return True
    what = resolved.get(node) if kind in (nodes.Name, nodes.Call) else None
    if type(what) is Define and depth < 8:
        return _distinct(defines[what.name].body, resolved, defines, depth + 1)
    return what in _DISTINCT_NAMES or what in _DISTINCT_CALLS or type(what) is Region


def _once_each(domain, node, resolved, defines):
    """A parameter's values with each one once, in their order: a value a list holds twice (two dice
    showing the same face) makes one legal move, not two. A list that cannot hold one twice is left
    as it is."""
    if _distinct(node, resolved, defines):
        return domain

    def values(ctx):
        return once_each(domain(ctx))
    return values


def compile_why(exprs, why):
    """A reason (`why:`) ready to be told: its literal texts, and a compiled expression for each `{...}`."""
    if why is None:
        return None
    types = exprs.types
    return tuple(part if isinstance(part, str) else (exprs.compile(part), types.get(part)) for part in why.parts)


def _when_at(action) -> int:
    """How many parameters must be chosen before `when` can be judged.

    `when` is tested as early as it can be, so a condition that needs no
    parameter guards the parameters' own lists (and saves their work).
    """
    if action.when is None:
        return 0
    used = _names_in(action.when)
    needed = [i + 1 for i, (name, _) in enumerate(action.params) if name in used]
    return max(needed, default=0)


def _names_in(node) -> set:
    import attrs as _attrs
    found = set()
    if type(node) is nodes.Name:
        found.add(node.id)
    if _attrs.has(type(node)):
        for field in _attrs.fields(type(node)):
            value = getattr(node, field.name)
            for item in (value if isinstance(value, tuple) else (value,)):
                if _attrs.has(type(item)):
                    found |= _names_in(item)
    return found


def _flow(game, model, exprs, effects):
    flow = model.flow

    def step(s, index):
        # a `do` step with nothing to do (an empty `do: |`) does nothing, as an action without an effect
        nothing = (lambda ctx: None) if s.kind == "do" else None
        return CompiledStep(kind=s.kind, effect=effects.block(s.effect) if s.effect else nothing,
                            actions=tuple(name for name, _ in s.actions),
                            who=exprs.compile(s.who) if s.who is not None else None,
                            repeat=s.repeat, required=s.required, span=s.span, index=index)
    game.setup_steps = tuple(step(s, i) for i, s in enumerate(flow.setup))
    game.round_steps = tuple(step(s, i) for i, s in enumerate(flow.round))
    game.end = exprs.compile(flow.end)
    game.end_span = flow.end.span
    game.check_end = flow.end_check
    game.max_rounds = flow.max_rounds
    game.ranking = tuple(exprs.compile(t) for t in flow.ranking if t is not None)
    resolved = game.pack.checked.resolved.values()
    game.reads_to_move = Value("to_move") in resolved
    game.keeps_positions = Value("repeated") in resolved
