"""A rated match whose owner dies at its last step: two processes on one PostgreSQL; two people with profiles
play, and the process that owns their match is killed (SIGKILL) after the write that ended it committed but
before its rating did. The other process rates the match, once: one `rated_matches` row, each person's count of
rated matches one more, and their ratings exactly one openskill update from the result."""

from __future__ import annotations

import time
from typing import Any

import httpx
import pytest
from openskill.models import PlackettLuce
from sqlalchemy import create_engine, text

from tests.cluster.conftest import Cluster
from tests.server.client import Socket


def person(url: str) -> tuple[httpx.Client, str]:
    """A browser (cookies kept, its page's Origin sent) with a profile made on its first visit."""
    client = httpx.Client(base_url=url, timeout=10, headers={"Origin": url})
    return client, str(client.get("/api/me").json()["profile"]["id"])


def toy_match(ws_url: str, host: httpx.Client, guest: httpx.Client, bids: tuple[int, int]) -> tuple[str, list[Socket]]:
    """A toy match (sealed bids, the higher wins) started by `host` (seat 0) with `guest` (seat 1), both bids
    sent (nothing awaited); the room's code and the sockets."""
    created = host.post("/api/rooms", json={"game": "toy", "seats": 2, "name": "Aki"}).json()
    code = created["code"]
    joined = guest.post(f"/api/rooms/{code}/join", json={"name": "Ben"}).json()
    assert host.post(f"/api/rooms/{code}/start", headers={"X-Host-Token": created["host_token"]}).status_code == 200
    socks = [Socket(ws_url, code, created["token"]), Socket(ws_url, code, joined["token"])]
    for sock, bid in zip(socks, bids, strict=True):
        sock.update(0)
        sock.act({"type": "bid", "amount": bid})
    return str(code), socks


def ratings_of(cluster: Cluster, *people: str) -> list[dict[str, Any]]:
    rows = {r["profile"]: r for r in cluster.rows("SELECT profile, mu, sigma, matches FROM ratings WHERE game = 'toy'")}
    return [rows[p] for p in people]


def wait_for(what: str, check: Any, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, what
        time.sleep(0.1)


def test_the_owner_killed_between_a_match_s_end_and_its_rating_leaves_it_rated_once(database: str, tmp_path: Any) -> None:
    cluster = Cluster(database, tmp_path, 2).start()
    owner, other = cluster.servers
    (aki, a), (ben, b) = person(owner.url), person(owner.url)
    engine = create_engine(database.replace("postgresql://", "postgresql+psycopg://", 1))
    try:
        # A first match, played through: rated by its owner as it ends (Ben's bid is higher).
        _, socks = toy_match(owner.ws_url, aki, ben, (3, 7))
        assert socks[0].reach(2)["view"]["is_over"]
        before = ratings_of(cluster, a, b)
        assert [r["matches"] for r in before] == [1, 1]

        # The second match's rating is held up (its transaction waits for this lock on `rated_matches`): the
        # match's last step commits, the owner's rating waits, and the owner is killed then.
        with engine.connect() as blocker:
            blocker.execute(text("LOCK TABLE rated_matches IN SHARE ROW EXCLUSIVE MODE"))
            code, _ = toy_match(owner.ws_url, aki, ben, (7, 3))  # Aki wins this one
            wait_for("the match's end committed", lambda: cluster.query(
                "SELECT status FROM rooms WHERE code = :code", code=code) == "over", 20)
            wait_for("the owner's rating waits", lambda: cluster.query(
                "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                "AND datname = current_database()") == 1, 20)
            owner.kill()
            blocker.rollback()  # (the lock goes; the dead owner's transaction can never commit)

        # The other process's catch-up rates it, once.
        wait_for("the other process rated the match", lambda: cluster.query(
            "SELECT count(*) FROM rated_matches WHERE room = :code", code=code) == 1, 40)
        after = ratings_of(cluster, a, b)
        assert [r["matches"] for r in after] == [2, 2]
        model = PlackettLuce()
        expected = model.rate([[model.rating(mu=before[0]["mu"], sigma=before[0]["sigma"])],
                               [model.rating(mu=before[1]["mu"], sigma=before[1]["sigma"])]], ranks=[1.0, 2.0])
        for row, [rating] in zip(after, expected, strict=True):
            assert (row["mu"], row["sigma"]) == (pytest.approx(rating.mu, abs=1e-9), pytest.approx(rating.sigma, abs=1e-9))
        assert after[0]["mu"] > before[0]["mu"] and after[1]["mu"] < before[1]["mu"]
        assert cluster.query("SELECT count(*) FROM unrated_matches") == 0
        # What the people see, through the process that is left.
        with httpx.Client(base_url=other.url, timeout=10) as http:
            shown = http.get(f"/api/profiles/{a}").json()["ratings"]
            assert [(r["game"], r["matches"]) for r in shown] == [("toy", 2)]
    finally:
        engine.dispose()
        aki.close()
        ben.close()
        cluster.stop()
