"""Running the server: `serve()` is what `partygames serve` calls."""

from __future__ import annotations

import gc
from collections.abc import Mapping
from pathlib import Path

import uvicorn

from partygames.engine.game import Game
from partygames.server.address import check_public_url, public_url
from partygames.server.app import create_app
from partygames.server.settings import DEFAULT_BOT_DELAY, Settings
from partygames.server.transport import protocols


def tune_gc() -> None:
    """Fewer cyclic-GC passes: a busy room server allocates many short-lived, acyclic objects (frames,
    views), and with the default thresholds the collector's passes over the ever-growing heap (each
    room's log and events) showed up as p99 latency spikes of 150 ms in benchmarks/server_load.py.
    Reference counting still frees nearly everything at once; cycles are collected less often."""
    gc.collect()
    gc.freeze()  # what start-up created (modules, classes) is never scanned again
    gc.set_threshold(50_000, 50, 1000)


def serve(host: str = "127.0.0.1", port: int = 8000, database_url: str | None = None, bot_delay: float = DEFAULT_BOT_DELAY,
          data_dir: Path | None = None, games: Mapping[str, Game] | None = None, public: str | None = None,
          **overrides: object) -> None:
    """Serves the platform until interrupted. `database_url`: None for SQLite in `data_dir` (default: the
    user data directory), or `postgresql://...`. `games`: None for the registry. `public`: the URL people
    open (share links, QR codes; default: the bound address, the LAN address when bound to every
    interface). Extra keyword arguments override `Settings` fields."""
    configured = public or overrides.pop("base_url", None)
    address = public_url(host, port, check_public_url(str(configured)) if configured else None)
    settings = Settings.create(database_url, data_dir, bot_delay=bot_delay, base_url=address, **overrides)
    app = create_app(settings, games)
    tune_gc()
    database = _shown_url(settings.database_url)
    print(f"partygames: open {address} (database: {database}); Ctrl+C stops.\n"
          f"partygames: ブラウザで {address} を開いてください(データベース: {database})。Ctrl+C で停止します。",
          flush=True)
    # ws_max_size bounds what the protocol layer buffers; the app refuses frames over 4 KiB itself. The
    # protocols are uvicorn's own, bounding how long a handshake may stay incomplete (server/transport.py).
    http, ws = protocols(settings.handshake_timeout)
    uvicorn.run(app, host=host, port=port, http=http, ws=ws, ws_max_size=64 * 1024, log_level="warning")


def _shown_url(url: str) -> str:
    """The database URL without a password."""
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)
