"""Agents: who picks a move when no human does.

An agent is a callable `choose(game, state, seat, moves) -> Move`, made by
`make_agent(name, seed)`. `random` picks uniformly; `greedy` picks the move
with the best immediate gain in its own score, ties broken by its seeded
generator; `mcts` searches (interpreter/agents/montecarlo.py). An agent whose
class sets `picks_from_moves = True` promises to return one of `moves`;
`play_out` then makes its moves without judging them again.
"""

from __future__ import annotations

import random

from boardrule.dsl.diagnostics import BoardruleError, UsageError, did_you_mean
from boardrule.interpreter.agents import evaluation
from boardrule.interpreter.runtime import flow
from boardrule.interpreter.runtime.values import RuleError


class RandomAgent:
    name = "random"
    picks_from_moves = True  # returns one of the moves it is given (play_out trusts it)

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def __call__(self, game, state, seat, moves):
        return moves[self.rng.randrange(len(moves))]


#: greedy looks two decisions ahead from at most this many moves (the best by their immediate gain)
GREEDY_CANDIDATES = 16


class GreedyAgent:
    """The move after which the position is judged best, in a world sampled from what I may see:
    every move by my score right after it, then the best `GREEDY_CANDIDATES` of them (equals in
    random order) by evaluation.judge_move (my score as if the game ended now, plus the best I
    can add with my next two decisions in a row); a random one among equals."""

    name = "greedy"
    picks_from_moves = True  # returns one of the moves it is given (play_out trusts it)

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def __call__(self, game, state, seat, moves):
        if len(moves) == 1:
            return moves[0]
        from boardrule.interpreter.agents.montecarlo import _known_moves, determinize
        world = determinize(game, flow.search_copy(state), seat, self.rng)  # its work is the agent's
        known = _known_moves(state, seat)
        if known is not None:
            world.moves_cache.update(known)
        candidates = moves
        if len(moves) > GREEDY_CANDIDATES:
            keyed = sorted(((-_gain_after(game, world, move), self.rng.random(), index)
                            for index, move in enumerate(moves)))
            candidates = [moves[index] for _, _, index in keyed[:GREEDY_CANDIDATES]]
        best, best_value = [], None
        for move in candidates:
            value = _value_after(game, world, move, self.rng)
            if best_value is None or value > best_value:
                best, best_value = [move], value
            elif value == best_value:
                best.append(move)
        return best[self.rng.randrange(len(best))]


def _gain_after(game, world, move):
    """My score right after the move's own effect (the next decision is not opened)."""
    try:
        return evaluation.score_now(game, flow.preview(game, world, move), move.seat)
    except RuleError:
        return float("-inf")


def _value_after(game, world, move, rng):
    try:
        return evaluation.judge_move(game, world, move.seat, move, rng)
    except RuleError:
        return float("-inf")


AGENTS = {"random": RandomAgent, "greedy": GreedyAgent, "mcts": None, "strong": None}  # montecarlo.py, ismcts.py


def make_agent(name: str, seed: int = 0):
    """An agent by name: `random`, `greedy` or `mcts` (settings after colons: `mcts:50`)."""
    base, _, settings = name.partition(":")
    if base not in AGENTS:
        raise UsageError(f"unknown agent `{name}`; agents are: {', '.join(sorted(AGENTS))}", code="E005",
                         hint=did_you_mean(base, AGENTS))
    if base == "mcts":
        from boardrule.interpreter.agents.montecarlo import MonteCarloAgent, parse_settings
        return MonteCarloAgent(seed, **parse_settings(settings))
    if base == "strong":
        from boardrule.interpreter.agents.ismcts import SearchAgent, parse_settings as parse_strong
        return SearchAgent(seed, **parse_strong(settings))
    if settings:
        raise UsageError(f"agent `{base}` takes no settings (`{name}`)", code="E005")
    return AGENTS[base](seed)


def position_seed(seed: int, seat: int, state) -> int:
    """The seed of one decision of a bot: from the game's seed, the bot's seat and how far the game is.

    A bot seeded afresh by `decide` answers the same position the same way, however it was
    reached: after an undo, the same move gets the same reply."""
    return (seed * 1_000_003 + seat * 7_919 + len(state.log) * 104_729 + state.steps_run) % (1 << 62)


def decide(agent, game, state, seat, moves, seed: int):
    """The move `agent` makes in `state` for `seat`, its generator seeded for this position first
    (`position_seed`); an agent without a generator of its own (`rng`) is asked as it is."""
    if isinstance(getattr(agent, "rng", None), random.Random):
        agent.rng = random.Random(position_seed(seed, seat, state))
    return agent(game, state, seat, moves)


HINT_AGENT = "strong"  # the strongest agent, at its default budget (about 1 s a decision here)


def hint(game, state, seat, seed: int = 0):
    """The move the hint agent (`HINT_AGENT`) would make for `seat`, judged on what `seat` may see
    (views.view: nothing secret goes into the hint), or None when it has none to give."""
    from boardrule.interpreter.runtime.values import RuleError
    from boardrule.interpreter.runtime.views import view
    seen = view(game, state, seat)
    try:
        moves = flow.legal_moves(game, seen, seat)
        if not moves:
            return None
        return decide(make_agent(HINT_AGENT), game, seen, seat, moves, seed)
    except (RuleError, BoardruleError, ValueError, TypeError, KeyError, IndexError):
        return None  # a rule that needs what this player cannot see: no hint rather than a leak


def play_out(game, state, agents: dict):
    """Play until the game is over, each waiting seat moved by its agent.

    `agents` maps seat -> agent. Returns the final state; `state` itself is
    left as it was: the moves are made on one copy of it, in place
    (flow.apply_in_place). The moves of an agent that does not declare
    `picks_from_moves` (one of the moves it is given, as the agents here do)
    are judged as typed ones are (`flow.apply`: IllegalMoveError if one is
    not legal).
    """
    listing = {seat: getattr(agent, "picks_from_moves", False) for seat, agent in agents.items()}
    state = state.clone()
    while state.phase != "over":
        seat = flow.waiting(state)[0]
        moves = flow.legal_moves(game, state, seat)
        move = agents[seat](game, state, seat, moves)
        if listing[seat]:
            state = flow.apply_in_place(game, state, move)
        else:
            state = flow.apply(game, state, move)
    return state
