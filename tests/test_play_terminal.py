"""`boardrule play` driven as a person would, in a pseudo-terminal (pexpect).

For every bundled pack in rulepacks/ (the list is read when the tests are
collected, so new packs join by themselves): list the moves, type one by its
text, type a wrong one (one line saying why, and the prompt again), undo,
save, quit, resume, and check that the save replays. Then hot-seat with
hidden information, Ctrl-C and the end of the input (both offer to save),
and colour in a terminal.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

pexpect = pytest.importorskip("pexpect")

import boardrule.cli.commands  # noqa: E402,F401  (registers the commands)
from boardrule.cli.main import cli  # noqa: E402
from boardrule.dsl.pack import load_pack  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
BUNDLED = sorted(p.stem for p in (ROOT / "rulepacks").glob("*.pack"))
PROMPT = r"(P\d+)> "
MENU_ITEM = re.compile(r"(\d+)\. (\S+(?: \S+)*)")
TIMEOUT = 90


def spawn(args, folder, color=False):
    env = dict(os.environ, COLUMNS="120", PYTHONIOENCODING="utf-8", TERM="xterm")
    env.pop("NO_COLOR", None)
    if not color:
        env["NO_COLOR"] = "1"
    return pexpect.spawn(sys.executable, ["-m", "boardrule", "play", *map(str, args)], cwd=str(folder), env=env,
                         encoding="utf-8", timeout=TIMEOUT, dimensions=(60, 160))


def prompt(child) -> str:
    """Wait for a player's prompt; the seat it names."""
    child.expect(PROMPT)
    return child.match.group(1)


def answer(child, line) -> list:
    """Type a line at the prompt; the lines printed before the next prompt (the echo left out)."""
    child.sendline(line)
    child.expect(PROMPT)
    lines = [ln.strip() for ln in child.before.replace("\r", "").split("\n")]
    if lines and lines[0] == line.strip():
        lines = lines[1:]
    return [ln for ln in lines if ln]


def menu(child) -> list:
    """The legal moves by `moves`: [(number, text)]."""
    items = []
    for line in answer(child, "moves"):
        items += [(int(n), text) for n, text in MENU_ITEM.findall(line)]
    assert items, "`moves` listed nothing"
    return items


def quit_game(child, save=False):
    """`quit`, answering the offer to save (none comes when no move has been made yet)."""
    child.sendline("quit")
    if child.expect([r"save the game to \S+\? \[Y/n\] ", pexpect.EOF]) == 0:
        child.sendline("" if save else "n")
        child.expect(pexpect.EOF)
    child.close()
    return child.exitstatus


def seats_for(pack) -> str:
    low = load_pack(pack).model.game.players.low
    return ",".join(["human"] + ["random"] * (low - 1))


@pytest.mark.parametrize("pack", BUNDLED)
def test_a_person_plays_undoes_saves_quits_and_resumes(pack, tmp_path):
    save = tmp_path / "game.json"
    child = spawn([pack, "--seats", seats_for(pack), "--seed", "3"], tmp_path)
    prompt(child)
    before = menu(child)
    number, text = before[0]
    shown = answer(child, text)  # a move typed by its text
    assert any(text in line for line in shown), shown  # the screen says what was played
    wrong = answer(child, "zzz 99")
    assert len(wrong) == 1 and "`zzz`" in wrong[0], wrong  # one line, then the prompt again
    after = menu(child)
    undo = answer(child, "undo")
    assert undo[0].startswith(f"undone: `{text}`"), undo  # across the bots' replies and chance steps
    assert menu(child) == before
    assert answer(child, "redo")[0].startswith(f"redone: `{text}`")
    assert menu(child) == after
    assert answer(child, "undo")[0].startswith("undone")
    saved = answer(child, f"save {save}")
    assert saved == [f"saved to {save}; resume with: boardrule play {pack} --resume {save}"]
    assert quit_game(child) == 0

    moves = CliRunner().invoke(cli, ["replay", str(save), "--verify"])
    assert moves.exit_code == 0, moves.output
    resumed = spawn([pack, "--resume", save], tmp_path)
    resumed.expect(r"resumed after (\d+) moves?")
    assert int(resumed.match.group(1)) >= 0
    prompt(resumed)
    assert quit_game(resumed, save=True) == 0
    assert CliRunner().invoke(cli, ["replay", str(save), "--verify"]).exit_code == 0


