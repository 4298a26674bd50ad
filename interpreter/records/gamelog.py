"""Game logs: a game as its start (pack, players, seed, options) and its moves.

A log is the preferred way to save a game: `replay` rebuilds every state
from the first one, so a log stays valid as long as the pack and the engine
behave the same, and proves it on every load. The chance outcomes the game
produced (rolls, shuffles, draws, passes, seat draws; `state.log`) are
stored too: a replay that produces other outcomes stops at the first
divergence instead of silently giving another game.

    {"format": 1, "type": "boardrule-log",
     "pack": "tictactoe", "pack_hash": "...", "engine_version": "0.1.0",
     "players": 2, "seed": 1, "options": {},
     "moves": [[0, "play B2"], [1, "play A1"]],
     "log": [["move", 0, "play B2"], ["move", 1, "play A1"]],
     "pending": [],            # choices half answered: [[seat, "build ... / A3"]]
     "state": {...}}           # optional: a snapshot (serialize.state_to_json)

Seats are numbered from 0, as in `state.log`. Other keys (a front end's
`agents`, say) are kept as they are. `save` writes a file atomically;
`load` reads it back and refuses damaged files, other formats and (given the
game) another pack.
"""

from __future__ import annotations

import glob
import json
import os
import tempfile
import time
from pathlib import Path

from boardrule.dsl.diagnostics import BoardruleError, SaveError
from boardrule.dsl.exact import Exact
from boardrule.dsl.limits import MAX_DIGITS, in_range, out_of_range_message
from boardrule.interpreter.runtime import flow
from boardrule.interpreter.runtime.moves import move_text
from boardrule.interpreter.records.serialize import (
    STATE_TYPE,
    check_format,
    check_header,
    decode_value,
    encode_value,
    state_differences,
    state_from_json,
    state_to_json,
)
from boardrule.interpreter.runtime.state import FORMAT_VERSION, State
from boardrule.interpreter.runtime.values import PLAYERS

LOG_TYPE = "boardrule-log"
MAX_SAVE_BYTES = 64 * 1024 * 1024


# ------------------------------------------------------------------ record
def record(game, state: State, players: int | None = None, seed: int = 0, options: dict | None = None,
           *, snapshot: bool = False) -> dict:
    """The log of the game that led to `state` (started with these players, seed and options).

    `players` is the number of players given to `initial_state` (None: as
    many as the state has); `options` as given to it (None: the state's
    resolved options). With `snapshot`, the state itself is stored too.
    """
    if players is None:
        players = len(state.players)
    if type(players) is not int or players != len(state.players):
        raise SaveError(f"the game has {len(state.players)} players, not {players!r}")
    if type(seed) is not int:
        raise SaveError(f"the seed must be a whole number, not {seed!r}")
    options = dict(state.options if options is None else options)
    for name, value in options.items():
        if isinstance(value, Exact):  # a number option with decimals is saved as typed: "7.5"
            options[name] = value = str(value)
        if type(name) is not str or type(value) not in (str, int, bool):
            raise SaveError(f"option `{name}`: cannot save {value!r}; options are words, numbers or yes/no")
    moves = [[int(entry[1]), entry[2]] for entry in state.log if entry and entry[0] == "move"]
    pending = []
    for seat, decision in state.pending.items():
        if decision.choice is not None:
            pending.append([int(seat), move_text(decision.choice[0], game)])
    data = {
        "format": FORMAT_VERSION,
        "type": LOG_TYPE,
        "pack": game.id,
        "pack_hash": game.pack_hash,
        "engine_version": game.engine_version,
        "players": players,
        "seed": seed,
        "options": options,
        "moves": moves,
        "log": encode_value(state.log, "log", game),
        "pending": pending,
    }
    if snapshot:
        data["state"] = state_to_json(game, state)
    return data


def pack_of_save(data: dict) -> str:
    """The bundled pack a save or log names, by its id: never a path taken from the file.

    A save from a stranger must not choose which file is opened (a path in
    `"pack"` could be anything on the machine); a save of a pack that is not
    bundled is replayed with the pack file the user names (`--pack FILE`),
    whose id and hash are then compared with the save's.

    >>> pack_of_save({"pack": "tictactoe"})
    'tictactoe'
    """
    from boardrule.dsl.extends import bundled_pack_names
    name = data.get("pack")
    if type(name) is not str or name not in bundled_pack_names():
        shown = name if type(name) is str and len(name) <= 60 and name.isprintable() else "(not a pack id)"
        raise SaveError(f"the save is of pack `{shown}`, which is not a bundled pack: name its pack file "
                        "with `--pack FILE` (a save never chooses which file is opened)")
    return name


