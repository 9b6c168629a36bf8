"""What happens in a room without a client: time limits, lapses and arrivals, and bot turns.

The scheduler keeps one timer per playing room, set for the earlier of the match's next wake-up
(`Match.wake_at`, on the wall clock: later by the reveals that hold the match clock) and the next bot
turn (a bot acts `bot_delay` seconds after the match last changed and once the reveal people watch has
ended, so that people can follow). Every change to the room calls `poke`, which moves the timer only if that moment
moved (within a phase of a turn-based game it does not: an action costs no more than a comparison). When
the timer fires, the room does what is due (`run_due`) under its lock. After a restart the same
computation resumes every room: a time limit that passed while the server was down falls due at once, at
the match time it was due.
"""

from __future__ import annotations

import asyncio
import time
from typing import Protocol


class Scheduled(Protocol):
    """What the scheduler drives (a `Room`)."""

    lock: asyncio.Lock

    def next_due(self) -> float | None:
        """The wall-clock time at which something next falls due (None: nothing until someone acts)."""
        ...

    def run_due(self, wall: float) -> None:
        """Does what is due by wall-clock time `wall` (with the lock held)."""
        ...


class Scheduler:
    def __init__(self, room: Scheduled) -> None:
        self.room = room
        self._at: float | None = None  # when the timer fires (wall clock)
        self._timer: asyncio.TimerHandle | None = None
        self._task: asyncio.Task[None] | None = None

    def poke(self) -> None:
        """The room changed: set the timer for what is due next, if that moment moved."""
        at = self.room.next_due()
        if at == self._at and (at is None or self._timer is not None or self._task is not None):
            return
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._at = at
        if at is not None and self._task is None:  # a running task pokes again when done
            loop = asyncio.get_running_loop()
            self._timer = loop.call_at(loop.time() + max(0.0, at - time.time()), self._fire)

    def stop(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        if self._task is not None and self._task is not asyncio.current_task():
            self._task.cancel()
        self._timer = self._task = None
        self._at = None

    def _fire(self) -> None:
        self._timer = None
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        room = self.room
        try:
            async with room.lock:
                room.run_due(time.time())
        finally:
            self._task = None
            self._at = None
        self.poke()
