"""Games held by the server: one `Room` per game, its timeline, its seats and what each viewer is shown.

A room answers the play page: the position as one viewer sees it
(`snapshot`), a move typed or picked (`move`), a bot's decision
(`bot_step`), why a move is refused (`explain`), undo, redo, a hint, a save
and the states of a finished game for the replay slider. Everything goes
through the library, as `boardrule play` does; a room only keeps the
seats and says what each person at the table may see.
"""

from __future__ import annotations

import json
import secrets
import tempfile
import threading
from pathlib import Path

from boardrule.cli.play import event_line, fresh_seed
from boardrule.cli.render import render_outcome
from boardrule.cli.web import picking
from boardrule.dsl.diagnostics import BoardruleError, SaveError, UsageError
from boardrule.interpreter import agents, api
from boardrule.interpreter.runtime import flow, reasons, views
from boardrule.interpreter.records import gamelog, timeline
from boardrule.interpreter.runtime import picture as pictures
from boardrule.interpreter.runtime.budget import Meter
from boardrule.interpreter.runtime.values import RuleError

SEAT_KINDS = ("human", "random", "greedy", "mcts", "strong")


class Refused(Exception):
    """A request the game cannot take (a move refused, nothing to undo): its text goes to the page."""


class Room:
    def __init__(self, game, line, seat_kinds, players, seed, options):
        self.game, self.timeline = game, line
        self.players, self.seed, self.options = players, seed, options
        self.lock = threading.Lock()
        self.seat_of, self.agents = {}, {}
        self.names = views.player_names(self.state)  # P1, P2... in turn order, whichever seats they took
        for index, seat in enumerate(self.state.players):
            kind = seat_kinds[index] if index < len(seat_kinds) else "greedy"
            self.seat_of[seat] = kind
            if kind != "human":
                self.agents[seat] = agents.make_agent(kind, seed * 100 + index)
        self.humans = [s for s in self.state.players if s not in self.agents]
        self.hotseat = len(self.humans) > 1
        self.id = None  # given by Rooms.add

    @property
    def state(self):
        return self.timeline.current

    # ------------------------------------------------------------ what a viewer sees
    def default_viewer(self):
        if not self.humans:
            return None
        turn = self.turn()
        return turn if turn in self.humans and not self.hotseat else self.humans[0]

    def turn(self):
        """The seat the game waits for, or None once it is over."""
        if self.state.phase == "over":
            return None
        waiting = flow.waiting(self.state)
        return waiting[0] if waiting else None

    def private(self, seat) -> bool:
        """Would another human at the table see something else than `seat` does now?"""
        mine = pictures.picture(self.game, self.state, seat, names=self.names)
        return any(pictures.picture(self.game, self.state, other, names=self.names) != mine
                   for other in self.humans if other != seat)

    def snapshot(self, viewer) -> dict:
        """The page's whole picture of the game for `viewer` (a human seat; None: everything, once the game is
        over or when only bots play)."""
        game, state = self.game, self.state
        over = state.phase == "over"
        if viewer is not None and viewer not in self.humans:
            raise Refused(f"{self.names[viewer]} is not a human seat of this game")
        shown = None if over else viewer
        turn = self.turn()
        if shown is not None:
            self.timeline.shown(shown)
        out = {
            "id": self.id, "pack": game.id, "name": game.name, "seed": self.seed, "over": over,
            "viewer": shown, "viewer_name": self.names[shown] if shown is not None else None,
            "seats": [{"seat": s, "name": self.names[s], "kind": self.seat_of[s]} for s in state.players],
            "hotseat": self.hotseat, "turn": turn,
            "turn_name": self.names[turn] if turn is not None else None,
            "turn_kind": self.seat_of.get(turn) if turn is not None else None,
            "board": pictures.to_svg(self._picture(shown)),
            "others": self._others_svg(shown),
            "log": self.log_lines(shown),
            "score": self.scores(shown),
            "steps": len(self.timeline.states),
        }
        if turn is not None and turn in self.humans and self.hotseat and turn != shown:
            out["handover"] = {"seat": turn, "name": self.names[turn], "private": self.private(turn)}
        if turn is not None and turn == shown:
            out["decision"] = picking.decision(game, state, turn)
            pending = state.pending.get(turn)
            if pending is not None and pending.choice is not None:
                out["asking"] = api.move_text(pending.choice[0], game)
        if shown is not None:
            target = self.timeline.undo_target(shown, self.humans)
            out["undo"] = isinstance(target, int)
            future = self.timeline.future
            out["redo"] = bool(future) and future[-1][0] == shown
        if over:
            out["outcome"] = render_outcome(game, state, names=self.names)
        return out

    def _picture(self, viewer):
        """The viewer's own board (every board for a spectator), with the legend and the notes."""
        game, state = self.game, self.state
        if game.shared_board or viewer is None:
            return pictures.picture(game, state, viewer, names=self.names)
        return pictures.picture(game, state, viewer, seats=[viewer], names=self.names)

    def _others_svg(self, viewer):
        if self.game.shared_board or viewer is None or len(self.state.players) < 2:
            return None
        others = [s for s in self.state.players if s != viewer]
        return pictures.to_svg(pictures.picture(self.game, self.state, viewer, seats=others, names=self.names))

    def log_lines(self, viewer, state=None) -> list:
        state = state if state is not None else self.state
        open_from = self.timeline.step_start() if state is self.state and state.phase != "over" else None
        told, _ = views.events(self.game, state, viewer, range(len(state.log)), open_from)
        bots = {seat: self.seat_of[seat] for seat in self.agents}
        seating = views.seating_text(state)
        return [event_line(kind, seat, text, times, bots, self.names, seating) for kind, seat, text, times in told]

    def scores(self, viewer) -> dict:
        """The score sheets as they stand; while the game goes on, a player whose sheet could tell the
        others what they keep secret sees only their own."""
        report = api.score_report(self.game, self.state, names=self.names)
        if viewer is not None and self.state.phase != "over" and views.scoring_reads_private(self.game):
            report = dict(report, players=[p for p in report["players"] if p["name"] == self.names[viewer]])
        return report

    # ------------------------------------------------------------ moves
    def move(self, seat, text) -> str:
        """Make `seat`'s move written `text` (as `play` reads it); Refused with the reason if it is not legal."""
        self._check_turn(seat)
        try:
            move = flow.parse_move(self.game, self.state, seat, text)
        except BoardruleError:
            raise Refused(self.refusal(seat, text)) from None
        self.timeline.add(flow.apply(self.game, self.state, move), seat)
        return api.move_text(move, self.game)

    def _check_turn(self, seat):
        if self.state.phase == "over":
            raise Refused("the game is over")
        if seat not in self.humans:
            raise Refused(f"{self.names[seat]} is not a human seat of this game")
        if seat not in flow.waiting(self.state):
            raise Refused(f"it is not {self.names[seat]}'s turn")

    def refusal(self, seat, text) -> str:
        """Why `text` is not a legal move of `seat` now, in the players' words (reasons.refusal)."""
        try:
            reason = reasons.refusal(self.game, self.state, seat, text)
        except (BoardruleError, RuleError, ValueError, KeyError, IndexError, TypeError):
            reason = None
        if reason is None:
            try:
                flow.parse_move(self.game, self.state, seat, text)
                return "that move is legal"
            except BoardruleError as err:
                reason = err.diagnostics[0].message
        return f"`{text}`: {reason}"

    def bot_step(self):
        """The bot whose turn it is decides and moves: (its seat, the move's text), or None."""
        seat = self.turn()
        if seat is None or seat not in self.agents:
            return None
        moves = flow.legal_moves(self.game, self.state, seat)
        move = agents.decide(self.agents[seat], self.game, self.state, seat, moves, self.seed)
        self.timeline.add(flow.apply(self.game, self.state, move), seat)
        return seat, api.move_text(move, self.game)

    def undo(self, seat) -> str:
        taken = self.timeline.undo(seat, self.humans)
        if isinstance(taken, str):
            raise Refused(f"nothing to undo: {taken}")
        return "undone: " + ", ".join(f"`{t}`" for t in taken.own)

    def redo(self, seat) -> str:
        taken = self.timeline.redo(seat)
        if isinstance(taken, str):
            raise Refused(taken)
        return "redone: " + ", ".join(f"`{t}`" for t in taken.own)

    def hint(self, seat) -> str:
        self._check_turn(seat)
        move = agents.hint(self.game, self.state, seat, self.seed)
        if move is None:
            raise Refused("no hint here")
        return api.move_text(move, self.game)

    # ------------------------------------------------------------ saves and the replay
    def save_data(self) -> dict:
        """The save `boardrule play --resume` and `boardrule replay` read (gamelog.record, with the seats)."""
        data = gamelog.record(self.game, self.state, self.players, self.seed, self.options)
        data["agents"] = [self.seat_of[s] for s in self.state.players]
        gamelog.check_log(data)
        return data

    def replay(self, index) -> dict:
        """The position after the `index`-th state of the game (0: the start), as everyone may see it once the
        game is over."""
        if self.state.phase != "over":
            raise Refused("the replay is for a finished game")
        states = self.timeline.states
        if not 0 <= index < len(states):
            raise Refused(f"the game has {len(states)} positions, 0 to {len(states) - 1}")
        state = states[index]
        board = pictures.to_svg(pictures.picture(self.game, state, names=self.names))
        return {"index": index, "steps": len(states), "board": board, "log": self.log_lines(None, state)}


