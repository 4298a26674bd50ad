"""States as JSON: an exact, checked round trip of every field of a State.

    >>> from boardrule.interpreter.api import open_game, new_game
    >>> game = open_game("tictactoe")
    >>> state = new_game(game, 2, seed=1)
    >>> data = state_to_json(game, state)
    >>> data["format"], data["pack"]
    (1, 'tictactoe')
    >>> states_equal(state, state_from_json(game, data))
    True

The document is plain JSON (`json.dumps` takes it as it is)::

    {"format": 1, "type": "boardrule-state", "pack": "tictactoe",
     "pack_hash": "...", "engine_version": "0.1.0", "state": {...}}

Values keep their exact Python type through small one-key tags, so that a
`Player` never comes back as a plain int, nor a tuple as a list:

    =======================  ====================================
    None, bool, int, str     themselves
    float                    itself (never NaN or infinity)
    list                     a JSON array
    Player(0)                {"P": 0}
    tuple                    {"T": [...]}
    dict with str keys       {"O": {key: value}}
    any other dict           {"D": [[key, value], ...]}
    frozenset                {"S": [...]}
    =======================  ====================================

Reading never trusts the file: a document for another pack, another version
of the pack (hash), an unknown or newer format, a missing or mistyped field
raises SaveError with a message naming the field, never a KeyError.
"""

from __future__ import annotations

import json
import math
import random

from boardrule.dsl.diagnostics import SaveError
from boardrule.interpreter.moves import Move
from boardrule.interpreter.state import FORMAT_VERSION, Pending, State
from boardrule.interpreter.values import PLAYERS, Player

STATE_TYPE = "boardrule-state"
PHASES = ("setup", "round", "over")
_MT_WORDS = 625  # the Mersenne Twister keeps 624 words plus a position


# ------------------------------------------------------------------ values
def encode_value(value, where: str = "value"):
    """The JSON form of a runtime value (see the table in the module doc)."""
    kind = type(value)
    if value is None or kind is bool or kind is int or kind is str:
        return value
    if kind is Player:
        return {"P": int(value)}
    if kind is tuple:
        return {"T": [encode_value(v, f"{where}[{i}]") for i, v in enumerate(value)]}
    if kind is list:
        return [encode_value(v, f"{where}[{i}]") for i, v in enumerate(value)]
    if kind is dict:
        if all(type(k) is str for k in value):
            return {"O": {k: encode_value(v, f"{where}.{k}") for k, v in value.items()}}
        return {"D": [[encode_value(k, f"{where} key"), encode_value(v, f"{where}[{k!r}]")]
                      for k, v in value.items()]}
    if kind is frozenset:
        items = [encode_value(v, f"{where} item") for v in value]
        return {"S": sorted(items, key=_json_sort_key)}
    if kind is float:
        if not math.isfinite(value):
            raise SaveError(f"cannot save {where}: {value} is not a finite number")
        return value
    raise SaveError(f"cannot save {where}: a value of type {kind.__name__} ({value!r}) has no JSON form")


def _json_sort_key(item):
    return json.dumps(item, sort_keys=True)


def decode_value(data, where: str = "value"):
    """The runtime value of an encoded one; SaveError when it is not one."""
    kind = type(data)
    if data is None or kind is bool or kind is int or kind is str:
        return data
    if kind is float:
        if not math.isfinite(data):
            raise SaveError(f"{where}: {data} is not a finite number")
        return data
    if kind is list:
        return [decode_value(v, f"{where}[{i}]") for i, v in enumerate(data)]
    if kind is not dict:
        raise SaveError(f"{where}: unexpected {type(data).__name__}")
    if len(data) != 1:
        raise SaveError(f"{where}: expected a one-key tag object like {{\"T\": [...]}}, got keys "
                        + ", ".join(map(repr, sorted(data, key=str))))
    (tag, body), = data.items()
    if tag == "P":
        if type(body) is not int or not 0 <= body < len(PLAYERS):
            raise SaveError(f"{where}: a player must be a seat number from 0 to {len(PLAYERS) - 1}, "
                            f"not {body!r}")
        return PLAYERS[body]
    if tag == "T":
        _need(body, list, where, "a list (the items of a tuple)")
        return tuple(decode_value(v, f"{where}[{i}]") for i, v in enumerate(body))
    if tag == "O":
        _need(body, dict, where, "an object")
        return {k: decode_value(v, f"{where}.{k}") for k, v in body.items()}
    if tag == "D":
        _need(body, list, where, "a list of [key, value] pairs")
        out = {}
        for i, pair in enumerate(body):
            if type(pair) is not list or len(pair) != 2:
                raise SaveError(f"{where}[{i}]: expected a [key, value] pair")
            key = decode_value(pair[0], f"{where}[{i}] key")
            try:
                out[key] = decode_value(pair[1], f"{where}[{key!r}]")
            except TypeError:
                raise SaveError(f"{where}[{i}]: a {type(key).__name__} cannot be a key") from None
        return out
    if tag == "S":
        _need(body, list, where, "a list (the items of a set)")
        try:
            return frozenset(decode_value(v, f"{where} item") for v in body)
        except TypeError:
            raise SaveError(f"{where}: a set item cannot be a list or a dict") from None
    raise SaveError(f"{where}: unknown value tag {tag!r} (expected P, T, O, D or S)")


