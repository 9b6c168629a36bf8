"""Server settings: one frozen value built by `serve()` or by tests."""

from __future__ import annotations

import math
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


DEFAULT_REVIEW_SIMULATIONS = 200  # analysis.review.DEFAULT_SIMULATIONS (not imported: the engine stays unloaded here)


@dataclass(frozen=True)
class Settings:
    """Everything the server can be tuned with. Limits are per WebSocket connection."""

    database_url: str
    # The process's own files: a SQLite database by default, and its node id among the processes (hub.py).
    data_dir: str | None = None
    bot_delay: float = DEFAULT_BOT_DELAY
    # In real-time play (nobody's turn: Pandemic, a Musical Chairs race) each bot also waits this long
    # after its own last action; bots in `simulate` and the terminal play as fast as the virtual clock.
    bot_pace: float = DEFAULT_BOT_PACE
    # The public URL, where people open the server: share links, QR codes, and a page origin whose
    # WebSockets are taken. `serve()` always sets it (`--public-url`, else the address it is bound to, its
    # LAN address when bound to every interface: server/address.py); never taken from a request.
    base_url: str | None = None
    # Page origins besides the server's own address and its public URL whose WebSockets are taken ("*": any).
    allowed_origins: tuple[str, ...] = ()
    # The proxies whose X-Forwarded-For names the client (addresses or networks; "*": any): behind them the
    # per-address limits count each client, not the proxy. Another sender's header is ignored (address.py).
    trusted_proxies: tuple[str, ...] = ("127.0.0.1", "::1")
    # Every match starts from this seed, plus the room's count of matches before it (tests, reproducible
    # demos); None: a fresh random seed for each match.
    match_seed: int | None = None
    max_frame_bytes: int = 4096
    max_body_bytes: int = 16 * 1024
    # Arrays and objects in any JSON a client sends (frames, HTTP bodies, the `options` parameter).
    max_json_depth: int = 32
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
    # No bot stands in for an absent person until a match has run this long (seconds): after "Play again" or
    # a series' next game, people reopen the room a few seconds late (docs/server.md, Stand-ins).
    standin_grace: float = 10.0
    # Catch-up gives missed events only for gaps up to this many versions; beyond, a fresh view.
    max_catchup: int = 1000
    send_queue_limit: int = 2000
    # Many processes on one PostgreSQL (docs/scaling.md): a playing room's owner holds a lease this long,
    # renewed by every write and every third of it; a room whose lease ran out (its owner died) is taken over
    # by another process within about `lease_seconds` + `sweep_seconds`.
    lease_seconds: float = 4.0
    sweep_seconds: float = 0.5
    # A finished room leaves the lobby's list this long after its end; a room nobody has been at for
    # `abandon_seconds` is closed (its bots stop; its matches and replays stay).
    finished_retention: float = 600.0
    abandon_seconds: float = 1800.0
    # A room this process only follows, and nobody here watches, is forgotten after this long.
    follower_idle_seconds: float = 60.0
    json_logs: bool = False
    # Room frames announcing connections that came or went: at most one per room this often (seconds); each
    # process stores who is connected here as often (every process tells who is at the table).
    presence_interval: float = 1.0
    # Open WebSockets per client address, and spectators (sockets without a seat token) per room.
    sockets_per_address: int = 64
    spectators_per_room: int = 100
    # Lookups of room codes that do not exist, per client address (guessing codes to walk into rooms):
    # this many a second with bursts of `unknown_code_burst`; past that, every lookup by code is refused.
    unknown_code_rate: float = 0.2
    unknown_code_burst: float = 20.0
    # A connection whose request head (or WebSocket handshake) is still incomplete this long after it
    # opened, or after its previous response, is closed (server/transport.py).
    handshake_timeout: float = 10.0
    # A request's body must be whole this long after its head, else 408 (`msg/timeout`) and the connection is
    # closed; a connection whose client takes none of the bytes waiting for it this long is reset.
    body_timeout: float = 10.0
    send_timeout: float = 20.0
    # A process asked to stop (SIGTERM) hands its rooms over, then waits at most this long for its requests and
    # sockets to end before it cancels them and exits: whatever was accepted is stored by then (server/main.py).
    shutdown_timeout: int = 10
    # What the kernel holds for one client beyond what it has taken (its socket's send buffer; Linux doubles it).
    send_buffer_bytes: int = 128 * 1024
    # Open connections (HTTP and WebSocket alike) per client address: past it one is answered 429
    # (`rate/connections`) and closed. A trusted proxy's (uvicorn's forwarded_allow_ips) are not counted.
    connections_per_address: int = 128
    # Reviews of finished matches (server/reviews.py): worker processes of this process (0: no reviews here),
    # the simulations per decision (the budget: part of a stored review's key; docs/review.md's default), and
    # a Ray cluster's address to send the reviews to instead ("auto", "local" or host:port; None: here).
    review_workers: int = 1
    review_simulations: int = DEFAULT_REVIEW_SIMULATIONS
    review_ray: str | None = None

    @staticmethod
    def create(database_url: str | None = None, data_dir: Path | None = None, **overrides: Any) -> Settings:
        url = normalize_database_url(database_url) if database_url else default_database_url(data_dir)
        return Settings(database_url=url, data_dir=str(data_dir or default_data_dir()), **overrides)


