"""Changes to the server's database schema, applied when the database is opened (`migrate`).

Each change keeps the data. New tables (`matches`, for a room's earlier matches) are simply created, and
new columns added to the tables a database already has, with their default (`rooms.private`, issue #21:
older rooms are listed as before). So far one change moves data:

1. Tables renamed and time moved into the match log (issue #7). The tables were `pg_rooms`, `pg_seats`,
   `pg_actions` and `pg_chats`, but PostgreSQL reserves the `pg_` prefix for its own catalogs; they become
   `rooms`, `seats`, `log_entries` and `chat_messages`. A log entry's time was wall-clock seconds; it
   becomes match time, integer milliseconds since the room's `started_at`. An old clock tick (seat None,
   action `{"now": t}`, from the tick path no game used) becomes a wake-up at `t`. The rooms' `phase` and
   `phase_started_at` columns go: the engine derives the phase's start from the log.
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import Connection, DefaultClause, MetaData, Table, insert, inspect, select, text

OLD_TABLES = ("pg_rooms", "pg_seats", "pg_actions", "pg_chats")


def migrate(conn: Connection, metadata: MetaData) -> None:
    """Creates the current tables and moves data from older layouts into them (in `conn`'s transaction)."""
    existing = set(inspect(conn).get_table_names())
    metadata.create_all(conn)
    _add_columns(conn, metadata, existing)
    if "pg_rooms" in existing:
        _from_pg_tables(conn, metadata)


def _add_columns(conn: Connection, metadata: MetaData, existing: set[str]) -> None:
    """Adds the columns a table of the database lacks (each has a server default or may be null)."""
    inspector = inspect(conn)
    quote = conn.dialect.identifier_preparer.quote
    for table in metadata.sorted_tables:
        if table.name not in existing:
            continue
        present = {column["name"] for column in inspector.get_columns(table.name)}
        for column in table.columns:
            if column.name in present:
                continue
            ddl = f"ALTER TABLE {quote(table.name)} ADD COLUMN {quote(column.name)} {column.type.compile(conn.dialect)}"
            if isinstance(column.server_default, DefaultClause):
                default = column.server_default.arg
                ddl += f" DEFAULT {default if isinstance(default, str) else default.compile(dialect=conn.dialect)}"
            if not column.nullable:
                ddl += " NOT NULL"
            conn.execute(text(ddl))


def _from_pg_tables(conn: Connection, metadata: MetaData) -> None:
    old = MetaData()
    old.reflect(conn, only=[t for t in OLD_TABLES if inspect(conn).has_table(t)])
    new = metadata.tables
    done = set(conn.execute(select(new["rooms"].c.code)).scalars())  # from an interrupted earlier run
    rooms = [dict(r) for r in conn.execute(select(old.tables["pg_rooms"])).mappings() if r["code"] not in done]
    started = {r["code"]: r["started_at"] for r in rooms}
    _copy(conn, new["rooms"], rooms)
    _copy(conn, new["seats"], _rows(conn, old, "pg_seats", started))
    entries: list[dict[str, Any]] = []
    last: dict[str, int] = {}
    for row in _rows(conn, old, "pg_actions", started):
        room, action = row["room"], json.loads(row["action"])
        if row["seat"] is None:  # a clock tick: its "now" was already match time, in seconds
            at, action_json = round(float(action["now"]) * 1000), None
        else:
            at, action_json = round((row["at"] - (started[room] or row["at"])) * 1000), row["action"]
        last[room] = at = max(at, last.get(room, 0), 0)  # the match clock never runs backwards
        entries.append({"room": room, "seq": row["seq"], "at": at, "seat": row["seat"], "action": action_json,
                        "source": row["source"]})
    _copy(conn, new["log_entries"], entries)
    _copy(conn, new["chat_messages"], [{k: v for k, v in r.items() if k != "id"}
                                       for r in _rows(conn, old, "pg_chats", started)])
    for name in reversed(OLD_TABLES):
        if name in old.tables:
            old.tables[name].drop(conn)


def _rows(conn: Connection, old: MetaData, name: str, rooms: dict[str, Any]) -> list[dict[str, Any]]:
    """The old table's rows for the rooms being moved, in their stored order."""
    if name not in old.tables:
        return []
    table = old.tables[name]
    order = [table.c[k] for k in ("room", "seq", "seat", "id") if k in table.c]
    return [dict(r) for r in conn.execute(select(table).order_by(*order)).mappings() if r["room"] in rooms]


def _copy(conn: Connection, table: Table, rows: list[dict[str, Any]]) -> None:
    """Inserts the rows, keeping only the columns the new table has."""
    if rows:
        conn.execute(insert(table), [{k: v for k, v in r.items() if k in table.c} for r in rows])
