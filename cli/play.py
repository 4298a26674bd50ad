"""`boardrule play`: hot-seat games in the terminal, with bots.

Humans type a move in its notation (`play B2`) or its number in the menu,
or a command: help, moves, explain MOVE, score, undo, save [FILE], quit.
"""

from __future__ import annotations

import sys

import click

from boardrule.dsl.diagnostics import BoardruleError, UsageError
from boardrule.interpreter import api, flow
from boardrule.interpreter.agents import make_agent
from boardrule.interpreter.moves import move_label
from boardrule.interpreter.values import PLAYERS

HELP = """Type a move as listed (e.g. `play B2`) or its number. Commands:
  moves          list the legal moves
  explain MOVE   say why a move is not legal
  score          the current score sheets
  undo           take back your last decision
  save [FILE]    save the game
  quit           stop (asks to save)"""


def run_play(pack, seats, players, seed, options, save_path, resume_path, color) -> int:
    game = api.open_game(pack)
    color = sys.stdout.isatty() if color is None else color
    if resume_path:
        from boardrule.interpreter import gamelog
        log = gamelog.load(resume_path)
        state = gamelog.replay(game, log)
        players, seed, options = log["players"], log["seed"], log.get("options", {})
        seat_kinds = log.get("agents") or _seat_kinds(seats, players, game)
    else:
        seat_kinds = _seat_kinds(seats, players, game)
        players = len(seat_kinds)
        seed = seed if seed is not None else 1
        state = api.new_game(game, players, seed, options)
    session = Session(game, state, seat_kinds, players, seed, options, save_path, color)
    return session.run()


def _seat_kinds(seats, players, game) -> list:
    if seats is None:
        low = game.players_range[0]
        count = players or max(low, min(2, game.players_range[1]))
        return ["human"] + ["greedy"] * (count - 1)
    kinds = [s.strip() for s in seats.split(",") if s.strip()]
    if players is not None and players != len(kinds):
        raise UsageError(f"--players {players} but --seats names {len(kinds)} seats", code="E006")
    for kind in kinds:
        if kind != "human":
            make_agent(kind)
    return kinds


class Session:
    def __init__(self, game, state, seat_kinds, players, seed, options, save_path, color):
        self.game, self.state = game, state
        self.history = [state]
        self.players, self.seed, self.options = players, seed, options
        self.save_path, self.color = save_path, color
        self.seat_of = {}
        self.agents = {}
        for index, seat in enumerate(state.players):
            kind = seat_kinds[index] if index < len(seat_kinds) else "greedy"
            self.seat_of[seat] = kind
            if kind != "human":
                self.agents[seat] = make_agent(kind, seed * 100 + index)

    def run(self) -> int:
        from boardrule.cli.render import render_legend, render_state
        click.echo(f"{self.game.name}: " + ", ".join(f"{PLAYERS[s]!r} {k}" for s, k in self.seat_of.items()))
        click.echo(render_legend(self.game))
        shown = None
        while self.state.phase != "over":
            if shown is not self.state:
                click.echo()
                click.echo(render_state(self.game, self.state, color=self.color))
                shown = self.state
            seat = flow.waiting(self.state)[0]
            moves = flow.legal_moves(self.game, self.state, seat)
            if seat in self.agents:
                move = self.agents[seat](self.game, self.state, seat, moves)
                click.echo(f"{PLAYERS[seat]!r} ({self.seat_of[seat]}): {api.move_text(move, self.game)}")
                self._apply(move)
                continue
            if not self._human_turn(seat, moves):
                return 0
        self._finish()
        return 0

    def _apply(self, move):
        self.state = flow.apply(self.game, self.state, move)
        self.history.append(self.state)
        if self.save_path:
            self._save(self.save_path, quiet=True)

    def _human_turn(self, seat, moves) -> bool:
        menu = [api.move_text(m, self.game) for m in moves]
        click.echo(f"{PLAYERS[seat]!r} to move ({len(moves)} legal moves; `moves` lists them, `help` for more)")
        while True:
            try:
                line = click.prompt(f"{PLAYERS[seat]!r}", default="", show_default=False).strip()
            except (EOFError, click.Abort):
                click.echo()
                return self._quit(ask=False)
            if not line:
                continue
            word, _, rest = line.partition(" ")
            if line.isdigit() and 1 <= int(line) <= len(moves):
                self._apply(moves[int(line) - 1])
                return True
            if word == "help":
                click.echo(HELP)
            elif word == "moves":
                for i, (text, move) in enumerate(zip(menu, moves), 1):
                    click.echo(f"  {i:>3}. {text:<24} {move_label(move, self.game)}")
            elif word == "score":
                from boardrule.cli.render import render_sheets
                click.echo(render_sheets(api.score_report(self.game, self.state)))
            elif word == "undo":
                if self._undo(seat):
                    return True
            elif word == "save":
                self._save(rest.strip() or self.save_path or "game.boardrule.json")
            elif word == "quit":
                return self._quit(ask=True)
            elif word == "explain":
                self._explain(seat, rest)
            else:
                try:
                    self._apply(flow.parse_move(self.game, self.state, seat, line))
                    return True
                except BoardruleError as err:
                    advice = "; type `moves` to list them" if err.diagnostics[0].code == "E504" else ""
                    click.echo(f"  {err.diagnostics[0].message}{advice}")

    def _explain(self, seat, text):
        try:
            flow.parse_move(self.game, self.state, seat, text)
            click.echo("  that move is legal")
        except BoardruleError as err:
            click.echo(f"  {err.diagnostics[0].message}")

    def _undo(self, seat) -> bool:
        # back to this player's last decision, unless a chance step or another
        # player's decision came after it
        for index in range(len(self.history) - 2, -1, -1):
            earlier = self.history[index]
            if seat in earlier.pending:
                later_log = self.history[-1].log[len(earlier.log):]
                if any(entry[0] != "move" or entry[1] != seat for entry in later_log):
                    break
                self.history = self.history[:index + 1]
                self.state = earlier
                click.echo("  undone")
                return True
        click.echo("  nothing to undo: a chance step or another player's decision came after your last move")
        return False

    def _save(self, path, quiet=False):
        from boardrule.interpreter import gamelog
        data = gamelog.record(self.game, self.state, self.players, self.seed, self.options)
        data["agents"] = [self.seat_of[s] for s in self.state.players]
        gamelog.save(path, data)
        if not quiet:
            click.echo(f"  saved to {path}")

    def _quit(self, ask) -> bool:
        if ask and click.confirm("save before quitting?", default=True):
            self._save(self.save_path or "game.boardrule.json")
        return False

    def _finish(self):
        from boardrule.cli.render import render_sheets, render_state
        click.echo()
        click.echo(render_state(self.game, self.state, color=self.color))
        click.echo("game over")
        click.echo(render_sheets(api.score_report(self.game, self.state)))
