"""Conditions on the state after a move (`refuse_after:`) and the positions a game has been in (`repeated`).

An action's `refuse_after:` is judged on the state its move's effect leaves: the move is tried on a copy
of the state (its effect and the triggers that sets off, not the flow steps after it), and refused when
one of the conditions holds there, with `me` the mover and the parameters bound as in the effect. Listing
an action's moves tries every candidate that its parameters and `when:` let through, so such an action
lists at the price of making each of its moves.

A pack whose rules read `repeated` keeps the positions its boards were in: as each move is made, the
digest of the boards it starts from is added to `state.positions` (flow._make), so a replay makes the
same history again from the moves. `repeated` holds when the digest of the boards now is among them; on
the copy a move is tried on, the position the move starts from counts too (a move that changes nothing
brings it back). A digest is 16 hex digits of the BLAKE2b of the boards' canonical text: each board's
kinds and owners cell by cell, then its variable attributes, held pieces and tokens by cell (held pieces
and tokens as sets), the same in every process and under any hash seed.
"""

from __future__ import annotations

import hashlib
import json

from boardrule.interpreter.runtime.context import Ctx
from boardrule.interpreter.runtime.values import PLAYERS


def position_digest(state) -> str:
    """The digest of what is on the boards (module doc): the same boards give the same digest."""
    from boardrule.interpreter.records.serialize import encode_value
    digest = hashlib.blake2b(digest_size=8)
    for board, kinds in enumerate(state.kind):
        digest.update("\x1f".join([kind or "" for kind in kinds]).encode())
        # an owner is a seat (at most 12), whether a move set it (a Player) or a position (a number)
        digest.update(bytes([0 if seat is None else int(seat) + 1 for seat in state.owner[board]]))
        attributes = state.attrs[board]
        if attributes:
            digest.update(b"\x1eattrs")
            digest.update(json.dumps(encode_value(sorted((cell, sorted(values.items()))
                                                         for cell, values in attributes.items() if values)),
                                     sort_keys=True).encode())
        for name, table in (("held", state.held[board]), ("tokens", state.tokens[board])):
            if table:
                digest.update(f"\x1e{name}".encode())
                digest.update(repr(sorted((cell, tuple(sorted(items))) for cell, items in table.items()
                                          if items)).encode())
        digest.update(b"\x1d")
    return digest.hexdigest()


def remember_position(game, state, digest=None) -> None:
    """Before a move is made on `state`: the position it starts from (its digest, if known) joins the
    history (packs that read `repeated` only; the others keep no history, so their saves are as they were)."""
    if game.keeps_positions:
        state.positions = state.positions + (digest or position_digest(state),)


def is_repeated(state) -> bool:
    """`repeated`: the boards are in a position the history holds."""
    return bool(state.positions) and position_digest(state) in state.positions


def state_after(game, state, move, start=None, memo=None):
    """(the state `move`'s effect leaves, the context its effect ran in), made on a copy of `state`
    (`start`: the digest of `state`'s position, when the caller has it). `memo`: definitions remembered
    on `state` (its memo, or one the candidates of a listing share), which the `let` statements the
    effect starts with read, as nothing has changed the copy yet (effects.trial_block)."""
    trial = state.clone()
    remember_position(game, trial, start)
    action = game.actions[move.action]
    ctx = Ctx(game, trial, PLAYERS[move.seat])
    ctx.env = dict(zip(action.param_names, move.args))
    ctx.answers = list(move.answers)
    if action.trial_effect is not None:
        trial.memo = {} if memo is None else memo  # the effect drops it before it changes anything
        action.trial_effect(ctx)
    else:
        action.effect(ctx)
    return trial, ctx


def refusing_part(game, state, move, start=None, memo=None):
    """The first `refuse_after:` condition that holds after `move`, as (node, reason, context), or None
    (`memo`: as state_after takes it)."""
    parts = game.actions[move.action].refuse_after
    if not parts:
        return None
    _, ctx = state_after(game, state, move, start, memo)
    for condition, node, why in parts:
        if condition(ctx):
            return node, why, ctx
    return None


def kept(game, state, moves) -> list:
    """The moves of one action that its `refuse_after:` lets through (all of them when it has none)."""
    if not moves or not game.actions[moves[0].action].refuse_after:
        return moves
    start = position_digest(state) if game.keeps_positions else None  # the same for every candidate
    memo = state.memo if state.memo is not None else {}  # what the candidates' effects read first, shared
    return [move for move in moves if refusing_part(game, state, move, start, memo) is None]
