"""Reviews served by the server (issue 32, docs/protocol.md "Reviews"): who may ask, what is refused, the job's
queue and progress, stored results answered again at once, and the same review as `partygames review --json`
gives for the log (deterministic for the budget)."""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import signal
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, select

from partygames import games
from partygames.analysis.review import DEFAULT_SIMULATIONS, review
from partygames.engine.log import MatchLog
from partygames.engine.search import Budget
from partygames.server import reviews as jobs
from partygames.server.app import create_app
from partygames.server.reviews import Key, reviews
from partygames.server.settings import DEFAULT_REVIEW_SIMULATIONS, InvalidSetting, Settings, check_settings
from partygames.server.storage import Storage
from tests.server.live import LiveServer
from tests.server.procs import alive, children

pytestmark = pytest.mark.xdist_group("reviews")

SIMULATIONS = 16  # per decision: a cheap budget, so that a review takes a fraction of a second
GAME, SEATS, OPTIONS = "smuggling", 2, {"team_size": 1, "small_games": 4}


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    server = LiveServer(tmp_path_factory.mktemp("reviews"), bot_delay=0.0, deadline_scale=0.01, games=None,
                        settings={"review_simulations": SIMULATIONS}).start()
    yield server
    server.stop()


def client(live: LiveServer) -> httpx.Client:
    return httpx.Client(base_url=live.url, timeout=10)


def played(http: httpx.Client, finish: bool = True) -> dict[str, Any]:
    """A Smuggling room: the host at seat 0 (a person whose time limits lapse at once), a heuristic bot at seat
    1, started; with `finish`, once the match is over."""
    created = http.post("/api/rooms", json={"game": GAME, "seats": SEATS, "options": OPTIONS, "name": "Aki",
                                            "seat_kinds": ["human", "bot:heuristic"]})
    assert created.status_code == 200, created.text
    room = created.json()
    assert http.post(f"/api/rooms/{room['code']}/start", headers={"X-Host-Token": room["host_token"]}).status_code == 200
    if finish:
        deadline = time.monotonic() + 30
        while http.get(f"/api/rooms/{room['code']}").json()["status"] != "over":
            assert time.monotonic() < deadline, "the match did not finish"
            time.sleep(0.1)
    return dict(room)


def host(room: dict[str, Any]) -> dict[str, str]:
    return {"X-Host-Token": room["host_token"]}


def until_finished(http: httpx.Client, code: str, seat: int, headers: dict[str, str],
                   seen: list[dict[str, Any]] | None = None, match: int | None = None) -> dict[str, Any]:
    deadline = time.monotonic() + 60
    while True:
        answer = http.get(f"/api/rooms/{code}/review", params={"seat": seat, **({"match": match} if match else {})},
                          headers=headers)
        assert answer.status_code == 200, answer.text
        job: dict[str, Any] = answer.json()
        if seen is not None:
            seen.append(job)
        if job["status"] in ("done", "failed"):
            return job
        assert time.monotonic() < deadline, job
        time.sleep(0.05)


def local_review(http: httpx.Client, room: dict[str, Any], seat: int, match: int | None = None) -> dict[str, Any]:
    """What `partygames review` gives for the room's log (the host's download; `match`: its earlier one) at the
    server's budget."""
    log = MatchLog.from_json(http.get(f"/api/rooms/{room['code']}/log", headers=host(room),
                                      params={"match": match} if match else {}).json())
    return review(games.get(log.game), log, seat, Budget(simulations=SIMULATIONS)).to_json()


