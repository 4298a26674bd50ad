"""The checker's diagnostics, one rule each: code, message, help line and column, word for word.

Each case puts one rule into a field of a small pack (`HOST`) and pins every
diagnostic the check reports for it.  tests/golden/ pins whole renderings of a
few broken packs; this table covers every kind of mistake the checker names
(docs/diagnostics.md), so that a changed code or wording, a lost did-you-mean,
an error pointing at the wrong place or a mistake let through shows up.
Mutation testing of dsl/checker.py found these unpinned (docs/architecture.md).
"""

from __future__ import annotations

import json
import re

import pytest

from boardrule.dsl.diagnostics import PackError
from boardrule.dsl.pack import load_pack_text
from boardrule.interpreter.compiler.game import compile_game
from boardrule.interpreter.designer.scenarios import run_tests

HOST = """\
game: {id: probe, name: Probe, players: 1..3}
board:
  grid: square 4 x 4
symbols:
  colors: [red, blue]
pieces:
  stone: {symbol: S, score: PIECE, place: PLACE, marks: {lit: MARK}, variable: [color]}
  flag: {symbol: F, size: 2}
shapes:
  line: {art: X X X}
  ell:
    art: wood . / wood wood
    legend:
      wood: LEGEND
  tri: {family: FAMILY}
charts:
  bonus: CHART
define:
  wealth(p): p.gold
  double(n): n * 2
  place_of(p): p.seat
vars:
  total: VAR
player_vars:
  gold: 0
  mixed: {per_seat: [1, red]}
dice:
  d6: [1, 2, 3, 4, 5, DIE]
decks:
  pile: {stone: 2, flag: 1}
  spare: {}
  odd: {stone: 1, 3: 1}
actions:
  play:
    params:
      cell: PARAM
    when: WHEN
    effect: EFFECT
flow:
  setup:
    - do: DO
  round:
    - turns: [play]
      who: WHO
  end: END
scoring:
  term: SCORE
"""
DEFAULTS = {"SCORE": "1", "PARAM": "cells where empty", "WHEN": "true", "EFFECT": "place stone at cell",
            "END": "none(cells, empty)", "CHART": "1 2 3+ -> 1 3 6", "MARK": "true", "PLACE": "true", "PIECE": "1",
            "LEGEND": "kind == stone", "FAMILY": "x >= 0 and x < n", "VAR": "0", "DIE": "6", "DO": "shuffle pile",
            "WHO": "players"}
FIELDS = re.compile(r"\b(" + "|".join(DEFAULTS) + r")\b")


def host(**fields) -> str:
    """HOST with the given fields (each quoted as a YAML string), defaults elsewhere."""
    values = dict(DEFAULTS, **fields)
    return FIELDS.sub(lambda m: json.dumps(values[m[1]]), HOST)


def diagnostics(**fields) -> list:
    """(code, message, help, column) of every diagnostic of HOST with `fields`."""
    try:
        load_pack_text(host(**fields), "probe.pack")
    except PackError as err:
        return [(d.code, d.message, d.hint, d.span.col if d.span else None) for d in err.diagnostics]
    return []


def test_the_host_checks_clean():
    assert diagnostics() == []


TYPE = "{} must be a {}, but this is a {}"
MEANT = "did you mean `{}`?"
NO_PLAYER = "use `players`, or `for p in players { ... }`"

