"""What happens in a room without a client: time limits, lapses and arrivals, and bot turns.

One task per playing room sleeps until the earlier of the match's next wake-up (`Match.wake_at`) and the
next bot turn (a bot acts `bot_delay` seconds after the match last changed, so that people can follow),
then lets the room do what is due (`Room.run_due`) under its lock. Any change to the room pokes it, so it
never sleeps past something new. After a restart the same computation resumes every room: a time limit
that passed while the server was down falls due at once, at the match time it was due.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Protocol


class Scheduled(Protocol):
    """What the scheduler drives (a `Room`)."""

    lock: asyncio.Lock

    @property
    def is_running(self) -> bool: ...

    def run_due(self, wall: float) -> float | None:
        """Does what is due by wall-clock time `wall`; returns the seconds until the next thing is due."""
        ...


class Scheduler:
    def __init__(self, room: Scheduled) -> None:
        self.room = room
        self._poked = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def poke(self) -> None:
        """Something changed: recompute what is next (starting the task if it is not running)."""
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run())
        self._poked.set()

    def stop(self) -> None:
        if self._task is not None and self._task is not asyncio.current_task():
            self._task.cancel()
        self._task = None

    async def _run(self) -> None:
        room = self.room
        while True:
            self._poked.clear()
            async with room.lock:
                wait = room.run_due(time.time())
            if wait is None and not room.is_running:
                return
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._poked.wait(), wait)
