"""A hand-written Tiny Towns solo game with random play: the speed baseline.

No engine code is imported. This is what a competent developer would write in
an afternoon for one game: clear data structures, pattern orientations and
board placements computed once at import, no micro-optimisation. run.py
compares the engine's playouts against `play_game`.

The game (tinytowns-rules.txt, "Solo Tiny Towns Variant", and
tinytowns-cards.md):

* a 4x4 town; five resources; a 15-card resource deck (3 of each), shuffled,
  3 cards face up;
* each turn: choose one of the 3 face-up cards, place that resource on an
  empty square, put the card at the bottom of the deck and reveal the next
  one; then build any number of buildings (each step picks at random among
  every legal build and "stop");
* a build needs the building's pattern (rotated and/or mirrored) of
  resources on the board; the resources are removed and the building goes on
  one of the squares they came from;
* the game ends when, after building, the town has no empty square;
* buildings: the recommended first-game set (Cottage, Chapel, Farm, Tavern,
  Well, Theater, Factory); Factory is a plain 0-point building here (its
  resource-swap power needs a named resource, which solo play never has);
  no monument;
* scoring: fed Cottage 3 (each Farm feeds 4 Cottages anywhere, chosen to
  feed as many as possible), Chapel 1 per fed Cottage, Tavern chart
  1 2 3 4 5+ -> 2 5 9 14 20, Well 1 per adjacent Cottage, Theater 1 per
  other building type in its row and column (max 6), Farm and Factory 0,
  -1 per square without a building.

    >>> play_game(1) == play_game(1)
    True
"""

from __future__ import annotations

import random
from collections import deque

SIZE = 4
CELLS = SIZE * SIZE
RESOURCES = ("wood", "wheat", "brick", "glass", "stone")
DECK = tuple(r for r in RESOURCES for _ in range(3))  # 15 cards, 3 of each

# Patterns as printed on the cards (tinytowns-cards.md); "." is not part of it.
PATTERNS = {
    "cottage": ". wheat / brick glass",
    "chapel": ". . glass / stone glass stone",
    "farm": "wheat wheat / wood wood",
    "tavern": "brick brick glass",
    "well": "wood stone",
    "theater": ". stone . / wood glass wood",
    "factory": "wood . . . / brick stone stone brick",
}
BUILDINGS = tuple(PATTERNS)
# The options of rulepacks/tinytowns.pack that deal this same game (the
# first-game buildings, no monument): the engine side of the comparison.
ENGINE_OPTIONS = {"first_game": True, "monuments": False}
TAVERN_POINTS = (0, 2, 5, 9, 14, 20)  # by number of Taverns, 5+ -> 20


# ------------------------------------------------------------- patterns
def parse_pattern(text):
    """((x, y, resource), ...) of the pattern's squares."""
    cells = []
    for y, row in enumerate(text.split("/")):
        for x, token in enumerate(row.split()):
            if token != ".":
                cells.append((x, y, token))
    return tuple(cells)


def normalise(cells):
    min_x = min(x for x, _, _ in cells)
    min_y = min(y for _, y, _ in cells)
    return tuple(sorted((x - min_x, y - min_y, r) for x, y, r in cells))


def orientations(cells):
    """The distinct rotations and mirror images of a pattern (up to 8)."""
    found = set()
    for start in (cells, tuple((-x, y, r) for x, y, r in cells)):
        current = start
        for _ in range(4):
            found.add(normalise(current))
            current = tuple((-y, x, r) for x, y, r in current)
    return sorted(found)


def placements(cells):
    """Every way to lay the pattern on the board: (squares, ((square, resource), ...))."""
    result = []
    for shape in orientations(cells):
        width = max(x for x, _, _ in shape) + 1
        height = max(y for _, y, _ in shape) + 1
        for dy in range(SIZE - height + 1):
            for dx in range(SIZE - width + 1):
                placed = tuple(((y + dy) * SIZE + x + dx, r) for x, y, r in shape)
                result.append((tuple(square for square, _ in placed), placed))
    return result


