"""The bundled Tiny Towns: Villagers pack (rulepacks/villagers.pack, which extends
tinytowns): it checks clean, its diagnostics point into the right file, whole
seeded games finish in the standard and Tiny Tears modes, and a property run
checks that no villager ever shares a square with a resource at the end of a
round.

The property run plays PROPERTY_GAMES games (40 in the suite; 3,000 were run by hand); for thousands:

    BOARDRULE_VILLAGERS_GAMES=5000 python -m pytest -q tests/test_villagers_pack.py -k property
    python tests/test_villagers_pack.py 5000        # the same, with figures printed
"""

from __future__ import annotations

import os
import random
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

import boardrule.cli.commands  # noqa: F401  (registers the commands)
from boardrule.cli.main import cli
from boardrule.dsl.diagnostics import render
from boardrule.interpreter.runtime import flow
from boardrule.interpreter.agents import make_agent
from boardrule.interpreter.api import new_game, open_game
from boardrule.interpreter.designer.check import check_pack
from boardrule.interpreter.runtime.outcome import outcome
from boardrule.interpreter.runtime.values import CELL_MASK

ROOT = Path(__file__).resolve().parent.parent
PACK = ROOT / "rulepacks" / "villagers.pack"
PROPERTY_GAMES = int(os.environ.get("BOARDRULE_VILLAGERS_GAMES", "40"))  # 3,000 were run by hand
COST_1 = {"forage", "scrap"}
COST_2_OR_MORE = {"cut_corners", "renovate", "cooperate", "innovate"}
ABILITY_BUILDS = ("build", "cut_corners", "cooperate", "innovate")


@pytest.fixture(scope="module")
def game():
    return open_game("villagers")


# ------------------------------------------------------------------ agents
def seeker(seed: int):
    """An agent that seeks work for its villagers and spends it on abilities, so that
    whole games go through every Villager card (random agents seldom employ a villager)."""
    rng = random.Random(seed)

    def agent(game, state, seat, moves):
        board = game.board_of_seat(seat)
        tokens, kinds = state.tokens[board], state.kind[board]

        def staffed(cell):
            return bool(tokens.get(cell & CELL_MASK))
        employing = [m for m in moves if m.action in ABILITY_BUILDS and staffed(m.args[-1])
                     and kinds[m.args[-1] & CELL_MASK] is not None]
        dear = [m for m in moves if m.action in COST_2_OR_MORE]
        cheap = [m for m in moves if m.action in COST_1]
        for pool, chance in ((employing, 0.9), (dear, 0.9), (cheap, 0.15)):
            if pool and rng.random() < chance:
                return rng.choice(pool)
        # a resource on a villager's square that completes a pattern there: the villager will work
        places = [m for m in moves if m.action == "place" and staffed(m.args[1])
                  and any(b.args[-1] == m.args[1]
                          for b in flow.action_moves(game, flow.preview(game, state, m), seat, game.actions["build"]))]
        if places and rng.random() < 0.9:
            return rng.choice(places)
        busy = [m for m in moves if m.action != "done"]
        return rng.choice(busy if busy and rng.random() < 0.6 else moves)
    return agent


def agents_for(state, seed: int, kind: str) -> dict:
    if kind == "seeker":
        return {seat: seeker(seed * 100 + seat) for seat in state.players}
    return {seat: make_agent(kind, seed * 100 + seat) for seat in state.players}


# ------------------------------------------------------------------ invariants
def round_end_problems(game, state) -> list:
    """What is wrong with the villagers at the end of a round (an empty list: nothing)."""
    resources = {k for k in game.kind_names if game.static_attrs[k].get("category") == "resource"}
    found = []
    for seat in state.players:
        board = game.board_of_seat(seat)
        on_board = 0
        for cell, tokens in state.tokens[board].items():
            if not tokens:
                continue
            on_board += len(tokens)
            name = game.grid.name(cell)
            kind = state.kind[board][cell]
            if len(tokens) > 1:
                found.append(f"P{seat + 1} {name}: two villagers on one square {tokens}")
            if kind in resources:
                found.append(f"P{seat + 1} {name}: a villager with a resource ({kind})")
            if "villager" in tokens and kind is not None:
                found.append(f"P{seat + 1} {name}: a villager in a building it does not work in ({kind})")
            if "worker" in tokens and kind is None:
                found.append(f"P{seat + 1} {name}: a working villager on an empty square")
        pvars = state.pvars[seat]
        if on_board + pvars["lodge"] != pvars["villagers"]:
            found.append(f"P{seat + 1}: {on_board} on the board + {pvars['lodge']} on the Lodge "
                         f"!= {pvars['villagers']} villagers")
    return found


