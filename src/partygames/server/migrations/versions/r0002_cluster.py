"""Many processes, one database: room leases with a fencing epoch, the people present, private rooms and a
room's life (finished, abandoned).

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-26

- `rooms.owner`, `rooms.epoch`, `rooms.lease_until`: the process that owns the room (its node id), the
  fencing epoch (it grows with every new owner) and when its lease runs out (the database's clock, epoch
  seconds). `log_entries.epoch`: the epoch its owner wrote it under; a trigger refuses an entry whose epoch
  is not the room's (the last line of defence: the owner's write batch checks its lease first).
- `rooms.private` (unlisted), `rooms.finished_at` (it leaves the lobby list a while after),
  `rooms.human_seen_at` (when a person was last at the table: a room nobody came back to is closed).
- `seats.seen_at`: when the seat's person was last connected ("offline since"); `seats.standin`: the bot kind
  playing a human seat for its person who left (until they come back); `rooms.auto_standin` and
  `rooms.standin_after`: whether the room hands a leaver's seat to a bot by itself, and after how long away.
- `nodes`: the serving processes and their heartbeats; `presence`: how many connections each has, per room
  and seat (-1: spectators), so that every process tells who is at the table.
"""

from __future__ import annotations

import time

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

PG_FENCE = """
CREATE OR REPLACE FUNCTION partygames_fence() RETURNS trigger AS $$
BEGIN
  IF NEW.epoch IS DISTINCT FROM (SELECT epoch FROM rooms WHERE code = NEW.room) THEN
    RAISE EXCEPTION 'partygames: room % is owned under another epoch than %', NEW.room, NEW.epoch
      USING ERRCODE = 'P0001';
  END IF;
  RETURN NEW;
END $$ LANGUAGE plpgsql
"""
PG_TRIGGER = ("CREATE TRIGGER log_entries_fence BEFORE INSERT ON log_entries "
              "FOR EACH ROW EXECUTE FUNCTION partygames_fence()")
SQLITE_TRIGGER = """
CREATE TRIGGER log_entries_fence BEFORE INSERT ON log_entries
WHEN NEW.epoch IS NOT (SELECT epoch FROM rooms WHERE code = NEW.room)
BEGIN SELECT RAISE(ABORT, 'partygames: room is owned under another epoch'); END
"""


def upgrade() -> None:
    # Plain ADD COLUMNs (SQLite has them for columns with a constant default), never a table rebuilt.
    op.add_column("rooms", sa.Column("owner", sa.String(64), nullable=True))
    op.add_column("rooms", sa.Column("epoch", sa.Integer, nullable=False, server_default="0"))
    op.add_column("rooms", sa.Column("lease_until", sa.Float, nullable=True))
    op.add_column("rooms", sa.Column("private", sa.Boolean, nullable=False, server_default=sa.false()))
    op.add_column("rooms", sa.Column("finished_at", sa.Float, nullable=True))
    op.add_column("rooms", sa.Column("human_seen_at", sa.Float, nullable=True))
    op.create_index("rooms_by_lease", "rooms", ["status", "lease_until"])
    op.add_column("log_entries", sa.Column("epoch", sa.Integer, nullable=False, server_default="0"))
    op.add_column("seats", sa.Column("seen_at", sa.Float, nullable=True))
    op.add_column("seats", sa.Column("standin", sa.String(32), nullable=True))
    op.add_column("rooms", sa.Column("auto_standin", sa.Boolean, nullable=False, server_default=sa.false()))
    op.add_column("rooms", sa.Column("standin_after", sa.Float, nullable=False, server_default="60"))
    op.create_table("nodes",
                    sa.Column("id", sa.String(64), primary_key=True),
                    sa.Column("started_at", sa.Float, nullable=False),
                    sa.Column("heartbeat_at", sa.Float, nullable=False))
    op.create_table("presence",
                    sa.Column("node", sa.String(64), primary_key=True),
                    sa.Column("room", sa.String(12), primary_key=True),
                    sa.Column("seat", sa.Integer, primary_key=True),  # -1: spectators
                    sa.Column("conns", sa.Integer, nullable=False),
                    sa.Column("away", sa.Integer, nullable=False, server_default="0"))  # of them, hidden tabs
    op.create_index("presence_by_room", "presence", ["room"])
    # Rooms that finished before this revision leave the lobby list as if they had just finished; the others
    # count as seen now (a room nobody comes back to is closed after a while from now, not at once).
    op.execute("UPDATE rooms SET finished_at = created_at WHERE status = 'over'")
    op.execute(sa.text("UPDATE rooms SET human_seen_at = :now WHERE status IN ('open', 'playing')")
               .bindparams(now=time.time()))
    if op.get_bind().dialect.name == "postgresql":
        op.execute(PG_FENCE)
        op.execute(PG_TRIGGER)
    else:
        op.execute(SQLITE_TRIGGER)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER log_entries_fence ON log_entries")
        op.execute("DROP FUNCTION partygames_fence()")
    else:
        op.execute("DROP TRIGGER log_entries_fence")
    op.drop_table("presence")
    op.drop_table("nodes")
    with op.batch_alter_table("seats") as seats:
        seats.drop_column("standin")
        seats.drop_column("seen_at")
    with op.batch_alter_table("log_entries") as entries:
        entries.drop_column("epoch")
    op.drop_index("rooms_by_lease", "rooms")
    with op.batch_alter_table("rooms") as rooms:
        for column in ("standin_after", "auto_standin", "human_seen_at", "finished_at", "private", "lease_until",
                       "epoch", "owner"):
            rooms.drop_column(column)
