"""Why a move is refused, in the players' words; moves typed in part; menu numbers.

`refusal(game, state, seat, text)` says why a typed move is not legal now,
as a player would put it: the pack's own reason (`why:` beside a parameter's
list, a `when:` or `refuse_after:` condition or a piece's placement rule) when it gives one,
else the engine's words: a cell off the board or already taken, a name that
is not one of the choices (with a did-you-mean), an action that is not
possible at this moment, the condition that does not hold. It never names a
rule of a particular game: those words come from the packs.

`completions(game, state, seat, text)` lists the legal moves a text typed in
part may stand for: values left out at the end (`build house`), a column
for a cell (`drop d`), the start of a name (`place wo A1`), one cell of a
group for the group (`draw A1`, a shape's placements that hold A1).

`menu_numbers(game, moves)` numbers a menu so that a number stays with its
column when each column offers one cell.

    >>> from boardrule.interpreter import api
    >>> game = api.open_game("tictactoe")
    >>> state = api.apply(game, api.new_game(game, 2), api.parse_move(game, api.new_game(game, 2), 0, "play B2"))
    >>> refusal(game, state, 1, "play B2")
    'B2 is already marked'
    >>> refusal(game, state, 1, "play D7")
    'D7 is off the board (columns A to C, rows 1 to 3)'
"""

from __future__ import annotations

import re

from boardrule.dsl.diagnostics import did_you_mean
from boardrule.dsl.resolution import Define
from boardrule.interpreter.runtime import after, flow
from boardrule.interpreter.runtime.context import Ctx
from boardrule.interpreter.runtime.geometry import column_letters
from boardrule.interpreter.runtime.moves import DONE, Move, move_text, normalise_text, value_text
from boardrule.interpreter.runtime.values import CELL_BITS, CELL_MASK, PLAYERS, Player
from boardrule.dsl import ast as nodes

MAX_LISTED = 8  # choices named in a refusal; more are left to `moves`
CELL_NAME = re.compile(r"^[A-Za-z]+[0-9]+$")


# ------------------------------------------------------------------ words for values
def say(game, value, value_type=None) -> str:
    """A value as a player reads it: a piece kind by its label, cells by name, lists with commas."""
    if type(value) is str:
        piece = _pieces(game).get(value)
        return piece.score_label if piece is not None else value.replace("_", " ")
    cells = value_type is not None and value_type.is_list and value_type.item is not None \
        and value_type.item.name == "cell"
    if isinstance(value, (list, tuple)) and not cells:
        item = value_type.item if value_type is not None and value_type.is_list else None
        texts = [say(game, v, item) for v in value]
        if not texts:
            return ""  # an empty list says nothing: a reason may put one after a text that says it all
        return texts[0] if len(texts) == 1 else ", ".join(texts[:-1]) + " and " + texts[-1]
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "none"
    return value_text(value, game.grid, value_type)


def _pieces(game) -> dict:
    return game.cache.remember("reasons", "pieces", lambda: {p.name: p for p in game.model.pieces})


def tell(game, why, ctx) -> str | None:
    """A pack's reason (compiled `why:`) told in `ctx`; None when one of its values cannot be worked out."""
    if why is None:
        return None
    out = []
    try:
        for part in why:
            out.append(part if isinstance(part, str) else say(game, part[0](ctx), part[1]))
    except Exception:  # a reason is a courtesy: the engine's own words will do
        return None
    return " ".join("".join(out).split()).rstrip(" :,;") or None


