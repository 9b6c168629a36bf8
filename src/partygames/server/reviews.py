"""Reviews of finished matches served by the server (issue 32): stored jobs, claimed under a lease, run off
the event loop by a bounded pool of worker processes (or on a Ray cluster).

A review is keyed on (room, match number, seat, budget). Asking for one stores a `queued` job holding
everything it needs (the match log as JSON), so any process on the database can run it. Every process with
review workers looks for jobs (`ReviewPool._dispatch`): when it has a free worker it claims the oldest queued
job, or a running one whose lease ran out (its process died), with one compare-and-set (`claim`), and runs
it in a worker process: the review is CPU-bound pure Python, so threads would hold the GIL against the event
loop and against each other. The worker reports its progress through a queue; the process stores it with its
lease every `lease_seconds / 3` (`_keep`), and stores the result once (`finish`: only if the job is still
its own, so a process paused past its lease, whose job another took, cannot overwrite it). A job once done
or failed is never run again: a second request, on any process, reads it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import multiprocessing
import os
import queue
import secrets
import threading
import time
from collections.abc import Mapping
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from functools import partial
from typing import Any

from sqlalchemy import Column, Float, Index, Integer, String, Table, Text, insert, or_, select, update
from sqlalchemy.exc import IntegrityError

from partygames.server.codes import Code
from partygames.server.errors import ServerError
from partygames.server.settings import Settings
from partygames.server.storage import Storage, metadata

log = logging.getLogger(__name__)

reviews = Table(
    "reviews", metadata,
    Column("room", String(12), primary_key=True),
    Column("match", Integer, primary_key=True),  # the room's match number (1, 2, ...)
    Column("seat", Integer, primary_key=True),
    Column("budget", Integer, primary_key=True),  # simulations per decision: another budget is another review
    Column("job", String(32), nullable=False, unique=True),  # the id clients see
    Column("game", String(64), nullable=False),
    Column("status", String(16), nullable=False),  # queued | running | done | failed
    Column("progress", Float, nullable=False, server_default="0"),
    Column("owner", String(64), nullable=True),  # the node running it
    Column("lease_until", Float, nullable=True),  # the database's clock
    Column("log", Text, nullable=False),  # the MatchLog JSON: the job's whole input
    Column("result", Text, nullable=True),  # the review's JSON (`partygames review --json`)
    Column("error", Text, nullable=True),  # {code, en, ja}
    Column("created_at", Float, nullable=False),
    Column("started_at", Float, nullable=True),  # when its (last) process took it
    Column("finished_at", Float, nullable=True),
    Index("reviews_by_status", "status", "lease_until"),
)

STATUSES = ("queued", "running", "done", "failed")


@dataclass(frozen=True)
class Key:
    room: str
    match: int
    seat: int
    budget: int

    def where(self) -> list[Any]:
        return [reviews.c.room == self.room, reviews.c.match == self.match, reviews.c.seat == self.seat,
                reviews.c.budget == self.budget]


def answer(row: Mapping[str, Any]) -> dict[str, Any]:
    """A job as the API answers it (docs/protocol.md)."""
    done = row["status"] == "done"
    return {"job": row["job"], "status": row["status"], "progress": 1.0 if done else float(row["progress"]),
            "seat": row["seat"], "match": row["match"],
            "review": json.loads(row["result"]) if done and row["result"] else None,
            "error": json.loads(row["error"]) if row["status"] == "failed" and row["error"] else None}


# -- storage (synchronous: called in worker threads) ----------------------------------------------------------
def find(storage: Storage, key: Key) -> dict[str, Any] | None:
    with storage.engine.connect() as conn:
        row = conn.execute(select(reviews).where(*key.where())).mappings().first()
        return dict(row) if row is not None else None


def request(storage: Storage, key: Key, game: str, match_log: str) -> tuple[dict[str, Any], bool]:
    """The job of `key`, stored as queued if there was none: (its row, whether it is new). Of two requests at
    once, on any processes, one stores it; the other reads it."""
    found = find(storage, key)
    if found is not None:
        return found, False
    try:
        with storage.engine.begin() as conn:
            conn.execute(insert(reviews).values(room=key.room, match=key.match, seat=key.seat, budget=key.budget,
                                                job=secrets.token_hex(8), game=game, status="queued", progress=0.0,
                                                log=match_log, created_at=time.time()))
    except IntegrityError:
        pass  # another request stored it first
    stored = find(storage, key)
    assert stored is not None
    return stored, True


def claim(storage: Storage, node: str, lease: float, limit: int) -> list[dict[str, Any]]:
    """Takes up to `limit` jobs for `node`: queued ones, oldest first, then running ones whose lease ran out
    (their process died). Each is a compare-and-set: of two processes taking one job, one gets it."""
    taken: list[dict[str, Any]] = []
    with storage.engine.begin() as conn:
        free = or_(reviews.c.status == "queued",
                   (reviews.c.status == "running") & (reviews.c.lease_until < storage.now()))
        candidates = conn.execute(select(reviews.c.job).where(free).order_by(reviews.c.created_at)
                                  .limit(limit)).scalars().all()
    for job in candidates:
        with storage.engine.begin() as conn:
            free = or_(reviews.c.status == "queued",
                       (reviews.c.status == "running") & (reviews.c.lease_until < storage.now()))
            row = conn.execute(update(reviews).where(reviews.c.job == job, free)
                               .values(status="running", owner=node, progress=0.0, started_at=time.time(),
                                       lease_until=storage.now() + lease)
                               .returning(*reviews.c)).mappings().first()
            if row is not None:
                taken.append(dict(row))
    return taken


def keep(storage: Storage, node: str, progress: Mapping[str, float], lease: float) -> set[str]:
    """Stores the progress of `node`'s running jobs and renews their leases; returns the jobs still its own."""
    held: set[str] = set()
    with storage.engine.begin() as conn:
        for job, done in progress.items():
            renewed = conn.execute(update(reviews).where(reviews.c.job == job, reviews.c.owner == node,
                                                         reviews.c.status == "running")
                                   .values(progress=done, lease_until=storage.now() + lease))
            if renewed.rowcount:
                held.add(job)
    return held


