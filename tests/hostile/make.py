"""Write the hostile corpus: packs a stranger might send, each with the diagnostic it must get.

    python tests/hostile/make.py        # rewrites every *.pack here

Each file's first line says what `boardrule check FILE` must report:
`# expect: E138` (that code among the diagnostics, exit 1 or 2), or
`# expect: ok` (a clean check). tests/test_hostile.py checks every file
in-process, each within a time limit, and that none is an internal error.
The cases are the classes docs/safety.md names: paths, numbers, sizes, the
work budget, YAML and grammar limits, names that would reach Python.
Review the diff after running this.
"""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).resolve().parent
HEAD = "game: {id: hostile, name: Hostile, players: 1}\n"
BOARD = "board: {grid: square 3 x 3}\n"
PIECES = "pieces: {x: {symbol: X}}\n"
ACT = "actions: {put: {params: {cell: cells where empty}, effect: place x at cell}}\n"
FLOW = 'flow: {round: [{turns: [put]}], end: "none(cells, empty)"}\n'
BASIC = HEAD + BOARD + PIECES + ACT + FLOW
BIG_BOARD = "board: {grid: square 32 x 32}\n"
BIG = "9" * 5000
ONE_TEST = "tests:\n  - name: t\n    expect: {score: {P1: 1}}\n"

CASES: dict[str, tuple[str, str]] = {}


def case(name: str, code: str, text: str) -> None:
    assert name not in CASES, name
    CASES[name] = (code, text)


def scoring(rule: str, code: str, name: str, board: str = BOARD) -> None:
    """A pack whose one score term is `rule`, with a test that evaluates it."""
    case(name, code, HEAD + board + PIECES + ACT + FLOW + f"scoring: {{total: {rule!r}}}\n" + ONE_TEST)


# ---------------------------------------------------------------- paths
case("extends_etc_passwd", "E118", "extends: /etc/passwd\n" + BASIC)
case("extends_up_to_etc_passwd", "E118", "extends: ../../../../../../../../etc/passwd\n" + BASIC)
case("extends_up_to_a_pack_outside", "E116", "extends: ../golden/extends_unknown_bundled.pack\n" + BASIC)
case("extends_dot_env", "E118", "extends: .env\n" + BASIC)
case("extends_json_beside", "E118", "extends: secrets.json\n" + BASIC)
case("extends_yaml_beside", "E118", "extends: config.yaml\n" + BASIC)
case("extends_dev_zero", "E118", "extends: /dev/zero\n" + BASIC)
case("extends_dev_zero_as_pack", "E121", "extends: /dev/zero.pack\n" + BASIC)
case("extends_proc_self_environ", "E118", "extends: /proc/self/environ\n" + BASIC)
case("extends_ssh_key", "E118", "extends: ~/.ssh/id_rsa\n" + BASIC)
case("extends_long_path", "E124", "extends: " + "a/" * 2500 + "x.pack\n" + BASIC)
case("extends_nul", "E124", 'extends: "x\\0.pack"\n' + BASIC)
case("extends_empty", "E124", 'extends: ""\n' + BASIC)
case("extends_absolute_pack_missing", "E121", "extends: /nonexistent/dir/base.pack\n" + BASIC)
case("extends_number", "E124", "extends: 12\n" + BASIC)
case("extends_list", "E124", "extends: [a, b]\n" + BASIC)
case("extends_mapping", "E124", "extends: {a: b}\n" + BASIC)
case("extends_unknown_bundled", "E120", "extends: no_such_bundled_pack\n" + BASIC)
case("extends_itself", "E122", "extends: extends_itself.pack\n" + BASIC)
case("extends_folder", "E117", "extends: a_folder.pack\n" + BASIC)  # a folder named like a pack, beside
case("remove_without_extends", "E127", "remove: [pieces.x]\n" + BASIC)

