"""The bundled Tiny Towns pack: it checks clean, its scenarios pass, and whole
seeded games finish for 1 to 6 players in every variant."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

import boardrule.cli.commands  # noqa: F401  (registers the commands)
from boardrule.cli.main import cli
from boardrule.dsl.diagnostics import render
from boardrule.interpreter.agents import make_agent, play_out
from boardrule.interpreter.api import new_game, open_game
from boardrule.interpreter.designer.check import check_pack
from boardrule.interpreter.runtime.outcome import outcome

VARIANTS = {
    "standard": {"variant": "standard"},
    "cavern": {"variant": "standard", "cavern": "true"},
    "town_hall": {"variant": "town_hall"},
    "solo": {"variant": "solo"},
    "first_game": {"first_game": "true", "monuments": "false"},
}
SOLO_REMOVED = {"inn", "bank", "fort_ironweed", "opaleyes_watch"}
PACK_FILE = Path(__file__).resolve().parents[1] / "rulepacks" / "tinytowns.pack"
# The buildings whose effect in tinytowns-rules.txt differs from tinytowns-cards.md
# (the pack follows the cards file): read off the two texts, not off the pack.
CARDS_OVER_TEXT = ("Fountain", "Cloister", "Inn", "Feast Hall", "Theater", "Mandras Palace", "Silva Forum",
                   "Warehouse", "Bank")


@pytest.fixture(scope="module")
def game():
    return open_game("tinytowns")


def play(game, players, seed, options, agent="random"):
    state = new_game(game, players=players, seed=seed, options=options)
    agents = {seat: make_agent(agent, seed * 100 + seat) for seat in state.players}
    return play_out(game, state, agents)


def test_the_pack_checks_clean_and_passes_its_scenarios():
    report = check_pack("tinytowns")
    assert report.ok and not report.diagnostics, "\n".join(render(d) for d in report.diagnostics)
    assert report.tests_run >= 90


def test_the_header_lists_every_building_where_the_rules_text_and_the_cards_disagree():
    text = PACK_FILE.read_text()
    header = text.split("# Not from the printed game")[0]
    assert "Where the two\n# disagree this pack follows the cards file, and says so next to the rule:" in header
    entries = header.split("\n#   - ")[1:]  # one per item of the list, with its continuation lines
    for name in CARDS_OVER_TEXT:
        assert any(re.match(rf"{name}\b", e) and "(rules text: " in e for e in entries), f"the header omits {name}"
        key = name.lower().replace(" ", "_")
        assert re.search(rf"^  {key}: +# cards file: .*\(rules text: ", text, re.M), f"no note next to {name}"


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("players", range(1, 7))
def test_seeded_random_games_finish(game, variant, players):
    state = play(game, players, players, VARIANTS[variant])
    assert state.phase == "over"
    assert sorted(state.finished) == sorted(state.players)
    assert outcome(game, state).winners


@pytest.mark.parametrize("variant", ["standard", "town_hall", "solo"])
@pytest.mark.parametrize("players", [1, 4])
def test_seeded_greedy_games_finish(game, variant, players):
    state = play(game, players, 3, VARIANTS[variant], agent="greedy")
    assert state.phase == "over"


def test_one_player_plays_solo_by_default_and_gets_a_rank(game):
    state = play(game, 1, 4, {})
    verdict = outcome(game, state).verdicts[state.players[0]]
    assert verdict in ("Master Architect", "Town Planner", "Engineer", "Carpenter", "Builder's Apprentice",
                       "Aspiring Architect")
    assert any(entry[:2] == ["move", 0] for entry in state.log)


def test_several_players_get_no_rank(game):
    state = play(game, 2, 4, {})
    assert set(outcome(game, state).verdicts.values()) == {""}


def test_solo_leaves_out_inn_bank_fort_ironweed_and_opaleyes_watch(game):
    seen = set()
    for seed in range(40):
        state = new_game(game, players=1, seed=seed)
        seen.update(state.vars["in_play"])
        seen.update(state.pvars[0]["dealt"])
    assert not seen & SOLO_REMOVED
    assert {"tavern", "warehouse", "the_starloom"} <= seen


def test_setup_puts_one_building_of_each_category_in_play(game):
    categories = {kind: game.static_attrs[kind]["category"] for kind in game.kind_names}
    for seed in range(10):
        state = new_game(game, players=3, seed=seed)
        in_play = state.vars["in_play"]
        assert in_play[0] == "cottage"
        assert sorted(categories[k] for k in in_play) == sorted(
            ["blue", "red", "gray", "orange", "green", "yellow", "black"])
        dealt = [state.pvars[s]["dealt"] for s in state.players]
        assert all(len(d) == 2 for d in dealt)
        assert len({m for d in dealt for m in d}) == 6  # every monument dealt once


def test_the_command_line_plays_a_solo_game_to_its_rank():
    result = CliRunner().invoke(cli, ["play", "tinytowns", "--seats", "random", "--seed", "2"])
    assert result.exit_code == 0, result.output
    assert "game over" in result.output and "verdict: " in result.output


def test_the_command_line_plays_bots_against_each_other():
    result = CliRunner().invoke(cli, ["play", "tinytowns", "--seats", "greedy,random", "--seed", "2",
                                      "--option", "variant=town_hall"])
    assert result.exit_code == 0, result.output
    assert "game over" in result.output and "verdict: " not in result.output


def test_score_a_one_board_position_names_each_buildings_points(tmp_path):
    position = tmp_path / "town.yaml"
    position.write_text("board: |\n"
                        "  BK TV C  TV\n"
                        "  F  CH C  WA[wd,wh,br]\n"
                        "  TV .  W  C\n"
                        "  C  W  C  .\n")
    result = CliRunner().invoke(cli, ["score", "tinytowns", str(position), "--option", "variant=standard"])
    assert result.exit_code == 0, result.output
    lines = [line.split() for line in result.output.splitlines()]
    assert ["P1:", "28", "points"] in lines
    for label, points in (("Cottage", "12"), ("Tavern", "9"), ("Well", "5"), ("Chapel", "4"), ("Bakery", "3"),
                          ("Warehouse", "-3")):
        assert any(line[:2] == [label, points] for line in lines), (label, result.output)
