"""Feedback: a person's up/down on a turn's answer, stored against its router decision.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "feedback",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("turn_id", sa.String(36), nullable=False),
        sa.Column("user_id", sa.String(255), nullable=False),
        sa.Column("value", sa.String(8), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("turn_id", "user_id", name="uq_feedback_turn_user"),
    )
    op.create_index("ix_feedback_turn_id", "feedback", ["turn_id"])


def downgrade() -> None:
    op.drop_index("ix_feedback_turn_id", table_name="feedback")
    op.drop_table("feedback")
