"""Self-play: seeded games of every bundled pack, with invariants checked at every step.

At each step of each game:

* legal_moves is deterministic, sorted, without duplicates, and every
  move's text parses back to that very move;
* a seat that is not waiting has no moves, and illegal moves (another
  seat's move, an unknown action, a move with a wrong value, garbage text)
  raise IllegalMoveError and leave the state untouched;
* `apply` never changes the state it is given;
* the state survives the JSON round trip exactly and the loaded copy has
  the same legal moves;

and every game ends within a bound, and replaying its recorded log gives
the same final state and score sheets. Each pack plays a fixed set of seeded
games (`GAMES`), the same on every machine however fast; longer runs print
their figures:

    python tests/test_selfplay.py --random 200 --greedy 50 [PACK...]

The same seed gives the same game in fresh interpreters with different
PYTHONHASHSEEDs. An inline pack with dice, a deck,
optional choices, simultaneous decisions and empty seats runs through the
same checks, so the save format is exercised on every kind of field.

The last part tests the save files themselves: atomic writes, damaged,
truncated, foreign and newer files, and mangled fields.
"""

from __future__ import annotations

import argparse
import copy
import functools
import json
import os
import random
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from boardrule.dsl.diagnostics import IllegalMoveError, SaveError
from boardrule.dsl.extends import bundled_pack_names
from boardrule.dsl.pack import load_pack, load_pack_text
from boardrule.interpreter.records import gamelog
from boardrule.interpreter.agents import make_agent
from boardrule.interpreter.runtime.flow import apply, initial_state, legal_moves, parse_move, waiting
from boardrule.interpreter.compiler.game import compile_game
from boardrule.interpreter.runtime.moves import DONE, Move, move_text, normalise_text
from boardrule.interpreter.runtime.scoring import score_sheet
from boardrule.interpreter.records.serialize import state_differences, state_from_json, state_to_json, states_equal

RANDOM_SEED, GREEDY_SEED = 0, 1000  # random games use seeds 0, 1, ...; greedy ones 1000, 1001, ...
#: pack -> (random games, greedy games) in the suite. A game's player count cycles with its seed
#: (`player_counts`), so the three big packs play each of 1-4 players twice at random and once
#: greedy; the small ones (about 0.03 s a game) play more.
GAMES = {"tinytowns": (8, 4), "townies": (8, 4), "villagers": (8, 4)}
SMALL_PACK_GAMES = (30, 10)
MAX_MOVES = 5_000  # per game; a pack that needs more is broken (or needs a bigger bound here)
PARSE_SAMPLE = 1  # moves per step whose text is parsed back (all texts are checked for uniqueness)
REFUSALS_PER_STEP = 2  # kinds of illegal move tried per step (every kind comes up within a game or two)

CHANCE_PACK = """\
game:
  id: chance-probe
  players: 2..3
  seats: 4
board:
  grid: square 3 x 3
  shared: true
pieces:
  x: {symbol: X}
  o: {symbol: O}
dice:
  d6: [1, 2, 3, 4, 5, 6]
decks:
  cards: {1: 2, 2: 2, 3: 1}
vars:
  last: none
  drawn: none
player_vars:
  mark: {per_seat: [x, o, x, o]}
  gained: 0
actions:
  play:
    params:
      cell: cells where empty
    effect: |
      roll d6
      place me.mark at cell
      set last = me
      choose optional c from cells where empty and it != cell {
        score 1 as "bonus"
      }
  pick:
    params:
      n: 1..2
    effect: |
      draw card from cards { gained += n; set drawn = card; put card under cards }
flow:
  setup:
    - do: shuffle cards
  round:
    - turns: [play]
    - together: [pick]
  end: none(cells, empty) or round > 3
scoring:
  gains: me.gained
"""

PACKS = bundled_pack_names()
#: language packs of tests/packs/ played here too: records in decks, moves, piece state and saves
LANGUAGE_PACKS = [str(Path(__file__).parent / "packs" / "bazaar.pack")]
ALL = PACKS + ["<chance-probe>"] + LANGUAGE_PACKS


