"""A search agent: open-loop Monte Carlo tree search over sampled worlds.

`mcts` estimates what good play scores. For every decision it runs a number
of iterations (or searches for a number of seconds); each iteration

1. samples a world the player cannot tell apart from the real one
   (`determinize`): the order of every deck and the future of the random
   generator are drawn afresh from the agent's own generator, what the other
   players did so far in a simultaneous decision is taken back (as
   `interpreter/runtime/views.py` hides it), and the others' private variables hold
   what they start the game with;
2. walks down the tree of moves tried so far, choosing by UCB1 among the
   moves legal in this world, and adds one new move: a move never tried is
   tried first, at the root in the order of its immediate gain (as `greedy`
   judges it, in a sampled world), deeper at random;
3. plays on with random moves (all seats; with `playout=K`, the best
   immediate gain among K moves drawn at random), to the end or for `depth`
   moves. The default depth, `auto`, is 10 moves, except in a pack whose
   moves ask for patterns (`playout_depth`): there random moves mostly
   break the patterns begun, so the position is judged at once (0 moves),
   as `strong` does;
4. gives every seat its reward and adds it along the path.

The k-th visit of any move at the root uses the k-th sampled world and the
k-th random stream (common random numbers, as in duplicate games), so the
moves the root compares are judged on the same luck.

The tree is open-loop: a node is a sequence of moves, whatever the dice and
the decks did in between, so chance and hidden information need nothing
more than sampling. Rewards: alone at the table, the final score; with
others, the share of first place (1, or 1/k when k share it) plus a small
part of the score margin over the best other player, so that a won game is
won by as much as possible and a lost one lost by as little as possible.
A truncated playout (`depth`) is judged by the evaluation at that point
(`evaluation.totals`: the scores, the pack's hint, the shape potential of
the patterns begun), as `strong` judges positions.

The chosen move is the most visited one (its mean reward breaks ties, then
the canonical move order). With an iteration budget the agent is
deterministic for its seed; a time budget (`seconds`) depends on the
machine's speed, so it is not.

Written in `--seats` as `mcts` (50 iterations per decision, playouts of
`auto` depth), `mcts:200` (200 iterations), `mcts:0.5s` (half a second per
decision), with more settings after further colons: `mcts:100:depth=20:c=1.0`
(`depth=end` plays every playout to the end, `depth=0` judges by the scores
at once; `c` weighs exploration; `playout=4` picks playout moves as above).
"""

from __future__ import annotations

import math
import random
import time

from boardrule.dsl.diagnostics import IllegalMoveError, UsageError
from boardrule.interpreter.agents import evaluation, patterns
from boardrule.interpreter.runtime import flow
from boardrule.interpreter.runtime.budget import BudgetError
from boardrule.interpreter.runtime.deck_order import UNKNOWN
from boardrule.interpreter.runtime.outcome import outcome
from boardrule.interpreter.runtime.scoring import score_sheet
from boardrule.interpreter.runtime.state import LazyRandom
from boardrule.interpreter.runtime.values import RuleError
from boardrule.interpreter.runtime.views import view

DEFAULT_ITERATIONS = 50
DEFAULT_DEPTH = "auto"
AUTO_DEPTH = 10  # the playout length of `auto` in a pack whose moves ask for no pattern
DEFAULT_PLAYOUT = 1
MARGIN_WEIGHT = 0.01  # reward per point of margin, next to 1 for a won game
MAX_SETTING_ITERATIONS = 1_000_000


class _Node:
    __slots__ = ("children", "visits", "totals", "available", "order")

    def __init__(self, seats):
        self.children = {}  # move -> _Node, in the order first tried
        self.order = None  # at the root: the order in which to try moves
        self.visits = 0
        self.totals = [0.0] * seats  # summed reward of every seat
        self.available = 0  # iterations in which this move was legal (for UCB among changing moves)


class MonteCarloAgent:
    """Open-loop MCTS with random playouts; see the module's docstring."""

    name = "mcts"
    picks_from_moves = True  # returns one of the moves it is given (play_out trusts it)

    def __init__(self, seed: int = 0, iterations: int | None = DEFAULT_ITERATIONS, seconds: float | None = None,
                 depth: int | str | None = DEFAULT_DEPTH, c: float = 0.7, playout: int = DEFAULT_PLAYOUT):
        self.rng = random.Random(seed)
        self.iterations = iterations
        self.seconds = seconds
        self.depth = depth
        self.c = c
        self.playout = playout

    def __call__(self, game, state, seat, moves):
        if len(moves) == 1:
            return moves[0]
        state = flow.search_copy(state)  # the search's work is the agent's budget, not the game's
        root = _Node(state.seats)
        bounds = [math.inf, -math.inf]  # the rewards seen so far, to scale exploration
        deadline = time.perf_counter() + self.seconds if self.seconds is not None else None
        root.order = self._first_tries(game, state, seat, moves)
        seeds = []  # (world, stream) seeds of the n-th visit of any root move: common random numbers
        known = _known_moves(state, seat)
        done = 0
        while True:
            if self.iterations is not None and done >= self.iterations:
                break
            if deadline is not None and done > 0 and time.perf_counter() >= deadline:
                break
            try:
                self._iterate(game, state, root, seat, moves, bounds, seeds, known)
            except BudgetError:
                if done == 0:
                    raise
                break  # the search spent its budget: the moves tried so far decide
            done += 1
        return _best(root, moves, seat)

    def _first_tries(self, game, state, seat, moves) -> list:
        """The order in which the root tries its moves: best immediate gain first (as `greedy`
        judges it, in a sampled world so that it peeks at nothing), equals in random order."""
        world = determinize(game, state, seat, self.rng)
        keyed = []
        for move in moves:
            try:
                gain = score_sheet(game, flow.preview(game, world, move), seat).total
            except RuleError:
                gain = -math.inf
            keyed.append((-gain, self.rng.random(), len(keyed), move))
        keyed.sort(key=lambda item: item[:3])
        return [item[3] for item in keyed]

    # ------------------------------------------------------------ search
    def _iterate(self, game, real, root, seat, moves, bounds, seeds, known):
        """One iteration: the k-th visit of any root move plays in the k-th sampled world with
        the k-th random stream, so that root moves are compared on the same luck."""
        move, child, new = self._select(root, moves, seat, bounds, self.rng)
        visit = child.visits
        while len(seeds) <= visit:
            seeds.append((self.rng.getrandbits(64), self.rng.getrandbits(64)))
        world_seed, stream_seed = seeds[visit]
        stream = random.Random(stream_seed)
        state = determinize(game, real, seat, random.Random(world_seed))
        if known is not None:  # in a sampled world the seat has the moves it knows it has
            state.moves_cache.update(known)
        path = [root]
        node = child
        while True:
            try:
                state = flow.apply(game, state, move)
            except IllegalMoveError:  # legal in another world only; judged where it stands
                break
            path.append(node)
            if new or state.phase == "over":
                break
            acting = flow.waiting(state)[0]
            legal = flow.legal_moves(game, state, acting)
            if not legal:  # a sampled world where a seat is stuck (what it holds was guessed): judged here
                break
            move, node, new = self._select(node, legal, acting, bounds, stream)
        reward = self._playout(game, state, stream)
        bounds[0] = min(bounds[0], min(reward))
        bounds[1] = max(bounds[1], max(reward))
        if len(path) == 1:  # the root move itself was not legal in this world
            path.append(child)
        for visited in path:
            visited.visits += 1
            totals = visited.totals
            for index, value in enumerate(reward):
                totals[index] += value

    def _select(self, node, legal, acting, bounds, rng):
        """The move to follow among `legal`: one never tried first, else by UCB1."""
        children = node.children
        untried = []
        for move in legal:
            child = children.get(move)
            if child is None or child.visits == 0:
                untried.append(move)
            else:
                child.available += 1
        if untried:
            if node.order is not None:  # the root: in the order of immediate gain
                waiting = set(untried)
                move = next((m for m in node.order if m in waiting), untried[0])
            else:  # deeper: one at random, so that a small budget still samples all kinds of moves
                move = untried[rng.randrange(len(untried))] if len(untried) > 1 else untried[0]
            child = children.get(move)
            if child is None:
                child = children[move] = _Node(len(node.totals))
            child.available += 1
            return move, child, True
        best = ucb1_choice(legal, children, acting, self.c * max(bounds[1] - bounds[0], 1e-9))
        return best, children[best], False

    def _playout(self, game, state, rng):
        state = state.clone()  # the playout's own, its moves made in place
        steps = 0
        sample = self.playout
        depth = playout_depth(game, self.depth, AUTO_DEPTH)
        while state.phase != "over" and (depth is None or steps < depth):
            seat = flow.waiting(state)[0]
            moves = flow.legal_moves(game, state, seat)
            if not moves:  # a sampled world where a seat is stuck: judged where it stands
                break
            if sample <= 1 or len(moves) == 1:
                move = moves[rng.randrange(len(moves))]
            else:  # the best immediate gain among a few moves drawn at random
                move, best = None, None
                for index in rng.sample(range(len(moves)), min(sample, len(moves))):
                    gain = score_sheet(game, flow.preview(game, state, moves[index]), seat).total
                    if best is None or gain > best:
                        move, best = moves[index], gain
            state = flow.apply_in_place(game, state, move)
            steps += 1
        return rewards(game, state)


