"""Server settings: one frozen value built by `serve()` or by tests."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from platformdirs import user_data_dir


def default_data_dir() -> Path:
    return Path(user_data_dir("partygames", appauthor=False))


def default_database_url(data_dir: Path | None = None) -> str:
    """SQLite in the user's data directory (created if missing)."""
    directory = data_dir or default_data_dir()
    directory.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{directory / 'partygames.sqlite3'}"


def normalize_database_url(url: str) -> str:
    """Maps the plain `postgresql://` (and `postgres://`) forms to SQLAlchemy's psycopg 3 driver."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


DEFAULT_BOT_DELAY = 0.8  # seconds a bot "thinks" before acting, so that people can follow
DEFAULT_BOT_PACE = 3.0  # seconds between one bot's actions in real-time play, so that people can keep up


@dataclass(frozen=True)
class Settings:
    """Everything the server can be tuned with. Limits are per WebSocket connection."""

    database_url: str
    bot_delay: float = DEFAULT_BOT_DELAY
    # In real-time play (nobody's turn: Pandemic, a Musical Chairs race) each bot also waits this long
    # after its own last action; bots in `simulate` and the terminal play as fast as the virtual clock.
    bot_pace: float = DEFAULT_BOT_PACE
    base_url: str | None = None  # for share links; None: taken from the request
    max_frame_bytes: int = 4096
    max_body_bytes: int = 16 * 1024
    rate_per_second: float = 20.0
    rate_burst: float = 40.0
    chat_per_window: int = 5
    chat_window_seconds: float = 10.0
    chat_max_chars: int = 300
    chat_history: int = 50
    max_rate_refusals: int = 200
    # Lobby writes (POST) per client address: creating rooms, joining, starting.
    http_rate_per_second: float = 10.0
    http_rate_burst: float = 60.0
    # Multiplies every engine deadline; tests use a small value. 1.0 in production.
    deadline_scale: float = 1.0
    # Multiplies every game's reveal durations (Game.reveals): the match clock and the bots wait while
    # a reveal plays (docs/server.md, Reveals). 0: no waiting (most tests).
    reveal_scale: float = 1.0
    # Catch-up gives missed events only for gaps up to this many versions; beyond, a fresh view.
    max_catchup: int = 1000
    send_queue_limit: int = 2000

    @staticmethod
    def create(database_url: str | None = None, data_dir: Path | None = None, **overrides: Any) -> Settings:
        url = normalize_database_url(database_url) if database_url else default_database_url(data_dir)
        return Settings(database_url=url, **overrides)
