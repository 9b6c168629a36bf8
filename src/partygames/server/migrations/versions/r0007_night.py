"""The Liar Game night: which rooms are tournaments, and their yen ledger (issue #30).

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-07

- `nights`: a room made as a tournament (`night`: its id, "liar-game"), with the options it was made with for
  each of its games (JSON, `{game: {option: value}}`).
- `ledger_matches`: one row per finished match of such a room entered into its ledger, keyed on the match
  (room, number), inserted in the same transaction as the match's lines and before them: the key is what makes
  every match count in the ledger at most once (a retry, another process, a restart).
- `ledger_lines`: what one match added to one seat's ledger (`yen`; negative: a debt), with the figures it
  was worked out from (JSON).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table("nights",
                    sa.Column("room", sa.String(12), sa.ForeignKey("rooms.code"), primary_key=True),
                    sa.Column("night", sa.String(32), nullable=False),
                    sa.Column("options", sa.Text, nullable=False),
                    sa.Column("created_at", sa.Float, nullable=False))
    op.create_table("ledger_matches",
                    sa.Column("room", sa.String(12), sa.ForeignKey("rooms.code"), primary_key=True),
                    sa.Column("number", sa.Integer, primary_key=True),
                    sa.Column("game", sa.String(64), nullable=False),
                    sa.Column("at", sa.Float, nullable=False))
    op.create_table("ledger_lines",
                    sa.Column("room", sa.String(12), sa.ForeignKey("rooms.code"), primary_key=True),
                    sa.Column("number", sa.Integer, primary_key=True),
                    sa.Column("seat", sa.Integer, primary_key=True),
                    sa.Column("game", sa.String(64), nullable=False),
                    sa.Column("yen", sa.BigInteger, nullable=False),
                    sa.Column("line", sa.Text, nullable=False))


def downgrade() -> None:
    op.drop_table("ledger_lines")
    op.drop_table("ledger_matches")
    op.drop_table("nights")
