"""Compile statements into closures `f(ctx)` that change `ctx.state`.

A block of simple statements only (remove, place, set, change, score, if)
is generated as one Python function instead (codegen_effects.py); these
closures run every other block, and are what the generated one is tested
against.

Effects run on a clone of the state (flow.apply), so a statement that fails
half-way never leaves a damaged state behind; playouts run them on a state of
their own (flow.apply_in_place), dropped if a rule fails.
"""

from __future__ import annotations

from boardrule.dsl.limits import MAX_NUMBER, out_of_range_message
from boardrule.dsl.resolution import ExprPlayerVar, Global, HeldPlayerVar, PlayerVar
from boardrule.dsl.sections import MAX_DECK_CARDS
from boardrule.dsl.types import ANY, item_type
from boardrule.dsl.unparse import unparse
from boardrule.interpreter.runtime.budget import weight
from boardrule.interpreter.runtime.deck_order import put_seen
from boardrule.interpreter.runtime.state import set_kind
from boardrule.interpreter.runtime.values import CELL_BITS, CELL_MASK, NeedChoice, Player, RuleError
from boardrule.dsl import ast as nodes

MAX_LOOP = 10_000
MAX_DECK = MAX_DECK_CARDS  # cards in one deck


PLACED = "placed"  # the event every `place` fires
UNSET = object()


def _restoring(names, run):
    """`run`, after which the local names `names` hold again what they held before (or nothing)."""
    def restoring(ctx):
        env = ctx.env
        saved = [env.get(name, UNSET) for name in names]
        try:
            run(ctx)
        finally:
            for name, value in zip(names, saved):
                put_back(env, name, value)
    return restoring


def put_back(env, name, saved):
    """After a block, a loop, a choice or a draw: `name` holds again what it held before (`saved`), or
    nothing when it held nothing (UNSET)."""
    if saved is UNSET:
        env.pop(name, None)
    else:
        env[name] = saved


def _with_locals(compiled, names):
    """A block whose `let` statements name values for the rest of it: the names it hides come back after."""
    def run(ctx):
        for statement in compiled:
            statement(ctx)
    return _restoring(names, run)


