"""Group commit: every write waits in a queue and is committed with all others pending at that moment.

Rooms keep applying actions while a commit is on disk, and the next batch holds everything that
arrived meanwhile, so one fsync confirms many actions across rooms. All writes of a batch share one
future, resolved only after the transaction has committed; nothing that depends on a write is sent
before (see outbox.Outbox).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from partygames.server.storage import Storage, Write

log = logging.getLogger(__name__)


class Committer:
    """Writes batches in order on one thread; batch futures resolve in submission order."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self._writes: list[Write] = []
        self._open: asyncio.Future[None] | None = None  # the future of the batch being gathered
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
        """Queues a write; the future resolves once the batch holding it has committed."""
        if self._open is None:
            self._open = asyncio.get_running_loop().create_future()
            self._last = self._open
        self._writes.append(write)
        self._wake.set()
        return self._open

    def before_batch(self, hook: Callable[[], None]) -> None:
        """Calls `hook` once, just before the next batch is taken (rooms build their updates then)."""
        self._before.append(hook)
        self._wake.set()

    async def drain(self) -> None:
        """Waits until every write submitted so far has been committed (or has failed)."""
        last = self._last  # batches commit in order: the latest one covers everything before it
        if last is not None and not last.done():
            await asyncio.wait([last])

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
                writes, future = self._writes, self._open
                self._writes, self._open = [], None
                assert future is not None
                try:
                    await loop.run_in_executor(self._executor, self.storage.write, writes)
                except Exception as error:  # the whole batch is lost; its rooms reload from the database
                    log.exception("commit of %d writes failed", len(writes))
                    future.set_exception(error)
                else:
                    self.batches += 1
                    self.writes += len(writes)
                    future.set_result(None)
