"""What the web tests share: a client of the server's JSON requests, and the moves that lead a game of Tiny
Towns to a build whose building asks a choice (a Factory stores a resource of its owner's choice)."""

from __future__ import annotations

import json
import urllib.request

from boardrule.interpreter import api
from boardrule.interpreter.runtime import flow

FACTORY_OPTIONS = {"monuments": "false", "black_card": "factory"}
FACTORY_NAMES = ["wood", "brick", "stone", "stone", "brick"]  # named in turn by P1, P2, P1, P2, P1
FACTORY_CELLS = ["A1", "A2", "B2", "C2", "D2"]  # where P1 puts them: the Factory's pattern


def factory_moves(seed=1):
    """(seat, move) of a 2-player game of Tiny Towns up to P1's build of a Factory: P1 lays the Factory's
    pattern, P2 places each resource on its first free square."""
    game = api.open_game("tinytowns")
    state = api.new_game(game, 2, seed, {"monuments": False, "black_card": "factory"})
    made, laid = [], 0
    while laid < len(FACTORY_CELLS) or flow.waiting(state)[0] != 0:
        seat = flow.waiting(state)[0]
        texts = [api.move_text(m, game) for m in api.legal_moves(game, state, seat)]
        if any(t.startswith("name_resource") for t in texts):
            text = "name_resource " + FACTORY_NAMES[min(laid, len(FACTORY_NAMES) - 1)]
        elif seat == 0:
            text = next(t for t in texts if t.startswith("place") and t.endswith(" " + FACTORY_CELLS[laid]))
            laid += 1
        else:
            text = next(t for t in texts if t.startswith("place"))
        made.append((seat, text))
        state = api.apply(game, state, api.parse_move(game, state, seat, text))
    return made


class Http:
    """JSON requests to a running server (the browser tests set games up with it)."""

    def __init__(self, base):
        self.base = base

    def call(self, method, path, data=None):
        body = json.dumps(data).encode() if data is not None else None
        request = urllib.request.Request(self.base + path, body, method=method,
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=60) as response:
            return json.loads(response.read())
