"""Frames held back until the commit they depend on is on disk.

A room puts every frame it produces here together with its latest pending write. Writes commit in
order, so releasing items strictly in order keeps both rules: nothing leaves before the state it
shows is stored, and each connection gets its frames in the order the room made them.
"""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Any, Protocol


class Recipient(Protocol):
    """Whom a frame goes to: a connection here, or one another process holds (`rooms.RemoteConnection`)."""

    def send(self, frame: dict[str, Any]) -> None: ...


Sends = list[tuple[Recipient, dict[str, Any]]]


class Outbox:
    def __init__(self) -> None:
        self._items: deque[tuple[asyncio.Future[None] | None, Sends]] = deque()
        self._watched: asyncio.Future[None] | None = None

    def put(self, after: asyncio.Future[None] | None, sends: Sends) -> None:
        """Delivers `sends` once `after` (None: nothing pending) has committed; dropped if it failed."""
        if not sends:
            return
        self._items.append((after, sends))
        if after is None or after.done():
            self.flush()
        elif after is not self._watched:
            self._watched = after
            after.add_done_callback(self.flush)

    def flush(self, _done: object = None) -> None:
        while self._items:
            after, sends = self._items[0]
            if after is not None and not after.done():
                return
            self._items.popleft()
            if after is not None and after.exception() is not None:
                continue  # never stored: nobody may hear of it (the room reloads)
            for conn, frame in sends:
                conn.send(frame)

    def clear(self) -> None:
        self._items.clear()