PLACEMENTS = {name: placements(parse_pattern(text)) for name, text in PATTERNS.items()}


def _neighbours(square):
    x, y = square % SIZE, square // SIZE
    out = []
    for nx, ny in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)):
        if 0 <= nx < SIZE and 0 <= ny < SIZE:
            out.append(ny * SIZE + nx)
    return tuple(out)


NEIGHBOURS = tuple(_neighbours(s) for s in range(CELLS))
# the other squares of a square's row and column
LINES = tuple(tuple(s for s in range(CELLS) if s != square and (s % SIZE == square % SIZE or
                                                                  s // SIZE == square // SIZE))
              for square in range(CELLS))


# ----------------------------------------------------------------- play
def legal_builds(board):
    """Every (building, squares used, square built on) possible now."""
    builds = []
    for building, options in PLACEMENTS.items():
        for used, placement in options:
            for square, resource in placement:
                if board[square] != resource:
                    break
            else:
                for spot in used:
                    builds.append((building, used, spot))
    return builds


def play_game(seed, return_board=False):
    """One random solo game; returns its final score (and the town if asked)."""
    rng = random.Random(seed)
    cards = list(DECK)
    rng.shuffle(cards)
    deck = deque(cards)
    face_up = [deck.popleft() for _ in range(3)]
    board = [None] * CELLS  # each square: None, a resource or a building
    while True:
        # choose a face-up card, place its resource, cycle the card
        index = rng.randrange(3)
        resource = face_up[index]
        deck.append(resource)
        face_up[index] = deck.popleft()
        empty = [s for s in range(CELLS) if board[s] is None]
        board[rng.choice(empty)] = resource
        # build any number of buildings
        while True:
            builds = legal_builds(board)
            pick = rng.randrange(len(builds) + 1)
            if pick == len(builds):
                break  # "stop"
            building, used, spot = builds[pick]
            for square in used:
                board[square] = None
            board[spot] = building
        if None not in board:
            break
    score = score_town(board)
    return (score, board) if return_board else score


# -------------------------------------------------------------- scoring
def score_town(board):
    """The final score of a town (a list of 16: building, resource or None)."""
    counts = {name: 0 for name in BUILDINGS}
    for item in board:
        if item in counts:
            counts[item] += 1
    fed = min(counts["cottage"], 4 * counts["farm"])  # Farms feed any Cottages: feed the most
    score = 3 * fed
    score += counts["chapel"] * fed
    score += TAVERN_POINTS[min(counts["tavern"], 5)]
    for square, item in enumerate(board):
        if item == "well":
            score += sum(1 for n in NEIGHBOURS[square] if board[n] == "cottage")
        elif item == "theater":
            types = {board[s] for s in LINES[square] if board[s] in counts and board[s] != "theater"}
            score += min(len(types), 6)
        elif item not in counts:
            score -= 1  # empty, or a resource left over
    return score


def render(board):
    """The town as text, for eyeballing a game."""
    short = {None: ".", **{r: r[:2] for r in RESOURCES}, **{b: b[:3].upper() for b in BUILDINGS}}
    return "\n".join(" ".join(f"{short[board[y * SIZE + x]]:>3}" for x in range(SIZE)) for y in range(SIZE))


if __name__ == "__main__":
    import sys
    import time

    games = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    start = time.perf_counter()
    scores = [play_game(seed) for seed in range(games)]
    elapsed = time.perf_counter() - start
    print(f"{games} games in {elapsed:.2f} s: {games / elapsed:.0f} games/s, {elapsed / games * 1000:.3f} ms/game; "
          f"mean score {sum(scores) / games:.2f}, best {max(scores)}")
    score, board = play_game(0, return_board=True)
    print(f"seed 0 scores {score}:\n{render(board)}")
