"""The bot kind a seat played before a series' next game lacked it: `seats.bot_was` (JSON `{"bot", "game"}`,
null otherwise), so that the room says "Bot Aoi played cautious in The Pandemic Game, which Musical Chairs has
not: it plays heuristic now" from every process and after a restart, not only from the owner's memory.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("seats", sa.Column("bot_was", sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats") as seats:
        seats.drop_column("bot_was")