def seeds(name, agent, games=None):
    """The seeds of `name`'s games with `agent`: the suite's fixed set unless `games` is given."""
    random_games, greedy_games = GAMES.get(name, SMALL_PACK_GAMES)
    if agent == "random":
        return range(RANDOM_SEED, RANDOM_SEED + (random_games if games is None else games))
    return range(GREEDY_SEED, GREEDY_SEED + (greedy_games if games is None else games))


@functools.lru_cache(maxsize=None)
def game_of(name):
    if name == "<chance-probe>":
        return compile_game(load_pack_text(CHANCE_PACK, "chance-probe.pack"))
    return compile_game(load_pack(name))


def dump(game, state) -> str:
    return json.dumps(state_to_json(game, state), sort_keys=True)


def player_counts(game) -> list:
    low, high = game.players_range
    return list(range(low, min(high, low + 3) + 1))


# ------------------------------------------------------------- invariants
def check_moves(game, state, seat) -> list:
    moves = legal_moves(game, state, seat)
    assert moves, f"P{seat + 1} waits but has no legal move"
    assert len(set(moves)) == len(moves), "legal_moves has duplicates"
    assert all(m.seat == seat for m in moves)
    pending = state.pending[seat]
    if pending.choice is None:
        plain = [m for m in moves if m.action != DONE]
        order = [game.action_index[m.action] for m in plain]
        assert order == sorted(order), "legal_moves does not follow the pack's order of actions"
        assert moves == legal_moves(game, state, seat), "legal_moves is not the same every time"
        assert all(m.action != DONE for m in moves[:-1]), "`done` is not the last move"
    else:
        asked = pending.choice[0]
        assert all((m.action, m.args, m.answers[:-1]) == (asked.action, asked.args, asked.answers)
                   for m in moves), "a choice offers moves of another action"
    texts = [normalise_text(move_text(m, game)) for m in moves]
    assert len(set(texts)) == len(texts), f"two legal moves print the same: {sorted(texts)}"
    return moves


def check_parse_back(game, state, seat, moves, probe):
    for move in probe.sample(moves, min(PARSE_SAMPLE, len(moves))):
        text = move_text(move, game)
        typed = text if probe.random() < 0.5 else "  " + text.upper().replace(" ", "  ") + " "
        assert parse_move(game, state, seat, typed) == move, f"`{typed}` parses to another move"


REFUSALS = ("another seat's move", "another seat's text", "unknown action", "extra value", "extra answer",
            "garbage", "trailing garbage", "empty text")


def check_illegal(game, state, seat, moves, probe):
    """A few kinds of illegal move per step (all kinds over a game); none may change the state."""
    move = probe.choice(moves)
    others = [s for s in range(state.seats) if s not in state.pending]
    kinds = [k for k in REFUSALS if others or not k.startswith("another seat")]
    for kind in probe.sample(kinds, REFUSALS_PER_STEP):
        other = probe.choice(others) if others else None
        attempt = {
            "another seat's move": lambda: apply(game, state, Move(other, move.action, move.args, move.answers)),
            "another seat's text": lambda: parse_move(game, state, other, move_text(move, game)),
            "unknown action": lambda: apply(game, state, Move(seat, "no-such-action")),
            "extra value": lambda: apply(game, state, Move(seat, move.action, move.args + (0,), move.answers)),
            "extra answer": lambda: apply(game, state, Move(seat, move.action, move.args,
                                                            move.answers + ("no-such-answer",))),
            "garbage": lambda: parse_move(game, state, seat, "qwerty " + str(probe.randrange(1000))),
            "trailing garbage": lambda: parse_move(game, state, seat, move_text(move, game) + " Z99"),
            "empty text": lambda: parse_move(game, state, seat, ""),
        }[kind]
        with pytest.raises(IllegalMoveError):
            attempt()
    for other in others:
        assert legal_moves(game, state, other) == []


