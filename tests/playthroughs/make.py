"""Write the golden playthroughs: seeded games of every bundled pack, move by move.

    python tests/playthroughs/make.py              # every bundled pack
    python tests/playthroughs/make.py connect4     # some packs only
    python tests/playthroughs/make.py --suite      # the suite packs of tests/suite/ (suite-<pack>-<seed>.json)

For each pack and each seed in SEEDS, random agents play a whole game with
the fewest players the pack allows, and `<pack>-<seed>.json` (next to this
script) records: the pack, the seed, the players, the digest of the state
the game starts in, every move with its seat, the number of legal moves that
seat had and the digest of the state after it, and the final scores.
tests/test_playthroughs.py replays the moves and checks that the counts,
the digests and the scores are the same, so any change in the engine's
behaviour shows up there, at the first step where the game changed. After
an intended change, run this script again and review the diff of the files.

A digest (`state_digest`) is the first 16 hex digits of the SHA-256 of the
state's saved form (the `state` object of interpreter/records/serialize.py's
`state_to_json`) as canonical JSON: sorted keys, no spaces, ASCII. It covers
every field of the state (board, variables, decks, the random generator,
pending decisions, the log) and nothing of the process, so it is the same
under any PYTHONHASHSEED and on any machine; the pack's hash and the
engine's version are not in it.

TABLE_GAMES adds games at a fuller table, with options
(`<pack>-table<seed>.json`): vacant seats, variants and modes that the
fewest-players games never reach.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

from boardrule.dsl.extends import bundled_pack_names
from boardrule.dsl.pack import load_pack
from boardrule.interpreter.agents import make_agent
from boardrule.interpreter.runtime.flow import apply, initial_state, legal_moves, waiting
from boardrule.interpreter.compiler.game import compile_game
from boardrule.interpreter.runtime.moves import move_text
from boardrule.interpreter.runtime.outcome import outcome
from boardrule.interpreter.records.serialize import state_to_json
from boardrule.interpreter.runtime.values import PLAYERS

HERE = Path(__file__).resolve().parent
SUITE = HERE.parent / "suite"  # test packs that prove the language general (issue 19), found by path
SEEDS = (1, 2, 3)
SUITE_SEEDS = (1,)  # one game each: the suite's packs are many, and some are long
#: pack -> (seed, players, options) of the games at a fuller table
TABLE_GAMES = {
    "townies": [(4, 3, {"mode": "full"})],           # 3 players at 5 seats: markers pass through vacant seats
    "tinytowns": [(4, 3, {"variant": "town_hall"})],
    "villagers": [(4, 2, {"tiny_tears": True})],
}
MAX_MOVES = 5_000


def state_digest(game, state) -> str:
    """The first 16 hex digits of the SHA-256 of `state`'s saved form as canonical JSON."""
    text = json.dumps(state_to_json(game, state)["state"], sort_keys=True, separators=(",", ":"),
                      ensure_ascii=True, allow_nan=False)
    return hashlib.sha256(text.encode("ascii")).hexdigest()[:16]


def agent_seed(seed: int, index: int) -> int:
    """The seed of the random agent of the `index`-th player (0-based) in game `seed`."""
    return seed * 100 + index


def play(game, seed: int, pack: str | None = None, players: int | None = None, options: dict | None = None) -> dict:
    """One seeded game with random agents, as a playthrough record (`pack`: its bundled name)."""
    state = initial_state(game, players, seed, options or {})
    agents = {seat: make_agent("random", agent_seed(seed, i)) for i, seat in enumerate(state.players)}
    start = state_digest(game, state)
    steps = []
    while state.phase != "over":
        if len(steps) >= MAX_MOVES:
            raise RuntimeError(f"{game.id} seed {seed}: no end after {MAX_MOVES} moves")
        seat = waiting(state)[0]
        moves = legal_moves(game, state, seat)
        move = agents[seat](game, state, seat, moves)
        text = move_text(move, game)
        state = apply(game, state, move)
        steps.append([seat, len(moves), text, state_digest(game, state)])
    result = outcome(game, state)
    return {
        "pack": pack or game.id,  # the bundled name, for load_pack
        "pack_hash": game.pack_hash,  # for information: the test replays even if the pack changed
        "engine_version": game.engine_version,
        "seed": seed,
        "players": len(state.players),
        "options": options or {},
        "agents": f"random, seeded {seed} * 100 + player index",
        "start": start,  # the digest of the state before the first move
        "steps": steps,  # [seat, number of legal moves of that seat, the move played, digest after it]
        "scores": scores_of(state, result),
        "terms": terms_of(state, result),
        "winners": [repr(PLAYERS[s]) for s in result.winners],
    }


def plain_number(value):
    """A score as JSON holds it: a whole number, or the decimal text of a number with a fraction ("7.5")."""
    return value if isinstance(value, int) else str(value)


def scores_of(state, result) -> dict:
    return {repr(PLAYERS[s]): plain_number(result.sheets[s].total) for s in state.players}


def terms_of(state, result) -> dict:
    return {repr(PLAYERS[s]): {label: plain_number(points) for label, points in result.sheets[s].by_label().items()}
            for s in state.players}


def dumps(record: dict) -> str:
    """JSON with one step per line, so that a change shows as a readable diff."""
    lines = ["{"]
    items = list(record.items())
    for index, (key, value) in enumerate(items):
        comma = "," if index < len(items) - 1 else ""
        if key == "steps":
            lines.append(f'  "steps": [')
            for i, step in enumerate(value):
                lines.append("    " + json.dumps(step, ensure_ascii=False) + ("," if i < len(value) - 1 else ""))
            lines.append("  ]" + comma)
        else:
            lines.append(f"  {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def path_for(pack: str, seed: int) -> Path:
    return HERE / f"{pack}-{seed}.json"


def suite_packs() -> list:
    """The suite packs (tests/suite/*.pack), by name: a record names one as `suite/<name>`."""
    return sorted(p.stem for p in SUITE.glob("*.pack"))


def suite_pack_path(name: str) -> Path:
    return SUITE / f"{name}.pack"


def main_suite(names) -> int:
    for name in names or suite_packs():
        game = compile_game(load_pack(str(suite_pack_path(name))))
        for seed in SUITE_SEEDS:
            record = play(game, seed, f"suite/{name}")
            path = HERE / f"suite-{name}-{seed}.json"
            path.write_text(dumps(record), encoding="utf-8")
            print(f"{path.name}: {len(record['steps'])} moves, scores {record['scores']}")
    return 0


def main(argv) -> int:
    if argv[:1] == ["--suite"]:
        return main_suite(argv[1:])
    names = argv or bundled_pack_names()
    for name in names:
        game = compile_game(load_pack(name))
        for seed in SEEDS:
            record = play(game, seed, name)
            path = path_for(name, seed)
            path.write_text(dumps(record), encoding="utf-8")
            print(f"{path.name}: {len(record['steps'])} moves, scores {record['scores']}")
        for seed, players, options in TABLE_GAMES.get(name, ()):
            record = play(game, seed, name, players, options)
            path = HERE / f"{name}-table{seed}.json"
            path.write_text(dumps(record), encoding="utf-8")
            print(f"{path.name}: {len(record['steps'])} moves, scores {record['scores']}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
