"""Connection churn against a crowd (issue #21, item 4), over real WebSockets.

Room A is watched by a crowd of spectators; one client connects to it and closes, as fast as it can;
meanwhile a spectator of room B pings every 20 ms. Each connection that comes or goes changes room A's
`room` JSON (its spectator count). Printed per run: the visits the churner made, the `room` frames the
crowd received (in all, and per crowd member and second), and room B's ping round trip (p50/p99), for:
no churn; churn with `presence_interval=0` (every arrival and departure announced at once to everyone,
as before issue #21); churn with the default interval (1 s). The server (SQLite in a temporary directory)
is pinned to one core, this load generator to the other; the crowd and spectator limits are raised.

    .venv/bin/python benchmarks/churn.py [--crowd 500] [--seconds 10]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import tempfile
import time
from pathlib import Path

import httpx
from server_load import cpu_seconds, free_port, start_server
from websockets.asyncio.client import ClientConnection, connect


async def watch(url: str, counts: list[int], ready: asyncio.Event, crowd: int) -> None:
    """One member of the crowd: counts the `room` frames it receives."""
    async with connect(url, max_size=2**22) as ws:
        await ws.recv()  # welcome
        counts.append(0)
        index = len(counts) - 1
        if len(counts) == crowd:
            ready.set()
        async for raw in ws:
            if json.loads(raw)["type"] == "room":
                counts[index] += 1


async def churn(url: str, until: float) -> int:
    visits = 0
    while time.monotonic() < until:
        async with connect(url) as ws:
            await ws.recv()
        visits += 1
    return visits


async def pings(ws: ClientConnection, until: float) -> list[float]:
    """Round trips of pings sent every 20 ms, in milliseconds."""
    times: list[float] = []
    while time.monotonic() < until:
        sent = time.perf_counter()
        await ws.send('{"type": "ping"}')
        while json.loads(await ws.recv())["type"] != "pong":
            pass
        times.append((time.perf_counter() - sent) * 1000)
        await asyncio.sleep(0.02)
    return times


async def run(port: int, crowd: int, seconds: float, churning: bool) -> tuple[int, int, list[float]]:
    base = f"http://127.0.0.1:{port}"
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        rooms = []
        for _ in range(2):
            created = (await http.post("/api/rooms", json={"game": "rounds", "seats": 4})).json()
            rooms.append(created["code"])
    counts: list[int] = []
    ready = asyncio.Event()
    watchers = [asyncio.create_task(watch(f"ws://127.0.0.1:{port}/ws/{rooms[0]}", counts, ready, crowd))
                for _ in range(crowd)]
    await asyncio.wait_for(ready.wait(), 120)
    await asyncio.sleep(2)  # the crowd's own arrival is announced
    for i in range(len(counts)):
        counts[i] = 0
    async with connect(f"ws://127.0.0.1:{port}/ws/{rooms[1]}") as pinger:
        await pinger.recv()
        until = time.monotonic() + seconds
        visits = churn(f"ws://127.0.0.1:{port}/ws/{rooms[0]}", until) if churning else asyncio.sleep(0, 0)
        made, times = await asyncio.gather(visits, pings(pinger, until))
    await asyncio.sleep(1.5)  # the last announcement
    frames = sum(counts)
    for task in watchers:
        task.cancel()
    await asyncio.gather(*watchers, return_exceptions=True)
    return made or 0, frames, times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--crowd", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args()
    os.sched_setaffinity(0, {1})
    print(f"crowd of {args.crowd} spectators, {args.seconds:g} s each\n")
    print("| run | visits | room frames to the crowd | per member a second | ping p50 ms | ping p99 ms | srv CPU |")
    print("|---|---|---|---|---|---|---|")
    for label, interval, churning in (("no churn", 1.0, False), ("churn, presence_interval=0 (before)", 0.0, True),
                                      ("churn, presence_interval=1 (default)", 1.0, True)):
        with tempfile.TemporaryDirectory() as data:
            port = free_port()
            proc = start_server(port, Path(data), None, core=0,
                                extra=["--set", f"presence_interval={interval}",
                                       "--set", "spectators_per_room=100000"])
            try:
                cpu = cpu_seconds(proc.pid)
                start = time.monotonic()
                visits, frames, times = asyncio.run(run(port, args.crowd, args.seconds, churning))
                busy = (cpu_seconds(proc.pid) - cpu) / (time.monotonic() - start)
            finally:
                proc.kill()
                proc.wait()
        quantiles = statistics.quantiles(times, n=100)
        print(f"| {label} | {visits:,} | {frames:,} | {frames / args.crowd / args.seconds:.1f} | "
              f"{quantiles[49]:.1f} | {quantiles[98]:.1f} | {busy:.0%} |", flush=True)


if __name__ == "__main__":
    main()
