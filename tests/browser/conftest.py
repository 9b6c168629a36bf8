"""Fixtures for the real-browser tests: the real server and players in their own browser contexts.

The browser itself (Debian's chromium through Playwright) is `tests/browser/chromium.py`'s fixture,
registered once in the root conftest. Without chromium the tests are skipped with the reason, except on
CI (the CI variable set), where a missing browser is a failure: `.ci/run` installs it.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.browser.server import ROOT, PlatformProcess

if TYPE_CHECKING:  # playwright is imported lazily below, so that its absence is a clear skip
    from playwright.sync_api import Browser

    from tests.browser.driver import Player

ARTIFACTS = ROOT / "test-artifacts" / "browser"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "platform(**kwargs): the `platform` fixture's PlatformProcess arguments "
                                       "(settings={'match_seed': 7}: every match dealt from one seed; bot_delay)")


@pytest.fixture
def platform(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[PlatformProcess]:
    marker = request.node.get_closest_marker("platform")
    server = PlatformProcess(tmp_path, **(marker.kwargs if marker else {})).start()
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