def playout_depth(game, depth, auto=None):
    """How far a playout goes (None: to the end). `auto`: judged at once (0) in a pack whose moves ask for
    patterns, where the shape potential sees what a plan is worth (patterns.py) and random moves would
    mostly break the patterns begun; elsewhere `auto` moves (None: to the end, the final score judging)."""
    if depth == "auto":
        return 0 if patterns.shaped_actions(game) else auto
    return depth


def rewards(game, state, rng=None, reach: int = 0, discount: float = patterns.DISCOUNT,
            stranded: float = patterns.STRANDED, missing: int = patterns.MAX_MISSING, hope: float = 0.0) -> list:
    """Every seat's reward for a position: alone, the judged score; with others, the share of first
    place by the judged totals plus a little for the margin. A position before the end is judged by
    the evaluation (evaluation.totals: the score now, the pack's hint, the shape potential), counting
    the next mover's best gain within `reach` decisions (0: none); a finished game by its outcome."""
    judged = evaluation.totals(game, state, rng, ahead=reach > 0, reach=max(reach, 1), discount=discount,
                               stranded=stranded, missing=missing, hope=hope)
    out = [0.0] * state.seats
    if len(judged) == 1:
        for seat, points in judged.items():
            out[seat] = points
        return out
    if state.phase == "over":
        winners = outcome(game, state).winners
    else:
        best = max(judged.values())
        winners = tuple(seat for seat, points in judged.items() if points == best)
    for seat, points in judged.items():
        others = max(p for s, p in judged.items() if s != seat)
        share = 1.0 / len(winners) if seat in winners else 0.0
        out[seat] = share + MARGIN_WEIGHT * (points - others)
    return out


def _best(root, moves, seat):
    best, best_key = moves[0], None
    for index, move in enumerate(moves):
        child = root.children.get(move)
        if child is None or child.visits == 0:
            continue
        key = (child.visits, child.totals[seat] / child.visits, -index)
        if best_key is None or key > best_key:
            best, best_key = move, key
    return best


# ------------------------------------------------------------ sampling
def determinize(game, state, seat, rng):
    """A world `seat` cannot tell from `state`: hidden things drawn afresh from `rng`.

    Starts from what the seat sees (`views.view`), then fills in what the
    view hides: each deck holds its real cards, those the seat saw put into
    it where they went (deck_order.py), the others in a fresh random order
    (what is in a deck is known, as by counting cards; its order is not), the
    random generator gets a fresh seed (future dice are unknown), and every
    other player's private variables hold what the pack declares they start
    with (`player_vars`: their initial values), since nothing of what they
    hold now is known: not even which values are among the others, so they
    are not dealt out again among them.
    """
    world = view(game, state, seat)
    world.rng = LazyRandom.seeded(rng.getrandbits(64))
    for name in sorted(state.decks):
        world.decks[name] = _deck_drawn(state.decks[name], world.decks[name], rng)
    if game.private_vars:
        _private_as_at_start(game, world, seat)
    return world


