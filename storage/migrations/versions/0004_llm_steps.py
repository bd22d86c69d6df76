"""Router decisions record which LLM steps ran and which fell back to the deterministic path.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("router_decisions") as batch:
        batch.add_column(sa.Column("llm_steps", sa.JSON, nullable=False, server_default=sa.text("'[]'")))


def downgrade() -> None:
    with op.batch_alter_table("router_decisions") as batch:
        batch.drop_column("llm_steps")
