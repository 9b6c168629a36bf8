"""Leaderboard and profile pages on a large PostgreSQL (issue #30: "Leaderboards stay fast as they grow").

Fills a throwaway PostgreSQL (tests/server/pg.py; or --database-url postgresql://... for an empty database of
your own) with `--profiles` profiles (100,000) and `--matches` rated matches (1,000,000), migrated by the
server's own Alembic revisions, then serves it with the real server (uvicorn, one process) and asks, one request
at a time from this process, for:

- the leaderboard's first page (`/api/leaderboard/{game}`, 50 rows) and a deep page (offset: 90% of the
  game's ratings);
- a profile page (`/api/profiles/{id}`: ratings and the 50 latest matches) of a heavy player (a seat in one
  room of every 100: 1% of all matches) and of a typical one; and the heavy player's own `/api/me`.

It prints p50/p99 (and the worst) of each, in milliseconds, over `--requests` requests after 20 of warm-up.

The fill (INSERT ... SELECT over generate_series, then VACUUM ANALYZE): rooms of 3 seats (2 people with
profiles, 1 bot) in the 7 games in turn, each room played twice (its first match in `matches`, its second
its own, `over`): `--matches`/2 rooms; one `rated_matches` row per match and one `played_matches` row per
match and profile (as the server's rating of a match writes them); one rating per profile and game
(drawn at random: the pages read ratings, they do not compute them). The match logs are not filled: no page
reads them.

    .venv/bin/python benchmarks/profiles_bench.py [--profiles 100000] [--matches 1000000] [--requests 300]
    .venv/bin/python benchmarks/profiles_bench.py --profiles 10000 --matches 100000   # about a minute
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import create_engine, text

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT)]

from partygames.games import all_games  # noqa: E402
from partygames.server.settings import normalize_database_url  # noqa: E402
from partygames.server.storage import Storage  # noqa: E402

HEAVY_EVERY = 100  # the heavy player sits in one room of this many
SECRET = "profiles-bench-device-secret"  # the heavy player's browser (a devices row), for /api/me
WARM_UP = 20


def result_json(ranks: tuple[int, int, int]) -> str:
    return json.dumps({"seats": [{"seat": s, "rank": r, "is_winner": r == 1, "score": float(3 - r), "holdings": {}}
                                 for s, r in enumerate(ranks)], "termination": "t", "winners": [], "detail": {}})


RESULTS = [result_json((1, 2, 3)), result_json((3, 1, 2)), result_json((2, 3, 1))]


@contextmanager
def database(given: str | None) -> Iterator[str]:
    if given:
        yield normalize_database_url(given)
        return
    from tests.server.pg import fresh_database, postgres_url

    with postgres_url() as url:
        yield normalize_database_url(fresh_database(url))


def fill(url: str, profiles: int, matches: int) -> dict[str, int]:
    """The rows, as described above; returns the count of each table's rows."""
    Storage(url).close()  # migrated to the newest revision
    games = sorted(g.id for g in all_games())
    rooms = matches // 2
    engine = create_engine(url)
    p = {"n": profiles, "rooms": rooms, "k": len(games), "every": HEAVY_EVERY, "games": games, "results": RESULTS,
         "secret": hashlib.sha256(SECRET.encode()).hexdigest()}
    steps = [
        ("profiles", """INSERT INTO profiles (id, name, colour, visibility, created_at)
            SELECT 'p' || i, 'Player ' || i, '#4363d8', 'public', 1.7e9 FROM generate_series(1, :n) i"""),
        ("devices", "INSERT INTO devices (secret_hash, profile, created_at) VALUES (:secret, 'p1', 1.7e9)"),
        ("rooms", """INSERT INTO rooms (code, game, seats, options, status, seed, host_token_hash, host_seat,
                created_at, started_at, result, finished_at, epoch, private, auto_standin, standin_after)
            SELECT 'R' || r, (CAST(:games AS text[]))[1 + r % :k], 3, '{}', 'over', '1', repeat('h', 64), 0,
                1.7e9 + r * 10, 1.7e9 + r * 10 + 5, (CAST(:results AS text[]))[1 + r % 3], 1.7e9 + r * 10 + 9,
                0, false, false, 60
            FROM generate_series(1, :rooms) r"""),
        ("matches", """INSERT INTO matches (room, number, game, options, seed, bots, started_at, result, last_seq)
            SELECT 'R' || r, 1, (CAST(:games AS text[]))[1 + r % :k], '{}', '1', '{"2": "random"}', 1.7e9 + r * 10,
                (CAST(:results AS text[]))[1 + (r + 1) % 3], 0
            FROM generate_series(1, :rooms) r"""),
        ("seats", """INSERT INTO seats (room, seat, kind, bot, name, profile)
            SELECT 'R' || r, 0, 'human', NULL, 'A' || r,
                CASE WHEN r % :every = 0 THEN 'p1' ELSE 'p' || (2 + (CAST(r AS bigint) * 7919) % (:n - 1)) END
                FROM generate_series(1, :rooms) r
            UNION ALL SELECT 'R' || r, 1, 'human', NULL, 'B' || r, 'p' || (2 + (CAST(r AS bigint) * 104729 + 13) % (:n - 1))
                FROM generate_series(1, :rooms) r
            UNION ALL SELECT 'R' || r, 2, 'bot', 'random', NULL, NULL FROM generate_series(1, :rooms) r"""),
        ("played_matches", """INSERT INTO played_matches (profile, room, number, seat, date)
            SELECT s.profile, s.room, n, s.seat, 1.7e9 + CAST(substr(s.room, 2) AS bigint) * 10 + (n - 1) * 5
            FROM seats s CROSS JOIN generate_series(1, 2) n WHERE s.profile IS NOT NULL"""),
        ("rated_matches", """INSERT INTO rated_matches (room, number, game, rated, at)
            SELECT 'R' || r, n, (CAST(:games AS text[]))[1 + r % :k], true, 1.7e9 + r * 10 + n
            FROM generate_series(1, :rooms) r CROSS JOIN generate_series(1, 2) n"""),
        ("ratings", """INSERT INTO ratings (profile, game, mu, sigma, matches, display)
            SELECT profile, game, mu, sigma, matches, mu - 3 * sigma FROM (
                SELECT 'p' || i AS profile, g AS game, 15 + random() * 20 AS mu, 1 + random() * 7 AS sigma,
                    1 + i % 40 AS matches
                FROM generate_series(1, :n) i CROSS JOIN unnest(CAST(:games AS text[])) g) drawn"""),
    ]
    counts: dict[str, int] = {}
    for table, sql in steps:
        started = time.perf_counter()
        with engine.begin() as conn:
            names = {k: v for k, v in p.items() if f":{k}" in sql}
            conn.execute(text(sql), names)
            counts[table] = int(conn.execute(text(f"SELECT count(*) FROM {table}")).scalar_one())
        print(f"  {table}: {counts[table]:,} rows in {time.perf_counter() - started:.1f} s", flush=True)
    started = time.perf_counter()
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        conn.execute(text("VACUUM ANALYZE"))
    print(f"  VACUUM ANALYZE in {time.perf_counter() - started:.1f} s", flush=True)
    engine.dispose()
    return counts


