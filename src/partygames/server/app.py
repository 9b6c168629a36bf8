"""The FastAPI application: the lobby's HTTP API, the room WebSocket and the static client.

`create_app(settings, games=...)` takes the games to offer (default: the registry), so tests can
serve a test-only game without registering it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Header, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from sqlalchemy.exc import DBAPIError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import HTTPConnection

import partygames
from partygames.engine.errors import EngineError, InvalidOptions
from partygames.engine.game import Game
from partygames.engine.length import whole_minutes
from partygames.engine.options import problem_text
from partygames.engine.text import Text
from partygames.server import groups, ledger, passkeys, profiles, replay, reviews
from partygames.server.address import origin_allowed
from partygames.server.codes import Code
from partygames.server.connections import Connection
from partygames.server.errors import (
    RETRY_AFTER,
    ServerError,
    bad_host_token,
    bad_seat_token,
    storage_unavailable,
)
from partygames.server.hub import Hub
from partygames.server.limits import Quota, spectators_full, too_many_sockets
from partygames.server.metrics import CONTENT_TYPE as METRICS_TYPE
from partygames.server.middleware import BodyLimit, PostRateLimit
from partygames.server.protocol import (
    ActionFrame,
    ChatFrame,
    CreateRoom,
    FillBots,
    JoinRoom,
    NextMatch,
    ParamInt,
    PingFrame,
    PresenceFrame,
    ReviewRequest,
    StandIn,
    SyncFrame,
    load_json,
    parse_frame,
)
from partygames.server.qr import join_qr_svg
from partygames.server.ratelimit import ClientBuckets
from partygames.server.room_match import RoomMatch
from partygames.server.rooms import Room
from partygames.server.settings import Settings
from partygames.server.storage import unavailable
from partygames.server.text import clean_chat, clean_name

log = logging.getLogger(__name__)

PACKAGE_DIR = Path(partygames.__file__).parent
WEB_DIR = PACKAGE_DIR / "web"


def create_app(settings: Settings, games: Mapping[str, Game] | None = None) -> FastAPI:
    if games is None:
        from partygames.games import all_games

        games = {g.id: g for g in all_games()}
    hub = Hub(settings, games)
    sockets = Quota(settings.sockets_per_address, too_many_sockets)  # open WebSockets per client address
    spectators = Quota(settings.spectators_per_room, spectators_full)  # by room code
    unknown_codes = ClientBuckets(settings.unknown_code_rate, settings.unknown_code_burst)  # lookups that miss

    pool: list[reviews.ReviewPool] = []  # started with the hub (it needs the database)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await hub.start()
        pool.append(reviews.ReviewPool(settings, hub.storage, hub.node))
        pool[0].start()
        hub.on_handover.append(pool[0].stop)  # SIGTERM: its jobs go back to the queue at once
        try:
            yield
        finally:
            await pool[0].stop()
            await hub.stop()

    app = FastAPI(title="partygames", version="0.1.0", lifespan=lifespan,
                  description="Lobby, rooms and live play. The WebSocket protocol is in docs/protocol.md.")
    app.state.hub = hub
    profiles.install(app, hub, settings)
    groups.install(app, hub, settings)
    passkeys.install(app, hub, settings)
    # The last added runs first: a client over its rate is refused before its body is read.
    app.add_middleware(BodyLimit, limit=settings.max_body_bytes, max_depth=settings.max_json_depth)
    app.add_middleware(PostRateLimit, rate=settings.http_rate_per_second, burst=settings.http_rate_burst)

    @app.exception_handler(ServerError)
    async def server_error(_request: Request, error: ServerError) -> JSONResponse:
        headers = {"Retry-After": str(RETRY_AFTER)} if error.code == Code.SERVER_STORAGE else None
        return JSONResponse({"error": error.to_json()}, status_code=error.status, headers=headers)

    @app.exception_handler(DBAPIError)
    @app.exception_handler(PoolTimeout)
    async def database_error(request: Request, error: Exception) -> JSONResponse:
        """The database does not answer (down, restarting, refusing connections): 503 `server/storage` at
        once, with a Retry-After, rather than a bare 500."""
        if not unavailable(error):
            raise error
        log.warning("the database does not answer: %s", str(error).splitlines()[0])
        return await server_error(request, storage_unavailable())

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request: Request, error: StarletteHTTPException) -> Response:
        """Starlette's and FastAPI's own refusals (no such path, wrong method, a body it cannot read) in the
        platform's error shape."""
        if error.status_code == 404:
            refusal = ServerError(Code.PATH_NOT_FOUND, "Nothing here.", "ここには何もありません。", 404)
        elif error.status_code == 405:
            refusal = ServerError(Code.PATH_METHOD, "This path does not take that method.",
                                  "このパスはそのメソッドを受け付けません。", 405)
        else:
            refusal = ServerError(Code.MSG_INVALID, "The request could not be read.", "リクエストを読み取れません。",
                                  error.status_code)
        return JSONResponse({"error": refusal.to_json()}, status_code=refusal.status, headers=error.headers)

    @app.exception_handler(RequestValidationError)
    async def invalid_body(_request: Request, error: RequestValidationError) -> JSONResponse:
        problem = problem_text(error.errors()[0], "request") if error.errors() else Text("request", "リクエスト")
        body = {"code": Code.MSG_INVALID, "en": f"Invalid request: {problem.en}"[:200],
                "ja": f"リクエストが不正です: {problem.ja}"[:200]}
        return JSONResponse({"error": body}, status_code=422)

    def room_json(room: Room) -> dict[str, Any]:
        """The room as the API answers it; its share link is the public URL, never the request's Host."""
        return room.to_json(hub.base_url)

    async def find(code: str, client: HTTPConnection) -> Room:
        """The room with that code, for a client address within its budget of codes that do not exist
        (Settings.unknown_code_rate): past it, every lookup by code is refused, one of an existing room too,
        so that a refusal tells a guesser nothing (issue #21, item 9)."""
        address, now = _address(client), time.monotonic()
        if not unknown_codes.has_token(address, now):
            raise ServerError(Code.RATE_ROOM_LOOKUPS, "Too many rooms that do not exist asked for; wait a minute.",
                              "存在しないルームの問い合わせが多すぎます。1分ほど待ってください。", 429)
        try:
            return await hub.get(code)
        except ServerError as error:
            if error.code == Code.ROOM_NOT_FOUND:
                unknown_codes.allow(address, now)  # spends one
            raise

    async def settled(room: Room) -> Room:
        """The room once its pending writes are on disk (HTTP answers never show uncommitted state), and,
        if another process owns it, as the database has it now."""
        await hub.refresh(room)
        # Loop: actions accepted while we waited have newer writes. Once the latest is done, every
        # change is stored (each accepted action submits its write at once) and no await follows.
        while room.delivery.last_write is not None and not room.delivery.last_write.done():
            try:
                await room.delivery.last_write
            except Exception:
                raise ServerError(Code.SERVER_STORAGE, "The room could not be stored.", "ルームを保存できませんでした。",
                                  503) from None
        return room

    def require_host(room: Room, token: str | None) -> None:
        if not room.lobby.is_host(token):
            raise bad_host_token()

    ledger.install(app, hub, find)  # (its ledger route finds rooms by code as every route does)

    # -- HTTP API --------------------------------------------------------------------------------------
    @app.get("/api/games", tags=["lobby"])
    async def list_games() -> list[dict[str, Any]]:
        """Every game with its options schema (defaults included), seat counts and bot kinds."""
        return [g.info() for g in hub.games.values()]

    @app.get("/api/games/{game_id}/seat-counts", tags=["lobby"])
    async def seat_counts(game_id: str, options: str | None = None) -> dict[str, Any]:
        """The seat counts a room of the game may have with these options (`options`: a JSON object,
        defaults fill in, fields that follow the seat count follow it), and for each the match it makes: its
        outline and its estimated length in whole minutes (`Options.estimated_seconds`)."""
        game = hub.game(game_id)
        try:
            data = _options_param(options, settings.max_json_depth)
            parsed = game.options_class.parse(data, strict=True)
        except EngineError as error:
            raise ServerError.from_engine(error, 422) from None
        setups = []
        for seats in game.room_seat_counts(data, strict=True):
            fitted = game.options_for(seats, data, strict=True)
            outline, seconds = fitted.outline(seats), fitted.estimated_seconds(seats)
            setups.append({"seats": seats, "options": fitted.to_json(),
                           "outline": outline.to_json() if outline is not None else None,
                           "minutes": whole_minutes(seconds) if seconds is not None else None})
        return {"game": game.id, "options": parsed.to_json(), "seat_counts": [s["seats"] for s in setups],
                "setups": setups}

    @app.get("/api/rooms", tags=["lobby"])
    async def list_rooms() -> list[dict[str, Any]]:
        """Recent rooms, newest first, with status and seats taken."""
        return await hub.recent()

    @app.post("/api/rooms", tags=["lobby"])
    async def create_room(body: CreateRoom, request: Request) -> dict[str, Any]:
        """Creates a room; the answer holds the host token and, if the host sits, its seat token."""
        group = await groups.room_for(request, hub.storage, body.group)  # checked first: a refusal makes no room
        room, host_token, seat, token = await hub.create(body)
        await profiles.seat_taken(request, hub.storage, room.code, seat, room.lobby.seats[seat].name if seat is not None else None)
        if group is not None:
            await asyncio.to_thread(groups.tie_room, hub.storage, room.code, group)
        data = room_json(room)
        return {"code": room.code, "link": data["link"], "host_token": host_token, "seat": seat, "token": token,
                "room": data}

    @app.get("/api/rooms/{code}", tags=["lobby"])
    async def get_room(code: str, request: Request) -> dict[str, Any]:
        return room_json(await settled(await find(code, request)))

    @app.get("/api/rooms/{code}/qr.svg", tags=["lobby"])
    async def room_qr(code: str, request: Request) -> Response:
        """The QR code of the room's join link (an SVG), for the big screen: phones scan it to join."""
        room = await find(code, request)
        return Response(join_qr_svg(room.link(hub.base_url)), media_type="image/svg+xml",
                        headers={"Cache-Control": "max-age=3600"})

    @app.post("/api/rooms/{code}/join", tags=["lobby"])
    async def join_room(code: str, body: JoinRoom, request: Request) -> dict[str, Any]:
        """Takes a free human seat (the first one if `seat` is omitted); returns its seat token."""
        room = await find(code, request)
        seat, token = await room.join(clean_name(body.name), body.seat)
        await profiles.seat_taken(request, hub.storage, room.code, seat, room.lobby.seats[seat].name)
        return {"seat": seat, "token": token, "room": room_json(room)}

    @app.post("/api/rooms/{code}/fill-bots", tags=["lobby"])
    async def fill_bots(code: str, body: FillBots, request: Request,
                        x_host_token: Annotated[str | None, Header()] = None) -> dict[str, Any]:
        room = await find(code, request)
        require_host(room, x_host_token)
        kind = body.kind or ("heuristic" if "heuristic" in room.game.bots else "random")
        await room.fill_bots(kind)
        return room_json(room)

    @app.post("/api/rooms/{code}/start", tags=["lobby"])
    async def start_room(code: str, request: Request,
                         x_host_token: Annotated[str | None, Header()] = None) -> dict[str, Any]:
        room = await find(code, request)
        require_host(room, x_host_token)
        await room.start()
        return room_json(await settled(room))

    @app.post("/api/rooms/{code}/next", tags=["lobby"])
    async def next_match(code: str, body: NextMatch, request: Request,
                         x_host_token: Annotated[str | None, Header()] = None) -> dict[str, Any]:
        """Once the match is over: the same people play again (`game` omitted: the same game and options,
        a new seed), or play a game that follows this one (a series: its options come from this result)."""
        room = await find(code, request)
        require_host(room, x_host_token)
        # A night room's next stage plays with the stage's options (server/ledger.py).
        await hub.next_match(room, body.game, await ledger.next_options(hub, room, body.game))
        return room_json(await settled(room))

    @app.post("/api/rooms/{code}/seats/{seat}/standin", tags=["lobby"])
    async def stand_in(code: str, seat: ParamInt, body: StandIn, request: Request,
                       x_host_token: Annotated[str | None, Header()] = None) -> dict[str, Any]:
        """The host hands a leaver's seat to a bot of `kind` (once its person has run out of time or been away
        the room's `standin_after` seconds), or gives it back (`kind` null). The person's return gives it back
        too, from their next turn."""
        room = await find(code, request)
        require_host(room, x_host_token)
        await hub.refresh(room)  # (who is here: the database's word)
        await room.stand_in(seat, body.kind)
        return room_json(await settled(room))

    @app.get("/api/rooms/{code}/replay", tags=["replays"])
    async def get_replay(code: str, request: Request, seat: ParamInt | None = None, match: ParamInt | None = None,
                         x_seat_token: Annotated[str | None, Header()] = None,
                         x_host_token: Annotated[str | None, Header()] = None) -> dict[str, Any]:
        """Every step of a finished match with one seat's view (omit `seat` for the public view): the room's
        latest, or its `match`-th (1, 2, ...: an earlier match of the evening). A seat's view holds what only
        that seat learnt (a card never shown, its secret ballot), so it is that seat's (its token or tied
        profile) and the host's, as its review is; the public view is anyone's."""
        room, earlier = await finished_match(code, request, match)
        if seat is not None:
            if not 0 <= seat < room.seats:
                raise ServerError(Code.SEAT_NO_SUCH_SEAT, f"No seat {seat}.", f"席 {seat} はありません。", 422)
            if not await may_see_seat(room, seat, request, x_seat_token, x_host_token):
                raise ServerError(Code.REPLAY_FORBIDDEN, f"Only seat {seat}'s player (its token or profile) or the "
                                  "host may replay the match as that seat saw it; anyone may see the public view.",
                                  f"席 {seat} から見たリプレイは、その席の人(席トークンかプロフィール)とホストだけが"
                                  "見られます。公開の視点は誰でも見られます。", 403)
        if earlier is None:
            return replay.steps(room, seat)
        return await asyncio.to_thread(lambda: replay.steps(room, seat, earlier.build()))

    @app.get("/api/rooms/{code}/matches", tags=["replays"])
    async def get_matches(code: str, request: Request) -> dict[str, Any]:
        """The room's matches of the evening, in order: each one's number, game and result (null: the one
        being played), for a replay to pick one."""
        room = await settled(await find(code, request))
        stored = await asyncio.to_thread(hub.storage.earlier_matches, room.code)
        out = [{"number": m["number"], "game": m["game"], "started_at": m["started_at"],
                "result": json.loads(m["result"]) if m["result"] else None} for m in stored]
        current = room.current
        if current is not None:
            result = current.match.result() if room.status == "over" else None
            out.append({"number": current.number, "game": current.game.id, "started_at": current.clock.started_at,
                        "result": result.to_json() if result is not None else None})
        return {"code": room.code, "matches": out}

    @app.get("/api/rooms/{code}/log", tags=["replays"])
    async def get_log(code: str, request: Request, match: ParamInt | None = None,
                      x_host_token: Annotated[str | None, Header()] = None) -> dict[str, Any]:
        """The match log once the match is over (the room's latest, or its `match`-th): seed, every entry
        with its time, final state. Only the host gets every action as played; others get what a spectator
        may know of each."""
        room, earlier = await finished_match(code, request, match)
        raw = room.lobby.is_host(x_host_token)
        if earlier is None:
            return replay.match_log(room, raw=raw)
        return await asyncio.to_thread(lambda: replay.match_log(room, raw, earlier.build()))

    async def finished_match(code: str, request: Request, number: int | None) -> tuple[Room, replay.Stored | None]:
        """The room (settled) and its `number`-th match as stored if that is an earlier one (None: its current
        match, which must be over; replays and logs open when the match is over)."""
        room = await settled(await find(code, request))
        earlier = await earlier_match(room, number)
        if earlier is None and room.status != "over":
            raise ServerError(Code.ROOM_NOT_OVER, "Replays open when the match is over.",
                              "リプレイはマッチ終了後に見られます。", 409)
        return room, earlier

    async def earlier_match(room: Room, number: int | None) -> replay.Stored | None:
        """The room's `number`-th match as stored, if it is an earlier one than its current match (None: the
        current one is meant, `number` None or its own). Refused for a number the room has not played."""
        current = room.current
        if number is None or (current is not None and number == current.number):
            return None
        stored = None
        if current is not None and 0 < number < current.number:
            stored = await asyncio.to_thread(hub.storage.earlier_match, room.code, number)
        if stored is None:
            raise ServerError(Code.REPLAY_NO_MATCH, f"Room {room.code} has no finished match {number}.",
                              f"ルーム {room.code} に終わった第{number}戦はありません。", 404)
        return replay.Stored(room, *stored)

    @app.post("/api/rooms/{code}/review", tags=["replays"])
    async def ask_review(code: str, body: ReviewRequest, request: Request,
                         x_seat_token: Annotated[str | None, Header()] = None,
                         x_host_token: Annotated[str | None, Header()] = None) -> dict[str, Any]:
        """Starts the review of a seat's decisions in the room's finished match (the seat's token or tied
        profile, or the host), or answers the one asked for before: its job, status, progress and result."""
        # Asked with a profile's cookie, it costs the server a review: only from this server's own pages.
        profiles.require_same_site(request, hub.base_url, settings.allowed_origins, "ask for a review",
                                   "検討を依頼")
        room, key, earlier = await review_key(code, body.seat, body.match, request, x_seat_token, x_host_token)
        if settings.review_workers <= 0:
            found = await asyncio.to_thread(reviews.find, hub.storage, key)
            if found is None:
                raise reviews.disabled()
            return reviews.answer(found)
        if earlier is None:
            game_id, log = room.game.id, review_log(room)
        else:
            game_id, log = earlier.row["game"], await asyncio.to_thread(lambda: review_log(room, earlier.build()))
        row, new = await asyncio.to_thread(reviews.request, hub.storage, key, game_id, log)
        if new:
            pool[0].wake()
        return reviews.answer(row)

    @app.get("/api/rooms/{code}/review", tags=["replays"])
    async def get_review(code: str, seat: ParamInt, request: Request, match: ParamInt | None = None,
                         x_seat_token: Annotated[str | None, Header()] = None,
                         x_host_token: Annotated[str | None, Header()] = None) -> dict[str, Any]:
        """The review of a seat asked for before (`review/none` if never): as `POST` answers it."""
        _room, key, _earlier = await review_key(code, seat, match, request, x_seat_token, x_host_token)
        found = await asyncio.to_thread(reviews.find, hub.storage, key)
        if found is None:
            raise ServerError(Code.REVIEW_NONE, f"No review of seat {seat} was asked for yet.",
                              f"席 {seat} の検討はまだ依頼されていません。", 404)
        return reviews.answer(found)

    async def review_key(code: str, seat: int, match: int | None, request: Request, seat_token: str | None,
                         host_token: str | None) -> tuple[Room, reviews.Key, replay.Stored | None]:
        """The room, the stored key of a review of `seat` in the room's latest match or its `match`-th, and
        that match if it is an earlier one, once the asker may see the seat and the match is over."""
        room = await settled(await find(code, request))
        if not 0 <= seat < room.seats:
            raise ServerError(Code.SEAT_NO_SUCH_SEAT, f"No seat {seat}.", f"席 {seat} はありません。", 422)
        if not await may_see_seat(room, seat, request, seat_token, host_token):
            raise ServerError(Code.REVIEW_FORBIDDEN, f"Only seat {seat}'s player (its token or profile) or the host "
                              "may review that seat.",
                              f"席 {seat} を検討できるのは、その席の人(席トークンかプロフィール)とホストだけです。", 403)
        earlier = await earlier_match(room, match)
        if earlier is not None:
            return room, reviews.Key(room.code, earlier.number, seat, settings.review_simulations), earlier
        if room.status != "over" or room.current is None:
            raise ServerError(Code.REVIEW_RUNNING, "The match is not finished: only a finished match is reviewed "
                              "(no live help).", "対戦はまだ終わっていません。検討できるのは終わった対戦だけです"
                              "(対戦中の助言はしません)。", 409)
        return room, reviews.Key(room.code, room.current.number, seat, settings.review_simulations), None

    async def may_see_seat(room: Room, seat: int, request: Request, seat_token: str | None,
                           host_token: str | None) -> bool:
        """Who may see a finished match as `seat` saw it (its replay, its review): the host every seat; a
        seat's token or the profile tied to it, that seat."""
        if room.lobby.is_host(host_token) or (seat_token and room.lobby.seat_for_token(seat_token) == seat):
            return True
        secret = request.cookies.get(profiles.COOKIE)
        if not secret:
            return False
        return await asyncio.to_thread(profiles.owns_seat, hub.storage, secret, room.code, seat)

    def review_log(room: Room, played: RoomMatch | None = None) -> str:
        """The room's finished match (or `played`, an earlier one) as the `MatchLog` JSON a review reads (the
        host's log: seed and all)."""
        data = replay.match_log(room, raw=True, played=played)
        return json.dumps({k: v for k, v in data.items() if k not in ("standins", "redacted")})

    @app.get("/healthz", tags=["server"])
    async def healthz() -> dict[str, Any]:
        """The process is alive (its event loop answers)."""
        return {"ok": True, "node": hub.node}

    @app.get("/readyz", tags=["server"])
    async def readyz() -> Response:
        """The process takes rooms: its database answers, and it is not handing its rooms over (503 else)."""
        try:
            await asyncio.wait_for(asyncio.to_thread(hub.storage.clock), 2)
            ready = hub.accepting
        except Exception:
            ready = False
        return JSONResponse({"ready": ready, "node": hub.node}, status_code=200 if ready else 503)

    @app.get("/metrics", tags=["server"])
    async def metrics() -> Response:
        """Prometheus metrics: rooms owned and followed, sockets, steps, commit latency, takeovers, relay lag."""
        hub.metrics.rooms(hub)
        return Response(hub.metrics.render(), media_type=METRICS_TYPE)

    @app.get("/api/stats", tags=["server"])
    async def stats() -> dict[str, Any]:
        """Rooms in memory, connections and commit batching figures."""
        committer = hub.committer
        return {"rooms": len(hub.rooms), "connections": sum(len(r.delivery.conns) for r in hub.rooms.values()),
                "commit_batches": committer.batches, "committed_writes": committer.writes}

    # -- WebSocket -------------------------------------------------------------------------------------
    @app.websocket("/ws/{code}")
    async def room_socket(websocket: WebSocket, code: str) -> None:
        # A client that leaves while it is being welcomed or refused is owed nothing (and no traceback).
        with contextlib.suppress(WebSocketDisconnect):
            if origin_allowed(websocket.headers.get("origin"), websocket.headers.get("host"), hub.base_url,
                              settings.allowed_origins):
                await serve_socket(websocket, code)
            else:
                # A page on another site may not play in a visitor's name: refused before the handshake.
                refusal = ServerError(Code.ORIGIN_REFUSED, "A page on another site may not open this server's socket.",
                                      "他のサイトのページからはこのサーバーに接続できません。", 403)
                await websocket.send_denial_response(JSONResponse({"error": refusal.to_json()}, status_code=403))

    async def serve_socket(websocket: WebSocket, code: str) -> None:
        """Welcomes a client into the room (or refuses it with an `error` frame and a close code), then
        serves it until it leaves."""
        await websocket.accept()
        try:
            with sockets.hold(_address(websocket)):
                room = await find(code, websocket)
                token = websocket.query_params.get("token")
                seat = room.lobby.seat_for_token(token) if token else None
                if token and seat is None:  # a seat taken through another process a moment ago: read again
                    await hub.refresh(room)
                    seat = room.lobby.seat_for_token(token)
                if token and seat is None:
                    raise bad_seat_token()
                with spectators.hold(room.code) if seat is None else contextlib.nullcontext():
                    await serve_client(websocket, room, seat)
        except ServerError as error:
            await websocket.send_json(error.frame())
            await websocket.close(_CLOSE_CODES.get(error.code, 1008))
        except (DBAPIError, PoolTimeout) as error:
            if not unavailable(error):
                raise
            log.warning("the database does not answer: %s", str(error).splitlines()[0])
            await websocket.send_json(storage_unavailable().frame())
            await websocket.close(1013)  # try again later

    async def serve_client(websocket: WebSocket, room: Room, seat: int | None) -> None:
        name = (room.lobby.seats[seat].name or f"seat {seat}") if seat is not None else _spectator_name(
            websocket.query_params.get("name"))
        conn = Connection(websocket, seat, name, settings)
        conn.start()
        await room.attach(conn, _int_param(websocket.query_params.get("since")))
        try:
            await _serve(room, conn, websocket, settings)
        finally:
            await room.detach(conn)
            await conn.stop()

    # -- static client -----------------------------------------------------------------------------------
    @app.get("/", include_in_schema=False)
    async def index() -> Response:
        return _index()

    @app.get("/me", include_in_schema=False)
    @app.get("/me/claim", include_in_schema=False)
    async def profile_page() -> Response:
        return _index()

    @app.get("/leaderboard/{game_id}", include_in_schema=False)
    async def leaderboard_page(game_id: str) -> Response:
        return _index()

    @app.get("/g/{group_id}", include_in_schema=False)
    @app.get("/g/{group_id}/join", include_in_schema=False)
    async def group_page(group_id: str) -> Response:
        return _index()

    @app.get("/room/{code}", include_in_schema=False)
    async def room_page(code: str) -> Response:
        return _index()

    @app.get("/games/{game_id}/{name}", include_in_schema=False)
    async def game_file(game_id: str, name: str) -> Response:
        game = hub.games.get(game_id)
        directory = game.web.resolve() if game is not None and game.web is not None else None
        # A NUL byte is no file name (the OS refuses it with a ValueError, which would answer 500).
        path = (directory / name).resolve() if directory is not None and "\x00" not in name else None
        if path is None or path.parent != directory or not path.is_file():
            return JSONResponse({"error": {"code": Code.FILE_NOT_FOUND, "en": "No such file.", "ja": "ファイルがありません。"}},
                                status_code=404)
        return FileResponse(path, media_type="text/javascript" if path.suffix == ".js" else None)

    app.mount("/static", StaticFiles(directory=WEB_DIR, check_dir=False), name="static")
    return app


