"""Groups: people who play together, their members and the rooms made for them (issue #30).

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-07

- `groups`: a group ("Friday table"): a public id, its name, the profile that made it (the one who may
  renew the invite link and remove members) and the SHA-256 of its invite link's token (never the token).
- `group_members`: who is in each group, since when (a deleted profile leaves its groups: ON DELETE CASCADE).
- `group_rooms`: the rooms made for a group; every match of such a room is the group's.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table("groups",
                    sa.Column("id", sa.String(24), primary_key=True),
                    sa.Column("name", sa.String(64), nullable=False),
                    sa.Column("maker", sa.String(24), nullable=True),  # may have left: then the earliest member
                    sa.Column("invite_hash", sa.String(64), nullable=False, unique=True),
                    sa.Column("created_at", sa.Float, nullable=False))
    op.create_table("group_members",
                    sa.Column("group", sa.String(24), sa.ForeignKey("groups.id", ondelete="CASCADE"),
                              primary_key=True),
                    sa.Column("profile", sa.String(24), sa.ForeignKey("profiles.id", ondelete="CASCADE"),
                              primary_key=True),
                    sa.Column("joined_at", sa.Float, nullable=False))
    op.create_index("group_members_by_profile", "group_members", ["profile"])
    op.create_table("group_rooms",
                    sa.Column("room", sa.String(12), sa.ForeignKey("rooms.code"), primary_key=True),
                    sa.Column("group", sa.String(24), sa.ForeignKey("groups.id", ondelete="CASCADE"),
                              nullable=False))
    op.create_index("group_rooms_by_group", "group_rooms", ["group"])


def downgrade() -> None:
    op.drop_index("group_rooms_by_group", "group_rooms")
    op.drop_table("group_rooms")
    op.drop_index("group_members_by_profile", "group_members")
    op.drop_table("group_members")
    op.drop_table("groups")
