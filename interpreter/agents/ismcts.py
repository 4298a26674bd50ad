"""The `strong` agent: information-set Monte Carlo tree search, fitted to grid board games.

For each decision the agent runs iterations until its budget is spent; each
iteration

1. **samples a world** the player cannot tell from the real one
   (`montecarlo.determinize`: decks in a fresh order, future dice unknown,
   the others' private values as they start the game, their moves in a
   decision made together taken back). The k-th visit of any move at the root uses the
   k-th sampled world (common random numbers, as in duplicate games);
2. **walks down the tree**, whose nodes are *information sets*: a node is
   what the seat to move can see (boards, variables, its own private values,
   points, dice, how many cards each deck holds, where the flow stands), not
   the sequence of moves that led there. So statistics are shared by every
   sampled world that looks the same to that seat, and by move orders that
   reach the same position (transpositions). A seat with one legal move
   moves without a node;
3. at each node chooses among the moves legal in this world by UCB1, with
   **progressive widening**: a node visited n times considers only its
   `widen` x n^0.5 best moves by prior (at least 2), so a decision with
   hundreds of moves still looks deeper than one ply. The prior ranks moves
   by the evaluation of the position after them (`evaluation.judge_move`:
   the pack's scoring as if the game ended now plus the pack's hint and
   `hope` times what the marks could still give, marks.py; at the root,
   plus the shape potential of patterns.py and the best the next mover can
   add at once), worked
   out the second time a node is reached (most nodes are reached once), over
   at most `prior` moves drawn at random, the rest after them in random order;
4. adds one move to the tree and **plays out** from it for at most `depth`
   moves, each the best immediate gain among `playout` moves drawn at random
   (1: random moves), then judges the position with the evaluation (the
   final scores if the game is over; with the shape potential and what the
   marks could still give). The default,
   `auto`, judges at once (0 moves) in a pack whose moves ask for patterns
   (`playout_depth`) and plays to the end elsewhere;
5. adds every seat's reward to the moves on its path.

Rewards are those of `montecarlo.rewards`: alone, the score; with others,
the share of first place plus a little for the margin.

With one tree, the tree is kept from one decision to the next (the nodes
are information sets, so what was learnt stays true), up to `MAX_NODES`
nodes; several trees start afresh at every decision.

**Budgets.** `iterations` caps the iterations, `work` the units of work the
search spends (budget.py: every rule evaluated, every move made, counted
the same on every machine), `seconds` the time. Iterations and work keep the
agent deterministic for its seed; time does not. `strong` stops at the first
of its iteration and work budgets.

**Root parallelism.** With `trees=T` the decision is searched by T
independent trees (each with its own seeds and 1/T of the budget), and their
visits at the root are added up. The trees are the same whether they run
one after another or in `jobs` processes, so the move is too.
"""

from __future__ import annotations

import math
import random
import time

from boardrule.dsl.diagnostics import UsageError
from boardrule.interpreter.agents import evaluation, patterns
from boardrule.interpreter.runtime import flow
from boardrule.interpreter.runtime.budget import BudgetError
from boardrule.interpreter.agents.montecarlo import _known_moves, determinize, playout_depth, rewards, ucb1_choice
from boardrule.interpreter.runtime.scoring import score_sheet
from boardrule.interpreter.runtime.values import RuleError

#: the share of what the marks could still give that `strong` counts (marks.py; docs/simulate.md)
HOPE = 0.5
#: the `strong` agent's defaults (measured: see docs/simulate.md)
DEFAULTS = {"iterations": 1000, "work": 6_000_000, "seconds": None, "depth": "auto", "playout": 1, "c": 0.7,
            "widen": 2.0, "prior": 32, "trees": 1, "jobs": 1, "tree": "info", "mast": 0.0, "reach": 1,
            "shapes": patterns.DISCOUNT, "stranded": patterns.STRANDED, "missing": patterns.MAX_MISSING,
            "hope": HOPE}
MAX_NODES = 200_000
MAST_SAMPLE = 24  # a playout move is drawn among at most this many
WIDEN_FROM = 16  # a node considers at least this many moves: widening is for decisions with more
MAX_SETTING = 100_000_000
#: the units a guided playout charges per move it judges (a copy of the position and a score sheet), as
#: the shape potential charges its own (patterns.COPY_UNITS, JUDGED_UNITS)
JUDGED = patterns.COPY_UNITS + patterns.JUDGED_UNITS