# ------------------------------------------------------------------ replay
def replay(game, log: dict, force: bool = False, meter=None) -> State:
    """Re-run a logged game from its first state; the state after its last move.

    Raises SaveError when the log is for another pack (or another version of
    it, unless `force`), when a move is not legal when its turn comes, or
    when the chance outcomes differ from the recorded ones (naming the first
    divergence: its index, what the log expected, what the replay got).
    """
    check_log(log)
    check_header(game, log, LOG_TYPE, force, what="game log")
    try:
        recorded = decode_value(log["log"], "log", game)
    except RecursionError:
        raise SaveError("the game log's `log` is nested too deeply to be a game's log") from None
    try:
        state = flow.initial_state(game, log["players"], log["seed"], log["options"], meter=meter)
    except BoardruleError as err:
        raise SaveError(f"cannot start the logged game: {err.diagnostics[0].message}") from None
    checked = _verify(state, recorded, 0, "at the start")
    for index, (seat, text) in enumerate(log["moves"]):
        where = f"move {index + 1} ({_who(seat)} `{text}`)"
        state = _apply_text(game, state, seat, text, where)
        checked = _verify(state, recorded, checked, f"after {where}")
    if checked < len(recorded):
        raise SaveError(f"the log diverges from the replay at entry {checked}: expected "
                        f"{recorded[checked]!r}, got the end of the game's log (after {len(log['moves'])} moves)")
    for seat, text in log.get("pending", []):
        state = _apply_text(game, state, seat, text, f"the open choice of {_who(seat)} (`{text}`)",
                            partial=True)
    if "state" in log:
        snapshot = state_from_json(game, log["state"], force)
        differences = state_differences(state, snapshot, limit=3)
        if differences:
            raise SaveError("the replayed game differs from the saved snapshot: " + "; ".join(differences))
    return state


def _who(seat) -> str:
    return repr(PLAYERS[seat]) if 0 <= seat < len(PLAYERS) else f"seat {seat + 1}"


def _verify(state, recorded, checked, where) -> int:
    """Compare the new entries of the replay's log with the recorded ones."""
    produced = state.log
    for index in range(checked, len(produced)):
        got = produced[index]
        expected = recorded[index] if index < len(recorded) else None
        if expected is None or list(expected) != list(got):
            shown = "the end of the log" if expected is None else repr(expected)
            raise SaveError(f"the log diverges from the replay at entry {index} ({where}): "
                            f"expected {shown}, got {got!r}")
    return len(produced)


def _apply_text(game, state, seat, text, where, partial=False):
    """Apply a logged move; one with answers (`a / b`) goes through its choices one by one."""
    if not 0 <= seat < state.seats:
        raise SaveError(f"{where} names seat {seat + 1}, but the game has {state.seats} seats")
    parts = text.split("/")
    for count in range(1, len(parts) + 1):
        prefix = "/".join(parts[:count])
        try:
            move = flow.parse_move(game, state, seat, prefix)
        except BoardruleError as err:
            raise SaveError(f"{where} is not legal when replaying: {err.diagnostics[0].message}") from None
        state = flow.apply(game, state, move)
        asking = state.pending.get(seat)
        open_choice = asking is not None and asking.choice is not None and asking.choice[0] == move
        if count < len(parts) and not open_choice:
            raise SaveError(f"{where} has more answers than the move asked for")
        if count == len(parts) and open_choice and not partial:
            raise SaveError(f"{where} lacks an answer: the move asks for another choice")
    return state


# ------------------------------------------------------------ file format
def check_log(data) -> None:
    """Refuse anything that is not a well-formed log (SaveError); the pack is not checked here."""
    check_format(data, LOG_TYPE, "game log")
    for key, kind, what in (("pack", str, "a pack id"), ("pack_hash", str, "a hash"),
                            ("engine_version", str, "a version"), ("players", int, "a number of players"),
                            ("seed", int, "a whole number"), ("options", dict, "an object"),
                            ("moves", list, "a list of [seat, move] pairs"), ("log", list, "a list")):
        if key not in data:
            raise SaveError(f"the game log has no `{key}` field")
        if type(data[key]) is not kind:
            raise SaveError(f"the game log's `{key}` must be {what}, not {data[key]!r}"[:200])
    for name, value in data["options"].items():
        if type(value) not in (str, int, bool):
            raise SaveError(f"the game log's option `{name}` must be a word, a number or yes/no")
    _check_pairs(data["moves"], "moves")
    if "pending" in data:
        if type(data["pending"]) is not list:
            raise SaveError("the game log's `pending` must be a list of [seat, move] pairs")
        _check_pairs(data["pending"], "pending")
    logged_moves = []
    for i, entry in enumerate(data["log"]):
        if type(entry) is not list or not entry or type(entry[0]) is not str:
            raise SaveError(f"log[{i}]: expected an entry like [\"roll\", die, face]")
        if entry[0] == "move":
            if len(entry) != 3 or type(entry[2]) is not str:
                raise SaveError(f"log[{i}]: expected a move entry like [\"move\", seat, text]")
            logged_moves.append([decode_value(entry[1], f"log[{i}][1]"), entry[2]])
    if logged_moves != data["moves"]:
        raise SaveError("the game log's `moves` do not match the moves in its `log`")
    if "state" in data and type(data["state"]) is not dict:
        raise SaveError("the game log's `state` must be a saved state object")


