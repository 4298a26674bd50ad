"""The flow engine: start a game, list legal moves, apply a move.

The flow is a list of setup steps, then round steps repeated until the end
condition holds. `do` steps run at once; decision steps (`turns`, `together`,
`decide`) open a Pending decision for each seat that must act, and the game
waits for moves. Every function here returns a new State and leaves the one
passed in unchanged, except `apply_in_place` (playouts) and `settle` (positions).
"""

from __future__ import annotations

import re

from boardrule.dsl.diagnostics import IllegalMoveError, UsageError, did_you_mean
from boardrule.dsl.exact import exact
from boardrule.interpreter.runtime import after
from boardrule.interpreter.runtime.budget import Meter, weight
from boardrule.interpreter.runtime.context import Ctx
from boardrule.interpreter.runtime.moves import (DONE, Move, append_moves_of_values, move_text, normalise_text,
                                                 remembered_moves, value_text)
from boardrule.interpreter.runtime.state import LazyRandom, Pending, State, forget_masks
from boardrule.interpreter.runtime.values import PLAYERS, NeedChoice, Player, RuleError
from boardrule.dsl import ast as nodes

MAX_STEPS = 100_000  # flow steps per game, a guard against packs that never end
MAX_MOVES_PER_STEP = 2_000  # moves of all players in one step, a guard against endless repeats
# the work budget's charge for a move and a flow step (budget.py): what the engine does around the rules
MOVE_UNITS, STEP_UNITS = 100, 10


# ------------------------------------------------------------------ start
def initial_state(game, players: int | None = None, seed: int = 0, options: dict | None = None,
                  seating: tuple | None = None, meter: Meter | None = None) -> State:
    """A new game after its setup, waiting for the first decision.

    With more seats than players (`game: seats:`), players sit at random
    seats drawn from `seed`, unless `seating` names the occupied seats.
    `meter` is the work budget its states share (budget.py; default: a new one).
    """
    low, high = game.players_range
    players = low if players is None else players
    if not low <= players <= high:
        raise UsageError(f"{game.name} is for {low}-{high} players, not {players}", code="E002")
    chosen = resolve_options(game, options or {})
    rng = LazyRandom.seeded(seed)
    seats = max(game.model.game.seats or 0, players)
    if seating is not None:
        occupied = tuple(sorted(int(s) for s in seating))
        if len(occupied) != players or len(set(occupied)) != players or not all(0 <= s < seats for s in occupied):
            raise UsageError(f"seating {list(occupied)} does not fit {players} players at {seats} seats", code="E007")
    elif seats == players:
        occupied = tuple(range(players))
    else:
        occupied = tuple(sorted(rng.sample(range(seats), players)))
    boards = game.boards if game.shared_board else seats
    size = game.grid.size
    state = State(seats=seats, players=occupied, options=chosen,
                  kind=[[None] * size for _ in range(boards)], owner=[[None] * size for _ in range(boards)],
                  attrs=[{} for _ in range(boards)], held=[{} for _ in range(boards)],
                  tokens=[{} for _ in range(boards)], vars={}, pvars=[{} for _ in range(seats)],
                  points=[[] for _ in range(seats)], dice={}, decks={k: list(v) for k, v in game.decks.items()},
                  rng=rng, meter=meter if meter is not None else Meter())
    state.meter.begin()
    if seats != players:
        state.log.append(["seats", list(occupied)])
    _init_vars(game, state)
    _advance(game, state)
    return state


def resolve_options(game, given: dict) -> dict:
    chosen = {name: option.default for name, option in game.options.items()}
    for name, value in given.items():
        option = game.options.get(name)
        if option is None:
            hint = did_you_mean(name, game.options)
            raise UsageError(f"{game.name} has no option `{name}`", code="E003", hint=hint)
        chosen[name] = _option_value(option, value)
    return chosen


_DECIMAL = re.compile(r"-?[0-9]{1,15}(\.[0-9]{1,15})?\Z")


