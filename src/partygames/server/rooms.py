"""A room: the one authority that changes its seats and its match, built from smaller parts.

Every change goes through `Room.lock`, one at a time; the room keeps its status (open, playing, over),
submits the writes its parts hand it to the committer, and announces what changed. The parts: `RoomLobby`
(seats and host: joining, bots, the check before the start), `RoomMatch` (the match being played: its
`Session`, its clock held while reveals play, its event history, and the rows that store each step),
`Delivery` (connections, and the frames owed to them, which wait in the outbox until the write they show
has committed), `Scheduler` (what happens without a client: time limits, bots), `RoomChat`, and the pure
series planning (`series`). None of them imports this module.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Iterable, Mapping
from typing import Any, Protocol

from partygames.engine.actions import Action
from partygames.engine.errors import IllegalAction
from partygames.engine.game import Game
from partygames.engine.log import Entry
from partygames.engine.match import Event, Match
from partygames.engine.options import Options
from partygames.server.chat import RoomChat, message_write
from partygames.server.committer import Committer
from partygames.server.connections import Connection
from partygames.server.delivery import Delivery
from partygames.server.errors import ServerError, not_open, not_over, not_started
from partygames.server.history import EventHistory
from partygames.server.match_clock import RoomClock
from partygames.server.room_lobby import RoomLobby
from partygames.server.room_match import RoomMatch
from partygames.server.scheduler import Scheduler
from partygames.server.seats import acting_seat
from partygames.server.series import next_games, plan_next
from partygames.server.settings import Settings
from partygames.server.storage import Write


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

    def __init__(self, hub: Host, game: Game, options: Options, lobby: RoomLobby, created_at: float) -> None:
        self.hub = hub
        self.code = lobby.code
        self.game = game
        self.seats = len(lobby.seats)
        self.options = options
        self.lobby = lobby
        self.created_at = created_at
        self.status = "open"
        self.current: RoomMatch | None = None  # the match being played (or the last one, once over)
        self.chat_room = RoomChat(game, self.seats, options, hub.settings.chat_history)
        self.lock = asyncio.Lock()
        self.delivery = Delivery(self, self.chat_room, hub.base_url)
        self.scheduler = Scheduler(self)
        self.broken = False

    # -- what the parts and the app read --------------------------------------------------------------
    @property
    def match(self) -> Match | None:
        return self.current.match if self.current is not None else None

    @property
    def version(self) -> int:
        """The protocol version: how many log entries (actions and wake-ups) the match has applied."""
        return self.current.version if self.current is not None else 0

    @property
    def history(self) -> EventHistory:
        """The current match's recent events (delivery reads them once a match has begun)."""
        return self._begun().history

    @property
    def clock(self) -> RoomClock:
        return self._begun().clock

    def _begun(self) -> RoomMatch:
        assert self.current is not None, f"room {self.code}: no match has begun"
        return self.current

    @property
    def is_running(self) -> bool:
        return self.status == "playing" and not self.broken and self.current is not None

    def to_json(self, base_url: str) -> dict[str, Any]:
        """The room as clients see it (the HTTP API's answers, `welcome` and `room` frames)."""
        conns, current = self.delivery.conns, self.current
        result = current.match.result() if current is not None else None
        return {"code": self.code, "link": f"{base_url.rstrip('/')}/room/{self.code}", "game": self.game.id,
                "title": self.game.title.to_json(), "match": current.number if current is not None else 1,
                "next_games": [{"id": g, "title": self.hub.games[g].title.to_json()} for g in self.next_games()]
                if self.status == "over" else [],
                "options": self.options.to_json(), "status": self.status,
                **self.lobby.to_json(self.game, {c.seat for c in conns}), "version": self.version,
                "spectators": sum(1 for c in conns if c.seat is None), "created_at": self.created_at,
                "result": result.to_json() if result is not None else None}

    def deadline_json(self, now: float) -> dict[str, Any] | None:
        """The current time limit for clients: its phase, length and end on the wall clock."""
        current = self.current
        return current.deadline_json(now) if current is not None and self.status == "playing" else None

    def link(self, base_url: str | None) -> str:
        return f"{(base_url or self.hub.base_url).rstrip('/')}/room/{self.code}"

    # -- storing ---------------------------------------------------------------------------------------
    def _submit(self, write: Write) -> asyncio.Future[None]:
        """Hands `write` to the committer; frames sent from now on wait until it has committed."""
        future = self.hub.committer.submit(write)
        if future is not self.delivery.last_write:  # writes of one batch share a future
            self.delivery.last_write = future
            future.add_done_callback(self._committed)
        return future

    def _committed(self, future: asyncio.Future[None]) -> None:
        if future.exception() is not None and not self.broken:
            self._crashed(future.exception())

    def _crashed(self, error: BaseException | None) -> None:
        """A write failed or the engine crashed (and may have damaged the state): the room is dropped and
        rebuilt from its log."""
        self.broken = True
        self.hub.drop(self, error)

    # -- connections -----------------------------------------------------------------------------------
    async def attach(self, conn: Connection, since: int | None) -> None:
        async with self.lock:
            self.delivery.attach(conn, since)

    async def detach(self, conn: Connection) -> None:
        async with self.lock:
            self.delivery.detach(conn)
            if self.status == "over" and not self.delivery.conns and not self.delivery.dirty:
                self.hub.forget(self)  # finished and unwatched: reloaded from the database when asked for

    async def sync(self, conn: Connection, since: int) -> None:
        async with self.lock:
            if self.match is None:
                raise not_started()
            self.delivery.sync(conn, since)

    # -- play ------------------------------------------------------------------------------------------
    async def act(self, conn: Connection, action: Action, ref: Any, claimed_seat: int | None) -> None:
        async with self.lock:
            try:
                seat = acting_seat(conn.seat, claimed_seat)
                if self.current is None or self.broken:
                    raise not_started()
                if not self.current.act(seat, action, time.time(), blame=(conn, ref)):
                    return
            except ServerError as error:
                self.delivery.send([(conn, error.frame(ref))])
            except IllegalAction as error:
                # Sent after pending commits: the refusal may reflect state nobody has heard of yet.
                self.delivery.send([(conn, {"type": "error", **error.to_json(), "ref": ref})])
            else:
                if ref is not None:
                    self.delivery.ack(conn, ref)

    def _on_entry(self, entry: Entry, events: list[Event]) -> None:
        """Stores and announces a step the match's session has just applied (the session's `on_entry`)."""
        current = self._begun()
        write = current.record(entry, events, time.time())
        if current.match.is_over:
            self.status = "over"
        self._submit(write)
        if self.delivery.stepped():
            # The updates are built when the committer takes this write into a batch (the state is
            # then at the batch's last version), so several actions of one batch cost one view each.
            self.hub.committer.before_batch(self.delivery.prepare)
        self.scheduler.poke()  # what is due next may have moved (or, once over, nothing is)

    def run_due(self, wall: float) -> None:
        """Does what is due by `wall`: time passing, then the bots' turns (the scheduler calls it with the
        lock held)."""
        if self.is_running:
            self._begun().run_due(wall)

    def next_due(self) -> float | None:
        """When something next falls due on the wall clock: the match's next wake-up, or a bot turn."""
        return self._begun().next_due() if self.is_running else None

    def stop(self) -> None:
        self.scheduler.stop()

    # -- chat --------------------------------------------------------------------------------------------
    async def chat(self, conn: Connection, channel: str, text: str) -> None:
        async with self.lock:
            channels, now = self.chat_room.channels(self.match), time.time()
            try:
                entry = self.chat_room.post(channels, channel, conn.seat, conn.name, text, now)
            except ServerError as error:
                # Sent after pending commits: a match channel may have opened or closed in them.
                self.delivery.send([(conn, error.frame())])
                return
            self._submit(message_write(self.code, channel, conn.seat, conn.name, text, now))
            self.delivery.chat(channels, entry)

    # -- lobby -------------------------------------------------------------------------------------------
    async def join(self, name: str, seat: int | None) -> tuple[int, str]:
        """Seats `name` (see `RoomLobby.join`); returns the seat and its token once stored."""
        async with self.lock:
            if self.status != "open":
                raise not_open()
            joined = self.lobby.join(name, seat)
            await self._submit(joined.write)
            self.delivery.send(self.delivery.room_frames())
            return joined.seat, joined.token

    async def fill_bots(self, kind: str) -> None:
        async with self.lock:
            if self.status != "open":
                raise not_open()
            write = self.lobby.fill_bots(kind, self.game.bots)
            if write is not None:
                await self._submit(write)
            self.delivery.send(self.delivery.room_frames())

    async def start(self) -> None:
        async with self.lock:
            if self.status != "open":
                raise not_open()
            seed, now = secrets.randbits(62), time.time()
            await self._submit(self.lobby.start(seed, now))
            self.begin(self.game.new(self.seats, self.options, seed, bots=self.lobby.bot_kinds()), now)
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
            current = self.current
            if self.status != "over" or current is None:
                raise not_over()
            finished = current.finished(self.options)
            seed, now = secrets.randbits(62), time.time()
            plan = plan_next(finished, game, self.lobby.seats, seed, now)
            await self._submit(plan.write)
            self.lobby.change_bots(plan.bots)
            self.game, self.options = game, plan.options
            self.chat_room.follow(game, plan.options)
            self.begin(game.new(self.seats, plan.options, seed, bots=self.lobby.bot_kinds()), now,
                       finished.number + 1, finished.last_seq)
            # The room frame first: it tells clients that a new match began (its versions count from 0 again).
            delivery = self.delivery
            delivery.send(delivery.room_frames() + delivery.channel_frames(always=True) + delivery.fresh_updates(now))
            self.scheduler.poke()

    def begin(self, match: Match, started_at: float, number: int = 1, seq_offset: int = 0,
              stored: Iterable[tuple[Entry, str]] = ()) -> None:
        """Plays `match`, the room's `number`-th: a fresh start, or a reload once its `stored` log (each entry
        with its source) has been replayed into it as it was; from then on its steps are stored and announced."""
        current = self.current = RoomMatch(self.code, self.game, match, self.lobby.seats, started_at, self.hub.settings,
                                           self._crashed, number, seq_offset)
        self.status = "playing"
        for entry, source in stored:
            current.replay(entry, source)
        current.session.on_entry = self._on_entry