def test_a_review_runs_as_a_job_and_is_then_served_from_storage(live: LiveServer) -> None:
    with client(live) as http:
        room = played(http)
        code = room["code"]
        asked = http.post(f"/api/rooms/{code}/review", json={"seat": 1}, headers=host(room))
        assert asked.status_code == 200, asked.text
        job = asked.json()
        assert job["status"] in ("queued", "running", "done") and job["seat"] == 1 and job["match"] == 1
        assert job["error"] is None
        seen: list[dict[str, Any]] = []
        done = until_finished(http, code, 1, host(room), seen)
        assert done["status"] == "done" and done["job"] == job["job"] and done["progress"] == 1.0
        progress = [j["progress"] for j in seen]
        assert progress == sorted(progress) and all(0.0 <= p <= 1.0 for p in progress)
        # The very review `partygames review FILE --seat 1 --json` prints for the downloaded log, at this budget.
        assert done["review"] == local_review(http, room, 1)
        assert done["review"]["budget"] == f"{SIMULATIONS} simulations" and done["review"]["decisions"]
        # Asked again: the stored job, done, at once (the same id: nothing is computed again).
        again = http.post(f"/api/rooms/{code}/review", json={"seat": 1}, headers=host(room))
        assert again.status_code == 200 and again.json() == done


def test_an_earlier_match_of_the_evening_is_reviewed_after_the_room_played_on(live: LiveServer) -> None:
    """The host starts the room's next match at once; the first one's review is still asked for, by its number,
    and is that match's (the review `partygames review` gives for its log), stored under that number."""
    with client(live) as http:
        room = played(http)
        code = room["code"]
        moved_on = http.post(f"/api/rooms/{code}/next", json={"game": None}, headers=host(room))
        assert moved_on.status_code == 200 and moved_on.json()["match"] == 2, moved_on.text
        asked = http.post(f"/api/rooms/{code}/review", json={"seat": 1, "match": 1}, headers=host(room))
        assert asked.status_code == 200 and asked.json()["match"] == 1, asked.text
        done = until_finished(http, code, 1, host(room), match=1)
        assert done["status"] == "done" and done["match"] == 1
        assert done["review"] == local_review(http, room, 1, match=1)
        # Only the seat's own and the host's; a match the room never played is refused.
        assert http.get(f"/api/rooms/{code}/review", params={"seat": 1, "match": 1}).status_code == 403
        missing = http.post(f"/api/rooms/{code}/review", json={"seat": 1, "match": 7}, headers=host(room))
        assert missing.status_code == 404 and missing.json()["error"]["code"] == "replay/no_match"


def test_who_may_review_which_seat(live: LiveServer) -> None:
    with client(live) as http, client(live) as browser, client(live) as stranger:
        browser.get("/api/me")  # a profile, in the cookie
        stranger.get("/api/me")
        created = browser.post("/api/rooms", json={"game": GAME, "seats": SEATS, "options": OPTIONS, "name": "Aki",
                                                   "seat_kinds": ["human", "bot:heuristic"]}).json()
        code, seat_token = created["code"], created["token"]
        assert http.post(f"/api/rooms/{code}/start", headers=host(created)).status_code == 200
        while http.get(f"/api/rooms/{code}").json()["status"] != "over":
            time.sleep(0.1)
        # The seat's token: that seat, not another.
        mine = http.post(f"/api/rooms/{code}/review", json={"seat": 0}, headers={"X-Seat-Token": seat_token})
        assert mine.status_code == 200, mine.text
        other = http.post(f"/api/rooms/{code}/review", json={"seat": 1}, headers={"X-Seat-Token": seat_token})
        assert other.status_code == 403 and other.json()["error"]["code"] == "review/forbidden"
        # The profile tied to the seat (no token): that seat too; another profile, no token, a wrong token: no.
        assert browser.get(f"/api/rooms/{code}/review", params={"seat": 0}).json()["job"] == mine.json()["job"]
        assert browser.get(f"/api/rooms/{code}/review", params={"seat": 1}).status_code == 403
        for refused in (stranger.get(f"/api/rooms/{code}/review", params={"seat": 0}),
                        http.get(f"/api/rooms/{code}/review", params={"seat": 0}),
                        http.post(f"/api/rooms/{code}/review", json={"seat": 0}, headers={"X-Seat-Token": "nope"}),
                        http.post(f"/api/rooms/{code}/review", json={"seat": 1}, headers={"X-Host-Token": "nope"})):
            assert refused.status_code == 403 and refused.json()["error"]["code"] == "review/forbidden", refused.text
            assert refused.json()["error"]["ja"]
        # The host: every seat, a bot's too; seat 1 was never asked for before.
        assert http.get(f"/api/rooms/{code}/review", params={"seat": 1}, headers=host(created)).json()["error"][
            "code"] == "review/none"
        assert http.post(f"/api/rooms/{code}/review", json={"seat": 1}, headers=host(created)).status_code == 200
        assert until_finished(http, code, 0, host(created))["status"] == "done"


