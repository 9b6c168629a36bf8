"""The tables as the server made them before Alembic, and the move from the older `pg_` tables.

Revision ID: 0001
Revises:
Create Date: 2026-11-26

A database from before Alembic already has these tables (made by the server itself): they are kept as
they are. One older still, from before issue #7, has `pg_rooms`, `pg_seats`, `pg_actions` and `pg_chats`
(PostgreSQL reserves the `pg_` prefix for its own catalogs): its data moves into the new tables, log times
turned from wall-clock seconds into match milliseconds since the room's `started_at`; an old clock tick
(seat None, action `{"now": t}`) becomes a wake-up at `t`; the rooms' `phase` and `phase_started_at` go
(the engine derives the phase from the log); and the old tables are dropped.
"""

from __future__ import annotations

import json
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

OLD_TABLES = ("pg_rooms", "pg_seats", "pg_actions", "pg_chats")


def _tables() -> sa.MetaData:
    """The schema of this revision, frozen here (storage.py's tables move on with later revisions)."""
    metadata = sa.MetaData()
    sa.Table("rooms", metadata,
             sa.Column("code", sa.String(12), primary_key=True),
             sa.Column("game", sa.String(64), nullable=False),
             sa.Column("seats", sa.Integer, nullable=False),
             sa.Column("options", sa.Text, nullable=False),
             sa.Column("status", sa.String(16), nullable=False, index=True),
             sa.Column("seed", sa.Text, nullable=True),
             sa.Column("host_token_hash", sa.String(64), nullable=False),
             sa.Column("host_seat", sa.Integer, nullable=True),
             sa.Column("created_at", sa.Float, nullable=False, index=True),
             sa.Column("started_at", sa.Float, nullable=True),
             sa.Column("result", sa.Text, nullable=True))
    sa.Table("seats", metadata,
             sa.Column("room", sa.String(12), sa.ForeignKey("rooms.code"), primary_key=True),
             sa.Column("seat", sa.Integer, primary_key=True),
             sa.Column("kind", sa.String(16), nullable=False),
             sa.Column("bot", sa.String(32), nullable=True),
             sa.Column("name", sa.String(64), nullable=True),
             sa.Column("token_hash", sa.String(64), nullable=True))
    sa.Table("log_entries", metadata,
             sa.Column("room", sa.String(12), sa.ForeignKey("rooms.code"), primary_key=True),
             sa.Column("seq", sa.Integer, primary_key=True),
             sa.Column("at", sa.BigInteger, nullable=False),
             sa.Column("seat", sa.Integer, nullable=True),
             sa.Column("action", sa.Text, nullable=True),
             sa.Column("source", sa.String(8), nullable=False))
    sa.Table("matches", metadata,
             sa.Column("room", sa.String(12), sa.ForeignKey("rooms.code"), primary_key=True),
             sa.Column("number", sa.Integer, primary_key=True),
             sa.Column("game", sa.String(64), nullable=False),
             sa.Column("options", sa.Text, nullable=False),
             sa.Column("seed", sa.Text, nullable=False),
             sa.Column("bots", sa.Text, nullable=False),
             sa.Column("started_at", sa.Float, nullable=False),
             sa.Column("result", sa.Text, nullable=True),
             sa.Column("last_seq", sa.Integer, nullable=False))
    sa.Table("chat_messages", metadata,
             sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
             sa.Column("room", sa.String(12), sa.ForeignKey("rooms.code"), nullable=False, index=True),
             sa.Column("channel", sa.String(64), nullable=False),
             sa.Column("seat", sa.Integer, nullable=True),
             sa.Column("name", sa.String(64), nullable=False),
             sa.Column("text", sa.Text, nullable=False),
             sa.Column("at", sa.Float, nullable=False))
    return metadata


def upgrade() -> None:
    conn = op.get_bind()
    existing = set(sa.inspect(conn).get_table_names())
    metadata = _tables()
    metadata.create_all(conn)  # only the tables missing (a database made before Alembic has them)
    if "pg_rooms" in existing:
        _from_pg_tables(conn, metadata)


def downgrade() -> None:
    _tables().drop_all(op.get_bind())


def _from_pg_tables(conn: sa.Connection, metadata: sa.MetaData) -> None:
    old = sa.MetaData()
    old.reflect(conn, only=[t for t in OLD_TABLES if sa.inspect(conn).has_table(t)])
    new = metadata.tables
    done = set(conn.execute(sa.select(new["rooms"].c.code)).scalars())  # from an interrupted earlier run
    rooms = [dict(r) for r in conn.execute(sa.select(old.tables["pg_rooms"])).mappings() if r["code"] not in done]
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


def _rows(conn: sa.Connection, old: sa.MetaData, name: str, rooms: dict[str, Any]) -> list[dict[str, Any]]:
    """The old table's rows for the rooms being moved, in their stored order."""
    if name not in old.tables:
        return []
    table = old.tables[name]
    order = [table.c[k] for k in ("room", "seq", "seat", "id") if k in table.c]
    return [dict(r) for r in conn.execute(sa.select(table).order_by(*order)).mappings() if r["room"] in rooms]


def _copy(conn: sa.Connection, table: sa.Table, rows: list[dict[str, Any]]) -> None:
    """Inserts the rows, keeping only the columns the new table has."""
    if rows:
        conn.execute(sa.insert(table), [{k: v for k, v in r.items() if k in table.c} for r in rows])
