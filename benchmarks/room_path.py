"""Server CPU per accepted action, in one process, without sockets (issue 7, Speed).

`server_load.py` measures the whole server over real WebSockets, and its figures move by 5-10% from run to
run with the machine. This drives the same rooms through the same code below the socket: the hub, each
room's `act`, the session and engine, the committer storing every step in SQLite before it is announced,
and delivery building each seat's update and encoding its frame, which a stand-in socket then drops. Each
of M rooms of `server_load`'s 4-seat game plays round after round: its four seats act, then it waits for
their four acknowledgements. It prints actions/s and the process's CPU time per action (the committer's
thread included), which differs by a few µs between runs.

    .venv/bin/python benchmarks/room_path.py [--matches 50] [--seconds 4]

To compare two checkouts, run each with its own code first on the path:
`PYTHONPATH=OTHER/src python OTHER/benchmarks/room_path.py`, with this file copied there (it needs only
`Hub.create`, `Room.join`, `Room.start`, `Room.attach` and `Room.act`, which issue 7 kept, `tune_gc` from
`server/main.py`, and that checkout's own `server_load.py` for the game).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from server_load import GAMES

from partygames.server.connections import Connection
from partygames.server.hub import Hub
from partygames.server.main import tune_gc
from partygames.server.protocol import CreateRoom
from partygames.server.settings import Settings


class DroppingSocket:
    """Takes a connection's encoded frames and drops them, noting when the one holding `wanted` arrives."""

    def __init__(self) -> None:
        self.wanted: str | None = None
        self.arrived = asyncio.Event()

    async def send_text(self, text: str) -> None:
        if self.wanted is not None and self.wanted in text:
            self.wanted = None
            self.arrived.set()

    async def close(self, code: int = 1000) -> None:
        pass


async def play_room(hub: Hub, counted: list[int], measuring: asyncio.Event, stop: asyncio.Event) -> None:
    room, _, _, _ = await hub.create(CreateRoom(game="rounds", seats=4, name="p0", host_seat=0))
    for i in range(1, 4):
        await room.join(f"p{i}", None)
    await room.start()
    seats: list[tuple[Connection, DroppingSocket]] = []
    for seat in range(4):
        socket = DroppingSocket()
        conn = Connection(socket, seat, f"p{seat}", hub.settings)  # type: ignore[arg-type]
        conn.start()
        await room.attach(conn, None)
        seats.append((conn, socket))
    sent = 0
    while not stop.is_set():
        for seat, (conn, socket) in enumerate(seats):
            sent += 1
            ref = f"a{sent}s{seat}"
            socket.wanted = f'"{ref}"'
            socket.arrived.clear()
            await room.act(conn, {"type": "bid", "amount": (sent + seat) % 10}, ref, None)
        for _, socket in seats:
            await socket.arrived.wait()  # the acknowledgement: its update was stored, built and encoded
        if measuring.is_set():
            counted[0] += len(seats)


async def measure(matches: int, seconds: float, warmup: float) -> tuple[float, float]:
    with tempfile.TemporaryDirectory() as data:
        settings = Settings(database_url=f"sqlite:///{data}/bench.sqlite3", base_url="http://127.0.0.1",
                            rate_per_second=1e9, rate_burst=1e9)
        hub = Hub(settings, GAMES)
        await hub.start()
        tune_gc()  # as `partygames serve` does once the app is built: its collector, not Python's defaults
        counted, measuring, stop = [0], asyncio.Event(), asyncio.Event()
        tasks = [asyncio.create_task(play_room(hub, counted, measuring, stop)) for _ in range(matches)]
        await asyncio.sleep(warmup)
        measuring.set()
        cpu, wall = time.process_time(), time.perf_counter()
        await asyncio.sleep(seconds)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        measuring.clear()
        stop.set()
        await asyncio.wait(tasks, timeout=10)
        await hub.stop()
        return counted[0] / wall, cpu / max(counted[0], 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=4.0)
    parser.add_argument("--warmup", type=float, default=1.5)
    args = parser.parse_args()
    rate, cpu = asyncio.run(measure(args.matches, args.seconds, args.warmup))
    print(f"{args.matches} matches: {rate:,.0f} actions/s, {cpu * 1e6:.1f} µs CPU per action")


if __name__ == "__main__":
    main()
