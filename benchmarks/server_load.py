"""Closed-loop load test of the real server over real WebSockets (issues 4 and 20, Benchmark).

M matches of a 4-seat game in which all four seats act at once each round; every client acts as soon
as it may and waits for the update that confirms its action before acting again. For each M it prints
accepted actions/s, latency from send to the sender's confirming update (p50/p95/p99), errors and the
server's RSS. The server (uvicorn, SQLite in a temporary directory, every action committed before it is
confirmed) is pinned to one core, this load generator to the other. Loopback only; bounded in time.

    .venv/bin/python benchmarks/server_load.py [--matches 1,10,50,100] [--seconds 10] [--database-url URL]

Two more runs (issue 20):

    .venv/bin/python benchmarks/server_load.py --compare /tmp/oldmain [--matches 50] [--repeat 3]

SQLite, one process, this checkout's server against another checkout's (e.g. `git worktree add /tmp/oldmain
d5bae5f`, the main before the scale-out), alternated so that the machine's drift hits both alike.

    .venv/bin/python benchmarks/server_load.py --scale-out [--matches 50] [--proxy nginx|haproxy]

On a throwaway PostgreSQL (tests/server/pg.py; or --database-url postgresql://...): one process, then two
behind the proxy (deploy/'s configuration), with CPU per action (servers and PostgreSQL), the durable
commits a second and actions per commit (the servers' /metrics); the relay's cost (every socket on the
process that does not own its room, against every socket on the owner); and the takeover time: from a
SIGKILL (or SIGTERM) of the owner to the first accepted action of its room, with the default lease.

The game is benchmark-only (`rounds`, served with `--games-module server_load:GAMES`): sealed bids of
0-9 by all four seats at once, revealed when all have bid, then the next round.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, NamedTuple

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
HERE = Path(__file__).resolve().parent


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


def start_server(port: int, data_dir: Path, database_url: str | None, core: int | None,
                 extra: Sequence[str] = (), checkout: Path = ROOT) -> subprocess.Popen[bytes]:
    """The server of `checkout` on `core` (None: any), its limits raised for a load from one address;
    `extra`: more arguments."""
    args = [sys.executable, "-m", "partygames.server", "--host", "127.0.0.1", "--port", str(port),
            "--data-dir", str(data_dir), "--games-module", "server_load:GAMES", "--rate-limit", "100000", *extra]
    known = (checkout / "src/partygames/server/settings.py").read_text()
    for name, value in (("http_rate_burst", 100000), ("sockets_per_address", 100000),
                        ("unknown_code_burst", 100000), ("connections_per_address", 100000)):
        if f"    {name}:" in known:  # (an older checkout may not have the limit at all)
            args += ["--set", f"{name}={value}"]
    if database_url:
        args += ["--database-url", database_url]
    # That checkout's code, whatever is installed; this file's game.
    env = {**os.environ, "PYTHONPATH": f"{checkout / 'src'}:{HERE}:{checkout}"}
    affinity = (lambda: os.sched_setaffinity(0, {core})) if core is not None else None
    proc = subprocess.Popen(args, cwd=checkout, env=env, stdout=subprocess.DEVNULL, preexec_fn=affinity)
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
        self.server_cpu = self.load_cpu = self.pg_cpu = 0.0  # cores busy (CPU seconds a second)
        self.batches = self.steps = 0.0  # commit batches and steps stored a second (servers' /metrics)


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


class Topology(NamedTuple):
    """Where a level's rooms are created, started (which decides their owner) and played, by room index."""

    lobby: str  # creating and joining rooms
    start: list[str]  # room i is started through start[i % len]
    sockets: list[str]  # room i's four sockets connect to sockets[i % len]
    pids: list[int]  # the server processes (their CPU is counted)
    metrics: list[str]  # their /metrics (commit batches and steps); empty for a checkout without it
    postgres: int | None = None  # PostgreSQL's postmaster (its CPU, and its backends', is counted)


