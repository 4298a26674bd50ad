"""The bundled Townies pack (rulepacks/townies.pack).

It checks clean and passes its own scenarios (the rulebook's worked
examples); seeded games with random and greedy players finish, for 1 to 5
players and in each game mode; greedy players score well above random ones;
and `boardrule play` runs whole games, a solo one ending with the verdict of
the Solo Mode Chart. The games are few and seeded, so the file stays fast;
long self-play runs are for the benchmarks.
"""

from __future__ import annotations

import pytest
from click.testing import CliRunner

import boardrule.cli.commands  # noqa: F401  (registers the commands)
from boardrule.cli.main import cli
from boardrule.dsl.diagnostics import render
from boardrule.dsl.pack import load_pack
from boardrule.interpreter.agents import make_agent, play_out
from boardrule.interpreter.designer.check import check_pack
from boardrule.interpreter.runtime.flow import initial_state
from boardrule.interpreter.compiler.game import compile_game
from boardrule.interpreter.runtime.outcome import outcome

PACK = "townies"
SOLO_VERDICTS = (
    "The best place on Earth!",
    "It is so nice here that I'm not even thinking of going anywhere on vacation.",
    "It's far better here than in a city, and the air is fresh.",
    "Tourists like buying postcards with our views.",
    "Everything seems to be in place, but there is pretty much nothing to do.",
    "This place is crammed with people and endless traffic.",
    "I don't really enjoy being here.",
    "How come I live here?!",
)


@pytest.fixture(scope="module")
def game():
    return compile_game(load_pack(PACK))


def seeded_game(game, agent_kinds, seed, options=None):
    """A whole game, one agent per player (seeded), and its outcome."""
    state = initial_state(game, len(agent_kinds), seed, options or {})
    agents = {seat: make_agent(kind, seed * 100 + index)
              for index, (seat, kind) in enumerate(zip(state.players, agent_kinds))}
    state = play_out(game, state, agents)
    return state, outcome(game, state)


def objects_drawn(state, seat) -> int:
    return len(state.pvars[seat]["line"])


def test_the_pack_checks_clean_and_passes_its_scenarios():
    report = check_pack(PACK)
    assert report.ok, "\n".join(render(d) for d in report.diagnostics)
    assert report.tests_run >= 60


@pytest.mark.parametrize("agent_kinds, mode, seed", [
    (["random"], "full", 1),
    (["greedy"], "second", 2),
    (["greedy", "random"], "full", 3),
    (["random", "random", "random"], "first", 4),
    (["random", "greedy", "random", "random"], "full", 5),
    (["random"] * 5, "second", 6),
], ids=["solo-random", "solo-greedy", "2-players", "3-players-first-game", "4-players", "5-players"])
def test_a_seeded_game_finishes_on_a_ninth_object(game, agent_kinds, mode, seed):
    state, result = seeded_game(game, agent_kinds, seed, {"mode": mode})
    assert state.phase == "over"
    assert max(objects_drawn(state, seat) for seat in state.players) == 9
    assert all(objects_drawn(state, seat) <= 9 for seat in state.players)
    for seat in state.players:
        terms = result.sheets[seat].by_label()
        objects = ("Game Court", "Windmill", "Station", "Bike Rental", "Bank", "City Square")  # a term each
        assert sum(terms.get(label, 0) for label in objects) == sum(state.pvars[seat]["line"])
        if mode == "first":
            assert terms["Specialization"] == terms["Standardization"] == terms["Additional Goal"] == 0
    solo = len(state.players) == 1
    assert all((result.verdicts[seat] in SOLO_VERDICTS) if solo else result.verdicts[seat] == ""
               for seat in state.players)


def test_a_solo_game_draws_at_most_nine_shapes(game):
    state, _ = seeded_game(game, ["random"], 11)
    moves = [entry[2] for entry in state.log if entry[0] == "move"]
    assert sum(m.startswith("draw_shape") for m in moves) <= 9
    assert state.pvars[state.players[0]]["circled"] + objects_drawn(state, state.players[0]) <= 9


def test_greedy_players_score_well_above_random_ones(game):
    greedy, random_ = 0, 0
    for seed in (21, 22):
        state, result = seeded_game(game, ["greedy", "random"], seed)
        greedy += result.sheets[state.players[0]].total
        random_ += result.sheets[state.players[1]].total
    assert greedy > 1.5 * random_, (greedy, random_)


def run(*args):
    return CliRunner().invoke(cli, list(args))


def test_play_with_a_greedy_and_a_random_player_runs_a_whole_game():
    result = run("play", PACK, "--seats", "greedy,random", "--seed", "4")
    assert result.exit_code == 0, result.output
    assert "game over" in result.output and ("winner" in result.output or "shared win" in result.output)
    assert "verdict" not in result.output


def test_a_solo_game_ends_with_the_verdict_of_the_solo_chart():
    result = run("play", PACK, "--seats", "random", "--seed", "2", "--option", "bonus_card=funding")
    assert result.exit_code == 0, result.output
    verdict = result.output.split("verdict: ", 1)[1].splitlines()[0]
    assert verdict in SOLO_VERDICTS
