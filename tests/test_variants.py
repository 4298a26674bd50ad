"""Variants of the bundled packs score as the cards say: no constant of the
base pack (its board's size, its list of buildings, its Object line) is
hidden where a variant cannot see it.

Each test writes a small variant (`extends: tinytowns` or `extends: townies`)
into a temporary folder and checks scores or legal moves through the library
API. The variants give `tests: []`: the base's own scenarios are written for
the base's board.
"""

from __future__ import annotations

import textwrap

import pytest

from boardrule.interpreter.api import apply, legal_moves, load_position, move_text, open_game, score_report
from boardrule.interpreter.runtime.values import RuleError


def variant(tmp_path, text, name="variant.pack"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text).lstrip())
    return open_game(path)


def position(game, tmp_path, text, players=1, options=None):
    path = tmp_path / "position.yaml"
    path.write_text(textwrap.dedent(text).lstrip())
    return load_position(game, path, players=players, options=options)


def terms(game, state, seat=0):
    sheet = score_report(game, state)["players"][seat]
    found = {}
    for term in sheet["terms"]:
        found[term["label"]] = found.get(term["label"], 0) + term["points"]
    return found


def legal(game, state, seat=0):
    return {move_text(m, game.grid) for m in legal_moves(game, state, seat)}


def move(game, state, text, seat=0):
    [found] = [m for m in legal_moves(game, state, seat) if move_text(m, game.grid) == text]
    return apply(game, state, found)


NO_MONUMENTS = {"monuments": False, "variant": "standard"}


# ------------------------------------------------------------------ Tiny Towns
def test_a_5x5_town_feeds_four_cottages_per_farm(tmp_path):
    """Board order is the board's own reading order: on 5x5 the Farm feeds B1-E1 (4), not A2 too."""
    game = variant(tmp_path, """
        extends: tinytowns
        game: {id: tinytowns_5x5}
        board: {grid: square 5 x 5}
        tests: []
    """)
    state = position(game, tmp_path, """
        board: |
          F C C C C
          C . . . .
          . . . . .
          . . . . .
          . . . . .
    """, options=NO_MONUMENTS)
    assert terms(game, state)["Cottage"] == 12


def test_a_new_building_that_reads_fed_gets_the_best_feeding(tmp_path):
    """A building the base does not know, scoring 2 per fed Cottage next to it: the Farm feeds D4."""
    game = variant(tmp_path, """
        extends: tinytowns
        game: {id: tinytowns_dovecote}
        pieces:
          dovecote:
            symbol: DV
            label: Dovecote
            category: orange
            score: 2 * count(adjacent where fed and cottages > 0)
        tests: []
    """)
    state = position(game, tmp_path, """
        board: |
          F C C C
          C C . .
          . . . DV
          . . C C
    """, options=NO_MONUMENTS)
    found = terms(game, state)
    assert (found["Cottage"], found["Dovecote"]) == (12, 2)


def test_a_variant_building_that_reads_fed_on_6x6(tmp_path):
    """Two Farms, nine Cottages and a building that loses points for hungry Cottages beside it:
    by hand the best is to leave hungry the Cottage that touches it least."""
    game = variant(tmp_path, """
        extends: tinytowns
        game: {id: tinytowns_6x6}
        board: {grid: square 6 x 6}
        pieces:
          poorhouse:
            symbol: PH
            label: Poorhouse
            category: green
            score: -3 * count(adjacent where cottages > 0 and not fed)
        tests: []
    """)
    state = position(game, tmp_path, """
        board: |
          F  C  C  C  C  F
          C  .  C  .  .  .
          .  .  .  .  .  .
          .  .  .  .  .  .
          .  .  .  .  C  .
          .  .  .  C  PH C
    """, options=NO_MONUMENTS)
    found = terms(game, state)
    # 8 of the 9 Cottages are fed: the Poorhouse's three neighbours among them
    assert (found["Cottage"], found["Poorhouse"]) == (24, 0)


def test_cloister_on_a_board_with_holes_counts_the_outer_corners(tmp_path):
    """A 5x5 town with a cross-shaped hole: its four inner corners (B2 D2 B4 D4) are no corners."""
    game = variant(tmp_path, """
        extends: tinytowns
        game: {id: tinytowns_holes}
        board:
          grid: square 5 x 5
          mask: |
            # # # # #
            # # . # #
            # . . . #
            # # . # #
            # # # # #
        tests: []
    """)
    state = position(game, tmp_path, """
        board: |
          CL .  .  .  AB
          .  AB -  AB .
          .  -  -  -  .
          .  AB -  .  .
          T  .  .  .  .
    """, options=NO_MONUMENTS)
    assert terms(game, state)["Cloister"] == 3


