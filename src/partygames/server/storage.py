"""The database: rooms, seats, the match log, earlier matches and chat, through SQLAlchemy Core.

A match is stored as its game, seat count, options and seed plus the ordered log of its steps (a seat's
action or time passing, each at its match time); the state is rebuilt by replaying the log (the engine
guarantees determinism). A room plays one match at a time, described by its `rooms` row; when the same
people go on to another match (play again, or the next match of a series) the finished one is kept in
`matches`, and its log entries stay where they are: `log_entries.seq` counts on across a room's matches,
and a match's entries are those after the previous match's `last_seq`. Tokens are stored only as SHA-256 hashes. The same schema runs on SQLite (WAL,
synchronous=FULL) and PostgreSQL. Databases made before the tables were renamed are migrated on open
(`migrations.py`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Connection,
    Engine,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    event,
    false,
    insert,
    select,
    update,
)
from sqlalchemy.engine.interfaces import DBAPIConnection
from sqlalchemy.pool import ConnectionPoolEntry

from partygames.server.migrations import migrate

metadata = MetaData()

rooms = Table(
    "rooms", metadata,
    Column("code", String(12), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("seats", Integer, nullable=False),
    Column("options", Text, nullable=False),  # JSON
    Column("status", String(16), nullable=False, index=True),
    Column("seed", Text, nullable=True),  # JSON; drawn at start
    Column("host_token_hash", String(64), nullable=False),
    Column("host_seat", Integer, nullable=True),
    Column("created_at", Float, nullable=False, index=True),
    Column("started_at", Float, nullable=True),  # wall clock; the match clock counts from here
    Column("result", Text, nullable=True),  # JSON once over
    # Unlisted (GET /api/rooms): joinable by code or link only. Added by migrations.py to older databases.
    Column("private", Boolean, nullable=False, default=False, server_default=false()),
)

seats = Table(
    "seats", metadata,
    Column("room", String(12), ForeignKey("rooms.code"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(16), nullable=False),  # "human" | "bot"
    Column("bot", String(32), nullable=True),
    Column("name", String(64), nullable=True),
    Column("token_hash", String(64), nullable=True),
)

log_entries = Table(
    "log_entries", metadata,
    Column("room", String(12), ForeignKey("rooms.code"), primary_key=True),
    Column("seq", Integer, primary_key=True),  # 1, 2, ...: the protocol version after this entry
    Column("at", BigInteger, nullable=False),  # match time: ms since the match started
    Column("seat", Integer, nullable=True),  # None: time passing (a wake-up)
    Column("action", Text, nullable=True),  # JSON; None for a wake-up
    Column("source", String(8), nullable=False),  # seat | bot | wake (before the rename also timer | clock)
)

matches = Table(
    "matches",  # a room's finished matches before its current one
    metadata,
    Column("room", String(12), ForeignKey("rooms.code"), primary_key=True),
    Column("number", Integer, primary_key=True),  # 1, 2, ...
    Column("game", String(64), nullable=False),
    Column("options", Text, nullable=False),  # JSON
    Column("seed", Text, nullable=False),  # JSON
    Column("bots", Text, nullable=False),  # JSON: the bot seats
    Column("started_at", Float, nullable=False),
    Column("result", Text, nullable=True),  # JSON
    Column("last_seq", Integer, nullable=False),  # its log is log_entries.seq in (previous last_seq, last_seq]
)

chat_messages = Table(
    "chat_messages", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("room", String(12), ForeignKey("rooms.code"), nullable=False, index=True),
    Column("channel", String(64), nullable=False),
    Column("seat", Integer, nullable=True),
    Column("name", String(64), nullable=False),
    Column("text", Text, nullable=False),
    Column("at", Float, nullable=False),
)


@dataclass
class Write:
    """One unit for the committer: rows to insert and rows to update, applied in one transaction
    together with the other writes of its batch."""

    inserts: list[tuple[Table, dict[str, Any]]] = field(default_factory=list)
    updates: list[tuple[Table, dict[str, Any], dict[str, Any]]] = field(default_factory=list)


@dataclass
class StoredRoom:
    """A room as loaded from the database."""

    row: dict[str, Any]
    seats: list[dict[str, Any]]
    log: list[dict[str, Any]]  # the current match's
    chat: list[dict[str, Any]]
    matches: list[dict[str, Any]] = field(default_factory=list)  # the earlier ones, in order

    @property
    def seq_offset(self) -> int:
        """The `seq` of the last log entry before the current match."""
        return self.matches[-1]["last_seq"] if self.matches else 0


def _sqlite_pragmas(dbapi_connection: DBAPIConnection, _record: ConnectionPoolEntry) -> None:
    cursor = dbapi_connection.cursor()
    # WAL + FULL: a commit is on disk (fsync of the WAL) before it returns.
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.close()


class Storage:
    """Synchronous database access; the server calls it from worker threads."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.is_sqlite = url.startswith("sqlite")
        kwargs: dict[str, Any] = {}
        if self.is_sqlite:
            kwargs["connect_args"] = {"check_same_thread": False}
        self.engine: Engine = create_engine(url, **kwargs)
        if self.is_sqlite:
            event.listen(self.engine, "connect", _sqlite_pragmas)
        with self.engine.begin() as conn:
            migrate(conn, metadata)

    def close(self) -> None:
        self.engine.dispose()

    def write(self, writes: Sequence[Write]) -> None:
        """Applies writes in one transaction, inserts grouped per table (executemany) in order."""
        with self.engine.begin() as conn:
            self._apply(conn, writes)

    @staticmethod
    def _apply(conn: Connection, writes: Sequence[Write]) -> None:
        # Rooms before seats before actions: foreign keys need the parent row first. Updates run
        # after all inserts; a batch never updates a row it inserts in a way that depends on order.
        grouped: dict[str, list[dict[str, Any]]] = defaultdict(list)
        tables: dict[str, Table] = {}
        for w in writes:
            for table, row in w.inserts:
                grouped[table.name].append(row)
                tables[table.name] = table
        for name in ("rooms", "seats", "log_entries", "matches", "chat_messages"):
            if grouped.get(name):
                conn.execute(insert(tables[name]), grouped[name])
        for w in writes:
            for table, key, values in w.updates:
                where = [table.c[k] == v for k, v in key.items()]
                conn.execute(update(table).where(*where).values(**values))

    def load(self, code: str) -> StoredRoom | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(rooms).where(rooms.c.code == code)).mappings().first()
            if row is None:
                return None
            seat_rows = conn.execute(select(seats).where(seats.c.room == code).order_by(seats.c.seat)).mappings()
            earlier = [dict(m) for m in conn.execute(select(matches).where(matches.c.room == code)
                                                     .order_by(matches.c.number)).mappings()]
            offset = earlier[-1]["last_seq"] if earlier else 0
            log = conn.execute(select(log_entries).where(log_entries.c.room == code, log_entries.c.seq > offset)
                               .order_by(log_entries.c.seq)).mappings()
            chat = conn.execute(select(chat_messages).where(chat_messages.c.room == code)
                                .order_by(chat_messages.c.id)).mappings()
            return StoredRoom(dict(row), [dict(s) for s in seat_rows], [dict(a) for a in log], [dict(c) for c in chat],
                              earlier)

    def codes(self, status: str) -> list[str]:
        with self.engine.connect() as conn:
            return list(conn.execute(select(rooms.c.code).where(rooms.c.status == status)).scalars())

    def recent(self, limit: int = 100) -> list[dict[str, Any]]:
        """Summaries of the rooms that are not private, newest first."""
        with self.engine.connect() as conn:
            rows = [dict(r) for r in conn.execute(
                select(rooms.c.code, rooms.c.game, rooms.c.status, rooms.c.seats, rooms.c.created_at)
                .where(rooms.c.private == false()).order_by(rooms.c.created_at.desc()).limit(limit)).mappings()]
            if not rows:
                return rows
            taken: dict[str, int] = defaultdict(int)
            for seat in conn.execute(select(seats.c.room, seats.c.kind, seats.c.token_hash)
                                     .where(seats.c.room.in_([r["code"] for r in rows]))).mappings():
                if seat["kind"] == "bot" or seat["token_hash"]:
                    taken[seat["room"]] += 1
            for r in rows:
                r["seats_taken"] = taken[r["code"]]
            return rows

    def exists(self, code: str) -> bool:
        with self.engine.connect() as conn:
            return conn.execute(select(rooms.c.code).where(rooms.c.code == code)).first() is not None


