"""Rooms' lives across processes on one PostgreSQL (issue #20): a finished room leaves every process's lobby
list after the retention, its replay stays; a room no person is at is closed by whichever process sweeps
first, its bots stop, its log stays, while a room whose person plays through another process goes on; the
metrics of owner and follower say so; `/readyz` answers 503 while the database refuses connections."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import httpx
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from websockets.exceptions import ConnectionClosed

from tests.cluster.conftest import Cluster
from tests.server.client import Socket
from tests.server.test_operations import metric_samples

BOTS = ["bot:random", "bot:random"]


def wait_for(check: Callable[[], bool], timeout: float, what: str) -> None:
    end = time.monotonic() + timeout
    while not check():
        if time.monotonic() > end:
            raise AssertionError(f"not within {timeout} s: {what}")
        time.sleep(0.1)


def test_a_finished_room_leaves_every_lobby_list_after_the_retention_and_its_replay_stays(
        database: str, tmp_path: Path) -> None:
    cluster = Cluster(database, tmp_path, 2, bot_delay=0.0, settings={"finished_retention": 3}).start()
    a, b = cluster.servers
    try:
        with httpx.Client(base_url=a.url, timeout=10) as on_a, httpx.Client(base_url=b.url, timeout=10) as on_b:
            waiting = on_a.post("/api/rooms", json={"game": "toy", "seats": 2, "name": "Aki"}).json()["code"]
            created = on_a.post("/api/rooms", json={"game": "toy", "seats": 2, "seat_kinds": BOTS}).json()
            code = created["code"]
            assert on_a.post(f"/api/rooms/{code}/start", headers={"X-Host-Token": created["host_token"]}).status_code == 200
            wait_for(lambda: on_b.get(f"/api/rooms/{code}").json()["status"] == "over", 10, "the bots' match ends")
            ended = time.monotonic()

            def listed(http: httpx.Client) -> dict[str, str]:
                return {r["code"]: r["status"] for r in http.get("/api/rooms").json()}

            assert listed(on_b).get(code) == "over"  # a while after its end, still in the list
            wait_for(lambda: code not in listed(on_a) and code not in listed(on_b), 10, "the finished room leaves")
            print(f"left the lists {time.monotonic() - ended:.1f} s after the end (retention 3 s)")
            assert waiting in listed(on_a) and waiting in listed(on_b)  # an open room stays
            # Its match and replay stay, through either process.
            for http in (on_a, on_b):
                replay = http.get(f"/api/rooms/{code}/replay")
                assert replay.status_code == 200 and replay.json()["steps"], replay.text
                assert http.get(f"/api/rooms/{code}/log").status_code == 200
    finally:
        cluster.stop()


def test_a_room_nobody_is_at_is_closed_its_bots_stop_and_a_room_played_through_another_process_goes_on(
        database: str, tmp_path: Path) -> None:
    cluster = Cluster(database, tmp_path, 2, bot_delay=0.05, settings={"abandon_seconds": 1})
    a, b = cluster.start().servers
    entries = "SELECT count(*) FROM log_entries WHERE room = :code"
    try:
        with httpx.Client(base_url=a.url, timeout=10) as on_a, httpx.Client(base_url=b.url, timeout=10) as on_b:
            # Two bots playing a thousand rounds, nobody at the table; and a person against a bot.
            bots = on_a.post("/api/rooms", json={"game": "rounds-toy", "seats": 2, "seat_kinds": BOTS}).json()
            alone = bots["code"]
            assert on_a.post(f"/api/rooms/{alone}/start", headers={"X-Host-Token": bots["host_token"]}).status_code == 200
            person = on_a.post("/api/rooms", json={"game": "rounds-toy", "seats": 2, "name": "Aki",
                                                   "seat_kinds": ["human", "bot:random"]}).json()
            played = person["code"]
            assert on_a.post(f"/api/rooms/{played}/start", headers={"X-Host-Token": person["host_token"]}).status_code == 200
            assert cluster.owner(alone) is a and cluster.owner(played) is a
            sock = Socket(b.ws_url, played, person["token"])  # the person plays through the other process
            sock.act({"type": "bid", "amount": 1}, "first")
            sock.until(lambda f: f["type"] == "update" and "first" in f["acks"])

            wait_for(lambda: on_b.get(f"/api/rooms/{alone}").json()["status"] == "closed", 15,
                     "the room nobody is at is closed")
            # The owner A hears of the close a moment after the database says so (B reads the database).
            wait_for(lambda: on_a.get(f"/api/rooms/{alone}").json()["status"] == "closed", 5,
                     "the owner says the room is closed too")
            assert cluster.query("SELECT owner FROM rooms WHERE code = :code", code=alone) is None
            stored = cluster.query(entries, code=alone)
            assert isinstance(stored, int) and stored > 2  # the bots had played
            time.sleep(1.5)
            assert cluster.query(entries, code=alone) == stored  # its bots stopped; its log stays
            assert alone not in {r["code"] for r in on_b.get("/api/rooms").json()}

            # The person's room goes on (their socket on B counts, though A owns the room).
            assert on_a.get(f"/api/rooms/{played}").json()["status"] == "playing"
            sock.act({"type": "bid", "amount": 2}, "again")
            sock.until(lambda f: f["type"] == "update" and "again" in f["acks"])

        owner, follower = metric_samples(a.url), metric_samples(b.url)
        assert owner["partygames_rooms_owned"] == 1  # the person's room; the closed one is no longer played
        assert follower["partygames_rooms_owned"] == 0 and follower["partygames_rooms_followed"] == 1
        assert follower["partygames_sockets"] == 1 and follower["partygames_forwarded_actions_total"] == 2
        assert follower["partygames_relay_lag_seconds_count"] >= 2  # it heard of the owner's commits
        assert owner["partygames_commit_seconds_count"] > 0 and owner["partygames_steps_total"] > stored
        # A stops (SIGTERM): B, where the person is, takes the room at once, a takeover in its metrics.
        a.stop()
        wait_for(lambda: cluster.owner(played) is b, 5, "the follower takes the room")
        wait_for(lambda: metric_samples(b.url)["partygames_lease_takeovers_total"] == 1, 5,
                 "the takeover counted (once the database has the new owner, B counts it)")
        sock.act({"type": "bid", "amount": 3}, "after")
        sock.until(lambda f: f["type"] == "update" and "after" in f["acks"])
    finally:
        cluster.stop()


def test_readyz_answers_503_while_the_database_refuses_connections(
        database: str, pg_url: str, tmp_path: Path) -> None:
    cluster = Cluster(database, tmp_path, 1).start()
    (server,) = cluster.servers
    name = make_url(database).database
    admin = create_engine(pg_url.replace("postgresql://", "postgresql+psycopg://", 1), isolation_level="AUTOCOMMIT")

    def ready() -> int:
        return httpx.get(f"{server.url}/readyz", timeout=10).status_code

    try:
        assert ready() == 200
        with admin.connect() as conn:  # the database stops answering this process (as if unreachable)
            conn.execute(text(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false'))
            conn.execute(text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = :name"),
                         {"name": name})
        assert ready() == 503
        assert httpx.get(f"{server.url}/healthz", timeout=10).status_code == 200  # alive all the same
        with admin.connect() as conn:
            conn.execute(text(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true'))
        wait_for(lambda: ready() == 200, 10, "ready again once the database answers")
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true'))
        admin.dispose()
        cluster.stop()


def test_while_the_database_is_unreachable_the_lobby_and_the_sockets_answer_503_at_once(
        database: str, pg_url: str, tmp_path: Path) -> None:
    # Issue #31, item 5: the lobby's list and creation answered 500 text/plain, and a room the process did
    # not hold in memory got no answer at all (HTTP and WebSocket) until the database came back.
    cluster = Cluster(database, tmp_path, 2).start()
    first, second = cluster.servers
    name = make_url(database).database
    admin = create_engine(pg_url.replace("postgresql://", "postgresql+psycopg://", 1), isolation_level="AUTOCOMMIT")
    try:
        with httpx.Client(base_url=first.url, timeout=10) as http:
            code = http.post("/api/rooms", json={"game": "toy", "seats": 2, "name": "Aki"}).json()["code"]
        with admin.connect() as conn:  # the database stops answering (as if unreachable)
            conn.execute(text(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false'))
            conn.execute(text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = :name"),
                         {"name": name})
        with httpx.Client(base_url=second.url, timeout=10) as http:  # (the room is not in its memory)
            for method, path in (("GET", "/api/rooms"), ("POST", "/api/rooms"), ("GET", f"/api/rooms/{code}"),
                                 ("GET", f"/api/rooms/{code}/replay")):
                body = {"game": "toy", "seats": 2} if method == "POST" else None
                answer = http.request(method, path, json=body)
                assert answer.status_code == 503, (path, answer.text)
                assert answer.headers["content-type"] == "application/json", path
                assert answer.json()["error"]["code"] == "server/storage" and answer.json()["error"]["ja"]
                assert int(answer.headers["retry-after"]) > 0
        sock = Socket(second.ws_url, code)
        assert sock.error()["code"] == "server/storage"
        try:
            sock.recv(10)
            raise AssertionError("the socket stayed open")
        except ConnectionClosed as closed:
            assert closed.rcvd is not None and closed.rcvd.code == 1013  # try again later
        with admin.connect() as conn:
            conn.execute(text(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true'))
        wait_for(lambda: httpx.get(f"{second.url}/api/rooms/{code}", timeout=10).status_code == 200, 20,
                 "the room answers once the database does")
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true'))
        admin.dispose()
        cluster.stop()
    assert "Traceback" not in second.log.read_text()
