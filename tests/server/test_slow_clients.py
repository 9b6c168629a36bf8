"""Clients that hold connections without finishing a request or without reading, over raw sockets against a
real server process (issue #31, item 8): a body that never comes is answered 408 and closed, a client that
takes nothing it is sent is dropped, and one address may hold only so many connections; so none of them
piles up file descriptors or memory. Nothing they do puts a traceback in the log."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import time
from collections.abc import Callable, Iterator

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.server.client import Lobby
from tests.server.live import LiveServer

BODY_TIMEOUT = 1.0
SEND_TIMEOUT = 1.0
PER_ADDRESS = 10
# (Frames are not rate-limited here, nor the frames queued for a connection: a WebSocket client may ask for
# as many answers as it likes, and never read them.)
SETTINGS: dict[str, object] = {"body_timeout": BODY_TIMEOUT, "send_timeout": SEND_TIMEOUT,
                               "connections_per_address": PER_ADDRESS, "handshake_timeout": 5.0,
                               "rate_per_second": 10**6, "rate_burst": 10**6, "send_queue_limit": 10**6}
# Loopback addresses of their own (Linux routes all of 127/8 to the loopback), so that each test's client is
# one address apart from the others and from 127.0.0.1, which uvicorn trusts as a proxy by default.
ATTACKER, OTHER, PIPELINER, LISTENER = "127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5"


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    server = LiveServer(tmp_path_factory.mktemp("slow"), settings=SETTINGS).start()
    yield server
    server.stop()


@pytest.fixture(autouse=True)
def no_tracebacks(live: LiveServer) -> Iterator[None]:
    start = live.log.stat().st_size
    yield
    time.sleep(0.2)
    with live.log.open("rb") as log:
        log.seek(start)
        written = log.read().decode("utf-8", "replace")
    assert "Traceback" not in written and "Exception in ASGI" not in written, written[-3000:]


def open_from(live: LiveServer, address: str, timeout: float = 10, receive_buffer: int | None = None) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if receive_buffer is not None:  # (before connecting: it sets the window the client offers)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    sock.settimeout(timeout)
    sock.bind((address, 0))
    sock.connect(("127.0.0.1", live.port))
    return sock


def read_all(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes (fails if it does not within the socket's timeout)."""
    got = b""
    try:
        while chunk := sock.recv(65536):
            got += chunk
    except TimeoutError:
        pytest.fail(f"still open; received {got[:120]!r}")
    except ConnectionResetError:
        pass
    return got


def error_of(response: bytes) -> dict[str, str]:
    error: dict[str, str] = json.loads(response.partition(b"\r\n\r\n")[2])["error"]
    assert error["en"] and error["ja"] and error["en"] != error["ja"], error
    return error


def descriptors(live: LiveServer) -> int:
    """The server process's file descriptors that are sockets (the database's files come and go with its
    connection pool)."""
    assert live.proc is not None
    directory = f"/proc/{live.proc.pid}/fd"
    count = 0
    for fd in os.listdir(directory):
        with contextlib.suppress(OSError):  # (closed meanwhile)
            count += os.readlink(f"{directory}/{fd}").startswith("socket:")
    return count


def queued_to(live: LiveServer, address: str) -> list[int]:
    """The bytes the kernel holds for each of the server's TCP connections to `address` (sent, not yet taken
    by the client), from /proc/net/tcp."""
    local = f"{live.port:04X}"
    remote = "".join(f"{int(part):02X}" for part in reversed(address.split(".")))
    queues = []
    with open("/proc/net/tcp") as table:
        for line in table.readlines()[1:]:
            fields = line.split()
            if fields[1].endswith(f":{local}") and fields[2].startswith(f"{remote}:"):
                queues.append(int(fields[4].split(":")[0], 16))
    return queues


