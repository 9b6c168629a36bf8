"""Two processes on one PostgreSQL: the process running a review is killed (SIGKILL) in the middle of it; its
job's lease runs out, the other process takes the job and finishes it, and the stored review is then served
by any process at once, never computed again (issue 32, docs/scaling.md "Reviews")."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path
from typing import Any

import httpx

from tests.cluster.conftest import Cluster
from tests.server.procs import alive, children

GAME = "last-man-standing"  # hidden hands: many reviewed decisions, so a review lasts a few seconds here
SIMULATIONS = 1000  # five times docs/review.md's default: long enough to be caught mid-way on a quiet machine


def test_a_review_whose_process_dies_is_finished_by_another(database: str, tmp_path: Path) -> None:
    cluster = Cluster(database, tmp_path, 2, bot_delay=0.0, games=None,
                      settings={"review_simulations": SIMULATIONS, "reveal_scale": 0}).start()
    workers: list[int] = []
    try:
        first, second = cluster.servers
        with httpx.Client(base_url=first.url, timeout=10) as http:
            created = http.post("/api/rooms", json={"game": GAME, "seats": 4, "host_seat": None, "seat_kinds": [
                "bot:heuristic", "bot:heuristic", "bot:random", "bot:heuristic"]}).json()
            code, host = created["code"], {"X-Host-Token": created["host_token"]}
            assert http.post(f"/api/rooms/{code}/start", headers=host).status_code == 200
            deadline = time.monotonic() + 60
            while http.get(f"/api/rooms/{code}").json()["status"] != "over":
                assert time.monotonic() < deadline, "the match did not finish"
                time.sleep(0.1)
            asked = http.post(f"/api/rooms/{code}/review", json={"seat": 0}, headers=host)
            assert asked.status_code == 200, asked.text
        job = asked.json()["job"]

        def row() -> dict[str, Any]:
            return cluster.rows("SELECT status, owner, progress, finished_at FROM reviews WHERE job = :job", job=job)[0]

        # Wait until a process runs it and has stored some progress, then kill that process.
        deadline = time.monotonic() + 60
        while not ((now := row())["status"] == "running" and 0 < float(str(now["progress"])) < 1):
            assert now["status"] != "done", "the review finished before its process could be killed"
            assert time.monotonic() < deadline, now
            time.sleep(0.02)
        doomed = next(s for s, node in zip(cluster.servers, cluster.nodes, strict=True) if node == now["owner"])
        survivor = second if doomed is first else first
        survivor_node = cluster.nodes[cluster.servers.index(survivor)]
        assert doomed.proc is not None
        workers += children(doomed.proc.pid)
        assert workers  # (its review worker, and the resource tracker of multiprocessing)
        doomed.kill()
        with httpx.Client(base_url=survivor.url, timeout=10) as http:
            # While the dead process's lease lasts, the job is still shown running, with its stored progress.
            shown = http.get(f"/api/rooms/{code}/review", params={"seat": 0}, headers=host).json()
            assert shown["job"] == job and shown["status"] in ("running", "done")
            owners = set()
            deadline = time.monotonic() + 90
            while (now := row())["status"] != "done":
                assert now["status"] != "failed" and time.monotonic() < deadline, now
                owners.add(now["owner"])
                time.sleep(0.05)
            assert survivor_node in owners  # the survivor took it over, and finished it
            done = http.get(f"/api/rooms/{code}/review", params={"seat": 0}, headers=host).json()
            assert done["status"] == "done" and done["progress"] == 1.0 and done["job"] == job
            assert done["review"]["budget"] == f"{SIMULATIONS} simulations" and done["review"]["decisions"]
            # Asked again: answered from storage, the same job, not run again.
            finished_at = row()["finished_at"]
            again = http.post(f"/api/rooms/{code}/review", json={"seat": 0}, headers=host).json()
            assert again == done
            time.sleep(0.6)  # (a sweep or two: nothing takes a finished job)
            assert row()["finished_at"] == finished_at and row()["owner"] is None
        # A process stopped gracefully (SIGTERM) in the middle of a review hands the job back to the queue at once.
        with httpx.Client(base_url=survivor.url, timeout=10) as http:
            other = http.post(f"/api/rooms/{code}/review", json={"seat": 1}, headers=host).json()["job"]
        deadline = time.monotonic() + 60
        while not ((now := cluster.rows("SELECT status, progress FROM reviews WHERE job = :job", job=other)[0])[
                "status"] == "running" and 0 < float(str(now["progress"])) < 1):
            assert now["status"] != "done" and time.monotonic() < deadline, now
            time.sleep(0.02)
        survivor.stop()
        assert cluster.rows("SELECT status, owner, lease_until FROM reviews WHERE job = :job", job=other) == [
            {"status": "queued", "owner": None, "lease_until": None}]
        # The killed process's worker did not run on, orphaned: it ended when its parent died.
        assert not [pid for pid in workers if alive(pid)], [Path(f"/proc/{p}/cmdline").read_bytes() for p in workers]
    finally:
        cluster.stop()
        for pid in workers:  # (only if the test failed: they are gone already)
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
