"""Passkeys and a profile's emoji (issue #30).

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-07

- `profiles.emoji`: an emoji the person chose, shown beside their name instead of their colour (NULL: none).
- `passkeys`: the WebAuthn credentials (passkeys) registered to a profile: the credential's id, its public key
  (COSE), the signature counter the authenticator last reported and the RP ID it was made for. Deleting the
  profile deletes them (ON DELETE CASCADE).
- `passkey_challenges`: the challenge of each ceremony begun (its SHA-256), which kind ("register" or
  "signin"), the profile of the browser that began it, the origin and RP ID it is for, when it expires and
  when it was used: stored, so that any process can finish a ceremony another began, and spent once.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("profiles", sa.Column("emoji", sa.String(64), nullable=True))
    op.create_table("passkeys",
                    sa.Column("credential_id", sa.String(1400), primary_key=True),  # base64url, ids up to 1023 bytes
                    sa.Column("profile", sa.String(24), sa.ForeignKey("profiles.id", ondelete="CASCADE"),
                              nullable=False, index=True),
                    sa.Column("public_key", sa.Text, nullable=False),  # base64url of the COSE key
                    sa.Column("sign_count", sa.BigInteger, nullable=False),
                    sa.Column("rp_id", sa.String(255), nullable=False),
                    sa.Column("created_at", sa.Float, nullable=False),
                    sa.Column("used_at", sa.Float, nullable=True))
    op.create_table("passkey_challenges",
                    sa.Column("challenge_hash", sa.String(64), primary_key=True),
                    sa.Column("kind", sa.String(16), nullable=False),
                    sa.Column("profile", sa.String(24), sa.ForeignKey("profiles.id", ondelete="CASCADE"),
                              nullable=False, index=True),
                    sa.Column("origin", sa.String(300), nullable=False),
                    sa.Column("rp_id", sa.String(255), nullable=False),
                    sa.Column("expires_at", sa.Float, nullable=False, index=True),
                    sa.Column("used_at", sa.Float, nullable=True))


def downgrade() -> None:
    op.drop_table("passkey_challenges")
    op.drop_table("passkeys")
    with op.batch_alter_table("profiles") as table:
        table.drop_column("emoji")