class EffectCompiler:
    def __init__(self, game, checked, exprs):
        self.game = game
        self.resolved = checked.resolved
        self.types = checked.types
        self.exprs = exprs
        self.named = {}  # effect name -> its statements, compiled once

    def block(self, stmts):
        from boardrule.interpreter.compiler import codegen_effects, exprs
        if exprs.GENERATE and stmts and codegen_effects.writable(self.exprs, stmts):
            return codegen_effects.generate_effect(self.exprs, stmts)  # one function for the whole block
        compiled = [self.statement(s) for s in stmts]
        local = tuple(dict.fromkeys(s.name for s in stmts if type(s) is nodes.LetStmt))
        if local:
            return _with_locals(compiled, local)
        if len(compiled) == 1:
            return compiled[0]

        def run(ctx):
            for statement in compiled:
                statement(ctx)
        return run

    def trial_block(self, stmts):
        """The statements as `block` runs them, for a copy of the state whose memo the caller has set
        (runtime/after.py, trying every candidate move): the `let` statements they start with read it,
        as nothing has changed the copy yet and what the listing remembered still holds; the memo goes
        before the first statement that may change the state."""
        count = 0
        while count < len(stmts) and type(stmts[count]) is nodes.LetStmt:
            count += 1
        leading = [self.statement(s) for s in stmts[:count]]
        rest = self.block(stmts[count:]) if count < len(stmts) else (lambda ctx: None)

        def run(ctx):
            try:
                for let in leading:
                    let(ctx)
            finally:
                ctx.state.memo = None
            rest(ctx)
        names = tuple(dict.fromkeys(s.name for s in stmts[:count]))
        return _restoring(names, run) if names else run

    def s_Do(self, node):
        """A named effect: its arguments worked out here, then its statements with its parameters bound to
        them (the names they hide come back after); the statements compiled once per effect."""
        args, params = [self.e(a) for a in node.args], node.params
        body = self.named.get(node.name)
        if body is None:
            body = self.named[node.name] = self.block(node.body) if node.body else (lambda ctx: None)

        def run(ctx):
            values = [arg(ctx) for arg in args]  # all worked out before a parameter hides a name
            ctx.env.update(zip(params, values))
            body(ctx)
        return _restoring(params, run)

    def s_LetStmt(self, node):
        value, name = self.e(node.value), node.name

        def let(ctx):
            ctx.env[name] = value(ctx)
        return let

    def statement(self, node):
        return _STATEMENT_COMPILERS[type(node)](self, node)

    def e(self, node):
        return self.exprs.compile(node)

    # ----------------------------------------------------------- pieces
    def s_Place(self, node):
        kind, at = self.e(node.kind), self.e(node.at)
        extra = [(k.name, self.e(k.value)) for k in node.attributes]
        tokens = self.game.token_kinds

        def place(ctx):
            what, cell = kind(ctx), at(ctx)
            if what is None or cell is None:
                raise RuleError("`place` needs a piece and a cell", node.span)
            if what not in ctx.game.static_attrs:
                raise RuleError(f"`{what}` is not a piece kind, so it cannot be placed", node.span)
            board, index = cell >> CELL_BITS, cell & CELL_MASK
            state = ctx.state
            if what in tokens:
                state.tokens[board][index] = state.tokens[board].get(index, ()) + (what,)
                return
            if state.kind[board][index] is not None:
                raise RuleError(f"{ctx.game.grid.name(index)} already holds a piece", node.span)
            set_kind(state, board, index, what)
            state.owner[board][index] = ctx.me
            if extra:
                state.attrs[board][index] = {name: value(ctx) for name, value in extra}
            if PLACED in ctx.game.triggers:  # most packs have no piece that listens
                fire(ctx, PLACED, {"kind": what, "cell": cell, "player": ctx.me})
        return place

    def s_Remove(self, node):
        target = self.e(node.target)
        if node.source is not None:
            return self._remove_token(node, target, self.e(node.source))

        def remove(ctx):
            value = target(ctx)
            for cell in (value if isinstance(value, tuple) else (value,)):
                clear_cell(ctx.state, cell)
        return remove

    def _remove_token(self, node, token, source):
        def remove_token(ctx):
            what, cell = token(ctx), source(ctx)
            board, index = cell >> CELL_BITS, cell & CELL_MASK
            here = list(ctx.state.tokens[board].get(index, ()))
            if what not in here:
                raise RuleError(f"no {what} on {ctx.game.grid.name(index)} to remove", node.span)
            here.remove(what)
            if here:
                ctx.state.tokens[board][index] = tuple(here)
            else:
                ctx.state.tokens[board].pop(index, None)
        return remove_token

    def s_Replace(self, node):
        target, kind = self.e(node.target), self.e(node.kind)

        def replace(ctx):
            cell = target(ctx)
            board, index = cell >> CELL_BITS, cell & CELL_MASK
            if ctx.state.kind[board][index] is None:
                raise RuleError(f"nothing to replace on {ctx.game.grid.name(index)}", node.span)
            set_kind(ctx.state, board, index, kind(ctx))
            ctx.state.attrs[board].pop(index, None)
        return replace

    def s_Store(self, node):
        item, holder = self.e(node.item), self.e(node.holder)

        def store(ctx):
            cell = holder(ctx)
            board, index = cell >> CELL_BITS, cell & CELL_MASK
            held = ctx.state.held[board]
            held[index] = held.get(index, ()) + (item(ctx),)
        return store

    def s_Unstore(self, node):
        item, holder = self.e(node.item), self.e(node.holder)

        def unstore(ctx):
            cell = holder(ctx)
            board, index = cell >> CELL_BITS, cell & CELL_MASK
            held = list(ctx.state.held[board].get(index, ()))
            what = item(ctx)
            if what not in held:
                raise RuleError(f"{ctx.game.grid.name(index)} holds no {what}", node.span)
            held.remove(what)
            ctx.state.held[board][index] = tuple(held)
        return unstore

    def s_Move(self, node):
        token, source, destination = self.e(node.token), self.e(node.source), self.e(node.destination)

        def move(ctx):
            what, a, b = token(ctx), source(ctx), destination(ctx)
            tokens = ctx.state.tokens
            here = list(tokens[a >> CELL_BITS].get(a & CELL_MASK, ()))
            if what not in here:
                raise RuleError(f"no {what} on {ctx.game.grid.name(a & CELL_MASK)} to move", node.span)
            here.remove(what)
            tokens[a >> CELL_BITS][a & CELL_MASK] = tuple(here)
            there = tokens[b >> CELL_BITS]
            there[b & CELL_MASK] = there.get(b & CELL_MASK, ()) + (what,)
        return move

    # -------------------------------------------------------- variables
    def _writer(self, target):
        found = self.resolved[target]
        kind, owner, name = type(found), found.name, target.name
        if kind is Global:
            return lambda ctx: ctx.state.vars, name
        if kind is HeldPlayerVar:  # `mover.buttons`: the player a variable holds
            def held_player(ctx):
                player = ctx.state.vars[owner]
                if player is None:
                    raise RuleError(f"`{owner}` holds no player, so `{owner}.{name}` cannot be set", target.span)
                return ctx.state.pvars[player]
            return held_player, name
        if kind is ExprPlayerVar:  # `left_of(me).coins`: the player an expression gives
            return self._player_of(target), name
        if owner is None:  # the acting player's own
            return lambda ctx: ctx.state.pvars[ctx.me], name
        if owner in ("me", "left", "right"):
            from boardrule.interpreter.compiler.functions import VALUE_READERS
            read = VALUE_READERS[owner](self.game)
            return lambda ctx: ctx.state.pvars[read(ctx)], name
        return lambda ctx: ctx.state.pvars[ctx.env[owner]], name

    def _player_of(self, target):
        """`table(ctx)`: the variables of the player `target.owner` gives; a value that is no player (`none`)
        is a rule error naming the expression."""
        read, owner = self.e(target.owner), unparse(target.owner)
        written = unparse(nodes.Attribute(target.owner, target.name, target.span))  # parenthesised as needed

        def variables(ctx):
            player = read(ctx)
            if type(player) is not Player:
                raise RuleError(f"`{owner}` gives {_shown(player)}, not a player, so `{written}` cannot be set",
                                target.span)
            return ctx.state.pvars[player]
        return variables

    def s_Set(self, node):
        table, name = self._writer(node.target)
        value = self.e(node.value)
        found = self.resolved[node.target]
        if node.target.index is not None:
            element = self._element_writer(node.target, table)

            def assign_element(ctx):
                element(ctx, lambda old: value(ctx))
            return assign_element
        if type(found) is Global:  # the common targets, written without the table's closure
            def assign_global(ctx):
                ctx.state.vars[name] = value(ctx)
            return assign_global
        if found == PlayerVar():
            def assign_mine(ctx):
                ctx.state.pvars[ctx.me][name] = value(ctx)
            return assign_mine

        def assign(ctx):
            table(ctx)[name] = value(ctx)
        return assign

    def s_Change(self, node):
        table, name = self._writer(node.target)
        value = self.e(node.value)
        sign = 1 if node.op == "+=" else -1

        def changed(old, by):
            result = (old or 0) + sign * by
            if not -MAX_NUMBER <= result <= MAX_NUMBER:
                raise RuleError(out_of_range_message(str(result)), node.span)
            return result
        if node.target.index is not None:
            element = self._element_writer(node.target, table)

            def change_element(ctx):
                element(ctx, lambda old: changed(old, value(ctx)))
            return change_element

        def change(ctx):
            variables = table(ctx)
            variables[name] = changed(variables[name], value(ctx))
        return change

    def _element_writer(self, target, table):
        """`write(ctx, new)` for `name[i]`: the list of the variable copied with element i (from 0; -1 the
        last) replaced by `new(old element)`. A copy, since a clone of the state shares its lists."""
        name, index, span = target.name, self.e(target.index), target.span

        def write(ctx, new):
            variables = table(ctx)
            items, i = variables[name], index(ctx)
            if not isinstance(items, (tuple, list)):
                raise RuleError(f"`{name}` holds no list (it holds {_shown(items)}), so `{name}[{i}]` cannot be set",
                                span)
            if type(i) is not int or not -len(items) <= i < len(items):
                raise RuleError(f"`{name}[{i}]` cannot be set: the position is outside a list of {len(items)}", span)
            changed = list(items)
            changed[i] = new(items[i])
            variables[name] = type(items)(changed)
        return write

    def s_Score(self, node):
        value = self.e(node.value)
        label = node.label
        if label is not None and not isinstance(label, str):
            return self._score_labelled(value, self.e(label))

        def score(ctx):
            points = value(ctx)
            ctx.state.points[ctx.me].append([label or "points", points])
        return score

    def _score_labelled(self, value, label):
        """`score N as EXPR`: the label worked out as it scores; a piece kind gives its own label."""
        labels = {p.name: p.score_label for p in self.game.model.pieces}

        def score(ctx):
            points, named = value(ctx), label(ctx)
            ctx.state.points[ctx.me].append([labels.get(named, str(named)), points])
        return score

    # ---------------------------------------------------------- control
    def s_If(self, node):
        branches = [(self.e(c), self.block(b)) for c, b in node.branches]
        otherwise = self.block(node.otherwise) if node.otherwise else None

        def run_if(ctx):
            for condition, body in branches:
                if condition(ctx):
                    body(ctx)
                    return
            if otherwise is not None:
                otherwise(ctx)
        return run_if

    def s_For(self, node):
        source, body, var = self.e(node.source), self.block(node.body), node.var
        cost = weight(node.body)

        def run_for(ctx):
            items = source(ctx)
            if len(items) > MAX_LOOP:
                raise RuleError(f"`for` over {len(items)} elements; the limit is {MAX_LOOP}", node.span)
            ctx.meter.charge(len(items) * cost, node.span)
            saved_me, saved_board, saved = ctx.me, ctx.board, ctx.env.get(var, UNSET)
            for item in items:
                ctx.env[var] = item
                if isinstance(item, Player):
                    ctx.for_player(item)  # looping over players makes each one `me`
                body(ctx)
            put_back(ctx.env, var, saved)
            ctx.me, ctx.board = saved_me, saved_board
        return run_for

    def s_Choose(self, node):
        source, body, var, optional = self.e(node.source), self.block(node.body), node.var, node.optional
        # answers are printed by type; the state keeps the index of the type
        item = len(self.game.choice_types)
        self.game.choice_types.append(item_type(self.types.get(node.source, ANY)))

        def run_choose(ctx):
            options = tuple(source(ctx))
            if not options:
                return
            ctx.meter.charge(len(options), node.span)
            if len(options) == 1 and not optional:
                pick = options[0]
            elif ctx.answers:
                pick = ctx.answers.pop(0)
                if pick is None and optional:
                    return
                if pick not in options:
                    raise NeedChoice(options, optional, node.span, item)
            else:
                raise NeedChoice(options, optional, node.span, item)
            saved = ctx.env.get(var, UNSET)
            ctx.env[var] = pick
            body(ctx)
            put_back(ctx.env, var, saved)
        return run_choose

    # ----------------------------------------------------------- chance
    def s_Roll(self, node):
        items = node.dice.items if type(node.dice) is nodes.ListExpr else (node.dice,)
        names = tuple(item.id for item in items)
        faces = self.game.dice_faces

        def roll(ctx):
            for name in names:
                face = ctx.state.rng.choice(faces[name])
                ctx.state.dice[name] = face
                ctx.state.log.append(["roll", name, face])
        return roll

    def s_Shuffle(self, node):
        deck = self.e(node.deck)

        def shuffle(ctx):
            name = deck(ctx)
            ctx.state.rng.shuffle(ctx.state.own_deck(name))
            ctx.state.log.append(["shuffle", name])
        return shuffle

    def s_Draw(self, node):
        deck, body, var = self.e(node.deck), self.block(node.body), node.var

        def draw(ctx):
            name = deck(ctx)
            if not ctx.state.decks[name]:
                raise RuleError(f"`draw` from an empty deck: `{name}` has no card left "
                                f"(test `count(cards({name})) > 0` first)", node.span)
            card = ctx.state.own_deck(name).pop()
            ctx.state.log.append(["draw", name, card])
            saved = ctx.env.get(var, UNSET)
            ctx.env[var] = card
            body(ctx)
            put_back(ctx.env, var, saved)
        return draw

    def s_Put(self, node):
        what, deck, bottom = self.e(node.cards), self.e(node.deck), node.bottom
        where = "under" if bottom else "on"

        seen = []  # whether every player sees the cards put (deck_order.put_seen), decided at the first put

        def put(ctx):
            if not seen:
                seen.append(put_seen(ctx.game, node))
            value, name = what(ctx), deck(ctx)
            cards = ctx.state.own_deck(name)
            # a list of cards goes one card after the other, in the list's order
            for card in (value if type(value) is tuple else (value,)):
                if card is None or type(card) not in (str, int):
                    raise RuleError(f"`put` needs a card (a name or a number), not {card!r}", node.span)
                if len(cards) >= MAX_DECK:
                    raise RuleError(f"`{name}` would hold more than {MAX_DECK} cards", node.span)
                if bottom:
                    cards.insert(0, card)
                else:
                    cards.append(card)
                ctx.state.log.append(["put", name, card, where, seen[0]])
        return put

    # ------------------------------------------------------------ other
    def s_Emit(self, node):
        values = [(k.name, self.e(k.value)) for k in node.attributes]
        event = node.event

        def emit(ctx):
            fire(ctx, event, {"player": ctx.me, **{name: value(ctx) for name, value in values}})
        return emit

    def s_Rotate(self, node):
        name = node.name

        def rotate(ctx):
            # every seat takes the value of the seat to its right (clockwise passing),
            # vacant seats included, as markers pass around a table
            pvars = ctx.state.pvars
            values = [p[name] for p in pvars]
            for seat in range(len(pvars)):
                pvars[seat][name] = values[seat - 1]
        return rotate

    def s_Finish(self, node):
        player = self.e(node.player)

        def finish(ctx):
            seat = player(ctx)
            if seat is not None and seat not in ctx.state.finished:
                ctx.state.finished.append(int(seat))
        return finish


