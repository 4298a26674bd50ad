"""A plain hand-written Python version of tests/suite/majority.pack, for speed comparisons.

The same game as the pack, with two players (its fewest): a 6x6 board split
into four 3x3 regions worth 8, 6, 5 and 4 points; in turn each player puts a
cube on an empty square, next to (orthogonally) a cube of their own when one
is free; at the end of rounds 3, 6 and 9 every region scores for the players
with the most cubes in it (its worth shared, rounded down) and is worth a
point less after; the game ends after round 9. Random playouts: each move is
drawn uniformly from the list of legal moves, rebuilt every turn as the
engine lists them; game n draws with `random.Random(n)`.

    python benchmarks/handwritten_majority.py      # games per second
"""

from __future__ import annotations

import random
import time

SIZE = 6
PLAYERS = 2
ROUNDS = 9
WORTH = (8, 6, 5, 4)
#: the four regions' squares: north-west, north-east, south-west, south-east
REGIONS = tuple(tuple(y * SIZE + x for y in range(top, top + 3) for x in range(left, left + 3))
                for top in (0, 3) for left in (0, 3))
NEIGHBOURS = tuple(tuple(y2 * SIZE + x2 for x2, y2 in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1))
                         if 0 <= x2 < SIZE and 0 <= y2 < SIZE)
                   for y in range(SIZE) for x in range(SIZE))


def legal_squares(board, me) -> list:
    """The empty squares next to one of `me`'s cubes, or every empty square when there is none."""
    empty = [c for c in range(SIZE * SIZE) if board[c] is None]
    near = [c for c in empty if any(board[n] == me for n in NEIGHBOURS[c])]
    return near or empty


def score_regions(board, worth, scores) -> None:
    for i, region in enumerate(REGIONS):
        counts = [0] * PLAYERS
        for c in region:
            if board[c] is not None:
                counts[board[c]] += 1
        most = max(counts)
        if most > 0:
            won = [p for p in range(PLAYERS) if counts[p] == most]
            for p in won:
                scores[p] += worth[i] // len(won)
            worth[i] -= 1


def play_game(n: int) -> int:
    """One random game; returns its number of moves."""
    chooser, board, worth, scores, moves = random.Random(n), [None] * (SIZE * SIZE), list(WORTH), [0] * PLAYERS, 0
    for round_number in range(1, ROUNDS + 1):
        for me in range(PLAYERS):
            board[chooser.choice(legal_squares(board, me))] = me
            moves += 1
        if round_number % 3 == 0:
            score_regions(board, worth, scores)
    return moves


if __name__ == "__main__":
    start, games = time.process_time(), 0
    while time.process_time() - start < 2:
        play_game(games)
        games += 1
    print(f"hand-written majority: {games / (time.process_time() - start):.1f} games/s")
