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

    =======================  =============================================
    None, bool, int, str     themselves
    float                    itself (never NaN or infinity)
    list                     a JSON array
    Player(0)                {"P": 0}
    tuple                    {"T": [...]}
    dict with str keys       {"O": {key: value}}
    any other dict           {"D": [[key, value], ...]}
    frozenset                {"S": [...]}
    an exact number (7.5)    {"F": [15, 2]}
    a shape of the pack      {"shape": "name"}  (a family's: "name(3)")
    =======================  =============================================

`state.rng` is saved as its Mersenne Twister state and `state.pending` as a
list of decisions (an open choice keeps its move and options). Every other
field of State goes through the value encoding above, so a field added to
State later is saved (and compared) without a change here.

Reading never trusts the file: a document for another pack, another version
of the pack (hash), an unknown or newer format, a missing or mistyped field
raises SaveError with a message naming the field, never a KeyError.
"""

from __future__ import annotations

import json
import math
import random
import re

import attrs

from fractions import Fraction

from boardrule.dsl.diagnostics import SaveError
from boardrule.dsl.exact import Exact, exact
from boardrule.interpreter.runtime.moves import Move
from boardrule.interpreter.runtime.shapes import Shape
from boardrule.interpreter.runtime.state import FORMAT_VERSION, Pending, State
from boardrule.interpreter.runtime.values import PLAYERS, Player

STATE_TYPE = "boardrule-state"
PHASES = ("setup", "round", "over")
_MT_WORDS = 625  # the Mersenne Twister keeps 624 words plus a position
_FAMILY_MEMBER = re.compile(r"^(.+)\((\d+)\)$")
_DIGEST = re.compile(r"^[0-9a-f]{16}$")  # a position digest (runtime/after.py)


# ------------------------------------------------------------------ values
def encode_value(value, where: str = "value", game=None):
    """The JSON form of a runtime value (see the table in the module doc)."""
    kind = type(value)
    if value is None or kind is bool or kind is int or kind is str:
        return value
    if kind is Player:
        return {"P": int(value)}
    if kind is tuple:
        return {"T": [encode_value(v, f"{where}[{i}]", game) for i, v in enumerate(value)]}
    if kind is list:
        return [encode_value(v, f"{where}[{i}]", game) for i, v in enumerate(value)]
    if kind is dict:
        if all(type(k) is str for k in value):
            return {"O": {k: encode_value(v, f"{where}.{k}", game) for k, v in value.items()}}
        return {"D": [[encode_value(k, f"{where} key", game), encode_value(v, f"{where}[{k!r}]", game)]
                      for k, v in value.items()]}
    if kind is frozenset:
        items = [encode_value(v, f"{where} item", game) for v in value]
        return {"S": sorted(items, key=lambda item: json.dumps(item, sort_keys=True))}
    if kind is float:
        if not math.isfinite(value):
            raise SaveError(f"cannot save {where}: {value} is not a finite number")
        return value
    if kind is Exact:
        return {"F": [value.numerator, value.denominator]}
    if kind is Shape:
        if game is not None and _shape_named(game, value.name, where) != value:
            raise SaveError(f"cannot save {where}: it is not the pack's shape `{value.name}`")
        return {"shape": value.name}
    raise SaveError(f"cannot save {where}: a value of type {kind.__name__} ({value!r}) has no JSON form")


def decode_value(data, where: str = "value", game=None):
    """The runtime value of an encoded one; SaveError when it is not one.

    Shapes are looked up in `game`'s pack, so reading one needs the game.
    """
    kind = type(data)
    if data is None or kind is bool or kind is int or kind is str:
        return data
    if kind is float:
        if not math.isfinite(data):
            raise SaveError(f"{where}: {data} is not a finite number")
        return data
    if kind is list:
        return [decode_value(v, f"{where}[{i}]", game) for i, v in enumerate(data)]
    if kind is not dict:
        raise SaveError(f"{where}: unexpected {type(data).__name__}")
    if len(data) != 1:
        raise SaveError(f"{where}: expected a one-key tag object like {{\"T\": [...]}}, got keys "
                        + (", ".join(map(repr, sorted(data, key=str))) or "none"))
    (tag, body), = data.items()
    if tag == "P":
        if type(body) is not int or not 0 <= body < len(PLAYERS):
            raise SaveError(f"{where}: a player must be a seat number from 0 to {len(PLAYERS) - 1}, "
                            f"not {body!r}")
        return PLAYERS[body]
    if tag == "F":
        if type(body) is not list or len(body) != 2 or any(type(n) is not int for n in body) or body[1] < 2:
            raise SaveError(f"{where}: an exact number must be [numerator, denominator > 1], not {body!r}")
        return exact(Fraction(*body))
    if tag == "T":
        _need(body, list, where, "a list (the items of a tuple)")
        return tuple(decode_value(v, f"{where}[{i}]", game) for i, v in enumerate(body))
    if tag == "O":
        _need(body, dict, where, "an object")
        return {k: decode_value(v, f"{where}.{k}", game) for k, v in body.items()}
    if tag == "D":
        _need(body, list, where, "a list of [key, value] pairs")
        out = {}
        for i, pair in enumerate(body):
            if type(pair) is not list or len(pair) != 2:
                raise SaveError(f"{where}[{i}]: expected a [key, value] pair")
            key = decode_value(pair[0], f"{where}[{i}] key", game)
            value = decode_value(pair[1], f"{where}[{key!r}]", game)
            try:
                out[key] = value
            except TypeError:
                raise SaveError(f"{where}[{i}]: {_describe(key)} cannot be a key") from None
        return out
    if tag == "S":
        _need(body, list, where, "a list (the items of a set)")
        try:
            return frozenset(decode_value(v, f"{where} item", game) for v in body)
        except TypeError:
            raise SaveError(f"{where}: a set item cannot be a list or a dict") from None
    if tag == "shape":
        if game is None:
            raise SaveError(f"{where}: a shape can only be read for a given pack")
        return _shape_named(game, body, where)
    raise SaveError(f"{where}: unknown value tag {tag!r} (expected P, T, O, D, S or shape)")


def _shape_named(game, name, where):
    """The pack's shape called `name`, a family member like `tri(3)` included."""
    shape = game.shape_defs.get(name) if type(name) is str else None
    if shape is None and type(name) is str:
        match = _FAMILY_MEMBER.match(name)
        if match and match.group(1) in game.families:
            try:
                shape = game.families[match.group(1)](int(match.group(2)))
            except ValueError:
                shape = None
    if shape is None:
        raise SaveError(f"{where}: the pack has no shape {name!r}")
    return shape


def _need(value, kind, where, what):
    if type(value) is not kind:
        raise SaveError(f"{where}: expected {what}, got {_describe(value)}")


def _describe(value) -> str:
    if value is None:
        return "null"
    names = {bool: "a boolean", int: "a number", float: "a number", str: "a string", list: "a list",
             dict: "an object", tuple: "a tuple", Player: "a player", Shape: "a shape"}
    return names.get(type(value), f"a {type(value).__name__}")


# ------------------------------------------------------------ the document
_SPECIAL = ("rng", "pending")


def state_fields() -> tuple:
    """The names of State's fields, in declaration order."""
    return tuple(f.name for f in attrs.fields(State) if not f.metadata.get("transient"))


def _optional_fields() -> dict:
    """The State fields a save holds only when they differ from their default: name -> default."""
    return {f.name: f.default for f in attrs.fields(State) if f.metadata.get("optional")}


def state_to_json(game, state: State) -> dict:
    """A JSON-ready dict holding every field of `state`, for `game`'s pack."""
    fields = {}
    optional = _optional_fields()
    for name in state_fields():
        value = getattr(state, name)
        if name in optional and value == optional[name]:
            continue  # an optional field at its default is left out: saves of packs that never set it stay as they were
        if name == "rng":
            fields[name] = _rng_to_json(value)
        elif name == "pending":
            fields[name] = [_pending_to_json(game, seat, p) for seat, p in value.items()]
        else:
            fields[name] = encode_value(value, name, game)
    return {"format": FORMAT_VERSION, "type": STATE_TYPE, "pack": game.id, "pack_hash": game.pack_hash,
            "engine_version": game.engine_version, "state": fields}


def _rng_to_json(rng) -> dict:
    version, internal, gauss_next = rng.getstate()
    return {"version": version, "internal": list(internal), "gauss_next": gauss_next}


def _pending_to_json(game, seat, pending: Pending) -> dict:
    where = f"pending[{seat!r}]"
    choice = None
    if pending.choice is not None:
        move, options, optional, type_index = pending.choice
        choice = {"move": _move_to_json(game, move, where + ".choice.move"),
                  "options": encode_value(options, where + ".choice.options", game),
                  "optional": encode_value(optional, where + ".choice.optional", game),
                  "type": type_index}
    return {"seat": encode_value(seat, where, game),
            "actions": encode_value(pending.actions, where + ".actions", game),
            "repeat": encode_value(pending.repeat, where + ".repeat", game), "choice": choice,
            "required": encode_value(pending.required, where + ".required", game),
            "moved": encode_value(pending.moved, where + ".moved", game)}


def _move_to_json(game, move: Move, where: str) -> dict:
    return {"seat": encode_value(move.seat, where + ".seat", game), "action": move.action,
            "args": encode_value(move.args, where + ".args", game),
            "answers": encode_value(move.answers, where + ".answers", game)}


def check_header(game, data, expected_type: str, force: bool = False, what: str = "saved state") -> None:
    """Refuse a document of another format, type or pack (SaveError).

    With `force`, a document for another version of the same pack (its hash
    differs) is accepted; another pack never is.
    """
    check_format(data, expected_type, what)
    check_pack(game, data, force, what)


def check_format(data, expected_type: str, what: str) -> None:
    if type(data) is not dict:
        raise SaveError(f"this is not a boardrule {what}: expected a JSON object, got {_describe(data)}")
    if "format" not in data:
        raise SaveError(f"this is not a boardrule {what}: it has no `format` field")
    fmt = data["format"]
    if type(fmt) is not int:
        raise SaveError(f"unknown {what} format {fmt!r}; this engine reads format {FORMAT_VERSION}")
    if fmt > FORMAT_VERSION:
        raise SaveError(f"this {what} has format {fmt}, newer than this engine reads ({FORMAT_VERSION}); "
                        "upgrade boardrule to read it")
    if fmt != FORMAT_VERSION:
        raise SaveError(f"unknown {what} format {fmt}; this engine reads format {FORMAT_VERSION}")
    if data.get("type") != expected_type:
        raise SaveError(f"this is not a boardrule {what}: `type` is {data.get('type')!r}, "
                        f"expected {expected_type!r}")


def check_pack(game, data, force: bool = False, what: str = "saved state") -> None:
    """Refuse a document for another pack, or (unless `force`) another version of it."""
    pack, pack_hash = data.get("pack"), data.get("pack_hash")
    if type(pack) is not str:
        raise SaveError(f"this {what} does not say which pack it is for (`pack` is missing or not a string)")
    if type(pack_hash) is not str:
        raise SaveError(f"this {what} has no `pack_hash` string")
    if type(data.get("engine_version")) is not str:
        raise SaveError(f"this {what} has no `engine_version` string")
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
    try:
        return _Reader(game, fields).state()
    except RecursionError:
        raise SaveError("the saved state is nested too deeply to be a state") from None


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
        return decode_value(self.field(name), f"state.{name}", self.game)

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
        from boardrule.interpreter.compiler.game import MAX_SEATS
        out = {}
        seats = out["seats"] = self.integer("seats", 1, MAX_SEATS)
        players = out["players"] = self.typed("players", tuple, "a tuple of seats")
        for seat in players:
            _seat_check(seat, seats, "state.players")
        low, high = game.players_range
        if not low <= len(players) <= high:
            raise SaveError(f"state.players: {game.name} is for {low}-{high} players, not {len(players)}")
        out["options"] = self.typed("options", dict, "an object")
        boards = game.boards if game.shared_board else seats
        size = game.grid.size
        out["kind"] = self.boards("kind", boards, list, size)
        out["owner"] = self.boards("owner", boards, list, size)
        for b, board in enumerate(out["kind"]):
            for c, value in enumerate(board):
                if value is not None and type(value) is not str:
                    raise SaveError(f"state.kind[{b}][{c}]: expected a piece kind or null, got {_describe(value)}")
        for b, board in enumerate(out["owner"]):
            for c, value in enumerate(board):
                if value is not None:
                    _seat_check(value, seats, f"state.owner[{b}][{c}]")
        for name in ("attrs", "held", "tokens"):
            out[name] = self.boards(name, boards, dict)
            wanted = dict if name == "attrs" else tuple
            for b, table in enumerate(out[name]):
                for cell, value in table.items():
                    if type(cell) is not int or not 0 <= cell < size:
                        raise SaveError(f"state.{name}[{b}]: {cell!r} is not a cell of this board")
                    if type(value) is not wanted:
                        raise SaveError(f"state.{name}[{b}][{cell}]: expected "
                                        f"{'an object' if wanted is dict else 'a tuple'}, got {_describe(value)}")
        out["vars"] = self.typed("vars", dict, "an object")
        out["pvars"] = self.per_seat("pvars", seats, dict)
        out["points"] = self.per_seat("points", seats, list)
        for s, entries in enumerate(out["points"]):
            for i, entry in enumerate(entries):
                if type(entry) is not list or len(entry) != 2 or type(entry[0]) is not str:
                    raise SaveError(f"state.points[{s}][{i}]: expected a [label, points] pair")
        out["dice"] = self.typed("dice", dict, "an object")
        out["decks"] = self.typed("decks", dict, "an object")
        if set(out["decks"]) != set(game.decks):
            raise SaveError(f"state.decks: expected the decks {', '.join(sorted(game.decks)) or '(none)'}, "
                            f"got {', '.join(sorted(map(str, out['decks']))) or '(none)'}")
        for name, cards in out["decks"].items():
            if type(cards) is not list:
                raise SaveError(f"state.decks.{name}: expected a list of cards, got {_describe(cards)}")
            for i, card in enumerate(cards):  # bottom first, as the state keeps them
                if type(card) not in (str, int):
                    raise SaveError(f"state.decks.{name}[{i}]: expected a card (a name or a number), "
                                    f"got {_describe(card)}")
        out["rng"] = self.rng()
        phase = out["phase"] = self.field("phase")
        if phase not in PHASES:
            raise SaveError(f"state.phase: expected one of {', '.join(PHASES)}, got {phase!r}")
        steps = game.setup_steps if phase == "setup" else game.round_steps
        out["step"] = self.integer("step", 0, len(steps))
        out["round"] = self.integer("round", 0)
        out["queue"] = self.typed("queue", tuple, "a tuple of seats")
        for seat in out["queue"]:
            _seat_check(seat, seats, "state.queue")
        out["pending"] = self.pending(seats)
        out["finished"] = self.typed("finished", list, "a list of seats")
        for seat in out["finished"]:
            _seat_check(seat, seats, "state.finished")
        out["log"] = self.typed("log", list, "a list")
        for i, entry in enumerate(out["log"]):
            if type(entry) is not list or not entry or type(entry[0]) is not str:
                raise SaveError(f"state.log[{i}]: expected an entry like [\"move\", seat, text]")
        out["steps_run"] = self.integer("steps_run", 0)
        if "to_move_at_end" in self.fields:
            seat = out["to_move_at_end"] = self.field("to_move_at_end")
            if seat is not None:
                _seat_check(seat, seats, "state.to_move_at_end")
        if "positions" in self.fields:
            positions = out["positions"] = self.typed("positions", tuple, "a tuple of position digests")
            for i, digest in enumerate(positions):
                if type(digest) is not str or not _DIGEST.match(digest):
                    raise SaveError(f"state.positions[{i}]: expected a position digest (16 hex digits), "
                                    f"got {_describe(digest)}")
        for field in attrs.fields(State):
            if field.name in out or field.metadata.get("transient"):
                continue
            if field.metadata.get("optional") and field.name not in self.fields:
                out[field.name] = field.default  # left out when it held its default (state_to_json)
                continue
            # a field without a check of its own: generic value, of the type of its default
            value = self.value(field.name)
            default = field.default.factory() if isinstance(field.default, attrs.Factory) else field.default
            if default is not attrs.NOTHING and default is not None and type(value) is not type(default):
                raise SaveError(f"state.{field.name}: expected {_describe(default)}, got {_describe(value)}")
            out[field.name] = value
        return State(**out)

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
            seat = decode_value(item["seat"], where + ".seat", self.game)
            _seat_check(seat, seats, where + ".seat")
            if seat in out:
                raise SaveError(f"{where}: seat {seat!r} has two pending decisions")
            actions = decode_value(item["actions"], where + ".actions", self.game)
            if type(actions) is not tuple or any(type(a) is not str for a in actions):
                raise SaveError(f"{where}.actions: expected a tuple of action names")
            for action in actions:
                if action not in self.game.actions:
                    raise SaveError(f"{where}.actions: the pack has no action `{action}`")
            for key in ("repeat", "moved"):
                if type(item[key]) is not bool:
                    raise SaveError(f"{where}.{key}: expected true or false, got {_describe(item[key])}")
            required = item.get("required", False)  # saves written before `repeat: while possible`
            if type(required) is not bool:
                raise SaveError(f"{where}.required: expected true or false, got {_describe(required)}")
            out[seat] = Pending(actions, item["repeat"], self.choice(item["choice"], where + ".choice", seats),
                                item["moved"], required)
        return out

    def choice(self, data, where, seats):
        if data is None:
            return None
        if type(data) is not dict or not {"move", "options", "optional", "type"} <= set(data):
            raise SaveError(f"{where}: expected null or an object with move, options, optional and type")
        move = _move_from_json(self.game, data["move"], where + ".move", seats)
        options = decode_value(data["options"], where + ".options", self.game)
        if type(options) is not tuple:
            raise SaveError(f"{where}.options: expected a tuple, got {_describe(options)}")
        optional = data["optional"]
        if type(optional) is not bool:
            raise SaveError(f"{where}.optional: expected true or false, got {_describe(optional)}")
        type_index = data["type"]
        if type(type_index) is not int or not 0 <= type_index < len(self.game.choice_types):
            raise SaveError(f"{where}.type: expected the index of a choice of the pack, got {type_index!r}")
        return (move, options, optional, type_index)


def _move_from_json(game, data, where, seats) -> Move:
    if type(data) is not dict:
        raise SaveError(f"{where}: expected an object, got {_describe(data)}")
    for key in ("seat", "action", "args", "answers"):
        if key not in data:
            raise SaveError(f"{where}: no `{key}` field")
    seat = decode_value(data["seat"], where + ".seat", game)
    _seat_check(seat, seats, where + ".seat")
    action = data["action"]
    if type(action) is not str or action not in game.actions:
        raise SaveError(f"{where}.action: expected an action of the pack, got {action!r}")
    args = decode_value(data["args"], where + ".args", game)
    answers = decode_value(data["answers"], where + ".answers", game)
    for key, value in (("args", args), ("answers", answers)):
        if type(value) is not tuple:
            raise SaveError(f"{where}.{key}: expected a tuple, got {_describe(value)}")
    move = Move(seat, action, args, answers)
    try:
        hash(move)
    except TypeError:
        raise SaveError(f"{where}: a move's values cannot be lists or dicts") from None
    return move


def _seat_check(seat, seats, where):
    if type(seat) not in (int, Player) or not 0 <= seat < seats:
        raise SaveError(f"{where}: {seat!r} is not a seat (0 to {seats - 1})")


# -------------------------------------------------------------- comparing
def state_differences(a: State, b: State, limit: int = 10) -> list:
    """Where two states differ, field by field (exact types: Player is not int), at most `limit`."""
    out = []
    for name in state_fields():
        if len(out) >= limit:
            break
        x, y = getattr(a, name), getattr(b, name)
        if name == "rng":
            if x.getstate() != y.getstate():
                out.append("rng: the random generators are in different states")
        elif name == "pending":
            if list(x) != list(y):
                out.append(f"pending: seats {list(x)} != {list(y)}")
                continue
            for seat in x:
                for part in ("actions", "repeat", "choice", "moved"):
                    _diff(getattr(x[seat], part), getattr(y[seat], part), f"pending[{seat!r}].{part}", out, limit)
        else:
            _diff(x, y, name, out, limit)
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
        if {(type(v), v) for v in x} != {(type(v), v) for v in y}:
            out.append(f"{where}: {x!r} != {y!r}")
        return
    if x != y:
        out.append(f"{where}: {x!r} != {y!r}")
