"""A room: the one authority that changes its seats and its match, built from smaller parts.

Every change goes through `Room.lock`, one at a time. An accepted step (a seat's action, a bot's, or
time passing) is applied by the room's `Session`, stored by the committer, and kept in the event
history (`EventHistory`). The parts: `Delivery` (connections, and the frames owed to them, which wait in
the outbox until the write they show has committed), `RoomClock` (match time, held while reveals play),
`Scheduler` (what happens without a client: time limits, bots), `RoomChat`, and the pure lobby rules
(`seats`) and series planning (`series`). None of them imports this module.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable, Mapping
from functools import partial
from typing import Any, Protocol

from partygames.engine.actions import Action
from partygames.engine.errors import IllegalAction
from partygames.engine.game import Game
from partygames.engine.log import Entry
from partygames.engine.match import Event, Match
from partygames.engine.options import Options
from partygames.engine.session import Session, bot_seed
from partygames.server import storage as db
from partygames.server.chat import Channels, RoomChat
from partygames.server.codes import Code
from partygames.server.committer import Committer
from partygames.server.connections import Connection
from partygames.server.delivery import Delivery
from partygames.server.errors import ServerError, not_open
from partygames.server.history import EventHistory
from partygames.server.match_clock import RoomClock
from partygames.server.scheduler import Scheduler
from partygames.server.seats import (
    SeatInfo,
    acting_seat,
    bot_kinds,
    check_all_taken,
    fill_with_bots,
    new_token,
    same_token,
    seat_for_token,
    seat_to_join,
    seats_json,
    token_hash,
)
from partygames.server.series import Finished, next_games, plan_next
from partygames.server.settings import Settings
from partygames.server.storage import Write, dumps

log = logging.getLogger(__name__)


class Host(Protocol):
    """What a room needs of the hub that holds it (the hub imports rooms, never the other way)."""

    settings: Settings
    base_url: str

    @property
    def games(self) -> Mapping[str, Game]: ...

    @property
    def committer(self) -> Committer: ...

    def drop(self, room: Room, error: BaseException | None) -> None:
        """Forgets a room whose write failed or whose engine crashed, and has it rebuilt from its log."""

    def forget(self, room: Room) -> None:
        """Forgets a finished room nobody watches (it is reloaded when asked for)."""


class Room:
    """The authority of one room. Methods starting with `_`, and `run_due`, expect `lock` to be held."""

    def __init__(self, hub: Host, code: str, game: Game, seats: int, options: Options, seat_infos: list[SeatInfo],
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
        self.session: Session | None = None
        self.sources: list[str] = []  # per log entry: "seat", "bot", "wake" (older logs: "timer", "clock")
        self.history = EventHistory(hub.settings.max_catchup)
        self.chat_room = RoomChat(game, seats, options, hub.settings.chat_history)
        self.lock = asyncio.Lock()
        self.delivery = Delivery(self, hub.base_url, hub.settings.recent_events)
        self.scheduler = Scheduler(self)
        self.clock = self._new_clock(created_at)  # replaced when a match starts
        self.audiences: list[int | None] = [None]  # who watches reveals: the public and each human seat
        self.broken = False
        self.match_number = 1  # the room's matches are numbered 1, 2, ... (play again, a series)
        self.seq_offset = 0  # the stored `seq` of the last log entry before this match

    # -- derived ---------------------------------------------------------------------------------------
    @property
    def match(self) -> Match | None:
        return self.session.match if self.session is not None else None

    @property
    def version(self) -> int:
        """The protocol version: how many log entries (actions and wake-ups) have been applied."""
        return len(self.session.log.entries) if self.session is not None else 0

    @property
    def is_running(self) -> bool:
        return self.status == "playing" and not self.broken and self.session is not None

    def seat_for_token(self, token: str) -> int | None:
        return seat_for_token(self.seat_infos, token)

    def is_host(self, token: str | None) -> bool:
        return same_token(token, self.host_token_hash)

    def _new_clock(self, started_at: float) -> RoomClock:
        settings = self.hub.settings
        return RoomClock(started_at, settings.deadline_scale, settings.reveal_scale, settings.bot_delay,
                         settings.bot_pace)

    def _now(self, wall: float) -> int:
        """The match time at wall-clock time `wall` (never before the match's own time)."""
        assert self.session is not None
        return self.clock.now(wall, self.session.match.now)

    def _reveal_ms(self, events: list[Event]) -> int:
        """How long a step's events take to show: the longest of its audiences' reveals."""
        return self.game.reveals.cost(events, self.audiences)

    def to_json(self, base_url: str) -> dict[str, Any]:
        conns = self.delivery.conns
        result = self.match.result() if self.match is not None else None
        return {
            "code": self.code,
            "link": f"{base_url.rstrip('/')}/room/{self.code}",
            "game": self.game.id,
            "title": self.game.title.to_json(),
            "match": self.match_number,
            "next_games": [{"id": g, "title": self.hub.games[g].title.to_json()} for g in self.next_games()]
            if self.status == "over" else [],
            "options": self.options.to_json(),
            "status": self.status,
            "seats": seats_json(self.seat_infos, self.game, {c.seat for c in conns}),
            "host_seat": self.host_seat,
            "version": self.version,
            "spectators": sum(1 for c in conns if c.seat is None),
            "created_at": self.created_at,
            "result": result.to_json() if result is not None else None,
        }

    def deadline_json(self, now: float) -> dict[str, Any] | None:
        """The current time limit for clients: its phase, length and end on the wall clock."""
        match = self.match
        deadline = match.deadline() if match is not None and self.status == "playing" else None
        return self.clock.deadline_json(deadline, now) if deadline is not None else None

    def _submit(self, write: Write) -> asyncio.Future[None]:
        future = self.hub.committer.submit(write)
        if future is not self.delivery.last_write:  # writes of one batch share a future
            self.delivery.last_write = future
            future.add_done_callback(self._committed)
        return future

    def _committed(self, future: asyncio.Future[None]) -> None:
        if future.exception() is not None and not self.broken:
            self.broken = True
            self.hub.drop(self, future.exception())

    def link(self, base_url: str | None) -> str:
        return f"{(base_url or self.hub.base_url).rstrip('/')}/room/{self.code}"

    # -- connections -----------------------------------------------------------------------------------
    async def attach(self, conn: Connection, since: int | None) -> None:
        async with self.lock:
            self.delivery.attach(conn, since, self.chat_room)

    async def detach(self, conn: Connection) -> None:
        async with self.lock:
            self.delivery.detach(conn)
            if self.status == "over" and not self.delivery.conns and not self.delivery.dirty:
                self.hub.forget(self)  # finished and unwatched: reloaded from the database when asked for

    async def sync(self, conn: Connection, since: int) -> None:
        async with self.lock:
            if self.match is None:
                raise ServerError(Code.ROOM_NOT_STARTED, "The match has not started.", "マッチはまだ始まっていません。", 409)
            self.delivery.sync(conn, since)

    # -- play ------------------------------------------------------------------------------------------
    async def act(self, conn: Connection, action: Action, ref: Any, claimed_seat: int | None) -> None:
        async with self.lock:
            try:
                seat = acting_seat(conn.seat, claimed_seat)
                session = self.session
                if session is None or self.broken:
                    raise ServerError(Code.ROOM_NOT_STARTED, "The match has not started.", "マッチはまだ始まっていません。", 409)
                now = self._now(time.time())
                # A time limit that passed before this action arrived came first.
                blame = (conn, ref)
                if not (self._engine(partial(session.catch_up, now), "catching up the clock", blame)
                        and self._engine(partial(session.act, seat, action, now), f"applying {action!r} for seat {seat}",
                                         blame)):
                    return
            except ServerError as error:
                self.delivery.send([(conn, error.frame(ref))])
            except IllegalAction as error:
                # Sent after pending commits: the refusal may reflect state nobody has heard of yet.
                self.delivery.send([(conn, {"type": "error", **error.to_json(), "ref": ref})])
            else:
                if ref is not None:
                    self.delivery.ack(conn, ref)

    def _engine(self, step: Callable[[], object], doing: str, blame: tuple[Connection, Any] | None = None) -> bool:
        """Runs an engine step; IllegalAction passes through. Anything else is an engine bug that may have
        damaged the state: the connection to `blame` hears so first, the room is dropped and rebuilt from
        its log, and False is returned."""
        try:
            step()
        except IllegalAction:
            raise
        except Exception as error:
            log.error("room %s: %s failed", self.code, doing, exc_info=error)
            if blame is not None:
                conn, ref = blame
                conn.send(ServerError(Code.SERVER_INTERNAL, "The server failed on this action; the room is reloaded.",
                                      "この操作でサーバーに障害が起きました。ルームを読み込み直します。", 500).frame(ref))
            self.broken = True
            self.hub.drop(self, error)
            return False
        return True

    def _on_entry(self, entry: Entry, events: list[Event]) -> None:
        """Stores and announces a step the session has just applied (the session's `on_entry`)."""
        assert self.session is not None
        source = "wake" if entry.seat is None else "bot" if entry.seat in self.session.bots else "seat"
        self.sources.append(source)
        version = self.history.record(events)
        write = Write(inserts=[(db.log_entries, {
            "room": self.code, "seq": self.seq_offset + version, "at": entry.at, "seat": entry.seat,
            "action": dumps(entry.action) if entry.action is not None else None, "source": source})])
        result = self.session.match.result() if self.session.match.is_over else None
        if result is not None:
            self.status = "over"
            write.updates.append((db.rooms, {"code": self.code}, {"status": "over", "result": dumps(result.to_json())}))
        self._submit(write)
        self.clock.step(time.time(), self._reveal_ms(events), entry.seat if source == "bot" else None)
        if self.delivery.stepped():
            # The updates are built when the committer takes this write into a batch (the state is
            # then at the batch's last version), so several actions of one batch cost one view each.
            self.hub.committer.before_batch(self.delivery.prepare)
        self.scheduler.poke()  # what is due next may have moved (or, once over, nothing is)

    def run_due(self, wall: float) -> None:
        """Does what is due by `wall`: time passing, then the bots' turns (the scheduler calls it with the
        lock held)."""
        session = self.session
        if not self.is_running or session is None:
            return
        now = self._now(wall)
        self._engine(partial(session.catch_up, now), f"waking at {now}")
        if wall >= self.clock.bots_at():
            for seat in session.bots_to_ask():
                # Each bot sees the match as the previous one left it; a crash stops the pass.
                if (self.is_running and seat in session.bots_to_ask()
                        and wall >= self.clock.bot_ready_at(seat, self._live())):
                    self._engine(partial(session.bot_turn, seat, self._now(wall)), f"the bot turn of seat {seat}")

    def next_due(self) -> float | None:
        """When something next falls due on the wall clock: the match's next wake-up, or a bot turn."""
        session = self.session
        if not self.is_running or session is None:
            return None
        return self.clock.next_due(session.match.wake_at(), session.bots_to_ask(), self._live())

    def _live(self) -> bool:
        """Whether the match is in real-time play: seats are awaited but it is nobody's turn (`Match.turns`)."""
        match = self.match
        return match is not None and not match.turns() and bool(match.to_act())

    def stop(self) -> None:
        self.scheduler.stop()

    # -- chat --------------------------------------------------------------------------------------------
    @property
    def match_channels(self) -> bool:
        return self.chat_room.follows_match

    def chat_channels(self) -> Channels:
        """Every channel besides `public` as of the match's current state (lock held by the caller)."""
        return self.chat_room.channels(self.match)

    async def chat(self, conn: Connection, channel: str, text: str) -> None:
        async with self.lock:
            channels, now = self.chat_channels(), time.time()
            try:
                entry = self.chat_room.post(channels, channel, conn.seat, conn.name, text, now)
            except ServerError as error:
                # Sent after pending commits: a match channel may have opened or closed in them.
                self.delivery.send([(conn, error.frame())])
                return
            self._submit(Write(inserts=[(db.chat_messages, {"room": self.code, "channel": channel, "seat": conn.seat,
                                                    "name": conn.name, "text": text, "at": now})]))
            self.delivery.chat(channels, entry)

    # -- lobby -------------------------------------------------------------------------------------------
    async def join(self, name: str, seat: int | None) -> tuple[int, str]:
        async with self.lock:
            if self.status != "open":
                raise not_open()
            seat = seat_to_join(self.seat_infos, seat)
            token = new_token()
            info = self.seat_infos[seat]
            info.name, info.token_hash = name, token_hash(token)
            await self._submit(Write(updates=[(db.seats, {"room": self.code, "seat": seat},
                                               {"name": name, "token_hash": info.token_hash})]))
            self.delivery.send(self.delivery.room_frames())
            return seat, token

    async def fill_bots(self, kind: str) -> None:
        async with self.lock:
            if self.status != "open":
                raise not_open()
            filled = fill_with_bots(self.seat_infos, kind, self.game.bots)
            if filled:
                await self._submit(Write(updates=[(db.seats, {"room": self.code, "seat": seat}, {"kind": "bot", "bot": kind})
                                                  for seat in filled]))
            self.delivery.send(self.delivery.room_frames())

    async def start(self) -> None:
        async with self.lock:
            if self.status != "open":
                raise not_open()
            check_all_taken(self.seat_infos)
            seed = secrets.randbits(62)
            now = time.time()
            await self._submit(Write(updates=[(db.rooms, {"code": self.code}, {
                "status": "playing", "seed": dumps(seed), "started_at": now})]))
            match = self.game.new(self.seats, self.options, seed, bots=bot_kinds(self.seat_infos))
            self.begin(match, now).on_entry = self._on_entry
            delivery = self.delivery
            delivery.send(delivery.room_frames() + delivery.fresh_updates(now) + delivery.channel_frames())
            self.scheduler.poke()

    def next_games(self) -> list[str]:
        """The games the same people may play next in this room (see `series.next_games`)."""
        return next_games(self.game, self.hub.games)

    async def next_match(self, game: Game) -> None:
        """Starts the room's next match once this one is over: the same seats, people and bots, a new seed;
        `game` is this game again or one that follows it, with the options it derives from this result.
        The finished match is kept (`matches`), in the same transaction that starts the next one."""
        async with self.lock:
            match = self.match
            if self.status != "over" or match is None:
                raise ServerError(Code.ROOM_NOT_OVER, "The match is not over yet.", "マッチはまだ終わっていません。", 409)
            finished = Finished(self.code, self.match_number, self.game, self.options, match, self.clock.started_at,
                                self.seq_offset + self.version)
            seed, now = secrets.randbits(62), time.time()
            plan = plan_next(finished, game, self.seat_infos, seed, now)
            await self._submit(plan.write)
            for seat, kind in plan.bots.items():
                self.seat_infos[seat].bot = kind
            options = plan.options
            self.game, self.options = game, options
            self.chat_room.follow(game, options)
            self.match_number += 1
            self.seq_offset = finished.last_seq
            self.history = EventHistory(self.hub.settings.max_catchup)
            self.sources = []
            self.begin(game.new(self.seats, options, seed, bots=bot_kinds(self.seat_infos)), now).on_entry = self._on_entry
            # The room frame first: it tells clients that a new match began (its versions count from 0 again).
            delivery = self.delivery
            delivery.send(delivery.room_frames() + delivery.channel_frames(always=True) + delivery.fresh_updates(now))
            self.scheduler.poke()

    def begin(self, match: Match, started_at: float) -> Session:
        """Sets up a started match (a fresh start, or a reload before its log is replayed into the
        returned session, which stores and announces its steps once `session.on_entry` is set)."""
        self.clock = self._new_clock(started_at)
        self.audiences = [None, *(i for i, s in enumerate(self.seat_infos) if s.kind == "human")]
        self.status = "playing"
        bots = {seat: self.game.make_bot(kind, seat, bot_seed(match.seed, seat))
                for seat, kind in bot_kinds(self.seat_infos).items()}
        self.session = Session(self.game, match, bots, forgive_bots=True)
        return self.session

    def replay_stored(self, entry: Entry, source: str) -> None:
        """Re-applies a stored log entry while the room is rebuilt (before `session.on_entry` is set); the
        reveals it held the clock for are held again, as they were."""
        assert self.session is not None
        events = self.session.replay_entry(entry)
        self.history.record(events)
        self.sources.append(source)
        self.clock.replay_step(entry.at, self._reveal_ms(events))
