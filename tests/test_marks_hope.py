"""What the marks could still give (interpreter/agents/marks.py): the score a board would have if the
pieces that wait for a mark had it, which `strong` counts a share of when it judges a position."""

from __future__ import annotations

from pathlib import Path

from boardrule.interpreter import api
from boardrule.interpreter.agents.evaluation import totals
from boardrule.interpreter.agents.marks import hoped_total
from boardrule.interpreter.runtime.scoring import score_sheet

PACKS = Path(__file__).resolve().parent / "packs"


def position(tmp_path, board):
    game = api.open_game(str(PACKS / "feeding.pack"))
    path = tmp_path / "position.yaml"
    path.write_text("board: |\n" + "".join(f"  {row}\n" for row in board))
    return game, api.load_position(game, path, players=1)


def now_and_hoped(tmp_path, board):
    game, state = position(tmp_path, board)
    return score_sheet(game, state, 0).total, hoped_total(game, state, 0)


def test_pieces_waiting_for_a_mark_are_hoped_to_score_with_it(tmp_path):
    # two Cottages nothing feeds: 0 now, 3 each once fed
    now, hoped = now_and_hoped(tmp_path, ["C C . .", ". . . .", ". . . .", ". . . ."])
    assert (now, hoped) == (-14, -8)


def test_what_a_provider_gives_already_is_not_hoped_for_again(tmp_path):
    now, hoped = now_and_hoped(tmp_path, ["F C C .", ". . . .", ". . . .", ". . . ."])
    assert now == hoped == -7


def test_the_pieces_that_count_the_marks_given_are_hoped_for_too(tmp_path):
    # a Chapel counts the fed Cottages; the trial of giving the Chapel itself a mark, which its own
    # rule cannot count (it is not feedable), is left out
    now, hoped = now_and_hoped(tmp_path, ["C C P .", ". . . .", ". . . .", ". . . ."])
    assert (now, hoped) == (-13, -13 + 6 + 2)


def test_an_agent_counts_the_share_it_asks_for(tmp_path):
    game, state = position(tmp_path, ["C C . .", ". . . .", ". . . .", ". . . ."])
    plain = totals(game, state, ahead=False)[0]
    assert totals(game, state, ahead=False, hope=0.5)[0] == plain + 0.5 * 6


def test_a_pack_without_marks_hopes_for_nothing():
    game = api.open_game("tictactoe")
    state = api.initial_state(game, 2, 0)
    assert hoped_total(game, state, 0) is None and totals(game, state, ahead=False, hope=0.5) == {0: 0.0, 1: 0.0}
