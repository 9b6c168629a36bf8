"""Crowds and churn against a real server (issue #21, item 4): a client connecting and closing in a loop
costs the room at most one `room` frame per connection per presence interval; a client address holds at
most so many sockets, a room so many spectators, each refused with a coded error and close code 1013."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from websockets.exceptions import ConnectionClosed

from tests.server.client import Lobby, Socket
from tests.server.live import LiveServer

INTERVAL = 0.5
PER_ADDRESS = 24
SPECTATORS = 12
SETTINGS: dict[str, object] = {"presence_interval": INTERVAL, "sockets_per_address": PER_ADDRESS,
                               "spectators_per_room": SPECTATORS}


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    server = LiveServer(tmp_path_factory.mktemp("crowds"), settings=SETTINGS).start()
    yield server
    server.stop()


@pytest.fixture
def lobby(live: LiveServer) -> Iterator[Lobby]:
    client = Lobby(live.url)
    yield client
    client.http.close()


def room_frames(sock: Socket, seconds: float) -> list[dict[str, object]]:
    return [f for f in sock.quiet(seconds) if f["type"] == "room"]


def refused(live: LiveServer, code: str, token: str | None = None) -> dict[str, object]:
    """The error frame of a socket the server refuses, after checking that it closes it with 1013."""
    sock = Socket(live.ws_url, code, token)
    error = sock.recv()
    with pytest.raises(ConnectionClosed) as closed:
        sock.recv()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013
    return error


def settle(lobby: Lobby) -> None:
    """Waits until the sockets closed before are gone from the server too."""
    deadline = time.monotonic() + 5
    while lobby.http.get("/api/stats").json()["connections"] and time.monotonic() < deadline:
        time.sleep(0.05)


def test_a_client_connecting_and_closing_in_a_loop_costs_the_room_one_frame_per_interval(
        lobby: Lobby, live: LiveServer) -> None:
    created = lobby.create("toy", 2, name="Aki")
    code = created["code"]
    host = Socket(live.ws_url, code, created["token"])
    host.recv()
    crowd = [Socket(live.ws_url, code) for _ in range(8)]
    for sock in crowd:
        sock.recv()
    time.sleep(INTERVAL * 2)
    for sock in [host, *crowd]:
        sock.quiet(0.1)  # the crowd's own arrival
    start, visits = time.monotonic(), 0
    while time.monotonic() - start < 2.0:  # a visitor comes and goes as fast as it can for two seconds
        visitor = Socket(live.ws_url, code)
        visitor.recv()
        visitor.close()
        visits += 1
    churn = time.monotonic() - start
    heard = room_frames(host, INTERVAL * 3)
    bound = churn / INTERVAL + 3
    assert visits >= 10 and len(heard) <= bound, (visits, len(heard))  # before the fix: one per arrival and departure
    assert all(len(room_frames(sock, 0)) <= bound for sock in crowd)
    # Once it stops, every connection has been shown who is here.
    last = heard[-1]["room"] if heard else None
    assert last is None or last["spectators"] == 8  # type: ignore[index]
    assert lobby.room(code)["spectators"] == 8


def test_presence_is_announced_at_once_after_a_quiet_while(lobby: Lobby, live: LiveServer) -> None:
    created = lobby.create("toy", 2, name="Aki")
    host = Socket(live.ws_url, created["code"], created["token"])
    host.recv()
    time.sleep(INTERVAL * 2)
    sent = time.monotonic()
    watcher = Socket(live.ws_url, created["code"])
    frame = host.until(lambda f: f["type"] == "room")
    assert frame["room"]["spectators"] == 1 and time.monotonic() - sent < INTERVAL
    watcher.close()
    assert host.until(lambda f: f["type"] == "room")["room"]["spectators"] == 0


def test_a_room_takes_so_many_spectators_and_seats_always_get_in(lobby: Lobby, live: LiveServer) -> None:
    settle(lobby)
    created = lobby.create("toy", 2, name="Aki")
    code = created["code"]
    crowd = [Socket(live.ws_url, code) for _ in range(SPECTATORS)]
    for sock in crowd:
        assert sock.recv()["type"] == "welcome"
    error = refused(live, code)
    assert error["code"] == "room/spectators_full" and str(SPECTATORS) in str(error["en"]) and error["ja"]
    host = Socket(live.ws_url, code, created["token"])  # a seat is not a spectator
    assert host.recv()["seat"] == 0
    crowd.pop().close()
    deadline = time.monotonic() + 5
    while True:  # the place is free once the server has seen that socket close
        late = Socket(live.ws_url, code)
        if late.recv()["type"] == "welcome":
            break
        assert time.monotonic() < deadline
        time.sleep(0.1)


def test_an_address_holds_so_many_sockets(lobby: Lobby, live: LiveServer) -> None:
    settle(lobby)
    codes = [lobby.create("toy", 2, name="Aki")["code"] for _ in range(3)]
    held = [Socket(live.ws_url, codes[i % 3]) for i in range(PER_ADDRESS)]
    for sock in held:
        assert sock.recv()["type"] == "welcome"
    error = refused(live, codes[0])
    assert error["code"] == "rate/sockets" and str(PER_ADDRESS) in str(error["en"]) and error["ja"]
    assert lobby.http.get(f"/api/rooms/{codes[0]}").status_code == 200  # HTTP is not a socket
    for sock in held:
        sock.close()
    settle(lobby)
    assert Socket(live.ws_url, codes[0]).recv()["type"] == "welcome"