def _need(value, kind, where, what):
    if type(value) is not kind:
        raise SaveError(f"{where}: expected {what}, got {_describe(value)}")


def _describe(value) -> str:
    if value is None:
        return "null"
    names = {bool: "a boolean", int: "a number", float: "a number", str: "a string", list: "a list",
             dict: "an object", tuple: "a tuple", Player: "a player"}
    return names.get(type(value), f"a {type(value).__name__}")


# ------------------------------------------------------------ the document
def state_to_json(game, state: State) -> dict:
    """A JSON-ready dict holding every field of `state`, for `game`'s pack."""
    fields = {
        "seats": state.seats,
        "players": encode_value(state.players, "players"),
        "options": encode_value(state.options, "options"),
        "kind": encode_value(state.kind, "kind"),
        "owner": encode_value(state.owner, "owner"),
        "attrs": encode_value(state.attrs, "attrs"),
        "held": encode_value(state.held, "held"),
        "tokens": encode_value(state.tokens, "tokens"),
        "vars": encode_value(state.vars, "vars"),
        "pvars": encode_value(state.pvars, "pvars"),
        "points": encode_value(state.points, "points"),
        "dice": encode_value(state.dice, "dice"),
        "decks": encode_value(state.decks, "decks"),
        "rng": _rng_to_json(state.rng),
        "phase": state.phase,
        "step": state.step,
        "round": state.round,
        "queue": encode_value(state.queue, "queue"),
        "pending": [_pending_to_json(seat, p) for seat, p in state.pending.items()],
        "finished": encode_value(state.finished, "finished"),
        "log": encode_value(state.log, "log"),
        "steps_run": state.steps_run,
        "events": encode_value(state.events, "events"),
    }
    return {"format": FORMAT_VERSION, "type": STATE_TYPE, "pack": game.id, "pack_hash": game.pack_hash,
            "engine_version": game.engine_version, "state": fields}


def _rng_to_json(rng) -> dict:
    version, internal, gauss_next = rng.getstate()
    return {"version": version, "internal": list(internal), "gauss_next": gauss_next}


def _pending_to_json(seat, pending: Pending) -> dict:
    where = f"pending[{seat!r}]"
    choice = None
    if pending.choice is not None:
        move, options, optional = pending.choice
        choice = {"move": _move_to_json(move, where + ".choice.move"),
                  "options": encode_value(options, where + ".choice.options"),
                  "optional": encode_value(optional, where + ".choice.optional")}
    return {"seat": encode_value(seat, where), "actions": encode_value(pending.actions, where + ".actions"),
            "repeat": pending.repeat, "choice": choice, "moved": pending.moved}


def _move_to_json(move: Move, where: str) -> dict:
    return {"seat": encode_value(move.seat, where + ".seat"), "action": move.action,
            "args": encode_value(move.args, where + ".args"), "answers": encode_value(move.answers, where + ".answers")}


def check_header(game, data, expected_type: str, force: bool = False, what: str = "saved state") -> None:
    """Refuse a document of another format, type or pack (SaveError).

    With `force`, a document for another version of the same pack (its hash
    differs) is accepted; another pack never is.
    """
    if type(data) is not dict:
        raise SaveError(f"this is not a boardrule {what}: expected a JSON object, got {_describe(data)}")
    if "format" not in data:
        raise SaveError(f"this is not a boardrule {what}: it has no `format` field")
    fmt = data["format"]
    if type(fmt) is not int:
        raise SaveError(f"unknown {what} format {fmt!r}; this engine reads format {FORMAT_VERSION}")
    if fmt > FORMAT_VERSION:
        raise SaveError(f"this {what} has format {fmt}, newer than this engine reads ({FORMAT_VERSION}); "
                        f"upgrade boardrule (this is {game.engine_version})")
    if fmt != FORMAT_VERSION:
        raise SaveError(f"unknown {what} format {fmt}; this engine reads format {FORMAT_VERSION}")
    if data.get("type") != expected_type:
        raise SaveError(f"this is not a boardrule {what}: `type` is {data.get('type')!r}, "
                        f"expected {expected_type!r}")
    check_pack(game, data, force, what)


