"""Channel access: the collections each channel key may read.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "channel_access",
        sa.Column("channel_key", sa.String(255), primary_key=True),
        sa.Column("collection", sa.String(128), primary_key=True),
    )


def downgrade() -> None:
    op.drop_table("channel_access")
