"""The shape potential (interpreter/agents/patterns.py): a pattern begun on the board is worth part of what
completing it would score, so that the agents plan moves that only pay off a few moves later."""

from __future__ import annotations

from boardrule.interpreter.agents import evaluation, make_agent, patterns
from boardrule.interpreter.api import new_game, open_game
from boardrule.interpreter.runtime import flow
from boardrule.interpreter.runtime.values import PLAYERS

# one seat places pieces on a 3x3 board; three in a row, `a b a`, make a hut worth 5
HUTS = """\
game: {id: huts, name: Huts, players: 1}
board: {grid: square 3 x 3}
symbols:
  stuff: [a, b]
pieces:
  a: {symbol: a, category: stuff}
  b: {symbol: b, category: stuff}
  hut: {symbol: H, category: home, pattern: row, score: 5}
shapes:
  row: {art: "a b a", symmetry: all}
actions:
  put:
    params: {piece: stuff, cell: cells where empty}
    effect: place piece at cell
  build:
    params:
      building: "[hut]"
      match: matches(building.pattern)
    effect: |
      remove match
      place building at match[0]
flow:
  round:
    - turns: [put]
    - together: [build]
      repeat: true
  end: none(cells where empty)
  check_end: round
"""


def _huts(tmp_path):
    (tmp_path / "huts.pack").write_text(HUTS)
    return open_game(str(tmp_path / "huts.pack"))


def _with(game, pieces):
    """A new game with these (kind, cell) pieces on the board."""
    state = new_game(game, players=1, seed=0)
    for kind, cell in pieces:
        state.kind[0][cell] = kind
        state.owner[0][cell] = PLAYERS[0]
    state.moves_cache.clear()  # the moves listed before the pieces were put there
    return state


def test_the_shape_params_of_an_action_are_found_at_compile_time(tmp_path):
    game = _huts(tmp_path)
    assert [index for index, _ in game.actions["build"].shape_params] == [1]
    assert game.actions["put"].shape_params == ()
    assert patterns.shaped_actions(open_game("tictactoe")) == ()


def test_a_pattern_one_piece_from_complete_is_worth_more_than_one_two_pieces_from_it(tmp_path):
    game = _huts(tmp_path)
    near = _with(game, [("a", 0), ("b", 1)])  # a b . on the top row: one `a` missing
    far = _with(game, [("a", 0), ("b", 4)])  # a in a corner, b in the centre: two pieces missing at best
    nothing = _with(game, [])
    assert evaluation.score_now(game, near, 0) == evaluation.score_now(game, far, 0)
    assert patterns.potential(game, near, 0) == 5 * patterns.DISCOUNT
    assert patterns.potential(game, far, 0) == 5 * patterns.DISCOUNT ** 2
    assert patterns.potential(game, nothing, 0) == 0  # no pattern begun
    assert patterns.potential(game, near, 0, discount=0) == 0
    assert patterns.potential(game, far, 0, limit=1) == 0  # two missing: no pattern begun for `missing=1`
    assert evaluation.totals(game, far, ahead=False, missing=1) == {0: 0}
    judged = {name: evaluation.evaluate(game, state, 0, ahead=False) for name, state in
              (("near", near), ("far", far), ("nothing", nothing))}
    assert judged["near"] > judged["far"] > judged["nothing"]


def test_a_blocked_placement_is_no_pattern_begun_and_its_pieces_are_stranded(tmp_path):
    game = _huts(tmp_path)
    # a b b on the top row and b in every other line through the `a`: no placement can still be completed
    blocked = _with(game, [("a", 0), ("b", 1), ("b", 2), ("b", 3), ("b", 6), ("b", 4)])
    assert patterns.stranded_pieces(game, blocked, 0, [game.shapes["row"]]) == 6
    assert patterns.potential(game, blocked, 0) == -6 * patterns.STRANDED
    assert patterns.potential(game, blocked, 0, stranded=0) == 0