def test_an_unfinished_match_and_bad_requests_are_refused_and_change_nothing(live: LiveServer) -> None:
    with client(live) as http:
        # A match not started yet, and one under way (asked while it plays: its status before and after), are
        # refused: no live help.
        opened = http.post("/api/rooms", json={"game": GAME, "seats": SEATS, "options": OPTIONS, "name": "Aki",
                                               "seat_kinds": ["human", "bot:heuristic"]}).json()
        asked = http.post(f"/api/rooms/{opened['code']}/review", json={"seat": 0}, headers=host(opened))
        assert asked.status_code == 409 and asked.json()["error"]["code"] == "review/running"
        while True:
            running = played(http, finish=False)
            status = http.get(f"/api/rooms/{running['code']}").json()["status"]
            refused = http.post(f"/api/rooms/{running['code']}/review", json={"seat": 1}, headers=host(running))
            if status == http.get(f"/api/rooms/{running['code']}").json()["status"] == "playing":
                break  # (else the match ended in between, on a busy machine: another)
        assert refused.status_code == 409 and refused.json()["error"]["code"] == "review/running"
        assert refused.json()["error"]["ja"]
        room = played(http)
        code = room["code"]
        url = f"/api/rooms/{code}/review"
        headers = {**host(room), "Content-Type": "application/json"}
        cases = [
            ('{"seat": 2}', 422, "seat/no_such_seat"),
            ('{"seat": 9007199254740992}', 422, "seat/no_such_seat"),
            ('{"seat": 99999999999999999999}', 400, "msg/number_too_large"),
            ('{"seat": -1}', 422, "msg/invalid"),
            ('{"seat": "1"}', 422, "msg/invalid"),
            ('{"seat": 1.0}', 422, "msg/invalid"),
            ('{"seat": 1, "budget": 5}', 422, "msg/invalid"),
            ('{}', 422, "msg/invalid"),
            ('{"seat": 1', 400, "msg/malformed_json"),
            ('[1]', 422, "msg/invalid"),
        ]
        for body, status, error in cases:
            answer = http.post(url, content=body, headers=headers)
            assert answer.status_code == status and answer.json()["error"]["code"] == error, (body, answer.text)
            assert answer.json()["error"]["en"] and answer.json()["error"]["ja"]
        for written, error in (("2", "seat/no_such_seat"), ("１", "msg/invalid"), ("+1", "msg/invalid"),
                               ("1_0", "msg/invalid"), ("9" * 40, "msg/invalid"), ("", "msg/invalid")):
            answer = http.get(url, params={"seat": written}, headers=host(room))
            assert answer.status_code == 422 and answer.json()["error"]["code"] == error, (written, answer.text)
        assert http.get(url, headers=host(room)).json()["error"]["code"] == "msg/invalid"  # no seat at all
        # A page on another site cannot make a visitor's browser ask for reviews (the profile routes' Origin check).
        foreign = http.post(url, json={"seat": 0}, headers={**host(room), "Origin": "https://evil.example"})
        assert foreign.status_code == 403 and foreign.json()["error"]["code"] == "origin/refused", foreign.text
        assert foreign.json()["error"]["ja"]
        # Nothing was stored by any of them.
        for seat in (0, 1):
            assert http.get(url, params={"seat": seat}, headers=host(room)).json()["error"]["code"] == "review/none"


