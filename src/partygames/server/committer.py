"""Group commit: every write waits in a queue and is committed with all others pending at that moment.

Rooms keep applying actions while a commit is on disk, and the next batch holds everything that
arrived meanwhile, so one fsync confirms many actions across rooms. A room's writes in a batch (under one
epoch) share one future, resolved only after the transaction has committed; nothing that depends on a
write is sent before (see outbox.Outbox). An owner's writes are checked against its lease in the same
transaction (`Storage.write`): a room another process has taken over has its writes dropped and its
future fails with `Fenced`, while the other rooms of the batch commit; and a batch the database refuses (a
constraint, the fence trigger), rather than fails to reach, is committed again a room at a time, so that
only the refused room's writes are lost. Lobby changes, which read before they write, run on the same
thread between batches (`run`), so that one process never has two writers at once (SQLite).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from partygames.server.storage import Fenced, Storage, Write, unavailable

log = logging.getLogger(__name__)

T = TypeVar("T")


def _key(write: Write) -> tuple[str, int] | None:
    """What a write's future is shared by: an owner's room and epoch, or nothing (the writes of no owner)."""
    return (write.room, write.epoch) if write.epoch is not None and write.room is not None else None


class Committer:
    """Writes batches in order on one thread; futures resolve in submission order. `node` is this
    process's id and `lease` the seconds each batch renews its rooms' leases by."""

    def __init__(self, storage: Storage, node: str | None = None, lease: float = 0.0,
                 observe: Callable[[float, int], None] | None = None) -> None:
        self.storage = storage
        self.node = node
        self.lease = lease
        self.observe = observe  # told each batch's seconds and match steps (metrics)
        self._writes: list[Write] = []
        # The batch being gathered: a future per room and epoch (an owner's writes), one for the rest.
        self._open: dict[tuple[str, int] | None, asyncio.Future[None]] = {}
        self._last: asyncio.Future[None] | None = None
        self._before: list[Callable[[], None]] = []
        self._wake = asyncio.Event()
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="partygames-commit")
        self._task: asyncio.Task[None] | None = None
        self.batches = 0
        self.writes = 0

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run(), name="committer")

    async def stop(self) -> None:
        if self._task is not None:
            await self.drain()  # what was submitted reaches the disk first
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        self._executor.shutdown(wait=True)

    def submit(self, write: Write) -> asyncio.Future[None]:
        """Queues a write; the future resolves once the batch holding it has committed (it fails with
        `Fenced` if the write's room is no longer this process's)."""
        key = _key(write)
        future = self._open.get(key)
        if future is None:
            future = self._open[key] = asyncio.get_running_loop().create_future()
        self._last = future
        self._writes.append(write)
        self._wake.set()
        return future

    def before_batch(self, hook: Callable[[], None]) -> None:
        """Calls `hook` once, just before the next batch is taken (rooms build their updates then)."""
        self._before.append(hook)
        self._wake.set()

    async def drain(self) -> None:
        """Waits until every write submitted so far has been committed (or has failed)."""
        last = self._last  # batches commit in order: the latest one covers everything before it
        if last is not None and not last.done():
            await asyncio.wait([last])

    async def run(self, work: Callable[[], T]) -> T:
        """Runs `work` (a transaction of its own) on the commit thread, after the writes submitted so far."""
        await self.drain()
        return await asyncio.get_running_loop().run_in_executor(self._executor, work)

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._writes or self._before:
                hooks, self._before = self._before, []
                for hook in hooks:
                    try:
                        hook()
                    except Exception:
                        log.exception("a before-batch hook failed")
                if not self._writes:
                    continue
                writes, futures = self._writes, self._open
                self._writes, self._open = [], {}
                started = time.perf_counter()
                try:
                    fenced = await loop.run_in_executor(self._executor, self.storage.write, writes, self.node,
                                                        self.lease)
                except Exception as error:
                    if len(futures) > 1 and not unavailable(error):
                        # One write refused (a constraint, the fence trigger): the batch again, a room at a time,
                        # so that only the refused room loses its writes, never the others of the batch.
                        await self._one_by_one(writes, futures)
                        continue
                    # The whole batch is lost (the database is unreachable); its rooms reload from the database.
                    log.exception("commit of %d writes failed", len(writes))
                    for future in futures.values():
                        future.set_exception(error)
                    continue
                self._done(writes, futures, fenced, started)

    def _done(self, writes: list[Write], futures: dict[tuple[str, int] | None, asyncio.Future[None]],
              fenced: set[tuple[str, int]], started: float) -> None:
        self.batches += 1
        self.writes += len(writes)
        if self.observe is not None:  # the batch's seconds, and the steps of matches it stored
            self.observe(time.perf_counter() - started, sum(1 for w in writes if w.epoch is not None))
        for key, future in futures.items():
            if key in fenced:
                future.set_exception(Fenced(key[0] if key is not None else None))
            else:
                future.set_result(None)

    async def _one_by_one(self, writes: list[Write],
                          futures: dict[tuple[str, int] | None, asyncio.Future[None]]) -> None:
        """Commits a refused batch's writes again, one transaction per future (a room under an epoch, or the
        writes of no owner): each fails alone. The futures resolve together at the end, as a batch's do
        (`drain` waits for the latest one)."""
        loop = asyncio.get_running_loop()
        fenced: set[tuple[str, int]] = set()
        failed: dict[tuple[str, int] | None, BaseException] = {}
        kept: list[Write] = []
        started = time.perf_counter()
        for key in futures:
            group = [w for w in writes if _key(w) == key]
            try:
                fenced |= await loop.run_in_executor(self._executor, self.storage.write, group, self.node, self.lease)
                kept += group
            except Exception as error:
                log.exception("commit of %d writes of room %s failed", len(group), key[0] if key else "-")
                failed[key] = error
        for key, refusal in failed.items():
            futures.pop(key).set_exception(refusal)
        self._done(kept, futures, fenced, started)