#: (fields, the diagnostics: code, message, help, column)
CASES = [
    # ---- names, and player rules where no player is meant
    ({"END": "gold > 1"}, [("E214", "`gold` is a player variable, but no player is meant here",
                            "name the player: `any(p.gold ... for p in players)`", 9)]),
    ({"END": "me.gold > 1"}, [("E214", "`me` is about the player a rule runs for, but no player is meant here",
                               NO_PLAYER, 9)]),
    ({"END": "count(others) > 0"}, [("E214", "`others` is about the player a rule runs for, but no player is meant "
                                     "here", NO_PLAYER, 15)]),
    ({"VAR": "me"}, [("E214", "`me` is about the player a rule runs for, but no player is meant here", NO_PLAYER, 11)]),
    ({"DIE": "gold"}, [("E214", "`gold` is a player variable, but no player is meant here",
                        "name the player: `any(p.gold ... for p in players)`", 24)]),
    ({"SCORE": "count(cells where emptty)"}, [("E201", "unknown name `emptty`", MEANT.format("empty"), 28)]),
    ({"SCORE": "emptty"}, [("E201", "unknown name `emptty`", None, 10)]),  # no cell here: no cell property offered
    ({"EFFECT": "place stoen at cel"}, [("E201", "unknown name `stoen`", MEANT.format("stone"), 20),
                                        ("E201", "unknown name `cel`", MEANT.format("cell"), 29)]),
    ({"SCORE": "count(playres)"}, [("E201", "unknown name `playres`", MEANT.format("players"), 16)]),
    ({"SCORE": "count(cells where lt)"}, [("E201", "unknown name `lt`", MEANT.format("lit"), 28)]),
    ({"SCORE": "count(cells where siz > 1)"}, [("E201", "unknown name `siz`", MEANT.format("size"), 28)]),
    ({"SCORE": "count(cells where itt.empty)"}, [("E201", "unknown name `itt`", MEANT.format("it"), 28)]),
    # ---- attributes
    ({"SCORE": "me.scor"}, [("E202", "unknown attribute `scor` of a player", MEANT.format("score"), 10)]),
    ({"SCORE": "me.gld"}, [("E202", "unknown attribute `gld` of a player", MEANT.format("gold"), 10)]),
    ({"SCORE": "count(cells where it.gold > 0)"}, [("E202", "unknown attribute `gold` of a cell", None, 28)]),
    ({"SCORE": "count(cells where it.score > 0)"}, [("E202", "unknown attribute `score` of a cell", None, 28)]),
    ({"EFFECT": "place stone at cell with colour = red"},
     [("E202", "unknown attribute `colour`", MEANT.format("color"), 39)]),
    # ---- lists, ranges, filters
    ({"SCORE": "count(3[0])"}, [("E211", "only a list can be indexed, not a number", None, 16)]),
    ({"SCORE": "count([1, stone])"}, [("E215", "a list holds values of one type: this name follows a number", None,
                                       20)]),
    ({"SCORE": "count(stone..3)"}, [("E210", TYPE.format("the start of a range", "number", "name"), None, 16)]),
    ({"SCORE": "count(1..stone)"}, [("E210", TYPE.format("the end of a range", "number", "name"), None, 19)]),
    ({"SCORE": "count(3 where true)"}, [("E212", "`where` filters a list, but this is a number", None, 16)]),
    ({"SCORE": "count(cells where 1)"}, [("E210", TYPE.format("a `where` condition", "boolean", "number"), None,
                                          28)]),
    ({"SCORE": "if 1 in 2 then 1 else 0"}, [("E212", "`in` needs a list on its right, but this is a number", None,
                                             18)]),
    # ---- operators
    ({"SCORE": "if 1 then 1 else 2"}, [("E210", TYPE.format("the condition of `if`", "boolean", "number"), None,
                                        13)]),
    ({"SCORE": "count(cells, empty) + (me == 1)"}, [("E210", "a player cannot be compared with a number", None,
                                                     33)]),
    ({"SCORE": "if 1 != me then 1 else 0"}, [("E210", "a player cannot be compared with a number", None, 13)]),
    ({"SCORE": "if me == cells[0] then 1 else 0"}, [("E210", "a player cannot be compared with a cell", None, 13)]),
    ({"SCORE": "if stone < 2 then 1 else 0"}, [("E210", "`<` compares numbers, not a name and a number", None, 13)]),
    ({"SCORE": "if not 1 then 1 else 0"}, [("E210", TYPE.format("the operand of `not`", "boolean", "number"), None,
                                            17)]),
    ({"SCORE": "-stone"}, [("E210", TYPE.format("the operand of `-`", "number", "name"), None, 11)]),
    # ---- charts
    ({"SCORE": "chart(stone, bonus)"}, [("E210", TYPE.format("the value looked up in a chart", "number", "name"),
                                         None, 16)]),
    ({"SCORE": "chart(1, bonnus)"}, [("E203", "unknown chart `bonnus`", MEANT.format("bonus"), 19)]),
    ({"CHART": '1 2 -> "a" "b"', "SCORE": "chart(1, bonus)"},
     [("E210", TYPE.format("scoring term `term`", "number", "text"), None, 10)]),
    ({"CHART": "1 2 2 -> 1 2 3"}, [("E233", "this chart's columns must follow each other: this column overlaps the "
                                    "column before it", None, 15)]),
    ({"CHART": "1 3 -> 1 2"}, [("E233", "this chart's columns must follow each other: this column leaves out 2",
                                None, 13)]),
    ({"CHART": "1 4 -> 1 2"}, [("E233", "this chart's columns must follow each other: this column leaves out 2-3",
                                None, 13)]),
    ({"CHART": "1+ 3 -> 1 2"}, [("E233", "`1+` covers every number from 1 on, so it must be the last column", None,
                                 11)]),
    ({"CHART": "1-3 4-2 -> 1 2"}, [("E232", "the range 4-2 is empty", None, 15)]),
    # ---- calls
    ({"SCORE": "fits(x for x in cells, cells)"},
     [("E213", "`... for x in ...` can only be the argument of an aggregate like sum or count", None, 15)]),
    ({"SCORE": "choose(cells)"}, [("E216", "`choose(...)` leaves a choice to the scoring: it belongs in a piece's "
                                   "`marks:`", "to ask the player, use the statement `choose x from LIST { ... }` in "
                                   "an effect", 10)]),
    ({"SCORE": "double(1, 2)"}, [("E220", "`double` takes 1 argument(s), 2 given", None, 10)]),
    ({"SCORE": "count(tri(1, 2))"}, [("E220", "shape family `tri` takes one size, like tri(3)", None, 16),
                                      ("E212", "`count` needs a list, but this is a shape", None, 16)]),
    ({"SCORE": "fits(tri(stone), cells)"}, [("E210", TYPE.format("a shape size", "number", "name"), None, 19)]),
    ({"SCORE": "count(adjacent())"}, [("E221", "`adjacent` without an argument needs a cell to start from (`it` or "
                                       "`self`)", None, 16)]),
    ({"SCORE": "count(matches(line, standn=true))"},
     [("E222", "`matches` has no option `standn`", MEANT.format("standin"), 30)]),
    ({"SCORE": "count(cells, empty, where=1)"}, [("E222", "`count` takes no options", None, 30)]),
    ({"SCORE": "max(1, stone)"}, [("E210", TYPE.format("argument of `max`", "number", "name"), None, 17)]),
    ({"SCORE": "max(cells, stone)"}, [("E210", TYPE.format("the body of `max`", "number", "name"), None, 21)]),
    ({"SCORE": "sum(x for x in 3)"}, [("E212", "`for x in` needs a list, but this is a number", None, 25)]),
    ({"SCORE": "count(3)"}, [("E212", "`count` needs a list, but this is a number", None, 16)]),
    ({"SCORE": "sum(1, 2, 3)"}, [("E220", "`sum` takes a list and an optional body, 3 given", None, 10)]),
    ({"SCORE": "all(cells)"}, [("E220", "`all` needs a condition: all(list, condition) or all(c for x in list)", None,
                                10)]),
    *[({"SCORE": f"{func}(cells, 1)"}, [("E210", TYPE.format(f"the condition of `{func}`", "boolean", "number"),
                                         None, 18 + len(func))]) for func in ("count", "any", "all", "none")],
    ({"SCORE": "count(stone for c in cells)"},
     [("E210", TYPE.format("the condition of `count`", "boolean", "name"), None, 16)]),
    ({"SCORE": "sum(cells, stone)"}, [("E210", TYPE.format("the value summed up by `sum`", "number", "name"), None,
                                       21)]),
    *[({"SCORE": f"{func}(stone for c in cells)"},
       [("E210", TYPE.format(f"the value summed up by `{func}`", "number", "name"), None, 14)])
      for func in ("sum", "min", "max")],
    # ---- statements
    ({"EFFECT": "place stone at 1"}, [("E210", TYPE.format("where to place", "cell", "number"), None, 29)]),
    ({"EFFECT": "place 1 at cell"}, [("E210", TYPE.format("the piece to place", "name", "number"), None, 20)]),
    ({"EFFECT": "remove 1 from cell"}, [("E210", TYPE.format("the token to remove", "name", "number"), None, 21)]),
    ({"EFFECT": "remove stone from 1"}, [("E210", TYPE.format("the cell to take it from", "cell", "number"), None,
                                          32)]),
    ({"EFFECT": "remove 3"}, [("E210", "`remove` takes a cell or a list of cells, not a number", None, 21)]),
    ({"EFFECT": "replace 1 with stone"}, [("E210", TYPE.format("the cell whose piece is replaced", "cell", "number"),
                                           None, 22)]),
    ({"EFFECT": "replace cell with 1"}, [("E210", TYPE.format("the new piece", "name", "number"), None, 32)]),
    ({"EFFECT": "store 1 into cell"}, [("E210", TYPE.format("what to store", "name", "number"), None, 20)]),
    ({"EFFECT": "store stone into 1"}, [("E210", TYPE.format("the cell of the holding piece", "cell", "number"),
                                         None, 31)]),
    ({"EFFECT": "unstore 1 from cell"}, [("E210", TYPE.format("what to store", "name", "number"), None, 22)]),
    ({"EFFECT": "move 1 from cell to cell"}, [("E210", TYPE.format("the token to move", "name", "number"), None, 19)]),
    ({"EFFECT": "move stone from 1 to cell"}, [("E210", TYPE.format("where the token is", "cell", "number"), None,
                                                30)]),
    ({"EFFECT": "move stone from cell to 1"}, [("E210", TYPE.format("where the token goes", "cell", "number"), None,
                                                38)]),
    ({"EFFECT": "set totl = 1"}, [("E207", "`totl` is not a variable; declare it under `vars:` or `player_vars:`",
                                   MEANT.format("total"), 18)]),
    ({"EFFECT": "set gld = 1"}, [("E207", "`gld` is not a variable; declare it under `vars:` or `player_vars:`",
                                  MEANT.format("gold"), 18)]),
    ({"EFFECT": "set me.gld = 1"}, [("E207", "`gld` is not a variable; declare it under `vars:` or `player_vars:`",
                                     MEANT.format("gold"), 18)]),
    ({"EFFECT": "set cell.gold = 1"}, [("E207", "`cell` is not a player (it is a cell), so `cell.gold` cannot be "
                                        "set", None, 18)]),
    # any expression that gives a player may own the variable set; another is E207 at the target
    ({"EFFECT": "set adjacent(cell)[0].gold += 1"},
     [("E207", "`adjacent(cell)[0]` is not a player (it is a cell), so `adjacent(cell)[0].gold` cannot be set", None,
       18)]),
    ({"EFFECT": "set left_of(me).gld = 1"}, [("E207", "`gld` is not a variable; declare it under `vars:` or "
                                              "`player_vars:`", MEANT.format("gold"), 18)]),
    ({"EFFECT": "set count(cells) = 1"},
     [("E207", "`count(cells)` cannot be set: `set` writes a variable (`set coins = 1`), a variable of a player "
       "(`set left_of(me).coins += 1`) or one element of a list variable (`set track[i] = 1`)", None, 18)]),
    ({"EFFECT": "set left_of(me).gold = stone"},
     [("E210", "`gold` holds a number, so it cannot be set to a name", None, 37)]),
    ({"EFFECT": "set total = stone"}, [("E210", "`total` holds a number, so it cannot be set to a name", None, 26)]),
    ({"EFFECT": "total += stone"}, [("E210", TYPE.format("the value of `+=`", "number", "name"), None, 23)]),
    ({"EFFECT": "score stone"}, [("E210", TYPE.format("points", "number", "name"), None, 20)]),
    ({"DO": "score 1"}, [("E208", "`score` needs a player: use it in an action, or inside `for p in players`", None,
                          12)]),
    ({"DO": "choose c from cells { place stone at c }"},
     [("E208", "`choose` needs a player to ask: use it in an action", None, 12)]),
    ({"EFFECT": "if 1 { score 1 }"}, [("E210", TYPE.format("the condition of `if`", "boolean", "number"), None, 17)]),
    ({"EFFECT": "for x in 3 { score 1 }"}, [("E212", "`for` needs a list, but this is a number", None, 23)]),
    ({"EFFECT": "choose x from 3 { score 1 }"}, [("E212", "`choose` needs a list, but this is a number", None, 28)]),
    ({"EFFECT": "roll 3"}, [("E209", "`roll` takes a die or a list of dice", None, 19)]),
    ({"EFFECT": "roll stone"}, [("E209", "`roll` takes a die or a list of dice", None, 19)]),
    ({"EFFECT": "roll [d6, 3]"}, [("E209", "`roll` takes a die or a list of dice", None, 24)]),
    ({"EFFECT": "shuffle 3"}, [("E210", TYPE.format("what to shuffle", "deck", "number"), None, 22)]),
    ({"EFFECT": "draw c from 3 { score 1 }"}, [("E210", TYPE.format("what to draw from", "deck", "number"), None,
                                                26)]),
    ({"EFFECT": "draw c from pile { score c }"}, [("E210", TYPE.format("points", "number", "name"), None, 39)]),
    ({"EFFECT": "put 1 on 3"}, [("E210", "`put ... on` puts cards into a deck, but this is a number", None, 23)]),
    ({"EFFECT": "put 1 under 3"}, [("E210", "`put ... under` puts cards into a deck, but this is a number", None,
                                    26)]),
    ({"EFFECT": "put cell on pile"}, [("E210", "`put` into `pile` takes a name or a list of names, but this is a "
                                       "cell", None, 18)]),
    ({"EFFECT": "put cell on spare"}, [("E210", "`put` takes a card (a name or a number) or a list of cards, but "
                                        "this is a cell", None, 18)]),
    ({"EFFECT": "rotate gld"}, [("E207", "`rotate` passes a player variable around the seats; `gld` is not one",
                                 MEANT.format("gold"), 14)]),
    ({"EFFECT": "finish 3"}, [("E210", TYPE.format("who finishes", "player", "number"), None, 21)]),
    # ---- fields of the pack
    ({"PARAM": "3"}, [("E212", "parameter `cell` must range over a list, but this is a number", None, 14)]),
    ({"WHEN": "1"}, [("E210", TYPE.format("the condition of action `play`", "boolean", "number"), None, 12)]),
    ({"WHO": "1"}, [("E210", "`who` must be a player or a list of players, not a number", None, 13)]),
    ({"SCORE": "cells[0]"}, [("E210", TYPE.format("scoring term `term`", "number", "cell"), None, 10)]),
    ({"PIECE": "stone"}, [("E210", TYPE.format("the score of `stone`", "number", "name"), None, 30)]),
    ({"PLACE": "1"}, [("E210", TYPE.format("the placement rule of `stone`", "boolean", "number"), None, 42)]),
    ({"LEGEND": "1"}, [("E210", TYPE.format("legend `wood`", "boolean", "number"), None, 14)]),
    ({"FAMILY": "1"}, [("E210", TYPE.format("the cells of family `tri`", "boolean", "number"), None, 18)]),
]