def single(base: str, pid: int, metrics: bool = False) -> Topology:
    return Topology(base, [base], [base], [pid], [base] if metrics else [])


def postgres_cpu(postmaster: int) -> float:
    """CPU time of PostgreSQL: the postmaster and its children (backends, WAL writer, checkpointer)."""
    total = cpu_seconds(postmaster)
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if int(fields[1]) == postmaster:
                total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, IndexError, ValueError):
            continue
    return total


def committed(urls: list[str]) -> tuple[float, float]:
    """Commit batches and steps stored so far by the processes at `urls`, from their /metrics."""
    from prometheus_client.parser import text_string_to_metric_families

    batches = steps = 0.0
    for url in urls:
        for family in text_string_to_metric_families(httpx.get(f"{url}/metrics", timeout=10).text):
            for sample in family.samples:
                if sample.name == "partygames_commit_seconds_count":
                    batches += sample.value
                elif sample.name == "partygames_steps_total":
                    steps += sample.value
    return batches, steps


def cpu_now(topology: Topology) -> tuple[float, float, float]:
    return (sum(cpu_seconds(pid) for pid in topology.pids), cpu_seconds(os.getpid()),
            postgres_cpu(topology.postgres) if topology.postgres else 0.0)


async def open_rooms(topology: Topology, matches: int, http: httpx.AsyncClient
                     ) -> list[tuple[dict[str, Any], list[str], list[ClientConnection]]]:
    """`matches` rooms of four seats, their sockets connected and the rooms started (by `topology`)."""
    rooms: list[tuple[dict[str, Any], list[str], list[ClientConnection]]] = []
    for _ in range(matches):
        created = (await http.post(f"{topology.lobby}/api/rooms", json={"game": "rounds", "seats": 4, "name": "p0"})).json()
        tokens = [created["token"]]
        for seat in range(1, 4):
            tokens.append((await http.post(f"{topology.lobby}/api/rooms/{created['code']}/join",
                                           json={"name": f"p{seat}"})).json()["token"])
        rooms.append((created, tokens, []))
    for i, (created, _, _) in enumerate(rooms):
        started = await http.post(f"{topology.start[i % len(topology.start)]}/api/rooms/{created['code']}/start",
                                  headers={"X-Host-Token": created["host_token"]})
        assert started.status_code == 200, started.text
    for i, (created, tokens, sockets) in enumerate(rooms):
        base = topology.sockets[i % len(topology.sockets)].replace("http", "ws")
        for token in tokens:
            sockets.append(await connect(f"{base}/ws/{created['code']}?token={token}", max_size=2**22,
                                         compression=None))
    return rooms


async def run_level(topology: Topology, matches: int, seconds: float, warmup: float) -> Stats:
    stats = Stats()
    stop = asyncio.Event()
    async with httpx.AsyncClient(timeout=30) as http:
        rooms = await open_rooms(topology, matches, http)
        sockets = [ws for _, _, room_sockets in rooms for ws in room_sockets]
        tasks = [asyncio.create_task(player(ws, i % 4, stats, stop)) for i, ws in enumerate(sockets)]
        await asyncio.sleep(warmup if len(topology.pids) < 2 else max(warmup, 3.0))  # (followers forgotten)
        stats.measuring = True
        before = cpu_now(topology)
        commits = await asyncio.to_thread(committed, topology.metrics)
        await asyncio.sleep(seconds)
        stats.measuring = False
        after = cpu_now(topology)
        commits_after = await asyncio.to_thread(committed, topology.metrics)
        stats.server_cpu, stats.load_cpu, stats.pg_cpu = ((b - a) / seconds for a, b in zip(before, after, strict=True))
        stats.batches, stats.steps = ((b - a) / seconds for a, b in zip(commits, commits_after, strict=True))
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