def _option_value(option, value):
    text = str(value).strip().lower()
    if option.type == "bool":
        if text in ("true", "yes", "on", "1"):
            return True
        if text in ("false", "no", "off", "0"):
            return False
    elif option.type == "int":
        try:
            return int(text)
        except ValueError:
            pass
    elif option.type == "number" and _DECIMAL.match(text):
        return exact(text)  # 7.5 is seven and a half, exactly (dsl/exact.py)
    elif text in option.values:
        return text
    wanted = ", ".join(option.values) if option.values else {
        "bool": "yes or no", "int": "a whole number", "number": "a number (7 or 7.5)"}[option.type]
    raise UsageError(f"option `{option.name}` takes {wanted}, not `{value}`", code="E004")


def _init_vars(game, state):
    ctx = game.ctx(state)
    for name, initial in game.vars:
        state.vars[name] = initial(ctx) if initial is not None else None
    for name, initial, per_seat in game.player_vars:
        for seat in range(state.seats):
            ctx.for_player(seat)
            if per_seat:
                state.pvars[seat][name] = per_seat[seat % len(per_seat)](ctx)
            else:
                state.pvars[seat][name] = initial(ctx) if initial is not None else None


# ------------------------------------------------------------------ moves
def legal_moves(game, state: State, seat: int) -> list:
    """Every move `seat` may make now, deterministic and sorted."""
    pending = state.pending.get(seat)
    if pending is None or state.phase == "over":
        return []
    if pending.choice is not None:
        move, options, optional, type_index = pending.choice
        types = move.answer_types + (game.choice_types[type_index],)
        moves = [Move(seat, move.action, move.args, move.answers + (o,), types) for o in options]
        return moves + ([Move(seat, move.action, move.args, move.answers + (None,), types)] if optional else [])
    moves = list(_action_moves_cached(game, state, seat))
    if _may_be_done(pending, moves):
        moves.append(Move(seat, DONE))
    return moves


def _may_be_done(pending, moves) -> bool:
    """`done` closes a repeated decision, once a move was made or while one is possible."""
    return pending.repeat and not pending.required and bool(moves or pending.moved)


def _is_legal(game, state, move) -> bool:
    if move.action == DONE:
        pending = state.pending[move.seat]
        return (move == Move(move.seat, DONE) and pending.choice is None
                and _may_be_done(pending, _action_moves_cached(game, state, move.seat)))
    if state.pending[move.seat].choice is None:
        listed = _action_moves_cached(game, state, move.seat)
        if any(m is move for m in listed):  # an agent hands back a move it was given: no hashing
            return True
    return move in _legal_set(game, state, move.seat)


def _legal_set(game, state, seat) -> frozenset:
    """The legal moves as a set, for the legality check of `apply`."""
    pending = state.pending[seat]
    if pending.choice is not None:
        return frozenset(legal_moves(game, state, seat))
    key = ("set", seat)
    found = state.moves_cache.get(key)
    if found is None:
        found = state.moves_cache[key] = frozenset(_action_moves_cached(game, state, seat))
    return found


def _action_moves_cached(game, state, seat) -> tuple:
    """The sorted action moves of a seat's open decision, computed once per state."""
    cached = state.moves_cache.get(seat)
    if cached is None:
        state.meter.begin()  # listing them is an operation of its own (budget.py)
        # the canonical order: actions as the pack declares them, then each
        # parameter's values in the order its list gives them (cells row by row)
        ctx = Ctx(game, state, PLAYERS[seat])
        state.memo = {}  # nothing changes the state while moves are listed: definitions are remembered
        try:
            actions = state.pending[seat].actions
            if len(actions) == 1:  # (the common decision: one action, its moves as they are listed)
                moves = action_moves(game, state, seat, game.actions[actions[0]], ctx)
            else:
                moves = []
                for name in _in_declared_order(game, actions):
                    moves.extend(action_moves(game, state, seat, game.actions[name], ctx))
        finally:
            state.memo = None
        cached = state.moves_cache[seat] = tuple(moves)
    return cached


def _in_declared_order(game, actions) -> tuple:
    """A decision's actions in the order the pack declares them (sorted once per set of actions)."""
    orders = game.cache.table("action_order")  # (read directly: it is asked at every listing)
    order = orders.get(actions)
    if order is None:
        order = game.cache.bounded(orders)[actions] = tuple(sorted(actions, key=game.action_index.__getitem__))
    return order