def test_undo_goes_back_to_the_players_last_decision(tmp_path):
    child = spawn([ROOT / "tests" / "packs" / "towns.pack", "--seats", "human", "--seed", "2"], tmp_path)
    prompt(child)
    first = menu(child)
    answer(child, "1")
    second = menu(child)
    assert second != first
    assert answer(child, "undo")[0] == f"undone: `{first[0][1]}`; `redo` plays it again"
    assert menu(child) == first
    assert answer(child, "undo")[0].startswith("nothing to undo")
    assert quit_game(child) == 0


def test_bad_input_gets_one_line_and_the_prompt_again(tmp_path):
    child = spawn(["tictactoe", "--seats", "human,greedy", "--seed", "5"], tmp_path)
    prompt(child)
    for line, words in (("play Z9", "`play Z9`: Z9 is off the board (columns A to C, rows 1 to 3)"),
                        ("42", "there is no move 42"),
                        ("explain play B2", "`play B2` is legal now"), ("moves Q7", "no legal move contains"),
                        ("plya B2", "`plya B2`: `plya` is not a move here: did you mean `play`?")):
        said = answer(child, line)
        assert len(said) == 1 and words in said[0], (line, said)
    assert quit_game(child) == 0


SECRETS = """
game: {id: secrets, name: Secrets, players: 2}
board: {grid: square 2 x 2}
symbols:
  goods: [wood, stone]
pieces:
  mark: {symbol: M}
player_vars:
  hand: {per_seat: [wood, stone], private: true}
actions:
  put:
    params: {cell: cells where empty}
    effect: place mark at cell
flow:
  round:
    - together: [put]
  end: round >= 1
  check_end: round
scoring:
  marks: count(cells where kind == mark)
"""


def test_hot_seat_hands_over_and_shows_only_that_players_view(tmp_path):
    pack = tmp_path / "secrets.pack"
    pack.write_text(SECRETS)
    child = spawn([pack, "--seats", "human,human", "--seed", "1"], tmp_path)
    child.expect(r"P1's turn: pass the keyboard to P1")
    child.expect("press Enter")
    child.sendline("")
    assert prompt(child) == "P1"
    assert "hand wood" in child.before and "stone" not in child.before
    child.sendline("put A1")
    child.expect(r"P2's turn: pass the keyboard to P2")
    assert "\x1b[2J" in child.before + child.after  # the screen is cleared for the next player
    child.expect("press Enter")
    child.sendline("")
    assert prompt(child) == "P2"
    screen = child.before
    assert "hand stone" in screen and "wood" not in screen
    # P1's move in the decision both make at once stays hidden: not said, not on the board
    assert "P1: put A1" not in screen and "M" not in screen.split("legend")[0].split("A B")[-1]
    child.sendline("put A1")
    child.expect(pexpect.EOF)
    ending = child.before
    assert "game over" in ending
    assert "P1: put A1" in ending and "P2: put A1" in ending
    assert "marks" in ending and "shared win: P1, P2" in ending
    child.close()
    assert child.exitstatus == 0


def test_ctrl_c_offers_to_save(tmp_path):
    child = spawn(["tictactoe", "--seats", "human,greedy", "--seed", "2"], tmp_path)
    prompt(child)
    answer(child, "1")
    child.sendintr()
    child.expect(r"save the game to tictactoe\.boardrule\.json\? \[Y/n\] ")
    child.sendline("y")
    child.expect("saved to tictactoe.boardrule.json")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    assert CliRunner().invoke(cli, ["replay", str(tmp_path / "tictactoe.boardrule.json"), "--verify"]).exit_code == 0


