"""A room: its seats and its match as this process holds them, built from smaller parts.

Every change goes through `Room.lock`, one at a time. A playing room has one owner among the processes
that serve the database (docs/scaling.md): the owner (`epoch` set: it holds the room's lease under that
fencing epoch) applies actions, runs the bots and time limits, and writes the log; any other process that
has the room in memory follows it (`epoch` None): it reads each new entry from the database when the owner
says it committed (`follow`) and replays it, so that its connections get exactly the stream the owner's
get, and it forwards their actions to the owner (`Host.forward`). Lobby changes (joining, bots, starting,
the next match) are transactions of their own that any process may run (`Host.change_room`); the process
that starts a match owns it.

The parts: `RoomLobby` (seats and host: joining, bots, the check before the start), `RoomMatch` (the match
being played: its `Session`, its clock held while reveals play, its event history, and the rows that
store each step), `Delivery` (connections, and the frames owed to them, which wait in the outbox until the
write they show has committed), `Scheduler` (what happens without a client: time limits, bots),
`RoomChat`, `Presence` and the pure series planning (`series`). None of them imports this module.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from collections.abc import Callable, Hashable, Iterable, Mapping
from typing import Any, Protocol, TypeVar

from partygames.engine.actions import Action
from partygames.engine.errors import IllegalAction
from partygames.engine.game import Game
from partygames.engine.log import Entry
from partygames.engine.match import TIMED_OUT, Event, Match
from partygames.engine.options import Options
from partygames.server.chat import RoomChat, chat_frame, message_write
from partygames.server.codes import Code
from partygames.server.committer import Committer
from partygames.server.connections import Connection
from partygames.server.delivery import Delivery
from partygames.server.errors import ServerError, not_open, not_over, not_started, room_closed
from partygames.server.history import EventHistory
from partygames.server.match_clock import RoomClock
from partygames.server.presence import Presence
from partygames.server.room_lobby import RoomLobby
from partygames.server.room_match import RoomMatch
from partygames.server.scheduler import Scheduler
from partygames.server.seats import SeatInfo, acting_seat, bot_kinds
from partygames.server.series import next_games, plan_next, unseatable
from partygames.server.settings import Settings
from partygames.server.storage import StoredRoom, Write

T = TypeVar("T")


class Sender(Protocol):
    """Whom a room answers: a `Connection` here, or a `RemoteConnection` held by another process."""

    seat: int | None

    def send(self, frame: dict[str, Any]) -> None: ...


class Host(Protocol):
    """What a room needs of the hub that holds it (the hub imports rooms, never the other way)."""

    settings: Settings
    base_url: str
    node: str

    @property
    def alone(self) -> bool:
        """Whether this process serves its database alone (SQLite): nobody else is told of its steps."""

    @property
    def games(self) -> Mapping[str, Game]: ...

    @property
    def committer(self) -> Committer: ...

    def drop(self, room: Room, error: BaseException | None) -> None:
        """Forgets a room whose write failed, whose engine crashed or that another process took over:
        its clients reconnect, and it is rebuilt from its log."""

    def forget(self, room: Room) -> None:
        """Forgets a finished room nobody watches (it is reloaded when asked for)."""

    async def forward(self, room: Room, conn: Connection, seat: int, action: Action, ref: Any) -> None:
        """Hands a connection's action to the process that owns the room."""

    def send_remote(self, node: str, conn: str, frame: dict[str, Any], after: int) -> None:
        """A frame for a connection another process holds, to be sent once that process has shown
        the room's version `after`."""

    def changed(self, room: Room) -> None:
        """The room's presence changed here: the hub stores it (coalesced)."""

    def rate_when_stored(self, stored: asyncio.Future[None], code: str, number: int) -> asyncio.Future[None]:
        """Rates the room's match `number` once `stored`, the write that ended it, has committed; the returned
        future resolves once that is done (or failed: the catch-up rates it then), or fails as `stored` did."""
        ...

    async def change_room(self, code: str, change: Callable[[RoomLobby, str], tuple[Write | None, T]],
                          claim: bool = False) -> tuple[T, Lobbied]:
        """Runs a lobby change on the room as stored; with `claim` this process owns the room from then on."""
        ...


class Lobbied(Protocol):
    """A room's lobby as stored after a lobby change (`Hub.change_room`)."""

    @property
    def lobby(self) -> RoomLobby: ...

    @property
    def status(self) -> str: ...

    @property
    def epoch(self) -> int | None: ...