def action_moves(game, state, seat, action, ctx=None) -> list:
    """The moves of one action for `seat`, in canonical order."""
    if ctx is None:
        ctx = Ctx(game, state, PLAYERS[seat])
    when = action.when
    if when is not None and action.when_at == 0 and not when(ctx):
        return []  # most actions are ruled out before any parameter is listed
    if not action.params:
        return after.kept(game, state, [Move(seat, action.name, ())])
    lister = action.lister
    if lister is None:
        lister = action.lister = _parameter_lister(action)
    found = []
    lister(ctx, ctx.env, seat, (), found)
    if action.refuse_after is None or not found:
        return found
    return after.kept(game, state, found)  # each candidate tried when the action says `refuse_after:`


class _Found(Exception):
    """A move was listed: `can_move` has its answer."""


class _FirstMove(list):
    def append(self, move):
        raise _Found


class _FirstKept(list):
    """Stops at the first move listed that the action's `refuse_after:` lets through."""

    def __init__(self, game, state):
        super().__init__()
        self.game, self.state = game, state

    def append(self, move):  # (the listing's memo, which the candidates' effects read first: after.state_after)
        if after.refusing_part(self.game, self.state, move, memo=self.state.memo) is None:
            raise _Found


_ASKING: set = set()  # (state, seat, action) whose moves `can_move` is listing now: a rule asking it again loops


def can_move(game, state, seat: int, name: str, span=None) -> bool:
    """`can(p, ACTION)`: whether `seat` has a legal move of action `name` now, as if it were its decision:
    the action's `when:` holds and its parameters have a complete choice. The moves are listed as play
    lists them and the listing stops at the first move. An action whose rules ask this, through other
    actions, of itself is a fault of the pack (RuleError), not an endless loop."""
    key = (id(state), seat, name)
    if key in _ASKING:
        raise RuleError(f"`can(..., {name})` asks itself: the rules that list `{name}`'s moves ask, through other "
                        f"actions, whether `{name}` has a move", span)
    action = game.actions[name]
    ctx = Ctx(game, state, PLAYERS[seat])
    outer = state.memo
    if outer is None:
        state.memo = {}  # nothing changes the state while moves are listed: definitions are remembered
    _ASKING.add(key)
    try:
        when = action.when
        if when is not None and action.when_at == 0 and not when(ctx):
            return False
        if not action.params:
            return not action.refuse_after or after.refusing_part(game, state, Move(seat, name, ())) is None
        if action.filtered is not None and not action.refuse_after and (when is None or action.when_at == 0):
            return _first_value_passes(ctx, action, span)
        lister = action.lister
        if lister is None:
            lister = action.lister = _parameter_lister(action)
        try:  # with `refuse_after:`, the first move the state after it does not refuse
            lister(ctx, ctx.env, seat, (), _FirstKept(game, state) if action.refuse_after else _FirstMove())
        except _Found:
            return True
        return False
    finally:
        _ASKING.discard(key)
        state.memo = outer


def _first_value_passes(ctx, action, span) -> bool:
    """Whether some value of a one-parameter action's filter passes it, stopping at the first."""
    source, condition = action.filtered
    elements = source(ctx)
    ctx.meter.charge(len(elements) + 1, span)
    saved = ctx.it
    try:
        for element in elements:
            ctx.it = element
            if condition(ctx):
                return True
        return False
    finally:
        ctx.it = saved


def _parameter_lister(action):
    """`list(ctx, env, seat, args, found)`: appends the action's moves to `found`.

    One function per parameter, each calling the next for every value of its
    own; built once per action. `when` is judged as soon as the parameters it
    reads are chosen (`when_at`: before the parameter of that index, or on
    every move when it reads them all)."""
    params, when, when_at, name = action.params, action.when, action.when_at, action.name
    last = len(params) - 1
    lister = None
    for index in range(last, -1, -1):
        check = when if when is not None and index == when_at and index else None
        span = action.param_nodes[index][1].span  # where a listing that spends the budget points
        if index == last:
            final = when if when is not None and when_at == last + 1 else None
            cost = 1 + (weight(action.when_node) if final is not None else 0)  # a move, and `when` judged for it
            lister = _last_level(params[index], check, final, name, span, cost)
        else:
            lister = _middle_level(params[index], check, lister, span)
    return lister