def play_checked(game, players: int, seed: int, options: dict, kind: str, counts=None):
    """A whole game; the villagers are checked at the end of every round. Returns (state, rounds checked)."""
    state = new_game(game, players=players, seed=seed, options=options)
    agents = agents_for(state, seed, kind)
    rounds, current = 0, state.round
    while state.phase != "over":
        seat = flow.waiting(state)[0]
        move = agents[seat](game, state, seat, flow.legal_moves(game, state, seat))
        if counts is not None:
            counts[move.action] = counts.get(move.action, 0) + 1
        state = flow.apply(game, state, move)
        if state.phase != "setup" and (state.round != current or state.phase == "over"):
            problems = round_end_problems(game, state)
            assert not problems, f"seed {seed}, {options}, end of round {current}: {problems}"
            rounds += 1
        current = state.round
    return state, rounds


def property_case(index: int):
    """The players, options and agents of the index-th game of the property run."""
    options = {}
    if index % 2:
        options["tiny_tears"] = "true"
    variant = ("standard", "town_hall", "solo", "auto")[(index // 2) % 4]
    options["variant"] = variant
    players = 1 if variant == "solo" else 1 + index % 4
    kind = "seeker" if index % 3 == 0 else "random"
    return players, options, kind


# ------------------------------------------------------------------ the pack
def test_the_pack_checks_clean_and_passes_its_scenarios():
    report = check_pack("villagers")
    assert report.ok and not report.diagnostics, "\n".join(render(d) for d in report.diagnostics)
    assert report.tests_run >= 40


def test_the_base_pack_still_passes_its_scenarios():
    report = check_pack("tinytowns")
    assert report.ok and not report.diagnostics, "\n".join(render(d) for d in report.diagnostics)
    assert report.tests_run == 94


def test_setup_lays_out_one_card_of_cost_1_and_one_of_cost_2_or_more(game):
    seen = set()
    for seed in range(24):
        state = new_game(game, players=2, seed=seed)
        cheap, dear = state.vars["abilities"]
        assert cheap in COST_1 and dear in COST_2_OR_MORE
        seen |= {cheap, dear}
        assert all(state.pvars[s]["villagers"] == 3 for s in state.players)
    assert seen == COST_1 | COST_2_OR_MORE  # Solicit is left out
    assert new_game(game, players=2, seed=1, options={"tiny_tears": "true"}).vars["abilities"] == ()


# ------------------------------------------------------------------ diagnostics
def _broken_copy(tmp_path, old: str, new: str) -> Path:
    text = PACK.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path = tmp_path / "villagers.pack"
    path.write_text(text.replace(old, new), encoding="utf-8")  # `extends: tinytowns` is the bundled pack
    return path


def _line_of(path: Path, fragment: str) -> int:
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if fragment in line)


def test_a_fault_in_the_extension_points_into_villagers_pack(tmp_path):
    path = _broken_copy(tmp_path, "remove worker from paid; lodge += 1 } }\n      place cube at cell",
                        "remove workr from paid; lodge += 1 } }\n      place cube at cell")
    report = check_pack(path)
    assert not report.ok
    diag = report.diagnostics[0]
    assert diag.code == "E201" and "`workr`" in diag.message
    assert diag.span.file == str(path) and diag.span.line == _line_of(path, "remove workr")


def test_a_base_step_broken_by_the_extension_is_told_at_the_removal_and_points_into_tinytowns_pack(tmp_path):
    path = _broken_copy(tmp_path, "remove: [tests]\n", "remove: [tests, actions.take_owed]\n")
    report = check_pack(path)
    assert not report.ok
    diag = report.diagnostics[0]
    assert "`take_owed`" in diag.message
    assert diag.span.file == str(path) and "take_owed" in path.read_text().splitlines()[diag.span.line - 1]
    [(span, _)] = [n for n in diag.notes if n[0].file.endswith("tinytowns.pack")]  # the `owed` step, as it is
    assert "take_owed" in Path(span.file).read_text().splitlines()[span.line - 1]


def test_a_misspelt_base_step_points_into_villagers_pack(tmp_path):
    path = _broken_copy(tmp_path, "    - base: hand_out\n", "    - base: hand_otu\n")
    [diag] = check_pack(path).diagnostics
    assert diag.code == "E114" and diag.span.file == str(path) and diag.span.line == _line_of(path, "hand_otu")
    assert diag.hint == "did you mean `hand_out`?"


def test_replacing_a_base_action_without_override_warns_in_villagers_pack(tmp_path):
    path = _broken_copy(tmp_path, "    override: true\n    label: construct a building\n",
                        "    label: construct a building\n")
    report = check_pack(path)
    assert report.ok
    [diag] = [d for d in report.diagnostics if d.code == "W841"]
    assert diag.span.file == str(path) and "actions.build" in diag.message
    assert diag.notes[0][0].file.endswith("tinytowns.pack")


# ------------------------------------------------------------------ whole games
@pytest.mark.parametrize("tiny_tears", ["false", "true"])
@pytest.mark.parametrize("variant,players", [("standard", 2), ("standard", 4), ("town_hall", 3), ("solo", 1)])
def test_seeded_random_games_finish(game, variant, players, tiny_tears):
    options = {"variant": variant, "tiny_tears": tiny_tears}
    state, rounds = play_checked(game, players, players + 10, options, "random")
    assert state.phase == "over" and rounds > 0
    assert sorted(state.finished) == sorted(state.players)
    assert outcome(game, state).winners


@pytest.mark.parametrize("tiny_tears", ["false", "true"])
def test_seeded_greedy_games_finish(game, tiny_tears):
    state, _ = play_checked(game, 2, 5, {"tiny_tears": tiny_tears}, "greedy")
    assert state.phase == "over"


def test_games_that_employ_villagers_use_every_villager_card(game):
    counts: dict = {}
    for dear in ("cut_corners", "renovate", "cooperate", "innovate"):
        for seed in range(8):
            cards = {"cheap_card": ("forage", "scrap")[seed % 2], "dear_card": dear}
            state, _ = play_checked(game, 1 + seed % 2, seed, {"variant": "standard", **cards}, "seeker", counts)
            assert state.phase == "over"
    for action in ("scrap", "forage", "cut_corners", "renovate", "cooperate", "innovate", "step_aside",
                   "go_to_lodge", "leave_lodge"):
        assert counts.get(action, 0) > 0, (action, counts)


def test_property_no_villager_shares_a_square_with_a_resource_at_the_end_of_a_round(game):
    total = 0
    for index in range(PROPERTY_GAMES):
        players, options, kind = property_case(index)
        state, rounds = play_checked(game, players, index, options, kind)
        assert state.phase == "over"
        total += rounds
    assert total > PROPERTY_GAMES * 5


def test_the_command_line_plays_a_game_with_bots():
    result = CliRunner().invoke(cli, ["play", "villagers", "--seats", "greedy,random", "--seed", "2"])
    assert result.exit_code == 0, result.output
    assert "game over" in result.output and "villager" in result.output


def test_the_command_line_plays_tiny_tears():
    result = CliRunner().invoke(cli, ["play", "villagers", "--seats", "random,random", "--seed", "3",
                                      "--option", "tiny_tears=true", "--option", "variant=town_hall"])
    assert result.exit_code == 0, result.output
    assert "game over" in result.output


def main(argv) -> int:
    """`python tests/test_villagers_pack.py [GAMES]`: the property run, with its figures."""
    games = int(argv[0]) if argv else PROPERTY_GAMES
    game = open_game("villagers")
    start, rounds, by_mode, counts = time.perf_counter(), 0, {"standard": 0, "tiny_tears": 0}, {}
    for index in range(games):
        players, options, kind = property_case(index)
        state, checked = play_checked(game, players, index, options, kind, counts)
        assert state.phase == "over"
        rounds += checked
        by_mode["tiny_tears" if options.get("tiny_tears") else "standard"] += 1
    seconds = time.perf_counter() - start
    print(f"{games} games ({by_mode['standard']} standard, {by_mode['tiny_tears']} Tiny Tears) finished; "
          f"{rounds} round ends checked, no villager with a resource; {seconds:.0f} s")
    used = {a: counts.get(a, 0) for a in ("scrap", "forage", "cut_corners", "renovate", "cooperate", "innovate",
                                         "discard_villager", "step_aside", "go_to_lodge", "leave_lodge")}
    print("moves:", ", ".join(f"{a} {n}" for a, n in used.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