class RemoteConnection:
    """The sender of an action another process forwarded: what the room tells it goes back there."""

    def __init__(self, room: Room, node: str, conn: str, seat: int | None) -> None:
        self.room = room
        self.node = node
        self.id = conn
        self.seat = seat

    def send(self, frame: dict[str, Any]) -> None:
        self.room.hub.send_remote(self.node, self.id, frame, self.room.version)


class Room:
    """A room as this process holds it. Methods starting with `_`, and `run_due`, expect `lock` to be held."""

    def __init__(self, hub: Host, game: Game, options: Options, lobby: RoomLobby, created_at: float) -> None:
        self.hub = hub
        self.code = lobby.code
        self.game = game
        self.seats = len(lobby.seats)
        self.options = options
        self.lobby = lobby
        self.created_at = created_at
        self.status = "open"  # open, playing, over, closed
        self.private = False
        # A leaver's seat goes to a bot by itself once its person has been away this long or ran out of time
        # while away (`auto_standins`); the host may hand it over by hand then either way.
        self.auto_standin = False
        self.standin_after = 60.0
        self.current: RoomMatch | None = None  # the match being played (or the last one, once over)
        self.chat_room = RoomChat(game, self.seats, options, hub.settings.chat_history)
        self.lock = asyncio.Lock()
        self.delivery = Delivery(self, self.chat_room, hub.base_url, hub.settings.presence_interval)
        self.scheduler = Scheduler(self)
        self.presence = Presence()
        self.broken = False
        self.epoch: int | None = None  # this process owns the room under this fencing epoch; None: it follows
        self.owner: str | None = None  # the owning process (a node id), as last read from the database
        self.followed = not hub.alone  # other processes may follow it: each step's write carries a notice
        self._step: Write | None = None  # the write of the latest step (a forwarded action's ack joins it)

    # -- what the parts and the app read --------------------------------------------------------------
    @property
    def match(self) -> Match | None:
        return self.current.match if self.current is not None else None

    @property
    def version(self) -> int:
        """The room's version: how many log entries (actions and wake-ups) the match has applied."""
        return self.current.version if self.current is not None else 0

    def seen(self, seat: int | None, version: int | None = None) -> int:
        """`seat`'s version (None: the public's): the steps it witnessed (`RoomMatch.seen`)."""
        return self.current.seen(seat, version) if self.current is not None else 0

    def numbering(self, seat: int | None) -> Callable[[int], int] | None:
        return self.current.numbering(seat) if self.current is not None else None

    def step_of(self, seat: int | None, seen: int) -> int | None:
        return self.current.step_of(seat, seen) if self.current is not None else None

    def revealing_from(self, wall: float) -> int | None:
        """The first version whose reveal still plays at `wall` (`RoomMatch.revealing_from`)."""
        return self.current.revealing_from(wall) if self.current is not None and self.status == "playing" else None

    def view_at(self, version: int, seat: int | None) -> dict[str, Any]:
        return self._begun().view_at(version, seat)

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
    def owned(self) -> bool:
        """Whether this process is the room's authority (it holds the lease of a playing room)."""
        return self.epoch is not None

    @property
    def is_running(self) -> bool:
        return self.status == "playing" and self.epoch is not None and not self.broken and self.current is not None

    @property
    def replaced(self) -> dict[int, dict[str, Any]]:
        """Bot seats whose kind the current match's game lacked, with the kind and game they had, as the seats
        store it (`seats.bot_was`: every process and a restarted one say it)."""
        replaced = {}
        for seat, info in enumerate(self.lobby.seats):
            was = json.loads(info.bot_was) if info.bot_was else None
            game = self.hub.games.get(was["game"]) if was else None
            if was and game is not None:  # (a game this process does not serve: not said)
                replaced[seat] = {"bot": was["bot"], "title": game.bot_title(was["bot"]).to_json(),
                                  "game": game.title.to_json()}
        return replaced

    def to_json(self, base_url: str) -> dict[str, Any]:
        """The room as clients see it (the HTTP API's answers, `welcome` and `room` frames)."""
        current = self.current
        result = current.match.result() if current is not None else None
        return {"code": self.code, "link": f"{base_url.rstrip('/')}/room/{self.code}", "game": self.game.id,
                "title": self.game.title.to_json(), "match": current.number if current is not None else 1,
                "next_games": [{"id": g, "title": self.hub.games[g].title.to_json()} for g in self.next_games()]
                if self.status == "over" else [],
                # The games that cannot seat this room, with why ("next game, same people": the host's picker).
                "next_refused": [{"id": g, "title": self.hub.games[g].title.to_json(), "why": why.to_json()}
                                 for g, why in unseatable(self.game, self.hub.games, self.seats)]
                if self.status == "over" else [],
                "options": self.options.to_json(), "status": self.status, "private": self.private,
                **self.lobby.to_json(self.game, self.presence.of, current.timed_out if current is not None else ()),
                "auto_standin": self.auto_standin, "standin_after": self.standin_after, "version": self.seen(None),
                "bots_replaced": [{"seat": seat, "was": was, "now": {"bot": self.lobby.seats[seat].bot, "title": self.game.bot_title(
                    self.lobby.seats[seat].bot or "").to_json()}} for seat, was in sorted(self.replaced.items())],
                "spectators": self.presence.spectators(), "created_at": self.created_at,
                "result": result.to_json() if result is not None else None,
                # The rules summary where its figures follow the options (the medals a player starts with).
                "summary": self.game.summary_for(self.options, self.seats).to_json() if self.game.summary_for else None}

    def presence_shown(self) -> Hashable:
        """What the room's JSON says of who is here (`Delivered.presence_shown`), and of who ran out of time
        (whose seat the host may then hand to a bot)."""
        shown = [tuple(self.presence.of(seat).values()) for seat, info in enumerate(self.lobby.seats)
                 if info.kind == "human"]
        timed_out = tuple(sorted(self.current.timed_out)) if self.current is not None else ()
        return (*shown, self.presence.spectators(), timed_out)

    def deadline_json(self, now: float) -> dict[str, Any] | None:
        """The current time limit for clients: its phase, length and end on the wall clock."""
        current = self.current
        return current.deadline_json(now) if current is not None and self.status == "playing" else None

    def link(self, base_url: str | None) -> str:
        return f"{(base_url or self.hub.base_url).rstrip('/')}/room/{self.code}"

    # -- loading ---------------------------------------------------------------------------------------
    def load(self, stored: StoredRoom, owned: int | None) -> None:
        """Takes the room as stored: its lobby, status and chat, and its match replayed from the log (with
        its bots, if this process owns it under epoch `owned`; else it follows it)."""
        row = stored.row
        self.status, self.private, self.owner = row["status"], bool(row.get("private")), row.get("owner")
        self.auto_standin, self.standin_after = bool(row.get("auto_standin")), float(row.get("standin_after") or 60)
        self.lobby.seats[:] = [SeatInfo.from_row(s) for s in stored.seats]
        self.presence.seen_at.update({s["seat"]: s["seen_at"] for s in stored.seats if s.get("seen_at")})
        self.chat_room.log = [chat_frame(c["channel"], c["seat"], c["name"], c["text"], c["at"]) for c in stored.chat]
        self.epoch = owned if self.status == "playing" else None
        if self.status == "open":
            self.current = None
            return
        match = self.game.new(row["seats"], self.options, json.loads(row["seed"]), bots=bot_kinds(self.lobby.seats))
        self.begin(match, row["started_at"], len(stored.matches) + 1, stored.seq_offset, stored.log)
        self.status = row["status"]
        self.clock.changed_at = time.time()  # bots think again from the reload, as people reconnect
        if self.status != "playing" or not self.owned:
            self.scheduler.stop()
        else:
            self.sync_standins()

    def begin(self, match: Match, started_at: float, number: int = 1, seq_offset: int = 0,
              stored: Iterable[Mapping[str, Any]] = ()) -> None:
        """Plays `match`, the room's `number`-th: a fresh start, or a reload once its `stored` log (`log_entries`
        rows) has been replayed into it as it was; from then on its steps are stored and announced
        (by its owner; a process that follows it replays what the owner stored: `follow`)."""
        current = self.current = RoomMatch(self.code, self.game, match, self.lobby.seats, started_at, self.hub.settings,
                                           self._crashed, number, seq_offset, bots=self.owned)
        self.status = "playing"
        for row in stored:
            current.replay_row(row)
        if self.owned:
            current.session.on_entry = self._on_entry

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
        """A write failed (or another process took the room over) or the engine crashed (and may have
        damaged the state): the room is dropped and rebuilt from its log."""
        self.broken = True
        self.hub.drop(self, error)

    # -- stand-ins ---------------------------------------------------------------------------------------
    def sync_standins(self) -> None:
        """The owner plays the lobby's stand-ins: a bot for each seat that has one, and none for the others."""
        if not self.owned or self.current is None:
            return
        for seat, info in enumerate(self.lobby.seats):
            if info.kind == "human":
                self.current.stand_in(seat, info.standin)
        self.scheduler.poke()

    def may_stand_in(self, seat: int, now: float) -> bool:
        """Whether a bot may take over human seat `seat` now: its person is away (not online) and has run out
        of time in this match, or has been offline `standin_after` seconds."""
        here = self.presence.of(seat)
        if here["state"] == "online":
            return False
        timed_out = self.current is not None and seat in self.current.timed_out
        since = here["since"] if here["since"] is not None else (self.clock.started_at if self.current else now)
        return timed_out or (here["state"] == "offline" and now - since >= self.standin_after)

    async def stand_in(self, seat: int, kind: str | None, check: bool = True) -> None:
        """A bot of `kind` plays seat `seat` while its person is away (None: they play it again). With `check`
        (the host's hand), only once `may_stand_in`; the seat's return takes it back whoever asks."""
        async with self.lock:
            if self.status != "playing":
                raise not_started()
            if check and kind is not None and not self.may_stand_in(seat, time.time()):
                raise ServerError(Code.SEAT_PRESENT, "That seat's player is here: a bot may take over once they have "
                                  "run out of time or been away a while.",
                                  "その席のプレイヤーはいます。時間切れになるか、しばらく離れてからボットに交代できます。", 409)

            def change(lobby: RoomLobby, status: str) -> tuple[Write, None]:
                if status != "playing":
                    raise not_started()
                return lobby.stand_in(seat, kind, self.game.bots), None

            _, after = await self.hub.change_room(self.code, change)
            self.lobby.seats[:] = after.lobby.seats
            self.sync_standins()
            self.delivery.send(self.delivery.room_frames())

    async def auto_standins(self, now: float) -> None:
        """The room's own hand (`auto_standin`, its owner's): a bot for every seat awaited whose person is away
        and may be stood in for (its default kind: the game's heuristic), once the match has run `standin_grace`."""
        if not (self.auto_standin and self.owned and self.status == "playing" and self.current is not None):
            return
        if now - self.current.clock.started_at < self.hub.settings.standin_grace:
            return  # the match's first seconds: people reopen the room a little late after "Play again" or the next game
        awaited = set(self.current.match.to_act())
        kind = "heuristic" if "heuristic" in self.game.bots else next(iter(self.game.bots))
        for seat, info in enumerate(self.lobby.seats):
            if info.kind == "human" and info.standin is None and seat in awaited and self.may_stand_in(seat, now):
                await self.stand_in(seat, kind, check=False)

    async def returned(self) -> None:
        """Seats whose person is back (online) play again without their stand-in: from their next turn."""
        for seat, info in enumerate(self.lobby.seats):
            if info.standin is not None and self.presence.of(seat)["state"] == "online" and self.status == "playing":
                await self.stand_in(seat, None, check=False)

    # -- connections -----------------------------------------------------------------------------------
    async def attach(self, conn: Connection, since: int | None) -> None:
        async with self.lock:
            self.presence.join(conn.seat, conn.away)
            self.delivery.attach(conn, since)
            self.hub.changed(self)
        if conn.seat is not None and self.lobby.seats[conn.seat].standin is not None:
            await self.returned()

    async def detach(self, conn: Connection) -> None:
        async with self.lock:
            if conn not in self.delivery.conns:
                return
            self.presence.leave(conn.seat, conn.away, time.time())
            self.delivery.detach(conn)
            self.hub.changed(self)
            if self.status == "over" and not self.delivery.conns and not self.delivery.dirty:
                self.hub.forget(self)  # finished and unwatched: reloaded from the database when asked for

    async def turn(self, conn: Connection, away: bool) -> None:
        """A connection's page was hidden (`away`: its person stepped away) or shown again."""
        async with self.lock:
            if conn.away != away and conn in self.delivery.conns:
                conn.away = away
                self.presence.turn(conn.seat, away)
                self.hub.changed(self)

    async def sync(self, conn: Connection, since: int) -> None:
        async with self.lock:
            if self.match is None:
                raise not_started()
            self.delivery.sync(conn, since)

    # -- play ------------------------------------------------------------------------------------------
    async def act(self, conn: Connection, action: Action, ref: Any, claimed_seat: int | None) -> None:
        """A connection's action: applied here if this process owns the room, else forwarded to the owner."""
        async with self.lock:
            try:
                seat = acting_seat(conn.seat, claimed_seat)
                if self.status == "closed":
                    raise room_closed()
                if self.current is None or self.broken:
                    raise not_started()
            except ServerError as error:
                self.delivery.send([(conn, error.frame(ref))])
                return
            if self.epoch is not None or self.status != "playing":  # (`owned`, inlined: every action)
                self._act(conn, seat, action, ref)
                return
        await self.hub.forward(self, conn, seat, action, ref)

    async def act_for(self, node: str, conn: str, seat: int, action: Action, ref: Any) -> None:
        """An action another process forwarded from its connection `conn` (the seat it checked)."""
        sender = RemoteConnection(self, node, conn, seat)
        async with self.lock:
            if not self.owned or self.broken or self.current is None:
                sender.send(moved().frame(ref))
                return
            self._act(sender, seat, action, ref)

    def _act(self, conn: Sender, seat: int, action: Action, ref: Any) -> None:
        current = self._begun()
        self._step = None
        try:
            if not current.act(seat, action, time.time(), blame=(conn, ref)):
                return
        except IllegalAction as error:
            # Sent after pending commits: the refusal may reflect state nobody has heard of yet.
            self.delivery.send([(conn, {"type": "error", **error.to_json(), "ref": ref})])
            return
        if ref is None:
            return
        if isinstance(conn, RemoteConnection):
            # Its process acknowledges it with the update of the step, once the notice of the commit arrives.
            assert self._step is not None and self._step.notice is not None
            self._step.notice["acks"].append([conn.node, conn.id, ref])
        else:
            assert isinstance(conn, Connection)
            self.delivery.ack(conn, ref)

    def _on_entry(self, entry: Entry, events: list[Event]) -> None:
        """Stores and announces a step the match's session has just applied (the session's `on_entry`)."""
        current = self._begun()
        assert self.epoch is not None, f"room {self.code}: only its owner records steps"
        wall = time.time()
        write = current.record(entry, events, wall, self.epoch)
        if self.followed:  # the processes following the room are told of the step once it is stored
            write.notice = {"k": "log", "seq": current.last_seq, "acks": [], "t": wall}
        if current.match.is_over:
            # Its write gives the room up (no lease to renew any more): whoever starts the next match owns that.
            self.status, self.epoch = "over", None
        self._step = write
        stored = self._submit(write)
        if current.match.is_over:
            # Rated once stored; what is sent from now on (the end's updates) waits for that too.
            self.delivery.last_write = self.hub.rate_when_stored(stored, self.code, current.number)
        if entry.seat is None and any(e.type == TIMED_OUT for e in events):
            self.delivery.presence_changed()  # the room's seats say so (the host may hand the seat to a bot)
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

    # -- following the owner ---------------------------------------------------------------------------
    def follow(self, entries: list[dict[str, Any]], acks: list[list[Any]]) -> None:
        """Replays the log entries the owner has stored since this process last did (those of this match),
        then announces them, acknowledging its connections' forwarded actions among them (`acks`:
        [node, connection id, ref])."""
        current = self.current
        if current is None or self.owned:
            return
        moved, timed_out = False, len(current.timed_out)
        for row in entries:
            if row["seq"] <= current.last_seq or current.match.is_over:
                continue  # already replayed, or the next match's (a `room` notice reloads it)
            if row["seq"] != current.last_seq + 1:
                break  # a gap: the next notice (or the next poll) reads again from here
            current.replay_row(row)
            moved = True
        if current.match.is_over:
            self.status = "over"
        if len(current.timed_out) != timed_out:
            self.delivery.presence_changed()
        mine = {c.id: c for c in self.delivery.conns}
        for node, conn, ref in acks:
            if node == self.hub.node and conn in mine:
                self.delivery.ack(mine[conn], ref)
        if moved or acks:
            self.delivery.stepped()
            self.delivery.prepare()
            if self.status == "over":
                self.delivery.send(self.delivery.room_frames())

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
            write = message_write(self.code, channel, conn.seat, conn.name, text, now)
            write.room, write.notice = self.code, {"k": "chat", "node": self.hub.node, "entry": entry}
            self._submit(write)
            self.delivery.chat(channels, entry)

    def heard(self, entry: dict[str, Any]) -> None:
        """A chat message another process stored: to the connections here that may read it."""
        self.chat_room.log.append(entry)
        self.delivery.chat(self.chat_room.channels(self.match), entry)

    # -- lobby -------------------------------------------------------------------------------------------
    async def join(self, name: str, seat: int | None) -> tuple[int, str]:
        """Seats `name` (see `RoomLobby.join`) in a transaction of its own (any process may: the room's row
        is locked while its seats are read and changed); returns the seat and its token once stored."""

        def join(lobby: RoomLobby, status: str) -> tuple[Write, tuple[int, str]]:
            if status != "open":
                raise not_open()
            joined = lobby.join(name, seat)
            return joined.write, (joined.seat, joined.token)

        seated: tuple[int, str] = await self._change(join)
        return seated

    async def fill_bots(self, kind: str) -> None:
        def fill(lobby: RoomLobby, status: str) -> tuple[Write | None, None]:
            if status != "open":
                raise not_open()
            return lobby.fill_bots(kind, self.game.bots), None

        await self._change(fill)

    async def _change(self, change: Callable[[RoomLobby, str], tuple[Write | None, Any]]) -> Any:
        """Runs a lobby change on the room as stored (the hub locks its row), then takes the seats as they
        are now and tells everyone here (other processes hear it from the database's notice)."""
        async with self.lock:
            result, after = await self.hub.change_room(self.code, change)
            self.lobby.seats[:] = after.lobby.seats
            self.status = after.status
            self.delivery.send(self.delivery.room_frames())
            return result

    async def start(self) -> None:
        """Starts the first match (refused while a seat is free): this process owns it from now on."""
        async with self.lock:
            seed, now = self.new_seed(), time.time()

            def start(lobby: RoomLobby, status: str) -> tuple[Write, None]:
                if status != "open":
                    raise not_open()
                return lobby.start(seed, now), None

            _, after = await self.hub.change_room(self.code, start, claim=True)
            self.lobby.seats[:] = after.lobby.seats
            self.epoch = after.epoch
            self.begin(self.game.new(self.seats, self.options, seed, bots=self.lobby.bot_kinds()), now)
            delivery = self.delivery
            delivery.send(delivery.room_frames() + delivery.fresh_updates(now) + delivery.channel_frames())
            self.scheduler.poke()

    def new_seed(self) -> int:
        """A new match's seed: random, or the `match_seed` setting plus the matches this room has played."""
        fixed = self.hub.settings.match_seed
        return secrets.randbits(62) if fixed is None else fixed + (self.current.number if self.current else 0)

    def next_games(self) -> list[str]:
        """The games the same people may play next in this room (see `series.next_games`)."""
        return next_games(self.game, self.hub.games, self.seats)

    async def next_match(self, game: Game, given: Mapping[str, Any] | None = None) -> None:
        """Starts the room's next match once this one is over: the same seats, people and bots, a new seed;
        `game` is this game again, one that follows it (with the options it derives from this result) or any
        game that seats them (its defaults fitted to the seats); `given`: options a tournament's stage sets.
        The finished match is kept (`matches`), in the same transaction that starts the next one; this
        process owns the new match."""
        async with self.lock:
            current = self.current
            if self.status != "over" or current is None:
                raise not_over()
            finished = current.finished(self.options)
            seed, now = self.new_seed(), time.time()
            plan = plan_next(finished, game, self.lobby.seats, seed, now, given)

            def next_match(lobby: RoomLobby, status: str) -> tuple[Write, None]:
                if status != "over":
                    raise not_over()
                return plan.write, None

            _, after = await self.hub.change_room(self.code, next_match, claim=True)
            self.epoch = after.epoch
            # A bot kind the next game lacks is said, not silently renamed (docs/server.md, Series): as stored.
            for seat, info in enumerate(self.lobby.seats):
                info.bot_was = plan.bot_was.get(seat)
            self.lobby.change_bots(plan.bots)
            for info in self.lobby.seats:  # a new match: nobody is stood in for until its grace has passed
                info.standin = None
            self.game, self.options = game, plan.options
            self.chat_room.follow(game, plan.options)
            self.begin(game.new(self.seats, plan.options, seed, bots=self.lobby.bot_kinds()), now,
                       finished.number + 1, finished.last_seq)
            # The room frame first: it tells clients that a new match began (its versions count from 0 again).
            delivery = self.delivery
            delivery.send(delivery.room_frames() + delivery.channel_frames(always=True) + delivery.fresh_updates(now))
            self.scheduler.poke()


def moved() -> ServerError:
    return ServerError(Code.ROOM_MOVED, "The room moved to another server process; try again.",
                       "ルームが別のサーバープロセスに移りました。もう一度どうぞ。", 409)

