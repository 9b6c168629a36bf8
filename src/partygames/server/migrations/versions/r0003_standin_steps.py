"""The steps a stand-in played: `log_entries.standin`, the kind of the bot that played a step for the seat's
absent person (its `source` is then `standin`), so that the log, replays and every screen's feed say the
bot played it, not the person.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("log_entries", sa.Column("standin", sa.String(32), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("log_entries") as entries:
        entries.drop_column("standin")
