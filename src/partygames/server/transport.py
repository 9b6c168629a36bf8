"""uvicorn's HTTP/1.1 (h11) and WebSocket (websockets, sans-I/O) protocols, with a bound on handshakes.

Two gaps in uvicorn 0.54 let a client hold a connection open for ever without finishing a request
(issue #21, item 1), a cheap way to exhaust the server's file descriptors:

- websockets refuses an upgrade whose request line passes 8 KiB (414) or whose headers are too many or
  too long (431), and queues that answer; uvicorn only acts on parsed requests, so the answer was never
  sent and the connection never closed. `GuardedWebSocketProtocol` sends it and closes.
- uvicorn arms no timer until a response is complete, so a request head that never ends (slowloris) or a
  WebSocket handshake the application never finishes is kept open. Both protocols close the connection
  when it is still incomplete `handshake_timeout` seconds after the connection opened or its previous
  response ended.

Three more let a client hold connections and memory for ever (issue #31, item 8), each bounded here:

- a request head whose body never comes (`Content-Length: 100` and no body; chunked and no chunk): the
  application waits for the body and no timer runs. Unless the body is whole `body_timeout` seconds after
  the head, the request is answered 408 (`msg/timeout`) and the connection closed.
- a client that sends requests (pipelined) or is sent frames and reads nothing: the kernel's send buffer
  grows (Linux tunes it up to megabytes), then the process's write buffer, and the request's task waits
  for it to drain, for ever. The socket's send buffer is fixed at `send_buffer_bytes` and the write
  buffer's high mark is 0, so the protocol hears whenever bytes wait because the client takes no more;
  when they have waited `send_timeout` seconds without the client taking any, the connection is reset
  (what the kernel still held for it is dropped too).
- connections per client address: past `connections_per_address` open at once (HTTP and WebSocket alike,
  counted from the TCP connection's opening to its end, across an upgrade), a connection is answered 429
  (`rate/connections`) and closed before anything is read. A trusted proxy's connections (uvicorn's
  `forwarded_allow_ips`) are not counted: a proxy carries many clients, each counted by the application's
  own per-address limits.

A stop (SIGTERM) that catches a WebSocket handshake the application has not answered closes it without an
answer, where uvicorn answers 500: the proxy in front tries another process (a rolling restart gives no
client a 5xx), a client without one reconnects.

uvicorn also logs an error for every handshake denied with an HTTP response (here: a page on another
site), and a traceback when a text frame is not UTF-8; here the connection fails with 1007 (RFC
6455, 8.1) and a line at debug level: a client's behaviour never puts a traceback in the log.

`protocols(settings)` gives the two classes for `uvicorn.run(http=..., ws=...)`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import socket
import struct
from collections import Counter
from typing import TYPE_CHECKING, Any

# (uvicorn's own reading of forwarded_allow_ips, addresses and networks, so that both agree on who is a proxy.)
from uvicorn.middleware.proxy_headers import _TrustedHosts
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from partygames.server.codes import Code
from partygames.server.errors import ServerError

if TYPE_CHECKING:
    from partygames.server.settings import Settings

log = logging.getLogger(__name__)

DEFAULT_HANDSHAKE_TIMEOUT = 10.0
DEFAULT_BODY_TIMEOUT = 10.0
DEFAULT_SEND_TIMEOUT = 20.0
DEFAULT_SEND_BUFFER = 128 * 1024


class PeerCount:
    """Open connections per client address (the TCP peer), from `connection_made` to `connection_lost` of
    whichever protocol then holds the transport (a WebSocket upgrade hands it over)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.open: dict[asyncio.BaseTransport, str] = {}
        self.counts: Counter[str] = Counter()
        self.proxies: _TrustedHosts | None = None  # trusted proxies, read from uvicorn's config at first use

    def take(self, transport: asyncio.BaseTransport, address: str) -> bool:
        """Counts the connection, or False when its address already holds `limit`."""
        if self.counts[address] >= self.limit:
            return False
        self.open[transport] = address
        self.counts[address] += 1
        return True

    def release(self, transport: asyncio.BaseTransport) -> None:
        address = self.open.pop(transport, None)
        if address is not None:
            self.counts[address] -= 1
            if not self.counts[address]:
                del self.counts[address]


def _response(status: int, reason: bytes, error: ServerError) -> bytes:
    """A whole HTTP/1.1 response carrying `error` as the platform's JSON, closing the connection."""
    body = json.dumps({"error": error.to_json()}, ensure_ascii=False).encode()
    return (b"HTTP/1.1 %d %s\r\ncontent-type: application/json\r\ncontent-length: %d\r\nconnection: close\r\n\r\n"
            % (status, reason, len(body)) + body)


def too_many_connections(limit: int) -> bytes:
    return _response(429, b"Too Many Requests", ServerError(
        Code.RATE_CONNECTIONS, f"This address already has {limit} connections open; close some first.",
        f"このアドレスからの接続がすでに {limit} 本あります。いくつか閉じてください。", 429))