HEADER = (f"{'run':<26} {'M':>4} {'actions/s':>9} {'p50 ms':>7} {'p99 ms':>7} {'err':>4} {'srv CPU':>7} "
          f"{'µs/act':>7} {'PG CPU':>6} {'PG µs/act':>9} {'commits/s':>9} {'act/commit':>10}")


def row(label: str, matches: int, stats: Stats, seconds: float) -> str:
    lat = [x * 1000 for x in stats.latencies]
    rate = len(lat) / seconds
    per_action = stats.server_cpu / rate * 1e6 if rate else float("nan")
    pg = f"{stats.pg_cpu:>6.0%} {stats.pg_cpu / rate * 1e6 if rate else float('nan'):>9.0f}" if stats.pg_cpu else f"{'-':>6} {'-':>9}"
    commits = f"{stats.batches:>9.0f} {stats.steps / stats.batches if stats.batches else float('nan'):>10.1f}" \
        if stats.batches else f"{'-':>9} {'-':>10}"
    return (f"{label:<26} {matches:>4} {rate:>9.0f} {statistics.median(lat) if lat else float('nan'):>7.1f} "
            f"{percentile(lat, 0.99):>7.1f} {stats.errors:>4} {stats.server_cpu:>7.0%} {per_action:>7.0f} {pg} {commits}")


def levels(args: argparse.Namespace, server_core: int) -> None:
    """The classic run: one process, M matches per level."""
    print(f"server on core {server_core}; {args.seconds:.0f} s per level; "
          f"storage: {args.database_url or 'SQLite (WAL, synchronous=FULL)'}")
    print(f"{'M':>4} {'sockets':>7} {'actions/s':>10} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} {'errors':>6} {'RSS MiB':>8} {'srv CPU':>7} {'gen CPU':>7}")
    with tempfile.TemporaryDirectory(prefix="partygames-bench-") as tmp:
        for m in (int(x) for x in args.matches.split(",")):
            port = free_port()
            proc = start_server(port, Path(tmp) / f"m{m}", args.database_url, server_core)
            try:
                stats = asyncio.run(run_level(single(f"http://127.0.0.1:{port}", proc.pid), m, args.seconds, args.warmup))
                lat = [x * 1000 for x in stats.latencies]
                print(f"{m:>4} {4 * m:>7} {len(lat) / args.seconds:>10.0f} {statistics.median(lat) if lat else float('nan'):>8.1f} "
                      f"{percentile(lat, 0.95):>8.1f} {percentile(lat, 0.99):>8.1f} {stats.errors:>6} {rss_mib(proc.pid):>8.1f} {stats.server_cpu:>7.0%} {stats.load_cpu:>7.0%}",
                      flush=True)
            finally:
                proc.terminate()
                proc.wait(10)


def compare(args: argparse.Namespace, server_core: int) -> None:
    """SQLite, one process: this checkout against `--compare`'s, alternated `--repeat` times."""
    other = Path(args.compare).resolve()
    m = int(args.matches.split(",")[-1])
    print(f"SQLite, one process on core {server_core}, M={m}, {args.seconds:.0f} s per run; "
          f"this checkout ({ROOT}) against {other}, alternated")
    print(HEADER)
    rates: dict[str, list[float]] = {"this": [], "other": []}
    with tempfile.TemporaryDirectory(prefix="partygames-bench-") as tmp:
        for i in range(args.repeat):
            for name, checkout in (("other", other), ("this", ROOT)):
                port = free_port()
                proc = start_server(port, Path(tmp) / f"{name}{i}", None, server_core, checkout=checkout)
                try:
                    stats = asyncio.run(run_level(single(f"http://127.0.0.1:{port}", proc.pid), m, args.seconds, args.warmup))
                finally:
                    proc.terminate()
                    proc.wait(10)
                rates[name].append(len(stats.latencies) / args.seconds)
                print(row(f"{name} #{i + 1}", m, stats, args.seconds), flush=True)
    this, before = statistics.median(rates["this"]), statistics.median(rates["other"])
    print(f"median actions/s: this {this:,.0f}, {other.name} {before:,.0f}: {this / before - 1:+.1%}")


