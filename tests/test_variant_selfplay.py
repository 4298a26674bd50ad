"""The bundled games stay variant-friendly: common variants check, play to the end with seeded
random bots, and score; a base mask that no longer fits a changed grid says so where it is."""

from __future__ import annotations

import pytest

from boardrule.dsl.diagnostics import PackError
from boardrule.interpreter.agents import make_agent, play_out
from boardrule.interpreter.api import new_game, open_game
from boardrule.interpreter.designer.check import check_pack
from boardrule.interpreter.runtime.outcome import outcome

TOWNIES_MASK_11 = "\n".join(["    " + " ".join("#" * 11)] * 7 + ["    " + " ".join("#." * 5 + "#")])

VARIANTS = {
    "tinytowns on 3x3": ("tinytowns", "board: {grid: square 3 x 3}\n", (1, 2)),
    "tinytowns on 5x5": ("tinytowns", "board: {grid: square 5 x 5}\n", (1, 3)),
    "tinytowns on 6x6": ("tinytowns", "board: {grid: square 6 x 6}\n", (1, 4)),
    "tinytowns with a changed chart": ("tinytowns", "override: [charts.taverns]\n"
                                       "charts:\n  taverns: 1 2 3 4 5+ -> 1 2 3 4 5\n", (1, 2, 6)),
    "tinytowns without the Tavern": ("tinytowns", "remove: [pieces.tavern, decks.green_cards.tavern, "
                                     "decks.solo_green_cards.tavern]\n", (1, 3)),
    "tinytowns with a new building": ("tinytowns", "pieces:\n  well_house: {symbol: WH, category: gray, "
                                      "pattern: well_house_pattern, score: 1}\nshapes:\n"
                                      "  well_house_pattern: {art: \"wood wood\"}\n"
                                      "decks:\n  gray_cards: {well_house: 1, override: true}\n", (1, 2)),
    "townies on a wider map": ("townies", f"board:\n  grid: hex flat-odd 11 x 8\n  mask: |\n{TOWNIES_MASK_11}\n",
                               (1, 2)),
    "townies ending earlier": ("townies", "override: [define.object_line]\ndefine:\n  object_line: 6\n", (1, 3)),
}


@pytest.mark.parametrize("name", VARIANTS)
def test_a_common_variant_checks_and_plays_to_the_end(tmp_path, name):
    base, text, player_counts = VARIANTS[name]
    path = tmp_path / "variant.pack"
    path.write_text(f"extends: {base}\ngame: {{id: variant, name: Variant}}\nremove: [tests]\n{text}"
                    .replace("remove: [tests]\nremove: [", "remove: [tests, "))
    report = check_pack(path)
    assert report.ok, [d.message for d in report.diagnostics if d.severity == "error"]
    game = open_game(path)
    for players in player_counts:
        for seed in (1, 2):
            state = new_game(game, players, seed)
            agents = {seat: make_agent("random", seed * 10 + seat) for seat in state.players}
            final = play_out(game, state, agents)
            assert final.phase == "over"
            assert all(isinstance(sheet.total, int) for sheet in outcome(game, final).sheets.values())


def test_a_base_mask_that_no_longer_fits_the_grid_points_at_it(tmp_path):
    path = tmp_path / "wide.pack"
    path.write_text("extends: townies\ngame: {id: wide}\nboard: {grid: hex flat-odd 11 x 8}\n")
    with pytest.raises(PackError) as caught:
        open_game(path)
    diag = caught.value.diagnostics[0]
    assert diag.code == "E307" and diag.message == "row 1 of the mask has 9 marks; row 1 of the board has 11 cells"
    assert diag.span.file.endswith("townies.pack") and "remove: [board.mask]" in diag.hint
