"""What a process asked to stop (SIGTERM, a rolling restart) does with the connections it still has, on uvicorn
as `serve()` configures it (`uvicorn_config`: the same protocols and bounds), serving a small application
that never answers: a WebSocket handshake the stop catches is closed unanswered, so that the proxy in front
tries another process, never answered 500; and the stop is bounded, so the process exits even when a request
never ends (`shutdown_timeout`). The partygames application itself is stopped by the cluster tests
(tests/cluster/test_proxies.py, test_rolling.py)."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import uvicorn
from starlette.types import Receive, Scope, Send

from partygames.server.main import uvicorn_config
from partygames.server.settings import Settings
from tests.server.live import free_port

BOUND = 1  # the stop's bound in these tests, in seconds (the default is 10)


class Silent:
    """An ASGI application that takes every request and WebSocket and answers none (as one busy when the stop
    comes): `arrived` is set once a request of the kind asked is inside the application."""

    def __init__(self) -> None:
        self.arrived = {"http": threading.Event(), "websocket": threading.Event()}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            while (await receive())["type"] != "lifespan.shutdown":
                await send({"type": "lifespan.startup.complete"})
            await send({"type": "lifespan.shutdown.complete"})
            return
        self.arrived[scope["type"]].set()
        await asyncio.sleep(3600)


@pytest.fixture
def serving(tmp_path: Path) -> Iterator[tuple[uvicorn.Server, Silent, int, threading.Thread]]:
    app, port = Silent(), free_port()
    settings = Settings.create(None, tmp_path, shutdown_timeout=BOUND)
    server = uvicorn.Server(uvicorn_config(app, settings, "127.0.0.1", port))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the server did not start"
        time.sleep(0.02)
    yield server, app, port, thread
    server.force_exit = server.should_exit = True
    thread.join(30)


def stop_and_read(server: uvicorn.Server, sock: socket.socket) -> bytes:
    """Asks the server to stop (what its SIGTERM handler does), then reads what the connection gets before it
    closes."""
    server.should_exit = True
    got = b""
    sock.settimeout(10 * BOUND)
    try:
        while chunk := sock.recv(65536):
            got += chunk
    except ConnectionResetError:
        pass
    return got


def test_a_websocket_handshake_caught_by_the_stop_is_closed_unanswered_not_answered_500(
        serving: tuple[uvicorn.Server, Silent, int, threading.Thread]) -> None:
    server, app, port, _ = serving
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(b"GET /ws/ABCDEF HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                     b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
        assert app.arrived["websocket"].wait(10), "the handshake never reached the application"
        got = stop_and_read(server, sock)
    assert got == b"", got[:80]  # (uvicorn alone answers "HTTP/1.1 500 Internal Server Error")


def test_a_request_that_never_ends_does_not_keep_a_stopping_process_alive(
        serving: tuple[uvicorn.Server, Silent, int, threading.Thread]) -> None:
    server, app, port, thread = serving
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert app.arrived["http"].wait(10), "the request never reached the application"
        server.should_exit = True
        thread.join(BOUND + 15)  # (uvicorn alone waits for the request for ever)
        assert not thread.is_alive(), "the stopping server still waits for the request"