# ------------------------------------------------------------------ refusals
def refusal(game, state, seat, text) -> str | None:
    """Why `text` is not a legal move of `seat` now, in words; None if it is legal."""
    state.meter.begin()
    key = normalise_text(text)
    legal = flow.legal_moves(game, state, seat)
    if any(normalise_text(move_text(m, game)) == key for m in legal):
        return None
    if state.phase == "over":
        return "the game is over"
    if seat not in state.pending:
        who = ", ".join(repr(PLAYERS[s]) for s in flow.waiting(state)) or "nobody"
        return f"it is not {PLAYERS[seat]!r}'s turn: waiting for {who}"
    pending = state.pending[seat]
    if pending.choice is not None:
        return _choice_refusal(game, legal, key)
    words = key.split("/")[0].split()
    if not words:
        return "type a move"
    name = words[0]
    possible = _possible_actions(legal)
    if name == DONE:
        if pending.repeat and pending.required:
            return "there is no `done` in this step: it goes on while you can act"
        if pending.repeat:
            return "`done` ends this step once you have made a move in it"
        return "`done` ends a step you may repeat, and this one is not"
    if name not in game.actions:
        hint = _close(name, possible + [DONE] + list(game.actions))
        head = f"`{name}` is not a move here"
        return f"{head}: {hint}" if hint else f"{head}; the moves now: {_names(game, possible)}"
    action = game.actions[name]
    values = words[1:]
    params = action.params
    if name not in pending.actions or name not in possible:
        reason = None
        if name in pending.actions and action.when is not None and action.when_at == 0:
            reason = _when_reason(game, state, seat, action, {})
        if reason is None and name in pending.actions and len(values) == len(params):
            reason = _value_refusal(game, state, seat, action, values, legal)
        if reason is None and name in pending.actions:
            reason = f"no `{name}` is possible now"
        elif reason is None:
            reason = f"`{name}` is not possible at this moment of the game"
        return f"{reason}; now you may: {_names(game, possible)}" if possible else reason
    if len(values) != len(params):
        shown = ", ".join(f"`{p}`" for p in action.param_names)
        example = next((move_text(m, game) for m in legal if m.action == name), None)
        count = f"{len(params)} value{'s' if len(params) != 1 else ''}"
        return (f"`{name}` takes {count} ({shown}), not {len(values)}" if params else f"`{name}` takes no value") + (
            f", e.g. `{example}`" if example else "")
    return _value_refusal(game, state, seat, action, values, legal) or "that is not one of the legal moves now"


def _close(word, candidates):
    """A did-you-mean, also for two letters swapped (`lya` for `lay`)."""
    hint = did_you_mean(word, candidates)
    if hint is None:
        swapped = [c for c in dict.fromkeys(candidates) if len(c) == len(word) and sorted(c) == sorted(word)
                   and sum(a != b for a, b in zip(c, word)) == 2]
        hint = f"did you mean `{swapped[0]}`?" if swapped else None
    return hint


def _names(game, actions) -> str:
    return ", ".join(f"`{a}`" for a in actions)


def _possible_actions(legal) -> list:
    seen = []
    for move in legal:
        if move.action not in seen:
            seen.append(move.action)
    return seen


def _choice_refusal(game, legal, key) -> str:
    answer = key.split("/")[-1].strip()
    options = [move_text(m, game).split(" / ")[-1] for m in legal]
    listed = ", ".join(options[:MAX_LISTED]) + (", ..." if len(options) > MAX_LISTED else "")
    hint = did_you_mean(answer, options)
    return f"`{answer}` is not one of the choices now ({listed})" + (f"; {hint}" if hint else "")


def _value_refusal(game, state, seat, action, words, legal):
    """The reason the first refused value, or the condition, refuses the move."""
    types = game.param_types[action.name]
    ctx = Ctx(game, state, PLAYERS[seat])
    base = game.board_of_seat(seat) << CELL_BITS
    bound = {}
    for index, ((name, domain), word, value_type) in enumerate(zip(action.params, words, types)):
        if action.when is not None and action.when_at == index:
            reason = _when_reason(game, state, seat, action, bound)
            if reason is not None:
                return reason
        value, problem = _read(game, word, value_type, base)
        if problem is not None:
            return problem
        ctx.env = dict(bound)
        allowed = domain(ctx)
        value = _as_listed(game, word, value, value_type, allowed)
        if value not in allowed:
            return _domain_reason(game, state, seat, action, name, domain, value, value_type, allowed, bound, word)
        bound[name] = value
    if action.when is not None:
        reason = _when_reason(game, state, seat, action, bound)
        if reason is not None:
            return reason
    return _after_reason(game, state, seat, action, bound)


def _after_reason(game, state, seat, action, bound):
    """The first `refuse_after:` condition that holds on the state the move would leave, as the pack says it
    (its `why:`, told in that state) or in the engine's words; None when none holds."""
    if not action.refuse_after or len(bound) != len(action.params):
        return None
    try:
        found = after.refusing_part(game, state, Move(seat, action.name, tuple(bound[n] for n in action.param_names)))
    except Exception:  # a reason is a courtesy: the engine's own words will do
        return None
    if found is None:
        return None
    node, why, ctx = found
    return tell(game, why, ctx) or f"not allowed: after this move, `{_source(game, node)}` would hold"