def _deck_drawn(cards, seen, rng) -> list:
    """The deck `cards` as the seat might find it: the cards it knows where they are (`seen`, the view's
    deck: UNKNOWN elsewhere, deck_order.py) stay there, the others in a fresh random order (what the world
    is depends on the deck's contents and what is known, not on the real order)."""
    left = sorted(cards, key=_canonical)
    for card in seen:
        if card != UNKNOWN:
            try:
                left.remove(card)
            except ValueError:
                seen = [UNKNOWN] * len(cards)  # not the deck's cards: nothing is known of its order
                left = sorted(cards, key=_canonical)
                break
    rng.shuffle(left)
    drawn = iter(left)
    return [next(drawn) if card == UNKNOWN else card for card in seen]


def _private_as_at_start(game, world, seat):
    """The others' private variables set to their declared initial values (flow._init_vars)."""
    ctx = game.ctx(world)
    for name, initial, per_seat in game.player_vars:
        if name not in game.private_vars:
            continue
        for other in range(world.seats):
            if other == seat or name not in world.pvars[other]:
                continue
            ctx.for_player(other)
            if per_seat:
                world.pvars[other][name] = per_seat[other % len(per_seat)](ctx)
            else:
                world.pvars[other][name] = initial(ctx) if initial is not None else None


def _known_moves(real, seat):
    """The seat's legal moves as flow caches them (by seat, and as a set), or None."""
    moves = real.moves_cache.get(seat)
    pending = real.pending.get(seat)
    if moves is None or pending is None or pending.choice is not None:
        return None
    return {seat: moves, ("set", seat): frozenset(moves)}


def _canonical(value):
    return (type(value).__name__, repr(value))


# ------------------------------------------------------------ settings
def parse_settings(text: str) -> dict:
    """`50`, `0.5s`, `depth=20`, `c=1.0`, joined by `:` -> keyword arguments."""
    settings = {}
    for part in [p.strip() for p in text.split(":") if p.strip()]:
        key, sep, value = part.partition("=")
        try:
            if not sep:
                if part.endswith("s"):
                    settings["seconds"], settings["iterations"] = float(part[:-1]), None
                else:
                    settings["iterations"] = int(part)
            elif key == "iterations":
                settings["iterations"] = int(value)
            elif key == "seconds":
                settings["seconds"], settings["iterations"] = float(value.rstrip("s")), None
            elif key == "depth":
                settings["depth"] = None if value == "end" else value if value == "auto" else int(value)
            elif key == "c":
                settings["c"] = float(value)
            elif key == "playout":
                settings["playout"] = int(value)
            else:
                raise UsageError(f"mcts has no setting `{key}`; settings: iterations, seconds, depth, c, playout",
                                 code="E005")
        except ValueError:
            raise UsageError(f"mcts setting `{part}` is not a number", code="E005") from None
    iterations, seconds = settings.get("iterations"), settings.get("seconds")
    if iterations is not None and not 1 <= iterations <= MAX_SETTING_ITERATIONS:
        raise UsageError(f"mcts iterations must be 1 to {MAX_SETTING_ITERATIONS}, not {iterations}", code="E005")
    if seconds is not None and not (seconds > 0 and math.isfinite(seconds)):
        raise UsageError(f"mcts seconds must be positive, not {seconds:g}", code="E005")
    if settings.get("depth") not in (None, "auto") and settings["depth"] < 0:
        raise UsageError("mcts depth must be 0 (judge by the scores without playing on) or more", code="E005")
    if "c" in settings and not (settings["c"] >= 0 and math.isfinite(settings["c"])):
        raise UsageError(f"mcts c must be a number, 0 or more, not {settings['c']:g}", code="E005")
    return settings


def ucb1_choice(moves, stats, acting, scale):
    """The move whose statistics (`totals`, `visits`, `available`, in `stats[move]`) give the seat
    `acting` the highest UCB1 value (available-count form, for moves not always legal)."""
    best, best_value = None, -math.inf
    for move in moves:
        stat = stats[move]
        value = stat.totals[acting] / stat.visits + scale * math.sqrt(math.log(stat.available) / stat.visits)
        if value > best_value:
            best, best_value = move, value
    return best