def test_theater_counts_every_type_in_a_larger_town(tmp_path):
    """The card's "max 6" is what a 4x4 town allows, not a rule: on 5x5 a Theater sees 8 types."""
    game = variant(tmp_path, """
        extends: tinytowns
        game: {id: tinytowns_theater}
        board: {grid: square 5 x 5}
        tests: []
    """)
    state = position(game, tmp_path, """
        board: |
          TH C  F  W  AB
          GH .  .  .  .
          FN .  .  .  .
          BK .  .  .  .
          TV .  .  .  .
    """, options=NO_MONUMENTS)
    assert terms(game, state)["Theater"] == 8


# ------------------------------------------------------------------ Townies
EMPTY_MAP = """
    board: |
      . . . . . . . . .
      . . . . . . . . .
      . . . . . . . . .
      . . . . . . . . .
      . . . . . . . . .
      . . . . . . . . .
      . . . . . . . . .
      B:blue - . - . - . - .
    dice: {black: bar, white: city_square}
"""


def test_a_new_object_may_go_on_the_edge_spaces_its_rule_allows(tmp_path):
    """A Lighthouse goes on any empty edge space, next to a Block or not."""
    game = variant(tmp_path, """
        extends: townies
        game: {id: townies_lighthouse}
        pieces:
          lighthouse:
            symbol: LH
            object: true
            basic: red
            variable: [color]
            place: self in edge
        tests: []
    """)
    state = position(game, tmp_path, EMPTY_MAP, options={"mode": "first"})
    found = legal(game, state)
    assert {"draw_object lighthouse A1", "draw_object lighthouse I1", "draw_object lighthouse E8"} <= found
    assert "draw_object lighthouse E4" not in found
    assert sum(m.startswith("draw_object lighthouse") for m in found) == 29  # the 30 edge spaces but A8


def test_a_new_object_scores_by_its_own_rule(tmp_path):
    """The Lighthouse's own rule (1 per blue Block beside it, plus 3), not the City Square's."""
    game = variant(tmp_path, """
        extends: townies
        game: {id: townies_lighthouse}
        pieces:
          lighthouse:
            symbol: LH
            object: true
            basic: red
            variable: [color]
            place: self in edge
            rules:
              points: near(self, blue) + 3
        tests: []
    """)
    state = position(game, tmp_path, EMPTY_MAP, options={"mode": "first"})
    after = move(game, state, "draw_object lighthouse A7")
    assert list(after.pvars[0]["line"]) == [4]
    assert terms(game, after)["lighthouse"] == 4  # its own line of the sheet (it gives no `label:`)


def test_an_object_without_its_own_rule_is_an_error_not_a_city_square(tmp_path):
    game = variant(tmp_path, """
        extends: townies
        game: {id: townies_lighthouse}
        pieces:
          lighthouse:
            symbol: LH
            object: true
            basic: red
            variable: [color]
            place: self in edge
        tests: []
    """)
    state = position(game, tmp_path, EMPTY_MAP, options={"mode": "first"})
    with pytest.raises(RuleError, match="`lighthouse` on A7 has no rule `points`"):
        move(game, state, "draw_object lighthouse A7")


SEVEN = """
    extends: townies
    game: {id: townies_seven}
    override: [define.object_line]
    define:
      object_line: 7
    tests: []
"""


def test_an_object_line_of_seven_ends_the_game_at_the_seventh_object(tmp_path):
    game = variant(tmp_path, SEVEN)
    state = position(game, tmp_path, """
        board: |
          B:red . . . . . . . .
          . . . . . . . . .
          . . . . . . . . .
          . . . . . . . . .
          . . . . . . . . .
          . . . . . . . . .
          . . . . . . . . .
          . - . - . - . - .
        dice: {black: bar, white: game_court}
        player_vars: {P1: {line: [1, 1, 1, 1, 1, 1]}}
    """, options={"mode": "first"})
    after = move(game, state, "draw_object game_court B1")
    assert after.phase == "over"


def test_an_object_line_of_seven_has_seven_spaces_to_circle_in_solo(tmp_path):
    """Solo: 4 Objects and 3 circled spaces fill a line of 7: no more Shapes."""
    game = variant(tmp_path, SEVEN)
    state = position(game, tmp_path, """
        board: |
          B:red . . . . . . . .
          . . . . . . . . .
          . . . . . . . . .
          . . . . . . . . .
          . . . . . . . . .
          . . . . . . . . .
          . . . . . . . . .
          . - . - . - . - .
        dice: {black: bar, white: game_court}
        player_vars: {P1: {line: [1, 1, 1, 1], circled: 3}}
    """, options={"mode": "first"})
    found = legal(game, state)
    assert not any(m.startswith("draw_shape") for m in found)
    assert "draw_object game_court B1" in found
