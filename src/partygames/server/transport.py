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

uvicorn also logs an error for every handshake denied with an HTTP response (here: a page on another
site), and a traceback when a text frame is not UTF-8; here the connection fails with 1007 (RFC
6455, 8.1) and a line at debug level: a client's behaviour never puts a traceback in the log.

`protocols(timeout)` gives the two classes for `uvicorn.run(http=..., ws=...)`.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

log = logging.getLogger(__name__)

DEFAULT_HANDSHAKE_TIMEOUT = 10.0


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol, closing a connection whose request head is not complete in time."""

    handshake_timeout = DEFAULT_HANDSHAKE_TIMEOUT

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)  # type: ignore[arg-type]
        self._head_timer: asyncio.TimerHandle | None = None
        self._await_head()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._await_head()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
        super().connection_lost(exc)

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
    """uvicorn's websockets protocol, answering a refused handshake and closing one left incomplete."""

    handshake_timeout = DEFAULT_HANDSHAKE_TIMEOUT

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        self._handshake_timer: asyncio.TimerHandle | None = self.loop.call_later(
            self.handshake_timeout, self._handshake_overdue)

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
        super().connection_lost(exc)

    def _handshake_overdue(self) -> None:
        self._handshake_timer = None
        if not self.handshake_complete and not self.transport.is_closing():
            log.debug("closing a WebSocket whose handshake did not complete within %s s", self.handshake_timeout)
            self.send_500_response()
            self.close_sent = True
            self.transport.close()


def _is_utf8(parts: list[bytes]) -> bool:
    try:
        for part in parts if len(parts) == 1 else [b"".join(parts)]:
            part.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def protocols(handshake_timeout: float) -> tuple[type[GuardedH11Protocol], type[GuardedWebSocketProtocol]]:
    """The HTTP and WebSocket protocol classes for uvicorn, closing handshakes after `handshake_timeout` s."""
    http = type("GuardedH11Protocol", (GuardedH11Protocol,), {"handshake_timeout": handshake_timeout})
    ws = type("GuardedWebSocketProtocol", (GuardedWebSocketProtocol,), {"handshake_timeout": handshake_timeout})
    return http, ws