def test_the_end_of_the_input_never_loses_the_game(tmp_path):
    save = tmp_path / "kept.json"
    child = spawn(["connect4", "--seats", "human,greedy", "--seed", "5", "--save", save], tmp_path)
    prompt(child)
    answer(child, "1")
    child.sendeof()
    child.expect(r"save the game to .*kept\.json\? \[Y/n\] ")
    child.sendeof()  # nobody answers: it is saved
    child.expect("saved to")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert CliRunner().invoke(cli, ["replay", str(save), "--verify"]).exit_code == 0


def test_colour_in_a_terminal_and_not_with_no_color(tmp_path):
    child = spawn(["tictactoe", "--seats", "human,greedy", "--seed", "1"], tmp_path, color=True)
    prompt(child)
    answer(child, "play B2")
    assert "\x1b[38;5;" in child.before  # the pack's colours (display:)
    assert quit_game(child) == 0
    plain = spawn(["tictactoe", "--seats", "human,greedy", "--seed", "1"], tmp_path)
    prompt(plain)
    answer(plain, "play B2")
    assert "\x1b[" not in plain.before
    assert quit_game(plain) == 0


def test_rules_and_status_show_what_the_screen_leaves_out(tmp_path):
    child = spawn(["tinytowns", "--seats", "human", "--seed", "4"], tmp_path)
    prompt(child)
    first = child.before
    assert "`rules`" in first  # the first hint line names the command
    assert "legend:" not in first  # an empty town: no list of every piece kind of the pack
    assert "decks: resource_cards 12 cards, discards 0 cards" in first  # not the decks only the setup uses
    assert "monument_cards" not in first and "buildings Cottage, " in first  # in the pack's words
    assert "in_play" not in first and "hammer" not in first  # not its variables
    listed = answer(child, "rules")
    assert any(line.startswith("C ") and " cottage " in line and line.endswith("pattern . wheat / brick glass")
               for line in listed), listed
    assert not any(" the_starloom " in line for line in listed)  # not in this game
    drawn = answer(child, "rules cottage")
    assert drawn[0] == "cottage (C, “Cottage”)" and "brick glass" in drawn and any("8 orientations" in line
                                                                                    for line in drawn)
    assert answer(child, "rules C") == drawn  # by its symbol too
    assert answer(child, "rules zz") == ["no piece or action is called `zz`; `rules` lists the pieces in play"]
    status = " ".join(answer(child, "status"))
    assert "monument_cards 15 cards" in status and "buildings Cottage, " in status
    debug = " ".join(answer(child, "debug"))
    assert "in_play [cottage" in debug and "hammer P1" in debug  # the variables as they are
    helped = " ".join(answer(child, "help"))
    assert "rules [NAME]" in helped and "status" in helped
    shown = answer(child, "1")  # keep a monument: the next screen says what changed, not the rest
    assert "P1: monument Architect's Guild" in shown
    assert not any("buildings" in line or line.startswith("decks:") for line in shown), shown
    assert any(line.endswith("values unchanged since your last screen: `status` shows all)") for line in shown)
    assert any(line.endswith("a move, or `help`") for line in shown)  # `rules` was named once
    assert quit_game(child) == 0


def test_rules_in_a_game_whose_pieces_have_none(tmp_path):
    child = spawn(["connect4", "--seats", "human,greedy", "--seed", "1"], tmp_path)
    prompt(child)
    assert "`rules`" not in child.before
    said = answer(child, "rules")
    assert len(said) == 1 and "`rules drop`" in said[0]
    drawn = answer(child, "rules drop")
    assert drawn[0].startswith("drop") and "Written as a move: `drop CELL`." in drawn
    assert quit_game(child) == 0


# ------------------------------------------------------------------ players: a fresh game each time
def bots_only(args, folder) -> str:
    """The whole output of a game of bots only."""
    child = spawn(args, folder)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    return child.before.replace("\r", "")


