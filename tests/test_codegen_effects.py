"""Effects written out (interpreter/compiler/codegen_effects.py): a block of simple statements generated as
one function changes the state, spends the work budget and fails as the closures of effects.py do."""

from __future__ import annotations

from pathlib import Path

import pytest

from boardrule.dsl.pack import load_pack_text
from boardrule.interpreter.api import open_game
from boardrule.interpreter.compiler import codegen_effects
from boardrule.interpreter.compiler.game import compile_game
from boardrule.interpreter.records.serialize import state_to_json
from boardrule.interpreter.runtime import flow
from boardrule.interpreter.runtime.values import RuleError
from twin_games import play_alike, two_forms

HERE = Path(__file__).parent
PACKS = ["tictactoe", "connect4", "tinytowns", "townies", "villagers",
         *(str(HERE / "suite" / f"{name}.pack") for name in ("breakthrough", "gomoku", "majority", "kingdom"))]


def _both(open_one, monkeypatch):
    """The game with its simple effects written out, and the same game with every effect a closure."""
    return two_forms(open_one, monkeypatch, codegen_effects, "writable", lambda compiler, statements: False)


@pytest.mark.parametrize("pack", PACKS)
def test_written_effects_make_the_same_games_as_their_closures(pack, monkeypatch):
    play_alike(*_both(lambda: open_game(pack), monkeypatch))


STONES = """\
game: {id: stones, players: 2}
board: {grid: square 3 x 3, shared: true}
pieces:
  stone: {symbol: S}
vars:
  last: none
  placed: 0
  big: 9007199254740990
actions:
  put:
    params: {c: cells}
    effect: |
      if c.x == 2 { remove c } elif c.y == 2 { set last = c } else { set last = none }
      placed += 1
      if c.y == 1 { big += 1 }
      score 2 as "stones"
      for p in players { score 1 as "each" }
      for d in adjacent(c) { if d.x == 0 { placed += 1 } }
      place stone at c
flow: {round: [{turns: [put]}], end: "none(cells, empty)"}
"""


def test_written_removes_sets_changes_scores_and_loops_make_the_same_games(monkeypatch):
    text = STONES.replace("9007199254740990", "0").replace("{c: cells}", "{c: cells where empty}")
    written, closures = _both(lambda: compile_game(load_pack_text(text, "stones.pack")), monkeypatch)
    play_alike(written, closures)


@pytest.mark.parametrize("moves, message", [
    (["put A1", "put A1"], "already holds a piece"),  # A1 holds a stone already
    (["put A2", "put B2"], "outside the range of numbers"),  # `big` past the largest number
])
def test_a_written_effect_fails_as_its_closure_does(moves, message, monkeypatch):
    written, closures = _both(lambda: compile_game(load_pack_text(STONES, "stones.pack")), monkeypatch)
    assert codegen_effects.writable(_compiler(written), _effect_of(written, "put"))  # (else this tests nothing)
    errors = []
    for game in (written, closures):
        state = flow.initial_state(game, 2, seed=0)
        try:
            for seat, move in enumerate(moves):
                state = flow.apply(game, state, flow.parse_move(game, state, seat % 2, move))
        except RuleError as error:
            errors.append((str(error), error.span, state_to_json(game, state)))
    assert len(errors) == 2 and errors[0] == errors[1] and message in errors[0][0]


def _compiler(game):
    from boardrule.interpreter.compiler.exprs import ExprCompiler
    return ExprCompiler(game, game.pack.checked)


def _effect_of(game, name):
    return next(a.effect for a in game.model.actions if a.name == name)