def check_pack(game, data, force: bool = False, what: str = "saved state") -> None:
    pack, pack_hash = data.get("pack"), data.get("pack_hash")
    if type(pack) is not str:
        raise SaveError(f"this {what} does not say which pack it is for (`pack` is missing or not a string)")
    if type(pack_hash) is not str:
        raise SaveError(f"this {what} has no `pack_hash` string")
    if pack != game.id:
        raise SaveError(f"this {what} is for the pack `{pack}`, not `{game.id}`")
    if pack_hash != game.pack_hash and not force:
        raise SaveError(f"this {what} was made with another version of the pack `{pack}` "
                        f"(hash {pack_hash}, the loaded pack has {game.pack_hash}); "
                        "the rules may have changed", hint="force loading it if you trust it anyway")


def state_from_json(game, data, force: bool = False) -> State:
    """The State a `state_to_json` document holds, checked against `game`.

    Raises SaveError for another pack, another pack version (unless `force`),
    an unknown or newer format, or any missing or mistyped field.
    """
    check_header(game, data, STATE_TYPE, force)
    fields = data.get("state")
    if type(fields) is not dict:
        raise SaveError("the saved state has no `state` object")
    reader = _Reader(game, fields)
    return reader.state()


class _Reader:
    """Decodes and checks the fields of one saved state."""

    def __init__(self, game, fields):
        self.game = game
        self.fields = fields

    def field(self, name):
        if name not in self.fields:
            raise SaveError(f"the saved state has no `{name}` field")
        return self.fields[name]

    def value(self, name):
        return decode_value(self.field(name), f"state.{name}")

    def integer(self, name, low=0, high=None):
        value = self.field(name)
        if type(value) is not int or value < low or (high is not None and value > high):
            limit = f"from {low} to {high}" if high is not None else f"of at least {low}"
            raise SaveError(f"state.{name}: expected a whole number {limit}, got {value!r}")
        return value

    def typed(self, name, kind, what):
        value = self.value(name)
        if type(value) is not kind:
            raise SaveError(f"state.{name}: expected {what}, got {_describe(value)}")
        return value

    def state(self) -> State:
        game = self.game
        from boardrule.interpreter.game import MAX_SEATS
        seats = self.integer("seats", 1, MAX_SEATS)
        players = self.typed("players", tuple, "a tuple of seats")
        for seat in players:
            _seat_check(seat, seats, "state.players")
        low, high = game.players_range
        if not low <= len(players) <= high:
            raise SaveError(f"state.players: {game.name} is for {low}-{high} players, not {len(players)}")
        options = self.typed("options", dict, "an object")
        boards = game.boards if game.shared_board else seats
        size = game.grid.size
        kind = self.boards("kind", boards, list, size)
        owner = self.boards("owner", boards, list, size)
        for b, board in enumerate(kind):
            for c, value in enumerate(board):
                if value is not None and type(value) is not str:
                    raise SaveError(f"state.kind[{b}][{c}]: expected a piece kind or null, got {_describe(value)}")
        for b, board in enumerate(owner):
            for c, value in enumerate(board):
                if value is not None:
                    _seat_check(value, seats, f"state.owner[{b}][{c}]")
        attrs_ = self.boards("attrs", boards, dict)
        held = self.boards("held", boards, dict)
        tokens = self.boards("tokens", boards, dict)
        for name, tables in (("attrs", attrs_), ("held", held), ("tokens", tokens)):
            for b, table in enumerate(tables):
                for cell, value in table.items():
                    if type(cell) is not int or not 0 <= cell < size:
                        raise SaveError(f"state.{name}[{b}]: {cell!r} is not a cell of this board")
                    wanted = dict if name == "attrs" else tuple
                    if type(value) is not wanted:
                        raise SaveError(f"state.{name}[{b}][{cell}]: expected "
                                        f"{'an object' if wanted is dict else 'a tuple'}, got {_describe(value)}")
        variables = self.typed("vars", dict, "an object")
        pvars = self.per_seat("pvars", seats, dict)
        points = self.per_seat("points", seats, list)
        for s, entries in enumerate(points):
            for i, entry in enumerate(entries):
                if type(entry) is not list or len(entry) != 2 or type(entry[0]) is not str:
                    raise SaveError(f"state.points[{s}][{i}]: expected a [label, points] pair")
        dice = self.typed("dice", dict, "an object")
        decks = self.typed("decks", dict, "an object")
        for name, cards in decks.items():
            if type(cards) is not list:
                raise SaveError(f"state.decks.{name}: expected a list of cards, got {_describe(cards)}")
        rng = self.rng()
        phase = self.field("phase")
        if phase not in PHASES:
            raise SaveError(f"state.phase: expected one of {', '.join(PHASES)}, got {phase!r}")
        steps = game.setup_steps if phase == "setup" else game.round_steps
        step = self.integer("step", 0, len(steps))
        round_ = self.integer("round", 0)
        queue = self.typed("queue", tuple, "a tuple of seats")
        for seat in queue:
            _seat_check(seat, seats, "state.queue")
        pending = self.pending(seats)
        finished = self.typed("finished", list, "a list of seats")
        for seat in finished:
            _seat_check(seat, seats, "state.finished")
        log = self.typed("log", list, "a list")
        for i, entry in enumerate(log):
            if type(entry) is not list or not entry or type(entry[0]) is not str:
                raise SaveError(f"state.log[{i}]: expected an entry like [\"move\", seat, text]")
        steps_run = self.integer("steps_run", 0)
        events = self.typed("events", list, "a list")
        return State(seats=seats, players=players, options=options, kind=kind, owner=owner, attrs=attrs_,
                     held=held, tokens=tokens, vars=variables, pvars=pvars, points=points, dice=dice,
                     decks=decks, rng=rng, phase=phase, step=step, round=round_, queue=queue, pending=pending,
                     finished=finished, log=log, steps_run=steps_run, events=events)

    def boards(self, name, count, kind, size=None):
        value = self.typed(name, list, "a list with one entry per board")
        if len(value) != count:
            raise SaveError(f"state.{name}: expected {count} board(s), got {len(value)}")
        for b, board in enumerate(value):
            if type(board) is not kind:
                raise SaveError(f"state.{name}[{b}]: expected {'a list' if kind is list else 'an object'}, "
                                f"got {_describe(board)}")
            if size is not None and len(board) != size:
                raise SaveError(f"state.{name}[{b}]: expected {size} cells, got {len(board)}")
        return value

    def per_seat(self, name, seats, kind):
        value = self.typed(name, list, "a list with one entry per seat")
        if len(value) != seats:
            raise SaveError(f"state.{name}: expected {seats} seat(s), got {len(value)}")
        for s, entry in enumerate(value):
            if type(entry) is not kind:
                raise SaveError(f"state.{name}[{s}]: expected {'a list' if kind is list else 'an object'}, "
                                f"got {_describe(entry)}")
        return value

    def rng(self):
        data = self.field("rng")
        if type(data) is not dict:
            raise SaveError(f"state.rng: expected an object, got {_describe(data)}")
        version, internal, gauss = data.get("version"), data.get("internal"), data.get("gauss_next")
        if type(version) is not int:
            raise SaveError("state.rng.version: expected a number")
        if (type(internal) is not list or len(internal) != _MT_WORDS
                or any(type(w) is not int or not 0 <= w < 2 ** 32 for w in internal)):
            raise SaveError(f"state.rng.internal: expected {_MT_WORDS} whole numbers from 0 to 2**32-1")
        if gauss is not None and (type(gauss) not in (int, float) or not math.isfinite(gauss)):
            raise SaveError("state.rng.gauss_next: expected a number or null")
        rng = random.Random()
        try:
            rng.setstate((version, tuple(internal), float(gauss) if gauss is not None else None))
        except (ValueError, TypeError) as err:
            raise SaveError(f"state.rng: not a random generator state ({err})") from None
        return rng

    def pending(self, seats) -> dict:
        data = self.field("pending")
        if type(data) is not list:
            raise SaveError(f"state.pending: expected a list, got {_describe(data)}")
        out = {}
        for i, item in enumerate(data):
            where = f"state.pending[{i}]"
            if type(item) is not dict:
                raise SaveError(f"{where}: expected an object, got {_describe(item)}")
            for key in ("seat", "actions", "repeat", "choice", "moved"):
                if key not in item:
                    raise SaveError(f"{where}: no `{key}` field")
            seat = decode_value(item["seat"], where + ".seat")
            _seat_check(seat, seats, where + ".seat")
            if seat in out:
                raise SaveError(f"{where}: seat {seat!r} has two pending decisions")
            actions = decode_value(item["actions"], where + ".actions")
            if type(actions) is not tuple or any(type(a) is not str for a in actions):
                raise SaveError(f"{where}.actions: expected a tuple of action names")
            for action in actions:
                if action not in self.game.actions:
                    raise SaveError(f"{where}.actions: the pack has no action `{action}`")
            for key in ("repeat", "moved"):
                if type(item[key]) is not bool:
                    raise SaveError(f"{where}.{key}: expected true or false, got {_describe(item[key])}")
            out[seat] = Pending(actions, item["repeat"], self.choice(item["choice"], where + ".choice", seats),
                                item["moved"])
        return out

    def choice(self, data, where, seats):
        if data is None:
            return None
        if type(data) is not dict or not {"move", "options", "optional"} <= set(data):
            raise SaveError(f"{where}: expected null or an object with move, options and optional")
        move = _move_from_json(self.game, data["move"], where + ".move", seats)
        options = decode_value(data["options"], where + ".options")
        if type(options) is not tuple:
            raise SaveError(f"{where}.options: expected a tuple, got {_describe(options)}")
        optional = data["optional"]
        if type(optional) is not bool:
            raise SaveError(f"{where}.optional: expected true or false, got {_describe(optional)}")
        return (move, options, optional)