def test_a_piece_no_placement_can_use_counts_against_the_potential(tmp_path):
    game = _huts(tmp_path)
    corner = _with(game, [("b", 8)])  # `b` is the middle of `a b a`: in a corner no placement takes it
    centre = _with(game, [("b", 4)])
    assert evaluation.score_now(game, corner, 0) == evaluation.score_now(game, centre, 0)
    assert patterns.stranded_pieces(game, corner, 0, [game.shapes["row"]]) == 1
    assert patterns.stranded_pieces(game, centre, 0, [game.shapes["row"]]) == 0
    assert patterns.potential(game, corner, 0) == -patterns.STRANDED
    assert patterns.potential(game, centre, 0) == 5 * patterns.DISCOUNT ** 2
    # the same piece next to an `a` that fills one end of its line: one piece missing, nothing stranded
    begun = _with(game, [("a", 6), ("b", 7)])
    assert patterns.potential(game, begun, 0) == 5 * patterns.DISCOUNT
    # what the agents judge: the evaluation, and strong's `stranded=` setting
    now = evaluation.score_now(game, corner, 0)
    assert evaluation.evaluate(game, corner, 0, ahead=False) == now - patterns.STRANDED
    assert evaluation.evaluate(game, corner, 0, ahead=False, stranded=2.5) == now - 2.5
    from boardrule.interpreter.agents.ismcts import DEFAULTS, parse_settings
    assert DEFAULTS["stranded"] == patterns.STRANDED and parse_settings("stranded=2.5") == {"stranded": 2.5}


def test_the_move_that_begins_a_pattern_is_judged_best_only_with_the_potential(tmp_path):
    game = _huts(tmp_path)
    state = _with(game, [("a", 0)])  # an `a` in the corner: a `b` next to it, or an `a` two cells away,
    # leaves one piece to find
    moves = flow.legal_moves(game, state, 0)
    values = {move: evaluation.judge_move(game, state, 0, move, reach=0) for move in moves}
    flat = {move: evaluation.judge_move(game, state, 0, move, reach=0, discount=0) for move in moves}
    assert len(set(flat.values())) == 1  # the score alone tells no placement apart
    top = max(values.values())
    assert {move.args for move in moves if values[move] == top} == {("b", 1), ("b", 3), ("a", 2), ("a", 6)}


def test_the_potential_counts_only_while_the_game_is_on(tmp_path):
    game = _huts(tmp_path)
    state = new_game(game, players=1, seed=0)
    agent = make_agent("greedy", 0)
    while state.phase != "over":
        state = flow.apply(game, state, agent(game, state, 0, flow.legal_moves(game, state, 0)))
    assert patterns.potential(game, state, 0) == 0


def test_strong_judges_at_once_where_moves_ask_for_patterns_and_plays_to_the_end_elsewhere(tmp_path):
    from boardrule.interpreter.agents.ismcts import DEFAULTS, parse_settings
    from boardrule.interpreter.agents.montecarlo import playout_depth
    assert DEFAULTS["depth"] == "auto"
    assert playout_depth(_huts(tmp_path), "auto") == 0
    assert playout_depth(open_game("tictactoe"), "auto") is None
    assert playout_depth(open_game("tictactoe"), 3) == 3
    assert parse_settings("depth=auto:shapes=0.3") == {"depth": "auto", "shapes": 0.3}


def test_mcts_by_default_judges_at_once_where_moves_ask_for_patterns_and_plays_10_moves_elsewhere(tmp_path):
    # random playout moves break the patterns begun (in a bundled pattern pack, mcts judging at once scored
    # 3 points more a game than with 10 random moves: docs/simulate.md)
    from boardrule.interpreter.agents.montecarlo import AUTO_DEPTH, MonteCarloAgent, parse_settings, playout_depth
    assert MonteCarloAgent().depth == "auto" and AUTO_DEPTH == 10
    assert playout_depth(_huts(tmp_path), "auto", AUTO_DEPTH) == 0
    assert playout_depth(open_game("tictactoe"), "auto", AUTO_DEPTH) == 10
    assert parse_settings("depth=auto") == {"depth": "auto"} and parse_settings("depth=end") == {"depth": None}
    game = open_game("tictactoe")
    state = new_game(game, players=2, seed=1)
    moves = flow.legal_moves(game, state, 0)
    for seed in range(3):  # auto is 10 moves where no move asks for a pattern
        assert make_agent("mcts:30", seed)(game, state, 0, moves) == make_agent("mcts:30:depth=10", seed)(
            game, state, 0, moves)