def _last_level(param, check, final_check, action_name, span, cost):
    """The last parameter: its values make the moves, without a call each.

    The moves are remembered per seat and values (`made`): the same moves come
    up again and again (a game's every turn, every game of a simulation), and
    a move is immutable data, cheaper found than built."""
    param_name, domain = param
    made = {}  # seat -> {values: Move}

    def level(ctx, env, seat, args, found):
        if check is not None and not check(ctx):
            return
        mine = remembered_moves(made, seat)
        values_here = domain(ctx)
        meter = ctx.meter
        meter.left -= len(values_here) * cost
        if meter.left < 0:
            meter.over(span)
        if not args and final_check is None:  # an action of one parameter: its value is the key
            append_moves_of_values(found, mine, seat, action_name, values_here)
            return
        for value in values_here:
            if final_check is not None:
                env[param_name] = value
                if not final_check(ctx):
                    continue
            values = args + (value,)
            move = mine.get(values)
            if move is None:
                move = mine[values] = Move(seat, action_name, values)
            found.append(move)
        if final_check is not None:
            env.pop(param_name, None)
    return level


def _middle_level(param, check, inner, span):
    """A parameter before the last: each of its values is set, then `inner` lists the rest."""
    param_name, domain = param

    def level(ctx, env, seat, args, found):
        if check is not None and not check(ctx):
            return
        values_here = domain(ctx)
        meter = ctx.meter
        meter.left -= len(values_here)
        if meter.left < 0:
            meter.over(span)
        for value in values_here:
            env[param_name] = value
            inner(ctx, env, seat, args + (value,), found)
        env.pop(param_name, None)
    return level


def waiting(state: State) -> list:
    """The seats that must decide now, in seat order."""
    return sorted(state.pending) if state.phase != "over" else []


def apply(game, state: State, move: Move) -> State:
    """The state after `move`; raises IllegalMoveError (state unchanged) if it is not legal."""
    state.meter.begin()
    pending = state.pending.get(move.seat)
    if pending is None:
        raise IllegalMoveError(_not_waiting(game, state, move.seat), code="E501")
    if not _is_legal(game, state, move):
        raise IllegalMoveError(explain_illegal(game, state, move), code="E502")
    return _make(game, state.clone(), move, state)


def apply_in_place(game, state: State, move: Move) -> State:
    """The state after `move`, one that `legal_moves(state)` listed, made on `state` itself.

    For playouts that own their state (agents.play_out, the Monte Carlo
    agent's): no legality check, and no copy unless the move's effect may stop
    to ask a choice (asking.py), which is asked on a copy of the state before
    it, as `apply` does. Same moves, same states as `apply`; use the state
    returned, and no other reference to `state`, from then on.
    """
    state.meter.begin()
    if move.action != DONE and game.actions[move.action].may_ask:
        return _make(game, state.clone(), move, state)
    snapshot = state.snapshot
    if snapshot is not None and snapshot[0] is state.kind:
        detach_snapshot(state)  # it shares the boards this move changes
    state.moves_cache.clear()
    return _make(game, state, move, None)


def _make(game, new: State, move: Move, before: State | None) -> State:
    """Make `move` on `new`; `before` is the state as it was, kept when the move may ask a choice."""
    meter = new.meter
    meter.left -= MOVE_UNITS  # the budget's charge, written out: once per move
    if meter.left < 0:
        meter.over()
    _count_move(game, new)
    if game.keeps_positions:  # a pack that reads `repeated`: the position this move starts from
        after.remember_position(game, new)
    if move.action == DONE:
        new.log.append(["move", move.seat, move_text(move, game)])
        _close(game, new, move.seat)  # (a pass it leads to is logged after it)
    else:
        try:
            _run_action(game, new, move)
        except NeedChoice as need:
            if before is None:
                raise RuntimeError(f"`{move.action}` asked a choice that asking.py judged it never asks") from None
            asking = before.clone()
            asking.pending[move.seat].choice = (move, need.options, need.optional, need.item_type)
            return asking
        pending = new.pending[move.seat]
        pending.choice = None
        pending.moved = True
        new.log.append(["move", move.seat, move_text(move, game)])
        if not pending.repeat or not _has_action(game, new, move.seat):
            _close(game, new, move.seat)  # (a pass it leads to is logged after it)
    if game.check_end == "turn":
        _check_end(game, new)
    _advance(game, new)
    return new


def search_copy(state: State) -> State:
    """A copy of `state` for an agent to look ahead from: the work of its search is
    counted on a budget of its own (`Meter.for_search`), not on the game's."""
    copy = state.clone()
    copy.meter = state.meter.for_search()
    return copy