def wait_for(condition: Callable[[], bool], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


GET_NO_BODY = b"GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n"


@pytest.mark.parametrize("request_bytes", [
    GET_NO_BODY,
    b'POST /api/rooms HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 40\r\n\r\n{"game": ',
    b"POST /api/rooms HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n",
    b'POST /api/rooms HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n4\r\n{"ga\r\n',
])
def test_a_request_whose_body_never_comes_is_answered_408_and_closed(live: LiveServer, request_bytes: bytes) -> None:
    with open_from(live, OTHER, timeout=BODY_TIMEOUT + 5) as sock:
        sock.sendall(request_bytes)
        start = time.monotonic()
        got = read_all(sock)
        assert time.monotonic() - start >= BODY_TIMEOUT * 0.8
    assert got.startswith(b"HTTP/1.1 408 "), got[:200]
    assert error_of(got)["code"] == "msg/timeout"


def test_a_body_that_comes_in_time_is_served(live: LiveServer) -> None:
    body = json.dumps({"game": "toy", "seats": 2, "name": "Slow"}).encode()
    with open_from(live, OTHER) as sock:
        sock.sendall(b"POST /api/rooms HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nConnection: close\r\n"
                     b"Content-Length: %d\r\n\r\n" % len(body) + body[:10])
        time.sleep(BODY_TIMEOUT * 0.5)
        sock.sendall(body[10:])
        got = read_all(sock)
    assert got.startswith(b"HTTP/1.1 200 "), got[:200]
    assert json.loads(got.partition(b"\r\n\r\n")[2])["room"]["seats"][0]["name"] == "Slow"


def test_held_bodies_from_one_address_are_bounded_and_let_go(live: LiveServer) -> None:
    baseline = descriptors(live)
    held = [open_from(live, ATTACKER, timeout=BODY_TIMEOUT + 5) for _ in range(3 * PER_ADDRESS)]
    try:
        for sock in held:
            with contextlib.suppress(OSError):  # (a refused one may be closed already)
                sock.sendall(GET_NO_BODY)
        answers = [read_all(sock) for sock in held]
    finally:
        for sock in held:
            sock.close()
    refused = [a for a in answers if a.startswith(b"HTTP/1.1 429 ")]
    timed_out = [a for a in answers if a.startswith(b"HTTP/1.1 408 ")]
    # Each either refused at once (past the address's limit: 429, or a reset when its request crossed the
    # refusal) or answered 408 once its body was overdue; none is held.
    assert len(timed_out) == PER_ADDRESS and len(refused) + len(timed_out) + answers.count(b"") == len(held), answers
    assert refused and {error_of(a)["code"] for a in refused} == {"rate/connections"}
    assert wait_for(lambda: descriptors(live) <= baseline + 1, 5), (baseline, descriptors(live))


def test_one_address_s_limit_leaves_others_served_and_counts_websockets_too(live: LiveServer) -> None:
    lobby = Lobby(live.url)
    code = lobby.create("toy", 2, name="Host")["code"]
    lobby.http.close()
    with contextlib.ExitStack() as stack:
        # Half the address's connections are WebSockets (spectators), half idle HTTP connections.
        sockets = [stack.enter_context(connect(f"{live.ws_url}/ws/{code}", sock=open_from(live, ATTACKER), open_timeout=5))
                   for _ in range(PER_ADDRESS // 2)]
        for _ in range(PER_ADDRESS - len(sockets)):
            stack.enter_context(open_from(live, ATTACKER))
        with open_from(live, ATTACKER) as one_more:
            one_more.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            refused = read_all(one_more)
        assert refused.startswith(b"HTTP/1.1 429 ") and error_of(refused)["code"] == "rate/connections"
        with open_from(live, OTHER) as other:  # another address is served
            other.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            assert read_all(other).startswith(b"HTTP/1.1 200 ")
        sockets[0].close()  # a socket that ends gives its place back

        def served() -> bool:
            with open_from(live, ATTACKER) as again:
                again.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                return read_all(again).startswith(b"HTTP/1.1 200 ")

        assert wait_for(served, 5)


def test_clients_that_pipeline_requests_and_never_read_are_dropped(live: LiveServer) -> None:
    baseline = descriptors(live)
    # Ten clients, each asking for the game list (about 30 KB) a hundred times, that read nothing.
    clients = [open_from(live, PIPELINER, receive_buffer=4096) for _ in range(PER_ADDRESS)]
    try:
        for sock in clients:
            sock.sendall(b"GET /api/games HTTP/1.1\r\nHost: x\r\n\r\n" * 100)
        assert wait_for(lambda: descriptors(live) >= baseline + len(clients), 5)  # all served, and held a while
        most = 0

        def dropped() -> bool:
            nonlocal most
            queues = queued_to(live, PIPELINER)
            most = max([most, *queues])
            return not queues and descriptors(live) <= baseline + 1

        # Each is reset once it has taken nothing for the send timeout, and what the kernel held for it
        # goes too; until then the kernel holds at most its send buffer for it (Linux doubles the setting).
        # (generous: on a busy machine the server may take many seconds to answer the whole flood before its writes
        # stall; the drop itself comes SEND_TIMEOUT after they do)
        assert wait_for(dropped, SEND_TIMEOUT + 60), (baseline, descriptors(live), queued_to(live, PIPELINER))
        assert 0 < most <= 2 * 128 * 1024
    finally:
        for sock in clients:
            sock.close()
    with open_from(live, PIPELINER) as sock:  # and the address is served again
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        assert read_all(sock).startswith(b"HTTP/1.1 200 ")


def test_a_websocket_client_that_never_reads_is_dropped(live: LiveServer) -> None:
    lobby = Lobby(live.url)
    code = lobby.create("toy", 2, name="Host")["code"]
    lobby.http.close()
    baseline = descriptors(live)
    with connect(f"{live.ws_url}/ws/{code}", sock=open_from(live, LISTENER, receive_buffer=4096),
                 open_timeout=5) as ws:
        with contextlib.suppress(OSError, ConnectionClosed):
            for _ in range(30_000):  # each answered with a pong it never reads (about 1.3 MB)
                ws.send('{"type": "ping"}')
        assert wait_for(lambda: not queued_to(live, LISTENER) and descriptors(live) <= baseline, SEND_TIMEOUT + 60), (
            baseline, descriptors(live), queued_to(live, LISTENER))
