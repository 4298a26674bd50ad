"""What every player knows of the order of a deck: the cards put into it where all could see them.

A deck's order is hidden (views.py), but not always all of it. A card put
on top of a deck or under it, when every player sees which card it is,
stays known where it went: a deck that takes back, under it, the cards the
players took from a display shows them again in the order they went in. A
shuffle makes the whole deck unknown again, and a draw takes the top card,
known or not.

`known_orders` works this out from the log of the game (`state.log`: the
draws, puts and shuffles of each deck, in order); a put records whether
every player saw its card (`put_seen`, decided once per `put` of the rules:
not when its card is read from a private variable, from a card drawn, from
a deck's cards, or from a value of a move that others may not see). The order of a deck at the
start of the game (or of a position) counts as unknown, as if it had been
shuffled then.
"""

from __future__ import annotations

from boardrule.dsl.resolution import Local

#: a card whose place in its deck is not known
UNKNOWN = "?"


def put_seen(game, node) -> bool:
    """Does every player see the card(s) the `put` statement `node` puts into its deck? Decided from the
    rules around it (`_seen_puts`); a put they do not reach counts as unseen."""
    return game.cache.remember("views", "seen puts", lambda: _seen_puts(game)).get(id(node), False)


def _seen_puts(game) -> dict:
    """id of each `put` statement -> whether every player sees its cards: not when they are read from a
    private variable, a deck's cards (`cards(D)`: its order is hidden), an event's value, or a local
    bound to a value not everyone sees (a card drawn, a move's secret value: views.secret_params, or a
    loop, `choose` or `let` over such a value). A put run from several places (a named effect) is seen
    only if it is seen from each."""
    from boardrule.dsl import ast
    from boardrule.dsl.lints import walk
    from boardrule.dsl.resolution import EventAttr, Function
    from boardrule.interpreter.runtime.views import reads_private, reads_through_definitions, secret_params
    resolved, model = game.pack.checked.resolved, game.model
    deck_cards = Function("cards")
    seen: dict = {}

    def hidden_value(found) -> bool:  # a deck's cards (its order is hidden) or an event's value
        return type(found) is EventAttr or found == deck_cards

    def tainted(expr, hidden) -> bool:
        if reads_private(game, expr) or reads_through_definitions(game, expr, hidden_value, "unseen definitions"):
            return True
        return any(type(item) is ast.Name and item.id in hidden and type(resolved.get(item)) is Local
                   for item in walk(expr))

    def bound(hidden, name, unseen):
        return hidden | {name} if unseen else hidden - {name}

    def block(statements, hidden):
        for statement in statements:
            kind = type(statement)
            if kind is ast.Put:
                seen[id(statement)] = seen.get(id(statement), True) and not tainted(statement.cards, hidden)
            elif kind is ast.Draw:
                block(statement.body, hidden | {statement.var})
            elif kind in (ast.For, ast.Choose):
                block(statement.body, bound(hidden, statement.var, tainted(statement.source, hidden)))
            elif kind is ast.LetStmt:
                hidden = bound(hidden, statement.name, tainted(statement.value, hidden))
            elif kind is ast.If:
                for _, body in statement.branches:
                    block(body, hidden)
                block(statement.otherwise, hidden)
            elif kind is ast.Do:
                block(statement.body, frozenset(name for name, arg in zip(statement.params, statement.args)
                                                if tainted(arg, hidden)))

    secret = secret_params(game)
    for action in model.actions:
        block(action.effect, frozenset(action.params[i][0] for i in secret.get(action.name, ())))
    for step in model.flow.setup + model.flow.round:
        block(step.effect, frozenset())
    for piece in model.pieces:
        for _, statements in piece.triggers:
            block(statements, frozenset())
    for effect in model.effects:
        block(effect.body, frozenset())  # its parameters as its callers give them: each `Do` above
    return seen


def known_orders(state) -> dict:
    """deck name -> its cards as every player knows them, bottom first as the state keeps them: a card
    where it is known, UNKNOWN where it is not (all of them when the log does not account for the deck)."""
    events: dict = {}
    watched = set()  # the decks something was put into: the others are not known at all
    for entry in state.log:
        kind = entry[0]
        if kind == "put" or kind == "draw" or kind == "shuffle":
            events.setdefault(entry[1], []).append(entry)
            if kind == "put":
                watched.add(entry[1])
    return {name: _known(cards, events[name]) if name in watched else [UNKNOWN] * len(cards)
            for name, cards in state.decks.items()}


def _known(cards, events) -> list:
    puts = sum(1 for entry in events if entry[0] == "put")
    draws = sum(1 for entry in events if entry[0] == "draw")
    unknown = len(cards) - puts + draws  # the cards of the deck when the log began, in an unknown order
    bottom, top = [], []  # the known part under and on the unknown cards (bottom first, top last)
    for entry in events:
        kind = entry[0]
        if kind == "shuffle":
            unknown += len(bottom) + len(top)
            bottom, top = [], []
        elif kind == "put":
            card = entry[2] if len(entry) > 4 and entry[4] else UNKNOWN
            if entry[3] == "under":
                bottom.insert(0, card)
            else:
                top.append(card)
        elif top:
            top.pop()
        elif unknown > 0:
            unknown -= 1
        elif bottom:
            bottom.pop()
        else:
            unknown = -1  # a draw the log cannot account for
            break
    if unknown < 0 or len(bottom) + unknown + len(top) != len(cards):
        return [UNKNOWN] * len(cards)
    return bottom + [UNKNOWN] * unknown + top
