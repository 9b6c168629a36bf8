"""One WebSocket connection: its seat, its limits and its send queue.

Frames are queued and encoded by the connection's own writer task, so a slow client never holds
up its room. Consecutive updates waiting in the queue are merged into one (the latest
view, all events, all acks): a client that falls behind gets fewer, larger frames, never a gap.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections import deque
from collections.abc import Hashable
from typing import Any

from starlette.websockets import WebSocket

from partygames.server.frames import encode, merge_updates
from partygames.server.ratelimit import TokenBucket
from partygames.server.settings import Settings

log = logging.getLogger(__name__)


class Connection:
    """A client in a room: a seat (None: spectator) and the last version it was sent."""

    def __init__(self, websocket: WebSocket, seat: int | None, name: str, settings: Settings) -> None:
        now = time.monotonic()
        self.id = secrets.token_hex(6)  # how another process names it (a forwarded action's sender)
        self.away = False  # its page is hidden (its person stepped away)
        self.websocket = websocket
        # For share links: the public URL (None: the hub's). Never the address in the client's Host header.
        self.base_url = settings.base_url
        self.seat = seat
        self.name = name
        self.sent_version = -1  # the last version this connection was given (-1: none yet)
        # What it was last shown: its view's content (the JSON without stamps) and the deadline's phase and end.
        self.shown: tuple[str, tuple[str, float] | None] | None = None
        self.sent_channels: list[str] = []  # the chat channels it was last told it may post to
        # Who was here in the last room frame (or welcome) it was sent: its seats connected and spectators.
        self.presence: Hashable = None  # who was here, as its last room frame (or welcome) showed it
        self.frames = TokenBucket(settings.rate_per_second, settings.rate_burst, now)
        self.chat = TokenBucket(settings.chat_per_window / settings.chat_window_seconds,
                                settings.chat_per_window, now)
        self.refusals = 0
        self._limit = settings.send_queue_limit
        # Frames waiting for the writer, and the future it waits on while there are none. A deque and one
        # future rather than an asyncio.Queue: a frame goes through here for every update of every seat, and
        # the queue's bookkeeping (task counts, an event, getter lists) cost a few µs each time.
        self._queue: deque[dict[str, Any] | int | None] = deque()
        self._wakeup: asyncio.Future[None] | None = None
        self._writer: asyncio.Task[None] | None = None
        self.closed = False

    def start(self) -> None:
        self._writer = asyncio.get_running_loop().create_task(self._write_loop())

    def send(self, frame: dict[str, Any]) -> None:
        """Queues a frame; a client that lets the queue overflow is disconnected."""
        if self.closed:
            return
        if len(self._queue) >= self._limit:
            log.warning("closing a connection whose send queue overflowed")
            self.close()
            return
        self._put(frame)

    def close(self, code: int = 1000) -> None:
        """Closes the socket once the frames queued before have been written (`code`: 1012 asks the client
        to come back, to whichever process serves it then)."""
        if not self.closed:
            self.closed = True
            self._put(code)

    def queued(self) -> list[dict[str, Any] | int | None]:
        """Takes the frames waiting to be written (the writer does; tests do where none runs)."""
        frames = list(self._queue)
        self._queue.clear()
        return frames

    def _put(self, item: dict[str, Any] | int | None) -> None:
        self._queue.append(item)
        wakeup, self._wakeup = self._wakeup, None
        if wakeup is not None and not wakeup.done():
            wakeup.set_result(None)

    async def stop(self) -> None:
        self.close()
        if self._writer is not None:
            self._writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._writer

    async def _write_loop(self) -> None:
        try:
            loop = asyncio.get_running_loop()
            while True:
                if not self._queue:
                    self._wakeup = loop.create_future()
                    await self._wakeup
                    continue
                for frame in merge_updates(self.queued()):
                    if not isinstance(frame, dict):  # the close marker: its code
                        await self.websocket.close(frame or 1000)
                        return
                    await self.websocket.send_text(encode(frame))
        except Exception:  # the client went away; the reader notices and detaches
            self.closed = True