@pytest.mark.parametrize("fields, expected", CASES, ids=[" ".join(f"{k}={v}" for k, v in f.items()) for f, _ in CASES])
def test_the_checker_names_the_mistake(fields, expected):
    assert diagnostics(**fields) == expected


#: Rules that look close to the mistakes above and are fine.
FINE = [
    {"EFFECT": "set me.gold = 1; set left.gold = 2; set right.gold = 3"},  # the seats an effect may set
    {"MARK": "count(choose(cells)) > 0"},  # `choose(...)` belongs in marks
    {"EFFECT": "draw c from spare { place c at cell }"},  # a deck declared empty takes any card
    {"SCORE": "wealth(me) + double(2)"},
    {"SCORE": "count(cells where any(players, it.gold > 0))"},
    {"EFFECT": "mixed += 1; set mixed = red; place stone at cell"},  # per-seat values of two types: any type
    {"EFFECT": "draw c from odd { place c at cell; score c }"},  # cards of two types: any card
    {"WHO": "players[0]"},
]


@pytest.mark.parametrize("fields", FINE, ids=[" ".join(f"{k}={v}" for k, v in f.items()) for f in FINE])
def test_rules_that_are_fine_check_clean(fields):
    assert diagnostics(**fields) == []


def test_a_definition_reads_the_player_variable_of_its_parameter():
    """`wealth(p): p.gold` (and `place_of(p): p.seat`, a property) with `p` of unknown type in the
    definition still read the player's in play."""
    text = host(EFFECT="gold += 3; place stone at cell", SCORE="wealth(me) + double(wealth(me))", PIECE="0")
    text += ("tests:\n  - name: wealth\n    players: 2\n    moves: [P1 play A1, P2 play B1, P1 play C1]\n"
             "    expect: {score: {P1: 18, P2: 9}}\n")
    assert run_tests(compile_game(load_pack_text(text, "probe.pack"))) == []
    # `total` starts as `none`, so its type is unknown: the definition is compiled for that
    text = host(VAR="none", EFFECT="set total = me; gold += 3; place stone at cell",
                SCORE="wealth(total) + 10 * place_of(total)", PIECE="0")
    text += ("tests:\n  - name: wealth of the last mover\n    players: 2\n"
             "    moves: [P1 play A1, P2 play B1, P1 play C1]\n    expect: {score: {P1: 16, P2: 16}}\n")
    assert run_tests(compile_game(load_pack_text(text, "probe.pack"))) == []


