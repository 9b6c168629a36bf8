"""A step that changes nothing a seat may know sends that seat nothing (issue #9): in the Pandemic Game
with private contacts, a third seat must not learn from an update's arrival that two others touched."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

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


def test_a_private_contact_sends_a_third_seat_nothing_and_its_catch_up_stays_exact(
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
    # Their next update (seat 2 goes into a room, a public step) covers the private versions too and
    # holds none of their events; catching up from scratch or from version 0 gives the same.
    socks[2].act({"type": "visit"}, "v")
    for seat in (2, 3):
        after = socks[seat].update()
        assert after["version"] == touched["version"] + 1
        assert [e["type"] for e in after["events"]] == ["entered"]
        again = Socket(registry_server.ws_url, code, tokens[seat], since=0).update()
        assert again["version"] == after["version"] and not again["fresh"]
        assert again["view"] == after["view"]
        assert [e["type"] for e in again["events"]] == ["entered"]
