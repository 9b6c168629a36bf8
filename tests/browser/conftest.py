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
    config.addinivalue_line("markers", "platform(**kwargs): a server of the test's own for the `platform` fixture, "
                                       "with these PlatformProcess arguments (settings={'match_seed': 7}: every "
                                       "match dealt from one seed; bot_delay); platform() with none: a fresh "
                                       "server and database (the test kills it, or reads what only it made)")


@pytest.fixture(scope="session")
def shared_platform(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PlatformProcess]:
    """The one default server of this process (an xdist worker): a server's start is seconds, once per
    test it was most of the browser tests' time. Each test makes rooms and browser contexts (profiles) of
    its own, so the tests on it do not see each other's."""
    server = PlatformProcess(tmp_path_factory.mktemp("platform")).start()
    yield server
    server.stop()


@pytest.fixture
def platform(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[PlatformProcess]:
    """The real server: the shared default one, or the test's own (its `platform` marker)."""
    marker = request.node.get_closest_marker("platform")
    if marker is None:
        shared: PlatformProcess = request.getfixturevalue("shared_platform")
        assert shared.proc is not None and shared.proc.poll() is None, \
            f"the shared server exited ({shared.proc and shared.proc.returncode}):\n{shared.log.read_text()[-3000:]}"
        yield shared
        return
    server = PlatformProcess(tmp_path, **marker.kwargs).start()
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
