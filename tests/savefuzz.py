"""Damaged saves through `boardrule replay --verify` and `boardrule play --resume`.

    >>> from savefuzz import campaign  # doctest: +SKIP
    >>> campaign(count=1000, seed=0)   # doctest: +SKIP
    {'saves': 1000, 'refused': ..., 'accepted': ..., 'internal errors': 0, ...}

Each corruption starts from a real save of a bundled game (a game log with
its snapshot), changes it the way disks, editors and strangers do (bytes
flipped or cut, JSON values replaced by others of any type, huge numbers,
seats beyond the table, moves swapped, fields dropped) and runs both commands
in-process. It counts:

* internal errors and tracebacks (an engine bug: must be 0);
* runs past the time limit (must be 0: the work budget ends every run);
* saves accepted with a state they do not honour: `replay --verify` said the
  save replays, yet replaying its moves from the start does not give the
  state the save holds (must be 0).

tests/test_hostile.py runs a short seeded campaign; tests/fuzz_nightly.py
`--saves N` a long one, printing these figures.
"""

from __future__ import annotations

import json
import random
import signal
import tempfile
from contextlib import contextmanager
from pathlib import Path

from click.testing import CliRunner

import boardrule.cli.commands  # noqa: F401  (registers the commands)
from boardrule.cli.main import cli
from boardrule.dsl.diagnostics import BoardruleError
from boardrule.interpreter.runtime import flow
from boardrule.interpreter.records import gamelog
from boardrule.interpreter.agents import make_agent
from boardrule.interpreter.api import new_game, open_game
from boardrule.interpreter.records.serialize import state_differences, state_from_json

PACKS = ("tictactoe", "connect4", "tinytowns", "townies", "villagers")
TIME_LIMIT = 60  # seconds one command may take before it counts as a hang
ODD_VALUES = (None, True, -1, 0, 12, 100, 2 ** 31, 2 ** 53, -(2 ** 53), 1.5, "", "P99", "x" * 300, [], {}, [[]],
              {"a": 1}, [0, "play A1"], "/etc/hostname", "../../secret.pack")


class Hang(Exception):
    pass


@contextmanager
def watchdog(seconds: int):
    def ring(signum, frame):
        raise Hang(f"still running after {seconds} s")
    previous = signal.signal(signal.SIGALRM, ring)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def sample_save(pack: str, seed: int, moves: int = 12) -> dict:
    """A game log with its snapshot: `moves` random moves of a game of `pack`."""
    game = open_game(pack)
    state = new_game(game, None, seed)
    agent = make_agent("random", seed)
    for _ in range(moves):
        if state.phase == "over":
            break
        seat = flow.waiting(state)[0]
        state = flow.apply(game, state, agent(game, state, seat, flow.legal_moves(game, state, seat)))
    return gamelog.record(game, state, len(state.players), seed, dict(state.options), snapshot=True)


def corrupt(data: dict, rng: random.Random) -> bytes:
    """The bytes of `data` saved, after 1 to 3 random corruptions."""
    for _ in range(rng.randint(1, 3)):
        kind = rng.choice(("value", "value", "drop", "seat", "move", "number"))
        if kind in ("value", "drop", "number"):
            _change_a_value(data, rng, kind)
        elif kind == "seat" and data.get("moves"):
            index = rng.randrange(len(data["moves"]))
            data["moves"][index][0] = rng.choice((-1, 5, 12, 63, 64, 10 ** 6))
        elif kind == "move" and data.get("moves"):
            index = rng.randrange(len(data["moves"]))
            data["moves"][index][1] = rng.choice(("", "done", "play Z99", "x / y / z", data["moves"][0][1]))
    text = json.dumps(data).encode()
    if rng.random() < 0.3:  # the bytes themselves: flipped, cut
        raw = bytearray(text)
        for _ in range(rng.randint(1, 4)):
            raw[rng.randrange(len(raw))] = rng.randrange(256)
        text = bytes(raw)
    if rng.random() < 0.1:
        text = text[: rng.randrange(len(text))]
    if rng.random() < 0.05:
        text = text.replace(b'"seed": ', b'"seed": ' + b"9" * 5000, 1)
    return text


def _containers(value, path=()):
    """Every (container, key) pair inside a JSON value, for changing one value."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield value, key
            yield from _containers(item)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield value, index
            yield from _containers(item)


def _change_a_value(data, rng, kind) -> None:
    places = list(_containers(data))
    if not places:
        return
    container, key = rng.choice(places)
    if kind == "drop" and isinstance(container, dict):
        del container[key]
    elif kind == "number":
        container[key] = rng.choice((0, -1, 1, 2 ** 31, 10 ** 20, -(10 ** 20)))
    else:
        container[key] = rng.choice(ODD_VALUES)


def probe(path: Path, pack: str) -> dict:
    """Run both commands on one damaged save: what each said."""
    found = {"internal": 0, "hang": 0, "accepted": 0, "dishonoured": 0}
    for args in (["replay", str(path), "--verify"], ["play", pack, "--resume", str(path), "--seats", "random"]):
        try:
            with watchdog(TIME_LIMIT):
                result = CliRunner().invoke(cli, args, input="")
        except Hang:
            found["hang"] += 1
            continue
        escaped = result.exception is not None and not isinstance(result.exception, SystemExit)
        if escaped or result.exit_code == 3 or "internal error" in result.output or "Traceback" in result.output:
            found["internal"] += 1
        elif args[0] == "replay" and result.exit_code == 0:
            found["accepted"] += 1
            found["dishonoured"] += not honours(path)
    return found


def honours(path: Path) -> bool:
    """True when the save's own moves, replayed from the start, give the state it holds."""
    data = json.loads(path.read_text())
    game = open_game(data["pack"])
    state = flow.initial_state(game, data["players"], data["seed"], data["options"])
    try:
        for seat, text in data["moves"]:
            state = flow.play_text(game, state, seat, text)
    except BoardruleError:
        return False
    if "state" not in data:
        return True
    if data.get("pending"):  # a choice half answered: replay answers it as gamelog does
        state = gamelog.replay(game, data)
    return not state_differences(state, state_from_json(game, data["state"]), limit=1)


def campaign(count: int, seed: int = 0) -> dict:
    """`count` damaged saves through both commands: the figures of docs/safety.md."""
    rng = random.Random(seed)
    bases = [(pack, sample_save(pack, s)) for pack in PACKS for s in (1, 2)]
    totals = {"saves": count, "refused": 0, "accepted": 0, "internal errors": 0, "past the time limit": 0,
              "accepted but not honoured": 0}
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "damaged.json"
        for _ in range(count):
            pack, base = rng.choice(bases)
            path.write_bytes(corrupt(json.loads(json.dumps(base)), rng))
            found = probe(path, pack)
            totals["internal errors"] += found["internal"]
            totals["past the time limit"] += found["hang"]
            totals["accepted"] += found["accepted"]
            totals["refused"] += 1 - found["accepted"]
            totals["accepted but not honoured"] += found["dishonoured"]
    return totals
