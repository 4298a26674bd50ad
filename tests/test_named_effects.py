"""Named effects (`effects:`): blocks of statements with parameters, used as statements (dsl/named_effects.py)."""

from __future__ import annotations

import pytest

from boardrule.dsl.diagnostics import PackError
from boardrule.dsl.pack import load_pack_text
from boardrule.interpreter.runtime import flow
from boardrule.interpreter.compiler.game import compile_game

PACK = """\
game: {{id: fx, name: Fx, players: 2}}
board: {{grid: square 3 x 1, shared: true}}
pieces:
  stone: {{symbol: S}}
  crate: {{symbol: C}}
vars:
  pot: 0
player_vars:
  coins: 5
effects:
{effects}
actions:
  buy:
    params:
      cell: cells where empty
    effect: {effect}
flow:
  round:
    - turns: [buy]
  end: none(cells, empty)
"""

EFFECTS = """\
  pay(p, n): |
    p.coins -= n
    pot += n
  build(c): |
    place stone at c
    pay(me, 2)
  pick_one: "choose k from [stone, crate] { pot += 10 }"
"""


def pack(effect, effects=EFFECTS):
    return load_pack_text(PACK.format(effect=effect, effects=effects), "fx.pack")


def play(game, *moves):
    state = flow.initial_state(game, 2, seed=0)
    for text in moves:
        state = flow.play_text(game, state, flow.waiting(state)[0], text)
    return state


def test_a_named_effect_runs_with_its_arguments_and_uses_others():
    game = compile_game(pack("build(cell)"))
    state = play(game, "buy A1", "buy B1")
    assert state.vars["pot"] == 4 and [v["coins"] for v in state.pvars] == [3, 3]
    assert state.kind[0][:2] == ["stone", "stone"]


def test_a_choice_inside_a_named_effect_is_asked_of_the_player():
    game = compile_game(pack("'place stone at cell; pick_one'"))
    state = play(game, "buy A1")
    answers = flow.legal_moves(game, state, 0)
    assert [m.answers for m in answers] == [("stone",), ("crate",)]
    state = flow.apply(game, state, answers[1])
    assert state.vars["pot"] == 10


def codes(effect, effects=EFFECTS) -> list:
    with pytest.raises(PackError) as err:
        pack(effect, effects)
    return [(d.code, d.message) for d in err.value.diagnostics]


def test_mistakes_in_using_one():
    assert codes("paay(me, 1)")[0] == ("E204", "unknown effect `paay`")
    assert codes("pay(me)")[0][0] == "E220"
    looped = codes("ping", "  ping: pong\n  pong: ping\n")
    assert looped[0][0] == "E240" and "ping -> pong -> ping" in looped[0][1]


def test_a_mistake_inside_an_effect_points_at_its_line_and_names_the_use():
    with pytest.raises(PackError) as err:
        pack("pay(me, cell)")  # a cell where a number is wanted: inside pay, at its `-=`
    diagnostic = err.value.diagnostics[0]
    assert diagnostic.span.line == 12 and any("`pay` is used here" in note for _, note in diagnostic.notes)


def test_a_local_name_of_the_caller_is_not_the_effects():
    with pytest.raises(PackError) as err:
        pack("pay(me, 1)", "  pay(p, n): |\n    p.coins -= n\n    place stone at cell\n")
    assert [d.code for d in err.value.diagnostics] == ["E201"]  # `cell` is the action's, not pay's


def test_a_variant_replaces_a_named_effect_and_its_uses_follow(tmp_path):
    from boardrule.dsl.pack import load_pack
    (tmp_path / "fx.pack").write_text(PACK.format(effect="build(cell)", effects=EFFECTS))
    (tmp_path / "cheap.pack").write_text("extends: fx.pack\ngame: {id: cheap, name: Cheap}\n"
                                         "effects:\n  pay(who, amount): who.coins -= 1\n")
    game = compile_game(load_pack(str(tmp_path / "cheap.pack")))
    state = play(game, "buy A1")
    assert state.pvars[0]["coins"] == 4 and state.vars["pot"] == 0