# ---------------------------------------------------------------- numbers
scoring(BIG, "E138", "number_expression")
scoring("90071992547409920", "E138", "number_expression_17_digits")
scoring("-" + BIG, "E138", "number_expression_negative")
case("number_chart_value", "E138", BASIC + f'charts: {{c: "1 2+ -> 1 {BIG}"}}\nscoring: {{total: "chart(1, c)"}}\n')
case("number_chart_key", "E138", BASIC + f'charts: {{c: "1 {BIG}+ -> 1 2"}}\nscoring: {{total: "chart(1, c)"}}\n')
case("number_grid", "E138", HEAD + f"board: {{grid: square {BIG} x 3}}\n" + PIECES + ACT + FLOW)
case("number_players", "E138", f"game: {{id: h, name: H, players: {BIG}}}\n" + BOARD + PIECES + ACT + FLOW)
case("number_players_range", "E138", f'game: {{id: h, name: H, players: "1..{BIG}"}}\n' + BOARD + PIECES + ACT
     + FLOW)
case("number_max_rounds", "E138", HEAD + BOARD + PIECES + ACT
     + f'flow: {{round: [{{turns: [put]}}], end: "none(cells, empty)", max_rounds: {BIG}}}\n')
case("number_test_seed", "E138", BASIC + f"tests:\n  - name: t\n    seed: {BIG}\n    expect: {{legal: {{P1: 9}}}}\n")
case("number_variable", "E138", BASIC + f"vars: {{v: {BIG}}}\n")
case("number_float_huge", "E138", BASIC + "vars: {v: 1e400}\n")
case("number_negative_variable", "E138", BASIC + f"vars: {{v: -{BIG}}}\n")
case("number_test_expectation", "E138", BASIC + f"scoring: {{total: 1}}\ntests:\n  - name: t\n"
     f"    expect: {{score: {{P1: {BIG}}}}}\n")
case("number_position_points", "E138", BASIC + f"scoring: {{total: 1}}\ntests:\n  - name: t\n    position:\n"
     f"      points: {{P1: [[bonus, {BIG}]]}}\n    expect: {{score: {{P1: 1}}}}\n")
case("number_deck_count", "E138", BASIC + f"decks: {{pile: {{a: {BIG}}}}}\n")
case("number_range_end", "E138", BASIC + f"scoring: {{total: \"count(1..{BIG})\"}}\n")
case("number_squaring_in_a_test", "E702", HEAD + BOARD + PIECES + "vars: {v: 2}\n"
     + 'actions: {put: {params: {cell: cells where empty}, effect: "place x at cell; set v = v * v"}}\n' + FLOW
     + "scoring: {total: v}\ntests:\n  - name: t\n"
     "    moves: [P1 put A1, P1 put A2, P1 put A3, P1 put B1, P1 put B2, P1 put B3, P1 put C1]\n"
     "    expect: {score: {P1: 0}}\n")
case("number_doubling_variable", "E702", HEAD + BOARD + PIECES + "vars: {v: 4503599627370496}\n"
     + 'actions: {put: {params: {cell: cells where empty}, effect: "place x at cell; v += v"}}\n' + FLOW
     + "scoring: {total: v}\ntests:\n  - name: t\n    moves: [P1 put A1, P1 put A2]\n"
     "    expect: {score: {P1: 0}}\n")
scoring("sum(9007199254740991 for c in cells)", "E702", "number_sum_leaves_the_range")
scoring("9007199254740991 * 9007199254740991", "E702", "number_product_leaves_the_range")
scoring("9007199254740991 + 1", "E702", "number_sum_of_two_leaves_the_range")
scoring("1 / 0", "E702", "number_division_by_zero")
scoring("1 % 0", "E702", "number_remainder_by_zero")

# ---------------------------------------------------------------- sizes
case("test_players_huge", "E002", BASIC + "tests:\n  - name: t\n    players: 2147483648\n"
     "    expect: {legal: {P1: 9}}\n")
case("test_players_zero", "E002", BASIC + "tests:\n  - name: t\n    players: 0\n    expect: {legal: {P1: 9}}\n")
case("game_players_huge", "E301", 'game: {id: h, name: H, players: "1..2147483648"}\n' + BOARD + PIECES + ACT + FLOW)
case("game_seats_huge", "E301", "game: {id: h, name: H, players: 1, seats: 2147483648}\n" + BOARD + PIECES + ACT
     + FLOW)
