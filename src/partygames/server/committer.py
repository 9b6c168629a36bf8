"""Group commit: every write waits in a queue and is committed with all others pending at that moment.

Rooms keep applying actions while a commit is on disk, and the next batch holds everything that
arrived meanwhile, so one fsync confirms many actions across rooms. A write's future resolves only
after its transaction has committed; nothing that depends on it is sent before (see rooms.Outbox).
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
    """Writes batches in order on one thread; futures resolve in submission order."""

    def __init__(self, storage: Storage, max_batch: int = 2000) -> None:
        self.storage = storage
        self.max_batch = max_batch
        self._pending: list[tuple[Write, asyncio.Future[None]]] = []
        self._wake = asyncio.Event()
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="partygames-commit")
        self._task: asyncio.Task[None] | None = None
        self._before: list[Callable[[], None]] = []
        self._last: asyncio.Future[None] | None = None
        self.batches = 0
        self.writes = 0

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run(), name="committer")

    async def stop(self) -> None:
        if self._task is not None:
            # Let what was submitted reach the disk first.
            while self._pending:
                await asyncio.sleep(0.005)
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        self._executor.shutdown(wait=True)

    def submit(self, write: Write) -> asyncio.Future[None]:
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append((write, future))
        self._last = future
        self._wake.set()
        return future

    async def drain(self) -> None:
        """Waits until every write submitted so far has been committed (or has failed)."""
        if self._last is not None:
            await asyncio.wait([self._last])

    def before_batch(self, hook: Callable[[], None]) -> None:
        """Calls `hook` once, just before the next batch is taken (rooms build their updates then)."""
        self._before.append(hook)
        self._wake.set()

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._pending or self._before:
                hooks, self._before = self._before, []
                for hook in hooks:
                    try:
                        hook()
                    except Exception:
                        log.exception("a before-batch hook failed")
                if not self._pending:
                    continue
                batch = self._pending[: self.max_batch]
                del self._pending[: self.max_batch]
                try:
                    await loop.run_in_executor(self._executor, self.storage.write, [w for w, _ in batch])
                except Exception as error:  # the whole batch is lost; rooms reload from the database
                    log.exception("commit of %d writes failed", len(batch))
                    for _, future in batch:
                        if not future.done():
                            future.set_exception(error)
                else:
                    self.batches += 1
                    self.writes += len(batch)
                    for _, future in batch:
                        if not future.done():
                            future.set_result(None)
