"""Directions (interpreter/compiler/directions.py): each grid's own, by name, with steps, rays and lines."""

from __future__ import annotations

import pytest

from boardrule.dsl.diagnostics import PackError
from boardrule.dsl.pack import load_pack_text
from boardrule.interpreter.api import evaluate, new_game, show_value
from boardrule.interpreter.compiler.game import compile_game

PACK = """\
game: {{id: compass, players: 1}}
board: {{grid: {grid}}}
pieces: {{stone: {{symbol: S}}}}
actions: {{put: {{params: {{c: cells where empty}}, effect: place stone at c}}}}
flow: {{round: [{{turns: [put]}}], end: "none(cells, empty)"}}
scoring:
  far: |-
    {rule}
"""


def _game(grid, rule="0"):
    return compile_game(load_pack_text(PACK.format(grid=grid, rule=rule), "compass.pack"))


def _show(game, text):
    value, value_type = evaluate(game, new_game(game, 1), text)
    return show_value(game, value, value_type)


@pytest.mark.parametrize("grid, directions", [
    ("square 3 x 3", "north northeast east southeast south southwest west northwest"),
    ("hex pointy-odd 3 x 3", "northeast east southeast southwest west northwest"),
    ("hex flat-odd 3 x 3", "north northeast southeast south southwest northwest"),
])
def test_each_grid_has_its_own_directions_clockwise_from_the_top(grid, directions):
    assert _show(_game(grid), "directions") == directions


def test_a_hex_grid_steps_to_the_neighbour_on_each_side():
    game = _game("hex pointy-odd 3 x 3")
    neighbours = _show(game, 'adjacent(cell("B2"))').split()
    stepped = [_show(game, f'step(cell("B2"), {d})') for d in _show(game, "directions").split()]
    assert sorted(stepped) == sorted(neighbours) and len(stepped) == 6


def test_rays_stop_at_the_edge_and_where_their_condition_fails():
    game = _game("square 5 x 5")
    assert _show(game, 'ray(cell("A1"), east)') == "B1 C1 D1 E1"
    assert _show(game, 'ray(cell("C3"), northwest)') == "B2 A1"
    assert _show(game, 'ray(cell("A1"), south, while = it.y < 3)') == "A2 A3"
    assert _show(game, 'ray(cell("A1"), north)') == ""


def test_steps_and_lines_between_cells():
    game = _game("square 5 x 5")
    assert _show(game, 'step(cell("B2"), southeast, 2)') == "D4"
    assert _show(game, 'step(cell("B2"), north, 2)') == "none"
    assert _show(game, 'step(cell("B2"), north, 0)') == "B2"
    assert _show(game, 'between(cell("E1"), cell("A5"))') == "D2 C3 B4"
    assert _show(game, 'between(cell("A1"), cell("B3"))') == ""  # no direction reaches it
    assert _show(game, 'between(cell("A1"), cell("B1"))') == ""  # neighbours: nothing between


def test_a_hole_in_a_masked_board_cuts_rays_and_lines():
    text = PACK.format(grid="square 3 x 1", rule="0").replace(
        "board: {grid: square 3 x 1}", "board: {grid: square 3 x 1, mask: '# . #'}")
    game = compile_game(load_pack_text(text, "compass.pack"))
    assert _show(game, 'ray(cell("A1"), east)') == ""
    assert _show(game, 'between(cell("A1"), cell("C1"))') == ""


def test_a_direction_the_board_lacks_is_an_error_that_lists_its_directions():
    with pytest.raises(PackError) as caught:
        _game("hex pointy-odd 3 x 3", 'count(ray(cell("B2"), north))')
    found = caught.value.diagnostics[0]
    assert found.code == "E225"
    assert found.message == ("this board has no direction `north`: its directions are northeast, east, "
                             "southeast, southwest, west, northwest")


def test_a_negative_number_of_steps_stops_the_rule():
    from boardrule.interpreter.runtime.values import RuleError
    game = _game("square 3 x 3")
    with pytest.raises(RuleError, match="0 or more steps"):
        evaluate(game, new_game(game, 1), 'step(cell("A1"), east, -1)')
