"""The room clock for games that move with time (`Game.tick_rate`; no current game sets it).

While the match is playing, the room calls `match.tick(now)` `tick_rate` times a second, with `now`
the seconds since the match started. Each tick is an entry of the action log (seat None, source
`clock`, action `{"now": t}`), committed like any action, so replay after a restart reproduces the
state exactly and clients receive the tick's events as an update with the next version.
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from partygames.server.rooms import Room


async def run(room: Room) -> None:
    rate = room.game.tick_rate
    assert rate
    period = 1.0 / rate
    while True:
        await asyncio.sleep(period)
        async with room.lock:
            if room.match is None or room.status != "playing" or room.broken or room.started_at is None:
                room.ticker = None
                return
            room.apply_tick(round(time.time() - room.started_at, 3))