def test_a_game_without_seed_is_a_fresh_one_and_says_its_seed(tmp_path):
    first = bots_only(["connect4", "--seats", "random,random"], tmp_path)
    second = bots_only(["connect4", "--seats", "random,random"], tmp_path)
    seeds = [re.search(r"^seed (\d+); replay with --seed (\d+)$", out, re.M) for out in (first, second)]
    assert all(s and s.group(1) == s.group(2) for s in seeds), (first[:200], second[:200])
    assert first != second  # two fresh games (the same seed twice is one chance in 100,000)
    again = bots_only(["connect4", "--seats", "random,random", "--seed", seeds[0].group(1)], tmp_path)
    assert again == first  # the seed printed gives the same game again


def test_a_fresh_seed_is_kept_in_the_save(tmp_path):
    import json
    save = tmp_path / "fresh.json"
    child = spawn(["townies", "--seats", "human", "--save", save], tmp_path)
    child.expect(r"seed (\d+); replay with --seed \d+")
    seed = int(child.match.group(1))
    prompt(child)
    answer(child, "1")
    assert quit_game(child, save=True) == 0
    assert json.loads(save.read_text())["seed"] == seed
    resumed = spawn(["townies", "--resume", save], tmp_path)
    resumed.expect(rf"resumed after 1 move \(seed {seed}\)")
    prompt(resumed)
    assert quit_game(resumed, save=True) == 0


# ------------------------------------------------------------------ players: undo, redo, hint
def test_undo_after_a_bots_reply_and_redo(tmp_path):
    child = spawn(["connect4", "--seats", "human,greedy", "--seed", "1"], tmp_path)
    prompt(child)
    first = menu(child)
    shown = answer(child, "drop D6")
    reply = next(line for line in shown if line.startswith("P2 (greedy): drop "))
    assert answer(child, "undo")[0] == ("undone: `drop D6` (with 1 move of the other players after it); "
                                        "`redo` plays it again")
    assert menu(child) == first
    assert answer(child, "redo")[0] == "redone: `drop D6` (with 1 move of the other players after it)"
    board = " ".join(answer(child, "board"))
    assert "R" in board.split("legend")[0]
    answer(child, "undo")
    again = answer(child, "drop D6")  # the same move, the same reply: a bot answers a position
    assert reply in again
    assert answer(child, "redo") == ["nothing to redo: `redo` plays again what `undo` took back, until you "
                                     "make another move"]
    assert quit_game(child) == 0


def dice_line(lines) -> str:
    return next(line for line in lines if line.startswith("dice: "))


def test_undo_after_a_chance_step_keeps_the_roll(tmp_path):
    child = spawn(["townies", "--seats", "human", "--seed", "3", "--option", "mode=first"], tmp_path)
    prompt(child)
    opening = [line.strip() for line in child.before.replace("\r", "").split("\n")]
    moves = menu(child)
    shapes = [text for _, text in moves if text.startswith("draw_shape")]
    rolled = dice_line(answer(child, shapes[0]))  # the next round's roll is shown
    undone = answer(child, "undo")
    assert undone[0].startswith(f"undone: `{shapes[0]}` (with ") and "chance" in undone[0], undone
    assert dice_line(answer(child, "board")) == dice_line(opening)
    # another move: the roll that came after the first one comes again (no re-rolling by undo)
    assert dice_line(answer(child, shapes[-1])) == rolled
    assert quit_game(child) == 0


def test_undo_in_solo_tiny_towns_after_placing_a_cube(tmp_path):
    child = spawn(["tinytowns", "--seats", "human", "--seed", "4", "--option", "monuments=false"], tmp_path)
    prompt(child)
    answer(child, "1")  # take a resource card
    placing = menu(child)
    answer(child, placing[0][1])
    undone = answer(child, "undo")
    assert undone[0].startswith(f"undone: `{placing[0][1]}`"), undone
    assert menu(child) == placing
    assert quit_game(child) == 0


def test_hot_seat_undo_stops_at_what_another_player_has_seen(tmp_path):
    child = spawn(["tictactoe", "--seats", "human,human", "--seed", "1"], tmp_path)
    assert prompt(child) == "P1"
    answer(child, "play B2")  # P2's screen now shows it
    assert answer(child, "undo") == ["nothing to undo: you have made no decision yet that can be taken back"]
    answer(child, "play A1")
    assert answer(child, "undo") == ["nothing to undo: P2 has seen the game since your last decision"]
    assert quit_game(child) == 0