def check_state(game, state, probe):
    """Every per-step invariant; returns the state's JSON text and the legal moves of the waiting seats."""
    text = dump(game, state)
    loaded = state_from_json(game, json.loads(text))
    assert states_equal(state, loaded), state_differences(state, loaded)
    assert dump(game, loaded) == text
    legal = {}
    if state.phase == "over":
        assert waiting(state) == []
        assert all(legal_moves(game, state, s) == [] for s in range(state.seats))
        return text, legal
    assert waiting(state), "the game is not over but nobody is waiting"
    for seat in waiting(state):
        moves = legal[seat] = check_moves(game, state, seat)
        assert legal_moves(game, loaded, seat) == moves, "the loaded state (or a second call) gives other moves"
        check_parse_back(game, state, seat, moves, probe)
        check_illegal(game, state, seat, moves, probe)
    assert dump(game, state) == text, "listing, parsing or refusing moves changed the state"
    return text, legal


def check_log(game, state, players, seed):
    log = json.loads(json.dumps(gamelog.record(game, state, players, seed, None)))
    replayed = gamelog.replay(game, log)
    assert states_equal(state, replayed), state_differences(state, replayed)
    return replayed


def play_checked(name, agent, seed):
    game = game_of(name)
    counts = player_counts(game)
    players = counts[seed % len(counts)]
    state = initial_state(game, players, seed)
    agents = {seat: make_agent(agent, seed * 100 + i) for i, seat in enumerate(state.players)}
    probe = random.Random(seed)
    mid_game = probe.randrange(1, 30) if seed % 10 == 0 else None  # a log recorded mid-game replays too
    made = 0
    while True:
        before, legal = check_state(game, state, probe)
        if state.phase == "over":
            break
        assert made < MAX_MOVES, f"the game did not end within {MAX_MOVES} moves"
        if made == mid_game:
            check_log(game, state, players, seed)
        seat = waiting(state)[0]
        move = agents[seat](game, state, seat, legal[seat])
        after = apply(game, state, move)
        assert dump(game, state) == before, f"apply({move_text(move, game)}) changed the state it was given"
        state = after
        made += 1
    replayed = check_log(game, state, players, seed)
    for seat in state.players:
        assert score_sheet(game, replayed, seat) == score_sheet(game, state, seat)
    return state, made


def play_many(name, agent, seeds) -> int:
    """Every game of `seeds`, checked; the number of moves made."""
    moves = 0
    for seed in seeds:
        try:
            moves += play_checked(name, agent, seed)[1]
        except Exception as err:
            raise AssertionError(f"{name}, {agent} agents, seed {seed}: {type(err).__name__}: {err}") from err
    return moves


@pytest.mark.parametrize("name", ALL)
def test_random_selfplay(name):
    assert play_many(name, "random", seeds(name, "random")) > 0


@pytest.mark.parametrize("name", ALL)
def test_greedy_selfplay(name):
    assert play_many(name, "greedy", seeds(name, "greedy")) > 0


def test_the_big_packs_play_every_player_count_with_each_agent():
    for name in GAMES:
        counts = player_counts(game_of(name))
        for agent in ("random", "greedy"):
            played = {counts[seed % len(counts)] for seed in seeds(name, agent)}
            assert played == set(counts), (name, agent, played)


def test_the_chance_probe_exercises_every_kind_of_field():
    """The inline pack really reaches choices, dice, draws, empty seats and Player values."""
    game = game_of("<chance-probe>")
    state = initial_state(game, 3, 5)
    agents = {seat: make_agent("random", seat) for seat in state.players}
    seen = set()
    while state.phase != "over":
        seat = waiting(state)[0]
        if state.pending[seat].choice is not None:
            seen.add("choice")
            assert states_equal(state, state_from_json(game, json.loads(dump(game, state))))
        if len(waiting(state)) > 1:
            seen.add("together")
        state = apply(game, state, agents[seat](game, state, seat, legal_moves(game, state, seat)))
    kinds = {entry[0] for entry in state.log}
    assert {"seats", "shuffle", "roll", "draw", "move"} <= kinds
    assert seen == {"choice", "together"}
    assert type(state.vars["last"]).__name__ == "Player"
    assert type(state_from_json(game, json.loads(dump(game, state))).vars["last"]).__name__ == "Player"


