"""The balance lab's front door: plan, run and report a simulation, or compare two packs.

    >>> from boardrule.interpreter.lab import simulate
    >>> result = simulate("tictactoe", games=20, seats=["greedy", "random"], seed=1)
    >>> [a["agent"] for a in result.report["agents"]]
    ['greedy', 'random']

The stages: `simulate.make_plan` checks the request, `backends.run_plan` plays
the games (here, in processes or on Dask) and `simreport` summarises them.
"""

from __future__ import annotations

import attrs

from boardrule.interpreter.lab import simreport
from boardrule.interpreter.api import open_game
from boardrule.interpreter.lab.backends import run_plan
from boardrule.interpreter.lab.simulate import make_plan


@attrs.frozen
class Simulation:
    report: dict  # simreport.report, or simreport.compare with --compare
    records: list  # per game (see simulate.play_game); with a comparison, one list per pack
    games: list  # the compiled packs, in report order


def simulate(pack, games: int, seats, seed: int = 0, players: int | None = None, options: dict | None = None,
             duplicate: bool = False, compare: str | None = None, jobs: int = 1, backend: str = "local",
             address: str | None = None, progress=None) -> Simulation:
    """Play `games` games of `pack` between the agents `seats` and report.

    With `compare`, the same games (the same plan: seeds, seating, agents,
    options) are also played through the other pack and the report is the
    comparison of the two. `progress(done, total)` is told of finished games
    (over both packs when comparing).
    """
    game = open_game(pack)
    plan = make_plan(game, pack, games, seed, seats, players, options, duplicate)
    other = None
    if compare is not None:
        other = open_game(compare)
        other_plan = make_plan(other, compare, games, seed, seats, plan.players, options, duplicate)
    total = plan.games * (2 if other is not None else 1)

    def tell(offset):
        if progress is None:
            return None
        return lambda done, _: progress(offset + done, total)

    records = run_plan(plan, jobs, backend, address, tell(0))
    report = simreport.report(game, plan, records)
    if other is None:
        return Simulation(report, records, [game])
    other_records = run_plan(other_plan, jobs, backend, address, tell(plan.games))
    other_report = simreport.report(other, other_plan, other_records)
    return Simulation(simreport.compare(report, other_report, records, other_records), [records, other_records],
                      [game, other])