def _move_from_json(game, data, where, seats) -> Move:
    if type(data) is not dict:
        raise SaveError(f"{where}: expected an object, got {_describe(data)}")
    for key in ("seat", "action", "args", "answers"):
        if key not in data:
            raise SaveError(f"{where}: no `{key}` field")
    seat = decode_value(data["seat"], where + ".seat")
    _seat_check(seat, seats, where + ".seat")
    action = data["action"]
    if type(action) is not str:
        raise SaveError(f"{where}.action: expected an action name, got {_describe(action)}")
    args = decode_value(data["args"], where + ".args")
    answers = decode_value(data["answers"], where + ".answers")
    for key, value in (("args", args), ("answers", answers)):
        if type(value) is not tuple:
            raise SaveError(f"{where}.{key}: expected a tuple, got {_describe(value)}")
    try:
        return Move(seat, action, args, answers)
    except TypeError as err:
        raise SaveError(f"{where}: not a move ({err})") from None


def _seat_check(seat, seats, where):
    if type(seat) not in (int, Player) or not 0 <= seat < seats:
        raise SaveError(f"{where}: {seat!r} is not a seat (0 to {seats - 1})")


# -------------------------------------------------------------- comparing
_FIELDS = ("seats", "players", "options", "kind", "owner", "attrs", "held", "tokens", "vars", "pvars",
           "points", "dice", "decks", "phase", "step", "round", "queue", "finished", "log", "steps_run",
           "events")


