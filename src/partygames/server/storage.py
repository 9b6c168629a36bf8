"""The database: rooms, seats, the match log, earlier matches and chat, through SQLAlchemy Core.

A match is stored as its game, seat count, options and seed plus the ordered log of its steps (a seat's
action or time passing, each at its match time); the state is rebuilt by replaying the log (the engine
guarantees determinism). A room plays one match at a time, described by its `rooms` row; when the same
people go on to another match (play again, or the next match of a series) the finished one is kept in
`matches`, and its log entries stay where they are: `log_entries.seq` counts on across a room's matches,
and a match's entries are those after the previous match's `last_seq`. Tokens are stored only as SHA-256 hashes. The same schema runs on SQLite (WAL,
synchronous=FULL) and PostgreSQL, brought to the newest schema on open by Alembic (`migrations/`).
"""

from __future__ import annotations

import sqlite3
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, NamedTuple, TypeVar

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Connection,
    Engine,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    and_,
    cast,
    create_engine,
    delete,
    event,
    false,
    func,
    insert,
    or_,
    select,
    true,
    tuple_,
    update,
)
from sqlalchemy.engine.interfaces import DBAPIConnection
from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.pool import ConnectionPoolEntry
from sqlalchemy.sql.elements import ColumnElement

from partygames.server import migrations
from partygames.server.bus import room_channel
from partygames.server.frames import dumps

T = TypeVar("T")

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
    # The process that owns the room while it plays (a node id), its fencing epoch (it grows with every new
    # owner) and when its lease runs out (the database's clock): docs/scaling.md.
    Column("owner", String(64), nullable=True),
    Column("epoch", Integer, nullable=False, server_default="0"),
    Column("lease_until", Float, nullable=True),
    Column("private", Boolean, nullable=False, server_default=false()),  # not in the lobby's list
    Column("finished_at", Float, nullable=True),  # when it ended (it leaves the list a while after)
    Column("human_seen_at", Float, nullable=True),  # when a person was last at the table
    # Whether a leaver's seat goes to a bot by itself, once its person has been away `standin_after` seconds
    # or has run out of time while away (the host may do it by hand then either way).
    Column("auto_standin", Boolean, nullable=False, server_default=false()),
    Column("standin_after", Float, nullable=False, server_default="60"),
    Index("rooms_by_lease", "status", "lease_until"),
)