async def takeover(owner: str, follower: str, proc: subprocess.Popen[bytes], sig: int, matches: int) -> list[float]:
    """Rooms owned by `owner`, every socket on `follower`; each seat bids once; then `sig` to the owner, and
    seat 0 of each room bids again every 50 ms until one bid is accepted. Returns, per room, the seconds from
    the signal to that acknowledgement."""
    acked: dict[str, float] = {}

    async def reader(ws: ClientConnection) -> None:
        async for raw in ws:
            frame = json.loads(raw)
            if frame["type"] == "update":
                for ref in frame["acks"]:
                    acked.setdefault(ref, time.perf_counter())

    async with httpx.AsyncClient(timeout=30) as http:
        rooms = await open_rooms(Topology(owner, [owner], [follower], [], []), matches, http)
    readers = [asyncio.create_task(reader(ws)) for _, _, sockets in rooms for ws in sockets]
    for r, (_, _, sockets) in enumerate(rooms):
        for seat, ws in enumerate(sockets):
            await ws.send(json.dumps({"type": "action", "action": {"type": "bid", "amount": 1}, "id": f"w{r}-{seat}"}))
    while len([ref for ref in acked if ref.startswith("w")]) < 4 * matches:
        await asyncio.sleep(0.01)
    killed = time.perf_counter()
    os.kill(proc.pid, sig)
    took: dict[int, float] = {}
    tries = 0
    while len(took) < matches and time.perf_counter() - killed < 30:
        tries += 1
        for r, (_, _, sockets) in enumerate(rooms):
            if r not in took:
                await sockets[0].send(json.dumps({"type": "action", "action": {"type": "bid", "amount": 2},
                                                  "id": f"t{r}-{tries}"}))
        await asyncio.sleep(0.05)
        for ref, at in list(acked.items()):
            if ref.startswith("t"):
                took.setdefault(int(ref[1:].split("-")[0]), at - killed)
    for task in readers:
        task.cancel()
    for _, _, sockets in rooms:
        for ws in sockets:
            await ws.close()
    return sorted(took.values())