def clear_cell(state, cell):
    board, index = cell >> CELL_BITS, cell & CELL_MASK
    set_kind(state, board, index, None)
    state.owner[board][index] = None
    state.attrs[board].pop(index, None)
    state.held[board].pop(index, None)


MAX_TRIGGER_DEPTH = 20


def fire(ctx, event, data):
    """Run the `on: EVENT` effect of every piece that listens, on every board.

    Each runs with `self` = the listening piece's cell, `me` = the owner of
    its board (or of the piece, on a shared board) and `event` = `data`.
    """
    listeners = ctx.game.triggers.get(event)
    if not listeners:
        return
    state, game = ctx.state, ctx.game
    depth = state.trigger_depth
    if depth >= MAX_TRIGGER_DEPTH:
        raise RuleError(f"triggers on `{event}` set each other off more than {MAX_TRIGGER_DEPTH} deep")
    for kind, effect in listeners:
        for board in range(len(state.kind)):
            kinds = state.kind[board]
            if kind not in kinds:  # most boards hold no listener: one scan in C
                continue
            for index, here in enumerate(kinds):
                if here != kind:
                    continue
                owner = state.owner[board][index] if game.shared_board else board
                span, cost = game.trigger_spans[kind]
                ctx.meter.charge(cost, span)
                inner = game.ctx(state, me=owner)
                inner.self_ = board << CELL_BITS | index
                inner.env = {"event": data}
                inner.answers = ctx.answers
                state.trigger_depth = depth + 1
                try:
                    effect(inner)
                finally:
                    state.trigger_depth = depth


def _shown(value) -> str:
    return "none" if value is None else repr(value) if isinstance(value, str) else str(value)


#: statement class -> the EffectCompiler method that compiles it
_STATEMENT_COMPILERS = nodes.methods_by_class(EffectCompiler, "s_")