def preview(game, state: State, move: Move) -> State:
    """The state right after a legal move's effect, for judging it (agents).

    Unlike `apply`, it neither checks legality again nor runs the flow on;
    a move whose effect still asks a choice is previewed before the choice.
    """
    state.meter.begin()
    new = state.clone()
    if move.action != DONE:
        try:
            _run_action(game, new, move)
        except NeedChoice:
            return state
    return new


def parse_move(game, state: State, seat: int, text: str) -> Move:
    """The legal move of `seat` written as `text`, or IllegalMoveError saying why not."""
    key = normalise_text(text)
    moves = legal_moves(game, state, seat)
    for move in moves:
        if normalise_text(move_text(move, game)) == key:
            return move
    if seat not in state.pending:
        raise IllegalMoveError(_not_waiting(game, state, seat), code="E501")
    action = key.split(" ")[0] if key else ""
    if action not in game.actions and action != DONE:
        hint = did_you_mean(action, list(state.pending[seat].actions) + [DONE])
        raise IllegalMoveError(f"`{action}` is not an action here; expected one of: "
                               + ", ".join(state.pending[seat].actions), code="E503", hint=hint)
    raise IllegalMoveError(f"`{text.strip()}` is not a legal move now ({len(moves)} legal moves)", code="E504")


def play_text(game, state: State, seat: int, text: str) -> State:
    """Apply a move written as text, answers to its choices included (`a / b`)."""
    first, *answers = [part.strip() for part in text.split("/")]
    state = apply(game, state, parse_move(game, state, seat, first))
    typed = first
    for answer in answers:
        typed += " / " + answer
        pending = state.pending.get(seat)
        if pending is None or pending.choice is None:
            raise IllegalMoveError(f"`{text.strip()}` answers more choices than the move asks", code="E505")
        state = apply(game, state, parse_move(game, state, seat, typed))
    return state


def open_step(game, state: State, phase: str, index: int) -> None:
    """Open step `index` of `phase` afresh (a test's position says which decision is open): the
    decisions open now are dropped, and the flow goes on from that step. Changes `state` in place."""
    state.pending.clear()
    state.queue = ()
    state.snapshot = None
    state.moves_cache.clear()
    state.phase, state.step = phase, index
    if phase == "round" and state.round == 0:
        state.round = 1
    _advance(game, state)


def settle(game, state: State) -> None:
    """Judge the open decisions again after the boards or values were set from outside (a test's position).

    A waiting seat left without a legal move passes, as it would have when its
    decision opened, and the flow goes on. Changes `state` in place.
    """
    state.moves_cache.clear()
    forget_masks(state)  # (boards written past `set_kind`: the masks are built again when asked)
    for seat in sorted(state.pending):
        if seat in state.pending and not legal_moves(game, state, seat):
            state.log.append(["pass", seat])
            if _ends_as_one_passes(game, state):
                return
            _close(game, state, seat)
    _advance(game, state)


def _not_waiting(game, state, seat) -> str:
    if state.phase == "over":
        return "the game is over"
    if type(seat) is not int or not 0 <= seat < state.seats:
        return f"there is no seat {seat!r:.20} in this game of {state.seats} seats"
    who = ", ".join(repr(PLAYERS[s]) for s in waiting(state)) or "nobody"
    return f"{PLAYERS[seat]!r} has no decision to make now (waiting for {who})"


