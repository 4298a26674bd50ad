"""The library's front door for tools: open a game, read a position, report scores.

    >>> game = open_game("tictactoe")
    >>> state = new_game(game, players=2, seed=1)
    >>> [move_text(m, game.grid) for m in legal_moves(game, state, 0)][:3]
    ['play A1', 'play B1', 'play C1']
"""

from __future__ import annotations

from boardrule.dsl.diagnostics import PackError, SourceStore
from boardrule.dsl.loader import load_yaml_file
from boardrule.dsl.pack import load_pack
from boardrule.interpreter.runtime.flow import apply, initial_state, legal_moves, parse_move, waiting
from boardrule.interpreter.compiler.game import Game, compile_game
from boardrule.interpreter.runtime.moves import move_text
from boardrule.interpreter.runtime.outcome import outcome
from boardrule.interpreter.records.positions import apply_position
from boardrule.interpreter.runtime.values import PLAYERS


# the front door re-exports what tools need to play a game
__all__ = ["open_game", "new_game", "load_position", "score_report", "evaluate", "show_value",
           "apply", "legal_moves", "parse_move", "waiting", "move_text"]


def open_game(name_or_path, sources: SourceStore | None = None) -> Game:
    """Load, check and compile a pack by bundled name or path."""
    pack = load_pack(name_or_path, sources)
    try:
        return compile_game(pack)
    except PackError as err:
        err.sources = err.sources or pack.sources
        raise


def new_game(game: Game, players: int | None = None, seed: int = 0, options: dict | None = None, meter=None):
    """A new game's first state (setup done); `meter`: its work budget (budget.py; default: the usual one)."""
    return initial_state(game, players, seed, options, meter=meter)


def load_position(game: Game, path, players: int | None = None, options: dict | None = None, seed: int = 0):
    """A state from a position file (see interpreter/records/positions.py)."""
    sources = game.pack.sources
    node = load_yaml_file(path, sources)
    low, high = game.players_range
    if players is None:
        boards = node.get("boards")
        if boards is not None:
            players = len(boards.entries)
        elif node.get("board") is not None and not game.shared_board and low <= 1:
            players = 1  # one board of a game where each player has their own: a one-player position
        else:
            players = max(low, min(2, high))
    state = initial_state(game, players, seed, options, seating=_position_seating(game, node, players))
    apply_position(game, state, node)
    return state


def _position_seating(game: Game, node, players):
    """With more seats than players, players sit where `boards:` names them, else at the first seats."""
    from boardrule.dsl.loader import MapNode
    from boardrule.interpreter.records.positions import PositionError, parse_seat
    seats = max(game.model.game.seats or 0, players or 0)
    if not isinstance(players, int) or seats <= players:
        return None
    boards = node.get("boards") if isinstance(node, MapNode) else None
    named = set()
    if isinstance(boards, MapNode):
        try:
            named = {parse_seat(key.value, key.span, seats) for key, _ in boards.entries}
        except PositionError:
            return None  # apply_position reports the bad seat with its place
    return tuple(sorted(named)) if len(named) == players else tuple(range(players))


def score_report(game: Game, state, names: dict | None = None) -> dict:
    """Score sheets, ranking and verdicts as plain data (for JSON and printing).

    Each player has its `seat` (`P3`: seat 3) and its `name`: `names[seat]` (as `views.player_names`
    gives them in play), else the seat's. The ranking and the winners are named so too.
    """
    from boardrule.interpreter.runtime.views import seat_names
    result = outcome(game, state)
    names = names or seat_names(state)
    return {
        "pack": game.id,
        "players": [{
            "seat": repr(PLAYERS[seat]),
            "name": names[seat],
            "total": result.sheets[seat].total,
            "terms": [{"label": t.label, "points": t.points, "source": t.source, "count": t.count}
                      for t in result.sheets[seat].terms],
            "verdict": result.verdicts.get(seat),
        } for seat in state.players],
        "ranking": [names[s] for s in result.ranking],
        "winners": [names[s] for s in result.winners],
    }


def evaluate(game: Game, state, text: str, seat: int | None = 0):
    """Evaluate one expression on a state, for player `seat`: (value, type).

    >>> game = open_game("tictactoe")
    >>> evaluate(game, new_game(game, 2), "count(cells where empty)")[0]
    9
    """
    from boardrule.dsl.checker import Checker, Scope
    from boardrule.dsl.diagnostics import DiagnosticBag
    from boardrule.dsl.parser import parse_fragment
    from boardrule.interpreter.compiler.exprs import ExprCompiler
    node = parse_fragment(text, "expr", file="<expression>")
    bag = DiagnosticBag()
    checker = Checker(game.pack.checked.symbols, bag)
    checker.out = game.pack.checked  # add this expression's resolutions to the pack's
    value_type = checker.expr(node, Scope({}, me=seat is not None))
    bag.raise_if_errors(PackError)
    ctx = game.ctx(state, me=PLAYERS[seat] if seat is not None else None)
    return ExprCompiler(game, game.pack.checked).compile(node)(ctx), value_type


def show_value(game: Game, value, value_type=None) -> str:
    """A value as text: cells by name, lists space-separated, groups joined by `+`."""
    from boardrule.dsl.types import CELL
    from boardrule.interpreter.runtime.moves import value_text
    if value_type is not None and value_type.is_list:
        item = value_type.item
        if item is not None and item.is_list:
            return " ".join("+".join(show_value(game, v, item.item) for v in group) for group in value)
        return " ".join(show_value(game, v, item) for v in value)
    if value_type == CELL and isinstance(value, int):
        return value_text(value, game.grid)
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    return str(value)
