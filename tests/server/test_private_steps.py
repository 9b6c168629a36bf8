"""A step others may not learn of leaves them no trace (issues #9 and #21): no update at the moment, and
no gap in their versions, which count only the steps each connection witnessed (docs/server.md, Versions).
In the Pandemic Game with private contacts a third seat must not learn that two others touched, nor
count how many private steps happened."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.server.client import Lobby, Socket, human_room
from tests.server.live import LiveServer

PRIVATE = {"public_contacts": False, "public_presses": False, "minutes": 5}


@pytest.fixture
def real_lobby(registry_server: LiveServer) -> Iterator[Lobby]:
    client = Lobby(registry_server.url)
    yield client
    client.http.close()


def updates(frames: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [f for f in frames if f["type"] == "update"]


def _timeless(frame: dict[str, Any]) -> dict[str, Any]:
    """A frame without what only the wall clock decides (when a time limit ends, what remains of it), nor
    the seat's card (each room deals with a seed of its own)."""
    deadline = frame.get("deadline")
    return {**frame, "deadline": None if deadline is None else {"phase": deadline["phase"],
                                                                 "seconds": deadline["seconds"]},
            "reveal": None, "view": {k: v for k, v in frame["view"].items() if k != "my_card"}}


def _table(lobby: Lobby, server: LiveServer, whispers: int) -> dict[str, Any]:
    """A 4-seat whisper-toy room in which seat 0 whispers to seat 1 `whispers` times, then everyone bids in
    turn; returns what each seat and a spectator received, in order, and the room's code and tokens."""
    created, tokens = human_room(lobby, "whisper-toy", seats=4)
    code = created["code"]
    socks = [Socket(server.ws_url, code, token) for token in tokens]
    table = Socket(server.ws_url, code, name="table")
    for sock in [*socks, table]:
        sock.update(0)
    def confirmed(sock: Socket, ref: str) -> None:
        sock.until(lambda f: f["type"] == "update" and ref in f["acks"])

    for i in range(whispers):
        socks[0].act({"type": "whisper", "to": 1, "number": i + 3}, f"w{i}")
        confirmed(socks[0], f"w{i}")
    socks[1].reach(whispers)
    for seat in range(4):
        socks[seat].act({"type": "bid", "amount": seat + 1}, f"b{seat}")
        confirmed(socks[seat], f"b{seat}")
    for sock in [*socks, table]:
        if not updates(sock.frames)[-1]["view"]["is_over"]:
            sock.until(lambda f: f["type"] == "update" and f["view"]["is_over"])
    return {"code": code, "tokens": tokens, "received": [updates(s.frames) for s in [*socks, table]]}


def test_a_third_seat_receives_the_same_whether_or_not_two_others_whispered(lobby: Lobby, server: LiveServer) -> None:
    quiet, whispered = _table(lobby, server, whispers=0), _table(lobby, server, whispers=3)
    for who in (2, 3, 4):  # seats 2 and 3, and the spectator: versions, views, events, acks, all the same
        assert [_timeless(f) for f in whispered["received"][who]] == [_timeless(f) for f in quiet["received"][who]], who
        versions = [f["version"] for f in whispered["received"][who]]
        assert versions == sorted(versions) and versions[-1] == 4, (who, versions)  # the 4 bids, no gap
    # The two who witnessed the whispers count them: the listener's versions run to 3 + 4.
    listener = whispered["received"][1]
    assert listener[-1]["version"] == 7 and listener[-1]["view"]["heard"] == [3, 4, 5]
    heard = [e for f in listener for e in f["events"] if e["type"] == "whispered"]
    assert [e["version"] for e in heard] == [1, 2, 3]


