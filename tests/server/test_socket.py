"""The room WebSocket against a real server: seats and tokens, versions, reconnection, validation."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from tests.server.client import Lobby, Socket, human_room
from tests.server.live import LiveServer

BID = {"type": "bid", "amount": 3}


def _mentions(value: Any, secret: int) -> bool:
    """Whether a frame holds `secret` as a number or inside a text (a timestamp's digits do not count)."""
    if isinstance(value, dict):
        return any(_mentions(v, secret) for v in value.values())
    if isinstance(value, list):
        return any(_mentions(v, secret) for v in value)
    if isinstance(value, str):
        return str(secret) in value
    return type(value) is int and value == secret


def test_a_seat_sees_its_own_view_with_versions_and_its_action_is_acknowledged(lobby: Lobby, server: LiveServer) -> None:
    created, tokens = human_room(lobby, seats=3)
    me = Socket(server.ws_url, created["code"], tokens[0])
    welcome = me.recv()
    assert welcome["type"] == "welcome" and welcome["seat"] == 0 and welcome["channels"] == ["public"]
    first = me.update()
    assert first["version"] == 0 and first["fresh"] is True and first["view"]["seat"] == 0
    assert first["view"]["legal_actions"] == [{"type": "bid", "params": {"amount": {"min": 0, "max": 10, "step": 1}}}]
    assert first["deadline"]["phase"] == "bidding" and 0 < first["deadline"]["remaining"] <= 30
    me.act(BID, "my-1")
    update = me.update(1)
    assert update["version"] == 1 and update["acks"] == ["my-1"]
    assert update["events"] == [{"version": 1, "type": "bid_sealed", "data": {"seat": 0}}]
    assert update["view"]["my_bid"] == 3 and update["view"]["to_act"] == [1, 2]
    me.close()


def test_other_seats_hear_of_an_action_without_its_sealed_amount(lobby: Lobby, server: LiveServer) -> None:
    created, tokens = human_room(lobby, seats=2, options={"coins": 1000})
    me, other = Socket(server.ws_url, created["code"], tokens[0]), Socket(server.ws_url, created["code"], tokens[1])
    watcher = Socket(server.ws_url, created["code"])
    for s in (me, other, watcher):
        s.update(0)
    me.act({"type": "bid", "amount": 777}, 1)
    for s in (other, watcher):
        update = s.update(1)
        assert update["acks"] == [] and update["view"]["has_bid"] == [True, False]
        assert not _mentions(json.loads(s.raw[-1]), 777)
    other.act({"type": "bid", "amount": 5}, 2)
    final = watcher.update(2)
    assert final["view"]["is_over"] and final["view"]["bids"] == [777, 5]
    assert [e["type"] for e in final["events"]] == ["bid_sealed", "revealed"]
    for s in (me, other, watcher):
        s.close()


def test_a_wrong_token_is_refused_and_the_connection_closed(lobby: Lobby, server: LiveServer) -> None:
    created, _ = human_room(lobby)
    _, other_tokens = human_room(lobby)
    for token in ("not-a-token", other_tokens[0]):  # a real token of another room does not work here
        sock = Socket(server.ws_url, created["code"], token)
        assert sock.recv()["code"] == "seat/bad_token"
        with pytest.raises(ConnectionClosed) as closed:
            sock.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
    missing = Socket(server.ws_url, "QQQQQQ")
    assert missing.recv()["code"] == "room/not_found"


def test_spectators_and_wrong_seats_cannot_act_and_nothing_changes(lobby: Lobby, server: LiveServer) -> None:
    created, tokens = human_room(lobby)
    watcher = Socket(server.ws_url, created["code"])
    me = Socket(server.ws_url, created["code"], tokens[0])
    watcher.update(0)
    me.update(0)
    watcher.act(BID, "w")
    assert watcher.error()["code"] == "seat/spectator"
    me.act(BID, "x", seat=1)
    refused = me.error()
    assert refused["code"] == "seat/not_yours" and refused["ref"] == "x"
    me.act({"type": "bid", "amount": 11}, "y")
    assert me.error()["code"] == "action/out_of_range"
    # Nobody heard of anything: no update went out for the refused attempts.
    assert not [f for f in watcher.quiet() + me.quiet() if f["type"] == "update"]
    assert lobby.room(created["code"])["version"] == 0


def test_an_illegal_action_is_refused_to_that_connection_only(lobby: Lobby, server: LiveServer) -> None:
    created, tokens = human_room(lobby)
    me, other = Socket(server.ws_url, created["code"], tokens[0]), Socket(server.ws_url, created["code"], tokens[1])
    me.update(0)
    other.update(0)
    me.act(BID, 1)
    me.update(1)
    me.act(BID, 2)  # already bid: not awaited any more
    refused = me.error()
    assert refused["code"] == "action/not_your_turn" and refused["ref"] == 2 and refused["ja"]
    got = [f for f in other.quiet() if f["type"] != "room"]  # (who is connected: told a moment later)
    assert [f["type"] for f in got] == ["update"] and got[0]["version"] == 1


@pytest.mark.parametrize(("raw", "code"), [
    ("{not json", "msg/malformed_json"),
    ("[1, 2]", "msg/not_object"),
    ('{"type": "dance"}', "msg/unknown_type"),
    ('{"type": "action", "action": {"type": "bid", "amount": 123456789012345678901234567890}}', "msg/number_too_large"),
    ('{"type": "action", "action": {"type": "bid", "amount": NaN}}', "msg/malformed_json"),
    ('{"type": "action", "action": "bid"}', "msg/invalid"),
    ('{"type": "action", "action": {"type": "bid", "amount": 1}, "sneaky": true}', "msg/invalid"),
    ('{"type": "sync", "since": -1}', "msg/invalid"),
    ('{"type": "action", "action": {"type": "bid", "amount": 1}, "id": "' + "x" * 3000 + '"}', "msg/invalid"),
    ('{"type": "chat", "text": "' + "y" * 5000 + '"}', "msg/too_large"),
    ("[" * 3000 + "]" * 3000, "msg/too_large"),
    ("[" * 1500 + "]" * 1500, "msg/too_deep"),
])
def test_malformed_frames_get_an_error_and_change_nothing(lobby: Lobby, server: LiveServer, raw: str, code: str) -> None:
    created, tokens = human_room(lobby)
    me = Socket(server.ws_url, created["code"], tokens[0])
    me.update(0)
    me.ws.send(raw)
    error = me.error()
    assert error["code"] == code and error["en"] and error["ja"]
    assert not re.search(r"[A-Za-z]+ [a-z]+", error["ja"]), error  # no English sentence in the Japanese
    me.act(BID, "after")  # the connection still works
    assert me.update(1)["acks"] == ["after"]


def test_too_many_frames_are_refused_by_rate(lobby: Lobby, server: LiveServer) -> None:
    created, tokens = human_room(lobby)
    me = Socket(server.ws_url, created["code"], tokens[0])
    me.update(0)
    for _ in range(150):
        me.send({"type": "ping"})
    got = me.quiet(1.5)
    pongs = [f for f in got if f["type"] == "pong"]
    limited = [f for f in got if f.get("code") == "rate/limited"]
    # 40 at once, then 20 a second: most of a quick burst of 150 is refused.
    assert 40 <= len(pongs) < 100 and len(pongs) + len(limited) == 150


def test_reconnecting_with_since_gives_exactly_the_missed_events(lobby: Lobby, server: LiveServer) -> None:
    created, tokens = human_room(lobby, seats=3)
    code = created["code"]
    me = Socket(server.ws_url, code, tokens[0])
    me.act(BID, 1)
    assert me.update(1)["version"] == 1
    me.close()
    for token in tokens[1:]:
        s = Socket(server.ws_url, code, token)
        s.act(BID, "b")
        s.update()
        s.close()
    back = Socket(server.ws_url, code, tokens[0], since=1)
    assert back.recv()["seat"] == 0  # the token puts the player back in the seat
    update = back.update()
    assert update["version"] == 3 and update["fresh"] is False
    assert [(e["version"], e["type"]) for e in update["events"]] == [(2, "bid_sealed"), (3, "bid_sealed"), (3, "revealed")]
    # A sync from an impossible version gets a fresh view; a sync from 2 the events of 3.
    back.send({"type": "sync", "since": 99})
    assert back.update()["fresh"] is True
    back.send({"type": "sync", "since": 2})
    again = back.update()
    assert again["fresh"] is False and [e["version"] for e in again["events"]] == [3, 3]


def test_two_connections_for_one_seat_both_follow_and_either_may_act(lobby: Lobby, server: LiveServer) -> None:
    created, tokens = human_room(lobby)
    phone, laptop = (Socket(server.ws_url, created["code"], tokens[0]) for _ in range(2))
    phone.update(0)
    laptop.update(0)
    laptop.act(BID, "l")
    assert laptop.update(1)["acks"] == ["l"]
    seen = phone.update(1)
    assert seen["acks"] == [] and seen["view"]["my_bid"] == 3


def test_room_frames_follow_the_lobby(lobby: Lobby, server: LiveServer) -> None:
    created = lobby.create("toy", 2, name="Aki")
    host = Socket(server.ws_url, created["code"], created["token"])
    welcome = host.recv()
    assert welcome["room"]["status"] == "open"
    # Share links use the server's public address (the one it is served on in tests).
    assert welcome["room"]["link"] == f"{server.url}/room/{created['code']}"
    lobby.join(created["code"], "Ben")
    joined = host.until(lambda f: f["type"] == "room" and f["room"]["seats"][1]["taken"])
    assert joined["room"]["seats"][1]["name"] == "Ben" and joined["room"]["link"] == welcome["room"]["link"]
    lobby.start(created["code"], created["host_token"])
    assert host.until(lambda f: f["type"] == "room" and f["room"]["status"] == "playing")
    assert host.update(0)["fresh"] is True
    assert json.loads(host.raw[0])["type"] == "welcome"


def test_an_engine_crash_reloads_the_room_from_its_stored_log(lobby: Lobby, server: LiveServer) -> None:
    created, tokens = human_room(lobby, "buggy-toy", seats=2)
    code = created["code"]
    me, other = Socket(server.ws_url, code, tokens[0]), Socket(server.ws_url, code, tokens[1])
    me.update(0)
    other.update(0)
    other.act(BID, "fine")
    other.update(1)
    me.act({"type": "bid", "amount": 7}, "boom")
    assert me.error()["code"] == "server/internal"
    back = Socket(server.ws_url, code, tokens[0], since=1)
    back.recv()
    view = back.update()["view"]
    # The half-applied bid is gone: the room was rebuilt from what was committed.
    assert view["version"] == 1 and view["my_bid"] is None and view["has_bid"] == [False, True]
    back.act({"type": "bid", "amount": 2}, "retry")
    assert back.update(2)["view"]["bids"] == [2, 3]