def state_differences(a: State, b: State, limit: int = 10) -> list:
    """Where two states differ, field by field (exact types: Player is not int), at most `limit`."""
    out = []
    for name in _FIELDS:
        _diff(getattr(a, name), getattr(b, name), name, out, limit)
        if len(out) >= limit:
            return out
    if a.rng.getstate() != b.rng.getstate():
        out.append("rng: the random generators are in different states")
    if list(a.pending) != list(b.pending):
        out.append(f"pending: seats {list(a.pending)} != {list(b.pending)}")
    else:
        for seat in a.pending:
            pa, pb = a.pending[seat], b.pending[seat]
            for name in ("actions", "repeat", "choice", "moved"):
                _diff(getattr(pa, name), getattr(pb, name), f"pending[{seat!r}].{name}", out, limit)
    return out[:limit]


def states_equal(a: State, b: State) -> bool:
    """True when every field of the two states is equal, types included."""
    return not state_differences(a, b, limit=1)


def _diff(x, y, where, out, limit):
    if len(out) >= limit:
        return
    if type(x) is not type(y):
        out.append(f"{where}: {x!r} ({type(x).__name__}) != {y!r} ({type(y).__name__})")
        return
    if isinstance(x, (list, tuple)):
        if len(x) != len(y):
            out.append(f"{where}: length {len(x)} != {len(y)}")
            return
        for i, (u, v) in enumerate(zip(x, y)):
            _diff(u, v, f"{where}[{i}]", out, limit)
        return
    if isinstance(x, dict):
        if {(type(k), k) for k in x} != {(type(k), k) for k in y}:
            out.append(f"{where}: keys {sorted(map(repr, x))} != {sorted(map(repr, y))}")
            return
        for key in x:
            _diff(x[key], y[key], f"{where}[{key!r}]", out, limit)
        return
    if isinstance(x, Move):
        for name in ("seat", "action", "args", "answers"):
            _diff(getattr(x, name), getattr(y, name), f"{where}.{name}", out, limit)
        return
    if isinstance(x, frozenset):
        if x != y:
            out.append(f"{where}: {x!r} != {y!r}")
        return
    if x != y:
        out.append(f"{where}: {x!r} != {y!r}")
