"""Closed-loop load test of the real server over real WebSockets (issue 4, Benchmark).

M matches of a 4-seat game in which all four seats act at once each round; every client acts as soon
as it may and waits for the update that confirms its action before acting again. For each M it prints
accepted actions/s, latency from send to the sender's confirming update (p50/p95/p99), errors and the
server's RSS. The server (uvicorn, SQLite in a temporary directory, every action committed before it is
confirmed) is pinned to one core, this load generator to the other. Loopback only; bounded in time.

    .venv/bin/python benchmarks/server_load.py [--matches 1,10,50,100] [--seconds 10] [--database-url URL]

The game is benchmark-only (`rounds`, served with `--games-module server_load:GAMES`): sealed bids of
0-9 by all four seats at once, revealed when all have bid, then the next round.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import httpx
from pydantic import Field
from websockets.asyncio.client import ClientConnection, connect

from partygames.engine import (
    Action,
    ActionSpec,
    Event,
    Game,
    Match,
    Options,
    RandomBot,
    Result,
    Text,
    int_range,
    spec,
)

ROOT = Path(__file__).resolve().parents[1]


# -- the benchmark-only game -----------------------------------------------------------------------------
class RoundsOptions(Options):
    rounds: int = Field(1_000_000, ge=1, le=10_000_000, title="Rounds")


class RoundsMatch(Match):
    """Every round all seats bid 0-9 at once (sealed); the bids are revealed when all have bid."""

    game_id = "rounds"
    options_class = RoundsOptions
    seat_counts = (4,)

    def _setup(self) -> None:
        self.round = 1
        self.bids: dict[str, int] = {}
        self.last: list[int] | None = None
        self.awaited = list(range(self.seats))  # kept up to date so that to_act() stays cheap

    def to_act(self) -> tuple[int, ...]:
        return tuple(self.awaited)

    def _legal_actions(self, seat: int) -> list[ActionSpec]:
        return [spec("bid", amount=int_range(0, 9))]

    def _apply(self, seat: int, action: Action) -> list[Event]:
        self.bids[str(seat)] = action["amount"]
        events = [Event("bid_sealed", {"seat": seat, "round": self.round})]
        if len(self.bids) == self.seats:
            self.last = [self.bids[str(s)] for s in range(self.seats)]
            events.append(Event("revealed", {"round": self.round, "bids": self.last}))
            self.round += 1
            self.bids = {}
        assert isinstance(self.options, RoundsOptions)
        self.awaited = ([] if self.round > self.options.rounds
                        else [s for s in range(self.seats) if str(s) not in self.bids])
        return events

    def _view(self, seat: int | None) -> dict[str, Any]:
        return {"round": self.round, "my_bid": self.bids.get(str(seat)),
                "has_bid": [str(s) in self.bids for s in range(self.seats)], "last_bids": self.last}

    def result(self) -> Result | None:
        return None if self.to_act() else Result.ranked([0.0] * self.seats, "rounds_done")


GAME = Game(id="rounds", title=Text("Rounds", "ラウンド"), match_class=RoundsMatch,
            summary=Text("Benchmark game.", "ベンチマーク用。"), bots={"random": RandomBot})
GAMES = {"rounds": GAME}


# -- the server process -------------------------------------------------------------------------------------
def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(port: int, data_dir: Path, database_url: str | None, core: int,
                 extra: Sequence[str] = ()) -> subprocess.Popen[bytes]:
    """The server on `core`, its limits raised for a load from one address; `extra`: more arguments."""
    args = [sys.executable, "-m", "partygames.server", "--host", "127.0.0.1", "--port", str(port),
            "--data-dir", str(data_dir), "--games-module", "server_load:GAMES", "--rate-limit", "100000",
            "--set", "http_rate_burst=100000", "--set", "sockets_per_address=100000", *extra]
    if database_url:
        args += ["--database-url", database_url]
    env = {**os.environ, "PYTHONPATH": f"{ROOT / 'src'}:{ROOT / 'benchmarks'}:{ROOT}"}  # this checkout's code, whatever is installed
    proc = subprocess.Popen(args, cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                            preexec_fn=lambda: os.sched_setaffinity(0, {core}))
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("the server did not start")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


# -- the load ---------------------------------------------------------------------------------------------
class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.errors = 0
        self.measuring = False
        self.server_cpu = self.load_cpu = 0.0


async def player(ws: ClientConnection, seat: int, stats: Stats, stop: asyncio.Event) -> None:
    """Acts whenever its seat is awaited; one action in flight at a time."""
    sent_at: float | None = None
    pending: str | None = None
    counter = 0
    async for raw in ws:
        frame = json.loads(raw)
        kind = frame["type"]
        if kind == "error":
            if stats.measuring:
                stats.errors += 1
            pending = sent_at = None
        elif kind == "update":
            if pending is not None and pending in frame["acks"]:
                if stats.measuring and sent_at is not None:
                    stats.latencies.append(time.perf_counter() - sent_at)
                pending = sent_at = None
        else:
            continue
        if stop.is_set():
            return
        if pending is None and kind == "update" and frame["view"]["legal_actions"]:
            counter += 1
            pending = f"{seat}-{counter}"
            sent_at = time.perf_counter()
            await ws.send(json.dumps({"type": "action", "action": {"type": "bid", "amount": counter % 10},
                                      "id": pending}))


async def run_level(base: str, server_pid: int, matches: int, seconds: float, warmup: float) -> Stats:
    stats = Stats()
    stop = asyncio.Event()
    sockets: list[ClientConnection] = []
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        rooms = []
        for _ in range(matches):
            created = (await http.post("/api/rooms", json={"game": "rounds", "seats": 4, "name": "p0"})).json()
            tokens = [created["token"]]
            for i in range(1, 4):
                tokens.append((await http.post(f"/api/rooms/{created['code']}/join", json={"name": f"p{i}"})).json()["token"])
            rooms.append((created, tokens))
        for created, tokens in rooms:
            for token in tokens:
                sockets.append(await connect(f"{base.replace('http', 'ws')}/ws/{created['code']}?token={token}",
                                             max_size=2**22, compression=None))
        tasks = [asyncio.create_task(player(ws, i % 4, stats, stop)) for i, ws in enumerate(sockets)]
        for created, _ in rooms:
            await http.post(f"/api/rooms/{created['code']}/start", headers={"X-Host-Token": created["host_token"]})
        await asyncio.sleep(warmup)
        stats.measuring = True
        cpu_before = (cpu_seconds(server_pid), cpu_seconds(os.getpid()))
        await asyncio.sleep(seconds)
        stats.measuring = False
        stats.server_cpu = (cpu_seconds(server_pid) - cpu_before[0]) / seconds
        stats.load_cpu = (cpu_seconds(os.getpid()) - cpu_before[1]) / seconds
        stop.set()
        for ws in sockets:
            await ws.close()
        await asyncio.gather(*tasks, return_exceptions=True)
    return stats


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", default="1,10,50,100", help="comma-separated M values")
    parser.add_argument("--seconds", type=float, default=10.0, help="measured seconds per M")
    parser.add_argument("--warmup", type=float, default=2.0)
    parser.add_argument("--database-url", default=None, help="default: SQLite in a temporary directory")
    args = parser.parse_args()
    cores = sorted(os.sched_getaffinity(0))
    server_core, load_core = cores[0], cores[-1]
    os.sched_setaffinity(0, {load_core})
    print(f"server on core {server_core}, load generator on core {load_core}; {args.seconds:.0f} s per level; "
          f"storage: {args.database_url or 'SQLite (WAL, synchronous=FULL)'}")
    print(f"{'M':>4} {'sockets':>7} {'actions/s':>10} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} {'errors':>6} {'RSS MiB':>8} {'srv CPU':>7} {'gen CPU':>7}")
    with tempfile.TemporaryDirectory(prefix="partygames-bench-") as tmp:
        for m in (int(x) for x in args.matches.split(",")):
            port = free_port()
            proc = start_server(port, Path(tmp) / f"m{m}", args.database_url, server_core)
            try:
                stats = asyncio.run(run_level(f"http://127.0.0.1:{port}", proc.pid, m, args.seconds, args.warmup))
                lat = [x * 1000 for x in stats.latencies]
                print(f"{m:>4} {4 * m:>7} {len(lat) / args.seconds:>10.0f} {statistics.median(lat) if lat else float('nan'):>8.1f} "
                      f"{percentile(lat, 0.95):>8.1f} {percentile(lat, 0.99):>8.1f} {stats.errors:>6} {rss_mib(proc.pid):>8.1f} {stats.server_cpu:>7.0%} {stats.load_cpu:>7.0%}",
                      flush=True)
            finally:
                proc.terminate()
                proc.wait(10)


if __name__ == "__main__":
    main()
