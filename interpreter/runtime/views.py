"""What one player may see: a copy of the state with the rest hidden.

Hidden from a player: the private variables of the others, the order of the
decks (but for the cards every player saw put into them: deck_order.py) and
the random generator, and, during a decision all players make at once, what
the others have done so far in it.
"""

from __future__ import annotations

import random

from boardrule.dsl.resolution import Define, PlayerProp, PlayerVar
from boardrule.interpreter.runtime.deck_order import UNKNOWN, known_orders
from boardrule.interpreter.runtime.state import State, forget_masks
from boardrule.interpreter.runtime.values import Player

HIDDEN = UNKNOWN


def seat_names(state) -> dict:
    """Each player's name by seat (`P3` sits at seat 3), as packs' tests and positions name them."""
    return {seat: repr(Player(seat)) for seat in state.players}


def player_names(state) -> dict:
    """Each player's name by turn order, by seat: the players are P1, P2... whichever seats they took.

    The same as `seat_names` when every seat is taken; a game with more seats than players (values passed
    around the table through the empty seats) seats its players at random, and a player of two at seats 3
    and 5 is still P1 or P2 to the players.
    """
    return {seat: f"P{number}" for number, seat in enumerate(sorted(state.players), 1)}


def seating_text(state) -> str:
    """Where the players sit, in their names: `P1 at seat 3, P2 at seat 5 (seats 1, 2 and 4 empty)`."""
    names = player_names(state)
    taken = ", ".join(f"{names[seat]} at seat {seat + 1}" for seat in sorted(state.players))
    empty = [str(seat + 1) for seat in range(state.seats) if seat not in names]
    if not empty:
        return taken
    listed = empty[0] if len(empty) == 1 else ", ".join(empty[:-1]) + " and " + empty[-1]
    return f"{taken} (seat{'s' if len(empty) > 1 else ''} {listed} empty)"


def view(game, state: State, seat: int) -> State:
    """The state as `seat` sees it."""
    seen = state.clone()
    seen.rng = random.Random(0)
    seen.decks = {name: list(state.decks[name]) if HIDDEN in state.decks[name] else cards  # a view's own: as it is
                  for name, cards in known_orders(state).items()}
    if state.snapshot is not None:
        _others_from_snapshot(game, seen, state.snapshot, seat)
    for other in range(state.seats):
        if other == seat:
            continue
        for name in game.private_vars:
            if name in seen.pvars[other]:
                seen.pvars[other][name] = HIDDEN
    # a simultaneous step: the others' moves in it stay hidden until it closes (saves made
    # before the log length was kept in the snapshot hide none)
    began = state.snapshot[7] if state.snapshot is not None and len(state.snapshot) > 7 else len(seen.log)
    seen.log = [entry for index, entry in enumerate(seen.log)
                if not _private_entry(entry, seat) and not (index >= began and _others_move(entry, seat))]
    return seen


def _others_move(entry, seat) -> bool:
    return entry[0] == "move" and entry[1] != seat


def _others_from_snapshot(game, seen, snapshot, seat):
    kind, owner, attrs, held, tokens, points, pvars = snapshot[:7]
    mine = game.board_of_seat(seat)
    for board in range(len(seen.kind)):
        if game.shared_board or board == mine:
            continue
        seen.kind[board], seen.owner[board] = list(kind[board]), list(owner[board])
        seen.attrs[board], seen.held[board] = dict(attrs[board]), dict(held[board])
        seen.tokens[board] = dict(tokens[board])
    forget_masks(seen)
    for other in range(len(seen.points)):
        if other != seat:
            seen.points[other] = list(points[other])
            seen.pvars[other] = dict(pvars[other])


def _private_entry(entry, seat) -> bool:
    # draws from a deck are chance outcomes the table does not see in order, and
    # the cards put into a deck would tell its order
    return entry[0] in ("shuffle", "draw", "put")


# ------------------------------------------------------------------ secrets in moves
def reads_private(game, node) -> bool:
    """Does a rule read a private player variable, itself or through the definitions it uses?"""
    private = game.private_vars
    if not private or node is None:
        return False

    def secret(found) -> bool:
        if type(found) is PlayerVar and found.name in private:
            return True
        return found == PlayerProp("score") and scoring_reads_private(game)  # a score worked out from a secret
    return reads_through_definitions(game, node, secret, "private definitions")