def finish(storage: Storage, node: str, job: str, result: dict[str, Any] | None, error: dict[str, Any] | None) -> bool:
    """Stores a job's result (or its error) if it is still `node`'s; returns whether it was."""
    with storage.engine.begin() as conn:
        done = conn.execute(update(reviews).where(reviews.c.job == job, reviews.c.owner == node,
                                                  reviews.c.status == "running")
                            .values(status="failed" if result is None else "done", progress=1.0,
                                    result=None if result is None else json.dumps(result),
                                    error=None if error is None else json.dumps(error), owner=None,
                                    lease_until=None, finished_at=time.time()))
        return bool(done.rowcount)


def release(storage: Storage, node: str) -> int:
    """Gives `node`'s running jobs back to the queue (a process stopping): another process takes them at once."""
    with storage.engine.begin() as conn:
        return int(conn.execute(update(reviews).where(reviews.c.owner == node, reviews.c.status == "running")
                                .values(status="queued", owner=None, lease_until=None, progress=0.0)).rowcount)


def owner_of(storage: Storage, job: str) -> str | None:
    with storage.engine.connect() as conn:
        return conn.execute(select(reviews.c.owner).where(reviews.c.job == job)).scalar()


# -- the worker processes ------------------------------------------------------------------------------------
_progress: Any = None  # the queue a worker process reports progress on (set by `_start_worker`)
_parent = 0


def _start_worker(progress: Any) -> None:
    global _progress, _parent
    _progress, _parent = progress, os.getppid()
    threading.Thread(target=_watch_parent, name="review-parent", daemon=True).start()


