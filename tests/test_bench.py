"""`boardrule bench` runs and reports its figures (never judged: no timing is asserted)."""

from __future__ import annotations

import json

from click.testing import CliRunner

import boardrule
import boardrule.cli.simulate  # noqa: F401  (registers simulate and bench)
from boardrule.cli.main import cli
from boardrule.interpreter.lab import bench


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def test_bench_json_has_the_figures():
    result = run("bench", "tictactoe", "--games", 2, "--repeats", 1, "--format", "json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    env = report["environment"]
    assert env["engine"]["version"] == boardrule.__version__
    assert env["python"]["version"] and env["cpu"]["model"] and env["cpu"]["logical_cpus"]
    [pack] = report["packs"]
    assert pack["name"] == "tictactoe" and len(pack["hash"]) == 16 and pack["players"] == 2
    assert pack["random"]["games"] == 2 and pack["random"]["games_per_s"] > 0
    assert pack["random"]["moves_per_game"] > 0
    assert pack["check"]["ok"] and pack["check"]["tests_run"] > 0 and pack["check"]["in_process_s"] > 0
    assert pack["startup"]["exit_code"] == 0 and pack["startup"]["best_s"] > 0
    assert report["startup"]["help"]["exit_code"] == 0 and report["startup"]["bare_python"]["best_s"] > 0


def test_bench_text_names_every_figure(tmp_path):
    result = run("bench", "tictactoe", "--games", 1, "--repeats", 1)
    assert result.exit_code == 0, result.output
    for text in ("boardrule bench", "engine   boardrule", "python", "cpu", "games/s", "check s", "start-up s",
                 "boardrule --help", "tictactoe"):
        assert text in result.stdout


def test_bench_bad_input_is_a_usage_error():
    for args in (["--games", "0"], ["--seconds", "0"], ["--repeats", "0"], ["no-such-pack"]):
        result = run("bench", *args)
        assert result.exit_code == 2, args
        assert result.stderr.startswith("error[E"), result.stderr
        assert "Traceback" not in result.output


def test_a_pack_that_fails_is_reported_not_raised(tmp_path):
    broken = tmp_path / "broken.pack"
    broken.write_text("game: {id: b, players: 1}\nboard: {grid: square 2 x 2}\nflow: {end: nope}\n")
    entry = bench.measure_pack(str(broken), games=1, repeats=1)
    assert "error" in entry and entry["check"]["ok"] is False


def test_bench_measures_the_players_and_options_it_is_given():
    from click.testing import CliRunner

    import boardrule.cli.simulate  # noqa: F401  (registers bench)
    from boardrule.cli.main import cli
    result = CliRunner().invoke(cli, ["bench", "tinytowns", "--players", "3", "--option", "variant=town_hall",
                                      "--games", "1", "--repeats", "1", "--format", "json"])
    assert result.exit_code == 0, result.output
    import json
    report = json.loads(result.output)
    assert report["settings"]["players"] == 3 and report["settings"]["options"] == {"variant": "town_hall"}
    pack = report["packs"][0]
    assert pack["players"] == 3 and pack["options"] == {"variant": "town_hall"} and pack["random"]["games_per_s"] > 0
    refused = CliRunner().invoke(cli, ["bench", "tinytowns", "--players", "9", "--games", "1"])
    assert refused.exit_code == 2 and "is for 1-6 players, not 9" in refused.output
