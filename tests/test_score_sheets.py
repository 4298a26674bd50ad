"""Score sheets as a front end reads them: each term's label, points, source and count; the
best choice of marks, its ties and its limit; a score that reads a score.

Mutation testing of interpreter/runtime/scoring.py found these unpinned (docs/architecture.md):
`boardrule score --format json` prints the sources and counts (interpreter/api.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from boardrule.dsl.pack import load_pack_text
from boardrule.interpreter.runtime import scoring
from boardrule.interpreter.api import evaluate, score_report
from boardrule.interpreter.runtime.flow import initial_state
from boardrule.interpreter.compiler.game import compile_game
from boardrule.interpreter.runtime.scoring import first_choice_marks, score_sheet
from boardrule.interpreter.runtime.values import RuleError

PACK = """\
game: {id: sheets, name: Sheets, players: 2}
board: {grid: square 5 x 1, shared: true}
pieces:
  house: {symbol: H, score: "if fed then 3 else 1", label: homes}
  hut: {symbol: U, score: "if fed then 3 else 1", label: huts}
  field: {symbol: F, marks: {fed: "choose(cells where kind == house or kind == hut)"}}
actions:
  play:
    params: {cell: cells where empty}
    effect: place house at cell
flow:
  round:
    - turns: [play]
  end: none(cells, empty)
scoring:
  fields: count(cells where kind == field)
SCORED_BY_OTHERS
"""


def game_of(others: str = ""):
    return compile_game(load_pack_text(PACK.replace("SCORED_BY_OTHERS", others), "sheets.pack"))


def state_with(game, *kinds):
    state = initial_state(game, 2)
    state.kind[0] = list(kinds) + [None] * (5 - len(kinds))
    return state


def terms(report, seat=0):
    return [(t["label"], t["points"], t["source"], t["count"]) for t in report["players"][seat]["terms"]]


def test_a_sheet_names_each_term_s_source_and_count():
    game = game_of()
    state = state_with(game, "house", "house", "hut")
    state.points[0] += [["bonus", 2], ["bonus", 3], ["tip", 1]]
    assert terms(score_report(game, state)) == [
        ("bonus", 5, "recorded", 2), ("tip", 1, "recorded", 1),  # `score` statements, by label
        ("homes", 2, "piece", 2), ("huts", 1, "piece", 1),        # pieces' scores, by label: no field, no choice
        ("fields", 0, "scoring", 1),
    ]
    assert score_report(game, state)["players"][0]["total"] == 9


def test_the_marks_take_the_best_choice_and_among_equals_the_first():
    game = game_of()
    state = state_with(game, "house", "field", "hut")  # the field feeds the house or the hut: 3 + 1 either way
    sheet = score_sheet(game, state, 0)
    assert sheet.total == 5 and sheet.by_label() == {"homes": 3, "huts": 1, "fields": 1}
    state = state_with(game, "hut", "field", "house")
    assert score_sheet(game, state, 0).by_label() == {"huts": 3, "homes": 1, "fields": 1}


def test_outside_scoring_a_mark_with_a_choice_reads_its_first_option():
    game = game_of()
    state = state_with(game, "hut", "field", "house")
    assert first_choice_marks(game, state, 0) == {"fed": frozenset({0})}
    assert first_choice_marks(game, state, None) == {}
    assert evaluate(game, state, "count(cells where fed)")[0] == 1


def test_every_combination_of_choices_up_to_the_limit_is_tried(monkeypatch):
    game = game_of()
    state = state_with(game, "house", "field", "hut", "field")  # two fields, two huts to feed: 3 outcomes
    monkeypatch.setattr(scoring, "MAX_COMBINATIONS", 3)
    assert score_sheet(game, state, 0).total == 8
    monkeypatch.setattr(scoring, "MAX_COMBINATIONS", 2)
    with pytest.raises(RuleError) as info:
        score_sheet(game, state, 0)
    assert str(info.value).startswith("more than 2 ways to choose marks; simplify the `choose` rules")


def test_a_score_may_read_another_player_s_score():
    game = game_of("  copied: if me == players[1] then players[0].score else 0")
    state = state_with(game, "house")
    assert score_sheet(game, state, 0).total == 1
    assert score_sheet(game, state, 1).total == 2  # its own house, and P1's 1


def test_a_score_that_reads_itself_is_a_rule_error():
    game = game_of("  mine: me.score")
    with pytest.raises(RuleError) as info:
        score_sheet(game, state_with(game), 1)
    assert str(info.value).startswith("the score of P2 depends on itself (a scoring rule reads `.score`)")
    assert score_sheet(game_of(), state_with(game), 1).total == 0  # and the next sheet is fine


def test_the_combinations_limit_is_the_one_the_docs_state():
    page = (Path(__file__).resolve().parents[1] / "docs" / "language.md").read_text(encoding="utf-8")
    assert f"choices in marks at\n{scoring.MAX_COMBINATIONS:,} combinations" in page
