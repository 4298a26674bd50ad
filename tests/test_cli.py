"""The command line: exit codes, output formats, whole games without input."""

import json
import subprocess
import sys

from click.testing import CliRunner

import boardrule.cli.commands  # noqa: F401  (registers the commands)
from boardrule.cli.main import cli


def run(*args, input=None):
    return CliRunner().invoke(cli, list(args), input=input)


def test_check_a_clean_bundled_pack_exits_0():
    result = run("check", "tictactoe")
    assert result.exit_code == 0, result.output
    assert "tictactoe: ok (5 tests" in result.output


def test_check_an_unknown_pack_is_a_usage_error():
    result = run("check", "no-such-pack")
    assert result.exit_code == 2
    assert "unknown pack `no-such-pack`" in result.output


def test_check_a_broken_pack_exits_1_with_position(tmp_path):
    pack = tmp_path / "broken.pack"
    pack.write_text("game: {id: b, players: 1}\nboard: {grid: square 2 x 2}\n"
                    "flow:\n  round: []\n  end: count(cellz) > 0\n")
    result = run("check", str(pack))
    assert result.exit_code == 1
    assert f"{pack}:5:14: error[E201]: unknown name `cellz`" in result.output
    assert "did you mean `cells`?" in result.output


def test_check_json_output_lists_diagnostics(tmp_path):
    pack = tmp_path / "broken.pack"
    pack.write_text("game: {id: b, players: 1}\nboard: {grid: square 2 x 2}\nflow: {end: 1 +}\n")
    result = run("check", "--output-format", "json", str(pack))
    data = json.loads(result.output)
    diag = data["packs"][0]["diagnostics"][0]
    assert (diag["code"], diag["line"]) == ("E131", 3)


def test_check_github_output_is_annotations(tmp_path):
    pack = tmp_path / "broken.pack"
    pack.write_text("game: {id: b, players: 1}\nboard: {grid: square 2 x 2}\nflow: {end: nope}\n")
    result = run("check", "--output-format", "github", str(pack))
    assert result.output.startswith(f"::error file={pack},line=3,col=13")


def test_play_with_bots_only_runs_a_whole_game():
    result = run("play", "tictactoe", "--seats", "greedy,random", "--seed", "4")
    assert result.exit_code == 0, result.output
    assert "game over" in result.output and ("winner" in result.output or "shared win" in result.output)


def test_play_a_human_typing_moves_and_commands():
    moves = "help\nmoves\nplay Z9\nexplain play A1\n1\n2\n3\n4\n5\n6\n7\n8\n9\n"
    result = run("play", "tictactoe", "--seats", "human,human", "--seed", "1", input=moves)
    assert result.exit_code == 0, result.output
    assert "`play Z9`: Z9 is off the board" in result.output
    assert "game over" in result.output


def test_play_bad_option_is_a_usage_error():
    result = run("play", "tictactoe", "--seats", "random,random", "--option", "nope=1")
    assert result.exit_code == 2
    assert "has no option `nope`" in result.output


