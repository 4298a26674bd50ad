"""`boardrule serve` over HTTP, without a browser: the JSON requests the pages make (Starlette's TestClient),
and the command itself (its address printed, a clear usage error without the web extra)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette) is not installed")
pytest.importorskip("httpx2", reason="starlette's TestClient needs httpx2")

from click.testing import CliRunner  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from boardrule.cli.main import cli  # noqa: E402
from boardrule.cli.web.app import make_app  # noqa: E402
from boardrule.interpreter import api  # noqa: E402
from boardrule.interpreter.designer.check import check_pack  # noqa: E402
from boardrule.interpreter.runtime import picture as pictures  # noqa: E402
import boardrule.cli.commands  # noqa: E402,F401  (registers the commands)
import boardrule.cli.serve  # noqa: E402,F401

sys.path.insert(0, str(Path(__file__).resolve().parent))
from web_support import FACTORY_OPTIONS, factory_moves  # noqa: E402

LOCAL = "http://127.0.0.1"


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    return tmp_path_factory.mktemp("served")


@pytest.fixture(scope="module")
def client(served):
    return TestClient(make_app(folder=served), base_url=LOCAL)


def ok(response):
    assert response.status_code == 200, response.text
    return response.json()


def new_game(client, pack, seats, seed=1, options=None):
    return ok(client.post("/api/games", json={"pack": pack, "seats": seats, "seed": seed, "options": options or {}}))


def move(client, game, seat, text):
    return ok(client.post(f"/api/games/{game['id']}/move", json={"seat": seat, "text": text}))


# ------------------------------------------------------------------ the command
def test_serve_without_the_web_extra_is_a_usage_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "uvicorn", None)  # as if it were not installed
    result = CliRunner().invoke(cli, ["serve", "tictactoe", "--no-open"])
    assert result.exit_code == 2
    assert "pip install 'boardrule[web]'" in result.output


def test_serve_prints_its_address_and_answers_there():
    process = subprocess.Popen([sys.executable, "-c", "from boardrule.cli.main import main; main()",
                                "serve", "tictactoe", "--no-open"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = process.stdout.readline()
        assert line.startswith("boardrule serve: open http://127.0.0.1:"), line + process.stderr.read()
        address = line.split()[3]
        assert address.endswith("/play?pack=tictactoe")
        root = address.split("/play")[0]
        packs = None
        for _ in range(100):
            try:
                with urllib.request.urlopen(root + "/api/packs", timeout=5) as response:
                    packs = json.loads(response.read())
                break
            except OSError:
                time.sleep(0.1)
        assert packs is not None and packs["served"] == "tictactoe"
        with urllib.request.urlopen(address, timeout=5) as response:
            assert b"play.js" in response.read()
    finally:
        process.terminate()
        process.wait(10)


def test_the_address_names_the_pack_and_a_pack_with_errors_opens_in_the_designer(tmp_path):
    from boardrule.cli.serve import address
    assert address("127.0.0.1", 8000) == "http://127.0.0.1:8000/"
    assert address("::1", 8000, "tictactoe") == "http://[::1]:8000/play?pack=tictactoe"
    assert address("127.0.0.1", 8000, "/a b/my.pack", "design") == \
        "http://127.0.0.1:8000/design?pack=%2Fa%20b%2Fmy.pack"
    broken = tmp_path / "broken.pack"
    broken.write_text("game: {id: broken, name: Broken, players: 1}\nboard: {grid: square 2 x 2}\n",
                      encoding="utf-8")
    process = subprocess.Popen([sys.executable, "-c", "from boardrule.cli.main import main; main()",
                                "serve", str(broken), "--no-open"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)
    try:
        line = process.stdout.readline()
        assert "/design?pack=" in line and "broken.pack" in line, line + process.stderr.read()
    finally:
        process.terminate()
        process.wait(10)
    assert "does not check" in process.stderr.read()


def test_a_port_taken_is_a_usage_error():
    import socket
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = CliRunner().invoke(cli, ["serve", "--no-open", "--port", str(port)])
    assert result.exit_code == 2
    assert f"cannot listen on 127.0.0.1:{port}" in result.output


def test_only_local_host_names_are_answered(client):
    assert client.get("/api/packs", headers={"Host": "attacker.example"}).status_code == 400
    assert client.get("/api/packs").status_code == 200


# ------------------------------------------------------------------ playing
def test_the_packs_are_listed_with_their_options(client):
    packs = {p["pack"]: p for p in ok(client.get("/api/packs"))["packs"]}
    assert packs["tictactoe"]["players"] == [2, 2] and packs["tictactoe"]["options"] == []
    options = {o["name"]: o for o in packs["tinytowns"]["options"]}
    assert options["cavern"]["type"] == "bool" and options["cavern"]["default"] == "false"
    assert "factory" in options["black_card"]["values"]


def test_a_game_of_tictactoe_to_a_win(client):
    game = new_game(client, "tictactoe", ["human", "human"])
    assert game["turn"] == 0 and game["decision"]["actions"][0]["name"] == "play"
    cells = {m["values"][0]["cells"][0] for m in game["decision"]["moves"]}
    assert len(cells) == 9
    for seat, cell in [(0, "B2"), (1, "A1"), (0, "A2"), (1, "C1"), (0, "C2")]:
        game = move(client, game, seat, f"play {cell}")
    assert game["over"] and game["score"]["winners"] == ["P1"]
    assert "winner: P1" in game["outcome"]
    assert game["log"][-1] == "P1: play C2"


def test_a_refused_move_says_why(client):
    game = new_game(client, "tictactoe", ["human", "human"])
    move(client, game, 0, "play B2")
    response = client.post(f"/api/games/{game['id']}/move", json={"seat": 1, "text": "play B2"})
    assert response.status_code == 400
    assert response.json()["error"] == "`play B2`: B2 is already marked"
    said = ok(client.post(f"/api/games/{game['id']}/explain", json={"seat": 1, "text": "play D9"}))
    assert "off the board" in said["reason"]
    wrong_turn = client.post(f"/api/games/{game['id']}/move", json={"seat": 0, "text": "play A1"})
    assert wrong_turn.status_code == 400 and "not P1's turn" in wrong_turn.json()["error"]


def test_a_bot_moves_when_asked(client):
    game = new_game(client, "tictactoe", ["human", "greedy"])
    after = move(client, game, 0, "play B2")
    assert after["turn"] == 1 and after["turn_kind"] == "greedy" and "decision" not in after
    after = ok(client.post(f"/api/games/{game['id']}/bot", json={}))
    assert after["bot"]["seat"] == 1 and after["turn"] == 0
    assert after["log"][-1] == f"P2 (greedy): {after['bot']['text']}"


def test_undo_goes_back_across_the_bots_reply_and_redo_brings_it_back(client):
    game = new_game(client, "tictactoe", ["human", "greedy"])
    move(client, game, 0, "play B2")
    after = ok(client.post(f"/api/games/{game['id']}/bot", json={}))
    assert after["undo"]
    undone = ok(client.post(f"/api/games/{game['id']}/undo", json={"seat": 0}))
    assert undone["log"] == [] and undone["redo"] and "`play B2`" in undone["message"]
    redone = ok(client.post(f"/api/games/{game['id']}/redo", json={"seat": 0}))
    assert redone["log"] == after["log"]
    again = client.post(f"/api/games/{game['id']}/redo", json={"seat": 0})
    assert again.status_code == 400 and "nothing to redo" in again.json()["error"]


def test_a_hint_is_a_legal_move(client):
    game = new_game(client, "tictactoe", ["human", "human"])
    hint = ok(client.post(f"/api/games/{game['id']}/hint", json={"seat": 0}))["hint"]
    assert hint in {m["text"] for m in game["decision"]["moves"]}


def test_a_shape_is_offered_in_its_orientations_turned_and_mirrored(client):
    game = new_game(client, "townies", ["human"], seed=3)
    shapes = game["decision"]["shapes"]["draw_shape:0"]["forms"]
    legal = {m["values"][0]["key"] for m in game["decision"]["moves"] if m["action"] == "draw_shape"}
    laid = {"+".join(cells) for form in shapes for cells in form["at"].values()}
    assert legal <= laid  # every legal placement is under the pointer at some cell, in some orientation
    from boardrule.interpreter.runtime.geometry import reflect_axial, rotate_axial
    points = [tuple(map(tuple, form["points"])) for form in shapes]
    for index, form in enumerate(shapes):  # hex boards: a turn is a sixth of a full turn, in axial coordinates
        turned = _normalised([rotate_axial(x, y) for x, y in points[index]])
        if turned in points:
            assert points[form["turn"]] == turned
        mirrored = _normalised([reflect_axial(x, y) for x, y in points[index]])
        if mirrored in points:
            assert points[form["mirror"]] == mirrored
    turned = {index: form["turn"] for index, form in enumerate(shapes)}
    seen, at = set(), 0
    while at not in seen:  # turning goes round the orientations and comes back
        seen.add(at)
        at = turned[at]
    assert at == 0


def test_groups_that_are_not_one_shape_are_picked_cell_by_cell():
    from boardrule.cli.web.picking import forms
    grid = api.open_game("tictactoe").grid
    assert forms(grid, [["A1", "B1"], ["A1", "B2"]])["forms"]  # a domino and a diagonal pair: one size, laid
    assert forms(grid, [["A1"], ["A1", "B1"]]) == {"forms": []}  # one cell or two: no shape to lay
    wide = api.open_game("connect4").grid
    triples = [[a, b, c] for a in wide.names[:12] for b in wide.names[:12] for c in wide.names[:12] if a < b < c]
    assert forms(wide, triples) == {"forms": []}  # any three cells: far more orientations than a shape has


def _normalised(points):
    x0, y0 = min(p[0] for p in points), min(p[1] for p in points)
    return tuple(sorted((x - x0, y - y0) for x, y in points))


def test_a_refused_placement_of_a_shape_says_why(client):
    game = new_game(client, "townies", ["human"], seed=3)
    first = game["decision"]["moves"][0]["values"][0]["key"]
    game = move(client, game, game["turn"], f"draw_shape {first}")  # the next round's shape
    legal = {m["values"][0]["key"] for m in game["decision"]["moves"] if m["action"] == "draw_shape"}
    forms = game["decision"]["shapes"]["draw_shape:0"]["forms"]
    laid = {"+".join(cells) for form in forms for cells in form["at"].values()}
    refused = sorted(key for key in laid - legal if set(key.split("+")) & set(first.split("+")))
    assert refused  # placements over the first shape are under the pointer too, to be refused with a reason
    said = ok(client.post(f"/api/games/{game['id']}/explain", json={"seat": game["turn"],
                                                                     "text": f"draw_shape {refused[0]}"}))
    assert "taken" in said["reason"] or "empty" in said["reason"], said


def test_a_choice_an_effect_asks_is_offered_as_values(client):
    game = new_game(client, "tinytowns", ["human", "human"], options=FACTORY_OPTIONS)
    for seat, text in factory_moves():
        game = move(client, game, seat, text)
    game = ok(client.get(f"/api/games/{game['id']}?viewer=0"))
    builds = [m for m in game["decision"]["moves"] if m["action"] == "build"]
    assert [v["kind"] for v in builds[0]["values"]] == ["value", "cells", "cell"]
    game = move(client, game, 0, builds[0]["text"])
    assert game["asking"] == builds[0]["text"]
    choice = game["decision"]
    assert [a["name"] for a in choice["actions"]] == ["choice"]
    answers = {m["values"][0]["text"] for m in choice["moves"]}
    assert answers == {"wood", "wheat", "brick", "glass", "stone"}
    after = move(client, game, 0, f"{builds[0]['text']} / glass")
    assert any("factory" in line and "glass" in line for line in after["log"])


def test_hot_seat_each_player_sees_their_own_view(client):
    game = new_game(client, "tinytowns", ["human", "human"], seed=2)  # each keeps a monument in secret
    assert game["hotseat"] and game["turn"] == 0
    kept = game["decision"]["moves"][0]["text"]
    after = move(client, game, 0, kept)
    assert after["handover"] == {"seat": 1, "name": "P2", "private": True}
    assert "decision" not in after  # P1's screen gets no moves of P2's
    second = ok(client.get(f"/api/games/{game['id']}?viewer=1"))
    assert second["viewer"] == 1 and "decision" in second and "handover" not in second
    assert second["log"] == []  # P1's move waits until the step all make at once closes
    game_of = api.open_game("tinytowns")
    state = api.new_game(game_of, 2, 2)
    state = api.apply(game_of, state, api.parse_move(game_of, state, 0, kept))
    assert second["board"] == pictures.to_svg(pictures.picture(game_of, state, 1, seats=[1]))
    assert second["board"] != pictures.to_svg(pictures.picture(game_of, state, None, seats=[1]))
    third = move(client, second, 1, second["decision"]["moves"][0]["text"])
    assert third["handover"]["seat"] == 0
    first_again = ok(client.get(f"/api/games/{game['id']}?viewer=0"))
    assert "P2: keep_monument ?" in first_again["log"]  # told to P1, the monument P2 kept left out


def test_a_viewer_that_is_not_a_human_seat_is_refused(client):
    game = new_game(client, "tictactoe", ["human", "greedy"])
    response = client.get(f"/api/games/{game['id']}?viewer=1")
    assert response.status_code == 400


def test_a_saved_game_resumes_in_the_terminal_and_replays(client, tmp_path):
    game = new_game(client, "tictactoe", ["human", "greedy"], seed=4)
    move(client, game, 0, "play B2")
    ok(client.post(f"/api/games/{game['id']}/bot", json={}))
    saved = client.get(f"/api/games/{game['id']}/save")
    assert saved.status_code == 200 and "attachment" in saved.headers["content-disposition"]
    path = tmp_path / "game.boardrule.json"
    path.write_text(saved.text, encoding="utf-8")
    replayed = CliRunner().invoke(cli, ["replay", str(path), "--verify"])
    assert replayed.exit_code == 0, replayed.output
    resumed = CliRunner().invoke(cli, ["play", "tictactoe", "--resume", str(path), "--no-color"], input="play A1\n")
    assert "resumed after 2 moves" in resumed.output, resumed.output
    loaded = ok(client.post("/api/games/load", content=saved.text.encode()))
    assert loaded["log"][:2] == ok(client.get(f"/api/games/{game['id']}"))["log"][:2]
    assert loaded["undo"]  # a loaded game keeps its timeline: undo works


def test_a_file_that_is_not_a_save_is_refused(client):
    response = client.post("/api/games/load", content=b"{not json")
    assert response.status_code == 400 and "not a boardrule save" in response.json()["error"]


def test_the_replay_slider_shows_each_position_of_a_finished_game(client):
    game = new_game(client, "tictactoe", ["random", "random"], seed=5)
    while not game["over"]:
        game = ok(client.post(f"/api/games/{game['id']}/bot", json={}))
    first = ok(client.get(f"/api/games/{game['id']}/replay?index=0"))
    assert first["steps"] == game["steps"] and first["log"] == []
    last = ok(client.get(f"/api/games/{game['id']}/replay?index={game['steps'] - 1}"))
    assert last["log"] == game["log"]
    assert client.get(f"/api/games/{game['id']}/replay?index={game['steps']}").status_code == 400


def test_pictures_are_the_libraries(client):
    game = new_game(client, "townies", ["human", "human"], seed=1)
    state = api.new_game(api.open_game("townies"), 2, 1)
    townies = api.open_game("townies")
    expected = pictures.to_svg(pictures.picture(townies, state, game["viewer"], seats=[game["viewer"]]))
    assert game["board"] == expected


# ------------------------------------------------------------------ the designer
def test_the_designer_checks_a_draft_as_check_checks_the_file(client, tmp_path):
    source = ok(client.get("/api/design/source?pack=tictactoe"))
    assert source["file"] == "tictactoe.pack" and "grid" in source["text"]
    clean = ok(client.post("/api/design/check", json={"pack": "tictactoe", "text": source["text"]}))
    assert clean["ok"] and not [d for d in clean["diagnostics"] if d["severity"] == "error"]
    bad = source["text"].replace("board:", "boardd:", 1)
    found = ok(client.post("/api/design/check", json={"pack": "tictactoe", "text": bad}))
    path = tmp_path / "tictactoe.pack"
    path.write_text(bad, encoding="utf-8")
    expected = check_pack(path, run_pack_tests=False)
    assert [(d["code"], d["line"], d["col"]) for d in found["diagnostics"]] == \
        [(d.code, d.span.line if d.span else None, d.span.col if d.span else None) for d in expected.diagnostics]
    assert found["diagnostics"] and all(d["file"] == "tictactoe.pack" for d in found["diagnostics"] if d["file"])
    assert found["diagnostics"][0]["text"].startswith("tictactoe.pack:")


def test_the_designer_saves_a_copy_of_a_bundled_pack_and_runs_its_tests(client, served):
    source = ok(client.get("/api/design/source?pack=tictactoe"))
    saved = ok(client.post("/api/design/save", json={"pack": "tictactoe", "text": source["text"]}))
    assert saved["saved"] == "tictactoe.pack"  # in the server's folder, shown from it
    assert (served / "tictactoe.pack").read_text(encoding="utf-8") == source["text"]
    assert saved["tests"] and all(t["ok"] for t in saved["tests"])
    again = ok(client.get("/api/design/source?pack=tictactoe"))
    assert again["saves_to"] == saved["saved"]


def test_the_designer_opens_only_the_packs_the_server_serves(client):
    response = client.get("/api/design/source?pack=/etc/passwd")
    assert response.status_code == 400 and "not a pack this server opens" in response.json()["error"]
    response = client.post("/api/design/check", json={"pack": "../../x", "text": "x"})
    assert response.status_code == 400


def test_the_designer_shows_the_rules_reference_and_simulates(client):
    source = ok(client.get("/api/design/source?pack=connect4"))["text"]
    rules = ok(client.post("/api/design/rules", json={"pack": "connect4", "text": source}))
    assert rules["html"].lstrip().lower().startswith("<!doctype html")
    report = ok(client.post("/api/design/simulate", json={"pack": "connect4", "text": source, "games": 4,
                                                            "seats": "random"}))
    assert "4 games" in report["report"] or "games" in report["report"]
    too_many = client.post("/api/design/simulate", json={"pack": "connect4", "text": source, "games": 10 ** 6})
    assert too_many.status_code == 400


def test_the_screenshots_of_docs_web_md_are_the_browser_tests():
    root = Path(__file__).resolve().parent.parent
    page = (root / "docs" / "web.md").read_text(encoding="utf-8")
    images = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", page)
    tests = (root / "tests" / "test_web_browser.py").read_text(encoding="utf-8")
    assert images
    for image in images:
        assert (root / "docs" / image).is_file(), image
        assert f'shot(page, "{image}")' in tests, f"{image} is not made by tests/test_web_browser.py"


def test_a_pack_file_served_plays_saves_and_loads_by_its_id(tmp_path):
    from boardrule.dsl.packpath import find_pack
    text = find_pack("tictactoe").path.read_text(encoding="utf-8").replace("id: tictactoe", "id: my_noughts")
    pack = tmp_path / "noughts.pack"
    pack.write_text(text, encoding="utf-8")
    served = TestClient(make_app(str(pack), folder=tmp_path), base_url=LOCAL)
    listing = ok(served.get("/api/packs"))
    assert listing["served"] == str(pack)
    game = ok(served.post("/api/games", json={"pack": str(pack), "seats": ["human", "human"], "seed": 1}))
    move(served, game, 0, "play B2")
    saved = served.get(f"/api/games/{game['id']}/save").text
    assert json.loads(saved)["pack"] == "my_noughts"
    loaded = ok(served.post("/api/games/load", content=saved.encode()))
    assert loaded["log"] == ["P1: play B2"] and loaded["turn"] == 1
    design = ok(served.get("/api/design/source", params={"pack": str(pack)}))
    assert design["text"] == text and design["saves_to"] == "noughts.pack"


def test_two_players_at_a_table_of_more_seats_are_p1_and_p2_on_the_page(client):
    game = new_game(client, "townies", ["human", "random"], seed=5)  # they sit at seats 3 and 5
    assert [s["seat"] for s in game["seats"]] == [2, 4]
    assert [s["name"] for s in game["seats"]] == ["P1", "P2"] and game["viewer_name"] == "P1"
    assert "the players sit at random: P1 at seat 3, P2 at seat 5 (seats 1, 2 and 4 empty)" in game["log"]
    assert "P1's board" in game["board"] and "P3" not in game["board"]
    assert [p["name"] for p in game["score"]["players"]] == ["P1", "P2"]