def _read(game, word, value_type, base):
    """(value, None) for a typed value, or (None, the reason it cannot be read)."""
    kind = value_type.name if value_type is not None else "any"
    if kind == "number":
        try:
            return int(word), None
        except ValueError:
            return None, f"`{word}` is not a number"
    if kind == "player":
        match = re.match(r"^p(\d+)$", word.lower())
        if match and 1 <= int(match.group(1)) <= len(PLAYERS):
            return PLAYERS[int(match.group(1)) - 1], None
        return None, f"`{word}` is not a player: players are written P1, P2..."
    if kind == "cell":
        cell, problem = _cell(game, word)
        return (None, problem) if problem else (base | cell, None)
    if kind == "cells" or (value_type is not None and value_type.is_list and value_type.item is not None
                           and value_type.item.name == "cell"):
        cells = []
        for part in word.split("+"):
            cell, problem = _cell(game, part)
            if problem:
                return None, problem
            cells.append(base | cell)
        return tuple(sorted(cells)), None
    if kind == "any" and CELL_NAME.match(word) and not _is_declared_name(game, word):
        cell, problem = _cell(game, word)  # a list the checker could not type (`[spot]`, spot none at first)
        if problem is None:
            return base | cell, None
    return word, None


def _is_declared_name(game, word) -> bool:
    """True when `word` is a piece kind or a symbol the pack declares (a value written as it is)."""
    return word in game.static_attrs or any(word in names for names in getattr(game, "symbol_sets", {}).values())


def _as_listed(game, word, value, value_type, allowed):
    """A word that `_read` left as text, read as the element of the list that prints as it: values with no
    reader of their own (a shape, a direction) are known by their name, as parse_move knows them."""
    if type(value) is not str:
        return value
    for option in allowed:
        if type(option) is not str and value_text(option, game.grid, value_type).lower() == word.lower():
            return option
    return value


def _cell(game, word):
    grid = game.grid
    try:
        return grid.parse_name(word), None
    except (KeyError, ValueError):
        pass
    if CELL_NAME.match(word):
        return None, f"{word.upper()} is off the board ({_extent(grid)})"
    return None, f"`{word}` is not a cell: a cell is a column letter and a row number, like B2"


def _extent(grid) -> str:
    last = column_letters(grid.width - 1)
    return f"columns A to {last}, rows 1 to {grid.height}"


def _domain_reason(game, state, seat, action, name, domain, value, value_type, allowed, bound, word):
    ctx = Ctx(game, state, PLAYERS[seat])
    ctx.env = dict(bound, **{name: value})
    if type(value) is str and value not in game.pack.checked.symbols.symbols:  # a name the game does not know
        hint = _close(word, [v for v in allowed if type(v) is str])
        if hint:
            return f"`{word}` is not a choice here: {hint}"
    told = tell(game, action.whys.get(name), ctx)
    if told:
        return told
    kind = value_type.name if value_type is not None else "any"
    if kind == "cell":
        return _cell_reason(game, state, seat, value, allowed, bound)
    if isinstance(value, tuple):
        from boardrule.interpreter.runtime.flow import _shape_reasons
        node = action.param_nodes[action.param_names.index(name)][1]
        ctx.env = dict(bound)
        shape = _shape_reasons(game, ctx, node, value)
        if shape:
            return f"{value_text(value, game.grid)} is not a place for it: " + "; ".join(shape)
        taken = [c for c in value if state.kind[c >> CELL_BITS][c & CELL_MASK] is not None]
        if taken and all(not _occupied(state, c) for group in allowed for c in group):
            return f"{say(game, [game.grid.name(c & CELL_MASK) for c in taken])} " \
                   f"{'is' if len(taken) == 1 else 'are'} already taken"
        return f"{value_text(value, game.grid)} is not one of the {len(allowed)} ways open for `{name}` now"
    # a name: a piece kind, a symbol
    raw = [v if type(v) is str else value_text(v, game.grid, value_type) for v in allowed]
    options = [f"`{v}`" for v in raw]
    hint = did_you_mean(word, raw)
    if not allowed:
        return f"there is no `{name}` to choose now"
    listed = ", ".join(options[:MAX_LISTED]) + (", ..." if len(options) > MAX_LISTED else "")
    if hint:
        return f"`{word}` is not a choice here: {hint}"
    return f"`{word}` is not one you may choose now; you may choose: {listed}"


def _occupied(state, cell) -> bool:
    return state.kind[cell >> CELL_BITS][cell & CELL_MASK] is not None


def _cell_reason(game, state, seat, cell, allowed, bound):
    name = game.grid.name(cell & CELL_MASK)
    there = state.kind[cell >> CELL_BITS][cell & CELL_MASK]
    if there is not None and all(not _occupied(state, c) for c in allowed if isinstance(c, int)):
        return f"{name} is already taken ({say(game, there)})"
    if there is None and allowed and all(_occupied(state, c) for c in allowed if isinstance(c, int)):
        return f"{name} is empty: this asks for a cell with a piece on it"
    for kind in bound.values():  # a piece kind chosen before the cell: its own placement rule
        if type(kind) is str and kind in game.place_rules:
            ctx = Ctx(game, state, PLAYERS[seat])
            ctx.env = dict(bound)
            ctx.self_ = cell
            try:
                fits = bool(game.place_rules[kind](ctx))
            except Exception:
                continue
            if not fits:
                return tell(game, game.place_whys.get(kind), ctx) or \
                    f"{say(game, kind)} may not go on {name}: its placement rule does not allow it"
    if not allowed:
        return "no cell is open for it now"
    listed = " ".join(value_text(c, game.grid) for c in allowed[:MAX_LISTED])
    more = f" and {len(allowed) - MAX_LISTED} more" if len(allowed) > MAX_LISTED else ""
    return f"{name} is not open for it now (open: {listed}{more})"