case("test_seat_huge", "E400", BASIC + "tests:\n  - name: t\n    moves: [P99999999999999999999 put A1]\n"
     "    expect: {over: false}\n")
case("test_seat_beyond_the_table", "E400", BASIC + "tests:\n  - name: t\n    moves: [P13 put A1]\n"
     "    expect: {over: false}\n")
case("max_rounds_huge", "E013", HEAD + BOARD + PIECES + 'actions: {wait: {effect: "set v = v"}}\nvars: {v: 0}\n'
     + 'flow: {round: [{turns: [wait]}], end: "false", max_rounds: 1000000000}\n')
case("grid_300_by_300", "E303", HEAD + "board: {grid: square 300 x 300}\n" + PIECES + ACT + FLOW)
case("grid_100000_by_100000", "E303", HEAD + "board: {grid: square 100000 x 100000}\n" + PIECES + ACT + FLOW)
case("grid_zero", "E302", HEAD + "board: {grid: square 0 x 3}\n" + PIECES + ACT + FLOW)
case("deck_a_million_cards", "E022", BASIC + "decks: {pile: {a: 1000000}}\n")
scoring("count(1..1000000000000)", "E702", "range_of_a_trillion")
case("chart_100000_columns", "E135", BASIC + "charts: {c: \"" + " ".join(str(i) for i in range(1, 20001))
     + " -> " + " ".join("1" for _ in range(20000)) + "\"}\n")
case("shape_family_huge", "E702", BASIC + 'shapes:\n  tri: {family: "x + y < n", symmetry: none}\n'
     + 'scoring: {total: "count(placements(tri(100000000), cells))"}\n' + ONE_TEST)
case("shape_larger_than_the_board", "W306", BASIC + "shapes:\n  long: {art: X X X X X X, symmetry: none}\n"
     + 'scoring: {total: "count(placements(long, cells))"}\n')

# ---------------------------------------------------------------- the work budget
scoring("count(cells where count(cells where count(cells where count(cells where empty) > 0) > 0) > 0)", "E710",
        "budget_nested_counts", BIG_BOARD)
scoring("sum(sum(sum(1 for k in 1..9999) for j in 1..9999) for i in 1..9999)", "E710", "budget_nested_ranges")
scoring("count(cells where any(cells where any(cells where count(cells where empty) > 0)))", "E710",
        "budget_nested_any", BIG_BOARD)
case("budget_three_cell_params", "E710", HEAD + BIG_BOARD + PIECES
     + "actions: {put: {params: {a: cells where empty, b: cells where empty, c: cells where empty}, "
     "effect: place x at a}}\n" + FLOW + "tests:\n  - name: t\n    expect: {legal: {P1: 1}}\n")
case("budget_end_condition", "E710", HEAD + BIG_BOARD + PIECES + ACT
     + 'flow: {round: [{turns: [put]}], end: "count(cells where count(cells where count(cells where empty) > 0)'
     ' > 0) > 5000"}\n' + "tests:\n  - name: t\n    moves: [P1 put A1]\n    expect: {over: false}\n")
case("budget_when_condition", "E710", HEAD + BIG_BOARD + PIECES
     + "actions: {put: {params: {cell: cells where empty}, when: \"count(cells where count(cells where empty) > 0"
     " and it != cell) > 0\", effect: place x at cell}}\n" + FLOW + "tests:\n  - name: t\n    expect: {legal: {P1: 1024}}\n")
case("budget_effect_loops", "E710", HEAD + BIG_BOARD + PIECES + "vars: {v: 0}\n"
     + "actions: {put: {params: {cell: cells where empty}, effect: \"place x at cell; for a in cells { for b in "
     "cells { for c in cells { v += 1 } } }\"}}\n" + FLOW
     + "tests:\n  - name: t\n    moves: [P1 put A1]\n    expect: {over: false}\n")
