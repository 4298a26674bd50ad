"""The web application: the pages (static files shipped in the package) and the JSON requests they make.

`make_app(pack)` builds the Starlette application `boardrule serve` runs.
Requests that change a game take the game's lock: the page may send a move
while a bot thinks, and the game's timeline is changed by one at a time.
Only the Host names given (localhost by default) are answered, so that a
page of another site cannot reach the server through a name it controls.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from boardrule.cli.web.drafts import DraftError, Drafts
from boardrule.cli.web.rooms import SEAT_KINDS, Refused, Rooms, new_room, room_from_save
from boardrule.dsl.diagnostics import BoardruleError
from boardrule.interpreter import api
from boardrule.interpreter.runtime.values import RuleError

STATIC = Path(__file__).parent / "static"
MAX_BODY = 4_000_000  # bytes of a request


class Packs:
    """The games the server opens, compiled once each: the bundled packs and the one `serve` was given."""

    def __init__(self, drafts: Drafts):
        self.drafts = drafts
        self.games = {}
        self.lock = threading.Lock()

    def open(self, name):
        if not isinstance(name, str):
            raise Refused("pack: a pack's name")
        if name not in self.drafts.files:
            known = {self.drafts.files[n].stem: n for n in self.drafts.files}
            name = known.get(name) or self._by_id(name) or name
        if name not in self.drafts.files:
            raise Refused(f"`{name}` is not a pack this server plays")
        path = self.drafts.path_of(name)
        with self.lock:
            game = self.games.get(name)
            if game is None:
                game = self.games[name] = api.open_game(name if name in self.drafts.bundled
                                                        and name not in self.drafts.copies else path)
        return game

    def _by_id(self, pack_id):
        """The served pack whose id (the `id` a save names) is `pack_id`, or None."""
        for name in self.drafts.files:
            try:
                if self.open(name).id == pack_id:
                    return name
            except (BoardruleError, RuleError, Refused):
                continue
        return None

    def listing(self) -> list:
        out = []
        for name in self.drafts.files:
            try:
                game = self.open(name)
            except (BoardruleError, RuleError, Refused):
                out.append({"pack": name, "name": name, "ok": False})
                continue
            low, high = game.players_range
            options = [{"name": o.name, "type": o.type, "values": list(o.values), "doc": o.doc,
                        "default": o.default if not isinstance(o.default, bool) else str(o.default).lower()}
                       for o in game.model.options]
            out.append({"pack": name, "name": game.name, "ok": True, "players": [low, high],
                        "grid": game.grid.kind, "default_players": max(low, min(2, high)), "options": options})
        return out


def make_app(pack=None, hosts=("127.0.0.1", "localhost", "[::1]", "::1"), folder=None) -> Starlette:
    drafts = Drafts(pack, folder)
    packs = Packs(drafts)
    rooms = Rooms()

    async def body(request) -> dict:
        raw = await request.body()
        if len(raw) > MAX_BODY:
            raise Refused("the request is too large")
        try:
            data = json.loads(raw or b"{}")
        except ValueError:
            raise Refused("the request is not JSON") from None
        if not isinstance(data, dict):
            raise Refused("the request is not a JSON object")
        return data

    def page(name):
        async def serve_page(request):
            return FileResponse(STATIC / name, media_type="text/html")
        return serve_page

    async def list_packs(request):
        listing = await run_in_threadpool(packs.listing)
        return JSONResponse({"packs": listing, "served": drafts.served, "seat_kinds": list(SEAT_KINDS)})

    def viewer_of(request, room):
        text = request.query_params.get("viewer", "")
        if text == "":
            return room.default_viewer()
        try:
            return int(text)
        except ValueError:
            raise Refused("viewer: a seat number") from None

    async def create(request):
        data = await body(request)
        game = await run_in_threadpool(packs.open, data.get("pack"))
        seed = data.get("seed")
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
            raise Refused("seed: a whole number")
        options = data.get("options") or {}
        if not isinstance(options, dict):
            raise Refused("options: an object of KEY: VALUE")
        room = await run_in_threadpool(new_room, game, data.get("seats"), seed,
                                       {str(k): str(v) for k, v in options.items()})
        rooms.add(room)
        return JSONResponse(room.snapshot(room.default_viewer()))

    async def load(request):
        raw = await request.body()
        if len(raw) > MAX_BODY:
            raise Refused("the file is too large")
        room = await run_in_threadpool(room_from_save, packs.open, raw.decode("utf-8", errors="replace"))
        rooms.add(room)
        return JSONResponse(room.snapshot(room.default_viewer()))

    def game_route(handler, method="POST"):
        async def endpoint(request):
            room = rooms.get(request.path_params["room"])
            data = await body(request) if method == "POST" else {}

            def locked():
                with room.lock:
                    return handler(request, room, data)
            return await run_in_threadpool(locked)
        return endpoint

    def show(request, room, data):
        return JSONResponse(room.snapshot(viewer_of(request, room)))

    def seat_of(data):
        seat = data.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise Refused("seat: a seat number")
        return seat

    def move(request, room, data):
        text = data.get("text")
        if not isinstance(text, str) or not text.strip():
            raise Refused("text: a move as `boardrule play` reads it")
        seat = seat_of(data)
        made = room.move(seat, text)
        return JSONResponse({"made": made, **room.snapshot(seat if room.hotseat else room.default_viewer())})

    def explain(request, room, data):
        seat = seat_of(data)
        text = str(data.get("text", ""))
        return JSONResponse({"reason": room.refusal(seat, text)})

    def bot(request, room, data):
        made = room.bot_step()
        said = {"seat": made[0], "text": made[1]} if made else None
        return JSONResponse({"bot": said, **room.snapshot(viewer_of(request, room))})

    def undo(request, room, data):
        seat = seat_of(data)
        return JSONResponse({"message": room.undo(seat), **room.snapshot(seat)})

    def redo(request, room, data):
        seat = seat_of(data)
        return JSONResponse({"message": room.redo(seat), **room.snapshot(seat)})

    def hint(request, room, data):
        return JSONResponse({"hint": room.hint(seat_of(data))})

    def save(request, room, data):
        text = json.dumps(room.save_data(), indent=1, ensure_ascii=False) + "\n"
        name = f"{room.game.id}.boardrule.json"
        return Response(text, media_type="application/json",
                        headers={"Content-Disposition": f'attachment; filename="{name}"'})

    def replay(request, room, data):
        try:
            index = int(request.query_params.get("index", "0"))
        except ValueError:
            raise Refused("index: a number") from None
        return JSONResponse(room.replay(index))

    async def source(request):
        return JSONResponse(drafts.source(request.query_params.get("pack", "")))

    def draft_route(handler):
        async def endpoint(request):
            data = await body(request)
            name = data.get("pack")
            if not isinstance(name, str):
                raise Refused("pack: a pack's name")
            return JSONResponse(await run_in_threadpool(handler, name, data))
        return endpoint

    def saved(name, data):
        out = drafts.save(name, data.get("text"))
        with packs.lock:
            packs.games.pop(name, None)  # the next game opens the saved file
        return out

    routes = [
        Route("/", page("index.html")),
        Route("/play", page("play.html")),
        Route("/design", page("design.html")),
        Route("/favicon.ico", lambda request: Response(status_code=204)),
        Route("/api/packs", list_packs),
        Route("/api/games", create, methods=["POST"]),
        Route("/api/games/load", load, methods=["POST"]),
        Route("/api/games/{room}", game_route(show, "GET")),
        Route("/api/games/{room}/move", game_route(move), methods=["POST"]),
        Route("/api/games/{room}/explain", game_route(explain), methods=["POST"]),
        Route("/api/games/{room}/bot", game_route(bot), methods=["POST"]),
        Route("/api/games/{room}/undo", game_route(undo), methods=["POST"]),
        Route("/api/games/{room}/redo", game_route(redo), methods=["POST"]),
        Route("/api/games/{room}/hint", game_route(hint), methods=["POST"]),
        Route("/api/games/{room}/save", game_route(save, "GET")),
        Route("/api/games/{room}/replay", game_route(replay, "GET")),
        Route("/api/design/source", source),
        Route("/api/design/check", draft_route(lambda name, data: drafts.check(name, data.get("text"))),
              methods=["POST"]),
        Route("/api/design/save", draft_route(saved), methods=["POST"]),
        Route("/api/design/rules", draft_route(lambda name, data: drafts.rules(name, data.get("text"))),
              methods=["POST"]),
        Route("/api/design/simulate", draft_route(lambda name, data: drafts.simulate(
            name, data.get("text"), data.get("games"), data.get("seats"))), methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]

    async def refused(request, exc):
        return JSONResponse({"error": str(exc)}, status_code=400)

    async def pack_error(request, exc):
        return JSONResponse({"error": exc.diagnostics[0].message if exc.diagnostics else str(exc)},
                            status_code=400)

    async def rule_error(request, exc):
        where = f"{exc.span}: " if exc.span is not None else ""
        return JSONResponse({"error": f"{where}error[E700]: a rule of the pack failed: {exc}"}, status_code=500)

    async def too_deep(request, exc):
        return JSONResponse({"error": "error[E700]: a rule of the pack failed: the rules nest too deeply to "
                                      "evaluate (definitions calling definitions?)"}, status_code=500)

    async def internal(request, exc):  # an engine bug: said plainly, as the command line says it
        return JSONResponse({"error": f"internal error: {type(exc).__name__}: {exc}; this is a bug in boardrule"},
                            status_code=500)

    handlers = {Refused: refused, DraftError: refused, BoardruleError: pack_error, RuleError: rule_error,
                RecursionError: too_deep, Exception: internal}
    middleware = [Middleware(TrustedHostMiddleware, allowed_hosts=list(hosts))] if hosts else []
    app = Starlette(routes=routes, exception_handlers=handlers, middleware=middleware)
    app.state.served = drafts.served  # the name the pages give the pack `serve` was given, or None
    return app
