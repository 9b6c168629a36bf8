"""A room's delivery on its own (no server): each connection is sent what its seat may see since it was
last sent, with its acks, once the write it depends on is stored, and never if that write failed."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from typing import Any, cast

from starlette.websockets import WebSocket

from partygames.engine.match import Event, Match
from partygames.server.chat import Channel, Channels, RoomChat
from partygames.server.connections import Connection
from partygames.server.delivery import Delivery
from partygames.server.history import EventHistory
from partygames.server.match_clock import RoomClock
from partygames.server.settings import Settings
from tests.server.loops import run
from tests.toy_game import GAME as TOY


class ToyChat(RoomChat):
    """The toy game's chat, with the channels the match gives set by hand (`now`)."""

    def __init__(self) -> None:
        super().__init__(TOY, 2, TOY.options_class.parse({}), per_channel=5)
        self.now = Channels({}, 0)

    def channels(self, match: Match | None) -> Channels:
        return self.now


@dataclass
class ToyRoom:
    """The parts of a room delivery reads, held by hand around a real toy match."""

    match: Match
    status: str = "playing"
    history: EventHistory = field(default_factory=lambda: EventHistory(keep=50))
    clock: RoomClock = field(default_factory=lambda: RoomClock(0.0, reveal_scale=0.0))
    chat: ToyChat = field(default_factory=ToyChat)
    delivery: Delivery | None = None  # (set once made: who is here is read from its connections)
    game = TOY

    def presence_shown(self) -> tuple[frozenset[int], int]:
        conns = self.delivery.conns if self.delivery is not None else set()
        return frozenset(c.seat for c in conns if c.seat is not None), sum(1 for c in conns if c.seat is None)

    @property
    def version(self) -> int:
        return self.history.version

    # Every step is public here: each seat numbers them as the room does.
    def seen(self, seat: int | None, version: int | None = None) -> int:
        return self.version if version is None else version

    def numbering(self, seat: int | None) -> None:
        return None

    def step_of(self, seat: int | None, seen: int) -> int | None:
        return seen if 0 <= seen <= self.version else None

    def to_json(self, base_url: str) -> dict[str, Any]:
        return {"code": "TOYTOY", "status": self.status, "link": f"{base_url}/room/TOYTOY"}

    def link(self, base_url: str | None) -> str:
        return f"{base_url or 'http://host'}/room/TOYTOY"

    def deadline_json(self, now: float) -> dict[str, Any] | None:
        return None

    def revealing_from(self, wall: float) -> int | None:
        return None  # (reveals are not paced here)

    def view_at(self, version: int, seat: int | None) -> dict[str, Any]:
        raise AssertionError("only asked while a reveal plays")


def connect(delivery: Delivery, seat: int | None, sent_version: int = 0) -> Connection:
    conn = Connection(cast(WebSocket, None), seat, f"seat {seat}", Settings(database_url="sqlite://"))
    conn.sent_version, conn.sent_channels = sent_version, ["public"]  # as the welcome frame told it
    delivery.conns.add(conn)
    return conn


def sent(conn: Connection) -> list[dict[str, Any]]:
    frames = conn.queued()
    assert all(f is not None for f in frames)
    return cast(list[dict[str, Any]], frames)


