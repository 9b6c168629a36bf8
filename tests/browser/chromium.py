"""The session's one Chromium (Debian's, through Playwright's sync API).

It is registered once, in the root conftest, for every folder that drives a browser (tests/browser,
tests/cluster): Playwright's sync API runs one instance per thread, so a second session fixture of the
same kind in the same xdist worker would fail with "Sync API inside the asyncio loop".
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
#: A name for this machine that is not loopback to the browser, as a LAN address is: a page served there
#: over plain http is not a secure context (no clipboard API), unlike one at 127.0.0.1 or localhost.
LAN_HOST = "lan.partygames.test"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run", f"--host-resolver-rules=MAP {LAN_HOST} 127.0.0.1"]


def _missing(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"{reason} (CI is set, so the browser tests may not be skipped)")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    if not CHROMIUM.exists():
        _missing(f"{CHROMIUM} is missing: apt-get install chromium")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:  # pragma: no cover - playwright is a dev dependency
        _missing("the playwright package is not installed")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=ARGS)
        yield browser
        browser.close()
