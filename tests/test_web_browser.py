"""The play and designer pages in a real browser: Playwright driving Debian's Chromium (/usr/bin/chromium, launched
by path: Playwright's own browser download cannot run here) against a server started on a free localhost port.

One browser and one server for the module. Without Chromium or Playwright the tests skip with one line saying
so. With BOARDRULE_REGEN=1 the tests also write the screenshots docs/web.md shows (review them before committing).
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette, uvicorn) is not installed")
pytest.importorskip("uvicorn", reason="the web extra (starlette, uvicorn) is not installed")
sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright (pip install playwright) is not installed")

sys.path.insert(0, str(Path(__file__).resolve().parent))
from web_support import FACTORY_OPTIONS, Http, factory_moves  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
REGEN = os.environ.get("BOARDRULE_REGEN") == "1"
CHROMIUM = os.environ.get("BOARDRULE_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
WAIT_MS = 30_000

if not Path(CHROMIUM).exists():
    pytest.skip(f"no Chromium at {CHROMIUM}: the browser tests need it (apt-get install chromium)",
                allow_module_level=True)


class Running:
    """`make_app(pack)` served by uvicorn in a thread, on a free localhost port, as `boardrule serve` serves it."""

    def __init__(self, folder, pack=None):
        import uvicorn

        from boardrule.cli.serve import free_port
        from boardrule.cli.web.app import make_app
        port = free_port("127.0.0.1")
        config = uvicorn.Config(make_app(pack, folder=folder), host="127.0.0.1", port=port, log_level="warning",
                                lifespan="off")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        for _ in range(200):
            if self.server.started:
                break
            time.sleep(0.05)
        assert self.server.started, "the server did not start"
        self.url = f"http://127.0.0.1:{port}"

    def stop(self):
        self.server.should_exit = True
        self.thread.join(10)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    running = Running(tmp_path_factory.mktemp("served"))
    yield running.url
    running.stop()


@pytest.fixture(scope="module")
def browser():
    with tempfile.TemporaryDirectory(prefix="boardrule-chromium-") as profile:
        with sync_api.sync_playwright() as driver:
            context = driver.chromium.launch_persistent_context(
                profile, executable_path=CHROMIUM, headless=True, args=ARGS, viewport={"width": 1280, "height": 860})
            yield context
            context.close()


@pytest.fixture
def page(browser):
    tab = browser.new_page()
    errors = []
    tab.on("pageerror", lambda err: errors.append(str(err)))
    tab.set_default_timeout(WAIT_MS)
    yield tab
    tab.close()
    assert not errors, errors


def cell(tab, name):
    return tab.locator(f'#board g.cell[data-cell="{name}"]')


def wait_status(tab, text):
    tab.wait_for_function("text => document.getElementById('status').textContent.includes(text)", arg=text)


def shot(tab, name):
    """A screenshot for docs/web.md, written only with BOARDRULE_REGEN=1."""
    if REGEN:
        tab.screenshot(path=str(DOCS / name), full_page=True)


def open_game(tab, server, pack, seats, seed, options=None, moves=()):
    http = Http(server)
    game = http.call("POST", "/api/games", {"pack": pack, "seats": seats, "seed": seed, "options": options or {}})
    for seat, text in moves:
        http.call("POST", f"/api/games/{game['id']}/move", {"seat": seat, "text": text})
    tab.goto(f"{server}/play?game={game['id']}")
    tab.wait_for_selector("#board g.cell")
    return game


# ------------------------------------------------------------------ the play page
def test_a_whole_game_of_tictactoe_by_clicks_to_a_win(page, server, tmp_path):
    page.goto(f"{server}/play?pack=tictactoe")
    page.wait_for_selector("#seats select")
    page.locator("#seats select").nth(1).select_option("human")  # two players at one screen
    page.click("#start")
    page.wait_for_selector("#board g.cell")
    for turn, name in enumerate(["B2", "A1", "A2", "C1", "C2"]):
        player = "P1" if turn % 2 == 0 else "P2"
        wait_status(page, f"{player} to move")
        assert cell(page, name).get_attribute("class") == "cell target"
        cell(page, name).click()
        page.wait_for_function("n => document.querySelectorAll('#log li').length === n", arg=turn + 1)
    wait_status(page, "game over")
    assert "winner: P1" in page.inner_text("#outcome")
    assert cell(page, "C2").get_attribute("data-label") == "X"
    with page.expect_download() as saving:  # the save: a file `boardrule replay` replays
        page.click("#save")
    saved = tmp_path / saving.value.suggested_filename
    saving.value.save_as(saved)
    from click.testing import CliRunner

    import boardrule.cli.commands  # noqa: F401  (registers replay)
    from boardrule.cli.main import cli
    replayed = CliRunner().invoke(cli, ["replay", str(saved), "--verify"])
    assert replayed.exit_code == 0 and "replays (5 moves" in replayed.output, replayed.output
    page.locator("#replay").fill("0")  # the replay slider: back to the empty board
    page.wait_for_function("() => document.getElementById('replay-at').textContent.startsWith('position 0')")
    assert cell(page, "B2").get_attribute("data-label") == "."


def test_a_new_game_with_an_option_chosen_on_the_page(page, server):
    page.goto(f"{server}/play?pack=tinytowns")
    page.wait_for_selector('#options select[data-option="black_card"]')
    page.select_option("#players", "1")
    page.select_option('#options select[data-option="black_card"]', "factory")
    page.click("#start")
    page.wait_for_selector("#board g.cell")
    assert "Factory" in page.inner_text("#board")  # the buildings in play, on the picture's notes
    assert page.evaluate("snap.seats.length") == 1


def test_a_townies_turn_a_shape_turned_and_an_object_refused_then_placed(page, server):
    game = open_game(page, server, "townies", ["human"], 3)
    who = game["turn_name"]
    assert any(line.startswith("rolled black:") for line in page.inner_text("#log").splitlines())
    assert "dice: black" in page.inner_text("#board")  # the roll on the picture's notes too
    page.click('#actions button[data-action="draw_shape"]')
    forms = page.evaluate("snap.decision.shapes['draw_shape:0'].forms")
    legal = set(page.evaluate("snap.decision.moves.filter(m => m.action === 'draw_shape')"
                              ".map(m => m.values[0].key)"))
    page.keyboard.press("r")  # turn the shape once
    turned = forms[0]["turn"]
    assert turned != 0
    anchor, cells = next((c, placed) for c, placed in forms[turned]["at"].items() if "+".join(placed) in legal)
    cell(page, anchor).hover()
    for name in cells:
        assert "preview-ok" in cell(page, name).get_attribute("class")
    shot(page, "web-play.png")
    cell(page, anchor).click()
    page.wait_for_function("text => document.getElementById('log').textContent.includes(text)",
                           arg=f"{who}: draw_shape ")
    drawn = next(line for line in page.inner_text("#log").splitlines() if "draw_shape" in line)
    assert set(drawn.split()[-1].split("+")) == set(cells)
    # rounds go on until the rolled Object may be drawn next to a Block: then a refusal, and the Object placed
    for _ in range(8):
        page.wait_for_selector("#actions button")
        if "impossible" not in (page.get_attribute('#actions button[data-action="draw_object"]', "class") or ""):
            break
        page.click('#actions button[data-action="draw_shape"]')
        first = page.evaluate("snap.decision.moves.find(m => m.action === 'draw_shape').text")
        page.fill("#move-text", first)
        steps = page.evaluate("snap.steps")
        page.press("#move-text", "Enter")
        page.wait_for_function("n => snap.steps > n", arg=steps)
    page.click('#actions button[data-action="draw_object"]')
    if page.locator("#values button[data-value]").count():
        page.locator("#values button[data-value]").first.click()
    targets = page.evaluate("Array.from(document.querySelectorAll('#board g.cell.target')).map(g => g.dataset.cell)")
    assert targets
    taken = next(name for name in cells if name not in targets)
    cell(page, taken).click()
    page.wait_for_function("() => document.getElementById('message').textContent.includes('`draw_object')")
    assert page.inner_text("#message").strip()  # why that space is refused, in the players' words
    steps = page.evaluate("snap.steps")
    cell(page, targets[0]).click()
    page.wait_for_function("n => snap.steps > n", arg=steps)
    assert f"{who}: draw_object" in page.inner_text("#log")


def test_a_tiny_towns_build_with_a_choice(page, server):
    open_game(page, server, "tinytowns", ["human", "human"], 1, FACTORY_OPTIONS, factory_moves())
    wait_status(page, "P1 to move")
    page.click('#actions button[data-action="build"]')
    page.click('#values button[data-value="A1+A2+B2+C2+D2"]')  # the Factory's pattern, as laid
    assert "target" in cell(page, "D2").get_attribute("class")  # the building goes on one of its squares
    cell(page, "D2").click()
    page.wait_for_selector('#actions button[data-action="choice"]')
    page.click('#values button[data-value="glass"]')  # the Factory asks which resource it stores
    page.wait_for_function("() => document.getElementById('log').textContent.includes('/ glass')")
    assert "P1: build factory A1+A2+B2+C2+D2 D2 / glass" in page.inner_text("#log")
    own = "#board" if page.evaluate("snap.viewer") == 0 else "#others"  # P2's turn now: P1's board beside
    assert page.get_attribute(f'{own} g.cell[data-cell="D2"]', "data-label").startswith("FC")


def test_a_click_anywhere_in_a_column_drops_into_it(page, server):
    open_game(page, server, "connect4", ["human", "human"], 1)
    wait_status(page, "P1 to move")
    cell(page, "D1").click()  # the top of column D: the disc falls to its lowest free cell
    page.wait_for_function("() => document.querySelectorAll('#log li').length === 1")
    assert page.inner_text("#log").strip().endswith("P1: drop D6")


def test_a_group_that_is_no_one_shape_is_picked_cell_by_cell(page, tmp_path):
    running = Running(tmp_path, str(ROOT / "tests" / "packs" / "groups.pack"))
    try:
        open_game(page, running.url, str(ROOT / "tests" / "packs" / "groups.pack"), ["human"], 1)
        wait_status(page, "P1 to move")
        cell(page, "B2").click()  # no stone there: refused, with the reason
        page.wait_for_function("() => document.getElementById('message').textContent.includes('`take')")
        for name in ("A1", "B1"):
            cell(page, name).click()
            assert "chosen" in cell(page, name).get_attribute("class")
        assert page.is_disabled("#confirm")  # A1+B1 is not one of the groups
        cell(page, "A2").click()
        assert page.inner_text("#confirm") == "confirm A1+A2+B1"
        page.click("#confirm")
        page.wait_for_function("() => document.querySelectorAll('#log li').length === 1")
        assert page.inner_text("#log").strip().startswith("P1: take ")
        assert cell(page, "A1").get_attribute("data-label") == "."
    finally:
        running.stop()


def test_undo_takes_back_a_move_and_the_bots_reply(page, server):
    open_game(page, server, "tictactoe", ["human", "greedy"], 2)
    cell(page, "B2").click()
    wait_status(page, "P2 (greedy) is thinking")  # the bot's turn shows until its move comes
    page.wait_for_function("() => document.querySelectorAll('#log li').length === 2")  # the bot's reply came
    wait_status(page, "P1 to move")
    page.click("#undo")
    page.wait_for_function("() => document.querySelectorAll('#log li').length === 0")
    assert cell(page, "B2").get_attribute("data-label") == "."
    assert "undone: `play B2`" in page.inner_text("#message")
    assert page.is_enabled("#redo")
    page.click("#hint")  # the strongest bot's move, its cell outlined
    page.wait_for_function("() => document.getElementById('message').textContent.startsWith('hint: play ')")
    hinted = page.inner_text("#message").split()[-1]
    assert "hinted" in cell(page, hinted).get_attribute("class")


def test_hot_seat_hides_a_players_secret_behind_a_privacy_screen(page, server):
    game = open_game(page, server, "tinytowns", ["human", "human"], 2)
    wait_status(page, "P1 to move")
    kept = page.locator("#values button[data-value]").first
    monument = kept.inner_text()
    kept.click()  # P1 keeps a monument, in secret
    page.wait_for_selector("#privacy:not(.hidden)")
    assert "P2's turn" in page.inner_text("#privacy")
    assert page.locator("#board svg").count() == 0  # P1's view is gone from the screen
    page.click("#privacy-button")
    wait_status(page, "P2 to move")
    assert page.evaluate("snap.viewer") == 1
    assert monument not in page.inner_text("body")  # P2's screen: no word of the monument P1 kept
    p1 = Http(server).call("GET", f"/api/games/{game['id']}?viewer=0")
    assert f"monument {monument}" in p1["board"]  # while P1's own view names it


def play_by_mouse(tab, rng):
    """One decision made with the mouse only, from what the page offers: an action button, then value
    buttons, highlighted cells, or the shape turned (R, F) until it is one of the legal ones and laid."""
    tab.wait_for_function("() => snap && (snap.over || (snap.decision && !busy) || "
                          "!document.getElementById('privacy').classList.contains('hidden'))")
    if "hidden" not in tab.get_attribute("#privacy", "class"):
        tab.click("#privacy-button")
        return
    if tab.evaluate("snap.over"):
        return
    before = tab.evaluate("snap.steps + ':' + (snap.asking || '') + ':' + snap.decision.moves.length")
    if tab.evaluate("pick === null"):
        actions = tab.evaluate("snap.decision.actions.filter(a => a.possible).map(a => a.name)")
        tab.click(f'#actions button[data-action="{rng.choice(actions)}"]')
    while tab.evaluate("pick !== null && !busy") and not tab.evaluate("snap.over") and tab.evaluate(
            "snap.steps + ':' + (snap.asking || '') + ':' + snap.decision.moves.length") == before:
        kind = tab.evaluate("nextKind()")
        if kind == "value":
            offered = tab.locator("#values button[data-value]")
            offered.nth(rng.randrange(offered.count())).click()
        elif kind == "cell":
            targets = tab.evaluate("Array.from(document.querySelectorAll('#board g.cell.target'))"
                                   ".map(g => g.dataset.cell)")
            cell(tab, rng.choice(targets)).click()
        elif kind == "cells":
            wanted = rng.choice(sorted(tab.evaluate("Object.keys(legalWords())")))
            forms = tab.evaluate("shapeForms()")
            index, anchor = next((i, at) for i, form in enumerate(forms) for at, cells in form["at"].items()
                                 if "+".join(cells) == wanted)
            for _ in range(2 * len(forms)):
                if tab.evaluate("form") == index:
                    break
                tab.keyboard.press("r" if rng.random() < 0.7 else "f")
            cell(tab, anchor).hover()
            cell(tab, anchor).click()
        else:
            break


def test_a_whole_game_of_townies_by_mouse(page, server):
    import random
    open_game(page, server, "townies", ["human", "random"], 5)
    rng = random.Random(5)
    for _ in range(400):
        if page.evaluate("snap.over"):
            break
        play_by_mouse(page, rng)
    assert page.evaluate("snap.over")
    assert "winner" in page.inner_text("#outcome")
    assert page.inner_text("#message") == ""  # the mouse picked only what the page offered: nothing refused


# ------------------------------------------------------------------ the designer page
def test_the_designer_shows_a_diagnostic_at_its_line_after_an_edit(page, server, tmp_path):
    from boardrule.interpreter.designer.check import check_pack
    page.goto(f"{server}/design?pack=tictactoe")
    page.wait_for_selector("#diagnostics li.clean")
    text = page.input_value("#source")
    lines = text.split("\n")
    line = next(i for i, t in enumerate(lines, 1) if t.strip().startswith("effect:"))
    broken = "\n".join(lines[:line - 1] + [lines[line - 1].replace("effect:", "effect: nosuch_name +")]
                       + lines[line:])
    page.fill("#source", broken)  # as typed: the page checks it after a pause
    page.wait_for_selector("#diagnostics li.error")
    path = tmp_path / "tictactoe.pack"
    path.write_text(broken, encoding="utf-8")
    expected = [d for d in check_pack(path, run_pack_tests=False).diagnostics if d.severity == "error"][0]
    first = page.locator("#diagnostics li.error").first
    assert first.get_attribute("data-code") == expected.code
    assert first.get_attribute("data-line") == str(expected.span.line)
    assert f"tictactoe.pack:{expected.span.line}:{expected.span.col}" in first.inner_text()
    assert page.locator(f'#gutter span.bad[data-line="{expected.span.line}"]').count() == 1
    first.click()  # the editor goes to the line
    assert page.evaluate("el('source').value.slice(0, el('source').selectionStart).split('\\n').length") \
        == expected.span.line
    page.wait_for_function("() => document.getElementById('rules').srcdoc.length > 0")
    page.fill("#source", text)  # mended: the diagnostics go, and the simulate button reports on the pack
    page.wait_for_selector("#diagnostics li.clean")
    page.click("#save")  # the pack's own tests run on save
    page.wait_for_function("() => document.getElementById('tests').textContent.includes('all pass')")
    assert page.inner_text("#saved") == "saved to tictactoe.pack"  # a copy in the server's folder
    page.fill("#games", "20")
    page.click("#simulate")
    page.wait_for_function("() => document.getElementById('report').textContent.includes('20 games')")
    page.fill("#source", broken)  # the screenshot: the diagnostic, its line in the editor, the report
    page.wait_for_selector("#diagnostics li.error")
    page.locator("#diagnostics li.error").first.click()
    shot(page, "web-designer.png")