# ------------------------------------------------------------------ making rooms
class Rooms:
    """The games the server holds, by id."""

    def __init__(self):
        self.rooms = {}
        self.lock = threading.Lock()

    def get(self, room_id) -> Room:
        room = self.rooms.get(room_id)
        if room is None:
            raise Refused(f"no game `{room_id}` here (the server forgets its games when it stops)")
        return room

    def add(self, room) -> str:
        with self.lock:
            room_id = room.id = secrets.token_hex(6)
            self.rooms[room_id] = room
        return room_id


def seat_kinds_of(game, seats) -> list:
    """The seats asked for, checked: a list of human or agent names, within the pack's player count."""
    if not isinstance(seats, list) or not seats or not all(isinstance(s, str) for s in seats):
        raise Refused("seats: a list such as [\"human\", \"greedy\"]")
    low, high = game.players_range
    if not low <= len(seats) <= high:
        raise Refused(f"{game.name} is for {low} to {high} players, not {len(seats)}")
    for kind in seats:
        if kind != "human":
            try:
                agents.make_agent(kind)
            except UsageError as err:
                raise Refused(err.diagnostics[0].message) from None
    return seats


def new_room(game, seats, seed=None, options=None, budget=1.0) -> Room:
    kinds = seat_kinds_of(game, seats)
    seed = fresh_seed() if seed is None else seed
    options = dict(options or {})
    state = api.new_game(game, len(kinds), seed, options, meter=Meter.scaled(budget))
    return Room(game, timeline.Timeline(game, [state]), kinds, len(kinds), seed, options)


