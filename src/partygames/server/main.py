"""Running the server: `serve()` is what `partygames serve` calls."""

from __future__ import annotations

import gc
import logging
import socket
import sys
from collections.abc import Mapping
from pathlib import Path

import uvicorn
import uvicorn.config

from partygames.engine.game import Game
from partygames.server.address import check_public_url, public_url
from partygames.server.app import create_app
from partygames.server.dblock import DatabaseInUse, lock_sqlite
from partygames.server.hub import Hub
from partygames.server.settings import DEFAULT_BOT_DELAY, Settings
from partygames.server.transport import protocols

WS_PING_SECONDS = 5.0


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
    user data directory), or `postgresql://...` (any number of processes on one database: docs/scaling.md).
    `games`: None for the registry. `public`: the URL people open (share links, QR codes; default: the bound
    address, the LAN address when bound to every interface). Extra keyword arguments override `Settings`
    fields."""
    configured = public or overrides.pop("base_url", None)
    address = public_url(host, port, check_public_url(str(configured)) if configured else None)
    settings = Settings.create(database_url, data_dir, bot_delay=bot_delay, base_url=address, **overrides)
    if settings.database_url.startswith("sqlite"):
        try:
            lock_sqlite(settings.database_url)  # held for the process's life; the hub finds it held
        except DatabaseInUse as error:
            print(f"partygames: {error.en}\npartygames: {error.ja}", file=sys.stderr, flush=True)
            raise SystemExit(1) from None
    configure_logging(settings.json_logs)
    app = create_app(settings, games)
    tune_gc()
    database = _shown_url(settings.database_url)
    logging.getLogger("partygames.server").info("serving", extra={"address": address, "database": database,
                                                                  "node": app.state.hub.node})
    print(f"partygames: open {address} (database: {database}); Ctrl+C stops.\n"
          f"partygames: ブラウザで {address} を開いてください(データベース: {database})。Ctrl+C で停止します。",
          flush=True)
    # ws_max_size bounds what the protocol layer buffers; the app refuses frames over 4 KiB itself.
    # The protocols are uvicorn's own, bounding how long a handshake may stay incomplete (server/transport.py).
    http, ws = protocols(settings.handshake_timeout)
    # X-Forwarded-For is believed from the configured proxies only (server/address.py). A ping every 5 s
    # (uvicorn's default: 20) keeps a live socket's tunnel busy, so deploy/'s proxies take 15 s of silence
    # from a process as hung and try the next (issue #31, item 4).
    config = uvicorn.Config(app, host=host, port=port, http=http, ws=ws, ws_max_size=64 * 1024, log_level="warning",
                            log_config=None if settings.json_logs else uvicorn.config.LOGGING_CONFIG,
                            proxy_headers=True, forwarded_allow_ips=list(settings.trusted_proxies),
                            ws_ping_interval=WS_PING_SECONDS)
    Server(config, app.state.hub).run()


class Server(uvicorn.Server):
    """uvicorn's server, which on SIGTERM (or Ctrl+C) first hands the rooms over to the other processes
    (`Hub.handover`: at once, not when the leases run out), then closes the connections as usual."""

    def __init__(self, config: uvicorn.Config, hub: Hub) -> None:
        super().__init__(config)
        self.hub = hub

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        await self.hub.handover()
        await super().shutdown(sockets)


def configure_logging(json_logs: bool) -> None:
    """Warnings and errors to standard error; with `json_logs`, as one JSON object per line (what log
    collectors read, through python-json-logger), and the server's own notes too (serving, rooms taken over
    and handed over). uvicorn's own loggers stay at warnings (its `log_level`)."""
    handler = logging.StreamHandler(sys.stderr)
    if json_logs:
        from pythonjsonlogger.json import JsonFormatter

        handler.setFormatter(JsonFormatter("%(asctime)s %(levelname)s %(name)s %(message)s",
                                           rename_fields={"asctime": "time", "levelname": "level"}))
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(logging.WARNING)  # (uvicorn's own loggers come here too when it is given no log config)
    logging.getLogger("partygames").setLevel(logging.INFO if json_logs else logging.NOTSET)


def _shown_url(url: str) -> str:
    """The database URL without a password."""
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)