@dataclass(frozen=True)
class Knob:
    """A cluster setting with a `serve` option (`--lease-seconds`) and an environment variable
    (`PARTYGAMES_LEASE_SECONDS`): its least value, and what it does in English and Japanese."""

    name: str
    least: float
    en: str
    ja: str
    # A whole number (a count, not seconds), at most `most`.
    whole: bool = False
    most: float = math.inf

    @property
    def option(self) -> str:
        return "--" + self.name.replace("_", "-")

    @property
    def env(self) -> str:
        return "PARTYGAMES_" + self.name.upper()


KNOBS = {knob.name: knob for knob in (
    Knob("lease_seconds", 1.0,
         "Many processes on one PostgreSQL: seconds a room's owner holds it between renewals; a room whose owner "
         "died is taken over after about this long (default 4).",
         "複数プロセス(PostgreSQL): ルームの持ち主が更新せずに保持できる秒数。止まったプロセスのルームは"
         "約この秒数で引き継がれます(既定: 4)。"),
    Knob("sweep_seconds", 0.05,
         "Seconds between looks for rooms nobody holds (at most the lease; default 0.5).",
         "だれも持っていないルームを探す間隔の秒数(リース以下。既定: 0.5)。"),
    Knob("follower_idle_seconds", 1.0,
         "Seconds after which a room this process only follows, and nobody here watches, is forgotten (default 60).",
         "このプロセスが追うだけで、ここでだれも見ていないルームを忘れるまでの秒数(既定: 60)。"),
    Knob("finished_retention", 0.0,
         "Seconds a finished room stays in the lobby's list (default 600).",
         "終わったルームがロビーの一覧に残る秒数(既定: 600)。"),
    Knob("abandon_seconds", 1.0,
         "Seconds after which a room nobody has been at is closed (default 1800).",
         "だれもいないルームを閉じるまでの秒数(既定: 1800)。"),
    Knob("review_workers", 0,
         "Worker processes that review finished matches (0: this process runs no reviews; default 1).",
         "終わった対戦を検討するワーカープロセスの数(0: このプロセスでは検討しない。既定: 1)。", whole=True, most=64),
)}


class InvalidSetting(ValueError):
    """A setting out of its range: said in English and Japanese."""

    def __init__(self, en: str, ja: str) -> None:
        super().__init__(en)
        self.en, self.ja = en, ja


def check_settings(settings: Settings) -> None:
    """Refuses cluster settings out of range (InvalidSetting): each a finite number of at least its least
    value, and the sweep at most the lease."""
    for knob in KNOBS.values():
        value = getattr(settings, knob.name)
        if knob.whole:
            if not (isinstance(value, int) and not isinstance(value, bool) and knob.least <= value <= knob.most):
                raise InvalidSetting(f"{knob.option} ({knob.env}) must be a whole number from {knob.least:g} to "
                                     f"{knob.most:g}, not {value!r}.",
                                     f"{knob.option} ({knob.env}) は {knob.least:g}〜{knob.most:g} の整数にしてください"
                                     f"({value!r} は不可)。")
            continue
        if not (isinstance(value, int | float) and math.isfinite(value) and value >= knob.least):
            raise InvalidSetting(f"{knob.option} ({knob.env}) must be a number of at least {knob.least:g}, not {value!r}.",
                                 f"{knob.option} ({knob.env}) は {knob.least:g} 以上の数にしてください({value!r} は不可)。")
    if settings.sweep_seconds > settings.lease_seconds:
        raise InvalidSetting(f"--sweep-seconds ({settings.sweep_seconds:g}) must be at most --lease-seconds "
                             f"({settings.lease_seconds:g}): else a room whose owner died waits longer than a lease.",
                             f"--sweep-seconds ({settings.sweep_seconds:g}) は --lease-seconds "
                             f"({settings.lease_seconds:g}) 以下にしてください。")
    if not (isinstance(settings.review_simulations, int) and 2 <= settings.review_simulations <= 100_000):
        raise InvalidSetting(f"review_simulations must be a whole number from 2 to 100000, not "
                             f"{settings.review_simulations!r}.",
                             f"review_simulations は 2〜100000 の整数にしてください({settings.review_simulations!r} は不可)。")