def events(update: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    return [(e["type"], e["data"]) for e in map(json.loads, update["events"])]


def toy_room() -> tuple[ToyRoom, Delivery]:
    room = ToyRoom(TOY.new(2, TOY.options_class.parse({}), seed=7))
    room.delivery = Delivery(room, room.chat, "http://host")
    return room, room.delivery


def test_each_connection_gets_its_seat_s_events_and_acks_once_the_write_is_stored() -> None:
    async def scenario() -> None:
        room, delivery = toy_room()
        mine, theirs, watcher = connect(delivery, 0), connect(delivery, 1), connect(delivery, None, sent_version=-1)
        room.match.apply(0, {"type": "bid", "amount": 3}, 0)
        room.history.record([Event("dealt", {"card": 3}, to=(0,)), Event("bid_sealed", {"seat": 0})])
        delivery.ack(mine, "a1")
        assert delivery.stepped() and not delivery.stepped()  # one build per batch, however many steps
        write: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        delivery.last_write = write
        delivery.prepare()
        assert sent(mine) == sent(theirs) == sent(watcher) == []  # nothing before the write is stored
        write.set_result(None)
        await asyncio.sleep(0)  # the outbox hears of the commit
        [update] = sent(mine)
        assert update["version"] == 1 and update["since"] == 0 and update["acks"] == ["a1"]
        assert events(update) == [("dealt", {"card": 3}), ("bid_sealed", {"seat": 0})]
        assert json.loads(update["view"]) == room.match.view(0) and json.loads(update["view"])["my_bid"] == 3
        [other] = sent(theirs)
        assert events(other) == [("bid_sealed", {"seat": 0})] and other["acks"] == []
        assert json.loads(other["view"])["my_bid"] is None
        [fresh] = sent(watcher)  # it had nothing yet: a fresh view with the recent public events
        assert fresh["fresh"] and fresh["since"] is None and events(fresh) == [("bid_sealed", {"seat": 0})]
        assert mine.sent_version == theirs.sent_version == watcher.sent_version == 1
        delivery.prepare()  # nothing new: nothing sent
        assert sent(mine) == sent(theirs) == []

    run(scenario)


def test_frames_of_a_write_that_failed_are_never_sent() -> None:
    async def scenario() -> None:
        room, delivery = toy_room()
        conn = connect(delivery, 0)
        room.history.record([Event("bid_sealed", {"seat": 0})])
        delivery.stepped()
        write: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        delivery.last_write = write
        delivery.send(delivery.room_frames())  # the updates owed go first, then the room frame
        write.set_exception(RuntimeError("disk full"))
        await asyncio.sleep(0)
        assert sent(conn) == []

    run(scenario)


def test_a_connection_up_to_date_gets_an_update_only_for_its_acks() -> None:
    _room, delivery = toy_room()
    idle, acked = connect(delivery, 0), connect(delivery, 1)
    delivery.ack(acked, 9)
    delivery.stepped()
    delivery.prepare()  # no write pending: sent at once
    assert sent(idle) == []
    [update] = sent(acked)
    assert update["acks"] == [9] and update["events"] == [] and update["version"] == 0
    assert delivery.pending_acks == {}


def test_room_frames_carry_each_client_s_own_link_and_follow_updates_once_over() -> None:
    room, delivery = toy_room()
    conn = connect(delivery, 0)
    conn.base_url = "http://192.168.1.9:8000"
    room.status = "over"
    room.history.record([Event("revealed", {"bids": [3, 5]})])
    delivery.stepped()
    delivery.prepare()
    update, frame = sent(conn)
    assert update["type"] == "update" and frame["type"] == "room"
    assert frame["room"]["link"] == "http://192.168.1.9:8000/room/TOYTOY"


def test_channels_frames_only_when_a_seat_s_channels_change_or_a_match_begins() -> None:
    room, delivery = toy_room()
    even, odd = connect(delivery, 0), connect(delivery, 1)
    room.chat.follows_match = True
    room.chat.now = Channels({"even": Channel((0,))}, 0)
    assert delivery.channel_frames() == [(even, {"type": "channels", "channels": ["public", "even"]})]
    assert even.sent_channels == ["public", "even"]
    assert delivery.channel_frames() == []  # no change since
    room.chat.now = Channels({"even": Channel((0,), open=False)}, 0)
    assert delivery.channel_frames() == [(even, {"type": "channels", "channels": ["public"]})]
    room.chat.follows_match = False
    assert delivery.channel_frames() == []
    assert sorted(f["channels"] == ["public"] for _, f in delivery.channel_frames(always=True)) == [True, True]
    assert odd.sent_channels == ["public"]


def test_a_newcomer_is_welcomed_with_the_room_its_chat_and_an_update_and_the_others_hear_it_came() -> None:
    room, delivery = toy_room()
    there = connect(delivery, 1)
    room.chat.post(room.chat.now, "public", 1, "Ren", "hi", at=1.0)
    room.history.record([Event("bid_sealed", {"seat": 1})])
    newcomer = Connection(cast(WebSocket, None), 0, "<Aki>", Settings(database_url="sqlite://"))
    delivery.attach(newcomer, None)
    welcome, message, update = sent(newcomer)
    assert welcome == {"type": "welcome", "seat": 0, "name": "&lt;Aki&gt;", "channels": ["public"],
                       "room": {"code": "TOYTOY", "status": "playing", "link": "http://host/room/TOYTOY"}}
    assert message["text"] == "hi" and update["fresh"] and events(update) == [("bid_sealed", {"seat": 1})]
    assert [f["type"] for f in sent(there)] == ["room"]  # (presence_interval 0: at once)
    delivery.chat(room.chat.now, {"type": "chat", "channel": "public", "text": "yo"})
    assert sent(newcomer)[0]["text"] == sent(there)[0]["text"] == "yo"
    delivery.detach(newcomer)
    assert newcomer not in delivery.conns and [f["type"] for f in sent(there)] == ["room"] and sent(newcomer) == []


def test_presence_is_announced_once_per_interval_and_only_to_those_shown_other_presence() -> None:
    async def scenario() -> None:
        room = ToyRoom(TOY.new(2, TOY.options_class.parse({}), seed=7))
        delivery = room.delivery = Delivery(room, room.chat, "http://host", presence_interval=0.05)
        settings = Settings(database_url="sqlite://")
        host = Connection(cast(WebSocket, None), 0, "Aki", settings)
        delivery.attach(host, None)  # the first change is announced at once (to nobody else here)
        assert [f["type"] for f in sent(host)] == ["welcome", "update"]
        for _ in range(5):  # a visitor comes and goes within the interval: nobody hears of it
            visitor = Connection(cast(WebSocket, None), None, "v", settings)
            delivery.attach(visitor, None)
            delivery.detach(visitor)
        late = Connection(cast(WebSocket, None), None, "w", settings)
        delivery.attach(late, None)
        assert sent(host) == []
        await asyncio.sleep(0.08)
        [frame] = sent(host)  # one frame, showing who is here once the interval is over
        assert frame["type"] == "room" and host.presence == (frozenset({0}), 1)
        assert [f["type"] for f in sent(late)] == ["welcome", "update"]  # its welcome showed it already

    run(scenario)