def test_strong_without_patterns_in_the_pack_plays_as_without_the_potential():
    # the potential adds nothing where no action matches a pattern: the same moves with it switched off
    game = open_game("tictactoe")
    state = new_game(game, players=2, seed=1)
    moves = flow.legal_moves(game, state, 0)
    for seed in range(3):
        assert make_agent("strong:40", seed)(game, state, 0, moves) == \
            make_agent("strong:40:shapes=0", seed)(game, state, 0, moves)


def test_a_search_remembers_potentials_only_while_it_runs(tmp_path):
    game = _huts(tmp_path)
    state = _with(game, [("a", 0), ("b", 1)])
    assert patterns._MEMO[0] is None
    with patterns.remembering():
        first = patterns.potential(game, state, 0)
        assert len([key for key in patterns._MEMO[0] if key[0] not in ("nearest", "stranded")]) == 1
        assert patterns.potential(game, state, 0) == first
    assert patterns._MEMO[0] is None


def test_a_search_remembers_a_boards_nearest_placements_and_stranded_pieces_charging_them_each_time(tmp_path):
    game = _huts(tmp_path)
    state = _with(game, [("a", 0), ("b", 1), ("b", 6)])
    shapes = list(game.shapes.values())
    found = []
    for remember in (False, True):
        outer = patterns._MEMO[0]
        patterns._MEMO[0] = {} if remember else None
        try:
            before = state.meter.left
            answers = [patterns._nearest(game, state, 0, shape, 2) for shape in shapes * 2]
            answers.append(patterns.stranded_pieces(game, state, 0, shapes))
            answers.append(patterns.stranded_pieces(game, state, 0, shapes))
            found.append((answers, before - state.meter.left))
            if remember:
                assert any(key[0] == "nearest" for key in patterns._MEMO[0])
        finally:
            patterns._MEMO[0] = outer
    assert found[0] == found[1]


def _stranded_by_definition(game, kinds, shapes):
    """The stranded pieces counted placement by placement, as the definition says."""
    known = game.static_attrs
    asked, usable = set(), set()
    for shape in shapes:
        for placement in game.placement_table(shape).placements:
            asked.update(symbol for _, symbol in placement.pairs if symbol in known)
            slots = [(cell, symbol) for cell, symbol in placement.pairs if symbol in known]
            if all(kinds[cell] in (None, symbol) for cell, symbol in slots):
                usable.update(cell for cell, symbol in slots if kinds[cell] == symbol)
    return sum(1 for cell, kind in enumerate(kinds) if kind in asked and cell not in usable)


def test_the_stranded_pieces_of_a_pattern_pack_are_those_the_definition_counts():
    import random
    game = open_game("tinytowns")
    shapes = [s for name, s in sorted(game.shapes.items()) if not game.legends.get(name)]
    symbols = sorted({symbol for s in shapes for _, symbol in game.placement_table(s).placements[0].pairs
                      if symbol in game.static_attrs})
    rng = random.Random(7)
    stranded_seen = set()
    for _ in range(150):
        state = new_game(game, players=1, seed=0)
        kinds = state.kind[0]
        for cell in range(len(kinds)):
            kinds[cell] = rng.choice([None] * 3 + symbols)
        chosen = rng.sample(shapes, rng.randrange(1, 5))
        count = patterns.stranded_pieces(game, state, 0, chosen)
        assert count == _stranded_by_definition(game, kinds, chosen)
        stranded_seen.add(count)
    assert len(stranded_seen) > 3  # boards with few and with many stranded pieces were judged