# --------------------------------------------------- same seed, same game
SCRIPT = textwrap.dedent("""
    import json, sys
    from boardrule.dsl.extends import bundled_pack_names
    from boardrule.dsl.pack import load_pack, load_pack_text
    from boardrule.interpreter.agents import make_agent, play_out
    from boardrule.interpreter.runtime.flow import initial_state
    from boardrule.interpreter.compiler.game import compile_game
    from boardrule.interpreter.records.gamelog import record
    games = [compile_game(load_pack(name)) for name in bundled_pack_names()]
    games.append(compile_game(load_pack_text(sys.argv[1], "chance-probe.pack")))
    for game in games:
        seed = 7
        state = initial_state(game, game.players_range[1] if game.players_range[1] <= 4 else None, seed)
        agents = {s: make_agent("random", seed * 10 + i) for i, s in enumerate(state.players)}
        state = play_out(game, state, agents)
        print(json.dumps(record(game, state, None, seed, None), sort_keys=True))
""")


def test_same_seed_same_game_across_hash_seeds():
    runs = [subprocess.Popen([sys.executable, "-c", SCRIPT, CHANCE_PACK], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, env=dict(os.environ, PYTHONHASHSEED=hash_seed))
            for hash_seed in ("1", "2")]
    outputs = []
    for run in runs:
        out, err = run.communicate(timeout=120)
        assert run.returncode == 0, err
        outputs.append(out)
    assert outputs[0] == outputs[1], "the same seed gave another game under another PYTHONHASHSEED"
    assert len(outputs[0].splitlines()) == len(PACKS) + 1


# -------------------------------------------------------------- save files
@pytest.fixture(scope="module")
def finished():
    game = game_of("<chance-probe>")
    state = initial_state(game, 3, 11)
    agents = {seat: make_agent("random", seat) for seat in state.players}
    while state.phase != "over":
        seat = waiting(state)[0]
        state = apply(game, state, agents[seat](game, state, seat, legal_moves(game, state, seat)))
    return game, state


def test_save_and_load_round_trip(tmp_path, finished):
    game, state = finished
    path = tmp_path / "game.json"
    data = gamelog.record(game, state, 3, 11, None, snapshot=True)
    data["agents"] = ["random"] * 3  # a front end's own keys are kept
    gamelog.save(path, data)
    gamelog.save(path, data)  # overwriting is fine
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"], "a temporary file was left behind"
    loaded = gamelog.load(path, game)
    assert loaded == json.loads(json.dumps(data))
    assert states_equal(gamelog.replay(game, loaded), state)
    assert states_equal(gamelog.restore(game, gamelog.load(path)), state)
    # a bare state snapshot saves and loads too
    gamelog.save(tmp_path / "state.json", state_to_json(game, state))
    assert states_equal(gamelog.restore(game, gamelog.load(tmp_path / "state.json", game)), state)


def test_a_log_with_an_open_choice_replays_to_it(finished):
    game, _ = finished
    state = initial_state(game, 2, 3)
    seat = waiting(state)[0]
    state = apply(game, state, legal_moves(game, state, seat)[0])
    assert state.pending[seat].choice is not None
    log = gamelog.record(game, state, 2, 3, None)
    assert log["pending"] == [[seat, "play A1"]]
    assert states_equal(gamelog.replay(game, log), state)


