"""Deadline timers. The phase's start time is stored with the action that began it, so a restarted
server computes the same end time and fires at once if it has already passed."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING

from partygames.engine.errors import IllegalAction

if TYPE_CHECKING:
    from partygames.server.rooms import Room

log = logging.getLogger(__name__)


def schedule(room: Room) -> None:
    """(Re)arms the room's timer for its current phase (lock held)."""
    if room.timer is not None and room.timer is not asyncio.current_task():
        room.timer.cancel()
    room.timer = None
    room.timer_phase = room.phase
    if room.phase is None or room.phase_started_at is None or room.match is None:
        return
    deadline = room.match.time_limit()
    if deadline is None:
        return
    ends_at = room.phase_started_at + deadline.seconds * room.hub.settings.deadline_scale
    room.timer = asyncio.get_running_loop().create_task(_fire(room, room.phase, ends_at))


async def _fire(room: Room, phase: str, ends_at: float) -> None:
    await asyncio.sleep(max(0.0, ends_at - time.time()))
    async with room.lock:
        if room.timer is asyncio.current_task():
            room.timer = None
        if room.match is None or room.status != "playing" or room.broken:
            return
        # A seat without a default keeps the phase open; nothing re-arms until the phase changes.
        # Defaults go to every seat still awaited, one at a time, while the phase is the same one.
        for seat in list(room.match.to_act()):
            deadline = room.match.time_limit()
            if deadline is None or deadline.phase != phase or room.status != "playing" or room.broken:
                break
            if seat not in room.match.to_act() or seat not in deadline.defaults:
                continue
            try:
                room.apply_default(seat, deadline.defaults[seat])
            except IllegalAction:
                log.exception("default action for seat %d in room %s was refused", seat, room.code)
