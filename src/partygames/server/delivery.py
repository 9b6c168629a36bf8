"""What a room owes its connections, and getting it to them only once it is stored.

A room's `Delivery` holds its connections and builds their frames: an `update` per connection (the view
at the current version, the events that connection's seat may see since the version it was last sent, the
ids it acknowledges), `room` frames, and `channels` frames when the match changes where a seat may post.
Every frame goes through the `Outbox` after the room's latest pending write. Updates are built lazily: an
accepted step only marks the delivery dirty, and `prepare` builds one update per connection just before the
committer takes the next batch (docs/server.md). This is the one place match data leaves a room:
`match.view(seat)` and the history's events for the connection's seat (spectators: None).
"""

from __future__ import annotations

import asyncio
import functools
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, Protocol

from partygames.engine.game import Game
from partygames.engine.match import Match
from partygames.server import frames
from partygames.server.chat import Channels, RoomChat, channels_for, may_read
from partygames.server.connections import Connection
from partygames.server.history import EventHistory
from partygames.server.match_clock import RoomClock
from partygames.server.outbox import Outbox, Sends
from partygames.server.text import escape

# The fields of every view that only stamp when it was made (a game adds its own: `Match.VIEW_CLOCK_KEYS`).
STAMPS = frozenset({"version"})


@functools.cache
def stamps_of(match_class: type[Match]) -> tuple[str, ...]:
    """A game's stamps, in the order they lead its views' JSON (worked out once per game, not per view)."""
    return tuple(sorted(STAMPS | match_class.VIEW_CLOCK_KEYS))


ViewCache = dict[int | None, tuple[str, str]]  # seat -> its view's JSON and content (`Delivery._view`)


@dataclass
class Moment:
    """What the updates built at one moment share: the room's version and event history, the time limit
    and the reveal still playing then, and each seat's view (made once per seat: `Delivery._view`)."""

    version: int
    history: EventHistory
    deadline: dict[str, Any] | None
    reveal: float | None
    views: ViewCache = field(default_factory=dict)


class Delivered(Protocol):
    """What delivery reads of its room (a `Room`)."""

    game: Game
    status: str

    @property
    def match(self) -> Match | None: ...

    @property
    def history(self) -> EventHistory:
        """The match's recent events (read only once a match has begun)."""

    @property
    def clock(self) -> RoomClock:
        """The match's clock (read only once a match has begun)."""

    @property
    def version(self) -> int: ...

    def numbering(self, seat: int | None) -> Callable[[int], int] | None:
        """The room's versions as `seat` numbers them (None: the same)."""

    def step_of(self, seat: int | None, seen: int) -> int | None:
        """The room's version once `seat` had witnessed `seen` steps (None: not that many)."""

    def to_json(self, base_url: str) -> dict[str, Any]: ...

    def presence_shown(self) -> Hashable:
        """What the room's JSON says of who is here (each seat online, away or offline since when; how many
        spectators): a connection shown something else is sent a new `room` frame."""

    def link(self, base_url: str | None) -> str: ...

    def deadline_json(self, now: float) -> dict[str, Any] | None: ...

    def revealing_from(self, wall: float) -> int | None:
        """The first version whose reveal still plays at `wall` (None: none)."""

    def view_at(self, version: int, seat: int | None) -> dict[str, Any]:
        """`seat`'s view as it was at the room's `version`."""