class _Node:
    """An information set of the seat to move: its moves tried so far, and their statistics."""

    __slots__ = ("edges", "visits", "order", "ranked")

    def __init__(self):
        self.edges = {}  # move -> _Edge, in the order first tried
        self.visits = 0
        self.order = None  # the moves in the order widening admits them (ranked on the second visit)
        self.ranked = False


class _Edge:
    __slots__ = ("visits", "totals", "available", "child")

    def __init__(self, seats):
        self.child = None  # the node after this move (open-loop trees)
        self.visits = 0
        self.totals = [0.0] * seats  # summed reward of every seat
        self.available = 0  # iterations in which this move was legal and admitted (UCB among changing moves)


class SearchAgent:
    """Information-set MCTS with progressive widening and transpositions; see the module's docstring."""

    name = "strong"
    picks_from_moves = True  # returns one of the moves it is given (play_out trusts it)

    def __init__(self, seed: int = 0, **settings):
        values = dict(DEFAULTS)
        values.update(settings)
        self.seed = seed
        self.rng = random.Random(seed)
        for key, value in values.items():
            setattr(self, key, value)
        self.table = {}  # information-set key -> _Node, kept between decisions (one tree only)

    # ------------------------------------------------------------ deciding
    def __call__(self, game, state, seat, moves):
        if len(moves) == 1:
            return moves[0]
        seeds = [self.rng.getrandbits(64) for _ in range(self.trees)]
        if self.trees > 1 and self.jobs > 1:
            visits = _parallel_roots(game, state, seat, moves, seeds, self)
        else:
            visits = [self._search(game, state, seat, moves, seed, index) for index, seed in enumerate(seeds)]
        return _best(moves, visits, seat)

    def _search(self, game, state, seat, moves, seed, tree=0):
        """One tree's search of a decision: the root's (visits, reward totals) per move. The shape
        potentials it works out are remembered for this search (patterns.remembering)."""
        with patterns.remembering():
            return self._search_tree(game, state, seat, moves, seed, tree)

    def _search_tree(self, game, state, seat, moves, seed, tree):
        rng = random.Random(seed)
        real = flow.search_copy(state)  # the search's work is the agent's budget, not the game's
        self._seat_count = real.seats
        # several trees start afresh at each decision, so that processes that search them need no
        # table from the decisions before (and the move is the same in one process or several)
        table = self.table if self.trees == 1 else {}
        if len(table) > MAX_NODES:
            table.clear()
        key = info_key(real, seat, game.private_vars)
        root = table.get(key)
        if root is None:
            root = table[key] = _Node()
        start = real.meter.spent()  # the ranking of the root is part of the budget
        if not root.ranked:
            self._rank(game, determinize(game, real, seat, rng), seat, root, moves, rng, full=True)
        known = _known_moves(real, seat)
        share = self.trees
        iterations = None if self.iterations is None else max(1, self.iterations // share)
        work = None if self.work is None else max(1, self.work // share)
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds / share
        bounds = self._bounds = [math.inf, -math.inf]
        if self.mast:
            self.mast_table = {}
        worlds = []  # (world seed, stream seed) of the k-th visit of any root move
        done = 0
        while True:
            if iterations is not None and done >= iterations:
                break
            if done > 0 and work is not None and real.meter.spent() - start >= work:
                break
            if done > 0 and deadline is not None and time.perf_counter() >= deadline:
                break
            try:
                self._iterate(game, real, seat, root, moves, table, known, bounds, worlds, rng)
            except BudgetError:
                if done == 0:
                    raise
                break  # the search spent its budget: the moves tried so far decide
            done += 1
        self.last_iterations = done
        self._work_spent = real.meter.spent() - start
        return {move: (edge.visits, edge.totals[seat]) for move, edge in root.edges.items()}

    # ------------------------------------------------------------ one iteration
    def _iterate(self, game, real, seat, root, moves, table, known, bounds, worlds, rng):
        edge, move = self._select(game, None, root, moves, seat, bounds, rng)
        visit = edge.visits
        while len(worlds) <= visit:
            worlds.append((rng.getrandbits(64), rng.getrandbits(64)))
        world_seed, stream_seed = worlds[visit]
        stream = random.Random(stream_seed)
        state = determinize(game, real, seat, random.Random(world_seed))
        if known is not None:  # in a sampled world the seat has the moves it knows it has
            state.moves_cache.update(known)
        path = [edge]
        nodes = [root]
        moves_on_path = [move]
        new = edge.visits == 0
        state = flow.apply_in_place(game, state, move)
        while not new and state.phase != "over":
            acting = flow.waiting(state)[0]
            legal = flow.legal_moves(game, state, acting)
            if not legal:  # a sampled world where a seat is stuck (what it holds was guessed): judged here
                break
            if len(legal) == 1:
                state = flow.apply_in_place(game, state, legal[0])
                continue
            if self.tree == "open":
                node = edge.child
                if node is None:
                    node = edge.child = _Node()
            else:
                key = info_key(state, acting, game.private_vars)
                node = table.get(key)
                if node is None:
                    node = table[key] = _Node()
            if node.visits and not node.ranked:
                self._rank(game, state, acting, node, legal, stream)
            edge, move = self._select(game, state, node, legal, acting, bounds, stream)
            new = edge.visits == 0
            path.append(edge)
            nodes.append(node)
            moves_on_path.append(move)
            state = flow.apply_in_place(game, state, move)
        played = [] if self.mast else None
        reward = self._playout(game, state, stream, played)
        low, high = min(reward), max(reward)
        if low < bounds[0]:
            bounds[0] = low
        if high > bounds[1]:
            bounds[1] = high
        for node in nodes:
            node.visits += 1
        for edge in path:
            edge.visits += 1
            totals = edge.totals
            for index, value in enumerate(reward):
                totals[index] += value
        if played is not None:  # every move of the iteration, judged by its mover's reward
            mast = self.mast_table
            for move in moves_on_path + played:
                stat = mast.get(move)
                if stat is None:
                    stat = mast[move] = [0, 0.0]
                stat[0] += 1
                stat[1] += reward[move.seat]

    def _rank(self, game, state, seat, node, legal, rng, full=False):
        """Order a node's moves for widening: by the evaluation right after each (best first), over
        at most `prior` moves drawn at random (all of them at the root), the rest after in random order."""
        node.ranked = True
        if full or len(legal) <= self.prior:
            judged, rest = list(legal), []
        else:
            picked = sorted(rng.sample(range(len(legal)), self.prior))
            chosen = set(picked)
            judged = [legal[i] for i in picked]
            rest = [m for i, m in enumerate(legal) if i not in chosen]
            rng.shuffle(rest)
        keyed = []
        for index, move in enumerate(judged):
            try:
                value = evaluation.judge_move(game, state, seat, move, rng, reach=1 if full else 0,
                                              discount=self.shapes if full else 0, stranded=self.stranded,
                                              missing=self.missing, hope=self.hope)
            except RuleError:
                value = -math.inf
            keyed.append((-value, rng.random(), index, move))
        keyed.sort(key=lambda item: item[:3])
        ordered = [item[3] for item in keyed] + rest
        if node.order:  # moves first tried before the ranking keep their place in front
            tried = [m for m in node.order if m in node.edges]
            ordered = tried + [m for m in ordered if m not in node.edges]
        node.order = ordered

    def _select(self, game, state, node, legal, acting, bounds, rng):
        """The edge to follow among the `legal` moves the node's widening admits: an untried one
        first (in prior order), else by UCB1."""
        edges = node.edges
        if node.order is None:  # reached once: no ranking yet, a random order
            order = list(legal)
            rng.shuffle(order)
            node.order = order
        allowed = max(WIDEN_FROM, int(self.widen * math.sqrt(node.visits + 1)))
        legal_set = set(legal) if len(legal) > 8 else legal
        admitted = []
        for move in node.order:
            if move in legal_set:
                admitted.append(move)
                if len(admitted) >= allowed:
                    break
        if len(admitted) < allowed and len(admitted) < len(legal):  # moves of this world the order lacks
            known = set(node.order)
            extra = [m for m in legal if m not in known]
            node.order.extend(extra)
            admitted.extend(extra[:allowed - len(admitted)])
        untried = None
        for move in admitted:
            edge = edges.get(move)
            if edge is None or edge.visits == 0:
                untried = move
                break
        for move in admitted:
            edge = edges.get(move)
            if edge is None:
                edge = edges[move] = _Edge(self._seat_count)
            edge.available += 1
        if untried is not None:
            return edges[untried], untried
        best = ucb1_choice(admitted, edges, acting, self.c * max(bounds[1] - bounds[0], 1e-9))
        return edges[best], best

    def _playout(self, game, state, rng, played):
        steps = 0
        sample = self.playout
        depth = playout_depth(game, self.depth)
        mast = self.mast_table if self.mast else None
        hinted = game.evaluation_hint is not None
        while state.phase != "over" and (depth is None or steps < depth):
            seat = flow.waiting(state)[0]
            moves = flow.legal_moves(game, state, seat)
            if not moves:  # a sampled world where a seat is stuck: judged where it stands
                break
            if len(moves) == 1:
                move = moves[0]
            elif mast is not None:
                move = self._mast_pick(moves, mast, rng)
            elif sample <= 1:
                move = moves[rng.randrange(len(moves))]
            else:  # the best immediate gain among a few moves drawn at random
                move, best = None, None
                for index in rng.sample(range(len(moves)), min(sample, len(moves))):
                    state.meter.charge(JUDGED)  # the copy and the score sheet, which the rules do not count
                    after = flow.preview(game, state, moves[index])
                    gain = score_sheet(game, after, seat).total + (evaluation.hint(game, after, seat) if hinted else 0)
                    if best is None or gain > best:
                        move, best = moves[index], gain
            if mast is not None:
                played.append(move)
            state = flow.apply_in_place(game, state, move)
            steps += 1
        return rewards(game, state, rng, self.reach, self.shapes, self.stranded, self.missing, self.hope)

    def _mast_pick(self, moves, mast, rng):
        """A move drawn with odds exp(mean reward / temperature), over at most MAST_SAMPLE moves drawn
        at random; a move never played counts as the best seen so far (optimism)."""
        if len(moves) > MAST_SAMPLE:
            moves = rng.sample(moves, MAST_SAMPLE)
        low, high = self._bounds
        scale = self.mast * max(high - low, 1e-9)
        means = []
        top = -math.inf
        for move in moves:
            stat = mast.get(move)
            mean = stat[1] / stat[0] if stat is not None else None
            means.append(mean)
            if mean is not None and mean > top:
                top = mean
        if top == -math.inf:
            return moves[rng.randrange(len(moves))]
        weights = [1.0 if mean is None else math.exp((mean - top) / scale) for mean in means]
        pick = rng.random() * sum(weights)
        for move, weight in zip(moves, weights):
            pick -= weight
            if pick <= 0:
                return move
        return moves[-1]

def _best(moves, visits_per_tree, seat):
    """The most visited move over every tree (the mean reward breaks ties, then the move order)."""
    visits, totals = {}, {}
    for tree in visits_per_tree:
        for move, (count, total) in tree.items():
            visits[move] = visits.get(move, 0) + count
            totals[move] = totals.get(move, 0.0) + total
    best, best_key = moves[0], None
    for index, move in enumerate(moves):
        count = visits.get(move, 0)
        if count == 0:
            continue
        key = (count, totals[move] / count, -index)
        if best_key is None or key > best_key:
            best, best_key = move, key
    return best


# ------------------------------------------------------------ information sets
def info_key(state, seat, private=frozenset()) -> tuple:
    """What `seat` can see of `state`, as a value: equal for states it cannot tell apart.

    The boards, the variables, the seat's own player variables and the
    others' but those in `private` (the pack's private variables, which it
    cannot see), the recorded points, the dice, the size of every deck and
    where the flow stands. Not the order of the decks (not even of the cards every player saw go into
    one, deck_order.py, which the sampled worlds keep: working it out at every node would cost more
    than the positions it tells apart are worth), nor the generator."""
    pending = tuple((s, p.moved, p.choice is not None and repr(p.choice[1])) for s, p in sorted(state.pending.items()))
    return (seat, state.phase, state.round, state.step, state.queue, pending,
            tuple(tuple(board) for board in state.kind), tuple(tuple(board) for board in state.owner),
            repr(state.attrs), repr(state.held), repr(state.tokens), repr(state.vars),
            repr([pv if s == seat else [(k, v) for k, v in sorted(pv.items()) if k not in private]
                  for s, pv in enumerate(state.pvars)]),
            repr(state.points), repr(state.dice), tuple(len(cards) for cards in state.decks.values()),
            tuple(state.finished))


# ------------------------------------------------------------ root parallelism
_FORKED = None  # (agent, game, state, seat, moves) of the decision the worker processes search


def _parallel_roots(game, state, seat, moves, seeds, agent):
    """The trees of one decision in `agent.jobs` forked processes; one after another where the
    system cannot fork (the trees, and so the move, are the same either way)."""
    import multiprocessing
    global _FORKED
    if "fork" not in multiprocessing.get_all_start_methods():
        return [agent._search(game, state, seat, moves, seed, index) for index, seed in enumerate(seeds)]
    from concurrent.futures import ProcessPoolExecutor
    _FORKED = (agent, game, state, seat, moves)
    try:
        context = multiprocessing.get_context("fork")
        with ProcessPoolExecutor(max_workers=min(agent.jobs, len(seeds)), mp_context=context) as pool:
            results = list(pool.map(_one_tree, range(len(seeds)), seeds))
    finally:
        _FORKED = None
    return [{moves[index]: value for index, value in result.items()} for result in results]


def _one_tree(index, seed):
    """One tree's root statistics, by the index of each move in the decision's list."""
    agent, game, state, seat, moves = _FORKED
    position = {move: i for i, move in enumerate(moves)}
    found = agent._search(game, state, seat, moves, seed, index)
    return {position[move]: value for move, value in found.items()}


# ------------------------------------------------------------ settings
def parse_settings(text: str) -> dict:
    """`2000`, `0.5s`, `work=4000000`, `depth=20`, `trees=4`... joined by `:` -> keyword arguments."""
    settings = {}
    integers = ("iterations", "work", "playout", "prior", "trees", "jobs", "reach", "missing")
    for part in [p.strip() for p in text.split(":") if p.strip()]:
        key, sep, value = part.partition("=")
        try:
            if not sep:
                if part.endswith("s"):
                    settings["seconds"], settings["iterations"], settings["work"] = float(part[:-1]), None, None
                else:
                    settings["iterations"], settings["work"] = int(part), None
            elif key in integers:
                settings[key] = int(value)
                if key in ("iterations", "work") and "seconds" not in settings:
                    settings.setdefault("iterations" if key == "work" else "work", None)
            elif key == "seconds":
                settings["seconds"], settings["iterations"], settings["work"] = float(value.rstrip("s")), None, None
            elif key == "depth":
                settings["depth"] = None if value == "end" else value if value == "auto" else int(value)
            elif key in ("c", "widen", "mast", "shapes", "stranded", "hope"):
                settings[key] = float(value)
            elif key == "tree" and value in ("open", "info"):
                settings[key] = value
            else:
                raise UsageError(f"strong has no setting `{key}`; settings: iterations, work, seconds, depth, "
                                 "playout, c, widen, prior, trees, jobs, reach, mast, shapes, stranded, "
                                 "missing, hope, tree (info or open)",
                                 code="E005")
        except ValueError:
            raise UsageError(f"strong setting `{part}` is not a number", code="E005") from None
    for key in integers:
        value = settings.get(key)
        low = 0 if key == "reach" else 1
        if value is not None and not low <= value <= MAX_SETTING:
            raise UsageError(f"strong {key} must be {low} to {MAX_SETTING}, not {value}", code="E005")
    seconds = settings.get("seconds")
    if seconds is not None and not (seconds > 0 and math.isfinite(seconds)):
        raise UsageError(f"strong seconds must be positive, not {seconds:g}", code="E005")
    if settings.get("depth") not in (None, "auto") and settings["depth"] < 0:
        raise UsageError("strong depth must be 0 (judge at once) or more", code="E005")
    for key in ("c", "widen", "mast", "shapes", "stranded", "hope"):
        if key in settings and not (settings[key] >= 0 and math.isfinite(settings[key])):
            raise UsageError(f"strong {key} must be a number, 0 or more, not {settings[key]:g}", code="E005")
    return settings
