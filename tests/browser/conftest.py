"""Fixtures for the real-browser tests: Debian's chromium through Playwright, and the real server.

Without chromium the tests are skipped with the reason, except on CI (the CI variable set), where
a missing browser is a failure: `.ci/run` installs it.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.browser.server import ROOT, PlatformProcess

if TYPE_CHECKING:  # playwright is imported lazily below, so that its absence is a clear skip
    from playwright.sync_api import Browser

    from tests.browser.driver import Player

CHROMIUM = Path("/usr/bin/chromium")
#: A name for this machine that is not loopback to the browser, as a LAN address is: a page served there
#: over plain http is not a secure context (no clipboard API), unlike one at 127.0.0.1 or localhost.
LAN_HOST = "lan.partygames.test"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run", f"--host-resolver-rules=MAP {LAN_HOST} 127.0.0.1"]
ARTIFACTS = ROOT / "test-artifacts" / "browser"


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


@pytest.fixture
def platform(tmp_path: Path) -> Iterator[PlatformProcess]:
    server = PlatformProcess(tmp_path).start()
    yield server
    server.stop()


@pytest.fixture
def players(browser: Browser, platform: PlatformProcess) -> Iterator[list[Player]]:
    """Two players in their own browser contexts: the host reads English, the guest Japanese."""
    from tests.browser import driver

    opened = [driver.open_player(browser, platform, lang="en"), driver.open_player(browser, platform, lang="ja")]
    yield opened
    for player in opened:
        player.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS
