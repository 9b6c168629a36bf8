"""Ratings and pages that stay fast as they grow (issue #30): a queue of the matches to rate, each profile's
history in the order a page reads it, and the leaderboard's index.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-07

- `unrated_matches`: the matches that ended and were not yet rated, keyed on the match (room, number), by when
  they ended. The write that ends a match adds its row; the transaction that rates it takes it out. The
  catch-up for a process that died between the two reads only this table, never every match. Filled here
  with the matches the server ended before (it rated them when a page was next asked for) and never rated:
  those of rooms where two profiles sat (no other can count).
- `played_matches`: each profile's finished matches (one row per seat tied to a profile), with the index
  `played_by_date` (profile, date descending, ...): a profile page's latest matches are a range of it, however
  many the person played. Written when a match is considered for ratings; filled here with every finished
  match of a seat tied to a profile.
- `ratings_by_board` (game, display descending, profile) replaces `ratings_by_game` (game, display): a
  leaderboard page is a range of it in its own order, ties included, found in the index alone.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

# The rooms where two profiles sat; the number of a room's current match (after its earlier ones).
PROFILED = "(SELECT COUNT(*) FROM seats s WHERE s.room = {room} AND s.profile IS NOT NULL) >= 2"
CURRENT = "(SELECT COALESCE(MAX(m.number), 0) + 1 FROM matches m WHERE m.room = r.code)"


def upgrade() -> None:
    op.create_table("unrated_matches",
                    sa.Column("room", sa.String(12), primary_key=True),
                    sa.Column("number", sa.Integer, primary_key=True),
                    sa.Column("ended_at", sa.Float, nullable=False))
    op.create_index("unrated_by_end", "unrated_matches", ["ended_at"])
    # An earlier match ended when the room's next one started (ratings._finished says the same).
    op.execute(f"""
        INSERT INTO unrated_matches (room, number, ended_at)
        SELECT e.room, e.number, COALESCE((SELECT n.started_at FROM matches n
                                           WHERE n.room = e.room AND n.number = e.number + 1),
                                          r.started_at, e.started_at)
        FROM matches e JOIN rooms r ON r.code = e.room
        WHERE e.result IS NOT NULL AND {PROFILED.format(room="e.room")}
          AND NOT EXISTS (SELECT 1 FROM rated_matches q WHERE q.room = e.room AND q.number = e.number)""")
    op.execute(f"""
        INSERT INTO unrated_matches (room, number, ended_at)
        SELECT r.code, {CURRENT}, COALESCE(r.finished_at, r.started_at, 0)
        FROM rooms r
        WHERE r.status = 'over' AND r.result IS NOT NULL AND {PROFILED.format(room="r.code")}
          AND NOT EXISTS (SELECT 1 FROM rated_matches q WHERE q.room = r.code AND q.number = {CURRENT})""")
    op.create_table("played_matches",
                    sa.Column("profile", sa.String(24), primary_key=True),
                    sa.Column("room", sa.String(12), primary_key=True),
                    sa.Column("number", sa.Integer, primary_key=True),
                    sa.Column("seat", sa.Integer, primary_key=True),
                    sa.Column("date", sa.Float, nullable=False))
    op.create_index("played_by_date", "played_matches",
                    ["profile", sa.text("date DESC"), "room", sa.text("number DESC"), "seat"])
    op.execute("""
        INSERT INTO played_matches (profile, room, number, seat, date)
        SELECT s.profile, s.room, e.number, s.seat, e.started_at
        FROM seats s JOIN matches e ON e.room = s.room
        WHERE s.profile IS NOT NULL AND e.result IS NOT NULL""")
    op.execute(f"""
        INSERT INTO played_matches (profile, room, number, seat, date)
        SELECT s.profile, s.room, {CURRENT}, s.seat, COALESCE(r.started_at, 0)
        FROM seats s JOIN rooms r ON r.code = s.room
        WHERE s.profile IS NOT NULL AND r.status = 'over' AND r.result IS NOT NULL""")
    op.drop_index("ratings_by_game", "ratings")
    op.create_index("ratings_by_board", "ratings", ["game", sa.text("display DESC"), "profile"])


def downgrade() -> None:
    op.drop_index("ratings_by_board", "ratings")
    op.create_index("ratings_by_game", "ratings", ["game", "display"])
    op.drop_index("played_by_date", "played_matches")
    op.drop_table("played_matches")
    op.drop_index("unrated_by_end", "unrated_matches")
    op.drop_table("unrated_matches")
