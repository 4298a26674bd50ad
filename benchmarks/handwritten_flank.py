"""A plain hand-written Python version of tests/packs/flank.pack, for speed comparisons.

The same game as the pack: 6x6, dark moves first, a move must flank (in one
of eight directions) a line of the other colour closed by one's own, the
flanked discs turn, a player who cannot move passes, the game ends when
neither can. Random playouts: game n draws its moves with `random.Random(n)`
(not the engine's seeds: the two play different random games of the same
rules, which is what a comparison of time per game needs).

    python benchmarks/handwritten_flank.py      # games per second
"""

from __future__ import annotations

import random
import time

SIZE = 6
DIRECTIONS = ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))
EMPTY, DARK, LIGHT = 0, 1, 2


def new_board() -> list:
    board = [EMPTY] * (SIZE * SIZE)
    for (x, y), disc in (((2, 2), LIGHT), ((3, 2), DARK), ((2, 3), DARK), ((3, 3), LIGHT)):
        board[y * SIZE + x] = disc
    return board


def flipped(board, cell, me) -> list:
    """The discs a disc of `me` on `cell` would turn (none: not a legal move)."""
    other, x0, y0, out = 3 - me, cell % SIZE, cell // SIZE, []
    for dx, dy in DIRECTIONS:
        x, y, run = x0 + dx, y0 + dy, []
        while 0 <= x < SIZE and 0 <= y < SIZE and board[y * SIZE + x] == other:
            run.append(y * SIZE + x)
            x, y = x + dx, y + dy
        if run and 0 <= x < SIZE and 0 <= y < SIZE and board[y * SIZE + x] == me:
            out.extend(run)
    return out


def legal_moves(board, me) -> list:
    return [c for c in range(SIZE * SIZE) if board[c] == EMPTY and flipped(board, c, me)]


def play_game(n: int) -> int:
    """One random game; returns its number of moves."""
    chooser, board, me, moves, passes = random.Random(n), new_board(), DARK, 0, 0
    while passes < 2:
        legal = legal_moves(board, me)
        if legal:
            cell = chooser.choice(legal)
            for c in flipped(board, cell, me):
                board[c] = me
            board[cell] = me
            moves, passes = moves + 1, 0
        else:
            passes += 1
        me = 3 - me
    return moves


if __name__ == "__main__":
    start, games = time.process_time(), 0
    while time.process_time() - start < 2:
        play_game(games)
        games += 1
    print(f"hand-written flank: {games / (time.process_time() - start):.1f} games/s")