def _when_reason(game, state, seat, action, bound):
    """The first condition of the action's `when:` that does not hold, as the pack says it; None if all hold."""
    ctx = Ctx(game, state, PLAYERS[seat])
    ctx.env = dict(bound)
    for condition, node, why in action.when_parts:
        try:
            holds = bool(condition(ctx))
        except Exception:
            continue
        if holds:
            continue
        told = tell(game, why, ctx)
        if told:
            return told
        failing = _failing_part(game, node, ctx)
        return f"not now: this needs `{_source(game, failing)}`, which does not hold"
    return None


def _failing_part(game, node, ctx, depth=0):
    """The first of the `and`-joined parts of a condition that is false (the condition itself if none is);
    a definition without parameters is looked into."""
    from boardrule.interpreter.compiler.exprs import ExprCompiler
    if depth > 8:
        return node
    kind = type(node)
    if kind is nodes.Name and game.pack.checked.resolved.get(node) == Define(node.id):
        body = next((d.body for d in game.model.defines if d.name == node.id and not d.params), None)
        if body is not None and type(body) is nodes.BinOp and body.op == "and":
            return _failing_part(game, body, ctx, depth + 1)
        return node
    if kind is nodes.BinOp and node.op == "and":
        for part in (node.left, node.right):
            try:
                if not ExprCompiler(game, game.pack.checked).compile(part)(ctx):
                    return _failing_part(game, part, ctx, depth + 1)
            except Exception:
                return node
    return node


def _source(game, node) -> str:
    from boardrule.dsl.unparse import unparse
    try:
        return unparse(node)
    except Exception:
        return flow._source(game, node)


# ------------------------------------------------------------------ moves typed in part
def completions(game, state, seat, text) -> list:
    """The legal moves of `seat` that `text` may stand for, typed in part (see the module's text)."""
    if seat not in state.pending or state.pending[seat].choice is not None:
        return []
    words = normalise_text(text).split("/")[0].split()
    if not words:
        return []
    found = []
    for move in flow.legal_moves(game, state, seat):
        if move.action != words[0] or len(words) - 1 > len(move.args):
            continue
        types = game.param_types.get(move.action, ())
        if all(_fits(game, word, value, types[i] if i < len(types) else None)
               for i, (word, value) in enumerate(zip(words[1:], move.args))):
            found.append(move)
    return found


def _fits(game, word, value, value_type) -> bool:
    text = value_text(value, game.grid, value_type).lower()
    if word == text:
        return True
    if isinstance(value, int) and not isinstance(value, (bool, Player)) and (
            value_type is None or value_type.name == "cell"):
        return word.isalpha() and text.rstrip("0123456789") == word  # a column for its cell
    if isinstance(value, tuple):
        return "+" not in word and word in text.split("+")  # one cell of a group
    if type(value) is str:
        symbol = game.symbols.get(value)
        return text.startswith(word) or (symbol is not None and symbol.lower() == word)
    return False


# ------------------------------------------------------------------ menu numbers
def menu_numbers(game, moves) -> list:
    """The number of each move in a menu: 1, 2, 3... in the moves' order; but where the moves are of one
    action and differ in one cell only, a cell of each column at most, each move takes its column's
    number (A is 1), so that a number stays with its column from one turn to the next."""
    if len(moves) < 2 or len({m.action for m in moves}) != 1 or any(m.answers for m in moves):
        return list(range(1, len(moves) + 1))
    first = moves[0].args
    varying = [i for i in range(len(first)) if len({m.args[i] for m in moves}) > 1]
    types = game.param_types.get(moves[0].action, ())
    if len(varying) != 1 or not all(len(m.args) == len(first) for m in moves):
        return list(range(1, len(moves) + 1))
    index = varying[0]
    value_type = types[index] if index < len(types) else None
    if value_type is None or value_type.name != "cell":
        return list(range(1, len(moves) + 1))
    columns = [game.grid.col(m.args[index] & CELL_MASK) for m in moves]
    if len(set(columns)) != len(columns):
        return list(range(1, len(moves) + 1))
    return [c + 1 for c in columns]
