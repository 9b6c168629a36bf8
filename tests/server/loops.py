"""Running a coroutine in a test that may share its worker with browser tests."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")


def run(coroutine: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """Runs the coroutine on an event loop of its own in another thread: a browser test on the same
    worker (Playwright's sync API) may have left an event loop running in this one."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(lambda: asyncio.run(coroutine())).result()
