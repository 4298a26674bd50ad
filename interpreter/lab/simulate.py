"""Simulation: many seeded games of a pack between agents, as plain records.

A `Plan` says what to play: the pack, how many games, the root seed, the
agents (the lineup), the number of players, the options and whether chance is
duplicated. Everything about game number g is derived from (root seed, g)
alone, so a game plays the same whichever batch, process or machine plays it:

- **Seating.** The lineup rotates around the table: in game g the player at
  position i (the i-th occupied seat) is `lineup[(i + g) % len(lineup)]`, so
  every agent sits at every position equally often (with one agent, it plays
  every seat; alone at the table, the agents take turns).
- **Chance.** The game's random generator (`State.rng`: dice, shuffles, the
  seating of a pack with more seats than players) is seeded with
  `derive(seed, CHANCE, deal)`. Independent games have one deal each
  (deal = g). In duplicate mode the games of one deal are the rotations of
  the lineup (deal = g // len(lineup)): every agent meets the same dice and
  decks at every position.
- **Agents** have their own generators, seeded with
  `derive(seed, AGENT, g, position)`: an agent's choices never draw from the
  game's generator, so they do not move the dice of the game.

Duplicate mode replays the same chance outcomes exactly as long as the moves
do not change how chance is used. The game's generator is one stream, used in
the order the rules roll and shuffle: a deck shuffled at setup deals the same
cards in the same order (which player gets which card may depend on the
moves), and dice rolled by `do` steps at fixed points of the flow come out
the same. Once the moves change the number or the order of the draws (an
action that rolls, a game that lasts a round longer), the rest of the stream
is shifted and the two games no longer share their luck from there on; they
still share everything before.

`run_batch` plays the games [start, stop) of a plan and returns one record per
game (see `play_game`); `interpreter/lab/backends.py` runs batches in processes
or on a Dask cluster and `interpreter/lab/simreport.py` turns records into a
report.
"""

from __future__ import annotations

import threading
from pathlib import Path

import attrs

from boardrule.dsl.diagnostics import UsageError
from boardrule.interpreter.runtime import flow
from boardrule.interpreter.agents import make_agent, play_out
from boardrule.interpreter.runtime.outcome import outcome
from boardrule.interpreter.runtime.values import RuleError

MAX_GAMES = 1_000_000
CHANCE, AGENT = 1, 2  # purposes of derived seeds
_MASK = (1 << 64) - 1