def test_one_worker_runs_one_review_at_a_time_and_queues_the_others(live: LiveServer) -> None:
    with client(live) as http:
        rooms = [played(http) for _ in range(2)]
        jobs = {}
        for room in rooms:
            for seat in (0, 1):
                answer = http.post(f"/api/rooms/{room['code']}/review", json={"seat": seat}, headers=host(room))
                assert answer.status_code == 200 and answer.json()["status"] in ("queued", "running", "done")
                jobs[answer.json()["job"]] = (room, seat)
        assert len(jobs) == 4
        for job, (room, seat) in jobs.items():
            finished = until_finished(http, room["code"], seat, host(room))
            assert finished["status"] == "done" and finished["job"] == job
    # The pool's size (1, the default): each job ran alone, from when it was taken to when it was stored.
    engine = create_engine(f"sqlite:///{live.data_dir / 'partygames.sqlite3'}")
    with engine.connect() as conn:
        spans = sorted(conn.execute(select(reviews.c.started_at, reviews.c.finished_at)
                                    .where(reviews.c.job.in_(list(jobs)))).all())
    engine.dispose()
    assert all(end <= start for (_, end), (start, _) in itertools.pairwise(spans)), spans


async def finished_in_process(http: httpx.AsyncClient) -> dict[str, Any]:
    """A Smuggling room of two bots (the host only watches), played to its end on an in-process app."""
    created = await http.post("/api/rooms", json={"game": GAME, "seats": SEATS, "options": OPTIONS, "host_seat": None,
                                                  "seat_kinds": ["bot:random", "bot:heuristic"]})
    room: dict[str, Any] = created.json()
    assert (await http.post(f"/api/rooms/{room['code']}/start", headers=host(room))).status_code == 200
    while (await http.get(f"/api/rooms/{room['code']}")).json()["status"] != "over":
        await asyncio.sleep(0.05)
    return room


def in_process(tmp_path: Path, **settings: Any) -> Settings:
    return Settings.create(f"sqlite:///{tmp_path / 'db.sqlite3'}", tmp_path, bot_delay=0.0, deadline_scale=0.01,
                           reveal_scale=0, bot_pace=0, review_simulations=SIMULATIONS, **settings)


def test_no_review_workers_means_no_new_reviews(tmp_path: Path) -> None:
    """`--review-workers 0`: a finished match's review is refused in words (in-process: no worker is started)."""

    async def go() -> None:
        app = create_app(in_process(tmp_path, review_workers=0))
        async with app.router.lifespan_context(app), httpx.AsyncClient(
                transport=httpx.ASGITransport(app=app), base_url="http://test") as http:
            room = await finished_in_process(http)
            answer = await http.post(f"/api/rooms/{room['code']}/review", json={"seat": 1}, headers=host(room))
            assert answer.status_code == 503 and answer.json()["error"]["code"] == "review/disabled"
            assert (await http.get(f"/api/rooms/{room['code']}/review", params={"seat": 1},
                                   headers=host(room))).json()["error"]["code"] == "review/none"

    asyncio.run(asyncio.wait_for(go(), 60))


