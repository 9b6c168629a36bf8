"""The set of rooms: creating them, finding them by code, loading them back from the database.

Rooms live in memory while the server runs. A room not in memory is rebuilt from its stored log on
first use; at start-up every playing room is rebuilt at once so its bots and timers resume.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from collections.abc import Mapping
from typing import Any

from partygames.engine.errors import EngineError, InvalidOptions
from partygames.engine.game import Game
from partygames.engine.log import Entry
from partygames.server import storage as db
from partygames.server.codes import Code
from partygames.server.committer import Committer
from partygames.server.errors import ServerError, room_not_found
from partygames.server.frames import dumps
from partygames.server.protocol import CreateRoom
from partygames.server.room_lobby import RoomLobby
from partygames.server.rooms import Room
from partygames.server.seats import SeatInfo, bot_kinds, new_token, token_hash
from partygames.server.settings import Settings
from partygames.server.storage import Storage, StoredRoom, Write
from partygames.server.text import clean_name, escape

log = logging.getLogger(__name__)

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
MAX_RELOADS = 3


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


class Hub:
    def __init__(self, settings: Settings, games: Mapping[str, Game]) -> None:
        self.settings = settings
        self.games = dict(games)
        self.base_url = settings.base_url or "http://127.0.0.1:8000"
        self._storage: Storage | None = None
        self._committer: Committer | None = None
        self.rooms: dict[str, Room] = {}
        self._loading: dict[str, asyncio.Future[Room | None]] = {}
        self._reloads: dict[str, int] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def storage(self) -> Storage:
        assert self._storage is not None, "the hub has not started"
        return self._storage

    @property
    def committer(self) -> Committer:
        assert self._committer is not None, "the hub has not started"
        return self._committer

    async def start(self) -> None:
        self._storage = await asyncio.to_thread(Storage, self.settings.database_url)
        self._committer = Committer(self._storage)
        self._committer.start()
        for code in await asyncio.to_thread(self.storage.codes, "playing"):
            try:
                await self.get(code)
            except ServerError:
                log.warning("room %s could not be resumed", code)

    async def stop(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        for room in list(self.rooms.values()):
            room.stop()
            for conn in list(room.delivery.conns):
                await conn.stop()
        if self._committer is not None:
            await self._committer.stop()
        if self._storage is not None:
            self._storage.close()

    def game(self, game_id: str) -> Game:
        game = self.games.get(game_id)
        if game is None:
            known = ", ".join(self.games)
            raise ServerError(Code.GAME_UNKNOWN, f"No game {game_id[:40]!r} (games: {known}).",
                              f"ゲーム「{game_id[:40]}」はありません(あるゲーム: {known})。", 404)
        return game

    # -- creating --------------------------------------------------------------------------------------
    async def create(self, body: CreateRoom) -> tuple[Room, str, int | None, str | None]:
        """A new room; returns it with the host token and the host's seat and seat token."""
        game = self.game(body.game)
        try:
            # The seat count is the room's: options left out that follow it (a team size) are fitted.
            options = game.options_for(body.seats, body.options)
            allowed = game.match_class.allowed_seat_counts(options)
        except EngineError as error:
            raise ServerError.from_engine(error, 422) from None
        if body.seats not in allowed:
            refusal = InvalidOptions(f"{game.id} takes {', '.join(map(str, allowed))} seats, not {body.seats}.",
                                   f"{game.id} の席数は {', '.join(map(str, allowed))} です({body.seats} は不可)。")
            raise ServerError.from_engine(refusal, 422)
        kinds = body.seat_kinds if body.seat_kinds is not None else ["human"] * body.seats
        if len(kinds) != body.seats:
            raise ServerError(Code.ROOM_SEAT_KINDS, f"seat_kinds needs {body.seats} entries, not {len(kinds)}.",
                              f"seat_kinds は {body.seats} 個必要です({len(kinds)} 個ではなく)。", 422)
        infos = [self._seat_info(game, kind) for kind in kinds]
        humans = [i for i, s in enumerate(infos) if s.kind == "human"]
        host_seat = body.host_seat if "host_seat" in body.model_fields_set else (humans[0] if humans else None)
        if host_seat is not None and host_seat not in humans:
            raise ServerError(Code.SEAT_NOT_HUMAN, f"Seat {host_seat} is not a human seat of this room.",
                              f"席 {host_seat} はこのルームの人間の席ではありません。", 422)
        host_token = new_token()
        seat_token: str | None = None
        if host_seat is not None:
            seat_token = new_token()
            infos[host_seat].name = clean_name(body.name or "Host")
            infos[host_seat].token_hash = token_hash(seat_token)
        code = new_code()
        while code in self.rooms or await asyncio.to_thread(self.storage.exists, code):
            code = new_code()
        room = Room(self, game, options, RoomLobby(code, infos, token_hash(host_token), host_seat), time.time())
        write = Write(inserts=[(db.rooms, {
            "code": code, "game": game.id, "seats": body.seats, "options": dumps(options.to_json()), "status": "open",
            "seed": None, "host_token_hash": room.lobby.host_token_hash, "host_seat": host_seat,
            "created_at": room.created_at, "private": body.private})])
        room.private = body.private
        write.inserts += room.lobby.seat_rows()
        await self.committer.submit(write)
        self.rooms[code] = room
        return room, host_token, host_seat, seat_token

    @staticmethod
    def _seat_info(game: Game, kind: str) -> SeatInfo:
        if kind == "human":
            return SeatInfo("human")
        if kind.startswith("bot:") and kind[4:] in game.bots:
            return SeatInfo("bot", bot=kind[4:])
        raise ServerError(Code.ROOM_SEAT_KINDS, f"A seat is 'human' or one of {', '.join('bot:' + b for b in game.bots)}.",
                          f"席は「human」か {', '.join('bot:' + b for b in game.bots)} のいずれかです。", 422)

    # -- finding and loading -----------------------------------------------------------------------------
    async def get(self, code: str) -> Room:
        code = code.strip().upper()[:12]
        room = self.rooms.get(code)
        if room is not None:
            return room
        loading = self._loading.get(code)
        if loading is None:
            loading = self._loading[code] = asyncio.get_running_loop().create_future()
            try:
                room = await self._load(code)
                loading.set_result(room)
            except Exception as error:
                loading.set_exception(error)
                raise
            finally:
                del self._loading[code]
        else:
            room = await asyncio.shield(loading)
        if room is None:
            raise room_not_found(code)
        return room

    async def _load(self, code: str) -> Room | None:
        await self.committer.drain()  # a dropped room's last writes may still be on their way
        stored = await asyncio.to_thread(self.storage.load, code)
        if stored is None or stored.row["game"] not in self.games:
            return None
        room = self._rebuild(stored)
        self.rooms[code] = room
        if room.status == "playing":
            room.scheduler.poke()
        return room

    def _rebuild(self, stored: StoredRoom) -> Room:
        row = stored.row
        game = self.games[row["game"]]
        options = game.options_class.parse(json.loads(row["options"]))
        infos = [SeatInfo(s["kind"], s["bot"], s["name"], s["token_hash"]) for s in stored.seats]
        room = Room(self, game, options, RoomLobby(row["code"], infos, row["host_token_hash"], row["host_seat"]),
                    row["created_at"])
        room.private = bool(row["private"])
        room.chat_room.log = [{"type": "chat", "channel": c["channel"], "seat": c["seat"], "name": escape(c["name"]),
                          "text": escape(c["text"]), "at": c["at"]} for c in stored.chat]
        if row["status"] == "open":
            return room
        # Seat kinds cannot change once a match has started: the stored seats are those it began with.
        match = game.new(row["seats"], options, json.loads(row["seed"]), bots=bot_kinds(infos))
        logged = [(Entry(e["at"], e["seat"], json.loads(e["action"]) if e["action"] is not None else None), e["source"])
                  for e in stored.log]
        room.begin(match, row["started_at"], len(stored.matches) + 1, stored.seq_offset, logged)
        room.clock.changed_at = time.time()  # bots think again from the reload, as people reconnect
        room.status = row["status"]
        return room

    async def next_match(self, room: Room, game_id: str | None) -> None:
        """The room's next match (see `Room.next_match`): `game_id` None plays the same game again."""
        game = room.game if game_id is None else self.games.get(game_id)
        if game is None or (game_id is not None and game_id not in room.next_games()):
            raise ServerError(Code.GAME_UNKNOWN, f"{str(game_id)[:40]!r} cannot follow {room.game.id} in this room.",
                              f"このルームでは {room.game.id} の次に「{str(game_id)[:40]}」は遊べません。", 422)
        await room.next_match(game)

    def forget(self, room: Room) -> None:
        if self.rooms.get(room.code) is room:
            del self.rooms[room.code]

    def drop(self, room: Room, error: BaseException | None) -> None:
        """Forgets a room whose write failed or whose engine crashed: its clients are told to reconnect,
        and it is rebuilt from the database (at once, up to MAX_RELOADS times; later on first use)."""
        log.error("room %s dropped: %r", room.code, error)
        if self.rooms.get(room.code) is room:
            del self.rooms[room.code]
        self._reloads[room.code] = reloads = self._reloads.get(room.code, 0) + 1
        if room.status == "playing" and reloads <= MAX_RELOADS:
            # Bots and timers resume without waiting for a client; a bug that crashes again every
            # time stops being retried here so that it cannot loop forever.
            task = asyncio.get_running_loop().create_task(self._reload(room.code))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        room.stop()
        room.delivery.outbox.clear()
        failure = ServerError(Code.SERVER_STORAGE, "The server could not store the last action; reconnect.",
                              "サーバーが直前の操作を保存できませんでした。再接続してください。", 503)
        for conn in list(room.delivery.conns):
            conn.send(failure.frame())
            conn.close()

    async def _reload(self, code: str) -> None:
        try:
            await self.get(code)
        except Exception:
            log.exception("room %s could not be reloaded", code)

    async def recent(self) -> list[dict[str, Any]]:
        return await asyncio.to_thread(self.storage.recent)

