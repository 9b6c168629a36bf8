"""Profiles, ratings and the matches they were rated from (issue #30).

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-07

- `profiles`: a person, made silently on their first visit: a public id, a display name, a colour and who
  may see their matches (`visibility`: "members" or "public").
- `devices`: the SHA-256 of each random device secret a browser of the profile holds in an HttpOnly cookie
  (never the secret); `transfers`: one-time links that add a device to a profile (the token's SHA-256, when
  it expires, when it was used).
- `seats.profile`: the profile whose browser took the seat (NULL: an API client without a profile, a bot,
  or a person who deleted their profile: the seat is kept, anonymised).
- `ratings`: one Weng-Lin rating (mu, sigma) per profile and game, with the count of rated matches.
- `rated_matches`: one row per finished match that was considered for ratings (`rated`: whether it counted),
  keyed on the match (room, number): the key is what makes every match update ratings at most once.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table("profiles",
                    sa.Column("id", sa.String(24), primary_key=True),
                    sa.Column("name", sa.String(64), nullable=True),
                    sa.Column("colour", sa.String(16), nullable=False),
                    sa.Column("visibility", sa.String(16), nullable=False, server_default="members"),
                    sa.Column("created_at", sa.Float, nullable=False))
    op.create_table("devices",
                    sa.Column("secret_hash", sa.String(64), primary_key=True),
                    sa.Column("profile", sa.String(24), sa.ForeignKey("profiles.id", ondelete="CASCADE"),
                              nullable=False, index=True),
                    sa.Column("created_at", sa.Float, nullable=False))
    op.create_table("transfers",
                    sa.Column("token_hash", sa.String(64), primary_key=True),
                    sa.Column("profile", sa.String(24), sa.ForeignKey("profiles.id", ondelete="CASCADE"),
                              nullable=False, index=True),
                    sa.Column("expires_at", sa.Float, nullable=False),
                    sa.Column("used_at", sa.Float, nullable=True))
    op.add_column("seats", sa.Column("profile", sa.String(24), nullable=True))
    op.create_index("seats_by_profile", "seats", ["profile"])
    op.create_table("ratings",
                    sa.Column("profile", sa.String(24), sa.ForeignKey("profiles.id", ondelete="CASCADE"),
                              primary_key=True),
                    sa.Column("game", sa.String(64), primary_key=True),
                    sa.Column("mu", sa.Float, nullable=False),
                    sa.Column("sigma", sa.Float, nullable=False),
                    sa.Column("matches", sa.Integer, nullable=False),
                    sa.Column("display", sa.Float, nullable=False))  # mu - 3 sigma: the leaderboard's order
    op.create_index("ratings_by_game", "ratings", ["game", "display"])
    op.create_table("rated_matches",
                    sa.Column("room", sa.String(12), primary_key=True),
                    sa.Column("number", sa.Integer, primary_key=True),
                    sa.Column("game", sa.String(64), nullable=False),
                    sa.Column("rated", sa.Boolean, nullable=False),
                    sa.Column("at", sa.Float, nullable=False))


def downgrade() -> None:
    op.drop_table("rated_matches")
    op.drop_index("ratings_by_game", "ratings")
    op.drop_table("ratings")
    op.drop_index("seats_by_profile", "seats")
    with op.batch_alter_table("seats") as seats:
        seats.drop_column("profile")
    op.drop_table("transfers")
    op.drop_table("devices")
    op.drop_table("profiles")
