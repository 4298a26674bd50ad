"""The pack-level check: every language fragment of a pack, each with the scope its field gives it.

`check_pack(model, bag) -> Checked` builds the symbol table, then walks the
sections (variables, components, definitions, pieces, shapes, charts,
actions, flow, scoring, status, display), handing each fragment to the
expression and statement checker (dsl/checker.py) with its scope.
"""

from __future__ import annotations

import attrs

from boardrule.dsl import ast
from boardrule.dsl.checker import Checked, Checker, Scope, is_card_type
from boardrule.dsl.diagnostics import did_you_mean
from boardrule.dsl.check_records import check_records
from boardrule.dsl.resolution import Define, Function, RecordKind, SymbolSet
from boardrule.dsl.display import check_display
from boardrule.dsl.sections import MAX_DECK_CARDS
from boardrule.dsl.symbols import build_symbols
from boardrule.dsl.types import ANY, BOOL, CELL, EVENT, NONE, NUM, PLAYER, compatible, item_type, join, list_of


# ------------------------------------------------------------------ the pack
def check_pack(model, bag, removed=()) -> Checked:
    """Check every fragment of a pack model; diagnostics go into `bag`. `removed` holds the
    entries an extension's `remove:` took out: an unknown name that one of them had points there."""
    symbols = build_symbols(model, bag)
    checker = Checker(symbols, bag)
    checker.removed = {r.name: r for r in removed if r.section != "tests"}
    check_records(checker, model)
    _check_vars(checker, model)
    _check_components(checker, model)
    _check_defines(checker, model)
    _check_effects(checker, model)
    _check_pieces(checker, model)
    _check_shapes(checker, model)
    for chart in symbols.charts.values():
        if chart is not None:
            checker.chart(chart)
    _check_actions(checker, model)
    _check_can_cycles(checker, model)
    _check_flow(checker, model)
    top = Scope({})
    for term in model.scoring:
        if term.expr is not None:
            checker.expect(term.expr, top, NUM, f"scoring term `{term.name}`")
    if model.verdict is not None:
        checker.expr(model.verdict, top)
    if model.evaluate is not None:
        checker.expect(model.evaluate, top, NUM, "`evaluate` (the agents' hint)")
    for entry in model.status:  # shared values: no player is meant
        if entry.expr is not None:
            checker.expr(entry.expr, Scope({}, me=False))
    for entry in model.player_status:  # each player's, for that player (`me`)
        if entry.expr is not None:
            checker.expr(entry.expr, top)
    terms = [t.name for t in model.scoring]
    for name, _, span in model.rulebook.scoring:
        if name not in terms:
            bag.error("E011", f"`doc.scoring` names `{name}`, which is not a scoring term", span,
                      hint=did_you_mean(name, terms) or "its keys are the names of the `scoring:` terms")
    check_display(model, symbols, bag)
    return checker.out


def _check_vars(checker: Checker, model) -> None:
    constant = Scope({}, me=False)
    for table, defs in ((checker.sym.vars, model.vars), (checker.sym.player_vars, model.player_vars)):
        for var in defs:
            if var.name not in table or checker.sym.declared.get(var.name, (None, None))[1] is not var.span:
                continue  # refused as a duplicate: its type must not shadow the first declaration
            values = var.per_seat or ((var.initial,) if var.initial is not None else ())
            t = NONE
            for value in values:
                if value is not None:
                    t = join(t, checker.expr(value, constant)) if t != NONE else checker.expr(value, constant)
            table[var.name] = ANY if t in (NONE,) else t
            declared = checker.sym.var_types.get(var.name)
            if declared is not None:
                if t != NONE and not compatible(t, declared.type):
                    checker.error("E210", f"`{var.name}` is declared a {declared.type}, so it cannot start as a {t}",
                                  next(v for v in values if v is not None))
                table[var.name] = declared.type


def _check_components(checker: Checker, model) -> None:
    """Dice faces and deck cards are constant values: numbers or declared names."""
    constant = Scope({}, me=False)
    for die in model.dice:
        for face in die.faces:
            if face is not None:
                checker.expr(face, constant)
    for deck in model.decks:
        t, total = NONE, 0
        for card, count in deck.cards:
            total += count
            if card is not None:
                card_t = checker.expr(card, constant)
                if card_t.is_list and isinstance(card, ast.Name):  # a kind of record, a symbol list: each of them
                    card_t = item_type(card_t)
                    total += count * (_listed(checker, card) - 1)
                if not is_card_type(card_t) or card_t == NONE:
                    checker.error("E210", f"a card is a name or a number, not a {card_t}", card)
                    card_t = ANY
                t = card_t if t == NONE else join(t, card_t)
        if total > MAX_DECK_CARDS:
            checker.error("E022", f"deck `{deck.name}` has {total:,} cards; a deck holds at most {MAX_DECK_CARDS:,}",
                          deck)
        # a deck declared empty (`{}`) takes any card; cards of two types make a deck of any card
        if checker.sym.decks.get(deck.name) is deck:
            checker.sym.deck_cards[deck.name] = ANY if t == NONE else t


def _listed(checker: Checker, name) -> int:
    """How many cards a deck's entry naming a list gives for each of its count."""
    found = checker.out.resolved.get(name)
    if type(found) is RecordKind:
        return len(checker.sym.record_ids_of(found.name))
    if type(found) is SymbolSet:
        return len(checker.sym.symbol_sets[found.name])
    return 1


def _check_defines(checker: Checker, model) -> None:
    """Check every definition once, used or not, as if written in a piece rule."""
    for define in model.defines:
        params = {p: ANY for p in define.params}
        checker.use_site = None  # checked on its own: no use to name (the last name read was elsewhere)
        checker.define_body(define, Scope({}, self_type=CELL), params)


