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

    def __init__(self, data_dir: Path, bot_delay: float = 0.05, games: str | None = None,
                 settings: dict[str, object] | None = None, deadline_scale: float = 1.0) -> None:
        """`games`: a `module:attribute` registry of test games instead of the real one; `settings`:
        server settings to override; `deadline_scale` shortens every time limit (idle seats then act by
        their defaults at once)."""
        self.database_url = f"sqlite:///{data_dir / 'platform.sqlite3'}"
        # Reveals paced at 2% of their length: the server then tells the page when each reveal ends, and the
        # page narrates its events in that time (a server that does not pace, reveal_scale 0, leaves the
        # page to narrate at full length: a whole Quiz took two minutes of watching).
        settings = {"reveal_scale": 0.02, **(settings or {})}
        super().__init__(data_dir, self.database_url, bot_delay=bot_delay, games=games, settings=settings,
                         deadline_scale=deadline_scale)
        # Serve this checkout's sources: the process gets PYTHONPATH=ROOT, under which `partygames`
        # is not found (it is in src/), so it came from wherever the virtual environment was installed
        # from, another checkout's code when a worktree shares that environment.
        assert self.args[1:3] == ["-m", "partygames.server"], self.args
        self.args[1:3] = ["-c", f"import runpy, sys; sys.path.insert(0, {str(ROOT / 'src')!r}); "
                                "runpy.run_module('partygames.server', run_name='__main__', alter_sys=True)"]