def explain(url: str, game: str, deep: int, heavy: str, typical: str) -> None:
    """PostgreSQL's own time for each statement of the pages (EXPLAIN ANALYZE of the statements the server's
    functions run, captured as they run), and the plan's first line: what the pages cost without the round
    trips, the threads and the HTTP around them."""
    from sqlalchemy import event

    from partygames.server import profiles, ratings

    storage = Storage(url)
    statements: list[tuple[str, Any]] = []

    def keep(_conn: object, _cursor: object, statement: str, parameters: Any, *_: object) -> None:
        statements.append((statement, parameters))

    event.listen(storage.engine, "before_cursor_execute", keep)
    print("\nPostgreSQL's own time per statement (EXPLAIN ANALYZE, ms):")
    for name, run in ((f"leaderboard, offset {deep:,}", lambda: ratings.leaderboard(storage, game, 50, deep)),
                      ("profile page, heavy player", lambda: profiles.page(storage, heavy, None)),
                      ("profile page, typical player", lambda: profiles.page(storage, typical, None))):
        statements.clear()
        run()
        captured = list(statements)
        with storage.engine.connect() as conn:
            cursor = conn.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
            for statement, parameters in captured:
                cursor.execute("EXPLAIN ANALYZE " + statement, parameters)
                plan = [row[0] for row in cursor.fetchall()]
                took = next(line for line in plan if line.startswith("Execution Time")).split(":")[1].strip()
                print(f"  {name:<34} {took:>10}  {plan[0][:90]}")
    storage.close()


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def serve(url: str, data_dir: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    args = [sys.executable, "-m", "partygames.server", "--host", "127.0.0.1", "--port", str(port),
            "--data-dir", str(data_dir), "--database-url", url, "--set", "http_rate_burst=100000"]
    env = {**os.environ, "PYTHONPATH": f"{ROOT / 'src'}:{ROOT}"}
    proc = subprocess.Popen(args, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{base}/api/games", timeout=1).status_code == 200:
                return proc, base
        except httpx.HTTPError:
            time.sleep(0.2)
    proc.kill()
    raise RuntimeError("the server did not start")


def measure(client: httpx.Client, path: str, requests: int) -> tuple[list[float], int]:
    """Milliseconds per request (after the warm-up) and the size of the last answer."""
    times: list[float] = []
    size = 0
    for i in range(WARM_UP + requests):
        started = time.perf_counter()
        response = client.get(path)
        elapsed = (time.perf_counter() - started) * 1000
        assert response.status_code == 200, (path, response.status_code, response.text[:200])
        size = len(response.content)
        if i >= WARM_UP:
            times.append(elapsed)
    return times, size


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--profiles", type=int, default=100_000)
    parser.add_argument("--matches", type=int, default=1_000_000)
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--database-url", default=None, help="an empty PostgreSQL database (default: a throwaway server)")
    args = parser.parse_args()
    with database(args.database_url) as url, tempfile.TemporaryDirectory() as tmp:
        print(f"filling {args.profiles:,} profiles and {args.matches:,} rated matches", flush=True)
        started = time.perf_counter()
        counts = fill(url, args.profiles, args.matches)
        print(f"filled in {time.perf_counter() - started:.0f} s", flush=True)
        heavy, typical = "p1", f"p{args.profiles // 2 + 7}"
        engine = create_engine(url)
        with engine.connect() as conn:
            played = {p: int(conn.execute(text(
                "SELECT (SELECT count(*) FROM seats WHERE profile = :p) * 2"), {"p": p}).scalar_one()) for p in (heavy, typical)}
        engine.dispose()
        game = sorted(g.id for g in all_games())[0]
        per_game = counts["ratings"] // len(all_games())
        deep = (per_game * 9 // 10) // 50 * 50
        explain(url, game, deep, heavy, typical)
        proc, base = serve(url, Path(tmp))
        try:
            pages = [
                (f"leaderboard, first page ({game}, 50 of {per_game:,})", f"/api/leaderboard/{game}?limit=50"),
                (f"leaderboard, offset {deep:,}", f"/api/leaderboard/{game}?limit=50&offset={deep}"),
                (f"profile page, heavy player ({played[heavy]:,} matches)", f"/api/profiles/{heavy}"),
                (f"profile page, typical player ({played[typical]:,} matches)", f"/api/profiles/{typical}"),
                ("/api/me, the heavy player", "/api/me"),
            ]
            print(f"\n{args.requests} requests each, one at a time, after {WARM_UP} of warm-up (ms):")
            print(f"{'page':<58} {'p50':>7} {'p99':>7} {'max':>7} {'bytes':>8}")
            with httpx.Client(base_url=base, timeout=30, cookies={"partygames_device": SECRET}) as client:
                for name, path in pages:
                    times, size = measure(client, path, args.requests)
                    print(f"{name:<58} {statistics.median(times):7.1f} {percentile(times, 0.99):7.1f} "
                          f"{max(times):7.1f} {size:8,}", flush=True)
        finally:
            proc.terminate()
            proc.wait(30)


if __name__ == "__main__":
    main()