def test_setting_a_player_variable_where_no_player_is_meant_says_so():
    # it once said "`coins` is not a variable" although `coins` is declared under player_vars
    from boardrule.dsl.diagnostics import PackError
    from boardrule.dsl.pack import load_pack_text
    text = """\
game: {id: purse, players: 2}
board: {grid: square 2 x 2}
pieces: {stone: {symbol: S}}
player_vars: {coins: 0}
actions: {put: {params: {c: cells where empty}, effect: place stone at c}}
flow:
  round: [{turns: [put]}, {do: set coins = 1}]
  end: "none(cells, empty)"
"""
    with pytest.raises(PackError) as caught:
        load_pack_text(text, "purse.pack")
    found = [(d.code, d.message, d.hint) for d in caught.value.diagnostics]
    assert found == [("E214", "`coins` is a player variable, but no player is meant here",
                      "name the player: `for p in players { set p.coins = ... }`")]


def test_true_and_false_written_where_a_rule_is_expected_are_the_languages_true_and_false():
    # `done: false` loads as a YAML boolean: once refused (E014), as numbers never were
    from boardrule.dsl.pack import load_pack_text
    from boardrule.interpreter.api import new_game
    from boardrule.interpreter.compiler.game import compile_game
    text = """\
game: {id: flags, players: 1}
board: {grid: square 2 x 2}
pieces: {stone: {symbol: S}}
vars: {done: false}
player_vars: {ready: true}
actions: {put: {params: {c: cells where empty}, when: ready and not done, effect: place stone at c}}
flow: {round: [{turns: [put]}], end: "none(cells, empty)"}
"""
    state = new_game(compile_game(load_pack_text(text, "flags.pack")), 1)
    assert state.vars["done"] is False and state.pvars[0]["ready"] is True


