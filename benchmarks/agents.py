"""How strong and how costly the agents are on the bundled packs (figures printed, never asserted).

    python benchmarks/agents.py                      # every bundled pack, 20 deals each, random greedy mcts strong
    python benchmarks/agents.py --pack tinytowns --deals 10 --agents greedy,strong
    python benchmarks/agents.py --quick              # 1 deal, tiny budgets: a smoke run

For each pack it plays duplicate games (every deal once per agent, the same
dice and decks for each): alone at the table when the pack allows it (the
mean score of each agent, with a 95% interval), else two players, each agent
against the one named before it in --agents, both seatings of every deal
(the win rate of the stronger one, with a 95% Wilson interval). Then the
decisions per second of each agent in the pack (as `boardrule bench --seats`:
only decisions between two or more moves are timed).

Each agent's strength is printed next to the issue's targets where there are
some (Tiny Towns solo: strong 25, Townies solo: strong 56); nothing is judged.
It is slow: strong spends up to about a second per decision, so 20 deals of
Tiny Towns take about 20 minutes for strong alone. One process: it leaves the
machine's other cores alone.
"""

from __future__ import annotations

import argparse
import sys
import time

from boardrule.dsl.extends import bundled_pack_names
from boardrule.interpreter.api import open_game
from boardrule.interpreter.lab.bench import decision_rate
from boardrule.interpreter.lab import simulate

TARGETS = {("tinytowns", "strong"): 25, ("townies", "strong"): 56}
AGENTS = "random,greedy,mcts,strong"
QUICK_AGENTS = "random,greedy,mcts:4:depth=2,strong:4:depth=2"


def solo_strength(pack, agents, deals, seed):
    result = simulate(pack, games=deals * len(agents), seats=list(agents), players=1, duplicate=True, seed=seed)
    rows = []
    for entry in result.report["agents"]:
        score = entry["score"]
        half = 1.96 * score["se"] if score.get("se") is not None else None
        rows.append((entry["agent"], score["mean"], half, entry["results"]))
    steps = [d for d in result.report["differences"]
             if agents.index(d["second"]) == agents.index(d["first"]) + 1]  # each agent against the one before it
    return rows, steps


def match_strength(pack, first, second, deals, seed, players):
    result = simulate(pack, games=deals * 2, seats=[first, second], players=players, duplicate=True, seed=seed)
    by_agent = {entry["agent"]: entry for entry in result.report["agents"]}
    wins = by_agent[second]["wins"]
    shared = by_agent[second]["shared"]
    return wins, shared, by_agent[second]["results"]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pack", action="append", help="a bundled pack or a path (repeatable; default: all)")
    parser.add_argument("--agents", default=None, help=f"agents, weakest first (default {AGENTS})")
    parser.add_argument("--deals", type=int, default=20, help="deals per pack (default 20)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--seconds", type=float, default=5.0, help="decision time measured per agent and pack")
    parser.add_argument("--quick", action="store_true", help="1 deal and tiny search budgets (a smoke run)")
    args = parser.parse_args(argv)
    if args.deals < 1 or args.seconds <= 0:
        parser.error("--deals must be at least 1 and --seconds positive")
    agents = [a for a in (args.agents or (QUICK_AGENTS if args.quick else AGENTS)).split(",") if a]
    deals = 1 if args.quick else args.deals
    seconds = 0.2 if args.quick else args.seconds
    packs = args.pack or bundled_pack_names()
    print(f"Agents: {', '.join(agents)}; {deals} deals per pack, seed {args.seed} (duplicate games)")
    for pack in packs:
        game = open_game(pack)
        low, high = game.players_range
        start = time.perf_counter()
        print(f"\n{pack}")
        if low <= 1:
            print(f"  solo, mean score over {deals} games each (95% interval)")
            rows, steps = solo_strength(pack, agents, deals, args.seed)
            for agent, mean, half, results in rows:
                target = TARGETS.get((pack, agent.split(":")[0]))
                spread = f" +- {half:.2f}" if half is not None else ""
                note = f"   (target {target})" if target is not None else ""
                print(f"    {agent:<28} {mean:8.2f}{spread}{note}")
            if steps:
                print("  each agent minus the one before it, paired by deal (95% interval)")
            for step in steps:
                low_ci, high_ci = step["ci"] if step.get("ci") else (None, None)
                interval = f"[{low_ci:+.2f}, {high_ci:+.2f}]" if low_ci is not None else "(too few deals)"
                print(f"    {step['second'] + ' - ' + step['first']:<28} {step['diff']:+8.2f} {interval}")
        else:
            players = max(low, 2)
            print(f"  {players} players, each agent against the one before it, {deals} deals x 2 seatings")
            for first, second in zip(agents, agents[1:]):
                wins, shared, results = match_strength(pack, first, second, deals, args.seed, players)
                low_ci, high_ci = wins["ci"]
                print(f"    {second} vs {first}: {second} wins {wins['rate']:.1%} "
                      f"[{low_ci:.1%}, {high_ci:.1%}] of {results}, shares first place {shared['rate']:.1%}")
        print("  decisions per second (the agent in every seat)")
        for agent in agents:
            rate = decision_rate(game, max(low, 1), agent, None, seconds)
            print(f"    {agent:<28} {rate['decisions_per_s']:8.1f}/s   {rate['ms_per_decision']:8.1f} ms "
                  f"per decision   ({rate['decisions']} decisions)")
        print(f"  ({time.perf_counter() - start:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