def _check_effects(checker: Checker, model) -> None:
    """Check every named effect once, used or not, as if written in a piece's trigger."""
    for effect in model.effects:
        scope = Scope({p: ANY for p in effect.params}, self_type=CELL)
        checker.block(effect.body, scope)


def _check_pieces(checker: Checker, model) -> None:
    scope = Scope({}, self_type=CELL)
    for piece in model.pieces:
        if piece.score is not None:
            checker.expect(piece.score, scope, NUM, f"the score of `{piece.name}`")
        if piece.place is not None:
            checker.expect(piece.place, scope, BOOL, f"the placement rule of `{piece.name}`")
        _check_why(checker, piece.place_why, scope)
        for name, mark in piece.marks.items():
            if mark is not None:
                checker.expr(mark, attrs.evolve(scope, in_marks=True))
        for name in piece.rules:
            checker.rule_type(name)  # every kind's body of the rule, once
        for event, effect in piece.triggers:
            checker.block(effect, Scope({"event": EVENT}, self_type=CELL))


def _check_shapes(checker: Checker, model) -> None:
    for shape in model.shapes:
        for symbol, condition in shape.legend.items():
            if condition is not None:
                checker.expect(condition, Scope({}, it=CELL), BOOL, f"legend `{symbol}`")
        if shape.family is not None:
            scope = Scope({"x": NUM, "y": NUM, "n": NUM}, me=False)
            checker.expect(shape.family, scope, BOOL, f"the cells of family `{shape.name}`")
            if shape.sizes is not None:
                checker.expect(shape.sizes, Scope({}, me=False), list_of(NUM), "sizes")


def _check_actions(checker: Checker, model) -> None:
    for action in model.actions:
        scope = Scope({})
        checker.listing_action = action.name  # what lists the action's moves may not ask `can` of it
        for name, domain in action.params:
            t = checker.expr(domain, scope) if domain is not None else ANY
            if not t.is_list and t != ANY:
                checker.error("E212", f"parameter `{name}` must range over a list, but this is a {t}", domain)
            scope = scope.bind(name, item_type(t))
            _check_why(checker, action.param_whys.get(name), scope)  # the refused value is bound to `name`
        if action.when is not None:
            checker.expect(action.when, scope, BOOL, f"the condition of action `{action.name}`")
        for _, why in action.when_parts:
            _check_why(checker, why, scope)
        for condition, why in action.refuse_after_parts:  # judged after the effect, with the parameters chosen
            checker.expect(condition, scope, BOOL, f"the condition after the move of action `{action.name}`")
            _check_why(checker, why, scope)
        checker.listing_action = None
        checker.block(action.effect, scope)


def _check_can_cycles(checker: Checker, model) -> None:
    """E241 for actions whose moves ask `can` of each other (`place` asks whether `wait` can be taken, `wait`
    whether `place` can): listing either would never end. An action asking it of itself is caught as it is
    checked."""
    asks = {action.name: _cans_in_listing(checker, action) for action in model.actions}
    for name, calls in asks.items():
        for other, call in calls:
            if other != name and any(back == name for back, _ in asks.get(other, ())):
                checker.error("E241", f"`{name}` and `{other}` ask `can` of each other in the rules that list their "
                                      "moves: listing either would ask the other, endlessly", call,
                              "write the condition the moves need in one of them instead")


def _cans_in_listing(checker: Checker, action) -> list:
    """(action asked, the `can` call) for every `can` in an action's parameters, `when:` and `refuse_after:`
    (all judged while its moves are listed), definitions followed."""
    from boardrule.dsl.lints import walk
    resolved, defines = checker.out.resolved, checker.sym.defines
    found, seen = [], set()
    todo = [domain for _, domain in action.params if domain is not None] + \
        ([action.when] if action.when is not None else []) + [c for c, _ in action.refuse_after_parts]
    while todo:
        for node in walk(todo.pop()):
            what = resolved.get(node) if isinstance(node, (ast.Call, ast.Name)) else None
            if what == Function("can") and len(node.args) == 2 and isinstance(node.args[1], ast.Name):
                found.append((node.args[1].id, node))
            elif type(what) is Define and what.name not in seen:
                seen.add(what.name)
                body = defines[what.name].body
                if body is not None:
                    todo.append(body)
    return found


def _check_why(checker: Checker, why, scope) -> None:
    """The expressions in braces of a reason (`why:`), in the scope of the rule it explains."""
    if why is None:
        return
    for part in why.parts:
        if not isinstance(part, str):
            checker.expr(part, scope)


def _check_flow(checker: Checker, model) -> None:
    flow = model.flow
    for step in flow.setup + flow.round:
        global_scope = Scope({}, me=False)
        if step.kind == "do":
            checker.block(step.effect, global_scope)
            continue
        if step.who is not None:
            t = checker.expr(step.who, global_scope)
            if not compatible(t, list_of(PLAYER)) and not compatible(t, PLAYER):
                checker.error("E210", f"`who` must be a player or a list of players, not a {t}", step.who)
        for name, span in step.actions:
            if name not in checker.sym.actions:
                hint = did_you_mean(name, sorted(checker.sym.actions))
                checker.bag.error("E224", f"unknown action `{name}`", span,
                                  hint=hint)
    if flow.end is not None:
        checker.expect(flow.end, Scope({}, me=False), BOOL, "the end condition")
    for term in flow.ranking:
        if term is not None:
            checker.expect(term, Scope({}), NUM, "a ranking term")
