"""A room: its seats, its match and the one authority that changes them.

Every change goes through `Room.lock`, one at a time. An accepted action is applied to the in-memory
match, appended to the log, and handed to the committer; the frames it causes wait in the outbox
until that write has committed. The room keeps recent versions' events, so a reconnecting client
can be given exactly what it missed.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from partygames.engine.actions import Action
from partygames.engine.bots import Bot
from partygames.engine.errors import IllegalAction
from partygames.engine.game import Game
from partygames.engine.match import Event, Match
from partygames.engine.options import Options
from partygames.server import bots as botplay
from partygames.server import clock, frames, timers
from partygames.server import storage as db
from partygames.server.chat import (
    Channels,
    channel_map,
    channels_for,
    current_channels,
    has_match_channels,
    may_read,
    readable,
)
from partygames.server.codes import Code
from partygames.server.connections import Connection
from partygames.server.errors import ServerError, not_open
from partygames.server.outbox import Outbox, Sends
from partygames.server.storage import Write, dumps
from partygames.server.text import escape

if TYPE_CHECKING:
    from partygames.server.hub import Hub

log = logging.getLogger(__name__)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(24)


@dataclass
class SeatInfo:
    kind: str  # "human" | "bot"
    bot: str | None = None
    name: str | None = None
    token_hash: str | None = None

    @property
    def taken(self) -> bool:
        return self.kind == "bot" or self.token_hash is not None


@dataclass(frozen=True)
class Entry:
    """One log entry: an action (seat, bot or timer) or a clock tick (seat None)."""

    seat: int | None
    action: Action
    source: str
    at: float


class Room:
    """The authority of one room. Methods starting with `_` expect `lock` to be held."""

    def __init__(self, hub: Hub, code: str, game: Game, seats: int, options: Options, seat_infos: list[SeatInfo],
                 host_token_hash: str, host_seat: int | None, created_at: float) -> None:
        self.hub = hub
        self.code = code
        self.game = game
        self.seats = seats
        self.options = options
        self.seat_infos = seat_infos
        self.host_token_hash = host_token_hash
        self.host_seat = host_seat
        self.created_at = created_at
        self.status = "open"
        self.seed: int | str | None = None
        self.started_at: float | None = None
        self.match: Match | None = None
        self.log: list[Entry] = []
        # Events of version v at index v - 1 - history_base, as JSON with their audience (None: public).
        # Only the last `max_catchup` versions are kept: older gaps get a fresh view.
        self.history: list[list[tuple[tuple[int, ...] | None, str]]] = []
        self.history_base = 0
        self.phase: str | None = None
        self.phase_started_at: float | None = None
        self.chat_log: list[dict[str, Any]] = []
        self.conns: set[Connection] = set()
        self.lock = asyncio.Lock()
        self.outbox = Outbox()
        self.last_write: asyncio.Future[None] | None = None
        self.bots: dict[int, Bot] = {}
        self.bot_tasks: dict[int, asyncio.Task[None]] = {}
        self.timer: asyncio.Task[None] | None = None
        self.timer_phase: str | None = None
        self.ticker: asyncio.Task[None] | None = None
        self.broken = False
        self.dirty = False  # accepted entries whose updates are not built yet
        self.pending_acks: dict[Connection, list[Any]] = {}
        self.channels = channel_map(game, seats, options)  # the fixed ones; see `chat_channels()`
        self.match_channels = has_match_channels(game)

    # -- derived ---------------------------------------------------------------------------------------
    @property
    def version(self) -> int:
        """The protocol version: how many log entries (actions and clock ticks) have been applied."""
        return len(self.log)

    def seat_for_token(self, token: str) -> int | None:
        digest = token_hash(token)
        for seat, info in enumerate(self.seat_infos):
            if info.token_hash is not None and secrets.compare_digest(info.token_hash, digest):
                return seat
        return None

    def is_host(self, token: str | None) -> bool:
        return token is not None and secrets.compare_digest(token_hash(token), self.host_token_hash)

    def to_json(self, base_url: str) -> dict[str, Any]:
        connected = {c.seat for c in self.conns}
        result = self.match.result() if self.match is not None and self.match.is_over else None
        return {
            "code": self.code,
            "link": f"{base_url.rstrip('/')}/room/{self.code}",
            "game": self.game.id,
            "title": self.game.title.to_json(),
            "options": self.options.to_json(),
            "status": self.status,
            "seats": [{"seat": i, "kind": s.kind, "bot": s.bot,
                       "bot_title": self.game.bot_title(s.bot).to_json() if s.bot else None,
                       "name": escape(s.name) if s.name else (f"{s.bot} bot" if s.bot else None),
                       "taken": s.taken, "connected": s.kind == "bot" or i in connected}
                      for i, s in enumerate(self.seat_infos)],
            "host_seat": self.host_seat,
            "version": self.version,
            "spectators": sum(1 for c in self.conns if c.seat is None),
            "created_at": self.created_at,
            "result": result.to_json() if result is not None else None,
        }

    def deadline_json(self, now: float) -> dict[str, Any] | None:
        if self.match is None or self.phase is None or self.phase_started_at is None:
            return None
        deadline = self.match.time_limit()
        if deadline is None:
            return None
        seconds = deadline.seconds * self.hub.settings.deadline_scale
        ends_at = self.phase_started_at + seconds
        return {"phase": self.phase, "seconds": seconds, "ends_at": ends_at, "remaining": max(0.0, ends_at - now)}

    def record(self, events: list[Event]) -> None:
        """Keeps a new version's events in wire form, with who may see each (`Event.is_visible_to`)."""
        version = self.history_base + len(self.history) + 1
        self.history.append([(e.to, frames.dumps({"version": version, "type": e.type, "data": e.data}))
                             for e in events])
        excess = len(self.history) - self.hub.settings.max_catchup
        if excess > self.hub.settings.max_catchup // 4:  # trimmed in chunks, not on every entry
            del self.history[:excess]
            self.history_base += excess

    def events_for(self, seat: int | None, after: int, upto: int) -> list[str]:
        """The JSON of the events `seat` may see in versions after..upto."""
        history, base = self.history, self.history_base
        return [wire for v in range(after - base, upto - base) for to, wire in history[v]
                if to is None or (seat is not None and seat in to)]

    def _view(self, seat: int | None, cache: dict[int | None, str]) -> str:
        """The seat's view as JSON, made now: a view may share lists with the state, which moves on."""
        view = cache.get(seat)
        if view is None:
            assert self.match is not None
            view = cache[seat] = frames.dumps(self.match.view(seat))
        return view

    def _update(self, conn: Connection, since: int | None, cache: dict[int | None, str],
                deadline: dict[str, Any] | None, acks: list[Any]) -> frames.Frame:
        """An update bringing `conn` from `since` (None: from nothing) to the current version."""
        version = len(self.log)
        fresh = since is None or since > version or since < self.history_base
        events = [] if fresh or since is None else self.events_for(conn.seat, since, version)
        conn.sent_version = version
        return frames.update(version, None if fresh else since, self._view(conn.seat, cache), events, fresh, acks,
                             deadline)

    def _send(self, sends: Sends) -> None:
        self._prepare()  # what is owed to clients goes first, in order
        self.outbox.put(self.last_write, sends)

    def _submit(self, write: Write) -> asyncio.Future[None]:
        future = self.hub.committer.submit(write)
        if future is not self.last_write:  # writes of one batch share a future
            self.last_write = future
            future.add_done_callback(self._committed)
        return future

    def _committed(self, future: asyncio.Future[None]) -> None:
        if future.exception() is not None and not self.broken:
            self.broken = True
            self.hub.drop(self, future.exception())

    def _room_frames(self) -> Sends:
        room = self.to_json(self.hub.base_url)
        # The share link uses the address each client reached the server by (localhost or a LAN IP).
        return [(c, {"type": "room", "room": {**room, "link": self.link(c.base_url)}}) for c in self.conns]

    def link(self, base_url: str | None) -> str:
        return f"{(base_url or self.hub.base_url).rstrip('/')}/room/{self.code}"

    # -- connections -----------------------------------------------------------------------------------
    async def attach(self, conn: Connection, since: int | None) -> None:
        async with self.lock:
            self._prepare()  # updates owed to the others are built without the newcomer
            self.conns.add(conn)
            channels = self.chat_channels()
            conn.sent_channels = channels_for(channels, conn.seat)
            sends: Sends = [(conn, {"type": "welcome", "seat": conn.seat, "name": escape(conn.name),
                                    "room": {**self.to_json(self.hub.base_url), "link": self.link(conn.base_url)},
                                    "channels": conn.sent_channels})]
            for entry in readable(channels, conn.seat, self.chat_log, self.hub.settings.chat_history):
                sends.append((conn, entry))
            if self.match is not None:
                sends.append((conn, self._update(conn, since, {}, self.deadline_json(time.time()), [])))
            self._send(sends)
            self._send([(c, f) for c, f in self._room_frames() if c is not conn])

    async def detach(self, conn: Connection) -> None:
        async with self.lock:
            self.conns.discard(conn)
            self._send(self._room_frames())
            if self.status == "over" and not self.conns and not self.dirty:
                self.hub.forget(self)  # finished and unwatched: reloaded from the database when asked for

    # -- play ------------------------------------------------------------------------------------------
    async def act(self, conn: Connection, action: Action, ref: Any, claimed_seat: int | None) -> None:
        async with self.lock:
            try:
                if conn.seat is None:
                    raise ServerError(Code.SEAT_SPECTATOR, "Spectators cannot act.", "観戦者は操作できません。", 403)
                if claimed_seat is not None and claimed_seat != conn.seat:
                    raise ServerError(Code.SEAT_NOT_YOURS, f"Your token is for seat {conn.seat}, not seat {claimed_seat}.",
                                      f"あなたのトークンは席 {conn.seat} のものです(席 {claimed_seat} ではありません)。", 403)
                if self.match is None or self.broken:
                    raise ServerError(Code.ROOM_NOT_STARTED, "The match has not started.", "マッチはまだ始まっていません。", 409)
                events = self.match.apply(conn.seat, action)
            except ServerError as error:
                self._send([(conn, error.frame(ref))])
            except IllegalAction as error:
                # Sent after pending commits: the refusal may reflect state nobody has heard of yet.
                self._send([(conn, {"type": "error", **error.to_json(), "ref": ref})])
            except Exception as error:
                conn.send(ServerError(Code.SERVER_INTERNAL, "The server failed on this action; the room is reloaded.",
                                      "この操作でサーバーに障害が起きました。ルームを読み込み直します。", 500).frame(ref))
                self.crashed(error, f"applying {action!r} for seat {conn.seat}")
            else:
                self._accepted(conn.seat, action, "seat", events, conn, ref)

    def _accepted(self, seat: int | None, action: Action, source: str, events: list[Event],
                  acker: Connection | None = None, ref: Any = None) -> None:
        """Logs, stores and announces an entry already applied to the match."""
        assert self.match is not None
        now = time.time()
        entry = Entry(seat, action, source, now)
        self.log.append(entry)
        self.record(events)
        write = Write(inserts=[(db.actions, {"room": self.code, "seq": self.version, "seat": seat,
                                             "action": dumps(action), "source": source, "at": now})])
        deadline = self.match.time_limit()
        phase = deadline.phase if deadline is not None else None
        changes: dict[str, Any] = {}
        if phase != self.phase:
            self.phase, self.phase_started_at = phase, (now if phase is not None else None)
            changes.update(phase=self.phase, phase_started_at=self.phase_started_at)
        if self.match.is_over:
            self.status = "over"
            result = self.match.result()
            changes.update(status="over", result=dumps(result.to_json() if result else None))
        if changes:
            write.updates.append((db.rooms, {"code": self.code}, changes))
        self._submit(write)
        for bot_seat, bot in self.bots.items():
            for event in events:
                if event.is_visible_to(bot_seat):
                    bot.observe(event)
        if acker is not None and ref is not None:
            self.pending_acks.setdefault(acker, []).append(ref)
        if not self.dirty:
            # The updates are built when the committer takes this write into a batch (the state is
            # then at the batch's last version), so several actions of one batch cost one view each.
            self.dirty = True
            self.hub.committer.before_batch(self._prepare)
        self._after_change()

    def _prepare(self) -> None:
        """Builds the updates for every version not yet announced; they leave after the last write."""
        if not self.dirty:
            return
        self.dirty = False
        cache: dict[int | None, str] = {}
        deadline_json = self.deadline_json(time.time())
        sends: Sends = []
        for conn in self.conns:
            acks = self.pending_acks.pop(conn, [])
            if conn.sent_version == self.version and not acks:
                continue
            since = conn.sent_version if conn.sent_version >= 0 else None
            sends.append((conn, self._update(conn, since, cache, deadline_json, acks)))
        self.pending_acks.clear()
        sends.extend(self._channel_frames())
        if self.status == "over":
            sends.extend(self._room_frames())
        self.outbox.put(self.last_write, sends)

    def _channel_frames(self) -> Sends:
        """`channels` frames for the connections whose postable channels the match has just changed."""
        if not self.match_channels:
            return []
        channels = self.chat_channels()
        sends: Sends = []
        for conn in self.conns:
            mine = channels_for(channels, conn.seat)
            if mine != conn.sent_channels:
                conn.sent_channels = mine
                sends.append((conn, {"type": "channels", "channels": mine}))
        return sends

    def _after_change(self) -> None:
        """Schedules what acts next without a client: bots, the deadline timer, the clock."""
        if self.status != "playing" or self.broken:
            self.stop_tasks()
            return
        assert self.match is not None
        awaited = self.match.to_act()
        for seat in awaited:
            if seat in self.bots and seat not in self.bot_tasks:
                self.bot_tasks[seat] = asyncio.get_running_loop().create_task(self._bot_turn(seat))
        if self.phase != self.timer_phase:
            timers.schedule(self)
        if self.game.tick_rate and self.ticker is None:
            self.ticker = asyncio.get_running_loop().create_task(clock.run(self))

    async def _bot_turn(self, seat: int) -> None:
        await asyncio.sleep(self.hub.settings.bot_delay)
        async with self.lock:
            self.bot_tasks.pop(seat, None)
            if self.match is None or self.status != "playing" or self.broken or seat not in self.match.to_act():
                return
            action = botplay.choose(self.bots[seat], self, seat)
            try:
                try:
                    events = self.match.apply(seat, action)
                except IllegalAction:
                    log.warning("bot at seat %d of room %s proposed an illegal action %r", seat, self.code, action)
                    action = botplay.fallback(self, seat)
                    events = self.match.apply(seat, action)
            except Exception as error:
                self.crashed(error, f"applying the bot's {action!r} for seat {seat}")
                return
            self._accepted(seat, action, "bot", events)

    def crashed(self, error: BaseException, doing: str) -> None:
        """An engine bug broke the contract (the state may be damaged): rebuild the room from its log."""
        log.error("room %s: %s failed", self.code, doing, exc_info=error)
        self.broken = True
        self.hub.drop(self, error)

    def apply_default(self, seat: int, action: Action) -> None:
        """Applies a deadline's default action (lock held by the caller); IllegalAction passes through."""
        assert self.match is not None
        try:
            events = self.match.apply(seat, action)
        except IllegalAction:
            raise
        except Exception as error:
            self.crashed(error, f"applying the default {action!r} for seat {seat}")
            return
        self._accepted(seat, action, "timer", events)

    def apply_tick(self, now: float) -> None:
        """Gives a game that moves with time the room clock's time (lock held by the caller)."""
        assert self.match is not None
        tick: Callable[[float], list[Event]] = self.match.tick
        try:
            events = list(tick(now))
        except Exception as error:
            self.crashed(error, f"the clock tick at {now}")
            return
        self._accepted(None, {"now": now}, "clock", events)

    def stop_tasks(self) -> None:
        for task in self.bot_tasks.values():
            task.cancel()
        self.bot_tasks.clear()
        current = asyncio.current_task()
        for pending in (self.timer, self.ticker):
            if pending is not None and pending is not current:
                pending.cancel()
        self.timer = self.ticker = None
        self.timer_phase = None

    async def sync(self, conn: Connection, since: int) -> None:
        async with self.lock:
            if self.match is None:
                raise ServerError(Code.ROOM_NOT_STARTED, "The match has not started.", "マッチはまだ始まっていません。", 409)
            self._send([(conn, self._update(conn, since, {}, self.deadline_json(time.time()), []))])

    # -- chat --------------------------------------------------------------------------------------------
    def chat_channels(self) -> Channels:
        """Every channel besides `public` as of the match's current state (lock held by the caller)."""
        return current_channels(self.game, self.channels, self.match)

    async def chat(self, conn: Connection, channel: str, text: str) -> None:
        async with self.lock:
            channels = self.chat_channels()
            if channel not in channels_for(channels, conn.seat):
                # Sent after pending commits: a match channel may have opened or closed in them.
                self._send([(conn, ServerError(Code.CHAT_CHANNEL, f"You cannot post to {channel[:64]!r} now.",
                                               f"チャンネル「{channel[:64]}」には今は投稿できません。", 403).frame())])
                return
            now = time.time()
            entry = {"type": "chat", "channel": channel, "seat": conn.seat, "name": escape(conn.name),
                     "text": escape(text), "at": now}
            self.chat_log.append(entry)
            self._submit(Write(inserts=[(db.chats, {"room": self.code, "channel": channel, "seat": conn.seat,
                                                    "name": conn.name, "text": text, "at": now})]))
            self._send([(c, entry) for c in self.conns if may_read(channels, channel, c.seat)])

    # -- lobby -------------------------------------------------------------------------------------------
    async def join(self, name: str, seat: int | None) -> tuple[int, str]:
        async with self.lock:
            if self.status != "open":
                raise not_open()
            if seat is None:
                free = [i for i, s in enumerate(self.seat_infos) if s.kind == "human" and not s.taken]
                if not free:
                    raise ServerError(Code.ROOM_FULL, "No free seat in this room.", "このルームに空席はありません。", 409)
                seat = free[0]
            elif not 0 <= seat < self.seats:
                raise ServerError(Code.SEAT_NO_SUCH_SEAT, f"No seat {seat}.", f"席 {seat} はありません。", 422)
            elif self.seat_infos[seat].taken:
                raise ServerError(Code.SEAT_TAKEN, f"Seat {seat} is taken.", f"席 {seat} はすでに埋まっています。", 409)
            token = new_token()
            info = self.seat_infos[seat]
            info.name, info.token_hash = name, token_hash(token)
            await self._submit(Write(updates=[(db.seats, {"room": self.code, "seat": seat},
                                               {"name": name, "token_hash": info.token_hash})]))
            self._send(self._room_frames())
            return seat, token

    async def fill_bots(self, kind: str) -> None:
        async with self.lock:
            if self.status != "open":
                raise not_open()
            if kind not in self.game.bots:
                raise ServerError(Code.BOT_UNKNOWN, f"No bot {kind[:40]!r} (bots: {', '.join(self.game.bots)}).",
                                  f"ボット「{kind[:40]}」はありません(ボット: {', '.join(self.game.bots)})。", 422)
            write = Write()
            for seat, info in enumerate(self.seat_infos):
                if not info.taken:
                    info.kind, info.bot = "bot", kind
                    write.updates.append((db.seats, {"room": self.code, "seat": seat}, {"kind": "bot", "bot": kind}))
            if write.updates:
                await self._submit(write)
            self._send(self._room_frames())

    async def start(self) -> None:
        async with self.lock:
            if self.status != "open":
                raise not_open()
            if not all(s.taken for s in self.seat_infos):
                raise ServerError(Code.ROOM_SEATS_EMPTY, "Some seats are still free: wait for players or fill them with bots.",
                                  "空席があります。参加者を待つか、ボットで埋めてください。", 409)
            seed = secrets.randbits(62)
            match = self.game.new(self.seats, self.options, seed)
            now = time.time()
            deadline = match.time_limit()
            phase = deadline.phase if deadline is not None else None
            await self._submit(Write(updates=[(db.rooms, {"code": self.code}, {
                "status": "playing", "seed": dumps(seed), "started_at": now, "phase": phase,
                "phase_started_at": now if phase is not None else None})]))
            self.begin(match, seed, now, phase, now if phase is not None else None)
            cache: dict[int | None, str] = {}
            deadline_json = self.deadline_json(now)
            self._send(self._room_frames() + [(c, self._update(c, None, cache, deadline_json, [])) for c in self.conns]
                       + self._channel_frames())
            self._after_change()

    def begin(self, match: Match, seed: int | str, started_at: float, phase: str | None,
              phase_started_at: float | None) -> None:
        """Sets up a started match (a fresh start, or a reload before its log is replayed)."""
        self.match, self.seed, self.started_at = match, seed, started_at
        self.status = "playing"
        self.phase, self.phase_started_at = phase, phase_started_at
        kinds = {i: s.bot for i, s in enumerate(self.seat_infos) if s.kind == "bot" and s.bot}
        self.bots = botplay.make_bots(self.game, kinds, seed)
