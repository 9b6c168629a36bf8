"""The real platform in a subprocess for the browser tests: the server tests' `LiveServer` with the
real game registry and a SQLite file in the test's data folder, killable and restartable on the same
port and database."""

from __future__ import annotations

from pathlib import Path

from tests.server.live import ROOT, LiveServer, free_port

__all__ = ["ROOT", "PlatformProcess", "free_port"]


class PlatformProcess(LiveServer):
    """One server process of the real platform; `kill()` is a SIGKILL, `start()` again reopens the
    same database."""

    def __init__(self, data_dir: Path, bot_delay: float = 0.05) -> None:
        self.database_url = f"sqlite:///{data_dir / 'platform.sqlite3'}"
        super().__init__(data_dir, self.database_url, bot_delay=bot_delay, games=None)