def _watch_parent() -> None:
    """Ends this worker once the server process that started it is gone (SIGKILL runs no shutdown code): a
    review under way would be stored by nobody (its job is another process's once the lease runs out), and an
    idle worker would wait for work for ever."""
    while os.getppid() == _parent:
        time.sleep(0.5)
    os._exit(0)


def warm() -> None:
    """Imports what a review needs, in a worker that has just started."""
    from partygames import games
    from partygames.analysis import review  # noqa: F401

    games.all_games()


def run(job: str, game_id: str, match_log: str, seat: int, simulations: int) -> dict[str, Any]:
    """What a worker runs: the review of `seat` in `match_log` (JSON) at `simulations` per decision, as the
    JSON `partygames review --json` prints. Raises ReviewError (and EngineError) for a match that cannot be
    reviewed. Its progress goes to the queue (a worker whose server process died ends: `_watch_parent`)."""
    from partygames import games
    from partygames.analysis.review import review
    from partygames.engine.log import MatchLog
    from partygames.engine.search import Budget

    game = games.get(game_id)
    parsed = MatchLog.from_json(json.loads(match_log))
    last = [0.0]

    def step(done: int, total: int) -> None:
        now = time.monotonic()
        if _progress is not None and (done == total or now - last[0] > 0.1):
            last[0] = now
            _progress.put((job, done / max(total, 1)))

    return review(game, parsed, seat, Budget(simulations=simulations), progress=step).to_json()


_ray_task: Any = None  # `run` as a Ray remote function, made once


def failure(error: BaseException) -> dict[str, Any]:
    """A job's error as the API answers it: the review's own words when it refused the match."""
    from partygames.engine.errors import EngineError

    if isinstance(error, EngineError):
        return {"code": Code.REVIEW_FAILED, "en": error.en, "ja": error.ja}
    return {"code": Code.REVIEW_FAILED, "en": f"The review failed: {type(error).__name__}.",
            "ja": f"検討に失敗しました({type(error).__name__})。"}


def disabled() -> ServerError:
    return ServerError(Code.REVIEW_DISABLED, "This server does not run reviews (--review-workers 0).",
                       "このサーバーは検討を行いません(--review-workers 0)。", 503)


