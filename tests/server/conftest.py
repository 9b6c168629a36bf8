from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.server import client as clients
from tests.server.client import Lobby
from tests.server.live import LiveServer
from tests.server.pg import postgres_url


@pytest.fixture(scope="session")
def pg_url() -> Iterator[str]:
    with postgres_url() as url:
        yield url


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """One real server (SQLite) shared by a test module; every test makes its own rooms."""
    live = LiveServer(tmp_path_factory.mktemp("server"), bot_delay=0.02).start()
    yield live
    live.stop()


@pytest.fixture(scope="module")
def registry_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A real server offering the registered games (no test-only ones), bots acting at once."""
    live = LiveServer(tmp_path_factory.mktemp("registry"), bot_delay=0.0, games=None).start()
    yield live
    live.stop()


@pytest.fixture(scope="module")
def quick_registry_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """`registry_server` with a match clock that runs ten times the wall clock (`deadline_scale`): for whole
    matches that would mostly wait on their time limits."""
    live = LiveServer(tmp_path_factory.mktemp("quick"), bot_delay=0.0, deadline_scale=0.1, games=None).start()
    yield live
    live.stop()


@pytest.fixture
def lobby(server: LiveServer) -> Iterator[Lobby]:
    client = Lobby(server.url)
    yield client
    client.http.close()


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str | None:
    """None (SQLite in the server's data directory) or a real PostgreSQL URL."""
    if request.param == "sqlite":
        return None
    url: str = request.getfixturevalue("pg_url")
    return url


@pytest.fixture(autouse=True)
def close_sockets() -> Iterator[None]:
    yield
    while clients.OPEN:
        clients.OPEN.pop().close()


def pytest_configure(config: pytest.Config) -> None:
    # Registered here too so that `-p no:xdist` runs (which drop xdist's own marker) still collect.
    config.addinivalue_line("markers", "xdist_group(name): run these tests in one xdist worker")
