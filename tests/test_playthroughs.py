"""Golden playthroughs: stored seeded games replayed move by move.

Each tests/playthroughs/<pack>-<seed>.json (written by
tests/playthroughs/make.py) holds a whole game: the digest of the state it
starts in, every move with the seat that made it, how many legal moves that
seat had and the digest of the state after it, and the final scores.
Replaying it must give exactly the same counts, digests and scores: when the
engine (or a pack) changes behaviour, this fails at the first step where the
game changed, naming it. If the change is intended, run
`python tests/playthroughs/make.py PACK` and review the diff.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from boardrule.dsl.diagnostics import BoardruleError
from boardrule.dsl.extends import bundled_pack_names
from boardrule.dsl.pack import load_pack
from boardrule.interpreter.runtime.flow import apply, initial_state, legal_moves, parse_move, waiting
from boardrule.interpreter.compiler.game import compile_game
from boardrule.interpreter.runtime.outcome import outcome
from boardrule.interpreter.runtime.values import PLAYERS

FOLDER = Path(__file__).resolve().parent / "playthroughs"
FILES = sorted(FOLDER.glob("*.json"))
REMAKE = "python tests/playthroughs/make.py"
_GAMES = {}
_spec = importlib.util.spec_from_file_location("playthroughs_make", FOLDER / "make.py")
make = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(make)


def game_of(pack):
    """A bundled pack by name, or a suite pack as `suite/<name>` (tests/suite/<name>.pack)."""
    if pack not in _GAMES:
        spec = str(make.suite_pack_path(pack.split("/", 1)[1])) if pack.startswith("suite/") else pack
        _GAMES[pack] = compile_game(load_pack(spec))
    return _GAMES[pack]


def remake_command(pack):
    return f"{REMAKE} --suite {pack.split('/', 1)[1]}" if pack.startswith("suite/") else f"{REMAKE} {pack}"


@pytest.mark.parametrize("pack", make.suite_packs())
def test_every_suite_pack_has_a_playthrough(pack):
    assert (FOLDER / f"suite-{pack}-1.json").exists(), \
        f"the suite pack `{pack}` has no stored playthrough; run `{REMAKE} --suite {pack}` and commit it"


@pytest.mark.parametrize("pack", bundled_pack_names())
def test_every_bundled_pack_has_a_playthrough(pack):
    stored = [p.name for p in FILES if p.name.rsplit("-", 1)[0] == pack]
    assert stored, (f"the bundled pack `{pack}` has no stored playthrough in {FOLDER}; "
                    f"run `{REMAKE} {pack}` and commit the files it writes")


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_playthrough_replays_the_same(path):
    record = json.loads(path.read_text(encoding="utf-8"))
    for key in ("pack", "seed", "players", "start", "steps", "scores"):
        assert key in record, f"{path.name} has no `{key}`; remake it with `{REMAKE}`"
    pack = record["pack"]
    known = bundled_pack_names() + [f"suite/{name}" for name in make.suite_packs()]
    assert pack in known, f"{path.name} is for `{pack}`, which is not a bundled or suite pack (any more)"
    game = game_of(pack)
    state = initial_state(game, record["players"], record["seed"], record.get("options") or {})
    changed = (f"\nthe engine or the pack `{pack}` behaves differently; if that is intended, "
               f"run `{remake_command(pack)}` and review the diff")
    digest = make.state_digest(game, state)
    assert digest == record["start"], \
        f"{path.name}, before the first move: the state differs (digest {digest}, the playthrough has {record['start']}){changed}"
    for index, step in enumerate(record["steps"]):
        assert len(step) == 4, f"{path.name}, step {index + 1}: expected [seat, count, move, digest]; remake it"
        seat, count, text, after = step
        where = f"{path.name}, step {index + 1} of {len(record['steps'])} ({PLAYERS[seat]!r} `{text}`)"
        assert state.phase != "over", f"{where}: the game is already over{changed}"
        assert waiting(state) and waiting(state)[0] == seat, \
            f"{where}: the game waits for {[PLAYERS[s] for s in waiting(state)]}{changed}"
        moves = legal_moves(game, state, seat)
        assert len(moves) == count, f"{where}: {len(moves)} legal moves, the playthrough has {count}{changed}"
        try:
            move = parse_move(game, state, seat, text)
        except BoardruleError as err:
            pytest.fail(f"{where}: the move is not legal any more: {err.diagnostic.message}{changed}")
        state = apply(game, state, move)
        digest = make.state_digest(game, state)
        assert digest == after, (f"{where}: the first step where the game changed: the state after it differs "
                                 f"(digest {digest}, the playthrough has {after}){changed}")
    assert state.phase == "over", f"{path.name}: the game is not over after its {len(record['steps'])} moves{changed}"
    result = outcome(game, state)
    scores = make.scores_of(state, result)
    assert scores == record["scores"], \
        f"{path.name}: final scores {scores}, the playthrough has {record['scores']}{changed}"
    if "terms" in record:
        terms = make.terms_of(state, result)
        assert terms == record["terms"], \
            f"{path.name}: score terms {terms}, the playthrough has {record['terms']}{changed}"
    if "winners" in record:
        winners = [repr(PLAYERS[s]) for s in result.winners]
        assert winners == record["winners"], \
            f"{path.name}: winners {winners}, the playthrough has {record['winners']}{changed}"
