"""`boardrule play`: games in the terminal, hot-seat with hidden information, with bots.

Humans type a move in its notation (`play B2`) or its number in the menu,
or a command: help, moves [TEXT], explain MOVE, rules [NAME], status, score,
undo, save [FILE], quit. Under the boards a screen shows the deck sizes and
values that changed since that player's last screen (`status` shows them
all), and `rules` draws the pieces' patterns and rules from the pack
(`interpreter.rulesdoc`). Before a human's decision that shows what another human at the table
must not see, the screen is cleared and waits for that player to press Enter,
then shows only their view (`interpreter.views`). Ctrl-C and the end of the
input offer to save (or save at once when nobody can answer): a game in
progress is never lost.
"""

from __future__ import annotations

import secrets
import sys

import click

from boardrule.cli.render import color_default, picture_text, render_outcome, render_sheets
from boardrule.dsl.diagnostics import BoardruleError, SaveError, UsageError
from boardrule.interpreter import agents, api
from boardrule.interpreter.runtime import flow, reasons, views
from boardrule.interpreter.records import gamelog, timeline
from boardrule.interpreter.designer import rulesdoc
from boardrule.interpreter.runtime import picture as pictures
from boardrule.interpreter.agents import make_agent
from boardrule.interpreter.runtime.budget import Meter
from boardrule.interpreter.runtime.moves import move_label
from boardrule.interpreter.runtime.values import PLAYERS, RuleError

MENU_MAX = 24  # moves listed at the prompt without asking; more are listed by `moves`

HELP = """Type a move as the menu shows it (e.g. `{example}`) or its number. Commands:
  moves [TEXT]   list the legal moves (those containing TEXT)
  explain MOVE   say why a move is not legal
  preview MOVE   the board after a move, without making it (a move typed in part: each that fits, in turn)
  rules [NAME]   the pieces in play with their patterns; with a NAME (a piece, its symbol, or an action),
                 its pattern drawn and what it does
  status         every value of the game, changed or not (a screen shows only what changed)
  score          the score sheets as they stand
  debug          the game's variables as they are (what `status` says in the pack's words)
  board          show the board again
  undo           take back your last decision (and the bots' replies and the rolls after it)
  redo           play again what `undo` took back
  hint           the move the strongest bot would make here (about a second)
  save [FILE]    save the game (resume it with --resume FILE)
  quit           stop (asks to save)
  help           this text
(where the game has an action named like a command, type `:` before the command: `:score`)"""


class Quit(Exception):
    """The player stops the game; `code` is the exit code."""

    def __init__(self, code=0):
        super().__init__(code)
        self.code = code


def run_play(pack, seats, players, seed, options, save_path, resume_path, color, budget=1.0) -> int:
    game = api.open_game(pack)
    meter = Meter.scaled(budget)
    color = color_default() if color is None else color
    if resume_path:
        if players is not None or seed is not None or options:
            raise UsageError("--resume continues a saved game with its own players, seed and options: "
                             "leave out --players, --seed and --option", code="E001")
        log = gamelog.load(resume_path, game)
        line = timeline.from_log(game, log, meter)
        players, seed, options = log["players"], log["seed"], log.get("options", {})
        if seats is not None:
            seat_kinds = _seat_kinds(seats, players, game)
        else:
            seat_kinds = log.get("agents") or ["human"] * players
            for kind in seat_kinds:
                if kind != "human":
                    make_agent(kind)
        save_path = save_path or resume_path
    else:
        seat_kinds = _seat_kinds(seats, players, game)
        players = len(seat_kinds)
        seed = seed if seed is not None else fresh_seed()
        line = timeline.Timeline(game, [api.new_game(game, players, seed, options, meter=meter)])
    session = Session(game, line, seat_kinds, players, seed, options, save_path, color,
                      resumed=bool(resume_path))
    return session.run()


SEED_RANGE = 100_000  # a fresh seed is one of these: short enough to type again


def fresh_seed() -> int:
    """A seed nobody chose: each game without `--seed` is a new one (printed, and kept in the save)."""
    return secrets.randbelow(SEED_RANGE)