def scale_out(args: argparse.Namespace, server_core: int) -> None:
    sys.path.insert(0, str(ROOT))
    from sqlalchemy import create_engine, text
    from tests.cluster.proxy import Proxy
    from tests.server.pg import fresh_database, postgres_url

    m = int(args.matches.split(",")[-1])
    with postgres_url() if not args.database_url else _given(args.database_url) as server_url, \
            tempfile.TemporaryDirectory(prefix="partygames-bench-") as tmp:
        engine = create_engine(server_url.replace("postgresql://", "postgresql+psycopg://", 1))
        with engine.connect() as conn:
            backend = conn.execute(text("SELECT pg_backend_pid()")).scalar_one()
            settings = {str(name): str(value) for name, value in conn.execute(text(
                "SELECT name, setting FROM pg_settings WHERE name IN ('fsync', 'synchronous_commit', 'server_version')"))}
        engine.dispose()
        postmaster = int(Path(f"/proc/{backend}/stat").read_text().rsplit(")", 1)[1].split()[1])
        print(f"PostgreSQL {settings['server_version']} (fsync {settings['fsync']}, synchronous_commit "
              f"{settings['synchronous_commit']}); servers on core {server_core}, load generator on the other, "
              f"PostgreSQL and the proxy unpinned; {args.seconds:.0f} s per run after {args.warmup:.0f} s warm-up")
        print(HEADER)
        started: list[subprocess.Popen[bytes]] = []

        def processes(n: int, name: str) -> tuple[list[str], list[subprocess.Popen[bytes]]]:
            database = fresh_database(server_url)
            urls, procs = [], []
            for i in range(n):
                port = free_port()
                # A room's creating process follows it until nobody has watched it there for
                # `follower_idle_seconds` (60 s by default): through the proxy's round robin that is half the
                # rooms, which would weigh on the first minute; the runs measure the steady state after it.
                procs.append(start_server(port, Path(tmp) / f"{name}{i}", database, server_core,
                                          ["--set", "follower_idle_seconds=1"]))
                urls.append(f"http://127.0.0.1:{port}")
            started.extend(procs)
            return urls, procs

        def stop(procs: list[subprocess.Popen[bytes]]) -> None:
            for proc in procs:
                if proc.poll() is None:
                    proc.terminate()
                    proc.wait(10)

        try:
            urls, procs = processes(1, "one")
            stats = asyncio.run(run_level(Topology(urls[0], urls, urls, [p.pid for p in procs], urls, postmaster),
                                          m, args.seconds, args.warmup))
            print(row("1 process", m, stats, args.seconds), flush=True)
            stop(procs)

            urls, procs = processes(2, "two")
            proxy = Proxy(args.proxy, [int(u.rsplit(":", 1)[1]) for u in urls], Path(tmp)).start()
            try:
                stats = asyncio.run(run_level(Topology(proxy.url, [proxy.url], [proxy.url], [p.pid for p in procs],
                                                       urls, postmaster), m, args.seconds, args.warmup))
                print(row(f"2 processes, {args.proxy}", m, stats, args.seconds), flush=True)
            finally:
                proxy.stop()
            stop(procs)

            for relay_m in sorted({1, min(m, 10)}):
                urls, procs = processes(2, f"relay{relay_m}")
                pids = [p.pid for p in procs]
                for label, sockets in (("sockets on the owner", urls[:1]), ("sockets on the non-owner", urls[1:])):
                    stats = asyncio.run(run_level(Topology(urls[0], urls[:1], sockets, pids, urls, postmaster),
                                                  relay_m, args.seconds, args.warmup))
                    print(row(label, relay_m, stats, args.seconds), flush=True)
                stop(procs)

            for sig, label in ((signal.SIGTERM, "SIGTERM (handover)"), (signal.SIGKILL, "SIGKILL (lease runs out)")):
                urls, procs = processes(2, f"take{int(sig)}")
                times = asyncio.run(takeover(urls[0], urls[1], procs[0], sig, 5))
                stop(procs)
                shown = ", ".join(f"{t:.2f}" for t in times)
                print(f"takeover after {label}: 5 rooms, seconds to the first accepted action: {shown}", flush=True)
        finally:
            stop(started)


@contextlib.contextmanager
def _given(url: str) -> Iterator[str]:
    yield url


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", default="1,10,50,100", help="comma-separated M values (the last for the other runs)")
    parser.add_argument("--seconds", type=float, default=10.0, help="measured seconds per run")
    parser.add_argument("--warmup", type=float, default=2.0)
    parser.add_argument("--database-url", default=None, help="default: SQLite in a temporary directory "
                        "(with --scale-out: a throwaway PostgreSQL)")
    parser.add_argument("--compare", metavar="CHECKOUT", default=None,
                        help="SQLite: this checkout's server against CHECKOUT's, alternated")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each checkout with --compare")
    parser.add_argument("--scale-out", action="store_true", help="PostgreSQL: 1 and 2 processes, relay, takeovers")
    parser.add_argument("--proxy", choices=("nginx", "haproxy"), default="nginx")
    args = parser.parse_args()
    cores = sorted(os.sched_getaffinity(0))
    server_core, load_core = cores[0], cores[-1]
    os.sched_setaffinity(0, {load_core})
    if args.compare:
        compare(args, server_core)
    elif args.scale_out:
        scale_out(args, server_core)
    else:
        levels(args, server_core)


if __name__ == "__main__":
    main()