def test_hint_names_a_legal_move(tmp_path):
    child = spawn(["connect4", "--seats", "human,greedy", "--seed", "1"], tmp_path)
    prompt(child)
    said = answer(child, "hint")
    found = re.match(r"hint: `(drop [A-G]6)` \(strong's choice", said[0])
    assert found, said
    assert any(found.group(1) in line for line in answer(child, found.group(1)))
    assert quit_game(child) == 0


# ------------------------------------------------------------------ players: reasons in words
def test_reasons_in_tic_tac_toe_and_connect_four(tmp_path):
    child = spawn(["tictactoe", "--seats", "human,human", "--seed", "1"], tmp_path)
    prompt(child)
    answer(child, "play B2")
    assert answer(child, "play B2") == ["`play B2`: B2 is already marked; `moves` lists the legal ones"]
    assert answer(child, "play D7") == ["`play D7`: D7 is off the board (columns A to C, rows 1 to 3); "
                                        "`moves` lists the legal ones"]
    assert quit_game(child) == 0

    child = spawn(["connect4", "--seats", "human,greedy", "--seed", "1"], tmp_path)
    prompt(child)
    shown = answer(child, "drop d")  # the column is enough: the row is determined
    assert shown[0] == "`drop d`: drop D6" and "P1: drop D6" in shown
    assert "4. drop D5" in " ".join(shown)  # a number stays with its column
    assert answer(child, "drop D1") == ["`drop D1`: a disc falls to the lowest empty cell of its column: D5; "
                                        "`moves` lists the legal ones"]
    explained = answer(child, "explain drop D1")
    assert explained[1].startswith("(the rule: parameter `cell` of `drop`")  # the designer's words come second
    assert quit_game(child) == 0


def test_reasons_in_tiny_towns(tmp_path):
    child = spawn(["tinytowns", "--seats", "human", "--seed", "4", "--option", "monuments=false"], tmp_path)
    prompt(child)
    answer(child, "1")  # the resource card of this round
    said = answer(child, "place wood E5")
    assert said == ["`place wood E5`: E5 is off the board (columns A to D, rows 1 to 4); `moves` lists the legal ones"]
    assert answer(child, "plce wood A1")[0] == "`plce wood A1`: `plce` is not a move here: did you mean `place`?; " \
                                               "`moves` lists the legal ones"
    wrong = answer(child, "place wod A1")[0]
    assert "did you mean `wood`?" in wrong
    several = answer(child, "place wood")
    assert several[0].startswith("16 moves fit `place wood`") and "1. place wood A1" in " ".join(several)
    answer(child, "place wood A1")
    taken = answer(child, "undo")
    assert taken[0].startswith("undone")
    answer(child, "place wood A1")
    assert quit_game(child) == 0


def test_reasons_in_townies_and_placements_by_one_cell(tmp_path):
    child = spawn(["townies", "--seats", "human", "--seed", "3"], tmp_path)
    seat = prompt(child)
    said = answer(child, "draw_object bank C3")[0]
    assert said.startswith("`draw_object bank C3`: you may draw City Square and Windmill: the white die's Object "
                           "or the Basic Object of your colour (yellow)"), said
    fits = answer(child, "draw_shape A1")
    assert fits[0] == "6 moves fit `draw_shape A1`: type a number, or `preview draw_shape A1` to see each on the board"
    child.sendline("preview draw_shape A1")
    child.expect(r"\(1 of 6\)")
    child.expect("Enter: the next one")
    child.sendline("")
    child.expect(r"2\. draw_shape A1\+B1\+C1\+C2  \(2 of 6\)")
    child.expect("Enter: the next one")
    child.sendline("2")  # a number makes that move
    child.expect(rf"{seat}: draw_shape A1\+B1\+C1\+C2")
    prompt(child)
    assert quit_game(child) == 0