def _seat_kinds(seats, players, game) -> list:
    if seats is None:
        low, high = game.players_range
        count = players or max(low, min(2, high))
        return ["human"] + ["greedy"] * (count - 1)
    kinds = [s.strip() for s in seats.split(",") if s.strip()]
    if not kinds:
        raise UsageError("--seats names no seat; write e.g. `human,greedy`", code="E001")
    if players is not None and players != len(kinds):
        raise UsageError(f"--players {players} but --seats names {len(kinds)} seats", code="E006")
    for kind in kinds:
        if kind != "human":
            make_agent(kind)
    return kinds


class Session:
    def __init__(self, game, line, seat_kinds, players, seed, options, save_path, color, resumed=False):
        self.game = game
        self.timeline = line
        self.players, self.seed, self.options = players, seed, options
        self.save_path, self.color = save_path, color
        self.seat_of, self.agents = {}, {}
        self.names = views.player_names(self.state)  # P1, P2... in turn order, whichever seats they took
        for index, seat in enumerate(self.state.players):
            kind = seat_kinds[index] if index < len(seat_kinds) else "greedy"
            self.seat_of[seat] = kind
            if kind != "human":
                self.agents[seat] = make_agent(kind, seed * 100 + index)
        self.humans = [s for s in self.state.players if s not in self.agents]
        self.hotseat = len(self.humans) > 1
        self.owner = self.humans[0] if len(self.humans) == 1 else None  # who sits at the screen
        self.resumed = resumed
        self.log_start = len(self.state.log) if self.resumed else 0
        self.log_done = {}  # viewer -> how much of the log their screen has told
        self.held = {}  # viewer -> log entries not told yet: moves of a decision all make at once, still open
        self.shown = None  # (state, viewer) on the screen
        self.seen = {}  # viewer -> (state on their last screen, the state its notes were compared with)
        self.hinted = set()  # the seats whose first prompt has named `rules`
        self.numbers = []  # the menu's number of each legal move (reasons.menu_numbers)
        self.pending_line = None  # a line typed while stepping through previews: handled as typed

    @property
    def state(self):
        return self.timeline.current

    # ------------------------------------------------------------ output
    def echo(self, text=""):
        click.echo(text, color=self.color)

    def say(self, text):
        """A one-line message at the prompt."""
        self.echo("  " + " ".join(str(text).split()))

    # ------------------------------------------------------------ the game
    def run(self) -> int:
        try:
            return self._run()
        except Quit as stop:
            return stop.code
        except KeyboardInterrupt:
            self.echo()
            return self._stop("interrupted", 130)
        except RecursionError:
            self.echo("error[E700]: a rule of the pack failed: the rules nest too deeply to evaluate")
            return self._stop("the game cannot go on", 1, failed=True)
        except RuleError as err:  # a fault of the pack: say so, and keep the game up to the move that failed
            where = f"{err.span}: " if err.span is not None else ""
            self.echo(f"{where}error[E700]: a rule of the pack failed: {err}")
            return self._stop("the game cannot go on", 1, failed=True)

    def _run(self) -> int:
        who = ", ".join(f"{self.names[s]} {k}" for s, k in self.seat_of.items())
        self.echo(f"{self.game.name}: {who}")
        if self.resumed:
            made = sum(1 for e in self.state.log if e[0] == "move")
            self.echo(f"resumed after {made} move{'' if made == 1 else 's'} (seed {self.seed})")
        else:
            self.echo(f"seed {self.seed}; replay with --seed {self.seed}")
        while self.state.phase != "over":
            seat = flow.waiting(self.state)[0]
            if seat in self.agents:
                self._bot_turn(seat)
                continue
            if self.hotseat and seat != self.owner and self._private(seat):
                self._hand_over(seat)
            self.owner = seat if self.hotseat else self.owner
            self._show(seat)
            self._human_turn(seat)
        self._finish()
        return 0

    def _bot_turn(self, seat):
        if not self.humans:
            self._show(None)
        moves = flow.legal_moves(self.game, self.state, seat)
        move = agents.decide(self.agents[seat], self.game, self.state, seat, moves, self.seed)
        self._apply(move)

    def _apply(self, move):
        self.timeline.add(flow.apply(self.game, self.state, move), move.seat)
        if self.save_path:
            self._save(self.save_path, quiet=True)

    # ------------------------------------------------------------ the screen
    def _viewer(self, seat):
        return seat if self.humans else None

    def _screen(self, viewer, since=None) -> str:
        pic = pictures.picture(self.game, self.state, viewer, since=since, names=self.names)
        return picture_text(pic, self.color)

    def _private(self, seat) -> bool:
        """Would another human at the table see something else than `seat` does now?"""
        mine = self._screen(seat)
        return any(self._screen(other) != mine for other in self.humans if other != seat)

    def _hand_over(self, seat):
        if _is_terminal():  # clear the screen and what scrolled off it: the last player's view goes
            click.echo("\033[3J\033[2J\033[H", nl=False, color=True)
        else:
            self.echo("\n" + "-" * 60)
        name = self.names[seat]
        self.echo(f"{name}'s turn: pass the keyboard to {name}; everyone else, look away.")
        if self._ask(f"{name}, press Enter to see your view ") is None:
            raise Quit(self._stop("the input ended", 0))
        self.shown = None

    def _show(self, viewer):
        key = (self.state, viewer)
        events = self._events(viewer)
        for line in events:
            self.echo(line)
        if self.shown == key:
            return
        last, since = self.seen.get(viewer, (None, None))
        if last is not self.state:  # a new screen: its notes say what changed since the last one
            since = last
        self.seen[viewer] = (self.state, since)
        if viewer in self.humans:
            self.timeline.shown(viewer)
        self.echo()
        self.echo(self._screen(self._viewer(viewer), since))
        hidden = pictures.unchanged(self.game, self.state, since, viewer=self._viewer(viewer),
                                    names=self.names) \
            if since is not None else []
        if hidden:
            values = f"{len(hidden)} value{'s' if len(hidden) != 1 else ''} unchanged"
            self.echo(f"({values} since your last screen: `status` shows all)" if self.humans
                      else f"({values} since the last step)")
        self.shown = key

    def _events(self, viewer) -> list:
        """What happened since the screen was last drawn, as `viewer` may be told it (views.events): moves
        (their secret values `?`), rolls, passes (and draws, for spectators)."""
        state = self.state
        indices = self.held.get(viewer, []) + list(range(self.log_done.get(viewer, self.log_start), len(state.log)))
        step_start = self.timeline.step_start() if state.phase != "over" else None
        told, held = views.events(self.game, state, viewer if self.humans else None, indices, step_start)
        self.log_done[viewer], self.held[viewer] = len(state.log), held
        bots = {seat: self.seat_of[seat] for seat in self.agents}
        seating = views.seating_text(state)
        return [event_line(kind, seat, text, times, bots, self.names, seating) for kind, seat, text, times in told]

    # ------------------------------------------------------------ a human's turn
    def _human_turn(self, seat):
        moves = flow.legal_moves(self.game, self.state, seat)
        menu = [api.move_text(m, self.game) for m in moves]
        self.numbers = reasons.menu_numbers(self.game, moves)
        pending = self.state.pending.get(seat)
        if pending is not None and pending.choice is not None:
            asked = api.move_text(pending.choice[0], self.game)
            self.echo(f"`{asked}` asks a choice: type a number, the answer alone, or the whole move")
        if len(moves) <= MENU_MAX:
            self._menu(moves, menu)
        else:
            self.echo(f"{len(moves)} legal moves, e.g. `{menu[0]}`: type `moves TEXT` to list those with TEXT")
        if seat not in self.hinted and self._ruled():
            self.echo(f"{self.names[seat]} to move: a number, a move, `rules` (the pieces, their patterns "
                      "and what they do) or `help`")
        else:
            self.echo(f"{self.names[seat]} to move: a number, a move, or `help`")
        self.hinted.add(seat)
        while True:
            line, self.pending_line = self.pending_line or self._prompt(seat), None
            if not line:
                continue
            if self._command(seat, line, moves, menu):
                return

    def _prompt(self, seat) -> str:
        line = self._ask(f"{self.names[seat]}> ")
        if line is None:
            raise Quit(self._stop("the input ended", 0))
        return line.strip()

    def _ask(self, prompt):
        """A line typed after `prompt`, or None at the end of the input (Ctrl-C raises KeyboardInterrupt)."""
        sys.stdout.flush()
        try:
            return input(prompt)
        except EOFError:
            self.echo()
            return None

    def _menu(self, moves, menu, only=None, among=None):
        chosen = [(number, text, move) for number, text, move in zip(self.numbers, menu, moves)
                  if (among is None or move in among) and (
                      not only or only.lower() in text.lower() or only.lower() in move_label(move, self.game).lower())]
        chosen.sort(key=lambda item: item[0])
        if not chosen:
            self.say(f"no legal move contains `{only}`")
            return
        rows = [f"  {index:>3}. {text}" for index, text, _ in chosen]
        width = max(len(r) for r in rows) + 2
        labelled = [m for _, _, m in chosen if getattr(self.game.actions.get(m.action), "label", None)]
        if len(rows) <= 10 and labelled:  # one a line, with what the action's `label:` says
            for row, (_, _, move) in zip(rows, chosen):
                self.echo(f"{row.ljust(width)}{move_label(move, self.game)}")
            return
        per_line = max(1, 78 // width)
        for start in range(0, len(rows), per_line):
            self.echo("".join(r.ljust(width) for r in rows[start:start + per_line]).rstrip())

    def _command(self, seat, line, moves, menu) -> bool:
        """Handle one line; True when the decision is made (or undone)."""
        word, _, rest = line.partition(" ")
        word = word.lower()
        rest = rest.strip()
        if word.startswith(":"):  # `:score`: the command, even where an action has its name
            word = word[1:]
        elif word in self.game.actions or word == "done":
            return self._typed_move(seat, line)
        if line.isdigit():
            number = int(line)
            if number in self.numbers:
                self._apply(moves[self.numbers.index(number)])
                return True
            self.say(f"there is no move {number}: the menu's numbers run from {min(self.numbers, default=0)} "
                     f"to {max(self.numbers, default=0)}")
            return False
        if word in ("help", "?"):
            self.echo(HELP.format(example=menu[0] if menu else "done"))
        elif word == "moves":
            self._menu(moves, menu, rest or None)
        elif word == "board":
            self.shown = None
            self._show(seat)
        elif word == "score":
            self._score(seat)
        elif word == "status":
            self._status(seat)
        elif word == "debug":
            self._status(seat, raw=True)
        elif word == "rules":
            self._rules(seat, rest, menu)
        elif word == "undo":
            return self._undo(seat)
        elif word == "redo":
            return self._redo(seat)
        elif word == "hint":
            self._hint(seat)
        elif word == "save":
            self._save(rest or self.save_path or self.default_save())
        elif word in ("quit", "exit"):
            raise Quit(self._stop(None, 0))
        elif word == "explain":
            self._explain(seat, rest)
        elif word == "preview":
            self._preview(seat, rest, moves, menu)
        else:
            return self._typed_move(seat, line)
        return False

    def _typed_move(self, seat, line) -> bool:
        pending = self.state.pending.get(seat)
        tries = [line]
        if pending is not None and pending.choice is not None and "/" not in line:
            tries.append(api.move_text(pending.choice[0], self.game) + " / " + line)
        for text in tries:
            try:
                move = flow.parse_move(self.game, self.state, seat, text)
            except BoardruleError:
                continue
            self._apply(move)
            return True
        fits = reasons.completions(self.game, self.state, seat, line)
        if len(fits) == 1:  # the rest of the move is determined: `drop d`
            self.say(f"`{line}`: {api.move_text(fits[0], self.game)}")
            self._apply(fits[0])
            return True
        if fits:
            self._several(seat, line, fits)
            return False
        self.say(self._refusal(seat, line) + "; `moves` lists the legal ones")
        return False

    def _several(self, seat, line, fits):
        """A move typed in part that several moves fit: list them, with their numbers in the menu."""
        moves = flow.legal_moves(self.game, self.state, seat)
        menu = [api.move_text(m, self.game) for m in moves]
        if len(fits) > MENU_MAX * 2:
            self.say(f"{len(fits)} moves fit `{line}`, e.g. `{api.move_text(fits[0], self.game)}`: type more of it")
            return
        self.say(f"{len(fits)} moves fit `{line}`: type a number, or `preview {line}` to see each on the board")
        self._menu(moves, menu, among=set(fits))

    def _refusal(self, seat, text) -> str:
        try:
            reason = reasons.refusal(self.game, self.state, seat, text)
        except (BoardruleError, RuleError, ValueError, KeyError, IndexError, TypeError):
            reason = None  # an explanation is a courtesy: the parse error will do
        if reason is None:
            try:
                flow.parse_move(self.game, self.state, seat, text)
                return "that move is legal"
            except BoardruleError as err:
                reason = err.diagnostics[0].message
        return f"`{text}`: {reason}"

    def _score(self, seat):
        from boardrule.interpreter.runtime.views import scoring_reads_private
        report = api.score_report(self.game, self.state, names=self.names)
        if scoring_reads_private(self.game):  # others' sheets could tell what they hold
            report = dict(report, players=[p for p in report["players"] if p["name"] == self.names[seat]])
        self.echo(render_sheets(report).rsplit("\n", 1)[0] + "\n(so far; the game is not over)")

    def _status(self, seat, raw=False):
        """Every deck's size and every value this player may see, changed or not; `raw`: the game's
        variables as they are, not the values the pack's status declares (`debug`)."""
        from boardrule.interpreter.runtime.views import view
        state = view(self.game, self.state, seat)
        lines = pictures.notes(self.game, state, every_deck=True, viewer=seat, raw=raw, names=self.names)
        self.echo("\n".join(lines) if lines else "  this game keeps no values besides the boards")

    def _ruled(self) -> list:
        """The piece kinds with rules of their own (a pattern, a placement rule, a score...)."""
        return [p for p in self.game.model.pieces if rulesdoc.has_rules(self.game, p)]

    def _rules(self, seat, name, menu):
        """`rules`: the piece kinds in play, one line each; `rules NAME`: one piece kind or action in full."""
        ruled = self._ruled()
        if name.lower() == "all" and "all" not in {p.name for p in self.game.model.pieces}:
            if ruled:
                self._rule_lines(ruled, f"every piece with rules of its own ({len(ruled)}):")
            shapes = rulesdoc.other_shapes(self.game)
            if shapes:
                self.echo("shapes (rows separated by `/`):")
                width = min(max(len(s.name) for s in shapes), 16)
                for shape in shapes:
                    self.echo(f"  {shape.name.ljust(width)}  {rulesdoc.shape_line(shape)}")
            return
        if name:
            found = rulesdoc.lookup(self.game, name)
            if len(found) > 1:
                names = ", ".join(t.name for t in found[:12]) + (", ..." if len(found) > 12 else "")
                self.say(f"`{name}` may mean {names}: type more of the name")
                return
            if not found:
                self.say(f"no piece or action is called `{name}`; `rules` lists the pieces in play")
                return
            topic = found[0]
            if topic in self.game.model.actions:
                self.echo(rulesdoc.to_text(rulesdoc.action_blocks(topic)))
            elif topic in self.game.model.shapes:
                self.echo(rulesdoc.to_text(rulesdoc.shape_blocks(self.game, topic)))
            elif rulesdoc.has_rules(self.game, topic):
                self.echo(rulesdoc.to_text(rulesdoc.piece_blocks(self.game, topic)))
            else:
                self.say(f"`{topic.name}` ({topic.symbol}) has no pattern or rule of its own: the moves that "
                         "place it say what it does")
            return
        named = self._named(seat, menu)
        shapes = [s for s in rulesdoc.other_shapes(self.game) if s.name in named]
        if not ruled and not shapes:
            example = menu[0].split()[0] if menu else next(iter(self.game.actions), "MOVE")
            self.say(f"the pieces of this game have no rules of their own; `rules {example}` says what "
                     f"a move `{example}` does")
            return
        now = [p for p in ruled if p.name in named]
        if ruled and not now:
            self._rule_lines(ruled, f"pieces with rules of their own ({len(ruled)}):")
        elif now:
            more = f"; `rules all` lists all {len(ruled)}" if len(now) < len(ruled) else ""
            self._rule_lines(now, f"pieces in play (on the board, in the values or in your moves){more}:")
        if shapes:
            self.echo("shapes in play (rows separated by `/`):")
            width = max(len(s.name) for s in shapes)
            for shape in shapes:
                self.echo(f"  {shape.name.ljust(width)}  {rulesdoc.shape_line(shape)}")
        self.echo("(`rules NAME` draws one in full: its pattern every way it may be turned, and what it does)")

    def _rule_lines(self, pieces, head):
        self.echo(head)
        say = rulesdoc.Phrases(self.game.model)
        symbol = max(len(p.symbol) for p in pieces)
        name = min(max(len(p.name) for p in pieces), 16)
        for p in pieces:
            self.echo(f"  {p.symbol.ljust(symbol)}  {p.name.ljust(name)}  {rulesdoc.piece_line(self.game, p, say)}"
                      .rstrip())

    def _named(self, seat, menu) -> set:
        """The piece kinds and shapes this player's position names: on the boards, in the dice and values,
        in the moves."""
        from boardrule.interpreter.runtime.views import view
        kinds = {p.name for p in self.game.model.pieces} | {s.name for s in self.game.model.shapes}
        state = view(self.game, self.state, seat)
        pic = pictures.picture(self.game, self.state, seat, names=self.names)
        found = {c.kind for b in pic.boards for c in b.cells if c.kind} | {k for b in pic.boards for c in b.cells
                                                                             for k in c.inner}

        def walk(value):
            if isinstance(value, str):
                if value in kinds:
                    found.add(value)
            elif isinstance(value, (list, tuple)):
                for item in value:
                    walk(item)
            elif isinstance(value, dict):
                for item in value.values():
                    walk(item)

        walk(list(state.dice.values()))
        walk(list(state.vars.values()))
        walk([list(state.pvars[s].values()) for s in state.players])
        walk([word for text in menu for word in text.replace("+", " ").split()])
        return found

    def _explain(self, seat, text):
        if not text:
            self.say("explain which move? e.g. `explain " + (api.move_text(
                flow.legal_moves(self.game, self.state, seat)[0], self.game)) + "`")
            return
        try:
            move = flow.parse_move(self.game, self.state, seat, text)
            self.say(f"`{api.move_text(move, self.game)}` is legal now")
            return
        except BoardruleError:
            pass
        self.say(self._refusal(seat, text))
        rule = self._rule_refusing(seat, text)
        if rule:
            self.say(f"(the rule: {rule})")

    def _rule_refusing(self, seat, text):
        """The pack's rule that refuses a move, as a designer reads it (flow.explain_illegal)."""
        from boardrule.interpreter.designer.scenarios import _typed_guess
        try:
            move = _typed_guess(self.game, self.state, seat, text)
            if move.action not in self.state.pending[seat].actions:
                return None
            return flow.explain_illegal(self.game, self.state, move)
        except Exception:  # a move that cannot even be read has no rule to name
            return None

    def _preview(self, seat, text, moves, menu):
        """The board as it would be after a move (or each move a text typed in part fits, one after the
        other), without making it."""
        if not text:
            self.say("preview which move? e.g. `preview " + (menu[0] if menu else "MOVE") + "`")
            return
        if text.isdigit() and int(text) in self.numbers:
            fits = [moves[self.numbers.index(int(text))]]
        else:
            try:
                fits = [flow.parse_move(self.game, self.state, seat, text)]
            except BoardruleError:
                fits = reasons.completions(self.game, self.state, seat, text)
        if not fits:
            self.say(self._refusal(seat, text))
            return
        for index, move in enumerate(fits, 1):
            after = flow.preview(self.game, self.state, move)
            pic = pictures.picture(self.game, after, seat, seats=[seat], names=self.names)
            number = self.numbers[moves.index(move)] if move in moves else "?"
            self.echo(f"{number}. {api.move_text(move, self.game)}" +
                      (f"  ({index} of {len(fits)})" if len(fits) > 1 else ""))
            self.echo(picture_text(pic, self.color, legend=False, notes=False))
            if index == len(fits):
                break
            answer = self._ask("Enter: the next one; a number: make that move; `q`: stop ")
            if answer is None or answer.strip().lower() in ("q", "quit", "stop"):
                break
            if answer.strip():
                self.pending_line = answer.strip()
                break
        self.echo("(type its number to make a move)")

    def _undo(self, seat) -> bool:
        """Back to this player's last decision, across the bots' replies and the steps that came after it."""
        taken = self.timeline.undo(seat, self.humans)
        if isinstance(taken, str):
            self.say(f"nothing to undo: {taken}")
            return False
        self._rewound()
        self.say("undone: " + self._what(taken, seat) + "; `redo` plays it again")
        return True

    def _redo(self, seat) -> bool:
        taken = self.timeline.redo(seat)
        if isinstance(taken, str):
            self.say(taken)
            return False
        self._rewound()
        self.say("redone: " + self._what(taken, seat))
        return True

    def _what(self, taken, seat) -> str:
        """Your moves, and how many of the others' moves and automatic steps went with them."""
        text = ", ".join(f"`{t}`" for t in taken.own) or "your decision"
        others = sum(1 for who, _ in taken.moves if who != seat)
        more = [f"{others} move{'s' if others != 1 else ''} of the other players"] if others else []
        if taken.chance:
            more.append(f"{taken.chance} step{'s' if taken.chance != 1 else ''} of chance or passing")
        return text + (f" (with {' and '.join(more)} after it)" if more else "")

    def _rewound(self):
        """The screens start again from the state the timeline is at now."""
        size = len(self.state.log)
        self.log_done = {v: min(n, size) for v, n in self.log_done.items()}
        self.held = {v: [i for i in h if i < size] for v, h in self.held.items()}
        self.shown = None
        if self.save_path:
            self._save(self.save_path, quiet=True)

    def _hint(self, seat):
        move = agents.hint(self.game, self.state, seat, self.seed)
        if move is None:
            self.say("no hint here")
            return
        self.say(f"hint: `{api.move_text(move, self.game)}` ({agents.HINT_AGENT}'s choice, from its search)")

    # ------------------------------------------------------------ saving and stopping
    def default_save(self) -> str:
        return f"{self.game.id}.boardrule.json"

    def _save(self, path, quiet=False) -> bool:
        try:
            data = gamelog.record(self.game, self.state, self.players, self.seed, self.options)
            data["agents"] = [self.seat_of[s] for s in self.state.players]
            gamelog.save(path, data)
        except SaveError as err:
            self.say(err.diagnostics[0].message)
            return False
        if not quiet:
            self.say(f"saved to {path}; resume with: boardrule play {self._pack_arg()} --resume {path}")
        return True

    def _pack_arg(self) -> str:
        from boardrule.dsl.extends import bundled_pack_names
        if self.game.id in bundled_pack_names():
            return self.game.id
        return self.game.pack.tree.files[-1] if self.game.pack.tree.files else self.game.id

    def _stop(self, why, code, failed=False) -> int:
        """Stop the game: ask whether to save; when nobody can answer, save at once, unless the
        game is of bots only or a rule of the pack broke it (`failed`) and no --save was given."""
        if self.state.phase == "over" or not any(e[0] == "move" for e in self.state.log):
            if why:
                self.say(f"{why}: nothing to save yet")
            return code
        target = self.save_path or self.default_save()
        if why:
            self.say(why)
        unasked_ok = self.save_path is not None or (self.humans and not failed)
        if not _is_terminal() and not unasked_ok:
            # nobody can answer, and the game is not worth a file nobody asked for: a game of bots
            # only, or one a rule of the pack broke (it would break again when resumed)
            self.say("not saved (pass --save FILE to keep such a game)")
            return code
        try:
            answer = self._ask(f"save the game to {target}? [Y/n] ")
        except KeyboardInterrupt:
            self.echo()
            answer = None
        if answer is None or answer.strip().lower() not in ("n", "no"):  # nobody answers: never lose the game
            self._save(target)
        else:
            self.say("not saved")
        return code

    # ------------------------------------------------------------ the end
    def _finish(self):
        for line in self._events(self.owner if self.humans else None):
            self.echo(line)
        self.echo()
        self.echo(picture_text(pictures.picture(self.game, self.state, names=self.names), self.color))
        self.echo("game over")
        self.echo(render_outcome(self.game, self.state, names=self.names))


def event_line(kind, seat, text, times, bots=None, names=None, seating=None) -> str:
    """One event of views.events as a line: `P2 (greedy): play B2`, `rolled ...`, `P1 passes: ...`.
    `bots`: seat -> the agent's name, for the seats a bot plays; `names`: seat -> the player's name
    (views.player_names; by seat without it); `seating`: where the players sit (views.seating_text)."""
    name = (names or {}).get(seat) or (repr(PLAYERS[seat]) if seat is not None else "")
    if kind == "move":
        bot = f" ({bots[seat]})" if bots and seat in bots else ""
        return f"{name}{bot}: {text}"
    if kind == "roll":
        return f"rolled {text}"
    if kind == "pass":
        return f"{name} passes: no legal move" + (f" ({times} times)" if times > 1 else "")
    if kind == "seats":
        return f"the players sit at random: {seating}" if seating else f"the players sit at seats {text}"
    if kind == "draw":
        return f"drew {text}"
    return f"shuffled {text}" if kind == "shuffle" else f"{kind} {text}"


def _is_terminal() -> bool:
    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False
