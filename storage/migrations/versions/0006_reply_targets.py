"""Reply targets: where a stale claim's answer goes when the sweep re-answers it.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("turns") as batch:
        batch.add_column(sa.Column("reply_target", sa.JSON, nullable=True))
        batch.add_column(sa.Column("attempts", sa.Integer, nullable=False, server_default="1"))
    op.create_index("ix_turns_status_lease", "turns", ["status", "lease_expires_at"])
    op.create_index("ix_turns_created", "turns", ["created_at"])
    op.create_index("ix_result_sets_created", "result_sets", ["created_at"])
    op.create_index("ix_conversations_updated", "conversations", ["updated_at"])


def downgrade() -> None:
    op.drop_index("ix_conversations_updated", table_name="conversations")
    op.drop_index("ix_result_sets_created", table_name="result_sets")
    op.drop_index("ix_turns_created", table_name="turns")
    op.drop_index("ix_turns_status_lease", table_name="turns")
    with op.batch_alter_table("turns") as batch:
        batch.drop_column("attempts")
        batch.drop_column("reply_target")
