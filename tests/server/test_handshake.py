"""Connections that never finish their handshake, over raw sockets against a real server process: each is
answered or closed within seconds, so that they cannot pile up and exhaust the server's file descriptors
(issue #21, item 1)."""

from __future__ import annotations

import contextlib
import json
import socket
import time
from collections.abc import Iterator

import pytest
from websockets.sync.client import connect

from tests.server.client import Lobby
from tests.server.live import LiveServer

TIMEOUT = 1.0  # the server's handshake timeout in these tests (the default is 10 s)
SETTINGS: dict[str, object] = {"handshake_timeout": TIMEOUT}
KEY = b"dGhlIHNhbXBsZSBub25jZQ=="


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    server = LiveServer(tmp_path_factory.mktemp("handshake"), settings=SETTINGS).start()
    yield server
    server.stop()


def upgrade(path: bytes, headers: bytes = b"") -> bytes:
    return (b"GET " + path + b" HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            b"Sec-WebSocket-Key: " + KEY + b"\r\nSec-WebSocket-Version: 13\r\n" + headers + b"\r\n")


def answer(live: LiveServer, request: bytes, within: float) -> tuple[bytes, float]:
    """What the server sends back before it closes the connection (b"" if it only closes), and after how
    long; fails if the connection is still open after `within` seconds."""
    with socket.create_connection(("127.0.0.1", live.port), timeout=within) as sock:
        sock.sendall(request)
        start, got = time.monotonic(), b""
        try:
            while chunk := sock.recv(65536):
                got += chunk
        except TimeoutError:
            pytest.fail(f"still open after {within} s; received {got[:80]!r}")
        except ConnectionResetError:
            pass
        return got, time.monotonic() - start


def test_an_upgrade_with_an_overlong_request_line_is_answered_414(live: LiveServer) -> None:
    got, _ = answer(live, upgrade(b"/ws/ABCDEF?x=" + b"a" * 9000), within=3)
    assert got.startswith(b"HTTP/1.1 414 ")


def test_an_upgrade_with_too_many_headers_is_answered_431(live: LiveServer) -> None:
    many = b"".join(b"X-Pad-%d: 1\r\n" % i for i in range(200))
    got, _ = answer(live, upgrade(b"/ws/ABCDEF", many), within=3)
    assert got.startswith(b"HTTP/1.1 431 ")


def test_many_overlong_upgrades_at_once_are_all_answered_and_the_server_stays_up(live: LiveServer) -> None:
    socks = [socket.create_connection(("127.0.0.1", live.port), timeout=5) for _ in range(100)]
    try:
        for sock in socks:
            sock.sendall(upgrade(b"/ws/ABCDEF?x=" + b"a" * 9000))
        assert all(sock.recv(16).startswith(b"HTTP/1.1 414") for sock in socks)
    finally:
        for sock in socks:
            sock.close()
    got, _ = answer(live, b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", within=5)
    assert got.startswith(b"HTTP/1.1 200 ")


@pytest.mark.parametrize("request_bytes", [
    b"GET /ws/ABCDEF HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n",  # the head never ends
    b"GET /ws/ABC",  # the request line never ends
    b"",  # nothing at all
])
def test_a_handshake_still_incomplete_after_the_timeout_is_closed(live: LiveServer, request_bytes: bytes) -> None:
    _, after = answer(live, request_bytes, within=TIMEOUT + 3)
    assert after >= TIMEOUT * 0.8


def test_a_second_request_that_never_ends_on_a_kept_alive_connection_is_closed(live: LiveServer) -> None:
    with socket.create_connection(("127.0.0.1", live.port), timeout=TIMEOUT + 3) as sock:
        sock.sendall(b"GET /api/stats HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        first = sock.recv(65536)
        assert first.startswith(b"HTTP/1.1 200 ")
        head, _, body = first.partition(b"\r\n\r\n")
        length = int(next(line.split(b":")[1] for line in head.split(b"\r\n") if line.lower().startswith(b"content-length")))
        while len(body) < length:  # the body may come in a packet of its own
            body += sock.recv(65536)
        sock.sendall(b"GET /api/stats HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # and the head never ends
        start = time.monotonic()
        with contextlib.suppress(ConnectionResetError):
            assert sock.recv(65536) == b""
        assert time.monotonic() - start >= TIMEOUT * 0.8


def test_a_complete_websocket_handshake_is_not_cut_by_the_timeout(live: LiveServer) -> None:
    lobby = Lobby(live.url)
    created = lobby.create("toy", 2, name="Aki")
    lobby.http.close()
    with connect(f"{live.ws_url}/ws/{created['code']}?token={created['token']}", open_timeout=5) as ws:
        assert json.loads(ws.recv(timeout=5))["type"] == "welcome"
        time.sleep(TIMEOUT + 0.5)
        assert ws.ping().wait(5)
        ws.send(json.dumps({"type": "ping"}))
        assert json.loads(ws.recv(timeout=5))["type"] == "pong"