def test_a_match_the_review_refuses_gives_a_failed_job_with_its_words(tmp_path: Path) -> None:
    """A job whose log the review refuses (here a stored log changed after the match) fails with the review's
    own reason in English and Japanese, coded `review/failed`, and stays failed (not run again)."""

    async def go() -> None:
        app = create_app(in_process(tmp_path))
        async with app.router.lifespan_context(app), httpx.AsyncClient(
                transport=httpx.ASGITransport(app=app), base_url="http://test") as http:
            room = await finished_in_process(http)
            log = (await http.get(f"/api/rooms/{room['code']}/log", headers=host(room))).json()
            log["final_state"] = {**log["final_state"], "version": -1}
            storage = app.state.hub.storage
            await asyncio.to_thread(jobs.request, storage, Key(room["code"], 1, 1, SIMULATIONS), GAME,
                                    json.dumps(log))
            url = f"/api/rooms/{room['code']}/review"
            while (job := (await http.get(url, params={"seat": 1}, headers=host(room))).json())["status"] not in (
                    "done", "failed"):
                await asyncio.sleep(0.05)
            assert job["status"] == "failed" and job["review"] is None, job
            assert job["error"]["code"] == "review/failed" and "changed" in job["error"]["en"], job
            assert "書き換え" in job["error"]["ja"]
            again = await http.post(url, json={"seat": 1}, headers=host(room))
            assert again.json() == job

    asyncio.run(asyncio.wait_for(go(), 90))


def test_with_a_ray_cluster_the_review_runs_there_and_is_the_same(tmp_path: Path) -> None:
    """`review_ray`: the job goes to Ray (a local instance here) as a task; the stored review is the one
    `partygames review` gives."""
    ray = pytest.importorskip("ray")

    async def go() -> tuple[dict[str, Any], dict[str, Any]]:
        app = create_app(in_process(tmp_path, review_ray="local"))
        async with app.router.lifespan_context(app), httpx.AsyncClient(
                transport=httpx.ASGITransport(app=app), base_url="http://test") as http:
            room = await finished_in_process(http)
            url = f"/api/rooms/{room['code']}/review"
            assert (await http.post(url, json={"seat": 1}, headers=host(room))).status_code == 200
            while (job := (await http.get(url, params={"seat": 1}, headers=host(room))).json())["status"] not in (
                    "done", "failed"):
                await asyncio.sleep(0.1)
            log = (await http.get(f"/api/rooms/{room['code']}/log", headers=host(room))).json()
            return job, log

    try:
        job, log = asyncio.run(asyncio.wait_for(go(), 180))
        assert ray.is_initialized()  # (the review went there: no worker process was started)
    finally:
        ray.shutdown()
    assert job["status"] == "done", job
    parsed = MatchLog.from_json(log)
    assert job["review"] == review(games.get(GAME), parsed, 1, Budget(simulations=SIMULATIONS)).to_json()


def test_the_review_workers_setting_is_a_small_whole_number() -> None:
    assert DEFAULT_REVIEW_SIMULATIONS == DEFAULT_SIMULATIONS  # the server's default budget is docs/review.md's
    base = Settings.create("sqlite://")
    assert base.review_workers == 1
    for fine in (0, 1, 64):
        check_settings(Settings(**{**base.__dict__, "review_workers": fine}))
    for bad in (-1, 65, 1.5, True, float("nan")):
        with pytest.raises(InvalidSetting) as refused:
            check_settings(Settings(**{**base.__dict__, "review_workers": bad}))
        assert "--review-workers (PARTYGAMES_REVIEW_WORKERS)" in refused.value.en and refused.value.ja
    with pytest.raises(InvalidSetting):
        check_settings(Settings(**{**base.__dict__, "review_simulations": 1}))


