"""A room: its seats, its match session and the one authority that changes them.

Every change goes through `Room.lock`, one at a time. An accepted step (a seat's action, a bot's, or
time passing) is applied by the room's `Session`, stored by the committer, and kept in the event
history; the frames it causes wait in the outbox until that write has committed. What happens without
a client (time limits, bots) is run by the room's `Scheduler`.

The match clock is milliseconds since the match started, on the server's wall clock divided by the
`deadline_scale` setting (tests run time limits faster), less the time it stood still while reveals
played (docs/server.md, Reveals); it never runs backwards.
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
from partygames.engine.errors import IllegalAction, InvalidOptions
from partygames.engine.game import Game
from partygames.engine.log import Entry
from partygames.engine.match import Event, Match
from partygames.engine.options import Options
from partygames.engine.session import Session, bot_seed
from partygames.server import frames
from partygames.server import storage as db
from partygames.server.chat import (
    Channels,
    channel_map,
    channels_for,
    current_channels,
    has_match_channels,
    may_post,
    may_read,
    readable,
)
from partygames.server.codes import Code
from partygames.server.committer import Committer
from partygames.server.connections import Connection
from partygames.server.errors import ServerError, not_open
from partygames.server.history import EventHistory
from partygames.server.outbox import Outbox, Sends
from partygames.server.scheduler import Scheduler
from partygames.server.seats import (
    SeatInfo,
    bot_kinds,
    free_human_seats,
    new_token,
    same_token,
    seat_for_token,
    token_hash,
)
from partygames.server.settings import Settings
from partygames.server.storage import Write, dumps
from partygames.server.text import escape

log = logging.getLogger(__name__)

# The fields of every view that only stamp when it was made (a game adds its own: `Match.VIEW_CLOCK_KEYS`).
STAMPS = frozenset({"version"})
ViewCache = dict[int | None, tuple[str, str]]  # seat -> its view's JSON and content (`Room._view`)


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
        self.started_at: float | None = None
        self.session: Session | None = None
        self.sources: list[str] = []  # per log entry: "seat", "bot", "wake" (older logs: "timer", "clock")
        self.history = EventHistory(hub.settings.max_catchup)
        self.chat_log: list[dict[str, Any]] = []
        self.conns: set[Connection] = set()
        self.lock = asyncio.Lock()
        self.outbox = Outbox()
        self.last_write: asyncio.Future[None] | None = None
        self.scheduler = Scheduler(self)
        self.changed_at = created_at  # wall time of the last step: bots act `bot_delay` after it
        # The match clock stands still while a reveal plays: until `reveal_end` (wall clock), and
        # `reveal_held` seconds in all since the start (the sum of every step's reveal, so a restart
        # derives it from the log).
        self.reveal_end = created_at
        self.reveal_held = 0.0
        self.audiences: list[int | None] = [None]  # who watches reveals: the public and each human seat
        self.broken = False
        self.dirty = False  # accepted entries whose updates are not built yet
        self.pending_acks: dict[Connection, list[Any]] = {}
        self.channels = channel_map(game, seats, options)  # the fixed ones; see `chat_channels()`
        self.match_channels = has_match_channels(game)
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

    def clock(self, wall: float) -> int:
        """The match time at wall-clock time `wall` (ms since the start, scaled, less the reveals; standing
        still while one plays; never backwards)."""
        assert self.session is not None and self.started_at is not None
        running = max(wall, self.reveal_end) - self.started_at - self.reveal_held
        return max(round(running * 1000 / self.hub.settings.deadline_scale), self.session.match.now)

    def wall(self, at: int) -> float:
        """The wall-clock time at which the match clock reaches `at` (not before now), if no other reveal
        holds it on the way."""
        assert self.started_at is not None
        return self.started_at + self.reveal_held + at / 1000 * self.hub.settings.deadline_scale

    def _reveal_seconds(self, events: list[Event]) -> float:
        """How long a step's events take to show: the longest of its audiences' reveals, scaled."""
        return self.game.reveals.cost(events, self.audiences) / 1000 * self.hub.settings.reveal_scale

    def _hold_for_reveal(self, events: list[Event], wall: float) -> None:
        """Holds the match clock and the bots while the events of a step are shown, after those shown
        before."""
        seconds = self._reveal_seconds(events)
        if seconds > 0:
            self.reveal_end = max(self.reveal_end, wall) + seconds
            self.reveal_held += seconds

    def reveal_remaining(self, now: float) -> float | None:
        """Seconds until the reveals announced so far have had their time; None when reveals are not
        paced (`reveal_scale` 0)."""
        if self.hub.settings.reveal_scale <= 0:
            return None
        return round(max(0.0, self.reveal_end - now), 3)

    def to_json(self, base_url: str) -> dict[str, Any]:
        connected = {c.seat for c in self.conns}
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
        """The current time limit for clients: its phase, length and end on the wall clock."""
        match = self.match
        deadline = match.deadline() if match is not None and self.status == "playing" else None
        if deadline is None:
            return None
        ends_at = self.wall(deadline.ends_at)
        return {"phase": deadline.phase, "seconds": deadline.seconds * self.hub.settings.deadline_scale,
                "ends_at": ends_at, "remaining": max(0.0, ends_at - now)}

    def _view(self, seat: int | None, cache: ViewCache) -> tuple[str, str]:
        """The seat's view as JSON, made now (a view may share lists with the state, which moves on), and
        its content: the JSON without the fields that only stamp when it was made (`STAMPS`)."""
        made = cache.get(seat)
        if made is None:
            assert self.match is not None
            made = cache[seat] = frames.view_json(self.match.view(seat), STAMPS | self.match.VIEW_CLOCK_KEYS)
        return made

    def _update(self, conn: Connection, since: int | None, cache: ViewCache, deadline: dict[str, Any] | None,
                acks: list[Any]) -> frames.Frame:
        """An update bringing `conn` from `since` (None: from nothing) to the current version."""
        update = self._news(conn, since, cache, deadline, acks, quiet=False)
        assert update is not None
        return update

    def _news(self, conn: Connection, since: int | None, cache: ViewCache, deadline: dict[str, Any] | None,
              acks: list[Any], quiet: bool) -> frames.Frame | None:
        """`_update`, or with `quiet` None when nothing the seat may know changed (no event for it, no ack,
        the same view content and deadline): a seat is not told that a step it may not see happened
        (issue #9: a private contact). Its next update covers those versions too (their events for it:
        none), so catching up stays exact."""
        version = self.version
        fresh = since is None or not self.history.covers(since)
        if fresh:
            # Someone arriving (a reload, a late spectator) sees how the current race or round went so far.
            events = self.history.recent(conn.seat, self.game.reveals.chapters, self.hub.settings.recent_events)
        else:
            assert since is not None
            events = self.history.events_for(conn.seat, since, version)
        view, content = self._view(conn.seat, cache)
        shown = (content, None if deadline is None else (deadline["phase"], deadline["ends_at"]))
        if quiet and not fresh and not events and not acks and shown == conn.shown:
            return None
        conn.sent_version, conn.shown = version, shown
        return frames.update(version, None if fresh else since, view, events, fresh, acks, deadline,
                             self.reveal_remaining(time.time()))

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

    async def sync(self, conn: Connection, since: int) -> None:
        async with self.lock:
            if self.match is None:
                raise ServerError(Code.ROOM_NOT_STARTED, "The match has not started.", "マッチはまだ始まっていません。", 409)
            self._send([(conn, self._update(conn, since, {}, self.deadline_json(time.time()), []))])

    # -- play ------------------------------------------------------------------------------------------
    async def act(self, conn: Connection, action: Action, ref: Any, claimed_seat: int | None) -> None:
        async with self.lock:
            try:
                seat = conn.seat
                if seat is None:
                    raise ServerError(Code.SEAT_SPECTATOR, "Spectators cannot act.", "観戦者は操作できません。", 403)
                if claimed_seat is not None and claimed_seat != seat:
                    raise ServerError(Code.SEAT_NOT_YOURS, f"Your token is for seat {seat}, not seat {claimed_seat}.",
                                      f"あなたのトークンは席 {seat} のものです(席 {claimed_seat} ではありません)。", 403)
                session = self.session
                if session is None or self.broken:
                    raise ServerError(Code.ROOM_NOT_STARTED, "The match has not started.", "マッチはまだ始まっていません。", 409)
                now = self.clock(time.time())
                # A time limit that passed before this action arrived came first.
                blame = (conn, ref)
                if not (self._engine(partial(session.catch_up, now), "catching up the clock", blame)
                        and self._engine(partial(session.act, seat, action, now), f"applying {action!r} for seat {seat}",
                                         blame)):
                    return
            except ServerError as error:
                self._send([(conn, error.frame(ref))])
            except IllegalAction as error:
                # Sent after pending commits: the refusal may reflect state nobody has heard of yet.
                self._send([(conn, {"type": "error", **error.to_json(), "ref": ref})])
            else:
                if ref is not None:
                    self.pending_acks.setdefault(conn, []).append(ref)  # acked with the update it caused

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
        self.changed_at = time.time()
        self._hold_for_reveal(events, self.changed_at)
        if not self.dirty:
            # The updates are built when the committer takes this write into a batch (the state is
            # then at the batch's last version), so several actions of one batch cost one view each.
            self.dirty = True
            self.hub.committer.before_batch(self._prepare)
        self.scheduler.poke()  # what is due next may have moved (or, once over, nothing is)

    def _prepare(self) -> None:
        """Builds the updates for every version not yet announced; they leave after the last write."""
        if not self.dirty:
            return
        self.dirty = False
        cache: ViewCache = {}
        deadline_json = self.deadline_json(time.time())
        sends: Sends = []
        for conn in self.conns:
            acks = self.pending_acks.pop(conn, [])
            if conn.sent_version == self.version and not acks:
                continue
            since = conn.sent_version if conn.sent_version >= 0 else None
            update = self._news(conn, since, cache, deadline_json, acks, quiet=True)
            if update is not None:
                sends.append((conn, update))
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

    def run_due(self, wall: float) -> None:
        """Does what is due by `wall`: time passing, then the bots' turns (the scheduler calls it with the
        lock held)."""
        session = self.session
        if not self.is_running or session is None:
            return
        now = self.clock(wall)
        self._engine(partial(session.catch_up, now), f"waking at {now}")
        if wall >= self._bots_at():
            for seat in session.bots_to_ask():
                # Each bot sees the match as the previous one left it; a crash stops the pass.
                if self.is_running and seat in session.bots_to_ask():
                    self._engine(partial(session.bot_turn, seat, self.clock(wall)), f"the bot turn of seat {seat}")

    def next_due(self) -> float | None:
        """When something next falls due on the wall clock: the match's next wake-up, or a bot turn."""
        session = self.session
        if not self.is_running or session is None:
            return None
        wake_at = session.match.wake_at()
        due = self.wall(wake_at) if wake_at is not None else None
        if session.bots_to_ask():
            bots_at = self._bots_at()
            due = bots_at if due is None else min(due, bots_at)
        return due

    def _bots_at(self) -> float:
        """Bots act `bot_delay` after the last step, and not before the reveal people watch has ended."""
        return max(self.changed_at + self.hub.settings.bot_delay, self.reveal_end)

    def stop(self) -> None:
        self.scheduler.stop()

    # -- chat --------------------------------------------------------------------------------------------
    def chat_channels(self) -> Channels:
        """Every channel besides `public` as of the match's current state (lock held by the caller)."""
        return current_channels(self.game, self.seats, self.channels, self.match)

    async def chat(self, conn: Connection, channel: str, text: str) -> None:
        async with self.lock:
            channels = self.chat_channels()
            if not may_post(channels, channel, conn.seat):
                # Sent after pending commits: a match channel may have opened or closed in them.
                self._send([(conn, ServerError(Code.CHAT_CHANNEL, f"You cannot post to {channel[:64]!r} now.",
                                               f"チャンネル「{channel[:64]}」には今は投稿できません。", 403).frame())])
                return
            now = time.time()
            entry = {"type": "chat", "channel": channel, "seat": conn.seat, "name": escape(conn.name),
                     "text": escape(text), "at": now}
            self.chat_log.append(entry)
            self._submit(Write(inserts=[(db.chat_messages, {"room": self.code, "channel": channel, "seat": conn.seat,
                                                    "name": conn.name, "text": text, "at": now})]))
            self._send([(c, entry) for c in self.conns if may_read(channels, channel, c.seat)])

    # -- lobby -------------------------------------------------------------------------------------------
    async def join(self, name: str, seat: int | None) -> tuple[int, str]:
        async with self.lock:
            if self.status != "open":
                raise not_open()
            if seat is None:
                free = free_human_seats(self.seat_infos)
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
            now = time.time()
            await self._submit(Write(updates=[(db.rooms, {"code": self.code}, {
                "status": "playing", "seed": dumps(seed), "started_at": now})]))
            match = self.game.new(self.seats, self.options, seed, bots=bot_kinds(self.seat_infos))
            self.begin(match, now).on_entry = self._on_entry
            cache: ViewCache = {}
            deadline_json = self.deadline_json(now)
            self._send(self._room_frames() + [(c, self._update(c, None, cache, deadline_json, [])) for c in self.conns]
                       + self._channel_frames())
            self.scheduler.poke()

    def next_games(self) -> list[str]:
        """The games the same people may play next in this room: this one again, then those that declare
        they follow it (`Game.follows`)."""
        return [self.game.id] + [g.id for g in self.hub.games.values() if self.game.id in g.follows and g.id != self.game.id]

    async def next_match(self, game: Game) -> None:
        """Starts the room's next match once this one is over: the same seats, people and bots, a new seed;
        `game` is this game again or one that follows it, with the options it derives from this result.
        The finished match is kept (`matches`), in the same transaction that starts the next one."""
        async with self.lock:
            match, session = self.match, self.session
            if self.status != "over" or match is None or session is None:
                raise ServerError(Code.ROOM_NOT_OVER, "The match is not over yet.", "マッチはまだ終わっていません。", 409)
            result = match.result()
            assert result is not None
            try:
                options = game.options_after(self.game, result, self.options, self.seats)
            except InvalidOptions as error:
                raise ServerError(Code.OPTIONS_INVALID, error.en, error.ja, 422) from None
            kinds: list[tuple[int, str]] = []  # a bot kind the next game lacks becomes its heuristic bot
            for seat, kind in bot_kinds(self.seat_infos).items():
                if kind not in game.bots:
                    kinds.append((seat, "heuristic" if "heuristic" in game.bots else next(iter(game.bots))))
            last_seq = self.seq_offset + self.version
            seed = secrets.randbits(62)
            now = time.time()
            write = Write(inserts=[(db.matches, {
                "room": self.code, "number": self.match_number, "game": self.game.id,
                "options": dumps(self.options.to_json()), "seed": dumps(match.seed), "bots": dumps(list(match.bot_seats)),
                "started_at": self.started_at, "result": dumps(result.to_json()), "last_seq": last_seq})],
                updates=[(db.rooms, {"code": self.code}, {
                    "game": game.id, "options": dumps(options.to_json()), "status": "playing", "seed": dumps(seed),
                    "started_at": now, "result": None})]
                + [(db.seats, {"room": self.code, "seat": seat}, {"bot": kind}) for seat, kind in kinds])
            await self._submit(write)
            for seat, kind in kinds:
                self.seat_infos[seat].bot = kind
            self.game, self.options = game, options
            self.channels = channel_map(game, self.seats, options)
            self.match_channels = has_match_channels(game)
            self.match_number += 1
            self.seq_offset = last_seq
            self.history = EventHistory(self.hub.settings.max_catchup)
            self.sources = []
            self.pending_acks.clear()
            self.begin(game.new(self.seats, options, seed, bots=bot_kinds(self.seat_infos)), now).on_entry = self._on_entry
            # The room frame first: it tells clients that a new match began (its versions count from 0 again).
            sends = self._room_frames()
            deadline_json = self.deadline_json(now)
            cache: ViewCache = {}
            for conn in self.conns:
                conn.sent_channels = channels_for(self.chat_channels(), conn.seat)
                sends.append((conn, {"type": "channels", "channels": conn.sent_channels}))
                sends.append((conn, self._update(conn, None, cache, deadline_json, [])))
            self._send(sends)
            self.scheduler.poke()

    def begin(self, match: Match, started_at: float) -> Session:
        """Sets up a started match (a fresh start, or a reload before its log is replayed into the
        returned session, which stores and announces its steps once `session.on_entry` is set)."""
        self.started_at, self.changed_at = started_at, started_at
        self.reveal_end, self.reveal_held = started_at, 0.0
        self.audiences = [None, *(i for i, s in enumerate(self.seat_infos) if s.kind == "human")]
        self.status = "playing"
        bots = {seat: self.game.make_bot(kind, seat, bot_seed(match.seed, seat))
                for seat, kind in bot_kinds(self.seat_infos).items()}
        self.session = Session(self.game, match, bots, forgive_bots=True)
        return self.session

    def replay_stored(self, entry: Entry, source: str) -> None:
        """Re-applies a stored log entry while the room is rebuilt (before `session.on_entry` is set); the
        reveals it held the clock for are held again, as they were."""
        assert self.session is not None and self.started_at is not None
        events = self.session.replay_entry(entry)
        self.history.record(events)
        self.sources.append(source)
        self.reveal_held += self._reveal_seconds(events)
        self.reveal_end = self.wall(entry.at)