# ------------------------------------------------------------------ seeds
def _mix(value: int) -> int:
    """SplitMix64's finaliser: a well-spread 64-bit value from any 64-bit value."""
    value = (value + 0x9E3779B97F4A7C15) & _MASK
    value = ((value ^ (value >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    value = ((value ^ (value >> 27)) * 0x94D049BB133111EB) & _MASK
    return value ^ (value >> 31)


def derive(*parts: int) -> int:
    """A 64-bit seed from integers (root seed, purpose, indices), the same on every machine."""
    value = 0
    for part in parts:
        value = _mix(value ^ (int(part) & _MASK))
    return value


# ------------------------------------------------------------------ plan
@attrs.frozen
class Plan:
    spec: str  # a bundled pack name or an absolute path
    pack_hash: str
    games: int
    seed: int
    lineup: tuple  # agent names as written (`greedy`, `mcts:50`...)
    players: int
    options: tuple = ()  # (name, value) pairs as given
    duplicate: bool = False

    @property
    def rotations(self) -> int:
        return len(self.lineup)

    def deal(self, game: int) -> int:
        return game // self.rotations if self.duplicate else game

    def deals(self) -> int:
        return -(-self.games // self.rotations) if self.duplicate else self.games

    def chance_seed(self, game: int) -> int:
        return derive(self.seed, CHANCE, self.deal(game))

    def agent_seed(self, game: int, position: int) -> int:
        return derive(self.seed, AGENT, game, position)

    def seating(self, game: int) -> list:
        """The agent at each position (occupied seat, in seat order) in game `game`."""
        k = len(self.lineup)
        return [self.lineup[(position + game) % k] for position in range(self.players)]


def make_plan(game, spec, games: int, seed: int, lineup, players: int | None = None, options: dict | None = None,
              duplicate: bool = False) -> Plan:
    """A checked plan: the agents exist, the options fit, the player count is allowed."""
    if not isinstance(games, int) or games < 1:
        raise UsageError(f"the number of games must be at least 1, not {games}", code="E001")
    if games > MAX_GAMES:
        raise UsageError(f"at most {MAX_GAMES} games per run, not {games}", code="E001")
    lineup = tuple(name.strip() for name in lineup)
    if not lineup or any(not name for name in lineup):
        raise UsageError("name at least one agent, e.g. `random` or `greedy,random`", code="E005")
    for name in dict.fromkeys(lineup):
        make_agent(name)  # an unknown agent or a bad setting is a usage error now, not in a worker
    low, high = game.players_range
    if players is None:
        players = min(max(len(lineup), low), high)
    if not low <= players <= high:
        raise UsageError(f"{game.name} is for {low}-{high} players, not {players}", code="E002")
    options = dict(options or {})
    flow.resolve_options(game, options)  # E003/E004 now
    return Plan(spec=pack_spec(spec), pack_hash=game.pack_hash, games=games, seed=int(seed), lineup=lineup,
                players=players, options=tuple(options.items()), duplicate=bool(duplicate))


def pack_spec(spec) -> str:
    """What a worker opens: a bundled name as it is, a path made absolute."""
    text = str(spec)
    path = Path(text)
    if path.suffix or "/" in text or "\\" in text:
        return str(path.resolve())
    return text


# ------------------------------------------------------------------ playing
_GAMES: dict = {}
_LOCK = threading.Lock()  # a worker with threads plays one batch at a time (games share caches)


def open_plan_game(plan: Plan):
    """The compiled pack of a plan, opened once per process and checked against the plan's hash."""
    from boardrule.interpreter.api import open_game
    key = (plan.spec, plan.pack_hash)
    game = _GAMES.get(key)
    if game is None:
        game = open_game(plan.spec)
        if game.pack_hash != plan.pack_hash:
            raise UsageError(f"the pack {plan.spec} seen here (hash {game.pack_hash}) is not the one the run "
                             f"was planned with (hash {plan.pack_hash}); every worker needs the same pack file",
                             code="E001")
        _GAMES[key] = game
    return game


def run_batch(task) -> list:
    """Play games [start, stop) of a plan: a list of records, in game order.

    `task` is (plan, start, stop). A rule of the pack that fails is returned
    as an error record (`{"error": message, "span": span, "game": g}`), so that
    it crosses process boundaries intact.
    """
    plan, start, stop = task
    with _LOCK:
        game = open_plan_game(plan)
        records = []
        for index in range(start, stop):
            try:
                records.append(play_game(game, plan, index))
            except RuleError as err:
                records.append({"error": str(err), "span": err.span, "game": index})
                break
            except RecursionError:
                records.append({"error": "the rules nest too deeply to evaluate (definitions calling "
                                "definitions?)", "span": None, "game": index})
                break
        return records


def play_game(game, plan: Plan, index: int) -> dict:
    """One game of a plan, as a record of plain data (lists, dicts, strings, numbers).

    `seats` lists the occupied seats in order: seat number, position, agent,
    total, terms (label, points) in score-sheet order, place (1 = first,
    shared places share the number), result (`win`, `shared`, `loss`; None
    alone at the table) and verdict.
    """
    seed = plan.chance_seed(index)
    state = flow.initial_state(game, plan.players, seed, dict(plan.options))
    seating = plan.seating(index)
    agents = {seat: make_agent(seating[position], plan.agent_seed(index, position))
              for position, seat in enumerate(state.players)}
    state = play_out(game, state, agents)
    result = outcome(game, state)
    moves, first = 0, None
    used = {seat: {} for seat in state.players}  # seat -> action -> how many times it was taken
    for entry in state.log:
        if entry[0] == "move":
            moves += 1
            if first is None:
                first = entry[1]
            action = entry[2].split(" ", 1)[0]
            mine = used.setdefault(entry[1], {})
            mine[action] = mine.get(action, 0) + 1
    solo = len(state.players) == 1
    seats = []
    for position, seat in enumerate(state.players):
        key = result.keys[seat]
        place = 1 + sum(1 for other in state.players if result.keys[other] > key)
        if solo:
            verdict_result = None
        elif seat in result.winners:
            verdict_result = "win" if len(result.winners) == 1 else "shared"
        else:
            verdict_result = "loss"
        sheet = result.sheets[seat]
        seats.append({"seat": seat, "position": position, "agent": seating[position], "score": sheet.total,
                      "terms": list(sheet.by_label().items()), "place": place, "result": verdict_result,
                      "verdict": result.verdicts.get(seat), "actions": sorted(used[seat].items())})
    return {"game": index, "deal": plan.deal(index), "rotation": index % plan.rotations, "seed": seed,
            "moves": moves, "rounds": state.round, "first": first if first is not None else state.players[0],
            "winners": len(result.winners), "seats": seats}


def batches(games: int, size: int) -> list:
    """[(start, stop)...] covering range(games) in order."""
    size = max(1, int(size))
    return [(start, min(start + size, games)) for start in range(0, games, size)]
