"""interpreter/records/timeline.py: undo and redo of a player's decisions across replies and chance steps."""

from __future__ import annotations

from boardrule.interpreter import agents, api
from boardrule.interpreter.records import gamelog, timeline


def _play(line, game, seat, index=0):
    state = line.current
    line.add(api.apply(game, state, api.legal_moves(game, state, seat)[index]), seat)


def test_undo_goes_back_across_other_players_and_redo_brings_it_back():
    game = api.open_game("tictactoe")
    line = timeline.Timeline(game, [api.new_game(game, 2, seed=1)])
    _play(line, game, 0, 4)
    _play(line, game, 1)
    taken = line.undo(0)
    assert taken.moves == ((0, "play B2"), (1, "play A1")) and taken.own == ("play B2",)
    assert len(line.states) == 1
    assert line.redo(0).own == ("play B2",) and len(line.states) == 3
    line.undo(0)
    _play(line, game, 0, 0)  # a new decision forgets what was undone
    assert isinstance(line.redo(0), str)


def test_a_roll_after_an_undone_decision_comes_again():
    game = api.open_game("townies")
    line = timeline.Timeline(game, [api.new_game(game, 1, seed=3, options={"mode": "first"})])
    seat = api.waiting(line.current)[0]  # the solo player sits at a seat drawn at random
    _play(line, game, seat, 0)
    rolled = dict(line.current.dice)
    taken = line.undo(seat)
    assert taken.chance >= 1  # the roll of the next round was taken back with the move
    _play(line, game, seat, -1)
    assert line.current.dice == rolled


def test_another_person_who_has_seen_the_move_stops_the_undo():
    game = api.open_game("tictactoe")
    line = timeline.Timeline(game, [api.new_game(game, 2, seed=1)])
    line.shown(0)
    _play(line, game, 0)
    line.shown(1)
    assert line.undo(0, others=(0, 1)) == "P2 has seen the game since your last decision"
    # what was shown to nobody else, or the same as before the decision, does not stop it
    line.seen[1] = {0}
    assert not isinstance(line.undo(0, others=(0, 1)), str)


def test_a_saved_game_gives_a_timeline_to_undo_in():
    game = api.open_game("connect4")
    state = api.new_game(game, 2, seed=2)
    for _ in range(4):
        seat = api.waiting(state)[0]
        state = api.apply(game, state, api.legal_moves(game, state, seat)[0])
    line = timeline.from_log(game, gamelog.record(game, state, 2, 2))
    assert len(line.states) == 5 and line.movers[1:] == [0, 1, 0, 1]
    last = state.log[-1][2]
    assert line.undo(1).own == (last,) and len(line.states) == 4


def test_a_bot_answers_a_position_the_same_way_however_it_was_reached():
    game = api.open_game("connect4")
    state = api.new_game(game, 2, seed=2)
    bot = agents.make_agent("random", 5)
    moves = api.legal_moves(game, state, 0)
    first = agents.decide(bot, game, state, 0, moves, 7)
    bot(game, state, 0, moves)  # the bot's generator moves on...
    assert agents.decide(bot, game, state, 0, moves, 7) == first  # ...and is seeded for the position again


def test_a_hint_is_a_legal_move_judged_on_the_players_view():
    game = api.open_game("tinytowns")
    state = api.new_game(game, 2, seed=4)
    move = agents.hint(game, state, 0, seed=1)
    assert move in api.legal_moves(game, state, 0)
