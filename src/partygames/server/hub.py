"""The rooms this process holds, and its part among the processes that serve one database.

A room not in memory is loaded from its stored log on first use. Among many processes on one PostgreSQL
(docs/scaling.md), a playing room has one owner: the process that started its match, or that took it over
when the owner's lease ran out (`claim`, under a new fencing epoch); every other process that needs the
room follows it (`Room.follow`, driven by the owner's notices) and forwards its connections' actions to the
owner (`forward`). The hub renews its leases, takes over rooms nobody holds (`_sweep`), stores who is
connected here (`_store_presence`), closes rooms nobody came back to, and on a graceful stop hands every
room over at once (`stop`). SQLite is for one process alone, which owns every room (`dblock`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from functools import partial
from pathlib import Path
from typing import IO, Any, NamedTuple, TypeVar

from partygames.engine.actions import Action
from partygames.engine.errors import EngineError, InvalidOptions
from partygames.engine.game import Game
from partygames.engine.text import Text
from partygames.server import ratings
from partygames.server import storage as db
from partygames.server.bus import RELEASED, Bus, PostgresBus, node_channel, room_channel
from partygames.server.codes import Code
from partygames.server.committer import Committer
from partygames.server.connections import Connection
from partygames.server.dblock import lock_sqlite
from partygames.server.errors import ServerError, room_not_found
from partygames.server.frames import dumps
from partygames.server.metrics import Metrics
from partygames.server.presence import Count
from partygames.server.protocol import CreateRoom
from partygames.server.room_lobby import RoomLobby
from partygames.server.rooms import Room, moved
from partygames.server.seats import SeatInfo, new_token, token_hash
from partygames.server.settings import Settings
from partygames.server.storage import Changed, Fenced, Storage, StoredRoom, Write, unavailable
from partygames.server.text import clean_name

log = logging.getLogger(__name__)

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
MAX_RELOADS = 3
RATE_BATCH = 50  # queued matches the catch-up rates in one go on the commit thread
RATE_GRACE = 5.0  # seconds: the sweep leaves a match that ended this recently to its owner's hook
T = TypeVar("T")


class Lobbied(NamedTuple):
    """A room's lobby as stored after a lobby change, its status, and the epoch under which this process
    owns it now (None: it did not claim it)."""

    lobby: RoomLobby
    status: str
    epoch: int | None


def warn(what: str, error: BaseException) -> None:
    """Logs a failure of the hub's own work: in one line when the database does not answer (an outage
    repeats it every round), with its traceback otherwise."""
    if unavailable(error):
        log.warning("%s: the database does not answer (%s)", what, str(error).splitlines()[0])
    else:
        log.warning("%s", what, exc_info=error)


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def node_identity(directory: str | None) -> tuple[str, IO[str] | None]:
    """This process's id among those serving the database (a channel name's part: lower case) and the file
    that holds it. The id is kept in the data folder, in the first of its slots no live process holds
    (`flock`: the kernel lets go of a dead process's), so that a process restarted after a crash is the
    same node and takes its rooms back at once, without waiting for their leases to run out: the lock it got
    proves the process that held them is gone. Without a folder (or a slot), a new random id."""
    if directory is None:
        return secrets.token_hex(6), None
    try:
        import fcntl
    except ImportError:  # Windows: a new id each start
        return secrets.token_hex(6), None
    folder = Path(directory)
    folder.mkdir(parents=True, exist_ok=True)
    for slot in range(64):
        handle = open(folder / f"node-{slot}.id", "a+")  # noqa: SIM115 - held open while serving
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
            continue
        handle.seek(0)
        node = handle.read().strip()
        if not (len(node) == 12 and node.isalnum() and node.islower()):
            node = secrets.token_hex(6)
            handle.seek(0)
            handle.truncate()
            handle.write(node)
            handle.flush()
        return node, handle
    return secrets.token_hex(6), None


class Hub:
    def __init__(self, settings: Settings, games: Mapping[str, Game]) -> None:
        self.settings = settings
        self.games = dict(games)
        self.base_url = settings.base_url or "http://127.0.0.1:8000"
        self.node, self._node_file = node_identity(settings.data_dir)
        self.metrics = Metrics()
        self.accepting = False  # serving rooms (`/readyz`): from start until the handover at the end
        self._storage: Storage | None = None
        self._committer: Committer | None = None
        self._lock: IO[bytes] | None = None
        self.bus: Bus = Bus()
        self.rooms: dict[str, Room] = {}
        self._loading: dict[str, asyncio.Future[Room | None]] = {}
        self._reloads: dict[str, int] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._following: set[str] = set()  # rooms whose catch-up is under way
        self._again: set[str] = set()  # rooms noticed again during their catch-up
        self._acks: dict[str, list[tuple[int, list[list[Any]]]]] = {}  # acks awaiting their entries
        self._frames: dict[str, list[tuple[int, str, dict[str, Any]]]] = {}  # frames awaiting a version
        self._present: set[str] = set()  # rooms whose presence changed here since it was last stored
        self._attended: set[str] = set()  # rooms people are at here, noted since last stored (`_keep_leases`)
        # Per room, the actions forwarded to its owner and not yet answered (acknowledged or refused): if the
        # room changes hands meanwhile, their senders are told to send them again (`_unanswered`).
        self._forwarded: dict[str, list[tuple[Connection, Any]]] = {}
        self._idle: dict[str, float] = {}  # followed rooms nobody here watches, since when
        self._claims: dict[str, tuple[asyncio.Lock, int]] = {}  # per room: one claim at a time (`_claiming`)
        # Other work of the process handed over with the rooms (the review pool gives its jobs back).
        self.on_handover: list[Callable[[], Awaitable[None]]] = []

    @property
    def storage(self) -> Storage:
        assert self._storage is not None, "the hub has not started"
        return self._storage

    @property
    def committer(self) -> Committer:
        assert self._committer is not None, "the hub has not started"
        return self._committer

    @property
    def alone(self) -> bool:
        """Whether this process serves its database alone (SQLite): it owns every room."""
        return self.storage.is_sqlite

    # -- starting and stopping -------------------------------------------------------------------------
    async def start(self) -> None:
        """Opens the database and starts serving (once: `serve` starts the hub before the app's lifespan
        would)."""
        if self._committer is not None:
            return
        if self.settings.database_url.startswith("sqlite"):
            self._lock = lock_sqlite(self.settings.database_url)  # raises DatabaseInUse
        self._storage = await asyncio.to_thread(Storage, self.settings.database_url)
        self._committer = Committer(self._storage, self.node, self.settings.lease_seconds, self.metrics.committed)
        self._committer.start()
        await self.committer.run(partial(self.storage.renew, self.node, {}, self.settings.lease_seconds))
        if not self.alone:
            dsn = self.settings.database_url.replace("postgresql+psycopg://", "postgresql://", 1)
            self.bus = PostgresBus(dsn, on_reconnect=self._resync)
            await self.bus.start()
            await self.bus.listen(node_channel(self.node), self._node_notice)
            await self.bus.listen(RELEASED, self._released)
        self.accepting = True
        # Alone, every playing room is this process's; else those it owned before a crash (the same node:
        # `node_identity`). Their bots and timers resume at once.
        resumed = await asyncio.to_thread(self.storage.codes, "playing") if self.alone else \
            await asyncio.to_thread(self.storage.owned_by, self.node)
        for code in resumed:
            try:
                await (self.get(code) if self.alone else self._take(code))
            except ServerError:
                log.warning("room %s could not be resumed", code)
        for loop in (self._keep_leases, self._sweep, self._store_presence):
            self._spawn(loop())
        self._spawn(self._catch_up_ratings())  # the matches a process died before rating (in the background)

    async def handover(self) -> None:
        """Hands every room over (a graceful stop: SIGTERM, as an orchestrator's rolling upgrade sends): no
        bot or time limit acts here any more, what was submitted is stored, and the rooms are released at
        once for another process to take (each told). Runs before the connections are closed (`stop`)."""
        if not self.accepting:
            return
        self.accepting = False
        for hand_over in self.on_handover:
            with contextlib.suppress(Exception):
                await hand_over()
        for task in list(self._tasks):
            task.cancel()
        for room in list(self.rooms.values()):
            room.stop()
        if self._committer is not None:
            await self._committer.drain()
            with contextlib.suppress(Exception):
                released = await self._committer.run(partial(self.storage.release, self.node, RELEASED))
                log.info("handed over %d rooms", len(released))

    async def stop(self) -> None:
        """Stops serving: the rooms handed over (`handover`), then every connection closed so that its client
        reconnects, to whichever process serves it then."""
        await self.handover()
        for room in list(self.rooms.values()):
            for conn in list(room.delivery.conns):
                conn.close(1012)  # "service restart": the client comes back, to another process
        for room in list(self.rooms.values()):
            for conn in list(room.delivery.conns):
                await conn.stop()
        await self.bus.stop()
        if self._committer is not None:
            await self._committer.stop()
        if self._storage is not None:
            self._storage.close()
        if self._lock is not None:
            self._lock.close()
        if self._node_file is not None:
            self._node_file.close()

    def _spawn(self, work: Any) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._finished)
        return task

    def _finished(self, task: asyncio.Task[Any]) -> None:
        """A spawned task ended: a failure is logged as this process's (not as asyncio's "Task exception was
        never retrieved", which names no room and bypasses the log's format)."""
        self._tasks.discard(task)
        if not task.cancelled() and (error := task.exception()) is not None:
            log.error("%s failed: %r", getattr(task.get_coro(), "__qualname__", task.get_name()), error, exc_info=error)

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
            options = game.options_for(body.seats, body.options, strict=True)  # JSON from a client: checked
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
        room.private = body.private
        room.auto_standin = not body.private if body.auto_standin is None else body.auto_standin
        room.standin_after = float(body.standin_after)
        write = Write(inserts=[(db.rooms, {
            "code": code, "game": game.id, "seats": body.seats, "options": dumps(options.to_json()), "status": "open",
            "seed": None, "host_token_hash": room.lobby.host_token_hash, "host_seat": host_seat,
            "created_at": room.created_at, "private": body.private, "human_seen_at": room.created_at,
            "auto_standin": room.auto_standin, "standin_after": room.standin_after})])
        write.inserts += room.lobby.seat_rows()
        await self.bus.listen(room_channel(code), partial(self._room_notice, code))
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
        """The room as stored, owned here if it plays and nobody holds it (claimed), else followed."""
        await self.committer.drain()  # a dropped room's last writes may still be on their way
        # Listening before reading: no entry stored after the read goes unannounced.
        await self.bus.listen(room_channel(code), partial(self._room_notice, code))
        stored = await asyncio.to_thread(self.storage.load, code)
        if stored is None or stored.row["game"] not in self.games:
            await self.bus.unlisten(room_channel(code))
            return None
        async with self._claiming(code):
            epoch = await self._claim(code) if stored.row["status"] == "playing" else None
            if epoch is not None:
                stored = await asyncio.to_thread(self.storage.load, code)  # what was stored before the claim
            if stored is None:
                return None
            room = self._build(stored)
            room.load(stored, epoch)
            await self._read_presence(room)
            self.rooms[code] = room
        if room.is_running:
            room.scheduler.poke()
        return room

    def _build(self, stored: StoredRoom) -> Room:
        row = stored.row
        game = self.games[row["game"]]
        options = game.options_class.parse(json.loads(row["options"]))
        infos = [SeatInfo.from_row(s) for s in stored.seats]
        return Room(self, game, options, RoomLobby(row["code"], infos, row["host_token_hash"], row["host_seat"]),
                    row["created_at"])

    @contextlib.asynccontextmanager
    async def _claiming(self, code: str) -> AsyncIterator[None]:
        """Holds the lock under which this process claims room `code` and takes the new epoch into memory:
        paths that cross (a stopping process's release notice, the sweep, a forwarded action, a client
        loading the room) each find the room claimed already, rather than claiming it again under the next
        epoch and fencing the writes of the first (issue #31)."""
        lock, users = self._claims.get(code, (asyncio.Lock(), 0))
        self._claims[code] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._claims[code]
            if users == 1:
                del self._claims[code]
            else:
                self._claims[code] = (lock, users - 1)

    async def _claim(self, code: str) -> int | None:
        """Claims room `code` for this process under a new epoch, if nobody holds it (the caller holds
        `_claiming(code)` and has checked that this process does not hold it already). A process handing
        its rooms over claims none."""
        if not self.accepting:
            return None
        epoch = await self.committer.run(partial(self.storage.claim, code, self.node, self.settings.lease_seconds,
                                                 self.alone))
        if epoch is not None:
            self.metrics.takeovers.inc()
            log.info("room %s: taken over under epoch %d", code, epoch, extra={"room": code, "epoch": epoch})
        return epoch

    async def _take(self, code: str) -> None:
        """Claims room `code` (nobody holds it) and plays it here: the room in memory is rebuilt as its owner,
        its connections kept; one not in memory is loaded (and claimed, once, however many ask)."""
        room = self.rooms.get(code)
        if room is None:
            with contextlib.suppress(ServerError):  # (gone meanwhile, or of a game this process does not serve)
                await self.get(code)
            return
        async with self._claiming(code):
            if self.rooms.get(code) is not room or room.owned:
                return  # taken meanwhile (by this process), or dropped
            epoch = await self._claim(code)
            if epoch is None:
                return
            stored = await asyncio.to_thread(self.storage.load, code)
            if stored is None:
                return
            async with room.lock:
                room.load(stored, epoch)
                room.delivery.stepped()
                room.delivery.prepare()
                room.scheduler.poke()
        self._unanswered(code)

    async def refresh(self, room: Room) -> None:
        """Brings a room this process follows up to the database (a lobby answer reads the database, never
        this process's memory alone)."""
        if self.alone or room.owned:
            return
        await self._reload(room.code)
        await self._follow(room.code)

    # -- ratings -------------------------------------------------------------------------------------------
    def rate_when_stored(self, stored: asyncio.Future[None], code: str, number: int) -> asyncio.Future[None]:
        """Rates room `code`'s match `number` once `stored`, the write that ended it (and queued it for rating),
        has committed: on the commit thread (one writer at a time; a few milliseconds). Returns a future that
        resolves once it is rated, or failed to be (the catch-up rates it then), with `stored`'s failure if the
        write failed: the room's frames that show the end wait for it, so that its players' profile and
        leaderboard pages show the new ratings as soon as they see the end."""
        rated: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        rated.add_done_callback(lambda f: f.cancelled() or f.exception())  # (a failure is the room's to handle)

        async def rate() -> None:
            try:
                await asyncio.wait([stored])
                if (failure := stored.exception()) is not None:
                    rated.set_exception(failure)
                    return
                await self.committer.run(partial(ratings.rate_ended, self.storage, code, number, self.games))
            except Exception as error:
                warn(f"room {code}: match {number} could not be rated now (the catch-up will)", error)
            finally:
                if not rated.done():
                    rated.set_result(None)

        self._spawn(rate())
        return rated

    async def _catch_up_ratings(self, ended_before: float | None = None) -> None:
        """Rates the queued matches that ended before `ended_before` (None: all), a few at a time on the commit
        thread, so that a long queue never holds the rooms' writes up for long."""
        while self.accepting:
            done = await self.committer.run(partial(ratings.rate_pending, self.storage, self.games, RATE_BATCH,
                                                    ended_before))
            if done < RATE_BATCH:
                return

    # -- lobby changes -------------------------------------------------------------------------------------
    async def change_room(self, code: str, change: Callable[[RoomLobby, str], tuple[Write | None, T]],
                          claim: bool = False) -> tuple[T, Lobbied]:
        """Runs a lobby change on room `code` as stored (`Storage.change_room`): `change(lobby, status)` gives
        the write and a result, or refuses; with `claim` this process owns the room from then on. Returns
        the result and the room's lobby as stored after it."""
        room = self.rooms[code]

        def stored_change(row: dict[str, Any], seats: list[dict[str, Any]]) -> tuple[Write | None, T]:
            lobby = RoomLobby(code, [SeatInfo.from_row(s) for s in seats],
                              row["host_token_hash"], row["host_seat"])
            return change(lobby, row["status"])

        changed: Changed[T] = await self.committer.run(partial(self.storage.change_room, code, stored_change,
                                                               self.node, self.settings.lease_seconds, claim))
        lobby = RoomLobby(code, [SeatInfo.from_row(s) for s in changed.seats],
                          room.lobby.host_token_hash, room.lobby.host_seat)
        return changed.result, Lobbied(lobby, changed.row["status"], changed.epoch)

    async def next_match(self, room: Room, game_id: str | None, given: Mapping[str, Any] | None = None) -> None:
        """The room's next match (see `Room.next_match`): `game_id` None plays the same game again; a game that
        does not exist, or cannot seat the room's people, is refused and nothing changes."""
        game = room.game if game_id is None else self.games.get(game_id)
        if game is None:
            raise ServerError(Code.GAME_UNKNOWN, f"No game {str(game_id)[:40]!r} to play next.",
                              f"次に遊ぶゲーム「{str(game_id)[:40]}」はありません。", 422)
        if game_id is not None and game_id not in room.next_games():
            why = game.seats_refusal(room.seats) or Text(f"{game.id} cannot follow {room.game.id}.",
                                                         f"{game.id} は {room.game.id} の次には遊べません。")
            raise ServerError(Code.GAME_CANNOT_SEAT, f"Not the next game of this room: {why.en}",
                              f"このルームの次のゲームにはできません: {why.ja}", 422)
        await room.next_match(game, given)

    # -- dropping ------------------------------------------------------------------------------------------
    def forget(self, room: Room) -> None:
        if self.rooms.get(room.code) is room:
            del self.rooms[room.code]
            self._spawn(self.bus.unlisten(room_channel(room.code)))

    def drop(self, room: Room, error: BaseException | None) -> None:
        """Forgets a room whose write failed, whose engine crashed or that another process took over
        (`Fenced`): its clients are told to reconnect, and it is rebuilt from the database (at once, up to
        MAX_RELOADS times; later on first use)."""
        taken = isinstance(error, Fenced)
        (log.warning if taken else log.error)("room %s dropped: %r", room.code, error)
        if self.rooms.get(room.code) is room:
            del self.rooms[room.code]
        self._reloads[room.code] = reloads = self._reloads.get(room.code, 0) + (0 if taken else 1)
        if room.status == "playing" and reloads <= MAX_RELOADS and not taken:
            # Bots and timers resume without waiting for a client; a bug that crashes again every
            # time stops being retried here so that it cannot loop forever.
            self._spawn(self._reload_room(room.code))
        room.stop()
        room.delivery.outbox.clear()
        failure = moved() if taken else ServerError(
            Code.SERVER_STORAGE, "The server could not store the last action; reconnect.",
            "サーバーが直前の操作を保存できませんでした。再接続してください。", 503)
        for conn in list(room.delivery.conns):
            conn.send(failure.frame())
            conn.close(1012)

    async def _reload_room(self, code: str) -> None:
        try:
            await self.get(code)
        except Exception:
            log.exception("room %s could not be reloaded", code)

    async def recent(self) -> list[dict[str, Any]]:
        return await asyncio.to_thread(self.storage.recent, self.settings.finished_retention)

    # -- forwarding to the owner ---------------------------------------------------------------------------
    async def forward(self, room: Room, conn: Connection, seat: int, action: Action, ref: Any) -> None:
        """Hands a connection's action to the process that owns the room; takes the room first if nobody
        holds it any more."""
        if room.owner is None or room.owner == self.node:
            await self._take(room.code)
            if room.owned:
                await room.act(conn, action, ref, seat)
                return
            await self._reload(room.code)
        if room.owner is None or room.owner == self.node:
            conn.send(moved().frame(ref))
            return
        notice = {"k": "act", "code": room.code, "seat": seat, "action": action, "ref": ref, "node": self.node,
                  "conn": conn.id}
        try:
            await self.bus.send(node_channel(room.owner), notice)
            self.metrics.forwarded.inc()
            self._forwarded.setdefault(room.code, []).append((conn, ref))
        except Exception:
            log.warning("could not forward an action of room %s", room.code, exc_info=True)
            conn.send(moved().frame(ref))

    def send_remote(self, node: str, conn: str, frame: dict[str, Any], after: int) -> None:
        self._spawn(self.bus.send(node_channel(node), {"k": "frame", "conn": conn, "frame": frame, "after": after}))

    def _node_notice(self, notice: dict[str, Any]) -> None:
        kind = notice.get("k")
        if kind == "act":
            room = self.rooms.get(notice["code"])
            if room is None or not room.owned:
                self.send_remote(notice["node"], notice["conn"], moved().frame(notice["ref"]), 0)
                return
            self._spawn(room.act_for(notice["node"], notice["conn"], notice["seat"], notice["action"], notice["ref"]))
        elif kind == "frame":
            for room in self.rooms.values():
                for conn in room.delivery.conns:
                    if conn.id == notice["conn"]:
                        self._frames.setdefault(room.code, []).append((notice["after"], conn.id, notice["frame"]))
                        self._spawn(self._follow(room.code))
                        return

    # -- following ------------------------------------------------------------------------------------------
    def _room_notice(self, code: str, notice: dict[str, Any]) -> None:
        kind = notice.get("k")
        if kind == "log":
            self.metrics.relay_lag.observe(max(0.0, time.time() - float(notice.get("t", time.time()))))
            self._acks.setdefault(code, []).append((notice["seq"], notice.get("acks", [])))
            self._spawn(self._follow(code))
        elif kind == "chat" and notice.get("node") != self.node:
            room = self.rooms.get(code)
            if room is not None:
                room.heard(notice["entry"])
        elif kind in ("room", "owner") and notice.get("node") != self.node:
            self._spawn(self._reload(code))
        elif kind == "presence" and notice.get("node") != self.node:
            room = self.rooms.get(code)
            if room is not None:
                self._spawn(self._read_presence(room, announce=True))

    async def _follow(self, code: str) -> None:
        """Catches a followed room up with the entries its owner stored (one catch-up at a time per room:
        a notice during one makes it read again once it is done)."""
        if code in self._following:
            self._again.add(code)
            return
        self._following.add(code)
        try:
            while True:
                self._again.discard(code)
                room = self.rooms.get(code)
                if room is None or room.current is None:
                    return
                if not room.owned:
                    entries = await asyncio.to_thread(self.storage.entries_after, code, room.current.last_seq)
                else:
                    entries = []
                async with room.lock:
                    last = room.current.last_seq if room.current is not None else 0
                    acks: list[list[Any]] = []
                    kept: list[tuple[int, list[list[Any]]]] = []
                    for seq, more in self._acks.pop(code, []):
                        if seq <= max(last, max((e["seq"] for e in entries), default=0)):
                            acks += more
                        else:
                            kept.append((seq, more))
                    if kept:
                        self._acks[code] = kept
                    room.follow(entries, acks)
                    self._answered(code, [(conn, ref) for node, conn, ref in acks if node == self.node])
                    waiting: list[tuple[int, str, dict[str, Any]]] = []
                    ready: list[tuple[int, str, dict[str, Any]]] = []
                    for after, conn, frame in self._frames.pop(code, []):
                        (ready if after <= room.version or room.owned else waiting).append((after, conn, frame))
                    if waiting:
                        self._frames[code] = waiting
                    conns = {c.id: c for c in room.delivery.conns}
                    room.delivery.send([(conns[c], f) for _, c, f in ready if c in conns])
                    self._answered(code, [(c, f.get("ref")) for _, c, f in ready])
                if code not in self._again:
                    return
        finally:
            self._following.discard(code)

    def _answered(self, code: str, answered: list[tuple[str, Any]]) -> None:
        """Forwarded actions the owner has answered (acknowledged, or refused)."""
        pending = self._forwarded.get(code)
        if pending and answered:
            done = set(map(repr, answered))
            self._forwarded[code] = [(c, r) for c, r in pending if repr((c.id, r)) not in done]

    def _unanswered(self, code: str) -> None:
        """The room changed hands: the actions forwarded to its former owner and never answered may be lost
        (it died) or stored (it died just after): their senders are told to look and send them again."""
        for conn, ref in self._forwarded.pop(code, []):
            conn.send(moved().frame(ref))

    async def _reload(self, code: str) -> None:
        """Takes a room's lobby, status and owner as stored (another process changed them): a new match
        (started, or the next one) is loaded whole and everyone here gets it fresh."""
        room = self.rooms.get(code)
        if room is None:
            return
        stored = await asyncio.to_thread(self.storage.load, code)
        if stored is None:
            return
        async with room.lock:
            row = stored.row
            if room.epoch is not None and int(row["epoch"]) > room.epoch:
                # Another process took the room while this one was paused past its lease (SIGSTOP, a partition):
                # what this one did since, in memory, was never stored (its writes are fenced), so its copy is
                # no longer the room's: it steps back, as when a write is fenced, and its clients reconnect.
                if self.accepting:  # (a process handing its rooms over closes its connections itself)
                    room.broken = True
                    self.drop(room, Fenced(code))
                return
            number = len(stored.matches) + 1
            current = room.current
            new_match = row["status"] in ("playing", "over") and (
                current is None or current.number != number or current.match.seed != json.loads(row["seed"]))
            if row.get("owner") != room.owner:
                self._unanswered(code)
            if new_match and not room.owned:
                if row["game"] != room.game.id:
                    room.game = self.games[row["game"]]
                    room.options = room.game.options_class.parse(json.loads(row["options"]))
                    room.chat_room.follow(room.game, room.options)
                room.load(stored, None)
                delivery = room.delivery
                delivery.send(delivery.room_frames() + delivery.channel_frames(always=True)
                              + delivery.fresh_updates(time.time()))
                return
            room.lobby.seats[:] = [SeatInfo.from_row(s) for s in stored.seats]
            room.owner, room.private = row.get("owner"), bool(row.get("private"))
            room.sync_standins()  # (another process handed a seat to a bot, or a person came back there)
            if row["status"] == "closed" and room.status != "closed":
                room.status = "closed"
                room.stop()
            room.delivery.send(room.delivery.room_frames())
        if not room.owned and room.current is not None:
            await self._follow(code)

    async def _resync(self) -> None:
        """The bus listened again after losing its connection: notices may have been lost meanwhile."""
        for code in list(self.rooms):
            self._spawn(self._reload(code))

    def _released(self, notice: dict[str, Any]) -> None:
        """A process stopping gave its rooms up: take those that people here watch at once (the sweep takes
        the rest)."""
        for code in notice.get("codes", []):
            if code in self.rooms and self.accepting:
                self._spawn(self._take(code))

    # -- presence --------------------------------------------------------------------------------------------
    def changed(self, room: Room) -> None:
        self._present.add(room.code)
        self._idle.pop(room.code, None)

    async def _read_presence(self, room: Room, announce: bool = False) -> None:
        counts, seen = await asyncio.to_thread(self.storage.presence_of, room.code, self.node,
                                               self.settings.lease_seconds)
        room.presence.remote = {seat: Count(c, a) for seat, (c, a) in counts.items()}
        for seat, at in seen.items():
            room.presence.seen_at[seat] = max(at, room.presence.seen_at.get(seat, 0.0))
        if announce:
            self._present.add(room.code)
            await room.returned()  # a person back through another process plays their seat again

    async def _store_presence(self) -> None:
        """Stores who is connected here, at most every `presence_interval`, for the other processes to tell
        (each room's people hear of it in room frames, coalesced by `Delivery.presence_changed`)."""
        while True:
            await asyncio.sleep(self.settings.presence_interval)
            changed, self._present = self._present, set()
            humans, self._attended = self._attended, set()
            counts: dict[str, dict[int, tuple[int, int]]] = {}
            left: dict[str, list[int]] = {}
            for code in changed:
                room = self.rooms.get(code)
                if room is None:
                    continue
                if room.presence.dirty:
                    room.presence.dirty = False
                    counts[code] = {seat: (c.conns, c.away) for seat, c in room.presence.local.items()}
                    left[code] = [seat for seat, c in room.presence.local.items() if seat >= 0 and c.conns == 0]
                    if any(seat >= 0 and c.conns for seat, c in room.presence.local.items()):
                        humans.add(code)
                room.delivery.presence_changed()  # (coalesced: other processes' comings and goings included)
            if counts or humans:
                try:
                    await self.committer.run(partial(self.storage.store_presence, self.node, counts, left,
                                                     sorted(humans)))
                except Exception as error:
                    warn("presence could not be stored", error)
                    for code in counts:  # stored with the next round
                        if (room := self.rooms.get(code)) is not None:
                            room.presence.dirty = True
                            self._present.add(code)
                    self._attended |= humans
            self.metrics.rooms(self)

    # -- leases and takeovers ----------------------------------------------------------------------------------
    async def _keep_leases(self) -> None:
        """Renews this process's leases every third of their length (writes renew them too); a room whose
        lease another process took (this one was paused past it: SIGSTOP, a long GC, a partition) is
        dropped, its clients reconnect. Notes where people are, and forgets followed rooms nobody watches."""
        lease = self.settings.lease_seconds
        while True:
            await asyncio.sleep(lease / 3)
            owned = {code: room.epoch for code, room in self.rooms.items() if room.epoch is not None}
            try:
                held = await self.committer.run(partial(self.storage.renew, self.node, owned, lease))
            except Exception as error:
                warn("leases could not be renewed", error)
                continue
            for code in set(owned) - held:
                room = self.rooms.get(code)
                if room is not None and room.epoch == owned[code]:
                    room.broken = True
                    self.drop(room, Fenced(code))
            for code in held:  # the rooms' own hand: leavers' seats to bots
                room = self.rooms.get(code)
                if room is not None:
                    with contextlib.suppress(ServerError):  # (a room that ended meanwhile)
                        await room.auto_standins(time.time())
            now = time.monotonic()
            for code, room in list(self.rooms.items()):
                if room.delivery.conns or room.owned:
                    self._idle.pop(code, None)
                    if any(c.seat is not None for c in room.delivery.conns):
                        # People are here: the room was seen now (its counts, unchanged, are not stored again,
                        # nor its people told again of who is here).
                        self._attended.add(code)
                elif now - self._idle.setdefault(code, now) > self.settings.follower_idle_seconds:
                    self._idle.pop(code, None)
                    self.forget(room)

    async def _sweep(self) -> None:
        """Takes over the playing rooms nobody holds (their owner died), and closes the rooms nobody has
        been at for `abandon_seconds`."""
        settings = self.settings
        last_close = 0.0
        while True:
            await asyncio.sleep(settings.sweep_seconds)
            if not self.accepting:
                continue
            try:
                if time.monotonic() - last_close > 5:
                    last_close = time.monotonic()
                    closed = await self.committer.run(partial(self.storage.close_abandoned, self.node,
                                                              settings.abandon_seconds, settings.lease_seconds))
                    for code in closed:
                        await self._reload(code)
                    # Matches whose owner died between ending them and rating them (not those that ended a
                    # moment ago: their owner is rating them now). A failure here never holds up the takeovers.
                    try:
                        await self._catch_up_ratings(time.time() - RATE_GRACE)
                    except Exception as error:
                        warn("the ratings' catch-up failed", error)
                for code in await asyncio.to_thread(self.storage.claimable, 20):
                    await self._take(code)
            except Exception as error:
                warn("the sweep failed", error)
