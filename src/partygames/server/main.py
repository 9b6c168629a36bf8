"""Running the server: `serve()` is what `partygames serve` calls."""

from __future__ import annotations

import contextlib
import gc
import logging
import socket
import sys
import threading
from collections.abc import Mapping
from pathlib import Path
from types import TracebackType

import uvicorn
import uvicorn.config
from alembic.util.exc import CommandError as AlembicError
from sqlalchemy.exc import SQLAlchemyError
from starlette.types import ASGIApp
from uvicorn.config import STARTUP_FAILURE

from partygames.engine.game import Game
from partygames.server.address import check_public_url, public_url
from partygames.server.app import create_app
from partygames.server.dblock import DatabaseInUse, lock_sqlite
from partygames.server.hub import Hub
from partygames.server.settings import DEFAULT_BOT_DELAY, InvalidSetting, Settings, check_settings
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
    configure_logging(settings.json_logs)
    try:
        check_settings(settings)
    except InvalidSetting as error:
        refuse(error.en, error.ja, settings.json_logs)
        raise SystemExit(2) from None
    if settings.database_url.startswith("sqlite"):
        try:
            lock_sqlite(settings.database_url)  # held for the process's life; the hub finds it held
        except DatabaseInUse as error:
            refuse(error.en, error.ja, settings.json_logs)
            raise SystemExit(1) from None
    app = create_app(settings, games)
    tune_gc()
    Server(uvicorn_config(app, settings, host, port), app.state.hub).run()


def uvicorn_config(app: ASGIApp, settings: Settings, host: str, port: int) -> uvicorn.Config:
    """uvicorn's configuration for serving `app` with these settings."""
    # ws_max_size bounds what the protocol layer buffers; the app refuses frames over 4 KiB itself.
    # The protocols are uvicorn's own, bounding how long a handshake or a body may stay incomplete, how long a
    # client may take nothing, and the connections per address (server/transport.py).
    http, ws = protocols(settings)
    # X-Forwarded-For is believed from the configured proxies only (server/address.py). A ping every 5 s
    # (uvicorn's default: 20) keeps a live socket's tunnel busy, so deploy/'s proxies take 15 s of silence
    # from a process as hung and try the next (issue #31, item 4). A stop waits for open requests at most
    # `shutdown_timeout` (uvicorn's default: for ever), so a process in a rolling restart always exits.
    return uvicorn.Config(app, host=host, port=port, http=http, ws=ws, ws_max_size=64 * 1024, log_level="warning",
                          log_config=None if settings.json_logs else uvicorn.config.LOGGING_CONFIG,
                          proxy_headers=True, forwarded_allow_ips=list(settings.trusted_proxies),
                          ws_ping_interval=WS_PING_SECONDS, timeout_graceful_shutdown=settings.shutdown_timeout)


log = logging.getLogger("partygames.server")


def refuse(en: str, ja: str, json_logs: bool) -> None:
    """Says why the server cannot start, in one line each in English and Japanese (one JSON object with
    both under `json_logs`), on standard error."""
    if json_logs:
        log.error(en, extra={"ja": ja})
    else:
        print(f"partygames: {en}\npartygames: {ja}", file=sys.stderr, flush=True)


class Server(uvicorn.Server):
    """uvicorn's server, which on SIGTERM (or Ctrl+C) first hands the rooms over to the other processes
    (`Hub.handover`: at once, not when the leases run out), then closes the connections as usual."""

    def __init__(self, config: uvicorn.Config, hub: Hub) -> None:
        super().__init__(config)
        self.hub = hub

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        """Opens the database first (the hub starts): a database that does not answer is said in one line,
        and the process exits (status 3, uvicorn's start-up failure) without ever saying it serves. Once
        the port is bound too, says where it serves."""
        hub = self.hub
        try:
            await hub.start()
        except Exception as error:
            if not isinstance(error, SQLAlchemyError | AlembicError | TimeoutError):
                raise  # a bug: its traceback
            shown = _shown_url(hub.settings.database_url)
            refuse(f"The database {shown} could not be opened: {reason(error)}",
                   f"データベース {shown} を開けませんでした: {reason(error)}", hub.settings.json_logs)
            with contextlib.suppress(Exception):
                await hub.stop()
            raise SystemExit(STARTUP_FAILURE) from None
        await super().startup(sockets)  # the app's lifespan (the hub is started already), then the port
        if self.started:
            announce(hub)

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        await self.hub.handover()
        await super().shutdown(sockets)


def announce(hub: Hub) -> None:
    """The server serves: a note in the log (with its address, database and node id), and for a person at a
    terminal the address to open (not under --json-logs, where every line is JSON)."""
    settings = hub.settings
    address, database = hub.base_url, _shown_url(settings.database_url)
    log.info("serving", extra={"address": address, "database": database, "node": hub.node})
    if not settings.json_logs:
        print(f"partygames: open {address} (database: {database}); Ctrl+C stops.\n"
              f"partygames: ブラウザで {address} を開いてください(データベース: {database})。Ctrl+C で停止します。",
              flush=True)


def reason(error: BaseException) -> str:
    """The first line of what the database driver (or Alembic) said, without SQLAlchemy's background link."""
    said = str(getattr(error, "orig", None) or error).strip()
    return said.splitlines()[0] if said else type(error).__name__


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
    if json_logs:  # every line the process writes is JSON: Python's warnings and uncaught errors too
        logging.captureWarnings(True)
        sys.excepthook = _log_uncaught
        threading.excepthook = lambda args: _log_uncaught(args.exc_type, args.exc_value, args.exc_traceback)


def _log_uncaught(kind: type[BaseException], error: BaseException | None, trace: TracebackType | None) -> None:
    if issubclass(kind, KeyboardInterrupt):
        sys.__excepthook__(kind, error or kind(), trace)
        return
    logging.getLogger("partygames").critical("uncaught %s", kind.__name__, exc_info=(kind, error or kind(), trace))


def _shown_url(url: str) -> str:
    """The database URL without a password."""
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)
