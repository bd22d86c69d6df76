"""Conversations, the turn ledger, router decisions and the documents registry.

Revision ID: 0001
Revises:
Create Date: 2026-11-21
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

TZ = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "conversations",
        sa.Column("id", sa.String(36), primary_key=True),
        sa.Column("platform", sa.String(16), nullable=False),
        sa.Column("tenant", sa.String(128), nullable=False),
        sa.Column("channel_key", sa.String(255), nullable=False),
        sa.Column("thread", sa.String(255), nullable=False),
        sa.Column("summary", sa.Text, nullable=False),
        sa.Column("last_query", sa.Text),
        sa.Column("last_route", sa.String(16)),
        sa.Column("state", sa.JSON, nullable=False),
        sa.Column("created_at", TZ, nullable=False),
        sa.Column("updated_at", TZ, nullable=False),
        sa.UniqueConstraint("platform", "tenant", "channel_key", "thread", name="uq_conversation_key"),
    )
    op.create_table(
        "turns",
        sa.Column("id", sa.String(36), primary_key=True),
        sa.Column("message_key", sa.String(255), nullable=False, unique=True),
        sa.Column(
            "conversation_id",
            sa.String(36),
            sa.ForeignKey("conversations.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("platform", sa.String(16), nullable=False),
        sa.Column("user_id", sa.String(255), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("lease_expires_at", TZ, nullable=False),
        sa.Column("reply_id", sa.String(255)),
        sa.Column("error", sa.Text),
        sa.Column("created_at", TZ, nullable=False),
        sa.Column("updated_at", TZ, nullable=False),
    )
    op.create_index("ix_turns_conversation", "turns", ["conversation_id"])
    op.create_table(
        "router_decisions",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("turn_id", sa.String(36), nullable=False),
        sa.Column("conversation_id", sa.String(36), nullable=False),
        sa.Column("created_at", TZ, nullable=False),
        sa.Column("query", sa.Text, nullable=False),
        sa.Column("route", sa.String(16), nullable=False),
        sa.Column("fallbacks", sa.JSON, nullable=False),
        sa.Column("reason", sa.Text, nullable=False),
        sa.Column("intent", sa.String(32), nullable=False),
        sa.Column("attempts", sa.JSON, nullable=False),
        sa.Column("branch", sa.String(32), nullable=False),
        sa.Column("evidence_level", sa.String(16), nullable=False),
        sa.Column("confidence", sa.Float, nullable=False),
        sa.Column("band", sa.String(16), nullable=False),
        sa.Column("final_reason", sa.String(48), nullable=False),
        sa.Column("timings", sa.JSON, nullable=False),
        sa.Column("errors", sa.JSON, nullable=False),
    )
    op.create_index("ix_router_decisions_created", "router_decisions", ["created_at"])
    op.create_table(
        "documents",
        sa.Column("doc_id", sa.String(40), primary_key=True),
        sa.Column("collection", sa.String(128), nullable=False),
        sa.Column("title", sa.Text, nullable=False),
        sa.Column("source_path", sa.Text, nullable=False),
        sa.Column("relative_path", sa.Text, nullable=False),
        sa.Column("url", sa.Text),
        sa.Column("date", sa.Date),
        sa.Column("category", sa.String(16)),
        sa.Column("media_type", sa.String(64), nullable=False),
        sa.Column("content_hash", sa.String(64), nullable=False),
        sa.Column("segment_count", sa.Integer, nullable=False),
        sa.Column("ingested_at", TZ, nullable=False),
        sa.UniqueConstraint("collection", "source_path", name="uq_document_source"),
    )
    op.create_index("ix_documents_collection", "documents", ["collection"])


def downgrade() -> None:
    op.drop_table("documents")
    op.drop_table("router_decisions")
    op.drop_table("turns")
    op.drop_table("conversations")