def test_score_a_position_file(tmp_path):
    position = tmp_path / "pos.yaml"
    position.write_text("board: |\n  X X X\n  O O .\n  . . .\n")
    result = run("score", "tictactoe", str(position), "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["winners"] == ["P1"] and data["players"][0]["total"] == 1


def test_the_console_script_starts():
    out = subprocess.run([sys.executable, "-m", "boardrule", "--help"], capture_output=True, text=True)
    assert out.returncode == 0 and "check" in out.stdout and "play" in out.stdout


def test_a_saved_game_replays_and_verifies(tmp_path):
    save = tmp_path / "game.json"
    moves = "1\n1\n1\n1\n1\n1\n1\n1\n1\n"
    result = run("play", "tictactoe", "--seats", "human,random", "--seed", "2", "--save", str(save), input=moves)
    assert result.exit_code == 0, result.output
    verified = run("replay", str(save), "--verify")
    assert verified.exit_code == 0 and "replays" in verified.output, verified.output
    shown = run("replay", str(save))
    assert shown.exit_code == 0 and "1. P1 play A1" in shown.output


def test_a_tampered_save_does_not_replay(tmp_path):
    save = tmp_path / "game.json"
    result = run("play", "tictactoe", "--seats", "random,random", "--seed", "3", "--save", str(save))
    assert result.exit_code == 0, result.output
    data = json.loads(save.read_text())
    data["moves"][0][1] = "play Z9"
    save.write_text(json.dumps(data))
    tampered = run("replay", str(save), "--verify")
    assert tampered.exit_code == 1 and "does not replay" in tampered.output, tampered.output


def test_a_reader_that_goes_away_stops_the_command_quietly():
    """`boardrule ... | head`: exit 141 as a shell reports it, and no "internal error" on stderr."""
    import subprocess
    import sys
    child = subprocess.Popen([sys.executable, "-c", "from boardrule.cli.main import main; main()",
                              "play", "connect4", "--seats", "random,random", "--seed", "1"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
    child.stdout.readline()
    child.stdout.close()  # the reader goes away while the game is still printing
    stderr = child.stderr.read().decode()
    assert child.wait(timeout=60) == 141
    assert "internal error" not in stderr and "Traceback" not in stderr


def test_a_game_a_rule_broke_is_not_saved_unasked(tmp_path, monkeypatch):
    """Nobody at a terminal, no --save: the broken game leaves no file in the folder."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "square.pack").write_text(
        "game: {id: square, name: Square, players: 1}\nboard: {grid: square 3 x 3}\npieces: {x: {symbol: X}}\n"
        "vars: {v: 2}\nactions: {put: {params: {cell: cells where empty}, effect: \"place x at cell; set v = v * v\"}}\n"
        "flow: {round: [{turns: [put]}], end: \"none(cells, empty)\"}\nscoring: {total: v}\n")
    result = CliRunner().invoke(cli, ["play", "square.pack", "--seats", "random"], input="")
    assert result.exit_code == 1 and "outside the range of numbers" in result.output
    assert "not saved (pass --save FILE to keep such a game)" in result.output
    assert list(tmp_path.iterdir()) == [tmp_path / "square.pack"]


def _modules_after(*args) -> set:
    """The modules a fresh `boardrule ARGS` has imported when it ends."""
    import subprocess
    import sys
    code = ("import sys; from boardrule.cli.main import main; sys.argv[0] = 'boardrule'\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\nprint(' '.join(sorted(sys.modules)))")
    done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=120)
    return set(done.stdout.split()[-2000:]) if done.stdout else set()


def test_help_imports_no_language_and_check_no_other_command():
    """Start-up: `--help` needs click and the commands' modules only (no YAML, grammar, attrs or
    engine); `check` imports the language and the engine, not play, simulate or render."""
    from boardrule.cli.main import COMMAND_MODULES
    helped = _modules_after("--help")
    # the help lists every command: each module of commands is read (cli/main.py's _register)
    assert {f"boardrule.cli.{module}" for module in COMMAND_MODULES.values()} <= helped
    assert not {"attrs", "yaml", "lark", "boardrule.dsl.diagnostics", "boardrule.interpreter.compiler.game"} & helped
    checked = _modules_after("check", "tictactoe")
    assert {"boardrule.interpreter.designer.check", "lark", "yaml"} <= checked
    assert not {"boardrule.cli.simulate", "boardrule.cli.picture", "boardrule.cli.designer", "boardrule.cli.play",
                "difflib", "zipfile"} & checked


def test_every_command_is_found_in_its_module():
    """cli/main.py's COMMAND_MODULES names the module of every command, and nothing else."""
    import importlib
    import pkgutil

    import boardrule.cli as package
    from boardrule.cli.main import COMMAND_MODULES, cli
    for module in pkgutil.iter_modules(package.__path__):
        importlib.import_module(f"boardrule.cli.{module.name}")
    defined = {name: command.callback.__module__.rsplit(".", 1)[-1] for name, command in cli.commands.items()}
    assert defined == COMMAND_MODULES