class Delivery:
    """What room `room` owes its connections; `chat`, the room's, says who may read and post where."""

    def __init__(self, room: Delivered, chat: RoomChat, base_url: str, presence_interval: float = 0.0) -> None:
        self.room = room
        self.chat_room = chat
        self.base_url = base_url
        self.presence_interval = presence_interval
        self._presence_sent = -presence_interval  # when presence was last announced (monotonic)
        self._presence_due: asyncio.TimerHandle | None = None
        self.conns: set[Connection] = set()
        self.outbox = Outbox()
        self.last_write: asyncio.Future[None] | None = None  # frames made now leave once it has committed
        self.pending_acks: dict[Connection, list[Any]] = {}
        self.dirty = False  # accepted entries whose updates are not built yet

    def channels(self) -> Channels:
        """Every chat channel besides `public` as of the match's current state."""
        return self.chat_room.channels(self.room.match)

    def attach(self, conn: Connection, since: int | None) -> None:
        """Welcomes a connection (its seat, the room, where it may post, the chat kept for it, and an update
        from `since` once a match runs). The others hear that it came with the room's next presence frame
        (coalesced by the hub: connection churn costs one room frame per interval, not one per socket)."""
        self.prepare()  # updates owed to the others are built without the newcomer
        self.conns.add(conn)
        room, channels = self.room, self.channels()
        conn.sent_channels = channels_for(channels, conn.seat)
        sends: Sends = [(conn, {"type": "welcome", "seat": conn.seat, "name": escape(conn.name),
                                "room": {**room.to_json(self.base_url), "link": room.link(conn.base_url)},
                                "channels": conn.sent_channels})]
        conn.presence = self.presence()  # what its welcome shows
        sends += [(conn, entry) for entry in self.chat_room.kept_for(channels, conn.seat)]
        if room.match is not None:
            sends += self.arrival(conn, self._since(conn, since), time.time())
        self.send(sends)
        self.presence_changed()

    def arrival(self, conn: Connection, since: int | None, now: float) -> Sends:
        """The update(s) for a connection arriving at `now` from the room's version `since`. Someone who needs a
        fresh update (a reload, a late spectator) while a reveal plays gets the match as it was before that
        reveal, then its events as a normal update: their stage plays what the others' stage plays (shortened
        to end with it), and no part of their screen runs ahead of it (docs/server.md, Reveals)."""
        moment = self.moment(now)
        history = moment.history
        start = self.room.revealing_from(now) if since is None or not history.covers(since) else None
        if start is None or start < 1 or not history.covers(start - 1):
            return [(conn, self.update(conn, since, moment, []))]
        before, seat = start - 1, conn.seat
        number = self.room.numbering(seat)
        seen = before if number is None else number(before)
        view, match = self.room.view_at(before, seat), self.room.match
        assert match is not None
        view_json, _ = frames.view_json({**view, "version": seen}, stamps_of(type(match)))
        first = frames.update(seen, None, view_json, history.events_for(seat, history.base, before, number), True, [],
                              None, moment.reveal)
        then = self.update(conn, before, moment, [])
        then["apart"] = True  # (never merged into the fresh one before it: its events are to be played)
        return [(conn, first), (conn, then)]

    def detach(self, conn: Connection) -> None:
        self.conns.discard(conn)
        self.presence_changed()

    def presence(self) -> Hashable:
        """Who is here, as a room frame shows it (`Delivered.presence_shown`)."""
        return self.room.presence_shown()

    def presence_changed(self) -> None:
        """A connection came or went. The others hear of it in `room` frames, at most once every
        `presence_interval` seconds (at once if the last was longer ago), and only those shown other
        presence than there is then: a client connecting and closing in a loop costs the room one frame
        per connection per interval, not one per connection per visit (issue #21, item 4)."""
        if self._presence_due is not None:
            return
        wait = self._presence_sent + self.presence_interval - time.monotonic()
        if wait <= 0:
            self.announce_presence()
        else:
            self._presence_due = asyncio.get_running_loop().call_later(wait, self.announce_presence)

    def announce_presence(self) -> None:
        """`room` frames to the connections whose last room frame (or welcome) showed other presence."""
        self._presence_due = None
        self._presence_sent = time.monotonic()
        sends = self.room_frames(stale_only=True)
        if sends:
            self.send(sends)

    def sync(self, conn: Connection, since: int) -> None:
        """Catches a connection up from `since` (its own version)."""
        self.send([(conn, self.update(conn, self._since(conn, since), self.moment(time.time()), []))])

    def _since(self, conn: Connection, since: int | None) -> int | None:
        """The room's version a connection's own `since` stands for (None: unknown, so a fresh update)."""
        return None if since is None else self.room.step_of(conn.seat, since)

    def chat(self, channels: Channels, entry: dict[str, Any]) -> None:
        """A chat message to every connection that may read its channel."""
        self.send([(c, entry) for c in self.conns if may_read(channels, entry["channel"], c.seat)])

    def send(self, sends: Sends) -> None:
        self.prepare()  # what is owed to clients goes first, in order
        self.outbox.put(self.last_write, sends)

    def ack(self, conn: Connection, ref: Any) -> None:
        """`ref` is acknowledged with the update its action caused."""
        self.pending_acks.setdefault(conn, []).append(ref)

    def stepped(self) -> bool:
        """The match moved on: returns True when the updates now owed must be built (`prepare`) before
        the next batch, False when that is arranged already."""
        if self.dirty:
            return False
        self.dirty = True
        return True

    def prepare(self) -> None:
        """Builds the updates for every version not yet announced; they leave after the last write."""
        if not self.dirty:
            return
        self.dirty = False
        moment = self.moment(time.time())
        version = moment.version
        sends: Sends = []
        for conn in self.conns:
            acks = self.pending_acks.pop(conn, [])
            if conn.sent_version == version and not acks:
                continue
            since = conn.sent_version if conn.sent_version >= 0 else None
            update = self.news(conn, since, moment, acks, quiet=True)
            if update is not None:
                sends.append((conn, update))
        self.pending_acks.clear()
        sends.extend(self.channel_frames())
        if self.room.status == "over":
            sends.extend(self.room_frames())
        self.outbox.put(self.last_write, sends)

    def moment(self, now: float) -> Moment:
        """What the updates built at `now` share (a match has begun)."""
        room = self.room
        return Moment(room.version, room.history, room.deadline_json(now), room.clock.reveal_remaining(now))

    def update(self, conn: Connection, since: int | None, moment: Moment, acks: list[Any]) -> frames.Frame:
        """An update bringing `conn` from the room's version `since` (None: from nothing) to `moment`'s."""
        update = self.news(conn, since, moment, acks, quiet=False)
        assert update is not None
        return update

    def news(self, conn: Connection, since: int | None, moment: Moment, acks: list[Any],
             quiet: bool) -> frames.Frame | None:
        """`update`, or with `quiet` None when nothing the seat may know changed (no event for it, no ack,
        the same view content and deadline): a seat is not told that a step it may not see happened
        (issue #9: a private contact). Its next update covers those versions too (their events for it:
        none), so catching up stays exact."""
        version, history, deadline, seat = moment.version, moment.history, moment.deadline, conn.seat
        number = self.room.numbering(seat)  # versions as this connection counts them: the steps it witnessed
        seen = version if number is None else number(version)
        fresh = since is None or not history.covers(since)
        if fresh:
            # Someone arriving (a reload, a late spectator) sees the match's history so far, as far as it is kept.
            events = history.recent(seat, number=number)
        else:
            assert since is not None
            events = history.events_for(seat, since, version, number)
        view, content = self._view(seat, seen, moment.views)
        shown = (content, None if deadline is None else (deadline["phase"], deadline["ends_at"]))
        if quiet and not fresh and not events and not acks and shown == conn.shown:
            return None
        conn.sent_version, conn.shown = version, shown
        seen_since = None if fresh or since is None else since if number is None else number(since)
        return frames.update(seen, seen_since, view, events, fresh, acks, deadline, moment.reveal)

    def _view(self, seat: int | None, seen: int, cache: ViewCache) -> tuple[str, str]:
        """The seat's view as JSON, made now (a view may share lists with the state, which moves on), and
        its content: the JSON without the fields that only stamp when it was made (`STAMPS`). Its `version`
        is `seen`, the seat's own (the room's version as `Delivered.numbering` counts it for the seat)."""
        made = cache.get(seat)
        if made is None:
            match = self.room.match
            assert match is not None
            view = match.view(seat)
            if seen != view["version"]:
                view = {**view, "version": seen}
            made = cache[seat] = frames.view_json(view, stamps_of(type(match)))
        return made

    def fresh_updates(self, now: float) -> Sends:
        """A fresh update for every connection (a match has just begun)."""
        self.pending_acks.clear()
        moment = self.moment(now)
        return [(c, self.update(c, None, moment, [])) for c in self.conns]

    def room_frames(self, stale_only: bool = False) -> Sends:
        """A `room` frame for every connection (`stale_only`: those shown other presence than there is now)."""
        presence = self.presence()
        stale = [c for c in self.conns if c.presence != presence] if stale_only else list(self.conns)
        if not stale:
            return []
        room = self.room.to_json(self.base_url)
        sends: Sends = []
        for conn in stale:
            conn.presence = presence
            # The share link: the configured public address (Connection.base_url).
            sends.append((conn, {"type": "room", "room": {**room, "link": self.room.link(conn.base_url)}}))
        return sends

    def channel_frames(self, always: bool = False) -> Sends:
        """`channels` frames for the connections whose postable channels the match has just changed (every
        connection's, `always`)."""
        if not (self.chat_room.follows_match or always):
            return []
        channels = self.channels()
        sends: Sends = []
        for conn in self.conns:
            mine = channels_for(channels, conn.seat)
            if always or mine != conn.sent_channels:
                conn.sent_channels = mine
                sends.append((conn, {"type": "channels", "channels": mine}))
        return sends
