"""cProfile of seeded playouts: where the engine spends its time.

    python benchmarks/profile_playouts.py tests/packs/towns.pack --players 1
    python benchmarks/profile_playouts.py tictactoe --agent greedy --games 100 --top 40

Prints the top functions by own time and by cumulative time. Game n uses
seed n, as in run.py, so a profile can be compared before and after a change.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats

from boardrule.interpreter.agents import make_agent, play_out
from boardrule.interpreter.api import new_game, open_game


def main(argv=None):
    parser = argparse.ArgumentParser(description="cProfile of seeded playouts of one pack")
    parser.add_argument("pack", help="a bundled pack name or a path")
    parser.add_argument("--players", type=int, help="default: the pack's smallest number")
    parser.add_argument("--agent", default="random", choices=("random", "greedy"))
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--save", help="also write the raw profile to this file (for snakeviz, pstats)")
    args = parser.parse_args(argv)

    game = open_game(args.pack)
    players = args.players or game.players_range[0]

    def playouts():
        for n in range(args.games):
            state = new_game(game, players=players, seed=n)
            play_out(game, state, {seat: make_agent(args.agent, seed=n * 1000 + seat) for seat in state.players})

    profile = cProfile.Profile()
    profile.runcall(playouts)
    if args.save:
        profile.dump_stats(args.save)
    stats = pstats.Stats(profile)
    stats.strip_dirs()
    print(f"{args.games} {args.agent} games of {game.id} with {players} player(s)")
    stats.sort_stats("tottime").print_stats(args.top)
    stats.sort_stats("cumulative").print_stats(args.top)


if __name__ == "__main__":
    main()