def reads_through_definitions(game, node, hit, table: str) -> bool:
    """Does `node` hold a name whose resolution `hit(resolution)` holds for, itself or in the body of a
    definition it uses (each definition's answer remembered in the game's cache table `table`)?"""
    from boardrule.dsl.lints import walk
    resolved = game.pack.checked.resolved
    defines = game.cache.remember("views", "defines", lambda: {d.name: d for d in game.model.defines})
    known = game.cache.table(table)  # definition -> whether it holds such a name

    def visit(root, seen) -> bool:
        for item in walk(root):
            found = resolved.get(item)
            if found is None:
                continue
            if hit(found):
                return True
            if type(found) is Define and found.name in defines and found.name not in seen:
                name = found.name
                if name not in known:
                    known[name] = visit(defines[name].body, seen | {name})
                if known[name]:
                    return True
        return False
    return visit(node, frozenset())


def scoring_reads_private(game) -> bool:
    """Could a score sheet tell what a player keeps secret? (a scoring rule reads a private variable)"""
    table = game.cache.table("views")
    found = table.get("scoring reads private")
    if found is None:
        table["scoring reads private"] = False  # a scoring rule reading `.score` reads no more
        model = game.model
        rules = [t.expr for t in model.scoring] + [model.verdict]
        for piece in model.pieces:
            rules += [piece.score, *piece.marks.values(), *piece.rules.values()]
        found = table["scoring reads private"] = any(reads_private(game, rule) for rule in rules)
    return found


def secret_params(game) -> dict:
    """action -> the indices of its parameters whose values others may not see: chosen from a list that
    reads a private variable (a hand dealt), and not put on a board by the move's effect."""
    return game.cache.remember("views", "secret params", lambda: _secret_params(game))


def _secret_params(game) -> dict:
    from boardrule.dsl import ast
    from boardrule.dsl.lints import walk
    found = {}
    for action in game.model.actions:
        shown = set()
        for item in walk(action.effect):
            value = item.kind if isinstance(item, (ast.Place, ast.Replace)) else \
                item.item if isinstance(item, ast.Store) else \
                item.value if isinstance(item, ast.Set) and item.target.name not in game.private_vars else None
            if isinstance(value, ast.Name):
                shown.add(value.id)
        secret = {i for i, (name, domain) in enumerate(action.params)
                  if name not in shown and reads_private(game, domain)}
        if secret:
            found[action.name] = secret
    return found


def move_seen(game, text: str, mover: int, viewer) -> str:
    """A logged move's text as `viewer` may read it: the values others may not see are `?`."""
    if viewer is None or viewer == mover:
        return text
    secret = secret_params(game)
    head, *answers = text.split(" / ")
    words = head.split(" ")
    hidden = secret.get(words[0])
    if not hidden:
        return text
    words = [HIDDEN if index - 1 in hidden else word for index, word in enumerate(words)]
    return " / ".join([" ".join(words)] + [HIDDEN for _ in answers])


def events(game, state, viewer, indices, open_from=None) -> tuple:
    """What `viewer` (a seat; None: a spectator who sees everything) may be told of the log entries at
    `indices`: (events, held). An event is (kind, seat, text, times): a move (its secret values `?`), a
    roll, a pass (repeated passes of one seat are one event, `times` counting them), the seats drawn, and
    for a spectator the draws and shuffles. `open_from`: where the decision all players make at once,
    still open, began in the log: the others' moves from there are `held` (indices), told once it closes."""
    log = state.log
    told, held = [], []
    for index in indices:
        entry = log[index]
        kind = entry[0]
        if kind == "move":
            seat = entry[1]
            if viewer is not None and open_from is not None and index >= open_from and seat != viewer:
                held.append(index)
                continue
            told.append(("move", seat, move_seen(game, entry[2], seat, viewer), 1))
        elif kind == "roll":
            told.append(("roll", None, f"{entry[1]}: {_said(game, entry[2])}", 1))
        elif kind == "pass":
            if told and told[-1][0] == "pass" and told[-1][1] == entry[1]:
                told[-1] = ("pass", entry[1], "", told[-1][3] + 1)
            else:
                told.append(("pass", entry[1], "", 1))
        elif kind == "seats":
            told.append(("seats", None, ", ".join(repr(Player(s)) for s in entry[1]), 1))
        elif viewer is None and kind == "draw":
            told.append(("draw", None, f"{_value_text(entry[2])} from {entry[1]}", 1))
        elif viewer is None and kind == "shuffle":
            told.append(("shuffle", None, str(entry[1]), 1))
    return tuple(told), held


def _said(game, value) -> str:
    """A rolled face in the players' words (a piece kind by its label), as the screen's notes say it."""
    if game is None:
        return _value_text(value)
    from boardrule.interpreter.runtime.reasons import say
    return say(game, value)


def _value_text(value) -> str:
    from boardrule.interpreter.runtime.picture import value_text
    return value_text(value)
