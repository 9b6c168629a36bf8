"""One process never holds a room under two epochs (issue #31, item 1).

Two hubs on one real PostgreSQL in this process, as two server processes: the first plays a room of bots
and hands it over (SIGTERM's `handover`); on the second, a rolling restart's crossing paths reach the room at
the same moment: the notice of its release, the sweep that finds it unowned, a client's action forwarded to
it. Each of them takes the room (`Hub._take`); only the first may claim it, the others find it taken."""

from __future__ import annotations

import asyncio
import logging
import time
from pathlib import Path

import pytest

from partygames.server.bus import RELEASED
from partygames.server.hub import Hub
from partygames.server.protocol import CreateRoom
from partygames.server.settings import Settings
from tests.server.games import GAMES
from tests.server.loops import run


def settings(database: str, folder: Path) -> Settings:
    # No sweep nor lease renewal of their own during the test (long periods): the test makes the crossing.
    return Settings.create(database, folder, bot_delay=0.01, bot_pace=0, reveal_scale=0, lease_seconds=30.0,
                           sweep_seconds=600.0, presence_interval=600.0)


async def until(check: object, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not check():  # type: ignore[operator]
        assert time.monotonic() < deadline, what
        await asyncio.sleep(0.02)


def test_crossing_takes_of_a_released_room_claim_it_once(database: str, tmp_path: Path,
                                                         caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="partygames")

    async def scenario() -> None:
        first, second = Hub(settings(database, tmp_path / "a"), GAMES), Hub(settings(database, tmp_path / "b"), GAMES)
        await first.start()
        await second.start()
        try:
            room, _, _, _ = await first.create(CreateRoom(game="rounds-toy", seats=2,
                                                          seat_kinds=["bot:random", "bot:random"], host_seat=None))
            await room.start()
            followed = await second.get(room.code)  # the second process follows it (a socket there)
            await until(lambda: room.current is not None and room.current.last_seq >= 5, 10, "the bots play")
            # The release notice is the test's to deliver: with the sweep and a forwarded action, at once.
            await second.bus.unlisten(RELEASED)
            await first.handover()  # releases it
            before = await asyncio.to_thread(second.storage.load, room.code)
            assert before is not None and before.row["owner"] is None
            second._released({"codes": [room.code]})
            await asyncio.gather(second._take(room.code), second._take(room.code))
            await until(lambda: followed.owned, 10, "the second process takes the room")
            await asyncio.sleep(0.5)  # (any other claim under way ends)
            after = await asyncio.to_thread(second.storage.load, room.code)
            assert after is not None and after.row["owner"] == second.node
            assert after.row["epoch"] == before.row["epoch"] + 1, "the room was claimed more than once"
            assert second.rooms[room.code] is followed and followed.epoch == after.row["epoch"]
            # It plays on under that epoch: nothing of it is fenced, nor dropped.
            seq = followed.current.last_seq if followed.current is not None else 0
            await until(lambda: followed.current is not None and followed.current.last_seq >= seq + 10, 10,
                        "the bots play on at the new owner")
            await second.committer.drain()
            assert second.rooms.get(room.code) is followed and not followed.broken
            stored = await asyncio.to_thread(second.storage.load, room.code)
            assert stored is not None and stored.row["epoch"] == after.row["epoch"]
            assert {e["epoch"] for e in stored.log[len(before.log):]} <= {after.row["epoch"]}
            assert second.metrics.registry.get_sample_value("partygames_lease_takeovers_total") == 1
        finally:
            await second.stop()
            await first.stop()

    run(scenario)
    problems = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert not problems, problems