FILTER_ON_A_PARAMETER = """\
game: {id: sorting, players: 1}
board: {grid: square 3 x 3}
pieces: {stone: {symbol: S, heavy: true}, wood: {symbol: W, heavy: false}}
define:
  heavy_in(l): l where heavy
  stones_of(l): l where KIND == stone
actions: {put: {params: {c: cells where empty}, effect: place stone at c}}
flow: {round: [{turns: [put]}], end: "count(stones_of(cells)) > 2"}
scoring:
  stones: count(stones_of(cells)) + 10 * count(heavy_in([stone, wood, stone]))
"""


def test_a_filter_on_a_definitions_parameter_reads_bare_properties_of_cells_and_kinds():
    # `l where kind == stone` on a parameter was E201 "unknown name `kind`", with a hint at `kinds`
    from boardrule.interpreter.api import evaluate, new_game
    game = compile_game(load_pack_text(FILTER_ON_A_PARAMETER.replace("KIND", "kind"), "sorting.pack"))
    state = new_game(game, 1)
    assert evaluate(game, state, "count(heavy_in([stone, wood, stone])) + 10 * count(heavy_in(kinds))")[0] == 12
    assert evaluate(game, state, "count(stones_of(cells))")[0] == 0
    with pytest.raises(PackError) as caught:
        load_pack_text(FILTER_ON_A_PARAMETER.replace("KIND", "knd"), "sorting.pack")
    assert [(d.code, d.message, d.hint) for d in caught.value.diagnostics] == [
        ("E201", "unknown name `knd`", "did you mean `kind`?")]


