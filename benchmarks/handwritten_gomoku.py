"""A plain hand-written Python version of tests/suite/gomoku.pack, for speed comparisons.

The same game as the pack: 15x15, black first, a stone goes on any empty
point, five or more in a line (across, down, diagonal) through the stone just
placed wins, a full board is a draw. Random playouts: each move is drawn
uniformly from the list of legal moves, rebuilt every turn as the engine
lists them; game n draws with `random.Random(n)`.

    python benchmarks/handwritten_gomoku.py      # games per second
"""

from __future__ import annotations

import random
import time

SIZE = 15
LINES = ((1, 0), (0, 1), (1, 1), (1, -1))  # each line is walked both ways
EMPTY, BLACK, WHITE = 0, 1, 2


def run(board, x, y, dx, dy, me) -> int:
    """How many of `me`'s stones follow (x, y) in direction (dx, dy)."""
    n, x, y = 0, x + dx, y + dy
    while 0 <= x < SIZE and 0 <= y < SIZE and board[y * SIZE + x] == me:
        n, x, y = n + 1, x + dx, y + dy
    return n


def makes_five(board, cell, me) -> bool:
    x, y = cell % SIZE, cell // SIZE
    return any(1 + run(board, x, y, dx, dy, me) + run(board, x, y, -dx, -dy, me) >= 5 for dx, dy in LINES)


def play_game(n: int) -> int:
    """One random game; returns its number of moves."""
    chooser, board, me, moves = random.Random(n), [EMPTY] * (SIZE * SIZE), BLACK, 0
    while True:
        legal = [c for c in range(SIZE * SIZE) if board[c] == EMPTY]
        if not legal:
            return moves
        cell = chooser.choice(legal)
        board[cell] = me
        moves += 1
        if makes_five(board, cell, me):
            return moves
        me = 3 - me


if __name__ == "__main__":
    start, games = time.process_time(), 0
    while time.process_time() - start < 2:
        play_game(games)
        games += 1
    print(f"hand-written gomoku: {games / (time.process_time() - start):.1f} games/s")
