"""The players' rulebook (`boardrule rules PACK --for players`): written from the pack's doc texts, with the
board drawn as in play, the patterns, the charts and the pack's reasons for refusing a move."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

import boardrule.cli.designer  # noqa: F401  (registers the commands)
from boardrule.cli.main import cli
from boardrule.cli.render import board_text, picture_text
from boardrule.dsl.diagnostics import PackError
from boardrule.dsl.extends import bundled_pack_names
from boardrule.dsl.pack import load_pack_text
from boardrule.interpreter import api
from boardrule.interpreter.runtime import flow
from boardrule.interpreter.runtime import picture as pictures
from boardrule.interpreter.compiler.game import compile_game
from boardrule.interpreter.designer.rulebook import rulebook_text


def book(name):
    return rulebook_text(api.open_game(name), draw=lambda pic: picture_text(pic, notes=False))


@pytest.mark.parametrize("name", bundled_pack_names())
def test_every_bundled_game_has_a_players_rulebook(name):
    text = book(name)
    for heading in ("## Components", "## A round", "## Actions", "## Scoring"):
        assert heading in text
    assert "(rule: " not in text  # the designer's reference shows rules beside words; this book does not


@pytest.mark.parametrize("name", bundled_pack_names())
def test_the_bundled_packs_give_the_texts_a_rulebook_needs(name):
    text = book(name)
    assert "## Left to the rules" not in text, text.split("## Left to the rules")[-1]
    assert "## The end" in text


def test_the_board_is_drawn_as_in_play():
    game = api.open_game("townies")
    state = flow.initial_state(game, 1, seed=0)
    drawn = board_text(game.grid, pictures.picture(game, state).boards[0])
    assert drawn in book("townies")


def test_actions_come_with_the_packs_reasons_and_how_to_type_them():
    text = book("tictactoe")
    assert "Typed as `play CELL`." in text and "- the cell is already marked" in text


def test_scoring_rules_come_in_words_with_their_chart():
    text = book("townies")
    specialization = text.split("**Specialization**")[1]
    assert specialization.startswith(": Your Blocks of your starting colour that are surrounded")
    assert "| points | 0 | 1 | 2 | 4 | 7 | 10 | 14 |" in specialization
    assert "**bee**:" in text  # the black die's shapes, drawn


def test_an_extension_keeps_the_bases_texts_it_does_not_replace():
    text = book("villagers")
    assert "three villagers" in text.split("## Setup")[1].split("##")[0]  # its own setup
    assert "Every square of your town without a building" in text  # the base's scoring text


def test_a_missing_text_is_named_for_the_designer():
    game = compile_game(load_pack_text(GAME, "duel.pack"))
    text = rulebook_text(game)
    assert "## Left to the rules" in text
    assert "a round" in text.split("## Left to the rules")[1] and "the scoring term stones" in text


def test_a_scoring_text_names_a_scoring_term():
    with pytest.raises(PackError) as err:
        load_pack_text(GAME + "doc:\n  scoring:\n    stone: one point a stone\n", "duel.pack")
    (found,) = err.value.diagnostics
    assert found.code == "E011" and "`stone`" in found.message and "stones" in (found.hint or "")


def test_the_command_writes_the_players_rulebook_and_keeps_the_designers_reference():
    players = CliRunner().invoke(cli, ["rules", "tictactoe", "--for", "players"])
    assert players.exit_code == 0 and players.output.startswith("# Tic-tac-toe: how to play")
    designers = CliRunner().invoke(cli, ["rules", "tictactoe"])
    assert designers.exit_code == 0 and designers.output.startswith("# Tic-tac-toe\n")
    page = CliRunner().invoke(cli, ["rules", "tictactoe", "--for", "players", "--format", "html"])
    assert page.exit_code == 0 and "<h2>Components</h2>" in page.output


GAME = """
game: {id: duel, name: Duel, players: 2}
board: {grid: square 2 x 2, shared: true}
pieces:
  stone: {symbol: S}
actions:
  put:
    params: {cell: cells where empty}
    effect: place stone at cell
flow:
  round:
    - turns: [put]
  end: count(cells where empty) == 0
scoring:
  stones: count(cells where kind == stone)
"""


def test_a_term_shows_the_charts_it_reads_through_its_definitions():
    goal = book("townies").split("**Additional Goal**")[1].split("The highest score wins")[0]
    assert "| wind rose chart | 1 | 2 | 3 | 4 | 5 | 6 | 7+ |" in goal  # additional_points reads them
    assert goal.count("| points |") == 10