def test_a_yaml_list_where_a_rule_is_expected_suggests_quoting_the_whole_rule():
    # E014 gave no hint for `d: [1, 2]` (a suite finding)
    text = """\
game: {id: lists, players: 1}
board: {grid: square 2 x 2}
define:
  d: [1, 2]
flow: {round: [], end: "true"}
"""
    with pytest.raises(PackError) as caught:
        load_pack_text(text, "lists.pack")
    assert [(d.code, d.hint) for d in caught.value.diagnostics] == [
        ("E014", 'YAML reads `[...]` as its own list, not as text: quote the whole rule, "[1, 2]"')]


def test_a_test_move_off_the_board_says_so():
    # E504 said "D4 is not one of `cells where empty`" for a cell the board does not have (a suite finding)
    text = """\
game: {id: offb, players: 1}
board: {grid: square 3 x 3}
pieces: {stone: {symbol: S}}
actions: {put: {params: {c: cells where empty}, effect: place stone at c}}
flow: {round: [{turns: [put]}], end: "none(cells, empty)"}
tests:
  - name: off the board
    moves: [P1 put D4]
"""
    failures = run_tests(compile_game(load_pack_text(text, "offb.pack")))
    assert [d.code for d in failures] == ["E504"]
    assert failures[0].message.endswith("`put D4` is not a legal move now (9 legal moves): "
                                        "D4 is off the board (columns A to C, rows 1 to 3)")


def test_a_cell_function_alone_in_a_filter_on_an_untyped_list_says_to_name_the_cell():
    # `any(g, any(surrounding, ...))` on a definition's parameter was a bare "unknown name" (a suite finding)
    text = FILTER_ON_A_PARAMETER.replace("  stones_of(l): l where KIND == stone\n",
                                         "  stones_of(l): l where any(surrounding, occupied)\n")
    with pytest.raises(PackError) as caught:
        load_pack_text(text, "sorting.pack")
    assert [(d.code, d.hint) for d in caught.value.diagnostics] == [("E201", "name the cell: `surrounding(it)`")]


def test_elif_in_an_expression_says_to_write_else_if():
    # statements write `elif`, expressions `else if`: the trap a suite pack fell into
    text = """\
game: {id: elifs, players: 1}
board: {grid: square 2 x 2}
define:
  d: if 1 > 2 then 1 elif 2 > 1 then 2 else 3
flow: {round: [], end: "true"}
"""
    with pytest.raises(PackError) as caught:
        load_pack_text(text, "elifs.pack")
    assert [(d.code, d.hint) for d in caught.value.diagnostics] == [
        ("E133", "an expression writes `else if ... then ...`; `elif` is for statements (`if ... { } elif ... { }`)")]
