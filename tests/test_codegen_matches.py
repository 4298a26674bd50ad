"""`matches(SHAPE, ...)` in generated code (codegen_loops.LoopGeneration.pattern_matches): the shape is
worked out by the generated function and handed to the call's matcher, with no closure and no context
locals set for it; the moves listed, the states reached and the work spent are those of the closure."""

from __future__ import annotations

from pathlib import Path

import pytest

from boardrule.dsl.pack import load_pack_text
from boardrule.interpreter.api import open_game
from boardrule.interpreter.compiler.codegen_loops import LoopGeneration
from boardrule.interpreter.compiler.game import compile_game
from twin_games import play_alike, two_forms

HERE = Path(__file__).parent

# a building's pattern read from the parameter, a stand-in by kind, and an option that reads the parameter
PACK = """\
game: {id: patterned, players: 1}
board: {grid: square 3 x 3}
pieces:
  red: {symbol: R, category: resource}
  blue: {symbol: B, category: resource}
  joker: {symbol: J, category: resource}
  hut: {symbol: H, category: building, pattern: hut_shape}
  tower: {symbol: T, category: building, pattern: tower_shape}
shapes:
  hut_shape: {art: red blue, symmetry: all}
  tower_shape: {art: "red / red", symmetry: all}
define:
  buildings: "[hut, tower]"
actions:
  put:
    params: {piece: "[red, blue, joker]", c: cells where empty}
    effect: place piece at c
  build:
    params:
      building: buildings
      match: "matches(building.pattern, standin = kind == joker)"
      spot: match
    effect: |
      remove match
      place building at spot
  build_apart:
    params:
      building: buildings
      match: "matches(building.pattern, within = cells where kind != building)"
    effect: remove match
flow:
  round: [{turns: [put]}, {turns: [build, build_apart], repeat: true}]
  end: count(cells where empty) == 0
scoring:
  buildings: count(cells where category == building)
"""


def _both(open_one, monkeypatch):
    """The game with `matches` generated, and the same game with every `matches` its closure."""
    return two_forms(open_one, monkeypatch, LoopGeneration, "pattern_matches", lambda self, node: None)


@pytest.mark.parametrize("pack", ["tinytowns", "villagers", str(HERE / "packs" / "towns.pack")])
def test_generated_matches_make_the_same_games_as_the_closure(pack, monkeypatch):
    play_alike(*_both(lambda: open_game(pack), monkeypatch), moves=120, listed=True)


def test_a_small_pack_with_stand_ins_and_an_option_reading_the_parameter(monkeypatch):
    play_alike(*_both(lambda: compile_game(load_pack_text(PACK, "patterned.pack")), monkeypatch), seeds=6, moves=120,
               listed=True)


def test_the_shape_is_handed_to_the_matcher_unless_an_option_reads_a_parameter(generated_code):
    compile_game(load_pack_text(PACK, "patterned.pack"))
    _, build, apart = [text for text in generated_code if "remembered_moves(made, seat)" in text]  # in action order
    assert "with_local(ctx, 'building'" not in build  # the shape generated, handed over
    assert "with_local(ctx, 'building'" in apart  # `within` reads the parameter: the closure, told it
