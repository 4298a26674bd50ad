"""A plain hand-written Python version of tests/suite/breakthrough.pack, for speed comparisons.

The same game as the pack: 8x8, white's two rows at the bottom and moving
first, a pawn steps one square forward (straight or diagonally) to an empty
square or captures diagonally forward; reaching the far row or capturing the
last enemy pawn wins. Random playouts: each move is drawn uniformly from the
list of legal moves, rebuilt every turn as the engine lists them; game n
draws with `random.Random(n)`.

    python benchmarks/handwritten_breakthrough.py      # games per second
"""

from __future__ import annotations

import random
import time

SIZE = 8
EMPTY, WHITE, BLACK = 0, 1, 2
AHEAD = {WHITE: -1, BLACK: 1}
GOAL = {WHITE: 0, BLACK: SIZE - 1}


def new_board() -> list:
    board = [EMPTY] * (SIZE * SIZE)
    for c in range(SIZE * SIZE):
        if c // SIZE >= SIZE - 2:
            board[c] = WHITE
        elif c // SIZE <= 1:
            board[c] = BLACK
    return board


def legal_moves(board, me) -> list:
    enemy, ahead, out = 3 - me, AHEAD[me], []
    for c in range(SIZE * SIZE):
        if board[c] != me:
            continue
        x, y = c % SIZE, c // SIZE + ahead
        if not 0 <= y < SIZE:
            continue
        for dx in (-1, 0, 1):
            if 0 <= x + dx < SIZE:
                t = y * SIZE + x + dx
                if board[t] == EMPTY or (dx and board[t] == enemy):
                    out.append((c, t))
    return out


def play_game(n: int) -> int:
    """One random game; returns its number of moves."""
    chooser, board, me, moves = random.Random(n), new_board(), WHITE, 0
    left = {WHITE: 2 * SIZE, BLACK: 2 * SIZE}
    while True:
        frm, to = chooser.choice(legal_moves(board, me))
        if board[to] == 3 - me:
            left[3 - me] -= 1
        board[frm], board[to] = EMPTY, me
        moves += 1
        if to // SIZE == GOAL[me] or left[3 - me] == 0:
            return moves
        me = 3 - me


if __name__ == "__main__":
    start, games = time.process_time(), 0
    while time.process_time() - start < 2:
        play_game(games)
        games += 1
    print(f"hand-written breakthrough: {games / (time.process_time() - start):.1f} games/s")