def _check_pairs(pairs, key):
    for i, pair in enumerate(pairs):
        if (type(pair) is not list or len(pair) != 2 or type(pair[0]) is not int or pair[0] < 0
                or type(pair[1]) is not str):
            raise SaveError(f"the game log's {key}[{i}] must be a [seat, \"move text\"] pair, not {pair!r}"[:200])


STALE_SECONDS = 60  # a temporary file of a save this old is left by a save that was killed


def _remove_stale_temporaries(folder: Path, name: str) -> None:
    """Remove the temporary files that killed saves of `name` left behind (`.NAME.*.tmp`);
    a younger one may be a save in progress in another process, and stays."""
    now = time.time()
    try:
        leftovers = list(folder.glob(f".{glob.escape(name)}.*.tmp"))
    except OSError:
        return
    for leftover in leftovers:
        try:
            if leftover.is_file() and now - leftover.stat().st_mtime > STALE_SECONDS:
                leftover.unlink()
        except OSError:
            pass  # another process removed it, or it cannot be removed: the save goes on


def save(path, data: dict) -> None:
    """Write a log (or a saved state) as JSON, atomically: a crash leaves the old file or the new one."""
    if type(data) is not dict or data.get("type") not in (LOG_TYPE, STATE_TYPE):
        raise SaveError("only a game log (gamelog.record) or a saved state (serialize.state_to_json) "
                        "can be saved")
    if data["type"] == LOG_TYPE:
        check_log(data)
    try:
        text = json.dumps(data, indent=1, ensure_ascii=False, allow_nan=False) + "\n"
    except (TypeError, ValueError) as err:
        raise SaveError(f"cannot save: {err}") from None
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    _remove_stale_temporaries(folder, path.name)
    tmp = None
    try:
        handle, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        try:
            os.chmod(tmp, os.stat(path).st_mode & 0o777 if path.exists() else 0o644)
        except OSError:
            pass
        os.replace(tmp, path)
        tmp = None
        _sync_folder(folder)
    except OSError as err:
        raise SaveError(f"cannot save to {path}: {err.strerror or err}") from None
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def _sync_folder(folder):
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def load(path, game=None, force: bool = False) -> dict:
    """A saved log (or state) read back and checked; with `game`, checked against its pack too.

    Refuses (SaveError) a missing, truncated or damaged file, another or a
    newer format, a malformed log, and, given `game`, another pack or
    another version of it (`force=True` skips the version check only).
    """
    path = Path(path)
    try:
        size = path.stat().st_size
        if size > MAX_SAVE_BYTES:
            raise SaveError(f"{path} is too big to be a saved game ({size} bytes)")
        raw = path.read_bytes()
    except OSError as err:
        raise SaveError(f"cannot read {path}: {err.strerror or err}") from None
    try:
        data = json.loads(raw.decode("utf-8"), parse_constant=_refuse_constant, parse_int=_bounded_int,
                          parse_float=_bounded_float)
    except UnicodeDecodeError:
        raise SaveError(f"{path} is damaged: it is not UTF-8 text") from None
    except json.JSONDecodeError as err:
        raise SaveError(f"{path} is truncated or damaged: not valid JSON "
                        f"(line {err.lineno}, column {err.colno}: {err.msg})") from None
    except (ValueError, RecursionError) as err:
        raise SaveError(f"{path} is damaged: {err}") from None
    if type(data) is not dict:
        raise SaveError(f"{path} is not a boardrule save: expected a JSON object")
    kind = data.get("type")
    if kind == STATE_TYPE:
        if game is not None:
            state_from_json(game, data, force)  # checks every field now
        elif "format" not in data or type(data["format"]) is not int or data["format"] != FORMAT_VERSION:
            raise SaveError(f"{path}: unknown or newer saved state format {data.get('format')!r}")
        return data
    try:
        check_log(data)
        if game is not None:
            check_header(game, data, LOG_TYPE, force, what="game log")
    except SaveError as err:
        diag = err.diagnostic
        raise SaveError(f"{path}: {diag.message}", code=diag.code, hint=diag.hint) from None
    return data


def _refuse_constant(name):
    raise ValueError(f"`{name}` is not a number JSON allows")


def _bounded_int(text: str) -> int:
    """A JSON whole number, refused outside the range of numbers (dsl/limits.py) before it is read."""
    if len(text.lstrip("-")) > MAX_DIGITS or not in_range(int(text)):
        raise ValueError(out_of_range_message(text))
    return int(text)


def _bounded_float(text: str) -> float:
    value = float(text)
    if not in_range(value):
        raise ValueError(out_of_range_message(text))
    return value


def restore(game, data: dict, force: bool = False) -> State:
    """The state a loaded save holds: a log is replayed, a saved state decoded."""
    if type(data) is dict and data.get("type") == STATE_TYPE:
        return state_from_json(game, data, force)
    return replay(game, data, force)