class ReviewPool:
    """This process's review workers: `size` worker processes (or Ray tasks with `ray_address`), fed by
    claiming stored jobs (module docstring)."""

    def __init__(self, settings: Settings, storage: Storage, node: str) -> None:
        self.settings, self.storage, self.node = settings, storage, node
        self.size = settings.review_workers
        self.lease = settings.lease_seconds
        self.running: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self.progress: dict[str, float] = {}
        self._wake = asyncio.Event()
        self._tasks: list[asyncio.Task[Any]] = []
        self._executor: Executor | None = None
        self._queue: Any = None
        self._reader: threading.Thread | None = None
        self._stopping = False

    def start(self) -> None:
        if self.size <= 0:
            return
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._dispatch()), loop.create_task(self._keep())]

    def _workers(self) -> ProcessPoolExecutor:
        """The worker processes, spawned (a fork of a threaded server is unsafe), all started now (they import
        the games once). Made at the first job: a process that never reviews starts none."""
        if self._queue is None:
            self._queue = multiprocessing.get_context("spawn").Queue()
            self._reader = threading.Thread(target=self._read_progress, name="review-progress", daemon=True)
            self._reader.start()
        executor = ProcessPoolExecutor(self.size, mp_context=multiprocessing.get_context("spawn"),
                                       initializer=_start_worker, initargs=(self._queue,))
        executor.submit(warm)
        return executor

    def wake(self) -> None:
        self._wake.set()

    async def stop(self) -> None:
        """Stops taking jobs and gives the running ones back to the queue (another process takes them)."""
        self._stopping = True
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self.running:
            with contextlib.suppress(Exception):
                await asyncio.to_thread(release, self.storage, self.node)
        if self._executor is not None:
            processes = list((getattr(self._executor, "_processes", None) or {}).values())
            self._executor.shutdown(wait=False, cancel_futures=True)
            for process in processes:
                with contextlib.suppress(Exception):
                    process.terminate()  # a review under way is not waited for: it was given back
        if self._queue is not None:
            self._queue.put(None)

    def _read_progress(self) -> None:
        while True:
            try:
                item = self._queue.get(timeout=1.0)
            except queue.Empty:
                if self._stopping:
                    return
                continue
            except (EOFError, OSError, ValueError):
                return
            if item is None:
                return
            job, done = item
            if job in self.progress:
                self.progress[job] = max(self.progress[job], float(done))

    async def _dispatch(self) -> None:
        """Claims jobs while a worker is free: at once when this process stored one, else every sweep."""
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.settings.sweep_seconds)
            self._wake.clear()
            free = self.size - len(self.running)
            if free <= 0:
                continue
            try:
                jobs = await asyncio.to_thread(claim, self.storage, self.node, self.lease, free)
            except Exception as error:
                log.warning("review jobs could not be claimed: %s", str(error).splitlines()[0])
                continue
            for row in jobs:
                self._begin(row)

    def _begin(self, row: Mapping[str, Any]) -> None:
        job = str(row["job"])
        args = (job, row["game"], row["log"], int(row["seat"]), int(row["budget"]))
        self.progress[job] = 0.0
        future: asyncio.Future[dict[str, Any]]
        if self.settings.review_ray is None:
            if self._executor is None:
                self._executor = self._workers()
            try:
                submitted = self._executor.submit(run, *args)
            except BrokenProcessPool:  # a worker died while idle (killed, out of memory): a new pool
                self._executor = self._workers()
                submitted = self._executor.submit(run, *args)
            future = asyncio.wrap_future(submitted)
        else:
            future = asyncio.ensure_future(self._on_ray(*args))
        self.running[job] = future
        asyncio.get_running_loop().create_task(self._finish(job, future, self._executor))

    async def _on_ray(self, *args: Any) -> dict[str, Any]:
        """The review as a task on the Ray cluster at `review_ray` (joined on the first job, as `simulate --ray`
        does); its progress is known only when it ends."""
        import ray

        if not ray.is_initialized():
            await asyncio.to_thread(partial(ray.init, address=self.settings.review_ray, log_to_driver=False))
        global _ray_task
        if _ray_task is None:
            _ray_task = ray.remote(run)
        result: dict[str, Any] = await asyncio.to_thread(ray.get, _ray_task.remote(*args))
        return result

    async def _finish(self, job: str, future: asyncio.Future[dict[str, Any]], executor: Executor | None) -> None:
        result: dict[str, Any] | None = None
        error: dict[str, Any] | None = None
        try:
            result = await future
        except asyncio.CancelledError:
            return
        except Exception as failed:  # a worker's failure is the job's, not the server's
            if self._stopping:
                return
            if isinstance(failed, BrokenProcessPool):
                log.warning("a review worker died: job %s goes back to the queue", job)
                self.running.pop(job, None)
                self.progress.pop(job, None)
                if self._executor is executor:  # (the pool's other jobs broke with it: one new pool, at the next)
                    self._executor = None
                return  # its lease runs out and it is claimed again
            error = failure(failed)
        try:
            stored = await asyncio.to_thread(finish, self.storage, self.node, job, result, error)
            if not stored:
                log.warning("review job %s was taken over meanwhile: its result is not stored here", job)
        except Exception as failed:
            log.warning("review job %s could not be stored: %s", job, str(failed).splitlines()[0])
        finally:
            self.running.pop(job, None)
            self.progress.pop(job, None)
            self.wake()

    async def _keep(self) -> None:
        """Stores the running jobs' progress and renews their leases every third of a lease."""
        while True:
            await asyncio.sleep(min(self.lease / 3, 0.5))
            if not self.progress:
                continue
            try:
                await asyncio.to_thread(keep, self.storage, self.node, dict(self.progress), self.lease)
            except Exception as error:
                log.warning("review progress could not be stored: %s", str(error).splitlines()[0])