async def _serve(room: Room, conn: Connection, websocket: WebSocket, settings: Settings) -> None:
    """Reads frames until the client leaves; each is checked, then handed to the room."""
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect" or conn.closed:
            return
        raw = message.get("text")
        if raw is None:
            raw = message.get("bytes") or b""
        if not conn.frames.allow(time.monotonic()):
            conn.refusals += 1
            conn.send(ServerError(Code.RATE_LIMITED, "Too many messages; slow down.",
                                  "メッセージが多すぎます。少し待ってください。", 429).frame())
            if conn.refusals >= settings.max_rate_refusals:
                await websocket.close(1008)
                return
            continue
        ref: Any = None
        try:
            frame = parse_frame(raw, settings.max_frame_bytes, settings.max_json_depth)
            if isinstance(frame, ActionFrame):
                ref = frame.id
                await room.act(conn, frame.action, frame.id, frame.seat)
            elif isinstance(frame, SyncFrame):
                await room.sync(conn, frame.since)
            elif isinstance(frame, ChatFrame):
                if not conn.chat.allow(time.monotonic()):
                    raise ServerError(Code.CHAT_RATE_LIMITED, "Too many chat messages; wait a little.",
                                      "チャットが多すぎます。少し待ってください。", 429)
                await room.chat(conn, frame.channel, clean_chat(frame.text, settings.chat_max_chars))
            elif isinstance(frame, PingFrame):
                conn.send({"type": "pong", "at": time.time()})
            elif isinstance(frame, PresenceFrame):
                await room.turn(conn, frame.away)
        except ServerError as error:
            conn.send(error.frame(ref))