def body_too_slow(seconds: float) -> bytes:
    return _response(408, b"Request Timeout", ServerError(
        Code.MSG_TIMEOUT, f"The request's body did not arrive within {seconds:g} s.",
        f"リクエスト本文が {seconds:g} 秒以内に届きませんでした。", 408))


class StallWatch:
    """A connection's watch on a client that takes nothing it is sent, for the HTTP and WebSocket protocols
    alike: started when the protocol is told to pause writing (its write buffer's high mark is 0, so as soon
    as anything waits), stopped when it may resume or the connection ends; after `seconds` it resets the
    connection (`_drop_stalled`)."""

    def __init__(self, loop: asyncio.AbstractEventLoop, transport: asyncio.BaseTransport, seconds: float) -> None:
        self._loop, self._transport, self._seconds = loop, transport, seconds
        self._timer: asyncio.TimerHandle | None = None

    def start(self) -> None:
        if self._timer is None:
            self._timer = self._loop.call_later(self._seconds, _drop_stalled, self._transport, self._seconds)

    def stop(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol, closing a connection whose request head or body is not complete in time, or
    whose client takes nothing it is sent, and refusing connections past an address's limit."""

    handshake_timeout = DEFAULT_HANDSHAKE_TIMEOUT
    body_timeout = DEFAULT_BODY_TIMEOUT
    send_timeout = DEFAULT_SEND_TIMEOUT
    send_buffer_bytes = DEFAULT_SEND_BUFFER
    peers: PeerCount | None = None  # one per server (`protocols`); None: no limit per address

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)  # type: ignore[arg-type]
        self._head_timer: asyncio.TimerHandle | None = None
        self._body_timer: asyncio.TimerHandle | None = None
        self._stall = StallWatch(self.loop, transport, self.send_timeout)
        self._request_scope: Any = None
        # The kernel holds at most `send_buffer_bytes` for the client (not the megabytes Linux would tune it
        # to), and the protocol is told of any byte beyond (`pause_writing`), not only of 64 KiB.
        sock = self.transport.get_extra_info("socket")
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, self.send_buffer_bytes)
        self.transport.set_write_buffer_limits(high=0)
        if self._admitted():
            self._await_head()

    def _admitted(self) -> bool:
        """Whether the connection is within its address's limit (counted then); else it is refused."""
        peers, client = self.peers, self.client
        if peers is None or client is None:
            return True
        if peers.proxies is None:
            config = self.config
            peers.proxies = _TrustedHosts(config.forwarded_allow_ips if config.proxy_headers else [])
        if client[0] in peers.proxies or peers.take(self.transport, client[0]):
            return True
        log.debug("refusing a connection from %s, which already has %d open", client[0], peers.limit)
        self.transport.write(too_many_connections(peers.limit))
        self.transport.close()
        return False

    def handle_events(self) -> None:
        super().handle_events()
        scope = self.scope
        if scope is not None and scope is not self._request_scope and self.transport.get_protocol() is self:
            # A new request (not an upgrade): unless its body is already whole, it must be within the timeout.
            self._request_scope = scope
            cycle = self.cycle
            if cycle is not None and cycle.scope is scope and cycle.more_body:
                if self._body_timer is not None:
                    self._body_timer.cancel()
                self._body_timer = self.loop.call_later(self.body_timeout, self._body_overdue, cycle)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._await_head()

    def pause_writing(self) -> None:
        super().pause_writing()
        self._stall.start()

    def resume_writing(self) -> None:
        super().resume_writing()
        self._stall.stop()

    def connection_lost(self, exc: Exception | None) -> None:
        for timer in (self._head_timer, self._body_timer):
            if timer is not None:
                timer.cancel()
        self._stall.stop()
        if self.peers is not None:
            self.peers.release(self.transport)
        super().connection_lost(exc)

    def _body_overdue(self, cycle: Any) -> None:
        self._body_timer = None
        transport = self.transport
        if cycle is not self.cycle or not cycle.more_body or transport.is_closing() or transport.get_protocol() is not self:
            return
        log.debug("closing a connection whose request body did not arrive within %s s", self.body_timeout)
        if not cycle.response_started:
            transport.write(body_too_slow(self.body_timeout))
        # The application's receive now says the client left, and whatever it sends goes nowhere.
        cycle.disconnected = True
        cycle.message_event.set()
        transport.close()

    def _await_head(self) -> None:
        """The next request head must be complete within the timeout (uvicorn sets a new `scope` for each)."""
        if self._head_timer is not None:
            self._head_timer.cancel()
        self._head_timer = self.loop.call_later(self.handshake_timeout, self._head_overdue, self.scope)

    def _head_overdue(self, scope: Any) -> None:
        self._head_timer = None
        transport = self.transport
        # Untouched: a new request began (a new scope), the connection became a WebSocket, or it is closing.
        if self.scope is scope and transport.get_protocol() is self and not transport.is_closing():
            log.debug("closing a connection whose request head did not arrive within %s s", self.handshake_timeout)
            transport.close()


class GuardedWebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's websockets protocol, answering a refused handshake and closing one left incomplete, and
    dropping a client that takes nothing it is sent."""

    handshake_timeout = DEFAULT_HANDSHAKE_TIMEOUT
    send_timeout = DEFAULT_SEND_TIMEOUT
    peers: PeerCount | None = None  # the HTTP protocol's, which counted the connection before the upgrade

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        self._stall = StallWatch(self.loop, transport, self.send_timeout)
        self._handshake_timer: asyncio.TimerHandle | None = self.loop.call_later(
            self.handshake_timeout, self._handshake_overdue)

    def pause_writing(self) -> None:
        super().pause_writing()
        self._stall.start()

    def resume_writing(self) -> None:
        super().resume_writing()
        self._stall.stop()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if not self.handshake_initiated and self.conn.handshake_exc is not None and not self.transport.is_closing():
            # websockets refused the request before it was parsed (414, 431, or not HTTP) and queued its
            # answer (possibly none); uvicorn only acts on parsed requests.
            self.transport.write(b"".join(self.conn.data_to_send()))
            self.close_sent = True
            self.transport.close()

    def send_receive_event_to_app(self) -> None:
        if self.curr_msg_data_type == "text" and not _is_utf8(self.frames):
            log.debug("closing a WebSocket that sent a text frame which is not UTF-8")
            self.frames = []
            self.conn.send_close(1007)
            self.handle_parser_exception()
            return
        super().send_receive_event_to_app()

    async def send(self, message: Any) -> None:
        await super().send(message)
        if message["type"] == "websocket.http.response.body" and not message.get("more_body", False):
            # A denial response (Starlette's send_denial_response) ends the handshake; uvicorn 0.54 does not
            # note it, and logs "ASGI callable returned without completing handshake" for each.
            self.handshake_complete = True

    def connection_lost(self, exc: Exception | None) -> None:
        if self._handshake_timer is not None:
            self._handshake_timer.cancel()
            self._handshake_timer = None
        self._stall.stop()
        if self.peers is not None:
            self.peers.release(self.transport)
        super().connection_lost(exc)

    def shutdown(self) -> None:
        # A stop (SIGTERM) that catches a handshake the application has not answered yet: uvicorn answers it
        # 500. Closed without an answer instead, as if the process had stopped listening a moment earlier:
        # deploy/'s proxies then try the next process (nginx's `error`, HAProxy's `empty-response`), and a
        # client without a proxy reconnects as it does after any lost connection.
        if not self.handshake_complete and self.initial_response is None and not self.transport.is_closing():
            log.debug("closing a WebSocket handshake caught by a stop, unanswered")
            self.close_sent = True
            self.transport.close()
            return
        super().shutdown()

    def _handshake_overdue(self) -> None:
        self._handshake_timer = None
        if not self.handshake_complete and not self.transport.is_closing():
            log.debug("closing a WebSocket whose handshake did not complete within %s s", self.handshake_timeout)
            self.send_500_response()
            self.close_sent = True
            self.transport.close()


def _drop_stalled(transport: asyncio.BaseTransport, seconds: float) -> None:
    """Resets a connection whose client has taken none of what waits for it for `seconds`: `abort` drops the
    write buffer (`close` would wait for it to drain, which it never will), and a zero linger time has the
    kernel drop what it holds and send a reset (a plain close keeps sending it, for minutes)."""
    log.debug("dropping a connection whose client took nothing it was sent for %s s", seconds)
    sock = transport.get_extra_info("socket")
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    transport.abort()  # type: ignore[attr-defined]


def _is_utf8(parts: list[bytes]) -> bool:
    try:
        for part in parts if len(parts) == 1 else [b"".join(parts)]:
            part.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def protocols(settings: Settings) -> tuple[type[GuardedH11Protocol], type[GuardedWebSocketProtocol]]:
    """The HTTP and WebSocket protocol classes for one uvicorn server, with the settings' bounds:
    `handshake_timeout`, `body_timeout`, `send_timeout`, `send_buffer_bytes` and `connections_per_address`."""
    peers = PeerCount(settings.connections_per_address)
    http = type("GuardedH11Protocol", (GuardedH11Protocol,), {
        "handshake_timeout": settings.handshake_timeout, "body_timeout": settings.body_timeout,
        "send_timeout": settings.send_timeout, "send_buffer_bytes": settings.send_buffer_bytes, "peers": peers})
    ws = type("GuardedWebSocketProtocol", (GuardedWebSocketProtocol,), {
        "handshake_timeout": settings.handshake_timeout, "send_timeout": settings.send_timeout, "peers": peers})
    return http, ws