def test_catch_up_replay_and_log_number_the_steps_each_seat_witnessed(lobby: Lobby, server: LiveServer) -> None:
    played = _table(lobby, server, whispers=2)
    code, tokens = played["code"], played["tokens"]
    # A third seat reconnecting from its version 1 gets its next three steps, none of the whispers.
    again = Socket(server.ws_url, code, tokens[2], since=1).update()
    assert again["version"] == 4 and not again["fresh"]
    assert [(e["version"], e["type"]) for e in again["events"]] == [
        (2, "bid_sealed"), (3, "bid_sealed"), (4, "bid_sealed"), (4, "revealed")]
    # The listener from its version 1: the second whisper, then the bids, numbered as it counts them.
    listener = Socket(server.ws_url, code, tokens[1], since=1).update()
    assert listener["version"] == 6
    assert [e["version"] for e in listener["events"]] == [2, 3, 4, 5, 6, 6]
    # A spectator's version beyond what it can know is not a catch-up but a fresh view.
    assert Socket(server.ws_url, code, since=5).update()["fresh"]
    with httpx.Client(base_url=server.url) as http:
        for seat, count in ((None, 4), (2, 4), (0, 6), (1, 6)):
            steps = http.get(f"/api/rooms/{code}/replay", params={} if seat is None else {"seat": seat},
                             headers={} if seat is None else {"X-Seat-Token": tokens[seat]}).json()["steps"]
            assert [s["version"] for s in steps] == list(range(count + 1)), seat
            assert [s["view"]["version"] for s in steps] == list(range(count + 1)), seat
            whispers = [s for s in steps if s["action"] and s["action"]["type"] == "whisper"]
            assert len(whispers) == (2 if seat == 0 else 0), seat  # the listener hears, not who acted how
            heard = [e for s in steps for e in s["events"] if e["type"] == "whispered"]
            assert len(heard) == (2 if seat in (0, 1) else 0), seat
        public = http.get(f"/api/rooms/{code}/log").json()
        assert public["redacted"] and [e[1] for e in public["entries"]] == [0, 1, 2, 3]  # the bids alone
        assert http.get(f"/api/rooms/{code}").json()["version"] == 4


def test_a_private_contact_sends_a_third_seat_nothing_and_costs_it_no_version(
        real_lobby: Lobby, registry_server: LiveServer) -> None:
    created, tokens = human_room(real_lobby, "pandemic", seats=4, options=PRIVATE)
    code = created["code"]
    socks = [Socket(registry_server.ws_url, code, token) for token in tokens]
    for sock in socks:
        assert sock.update(0)["version"] == 0
    # Seat 0 offers contact to seat 1, who accepts: two steps, each told only to the two.
    socks[0].act({"type": "offer", "target": 1}, "o")
    offer = socks[1].until(lambda f: f["type"] == "update" and bool(f["view"]["offers_to_me"]))
    offer_id = offer["view"]["offers_to_me"][0]["id"]
    socks[1].act({"type": "accept", "offer": offer_id}, "a")
    touched = socks[0].until(lambda f: f["type"] == "update" and "a" not in f["acks"]
                             and any(e["type"] == "contact" for e in f["events"]))
    assert touched["version"] >= 2
    # The third and fourth seats receive nothing at all, neither at the offer nor at the contact.
    for sock in socks[2:]:
        assert updates(sock.quiet(0.5)) == []
    # Their next update (seat 2 goes into a room, a public step) is their very next version, with only
    # its own event; catching up from their version 0 gives the same.
    socks[2].act({"type": "visit"}, "v")
    for seat in (2, 3):
        after = socks[seat].update()
        assert after["version"] == after["view"]["version"] == 1
        assert [(e["version"], e["type"]) for e in after["events"]] == [(1, "entered")]
        again = Socket(registry_server.ws_url, code, tokens[seat], since=0).update()
        assert again["version"] == 1 and not again["fresh"]
        assert again["view"] == after["view"]
        assert [e["type"] for e in again["events"]] == ["entered"]
    # The two who touched count the room's every step.
    assert socks[0].update()["version"] == touched["version"] + 1
