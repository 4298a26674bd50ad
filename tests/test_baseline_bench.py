"""benchmarks/baseline.py still runs: its worker plays the games bench.playout_runner plays, a tiny
run against the tagged build prints every figure, and a missing tag or pack is a usage error.
No timing is asserted."""

from __future__ import annotations

import importlib.util
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from boardrule.interpreter.api import open_game
from boardrule.interpreter.lab import bench

REPO = Path(__file__).resolve().parent.parent
BASELINE = REPO / "benchmarks" / "baseline.py"
TIMEOUT = 300


def _load(name: str):
    spec = importlib.util.spec_from_file_location(name, REPO / "benchmarks" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _run(*args):
    return subprocess.run([sys.executable, str(BASELINE), *args], capture_output=True, text=True,
                          timeout=TIMEOUT, stdin=subprocess.DEVNULL, cwd=str(REPO))


def _has_tagged_build() -> bool:
    """The tagged commit is in this checkout (by the tag, or by the commit the script knows it names)."""
    try:
        _load("baseline").tag_commit("issue18-baseline")
    except Exception:  # no git, or a checkout without that history
        return False
    return True


def test_a_checkout_without_the_tag_finds_the_build_by_its_commit(monkeypatch):
    baseline = _load("baseline")
    asked = []

    def git(*args):
        asked.append(args[-1])
        if args[-1].startswith(baseline.KNOWN_TAGS[baseline.TAG]):
            return b"fd0cff99e28f79d5343dd1da0d9c1186bb215f01\n"
        raise baseline.Unavailable("unknown revision")

    monkeypatch.setattr(baseline, "git", git)
    assert baseline.tag_commit(baseline.TAG).startswith("fd0cff9")
    with pytest.raises(baseline.Unavailable, match="no-such-tag"):
        baseline.tag_commit("no-such-tag")


def test_the_worker_plays_the_games_of_the_playout_runner():
    worker = _load("baseline_worker")
    commands = [{"op": "hello"}, {"op": "open", "specs": ["no-such-pack", "tictactoe"], "players": 2},
                {"op": "play", "first": 3, "games": 4}, {"op": "nonsense"}]
    answers = io.StringIO()
    worker.serve(io.StringIO("".join(json.dumps(c) + "\n" for c in commands)), answers)
    hello, opened, played, refused = [json.loads(line) for line in answers.getvalue().splitlines()]
    assert hello["runner"] == "boardrule.interpreter.lab.bench"
    assert opened["spec"] == "tictactoe" and [r["spec"] for r in opened["refused"]] == ["no-such-pack"]
    assert Path(opened["files"][0]).name == "tictactoe.pack"
    game = open_game("tictactoe")
    assert opened["hash"] == game.pack_hash
    play_one = bench.playout_runner(game, 2, "random")
    assert played["moves"] == [play_one(n) for n in range(3, 7)]
    assert played["games"] == 4 and played["cpu_s"] >= 0
    assert "unknown op" in refused["error"]


@pytest.mark.skipif(not _has_tagged_build(), reason="needs git and the commit tagged issue18-baseline")
def test_a_tiny_run_against_the_tagged_build(tmp_path):
    done = _run("tictactoe", "--players", "2", "--seconds", "0.05", "--cache", str(tmp_path), "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["environment"]["tagged"]["commit"].startswith("fd0cff9")
    assert Path(result["environment"]["tagged"]["location"]).is_relative_to(tmp_path)
    (row,) = result["packs"]
    assert "error" not in row, row
    assert row["same_games"] and len(row["ratios"]) == 5 and row["speedup"] > 0
    assert row["verdict"] in ("met", "missed")
    tagged_files = row["files"]["tagged"]["files"]  # today's pack, or the build's own when it cannot read it
    assert tagged_files == row["files"]["today"]["files"] or all(Path(f).is_relative_to(tmp_path) for f in tagged_files)
    for side in ("today", "tagged"):
        assert row[side]["games_per_s"] > 0 and row[side]["moves_per_game"] > 0


def test_a_missing_tag_or_pack_is_a_usage_error(tmp_path):
    missing = _run("--tag", "no-such-tag", "--cache", str(tmp_path))
    assert missing.returncode == 2
    assert "no-such-tag" in missing.stderr or "git" in missing.stderr
    assert "Traceback" not in missing.stderr
    unknown = _run("no-such-pack")
    assert unknown.returncode == 2 and "not a bundled pack" in unknown.stderr