def _options_param(value: str | None, max_depth: int) -> Any:
    """The `options` query parameter decoded (None: the defaults); malformed JSON is invalid options, other
    refusals of `load_json` keep their code (`msg/too_deep`, `msg/invalid_text`, ...)."""
    if value is None or not value.strip():
        return None
    try:
        return load_json(value, max_depth)
    except ServerError as error:
        if error.code == Code.MSG_MALFORMED_JSON:
            raise InvalidOptions("The options are not valid JSON.", "オプションが正しい JSON ではありません。") from None
        raise


# How a refused WebSocket is closed (after its `error` frame): 4404 and 4401 tell a client not to come
# back; 1013 (try again later) that it may.
_CLOSE_CODES = {Code.ROOM_NOT_FOUND: 4404, Code.SEAT_BAD_TOKEN: 4401, Code.RATE_SOCKETS: 1013,
                Code.ROOM_SPECTATORS_FULL: 1013, Code.RATE_ROOM_LOOKUPS: 1013}


def _address(connection: HTTPConnection) -> str:
    """The client's address (behind a trusted proxy, the one uvicorn takes from X-Forwarded-For: address.py)."""
    return connection.client.host if connection.client is not None else "?"


def _spectator_name(value: str | None) -> str:
    try:
        return clean_name(value) if value else "spectator"
    except ServerError:
        return "spectator"


def _int_param(value: str | None) -> int | None:
    """A whole number in a query parameter (None: absent or not one). ASCII digits only: `isdigit` also
    takes "²" and "①", which `int` refuses, and `int` takes "١٢" and "1_0" (issue #31, item 9)."""
    if value is None or not value.isascii() or not value.isdigit() or len(value) > 15:
        return None
    return int(value)


def _index() -> Response:
    page = WEB_DIR / "index.html"
    if page.is_file():
        return FileResponse(page, media_type="text/html")
    return HTMLResponse("<!doctype html><title>partygames</title><p>The web client is not installed.</p>")

