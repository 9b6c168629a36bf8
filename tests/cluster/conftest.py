"""Many server processes on one real PostgreSQL, with a real proxy in front (issue #20).

These tests start processes, kill them (SIGKILL), pause them (SIGSTOP) and stop them (SIGTERM): they run
in their own xdist group (`cluster`), beside the rest of the suite."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from sqlalchemy import create_engine, text

from tests.server.live import LiveServer
from tests.server.pg import fresh_database, postgres_url

# Short leases, so that a takeover after a SIGKILL takes about two seconds rather than the default five.
LEASE = 1.5
SETTINGS = {"lease_seconds": LEASE, "sweep_seconds": 0.25, "presence_interval": 0.1}


@pytest.fixture(scope="session")
def pg_url() -> Iterator[str]:
    with postgres_url() as url:
        yield url


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/cluster/" in str(item.fspath):
            item.add_marker(pytest.mark.xdist_group("cluster"))


class Cluster:
    """`n` server processes on one fresh PostgreSQL database."""

    def __init__(self, database_url: str, workdir: Path, n: int, bot_delay: float = 0.05,
                 games: str | None = "tests.server.games:GAMES", settings: dict[str, object] | None = None) -> None:
        self.database_url = database_url
        self.servers = []
        for i in range(n):
            directory = workdir / f"p{i}"
            directory.mkdir(parents=True, exist_ok=True)
            self.servers.append(LiveServer(directory, database_url=database_url, bot_delay=bot_delay, games=games,
                                           settings={**SETTINGS, **(settings or {})}))

    def start(self) -> Cluster:
        for server in self.servers:  # started together, then each awaited: their start-ups overlap
            server.launch()
        for server in self.servers:
            server.wait()
        self.nodes = [self.node(server) for server in self.servers]
        return self

    def stop(self) -> None:
        for server in self.servers:
            server.stop()

    def node(self, server: LiveServer) -> str:
        return str(httpx.get(f"{server.url}/healthz", timeout=5).json()["node"])

    def owner(self, code: str) -> LiveServer | None:
        """The process that owns room `code` now (as the database says)."""
        owner = self.query("SELECT owner FROM rooms WHERE code = :code", code=code)
        for server, node in zip(self.servers, self.nodes, strict=True):
            if server.proc is not None and server.proc.poll() is None and node == owner:
                return server
        return None

    def query(self, sql: str, **params: object) -> object:
        engine = create_engine(self.database_url.replace("postgresql://", "postgresql+psycopg://", 1))
        try:
            with engine.connect() as conn:
                return conn.execute(text(sql), params).scalar()
        finally:
            engine.dispose()

    def rows(self, sql: str, **params: object) -> list[dict[str, object]]:
        engine = create_engine(self.database_url.replace("postgresql://", "postgresql+psycopg://", 1))
        try:
            with engine.connect() as conn:
                return [dict(r) for r in conn.execute(text(sql), params).mappings()]
        finally:
            engine.dispose()


@pytest.fixture
def database(pg_url: str) -> str:
    """A database of the test's own on the shared PostgreSQL server."""
    return fresh_database(pg_url)
