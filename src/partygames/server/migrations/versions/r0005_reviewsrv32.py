"""Stored reviews of finished matches (issue 32, server/reviews.py).

Revision ID: 0005_reviewsrv32
Revises: 0004
Create Date: 2026-12-07

- `reviews`: one review job per (room, match number, seat, budget): its public id (`job`), status (queued,
  running, done, failed) and progress, the process running it (`owner`) and its lease (the database's clock:
  a job whose lease ran out is taken by another process), the match log it reviews (its whole input, so any
  process can run it), the result (the review's JSON) or the error ({code, en, ja}).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005_reviewsrv32"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table("reviews",
                    sa.Column("room", sa.String(12), primary_key=True),
                    sa.Column("match", sa.Integer, primary_key=True),
                    sa.Column("seat", sa.Integer, primary_key=True),
                    sa.Column("budget", sa.Integer, primary_key=True),
                    sa.Column("job", sa.String(32), nullable=False, unique=True),
                    sa.Column("game", sa.String(64), nullable=False),
                    sa.Column("status", sa.String(16), nullable=False),
                    sa.Column("progress", sa.Float, nullable=False, server_default="0"),
                    sa.Column("owner", sa.String(64), nullable=True),
                    sa.Column("lease_until", sa.Float, nullable=True),
                    sa.Column("log", sa.Text, nullable=False),
                    sa.Column("result", sa.Text, nullable=True),
                    sa.Column("error", sa.Text, nullable=True),
                    sa.Column("created_at", sa.Float, nullable=False),
                    sa.Column("started_at", sa.Float, nullable=True),
                    sa.Column("finished_at", sa.Float, nullable=True))
    op.create_index("reviews_by_status", "reviews", ["status", "lease_until"])


def downgrade() -> None:
    op.drop_index("reviews_by_status", "reviews")
    op.drop_table("reviews")