@pytest.mark.parametrize("damage", [
    lambda t: t[: len(t) // 2],
    lambda t: t[:-3],
    lambda t: "",
    lambda t: t.replace("{", "[", 1),
    lambda t: t.replace('"seed": 11', '"seed": NaN'),
    lambda t: "[1, 2]",
])
def test_load_refuses_damaged_files(tmp_path, finished, damage):
    game, state = finished
    path = tmp_path / "game.json"
    gamelog.save(path, gamelog.record(game, state, 3, 11, None))
    path.write_text(damage(path.read_text()))
    with pytest.raises(SaveError):
        gamelog.load(path, game)


def test_load_refuses_binary_and_missing_files(tmp_path, finished):
    game, _ = finished
    (tmp_path / "bin.json").write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(SaveError, match="damaged"):
        gamelog.load(tmp_path / "bin.json", game)
    with pytest.raises(SaveError, match="cannot read"):
        gamelog.load(tmp_path / "nothing.json", game)


def test_load_refuses_other_formats_and_packs(tmp_path, finished):
    game, state = finished
    path = tmp_path / "game.json"
    base = gamelog.record(game, state, 3, 11, None)
    cases = [({"format": 2}, "newer"), ({"format": "one"}, "unknown"), ({"format": 0}, "unknown"),
             ({"type": "chess-save"}, "not a boardrule"), ({"pack": "tictactoe"}, "for the pack `tictactoe`")]
    for change, message in cases:
        path.write_text(json.dumps({**base, **change}))
        with pytest.raises(SaveError, match=message):
            gamelog.load(path, game)
    path.write_text(json.dumps({**base, "pack_hash": "0123456789abcdef"}))
    with pytest.raises(SaveError, match="another version"):
        gamelog.load(path, game)
    log = gamelog.load(path, game, force=True)  # force skips the hash check only
    with pytest.raises(SaveError, match="another version"):
        gamelog.replay(game, log)
    assert states_equal(gamelog.replay(game, log, force=True), state)
    path.write_text(json.dumps({**base, "pack": "tictactoe"}))
    with pytest.raises(SaveError):
        gamelog.load(path, game, force=True)


def test_replay_names_the_first_divergence(finished):
    game, state = finished
    log = gamelog.record(game, state, 3, 11, None)
    index = next(i for i, entry in enumerate(log["log"]) if entry[0] == "roll")
    expected = log["log"][index]
    changed = copy.deepcopy(log)
    changed["log"][index] = ["roll", "d6", expected[2] % 6 + 1]
    with pytest.raises(SaveError) as info:
        gamelog.replay(game, changed)
    message = info.value.diagnostic.message
    assert f"entry {index}" in message and repr(changed["log"][index]) in message and repr(expected) in message
    longer = copy.deepcopy(log)
    longer["log"].append(["roll", "d6", 1])
    with pytest.raises(SaveError, match=f"entry {len(log['log'])}"):
        gamelog.replay(game, longer)
    wrong_move = copy.deepcopy(log)
    first = next(i for i, entry in enumerate(log["log"]) if entry[0] == "move")
    wrong_move["moves"][0][1] = wrong_move["log"][first][2] = "play Z9"
    with pytest.raises(SaveError, match="move 1 .* not legal"):
        gamelog.replay(game, wrong_move)
    other_seed = {**log, "seed": 12}
    with pytest.raises(SaveError, match="diverges"):
        gamelog.replay(game, other_seed)


JUNK = [None, True, -1, 7, "x", [], [[]], {}, {"T": 1}, {"P": 99}, {"Q": []}, {"T": [], "P": 1}, 1.5]


def test_state_from_json_refuses_missing_and_mistyped_fields(finished):
    game, state = finished
    mid = initial_state(game, 2, 3)
    mid = apply(game, mid, legal_moves(game, mid, waiting(mid)[0])[0])  # with an open choice
    for source in (state, mid):
        data = state_to_json(game, source)
        for key in list(data) + ["state." + k for k in data["state"]]:
            holder, name = (data["state"], key[6:]) if key.startswith("state.") else (data, key)
            broken = copy.deepcopy(data)
            del (broken["state"] if holder is data["state"] else broken)[name]
            with pytest.raises(SaveError):
                state_from_json(game, broken)
            for junk in JUNK:
                broken = copy.deepcopy(data)
                (broken["state"] if holder is data["state"] else broken)[name] = junk
                try:
                    loaded = state_from_json(game, broken)
                except SaveError:
                    continue
                # accepted junk must still be a well-typed state that saves again
                state_from_json(game, json.loads(json.dumps(state_to_json(game, loaded))))


def test_state_from_json_never_crashes_on_mangled_nested_values(finished):
    """Junk anywhere in a saved state: refused with SaveError or read as a state, never another exception.
    (What must be refused is pinned by the test below.)"""
    game, state = finished
    data = state_to_json(game, state)
    probe = random.Random(0)

    def paths(node, path=()):
        yield path
        if isinstance(node, dict):
            for k, v in node.items():
                yield from paths(v, path + (k,))
        elif isinstance(node, list):
            for i, v in enumerate(node[:12]):
                yield from paths(v, path + (i,))

    every = [p for p in paths(data["state"]) if p and (p[0] != "rng" or len(p) <= 2)]
    for path in probe.sample(every, min(150, len(every))):
        for junk in probe.sample(JUNK, 4):
            broken = copy.deepcopy(data)
            node = broken["state"]
            for step in path[:-1]:
                node = node[step]
            node[path[-1]] = junk
            try:
                state_from_json(game, broken)
            except SaveError:
                pass


NAN = float("nan")  # json.loads reads NaN
#: (the state to mangle: "over" or "choosing", path in data["state"], junk, what the message names)
MUST_BE_REFUSED = [
    ("over", ("seats",), 0, r"state\.seats: expected a whole number from 1"),
    ("over", ("players", "T", 0), 9, r"state\.players: 9 is not a seat \(0 to 3\)"),
    ("over", ("players", "T"), [], r"state\.players: .* is for 2-3 players, not 0"),
    ("over", ("kind", 0, 0), 7, r"state\.kind\[0\]\[0\]: expected a piece kind or null"),
    ("over", ("kind", 0), ["x"], r"state\.kind\[0\]: expected 9 cells, got 1"),
    ("over", ("owner", 0, 0), 4, r"state\.owner\[0\]\[0\]: 4 is not a seat"),
    ("over", ("owner", 0, 0), {"P": 99}, r"state\.owner\[0\]\[0\]: a player must be a seat number"),
    ("over", ("attrs", 0), {"D": [[9, {"O": {}}]]}, r"state\.attrs\[0\]: 9 is not a cell of this board"),
    ("over", ("held", 0), {"D": [[0, "x"]]}, r"state\.held\[0\]\[0\]: expected a tuple, got a string"),
    ("over", ("vars", "O", "last"), {"Q": []}, r"state\.vars\.last: unknown value tag 'Q'"),
    ("over", ("vars", "O", "last"), {"T": 1}, r"state\.vars\.last: expected a list \(the items of a tuple\)"),
    ("over", ("vars", "O", "last"), {"T": [], "P": 1}, r"state\.vars\.last: expected a one-key tag object"),
    ("over", ("vars", "O", "last"), NAN, r"state\.vars\.last: nan is not a finite number"),
    ("over", ("vars", "O", "last"), {"S": [[1]]}, r"state\.vars\.last: a set item cannot be a list"),
    ("over", ("pvars",), [], r"state\.pvars: expected 4 seat\(s\), got 0"),
    ("over", ("points", 1, 0), ["bonus"], r"state\.points\[1\]\[0\]: expected a \[label, points\] pair"),
    ("over", ("decks", "O"), {}, r"state\.decks: expected the decks cards, got \(none\)"),
    ("over", ("decks", "O", "cards", 0), {"T": []}, r"state\.decks\.cards\[0\]: expected a card"),
    ("over", ("rng", "internal", 0), -1, r"state\.rng\.internal: expected 625 whole numbers"),
    ("over", ("rng", "gauss_next"), "x", r"state\.rng\.gauss_next: expected a number or null"),
    ("over", ("phase",), "middle", r"state\.phase: expected one of setup, round, over, got 'middle'"),
    ("over", ("step",), 99, r"state\.step: expected a whole number from 0 to"),
    ("over", ("round",), -1, r"state\.round: expected a whole number of at least 0"),
    ("over", ("queue",), {"T": [7]}, r"state\.queue: 7 is not a seat"),
    ("over", ("finished",), [{"P": 3}, 5], r"state\.finished: 5 is not a seat"),
    ("over", ("log", 0), [], r"state\.log\[0\]: expected an entry like"),
    ("over", ("steps_run",), True, r"state\.steps_run: expected a whole number"),
    ("choosing", ("pending", 0, "seat"), 6, r"state\.pending\[0\]\.seat: 6 is not a seat"),
    ("choosing", ("pending", 0, "actions"), {"T": ["fly"]}, r"state\.pending\[0\]\.actions: the pack has no action `fly`"),
    ("choosing", ("pending", 0, "repeat"), 0, r"state\.pending\[0\]\.repeat: expected true or false"),
    ("choosing", ("pending", 0, "choice", "type"), 99, r"state\.pending\[0\]\.choice\.type: expected the index"),
    ("choosing", ("pending", 0, "choice", "optional"), None, r"state\.pending\[0\]\.choice\.optional: expected true"),
    ("choosing", ("pending", 0, "choice", "options"), [1], r"state\.pending\[0\]\.choice\.options: expected a tuple"),
    ("choosing", ("pending", 0, "choice", "move", "action"), "fly",
     r"state\.pending\[0\]\.choice\.move\.action: expected an action of the pack, got 'fly'"),
    ("choosing", ("pending", 0, "choice", "move", "args"), {"T": [[0]]},
     r"state\.pending\[0\]\.choice\.move: a move's values cannot be lists"),
    ("choosing", ("pending",), [{"seat": 1}], r"state\.pending\[0\]: no `actions` field"),
]


@pytest.mark.parametrize("which, path, junk, message", MUST_BE_REFUSED,
                         ids=[f"{w}:{'.'.join(map(str, p))}={json.dumps(j)}" for w, p, j, _ in MUST_BE_REFUSED])
def test_state_from_json_refuses_values_that_make_no_state_naming_the_field(finished, which, path, junk, message):
    game, state = finished
    if which == "choosing":
        state = initial_state(game, 2, 3)
        state = apply(game, state, legal_moves(game, state, waiting(state)[0])[0])
        assert state.pending[waiting(state)[0]].choice is not None
    data = json.loads(json.dumps(state_to_json(game, state)))
    node = data["state"]
    for step in path[:-1]:
        node = node[step]
    assert path[-1] in node if isinstance(node, dict) else path[-1] < len(node), "the path is not in the state"
    node[path[-1]] = junk
    with pytest.raises(SaveError, match=message):
        state_from_json(game, data)


def test_states_equal_sees_types_and_every_field(finished):
    game, state = finished
    same = state.clone()
    assert states_equal(state, same)
    other = state.clone()
    other.vars["last"] = int(other.vars["last"])  # a plain int is not a Player
    assert not states_equal(state, other)
    other = state.clone()
    other.players = list(other.players)  # a list is not a tuple
    assert not states_equal(state, other)
    other = state.clone()
    other.rng.random()
    assert not states_equal(state, other)
    other = state.clone()
    other.steps_run += 1
    assert not states_equal(state, other)


def test_unsaveable_values_are_refused(finished):
    game, state = finished
    broken = state.clone()
    broken.vars["last"] = object()
    with pytest.raises(SaveError, match="vars.last"):
        state_to_json(game, broken)
    with pytest.raises(SaveError):
        gamelog.save("/nonexistent-folder/x.json", gamelog.record(game, state, 3, 11, None))
    with pytest.raises(SaveError):
        gamelog.record(game, state, 2, 11, None)  # the state has 3 players


def main(argv) -> int:
    """`python tests/test_selfplay.py [--random N] [--greedy N] [PACK...]`: longer runs, with their figures."""
    parser = argparse.ArgumentParser(prog="python tests/test_selfplay.py", description=main.__doc__)
    parser.add_argument("--random", type=int, default=None, help="random games per pack (default: the suite's)")
    parser.add_argument("--greedy", type=int, default=None, help="greedy games per pack (default: the suite's)")
    parser.add_argument("packs", nargs="*", default=ALL, help=f"default: {' '.join(ALL)}")
    args = parser.parse_args(argv)
    total = time.perf_counter()
    for name in args.packs:
        for agent, games in (("random", args.random), ("greedy", args.greedy)):
            chosen = seeds(name, agent, games)
            if not chosen:
                continue
            start = time.perf_counter()
            moves = play_many(name, agent, chosen)
            seconds = time.perf_counter() - start
            print(f"{name:14} {agent:6} seeds {chosen.start}-{chosen.stop - 1}: {len(chosen)} games, "
                  f"{moves} moves checked, {seconds:.1f} s", flush=True)
    print(f"all checks passed; {time.perf_counter() - total:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