def explain_illegal(game, state, move) -> str:
    """Which rule makes `move` illegal: the action, a parameter, or `when`."""
    state.meter.begin()
    pending = state.pending[move.seat]
    if move.action != DONE and move.action not in pending.actions:
        return f"action `{move.action}` is not available now; available: {', '.join(pending.actions)}"
    if move.action == DONE:
        return "`done` is only possible in a decision that may be repeated"
    action = game.actions[move.action]
    if len(move.args) != len(action.params):
        return f"action `{action.name}` takes {len(action.params)} value(s), {len(move.args)} given"
    ctx = Ctx(game, state, PLAYERS[move.seat])
    for index, ((name, domain), node_pair, value) in enumerate(zip(action.params, action.param_nodes, move.args)):
        if value not in domain(ctx):
            text = value_text(value, game.grid, game.param_types[action.name][index])
            why = _shape_reasons(game, ctx, node_pair[1], value)
            return (f"parameter `{name}` of `{action.name}`: {text} is not one of `{_source(game, node_pair[1])}`"
                    + (": " + "; ".join(why) if why else ""))
        ctx.env[name] = value
    if action.when is not None and not action.when(ctx):
        failing = next((node for check, node, _ in action.when_parts if not check(ctx)), action.when_node)
        return f"the condition of `{action.name}` fails: `when: {_source(game, failing)}`"
    refused = after.refusing_part(game, state, move) if pending.choice is None else None
    if refused is not None:
        return (f"the condition after the move of `{action.name}` refuses it: `refuse_after: "
                f"{_source(game, refused[0])}` holds on the state the move would leave")
    return "this answer is not one of the options of the choice being made"


def _shape_reasons(game, ctx, node, value) -> list:
    """For a shape parameter (`placements(...)`, `matches(...)`): why these cells do not fit."""
    from boardrule.interpreter.runtime import shapes as shape_lib
    from boardrule.interpreter.compiler.exprs import ExprCompiler
    from boardrule.interpreter.runtime.values import CELL_MASK
    call = node.source if type(node) is nodes.Where else node
    if type(call) is not nodes.Call or call.func not in ("placements", "matches") or not isinstance(value, tuple):
        return []
    try:
        shape = ExprCompiler(game, game.pack.checked).compile(call.args[0])(ctx)
        base = ctx.board << 10
        test = game.slot_test(shape, ctx, base) if call.func == "matches" else (lambda symbol, cell: True)
        return shape_lib.explain(game.grid, game.placement_table(shape), tuple(v & CELL_MASK for v in value), test)
    except Exception:  # an explanation is a courtesy: never let it hide the real answer
        return []


def _source(game, node) -> str:
    """The rule's own text when it fits on one line, else where it is."""
    span = node.span
    line = game.pack.sources.line(span.file, span.line) if span.line == span.end_line else None
    if line is not None:
        return line[span.col - 1:span.end_col - 1]
    return f"{span.file}:{span.line}:{span.col}"


def _run_action(game, state, move):
    action = game.actions[move.action]
    ctx = Ctx(game, state, PLAYERS[move.seat])
    ctx.env = dict(zip(action.param_names, move.args))
    ctx.answers = list(move.answers)
    action.effect(ctx)


def _has_action(game, state, seat) -> bool:
    state.moves_cache.pop(seat, None)  # asked right after an effect: compute afresh
    state.moves_cache.pop(("set", seat), None)
    return bool(_action_moves_cached(game, state, seat))


# ------------------------------------------------------------------- flow
def _steps(game, state):
    return game.setup_steps if state.phase == "setup" else game.round_steps


def _board_snapshot(state):
    """What the others may see while a simultaneous step is open: the boards and values as it
    began, and where the log stood (the moves after it are hidden from the other players).

    The snapshot shares the state's lists instead of copying them: the state is not
    changed again once its decisions are open (moves change clones of it), and a step
    that opens no decision drops its snapshot. Code that changes a state in place
    calls `detach_snapshot` first."""
    return (state.kind, state.owner, state.attrs, state.held, state.tokens, state.points, state.pvars,
            len(state.log))


def detach_snapshot(state) -> None:
    """Give `state` a snapshot of its own, before its boards or values are changed in place."""
    if state.snapshot is not None:
        kind, owner, attrs, held, tokens, points, pvars, *rest = state.snapshot
        state.snapshot = ([list(b) for b in kind], [list(b) for b in owner], [dict(b) for b in attrs],
                          [dict(b) for b in held], [dict(b) for b in tokens], [list(p) for p in points],
                          [dict(p) for p in pvars], *rest)


def _close(game, state, seat):
    state.pending.pop(seat, None)
    if state.queue and state.queue[0] == seat:
        state.queue = state.queue[1:]
        _open_next_in_queue(game, state)
    if not state.pending and not state.queue:
        state.step += 1  # the decision step is complete
        state.snapshot = None


def _open_next_in_queue(game, state):
    step = _steps(game, state)[state.step]
    while state.queue and not state.pending:
        seat = state.queue[0]
        if _open(game, state, seat, step):
            return
        state.queue = state.queue[1:]