def room_from_save(open_pack, text, budget=1.0) -> Room:
    """A room from the text of a save file (`boardrule play --save` or the page's own); `open_pack` opens the
    pack the save names among those the server serves (by name or by the pack's id)."""
    try:
        data = json.loads(text)
    except (ValueError, TypeError):
        raise Refused("this file is not a boardrule save (not JSON)") from None
    pack_id = data.get("pack") if isinstance(data, dict) else None
    if not isinstance(pack_id, str):
        raise Refused("this file is not a boardrule save (it names no pack)")
    game = open_pack(pack_id)  # one of the packs the server serves, by name or id: a save chooses no file
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game.boardrule.json"
        path.write_text(text, encoding="utf-8")
        try:
            log = gamelog.load(path, game)
            line = timeline.from_log(game, log, Meter.scaled(budget))
        except SaveError as err:
            raise Refused(f"this save does not load: {err.diagnostics[0].message}") from None
    kinds = log.get("agents") or ["human"] * log["players"]
    for kind in kinds:
        if kind != "human" and kind not in SEAT_KINDS and kind.partition(":")[0] not in SEAT_KINDS:
            raise Refused(f"the save names an unknown seat `{kind}`")
    return Room(game, line, kinds, log["players"], log["seed"], log.get("options", {}))