def test_a_job_is_claimed_once_fenced_by_its_lease_and_never_run_again(tmp_path: Path) -> None:
    """The job rules every process follows (server/reviews.py), on the stored rows: one claim wins, a job whose
    lease ran out is taken by another node, the old owner then can neither renew nor store it, a finished job
    is never claimed again, and a stopping node's jobs go back to the queue."""
    storage = Storage(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    try:
        key = Key("ROOM01", 1, 0, SIMULATIONS)
        row, new = jobs.request(storage, key, GAME, "{}")
        assert new and row["status"] == "queued"
        again, new = jobs.request(storage, key, GAME, "{}")
        assert not new and again["job"] == row["job"]
        (taken,) = jobs.claim(storage, "a", lease=60, limit=5)
        assert taken["job"] == row["job"] and taken["owner"] == "a"
        assert jobs.claim(storage, "b", lease=60, limit=5) == []  # held: nobody else takes it
        assert jobs.keep(storage, "a", {row["job"]: 0.5}, lease=0.0) == {row["job"]}  # its lease ends now
        time.sleep(0.05)
        (taken,) = jobs.claim(storage, "b", lease=60, limit=5)  # the lease ran out: "a" died
        assert taken["owner"] == "b" and taken["progress"] == 0.0
        assert jobs.keep(storage, "a", {row["job"]: 0.9}, lease=60) == set()
        assert not jobs.finish(storage, "a", row["job"], {"stale": True}, None)  # fenced: stores nothing
        assert jobs.finish(storage, "b", row["job"], {"review": 1}, None)
        done = jobs.find(storage, key)
        assert done is not None and jobs.answer(done)["review"] == {"review": 1} and done["status"] == "done"
        assert jobs.claim(storage, "c", lease=60, limit=5) == []  # finished: never run again
        other, _ = jobs.request(storage, Key("ROOM01", 1, 1, SIMULATIONS), GAME, "{}")
        (taken,) = jobs.claim(storage, "c", lease=60, limit=5)
        assert jobs.release(storage, "c") == 1  # "c" stops: the job is queued again, for anyone
        assert jobs.claim(storage, "d", lease=60, limit=5)[0]["job"] == other["job"]
    finally:
        storage.close()


def test_a_review_worker_that_dies_is_replaced(live: LiveServer) -> None:
    """A worker process killed (out of memory, say) while the server lives: the next review gets a new one."""
    assert live.proc is not None
    with client(live) as http:
        for kill in (False, True):
            if kill:  # (the worker exists once a review has run: the pool starts at its first job)
                workers = [pid for pid in children(live.proc.pid)
                           if b"spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes()]
                assert len(workers) == 1  # the pool's one worker (the default size)
                os.kill(workers[0], signal.SIGKILL)
            room = played(http)
            asked = http.post(f"/api/rooms/{room['code']}/review", json={"seat": 1}, headers=host(room))
            assert asked.status_code == 200, asked.text
            done = until_finished(http, room["code"], 1, host(room))
            assert done["status"] == "done" and done["review"]["decisions"], done


def test_a_review_under_way_when_the_server_is_killed_is_finished_after_its_restart(tmp_path: Path) -> None:
    """One process on SQLite (the usual deployment), killed (SIGKILL) while its job runs and started again:
    the job it held is taken up again and finished."""
    server = LiveServer(tmp_path, bot_delay=0.0, deadline_scale=0.01, games=None,
                        settings={"review_simulations": SIMULATIONS})
    server.start()
    workers: list[int] = []
    try:
        with client(server) as http:
            room = played(http)
            code = room["code"]
            job = http.post(f"/api/rooms/{code}/review", json={"seat": 1}, headers=host(room)).json()
            while (now := http.get(f"/api/rooms/{code}/review", params={"seat": 1},
                                   headers=host(room)).json())["status"] == "queued":
                time.sleep(0.01)
        assert server.proc is not None
        workers += children(server.proc.pid)
        server.kill()
        assert now["status"] == "running", now  # (taken: its worker is starting, or reviewing)
        with sqlite3.connect(tmp_path / "partygames.sqlite3") as db:
            (status,) = db.execute("SELECT status FROM reviews WHERE job = ?", (job["job"],)).fetchone()
        if status == "done":
            pytest.skip("the review was finished before its process could be killed")
        server.start()
        with client(server) as http:
            done = until_finished(http, code, 1, host(room))
        assert done["status"] == "done" and done["job"] == job["job"] and done["review"]["decisions"]
        # The killed server's worker ended with it, even one killed while it was still starting.
        assert not [pid for pid in workers if alive(pid)]
    finally:
        server.stop()
        for pid in workers:  # (only if the test failed: they are gone already)
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