CHAIN = "".join(f"  b{i}: b{i - 1} + b{i - 1}\n" for i in range(1, 41))
case("definition_chain_is_worked_out_once_each", "ok", BASIC + "define:\n  b0: count(cells where empty)\n" + CHAIN
     + "scoring: {total: b40}\ntests:\n  - name: t\n    expect: {score: {P1: 9895604649984}}\n")  # 9 x 2^40
PCHAIN = "".join(f"  f{i}(x): f{i - 1}(x) + f{i - 1}(x)\n" for i in range(1, 41))
case("budget_parametrised_chain", "E710", BASIC + "define:\n  f0(x): count(cells where empty) + x\n" + PCHAIN
     + "scoring: {total: f40(1)}\n" + ONE_TEST)
case("chain_of_30_definitions_checks_at_once", "ok", BASIC + "define:\n  b0: 1\n"
     + "".join(f"  b{i}: b{i - 1} + b{i - 1}\n" for i in range(1, 31)) + "scoring: {total: b30}\n")
case("chain_of_1000_definitions", "E137", BASIC + "define:\n  b0: count(cells where empty)\n"
     + "".join(f"  b{i}: b{i - 1} + 1\n" for i in range(1, 1001)) + "scoring: {total: b1000}\n")
case("budget_spent_by_many_tests", "E710", HEAD + BIG_BOARD + PIECES + ACT + FLOW
     + 'scoring: {total: "count(cells where count(cells where count(cells where empty) > 0) > 0)"}\ntests:\n'
     + "".join(f"  - name: t{i}\n    expect: {{score: {{P1: 1024}}}}\n" for i in range(60)))
case("triggers_that_set_each_other_off", "E702", HEAD + BOARD
     + "pieces:\n  x: {symbol: X}\n  bell: {symbol: B, on: {ring: emit ring}}\n"
     + "actions: {put: {params: {cell: cells where empty}, effect: \"place bell at cell; emit ring\"}}\n" + FLOW
     + "tests:\n  - name: t\n    moves: [P1 put A1]\n    expect: {over: false}\n")

# ---------------------------------------------------------------- the flow
case("flow_never_ends", "E702", HEAD + BOARD + PIECES + 'actions: {wait: {effect: "set v = v"}}\nvars: {v: 0}\n'
     + 'flow: {round: [{turns: [wait]}], end: "false", max_rounds: 3}\n'
     + "tests:\n  - name: t\n    moves: [P1 wait, P1 wait, P1 wait, P1 wait]\n    expect: {over: false}\n")
case("flow_of_do_steps_never_ends", "E702", HEAD + BOARD + PIECES + "vars: {v: 0}\n"
     + 'flow: {round: [{do: "v += 1"}], end: "v < 0", max_rounds: 10000}\n'
     + "tests:\n  - name: t\n    expect: {over: false}\n")
case("flow_repeat_that_changes_nothing", "E702", HEAD + BOARD + PIECES + 'actions: {wait: {effect: "set v = v"}}\n'
     + 'vars: {v: 0}\nflow: {round: [{turns: [wait], repeat: true}], end: "false"}\n'
     + "tests:\n  - name: t\n    moves: [" + ", ".join(["P1 wait"] * 2001) + "]\n    expect: {over: false}\n")

# ---------------------------------------------------------------- names that would reach Python
scoring("me.__class__", "E202", "python_class_attribute")
scoring("x.__dict__", "E202", "python_dict_attribute")
scoring('__import__("os")', "E204", "python_import")
scoring('eval("1")', "E204", "python_eval")
scoring('open("/etc/passwd")', "E204", "python_open")
scoring('getattr(me, "score")', "E204", "python_getattr")
case("piece_named_like_python", "ok", HEAD + BOARD + 'pieces: {__import__: {symbol: I}, os_system: {symbol: O}}\n'
     + "actions: {put: {params: {cell: cells where empty}, effect: place __import__ at cell}}\n" + FLOW
     + 'scoring: {total: "count(cells where kind == __import__)"}\n'
     + "tests:\n  - name: t\n    moves: [P1 put A1]\n    expect: {score: {P1: 1}}\n")