seats = Table(
    "seats", metadata,
    Column("room", String(12), ForeignKey("rooms.code"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(16), nullable=False),  # "human" | "bot"
    Column("bot", String(32), nullable=True),
    Column("name", String(64), nullable=True),
    Column("token_hash", String(64), nullable=True),
    Column("seen_at", Float, nullable=True),  # when its person was last connected ("offline since")
    Column("standin", String(32), nullable=True),  # the bot kind playing the seat while its person is away
    Column("profile", String(24), nullable=True),  # whose browser took it (profiles.py; index seats_by_profile)
    # JSON {"bot", "game"}: the kind a bot seat played before this match's game lacked it (series.py), null else.
    Column("bot_was", Text, nullable=True),
)

log_entries = Table(
    "log_entries", metadata,
    Column("room", String(12), ForeignKey("rooms.code"), primary_key=True),
    Column("seq", Integer, primary_key=True),  # 1, 2, ...: the protocol version after this entry
    Column("at", BigInteger, nullable=False),  # match time: ms since the match started
    Column("seat", Integer, nullable=True),  # None: time passing (a wake-up)
    Column("action", Text, nullable=True),  # JSON; None for a wake-up
    Column("source", String(8), nullable=False),  # seat | bot | standin | wake (before the rename also timer | clock)
    Column("standin", String(32), nullable=True),  # source standin: the kind of the bot that played for the person
    # The owner's epoch it was written under: a trigger refuses any other than the room's (migration 0002).
    Column("epoch", Integer, nullable=False, server_default="0"),
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

# The matches that ended and were not yet rated (ratings.py): the write that ends a match adds its row, the
# transaction that rates it (or finds it rated) takes it out; `ratings.rate_pending` reads only this table.
unrated_matches = Table(
    "unrated_matches", metadata,
    Column("room", String(12), primary_key=True),
    Column("number", Integer, primary_key=True),  # the room's match number (matches.number, or its current one)
    Column("ended_at", Float, nullable=False),  # wall clock: matches are rated in the order they ended
    Index("unrated_by_end", "ended_at"),
)

# Who played which finished match, per profile, newest first (a profile page's history is a range of
# `played_by_date`, however many matches the person played): one row per seat tied to a profile, written
# when the match is considered for ratings (ratings.py), taken out when the profile is deleted.
played_matches = Table(
    "played_matches", metadata,
    Column("profile", String(24), primary_key=True),
    Column("room", String(12), primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("date", Float, nullable=False),  # when the match started (the history's date)
)
Index("played_by_date", played_matches.c.profile, played_matches.c.date.desc(), played_matches.c.room,
      played_matches.c.number.desc(), played_matches.c.seat)

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


nodes = Table(
    "nodes", metadata,  # the serving processes
    Column("id", String(64), primary_key=True),
    Column("started_at", Float, nullable=False),
    Column("heartbeat_at", Float, nullable=False),  # the database's clock
)

presence = Table(
    "presence", metadata,  # each process's connections per room and seat
    Column("node", String(64), primary_key=True),
    Column("room", String(12), primary_key=True),
    Column("seat", Integer, primary_key=True),  # -1: spectators
    Column("conns", Integer, nullable=False),
    Column("away", Integer, nullable=False, server_default="0"),  # of them, in a hidden tab (the person is away)
    Index("presence_by_room", "room"),
)


@dataclass
class Write:
    """One unit for the committer: rows to insert and rows to update, applied in one transaction
    together with the other writes of its batch. A write of a room's owner names the room and its
    `epoch`: it is stored only if the room is still this process's under that epoch (else it is dropped,
    and the room with it: `Storage.write`). `notice`: what other processes are told once it has committed
    (`bus.room_channel`), merged per room."""

    inserts: list[tuple[Table, dict[str, Any]]] = field(default_factory=list)
    updates: list[tuple[Table, dict[str, Any], dict[str, Any]]] = field(default_factory=list)
    room: str | None = None
    epoch: int | None = None
    notice: dict[str, Any] | None = None


class Changed(NamedTuple, Generic[T]):
    """A lobby change as stored: its result, the room's row and seats after it, and the epoch under which
    the process that made it now owns the room (None: it did not claim it)."""

    result: T
    row: dict[str, Any]
    seats: list[dict[str, Any]]
    epoch: int | None


def unavailable(error: BaseException) -> bool:
    """Whether `error` says that the database could not be reached (down, restarting, refusing connections,
    no connection free in time) rather than that it refused what was asked of it."""
    return isinstance(error, OperationalError | InterfaceError | PoolTimeout) or (
        isinstance(error, DBAPIError) and error.connection_invalidated)


class Fenced(Exception):
    """The room is no longer this process's (another took it over: a new epoch): nothing was stored."""


def merge_notices(notices: Sequence[tuple[str, dict[str, Any]]]) -> list[tuple[str, dict[str, Any]]]:
    """A batch's notices, those of new log entries merged into one per room (the last entry's `seq`, every
    ack, the earliest time); the others (a chat message) as they are, in order."""
    merged: list[tuple[str, dict[str, Any]]] = []
    logs: dict[str, dict[str, Any]] = {}
    for room, notice in notices:
        if notice["k"] != "log":
            merged.append((room, notice))
        elif room not in logs:
            logs[room] = dict(notice)
            merged.append((room, logs[room]))
        else:
            last = logs[room]
            last["seq"] = max(last["seq"], notice["seq"])
            last["acks"] = last["acks"] + notice["acks"]
    return merged


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


# Rows a multi-row INSERT holds at most (a power of two: `_insert_values`), and the parameters SQLite takes in
# one statement (999 before 3.32).
VALUES_ROWS = 256
SQLITE_MAX_PARAMETERS = 32_766 if sqlite3.sqlite_version_info >= (3, 32, 0) else 999


def _alike(rows: list[dict[str, Any]]) -> Iterator[list[dict[str, Any]]]:
    """`rows` in runs of consecutive rows with the same keys, in order. An executemany takes its columns from
    its first row and silently drops any other row's further keys (SQLAlchemy's rule), so rows of different
    shapes never share one."""
    start = 0
    for i in range(1, len(rows) + 1):
        if i == len(rows) or rows[i].keys() != rows[start].keys():
            yield rows[start:i]
            start = i


def _insert_values(conn: Connection, table: Table, rows: list[dict[str, Any]]) -> None:
    """Inserts `rows` (dicts with the same keys, `_alike`; values the driver takes as they are: no conversion)
    with a few multi-row `INSERT ... VALUES (...), (...)`, on SQLite: runs of rows whose lengths are powers of
    two, largest first, of at most `VALUES_ROWS` rows (fewer on an SQLite that takes fewer parameters).

    Why: a batch's log rows are most of what the commit thread writes, and executemany runs one statement
    per row, for each of which the sqlite3 module lets go of the GIL and must take it back from the busy
    event loop; under load those handovers made the thread's CPU per action half as much again (28 against
    18.5 µs in benchmarks/room_path.py, docs/scaling.md). Powers of two, because a statement's text is
    prepared once and then cached by the sqlite3 module: a batch of any length uses a few of at most nine
    texts, where one statement of exactly its rows was prepared anew for nearly every batch (2 µs a row).
    The table's fence trigger runs for each row all the same."""
    columns = list(rows[0])
    if unknown := set(columns) - set(table.c.keys()):
        raise ValueError(f"no such columns in {table.name}: {sorted(unknown)}")
    one = "(" + ",".join("?" * len(columns)) + ")"
    head = f"INSERT INTO {table.name} ({','.join(columns)}) VALUES "
    most = min(VALUES_ROWS, SQLITE_MAX_PARAMETERS // len(columns))
    start = 0
    while start < len(rows):
        size = 1 << (min(most, len(rows) - start).bit_length() - 1)  # the largest power of two that fits
        chunk = rows[start:start + size]
        conn.exec_driver_sql(head + ",".join([one] * size), tuple(row[c] for row in chunk for c in columns))
        start += size


CONNECT_TIMEOUT = 5  # seconds to wait for a PostgreSQL connection (the URL's own `connect_timeout` wins)


class Storage:
    """Synchronous database access; the server calls it from worker threads."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.is_sqlite = url.startswith("sqlite")
        kwargs: dict[str, Any] = {}
        if self.is_sqlite:
            kwargs["connect_args"] = {"check_same_thread": False}
        elif "connect_timeout" not in url:  # a database that does not answer is an error in seconds, not a hang
            kwargs["connect_args"] = {"connect_timeout": CONNECT_TIMEOUT}
        self.engine: Engine = create_engine(url, **kwargs)
        if self.is_sqlite:
            event.listen(self.engine, "connect", _sqlite_pragmas)
        with self.engine.begin() as conn:
            migrations.upgrade(conn)

    def close(self) -> None:
        self.engine.dispose()

    # -- the database's clock ----------------------------------------------------------------------------
    def now(self) -> ColumnElement[float]:
        """The database's clock in epoch seconds: leases are measured by it, never by a process's own."""
        if self.is_sqlite:
            return cast((func.julianday("now") - 2440587.5) * 86400.0, Float)
        return cast(func.extract("epoch", func.clock_timestamp()), Float)

    def clock(self) -> float:
        with self.engine.connect() as conn:
            return float(conn.execute(select(self.now())).scalar_one())

    # -- writing -----------------------------------------------------------------------------------------
    def write(self, writes: Sequence[Write], node: str | None = None, lease: float = 0.0) -> set[tuple[str, int]]:
        """Applies writes in one transaction, inserts grouped per table (executemany) in order. Owners'
        writes (with an `epoch`) are checked first, by the database, in the same transaction: the rooms
        still owned by `node` under those epochs have their leases renewed for `lease` seconds; the writes
        under any other (room, epoch) are dropped, a room's writes under its current epoch kept. Returns
        those (room, epoch) pairs (fenced). Each room's notice goes out with the commit (PostgreSQL only:
        nobody listens to SQLite)."""
        # SQLite has one process (its file is locked: dblock.py), so no other can own a room: no fencing.
        owned: set[tuple[str, int]] = set() if self.is_sqlite else {
            (w.room, w.epoch) for w in writes if w.epoch is not None and w.room is not None}
        with self.engine.begin() as conn:
            fenced = owned - self._hold(conn, owned, node, lease) if owned else set()
            kept = [w for w in writes if w.epoch is None or (w.room, w.epoch) not in fenced]
            self._apply(conn, kept)
            if not self.is_sqlite:
                for room, notice in merge_notices([(w.room, w.notice) for w in kept if w.room and w.notice]):
                    conn.execute(select(func.pg_notify(room_channel(room), dumps(notice))))
        return fenced

    def _hold(self, conn: Connection, owned: Iterable[tuple[str, int]], node: str | None,
              lease: float) -> set[tuple[str, int]]:
        """The (code, epoch) pairs of `owned` under which `node` still owns the rooms, their leases renewed (a
        compare-and-set under the rows' locks: a process taking a room over waits for it, then sees the
        renewed lease, or this one waits and finds the epoch changed). A room has one epoch: of two pairs of
        one room, one at most is held."""
        # One (code, epoch) IN list, an expanding parameter: the statement is compiled once and cached, whatever
        # the number of rooms (an OR of one clause per room was compiled anew for each count: milliseconds).
        match = tuple_(rooms.c.code, rooms.c.epoch).in_(list(owned))
        held = conn.execute(update(rooms).where(rooms.c.owner == node, match)
                            .values(lease_until=self.now() + lease).returning(rooms.c.code, rooms.c.epoch))
        return {(str(code), int(epoch)) for code, epoch in held}

    # -- lobby changes and ownership ----------------------------------------------------------------------
    def change_room(self, code: str, change: Callable[[dict[str, Any], list[dict[str, Any]]], tuple[Write | None, T]],
                    node: str, lease: float = 0.0, claim: bool = False) -> Changed[T]:
        """A lobby change in a transaction of its own, on the room as stored: its row is locked (PostgreSQL;
        SQLite has one writer), `change(row, seats)` gives the write and a result (or refuses: nothing is
        stored), and with `claim` `node` takes the room under a new epoch. Every process listening to the
        room is told once it has committed."""
        with self.engine.begin() as conn:
            query = select(rooms).where(rooms.c.code == code)
            row = conn.execute(query if self.is_sqlite else query.with_for_update()).mappings().first()
            if row is None:
                raise LookupError(code)
            write, result = change(dict(row), self._seats(conn, code))
            if write is not None:
                self._apply(conn, [write])
            epoch = None
            if claim:
                epoch = int(row["epoch"]) + 1
                conn.execute(update(rooms).where(rooms.c.code == code)
                             .values(owner=node, epoch=epoch, lease_until=self.now() + lease))
            self._notify(conn, code, {"k": "room", "node": node})
            after = conn.execute(select(rooms).where(rooms.c.code == code)).mappings().one()
            return Changed(result, dict(after), self._seats(conn, code), epoch)

    @staticmethod
    def _seats(conn: Connection, code: str) -> list[dict[str, Any]]:
        return [dict(s) for s in conn.execute(select(seats).where(seats.c.room == code).order_by(seats.c.seat))
                .mappings()]

    def _notify(self, conn: Connection, code: str, notice: dict[str, Any]) -> None:
        if not self.is_sqlite:
            conn.execute(select(func.pg_notify(room_channel(code), dumps(notice))))

    def claim(self, code: str, node: str, lease: float, force: bool = False) -> int | None:
        """Takes playing room `code` for `node` under a new epoch if nobody holds it (no owner, or a lease run
        out; `force`: whoever holds it, for a process alone on its database); returns the epoch, or None."""
        with self.engine.begin() as conn:
            free = or_(rooms.c.owner.is_(None), rooms.c.owner == node, rooms.c.lease_until < self.now())
            taken = conn.execute(update(rooms).where(rooms.c.code == code, rooms.c.status == "playing",
                                                     true() if force else free)
                                 .values(owner=node, epoch=rooms.c.epoch + 1, lease_until=self.now() + lease)
                                 .returning(rooms.c.epoch)).scalar()
            if taken is not None:
                self._notify(conn, code, {"k": "owner", "node": node})
            return None if taken is None else int(taken)

    def owned_by(self, node: str) -> list[str]:
        """The playing rooms `node` holds (a restarted process's own, from before it died)."""
        with self.engine.connect() as conn:
            return list(conn.execute(select(rooms.c.code).where(rooms.c.status == "playing", rooms.c.owner == node))
                        .scalars())

    def claimable(self, limit: int) -> list[str]:
        """Playing rooms nobody holds (no owner, or a lease run out), oldest lease first."""
        with self.engine.connect() as conn:
            return list(conn.execute(select(rooms.c.code).where(
                rooms.c.status == "playing", or_(rooms.c.owner.is_(None), rooms.c.lease_until < self.now()))
                .order_by(rooms.c.lease_until).limit(limit)).scalars())

    def renew(self, node: str, owned: Mapping[str, int], lease: float) -> set[str]:
        """Renews the leases of the rooms `node` still owns under the epochs of `owned`; returns them."""
        with self.engine.begin() as conn:
            self._beat(conn, node)
            return {code for code, _ in self._hold(conn, owned.items(), node, lease)} if owned else set()

    def release(self, node: str, channel: str) -> list[str]:
        """Gives up every room `node` owns (a process stopping), telling every process at once on `channel`."""
        with self.engine.begin() as conn:
            released = list(conn.execute(update(rooms).where(rooms.c.owner == node)
                                         .values(owner=None, lease_until=None).returning(rooms.c.code)).scalars())
            conn.execute(delete(presence).where(presence.c.node == node))
            conn.execute(delete(nodes).where(nodes.c.id == node))
            if released and not self.is_sqlite:
                for start in range(0, len(released), 500):  # a notice holds at most 8000 bytes
                    conn.execute(select(func.pg_notify(channel, dumps({"codes": released[start:start + 500]}))))
            return released

    def _beat(self, conn: Connection, node: str) -> None:
        """This process's heartbeat (its presence rows count while it beats)."""
        beat = conn.execute(update(nodes).where(nodes.c.id == node).values(heartbeat_at=self.now()))
        if beat.rowcount == 0:
            conn.execute(insert(nodes).values(id=node, started_at=self.now(), heartbeat_at=self.now()))

    # -- who is at the table ------------------------------------------------------------------------------
    def store_presence(self, node: str, counts: Mapping[str, Mapping[int, tuple[int, int]]],
                       left: Mapping[str, Sequence[int]], humans: Sequence[str]) -> None:
        """This process's connections now, per room and seat (conns, away; -1: spectators), replacing what
        it stored before for those rooms; the seats whose person just left (`left`) are offline from now,
        and the rooms where people are (`humans`) were seen now. Each room is told."""
        with self.engine.begin() as conn:
            for code, by_seat in counts.items():
                conn.execute(delete(presence).where(presence.c.node == node, presence.c.room == code))
                rows = [{"node": node, "room": code, "seat": seat, "conns": c, "away": a}
                        for seat, (c, a) in by_seat.items() if c > 0]
                if rows:
                    conn.execute(insert(presence), rows)
            for code, gone in left.items():
                if gone:
                    conn.execute(update(seats).where(seats.c.room == code, seats.c.seat.in_(list(gone)))
                                 .values(seen_at=self.now()))
            if humans:
                conn.execute(update(rooms).where(rooms.c.code.in_(list(humans))).values(human_seen_at=self.now()))
            for code in counts:
                self._notify(conn, code, {"k": "presence", "node": node})

    def presence_of(self, code: str, node: str, lease: float) -> tuple[dict[int, tuple[int, int]], dict[int, float]]:
        """The other live processes' connections to room `code` per seat (conns, away), and when each seat's
        person was last connected."""
        with self.engine.connect() as conn:
            alive = select(nodes.c.id).where(nodes.c.heartbeat_at > self.now() - 2 * lease)
            counts: dict[int, tuple[int, int]] = {}
            for row in conn.execute(select(presence).where(presence.c.room == code, presence.c.node != node,
                                                           presence.c.node.in_(alive))).mappings():
                c, a = counts.get(row["seat"], (0, 0))
                counts[row["seat"]] = (c + row["conns"], a + row["away"])
            seen = {int(r["seat"]): float(r["seen_at"]) for r in conn.execute(
                select(seats.c.seat, seats.c.seen_at).where(seats.c.room == code, seats.c.seen_at.is_not(None)))
                .mappings()}
            return counts, seen

    def close_abandoned(self, node: str, idle: float, lease: float) -> list[str]:
        """Closes the rooms, open or playing, that no person has been at for `idle` seconds and that no
        other process holds (their bots stop); returns them. Each room is told."""
        with self.engine.begin() as conn:
            seen = func.coalesce(rooms.c.human_seen_at, rooms.c.started_at, rooms.c.created_at)
            alive = select(nodes.c.id).where(nodes.c.heartbeat_at > self.now() - 2 * lease)
            people = select(presence.c.room).where(presence.c.seat >= 0, presence.c.node.in_(alive))
            closed = list(conn.execute(update(rooms).where(
                rooms.c.status.in_(["open", "playing"]), seen < self.now() - idle, rooms.c.code.not_in(people),
                or_(rooms.c.owner.is_(None), rooms.c.owner == node, rooms.c.lease_until < self.now()))
                .values(status="closed", owner=None, lease_until=None, finished_at=self.now())
                .returning(rooms.c.code)).scalars())
            for code in closed:
                self._notify(conn, code, {"k": "room", "node": node})
            return closed

    def transaction(self, work: Callable[[Connection], T]) -> T:
        """Runs `work` in a transaction of its own."""
        with self.engine.begin() as conn:
            return work(conn)

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
        for name in ("rooms", "seats", "log_entries", "matches", "unrated_matches", "chat_messages"):
            for rows in _alike(grouped.get(name, [])):
                if name == "log_entries" and conn.dialect.name == "sqlite":
                    _insert_values(conn, log_entries, rows)
                else:
                    conn.execute(insert(tables[name]), rows)
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
            earlier = self._earlier(conn, code)
            offset = earlier[-1]["last_seq"] if earlier else 0
            log = conn.execute(select(log_entries).where(log_entries.c.room == code, log_entries.c.seq > offset)
                               .order_by(log_entries.c.seq)).mappings()
            chat = conn.execute(select(chat_messages).where(chat_messages.c.room == code)
                                .order_by(chat_messages.c.id)).mappings()
            return StoredRoom(dict(row), [dict(s) for s in seat_rows], [dict(a) for a in log], [dict(c) for c in chat],
                              earlier)

    def earlier_matches(self, code: str) -> list[dict[str, Any]]:
        """Room `code`'s finished matches before its current one, in order (the `matches` rows)."""
        with self.engine.connect() as conn:
            return self._earlier(conn, code)

    @staticmethod
    def _earlier(conn: Connection, code: str) -> list[dict[str, Any]]:
        return [dict(m) for m in conn.execute(select(matches).where(matches.c.room == code)
                                              .order_by(matches.c.number)).mappings()]

    def earlier_match(self, code: str, number: int) -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
        """Room `code`'s finished match `number` before its current one and its log entries, in order (None:
        no such earlier match). Its log is the `seq` after the previous match's `last_seq`, up to its own."""
        with self.engine.connect() as conn:
            row = conn.execute(select(matches).where(matches.c.room == code, matches.c.number == number)).mappings().first()
            if row is None:
                return None
            before = conn.execute(select(matches.c.last_seq).where(matches.c.room == code,
                                                                   matches.c.number == number - 1)).scalar()
            log = conn.execute(select(log_entries).where(log_entries.c.room == code, log_entries.c.seq > (before or 0),
                                                         log_entries.c.seq <= row["last_seq"])
                               .order_by(log_entries.c.seq)).mappings()
            return dict(row), [dict(e) for e in log]

    def codes(self, status: str) -> list[str]:
        with self.engine.connect() as conn:
            return list(conn.execute(select(rooms.c.code).where(rooms.c.status == status)).scalars())

    def recent(self, retention: float = 600.0, limit: int = 100) -> list[dict[str, Any]]:
        """The lobby's list: public rooms, newest first; a finished room stays `retention` seconds after its
        end, a closed one not at all."""
        with self.engine.connect() as conn:
            listed = and_(rooms.c.private.is_(False), rooms.c.status != "closed",
                          or_(rooms.c.status != "over", rooms.c.finished_at.is_(None),
                              rooms.c.finished_at > self.now() - retention))
            rows = [dict(r) for r in conn.execute(
                select(rooms.c.code, rooms.c.game, rooms.c.status, rooms.c.seats, rooms.c.created_at)
                .where(listed).order_by(rooms.c.created_at.desc()).limit(limit)).mappings()]
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

    def entries_after(self, code: str, seq: int) -> list[dict[str, Any]]:
        """The log entries of room `code` after `seq`, in order (a follower catching up)."""
        with self.engine.connect() as conn:
            return [dict(e) for e in conn.execute(select(log_entries).where(log_entries.c.room == code,
                                                                            log_entries.c.seq > seq)
                                                  .order_by(log_entries.c.seq)).mappings()]

    def chat_message(self, message_id: int) -> dict[str, Any] | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(chat_messages).where(chat_messages.c.id == message_id)).mappings().first()
            return dict(row) if row is not None else None

    def exists(self, code: str) -> bool:
        with self.engine.connect() as conn:
            return conn.execute(select(rooms.c.code).where(rooms.c.code == code)).first() is not None