def test_reasons_in_villagers(tmp_path):
    child = spawn(["villagers", "--seats", "human,greedy", "--seed", "3", "--option", "monuments=false"], tmp_path)
    prompt(child)
    said = answer(child, "start_villager B2")
    assert said == ["`start_villager B2`: a villager starts on a corner square without one; `moves` lists the legal ones"]
    assert quit_game(child) == 0


# ------------------------------------------------------------------ players: no leaked secret
def test_a_bots_secret_choice_is_not_shown(tmp_path):
    from boardrule.interpreter import api
    from boardrule.interpreter.runtime import flow
    game = api.open_game("villagers")
    child = spawn(["villagers", "--seats", "human,greedy", "--seed", "3"], tmp_path)
    prompt(child)
    shown = answer(child, "1")
    assert "P2 (greedy): keep_monument ?" in shown
    dealt = flow.initial_state(game, 2, 3).pvars[1]["dealt"]
    screen = " ".join(shown + answer(child, "status") + answer(child, "score") + answer(child, "rules"))
    assert not any(name in screen for name in dealt), dealt  # neither of P2's monuments is named
    assert quit_game(child) == 0


# ------------------------------------------------------------------ players: the end of every game
@pytest.mark.parametrize("pack", BUNDLED)
def test_every_game_is_fresh_and_ends_with_its_final_score_sheets(pack, tmp_path):
    low = load_pack(pack).model.game.players.low
    out = bots_only([pack, "--seats", ",".join(["random"] * max(low, 2))], tmp_path)
    assert re.search(r"^seed \d+; replay with --seed \d+$", out, re.M), out[:300]  # no --seed: a fresh one
    screen, _, outcome = out.rpartition("\ngame over\n")
    sheets = dict(re.findall(r"^(P\d+): (-?\d+) points?$", outcome, re.M))
    assert sheets, outcome
    caption = screen.rsplit("game over\n", 1)[1]  # the last screen's notes: "round N, game over" and after
    for seat, total in sheets.items():
        line = next(ln for ln in caption.splitlines() if ln.startswith(f"{seat}: "))
        assert line.endswith(f"final score {total}"), (line, total)  # the sheet's total, not points so far
        assert "so far" not in line
    terms = outcome.split("\n", 2)[1]  # the first sheet's first term, with its points
    assert re.match(r"^  \S.* +-?\d+", terms), outcome


@pytest.mark.parametrize("pack", ["tinytowns", "villagers"])
def test_no_secret_of_another_player_is_shown(pack, tmp_path):
    from boardrule.interpreter import api
    from boardrule.interpreter.runtime import flow
    dealt = flow.initial_state(api.open_game(pack), 2, 5).pvars[1]["dealt"]
    child = spawn([pack, "--seats", "human,greedy", "--seed", "5"], tmp_path)
    prompt(child)
    shown = answer(child, "1")
    assert "P2 (greedy): keep_monument ?" in shown
    screen = " ".join(shown + answer(child, "status") + answer(child, "score") + answer(child, "debug"))
    assert "P1: monument " in screen and not any(name in screen for name in dealt), dealt
    assert quit_game(child) == 0


def test_two_players_at_a_table_of_more_seats_are_p1_and_p2(tmp_path):
    """Players sit at random seats of a game with more seats than players; to the players they are still
    P1 and P2, in turn order, and the seating says where each sits. A replay names them the same way."""
    save = tmp_path / "two.json"
    out = bots_only(["townies", "--seats", "random,random", "--seed", "5", "--save", save], tmp_path)
    assert "the players sit at random: P1 at seat 3, P2 at seat 5 (seats 1, 2 and 4 empty)" in out
    assert out.startswith("Townies: P1 random, P2 random")
    assert re.search(r"\bP[3-9]\b", out) is None, re.findall(r".*\bP[3-9]\b.*", out)[:3]
    assert "P1's board" in out and "P2's board" in out
    replayed = CliRunner().invoke(cli, ["replay", str(save)])
    assert replayed.exit_code == 0
    assert re.search(r"\bP[3-9]\b", replayed.output) is None
    assert "   1. P1 " in replayed.output