case("label_with_quotes_and_newlines", "ok", BASIC + 'scoring:\n  "a \\"quoted\\"\\nlabel; import os": 1\n')

# ---------------------------------------------------------------- YAML
case("yaml_anchor", "E105", BASIC + "vars: &a {v: 1}\n")
case("yaml_alias", "E105", BASIC + "vars: &a {v: 1}\nplayer_vars: *a\n")
case("yaml_tag", "E107", BASIC + "vars: {v: !!python/object:os.system 1}\n")
case("yaml_python_tag", "E107", BASIC + "vars: !!python/object/apply:os.system [ls]\n")
case("yaml_duplicate_key", "E108", BASIC + "vars: {v: 1, v: 2}\n")
case("yaml_deep_nesting", "E109", BASIC + "vars: " + "[" * 100 + "]" * 100 + "\n")
case("yaml_two_documents", "E112", BASIC + "---\n" + BASIC)
case("yaml_top_level_list", "E111", "- a\n- b\n")
case("yaml_top_level_scalar", "E111", "hello\n")
case("yaml_complex_key", "E113", BASIC + "? [a, b]\n: c\n")
case("yaml_tabs", "E101", BASIC + "vars:\n\tv: 1\n")
case("yaml_unclosed_flow", "E101", BASIC + "vars: {v: 1\n")
case("yaml_billion_laughs", "E105", BASIC + 'a: &a ["lol","lol"]\nb: &b [*a,*a]\nc: &c [*b,*b]\n')

# ---------------------------------------------------------------- the grammar
scoring("(" * 150 + "1" + ")" * 150, "E136", "grammar_deep_brackets")
scoring("- " * 300 + "1", "E136", "grammar_deep_operators")
scoring("1 +" + " 1 +" * 6000 + " 1", "E135", "grammar_field_too_long")
scoring("1 $ 2", "E132", "grammar_unknown_character")
scoring("count(cells where", "E131", "grammar_ends_too_early")
scoring('"unterminated', "E132", "grammar_unterminated_string")
scoring("count(cells where 3)", "E210", "types_filter_of_a_number")
case("definition_uses_itself", "E240", BASIC + "define:\n  a: a + 1\nscoring: {total: a}\n")
case("definitions_use_each_other", "E240", BASIC + "define:\n  a: b + 1\n  b: a + 1\nscoring: {total: a}\n")
case("position_value_of_the_wrong_type", "E400", BASIC + "player_vars: {stars: 0}\n"
     + 'scoring: {total: "if me.stars > 3 then 1 else 0"}\ntests:\n  - name: t\n    position:\n'
     "      player_vars: {P1: {stars: 1_000_000}}\n    expect: {score: {P1: 1}}\n")
case("position_die_face_unknown", "E400", BASIC + "dice: {d6: [1, 2, 3, 4, 5, 6]}\ntests:\n  - name: t\n"
     "    position:\n      dice: {d6: 7}\n    expect: {legal: {P1: 9}}\n")
case("position_unknown_die", "E400", BASIC + "tests:\n  - name: t\n    position:\n      dice: {d99: 7}\n"
     "    expect: {legal: {P1: 9}}\n")
case("position_points_malformed", "E400", BASIC + "tests:\n  - name: t\n    position:\n      points: {P1: 7}\n"
     "    expect: {legal: {P1: 9}}\n")
case("position_round_huge", "E400", BASIC + "tests:\n  - name: t\n    position:\n      round: 99999999\n"
     "    expect: {legal: {P1: 9}}\n")


def write_all() -> None:
    for old in HERE.glob("*.pack"):
        if old.is_file():
            old.unlink()
    for name, (code, text) in CASES.items():
        (HERE / f"{name}.pack").write_text(f"# expect: {code}\n" + text, encoding="utf-8")


if __name__ == "__main__":
    write_all()
    print(f"wrote {len(CASES)} packs to {HERE}")