def _open(game, state, seat, step) -> bool:
    """Open a decision for `seat`; a seat with no legal move passes at once, unless the game ends first."""
    if seat in state.finished or state.phase == "over":
        return False
    state.pending[seat] = Pending(step.actions, step.repeat, None, False, step.required)  # positional: cheaper
    if not _has_action(game, state, seat):
        state.log.append(["pass", seat])
        if not _ends_as_one_passes(game, state):
            del state.pending[seat]
        return False
    return True


def _ends_as_one_passes(game, state) -> bool:
    """Whether the game ends as a player with no legal move passes: `end`, judged per turn, is judged then
    too, with that player's decision still open (so `end:` can say that the player to move cannot move)."""
    if game.check_end == "turn":
        _check_end(game, state)
    return state.phase == "over"


def _check_end(game, state):
    if state.phase == "round" and game.end(Ctx(game, state)):
        if game.reads_to_move:  # `to_move` once the game is over: whose decision was open as it ended
            state.to_move_at_end = next(iter(state.pending)) if len(state.pending) == 1 else None
        state.phase = "over"
        state.pending = {}
        state.queue = ()


def _count_move(game, state):
    """One more move in the open step; past MAX_MOVES_PER_STEP the game stops, naming the step."""
    phase, round_no, step, count = state.step_moves
    if (phase, round_no, step) != (state.phase, state.round, state.step):
        count = 0
    state.step_moves = (state.phase, state.round, state.step, count + 1)
    if count + 1 > MAX_MOVES_PER_STEP:
        span = _steps(game, state)[state.step].span
        raise RuleError(f"the players made {MAX_MOVES_PER_STEP} moves in this step without it ending "
                        "(a repeated step whose moves change nothing never ends)", span)


def _endless_flow(game) -> RuleError:
    return RuleError(f"the flow ran {MAX_STEPS} steps without ending; check `end:`", game.end_span)


def _advance(game, state):
    # the flow's hottest loop: _steps and the count of steps run are written out here
    while state.phase != "over" and not state.pending:
        steps = game.setup_steps if state.phase == "setup" else game.round_steps
        if state.step >= len(steps):
            _next_phase(game, state)
            continue
        state.steps_run += 1
        if state.steps_run > MAX_STEPS:
            raise _endless_flow(game)
        step = steps[state.step]
        meter = state.meter
        meter.left -= STEP_UNITS  # written out: the flow's hottest loop
        if meter.left < 0:
            meter.over(step.span)
        if step.kind == "do":
            state.moves_cache.clear()
            ctx = Ctx(game, state)
            step.effect(ctx)
            state.step += 1
            if game.check_end == "turn":
                _check_end(game, state)
            continue
        _start_decision(game, state, step)
        if not state.pending and state.phase != "over":
            state.step += 1


def _next_phase(game, state):
    state.step = 0
    if state.phase == "setup":
        state.phase, state.round = "round", 1
        if not game.round_steps:
            raise RuleError("the flow has no `round:` steps", game.end_span)
        return
    if game.check_end == "round":  # checked per turn, it has been judged after every change already
        _check_end(game, state)
    if state.phase == "over":
        return
    state.round += 1
    if state.round > game.max_rounds:
        raise RuleError(f"the game did not end within {game.max_rounds} rounds (max_rounds); check `end:`",
                        game.end_span)


def _start_decision(game, state, step):
    who = _who(game, state, step)
    if step.kind == "together":
        # what the others saw as the step began; a game of one player has no others
        state.snapshot = _board_snapshot(state) if len(state.players) > 1 else None
        for seat in who:
            _open(game, state, seat, step)  # (none opens once the game has ended before a pass)
        if not state.pending:
            state.snapshot = None  # nobody decides: the step is over, and the flow goes on changing this state
        return
    state.queue = tuple(who)
    _open_next_in_queue(game, state)


def _who(game, state, step) -> list:
    finished = state.finished
    if step.who is None:
        return [s for s in state.players if s not in finished] if finished else list(state.players)
    value = step.who(Ctx(game, state))
    # nobody for none, alone or in a list (`who: [holder]` before anyone holds the role)
    seats = [int(value)] if isinstance(value, Player) else [int(p) for p in (value or ()) if p is not None]
    return [s for s in seats if s not in finished] if finished else seats

