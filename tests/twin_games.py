"""Two compiled forms of one game played side by side: the same seeded random moves in both, the same
states (their saved form) and work spent after every move (and the same moves listed, if asked)."""

from __future__ import annotations

import random

from boardrule.interpreter.records.serialize import state_to_json
from boardrule.interpreter.runtime import flow
from boardrule.interpreter.runtime.budget import Meter
from boardrule.interpreter.runtime.moves import move_text


def two_forms(open_one, monkeypatch, owner, name, replacement):
    """(the game as `open_one()` compiles it, the same game with `owner.name` replaced by `replacement`)."""
    first = open_one()
    monkeypatch.setattr(owner, name, replacement)
    second = open_one()
    monkeypatch.undo()
    return first, second


def play_alike(first, second, seeds: int = 2, moves: int = 80, listed: bool = False) -> None:
    """Assert that `first` and `second` (two Games of one pack) play `seeds` seeded random games alike."""
    low = first.players_range[0]
    games = (first, second)
    for seed in range(seeds):
        chooser = random.Random(seed)
        states = [flow.initial_state(g, low, seed=seed, meter=Meter(operation=10 ** 9, game=10 ** 12)) for g in games]
        for _ in range(moves):
            if states[0].phase == "over":
                break
            seat = flow.waiting(states[0])[0]
            if listed:
                texts = [[move_text(m, g) for m in flow.legal_moves(g, s, seat)] for g, s in zip(games, states)]
                assert texts[0] == texts[1]
                assert states[0].meter.spent() == states[1].meter.spent()
            pick = chooser.randrange(len(flow.legal_moves(first, states[0], seat)))
            states = [flow.apply(g, s, flow.legal_moves(g, s, seat)[pick]) for g, s in zip(games, states)]
            assert state_to_json(first, states[0]) == state_to_json(second, states[1])
            assert states[0].meter.spent() == states[1].meter.spent()
