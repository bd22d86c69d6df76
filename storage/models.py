"""SQLAlchemy 2 models of what Threadwise keeps (SPEC section 7)."""

from __future__ import annotations

import datetime as dt
from typing import Any, ClassVar

from sqlalchemy import JSON, Date, DateTime, Float, ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    """Declarative base of every table."""

    type_annotation_map: ClassVar[dict[Any, Any]] = {
        dict[str, Any]: JSON,
        list[Any]: JSON,
        dt.datetime: DateTime(timezone=True),
    }


class ConversationRow(Base):
    """A conversation: (platform, tenant, channel, thread) with its rolling state."""

    __tablename__ = "conversations"
    __table_args__ = (
        UniqueConstraint("platform", "tenant", "channel_key", "thread", name="uq_conversation_key"),
        Index("ix_conversations_updated", "updated_at"),
    )

    id: Mapped[str] = mapped_column(String(36), primary_key=True)
    platform: Mapped[str] = mapped_column(String(16))
    tenant: Mapped[str] = mapped_column(String(128))
    channel_key: Mapped[str] = mapped_column(String(255))
    thread: Mapped[str] = mapped_column(String(255))
    summary: Mapped[str] = mapped_column(Text, default="")
    last_query: Mapped[str | None] = mapped_column(Text)
    last_route: Mapped[str | None] = mapped_column(String(16))
    state: Mapped[dict[str, Any]] = mapped_column(default=dict)
    created_at: Mapped[dt.datetime]
    updated_at: Mapped[dt.datetime]


class TurnRow(Base):
    """The turn ledger: one row per message key, claimed with a lease (exactly-once)."""

    __tablename__ = "turns"
    __table_args__ = (
        Index("ix_turns_conversation", "conversation_id"),
        Index("ix_turns_status_lease", "status", "lease_expires_at"),
        Index("ix_turns_created", "created_at"),
    )

    id: Mapped[str] = mapped_column(String(36), primary_key=True)
    message_key: Mapped[str] = mapped_column(String(255), unique=True)
    conversation_id: Mapped[str] = mapped_column(ForeignKey("conversations.id", ondelete="CASCADE"))
    platform: Mapped[str] = mapped_column(String(16))
    user_id: Mapped[str] = mapped_column(String(255))
    text: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(16))
    lease_expires_at: Mapped[dt.datetime]
    reply_id: Mapped[str | None] = mapped_column(String(255))
    # Where the answer goes, so a sweep can re-answer a claim whose worker died (migration 0006).
    reply_target: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    attempts: Mapped[int] = mapped_column(Integer, default=1, server_default="1")
    error: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[dt.datetime]
    updated_at: Mapped[dt.datetime]


class RouterDecisionRow(Base):
    """Every turn's router decision: route, attempts, branch, confidence and stage latencies."""

    __tablename__ = "router_decisions"
    __table_args__ = (Index("ix_router_decisions_created", "created_at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    turn_id: Mapped[str] = mapped_column(String(36))
    conversation_id: Mapped[str] = mapped_column(String(36))
    created_at: Mapped[dt.datetime]
    query: Mapped[str] = mapped_column(Text)
    route: Mapped[str] = mapped_column(String(16))
    fallbacks: Mapped[list[Any]] = mapped_column(default=list)
    reason: Mapped[str] = mapped_column(Text)
    intent: Mapped[str] = mapped_column(String(32))
    attempts: Mapped[list[Any]] = mapped_column(default=list)
    branch: Mapped[str] = mapped_column(String(32))
    evidence_level: Mapped[str] = mapped_column(String(16))
    confidence: Mapped[float] = mapped_column(Float)
    band: Mapped[str] = mapped_column(String(16))
    final_reason: Mapped[str] = mapped_column(String(48))
    timings: Mapped[dict[str, Any]] = mapped_column(default=dict)
    errors: Mapped[list[Any]] = mapped_column(default=list)
    llm_steps: Mapped[list[Any]] = mapped_column(default=list)


class FeedbackRow(Base):
    """A person's 👍/👎 on a turn's answer: one row per turn and person, the newest click kept."""

    __tablename__ = "feedback"
    __table_args__ = (UniqueConstraint("turn_id", "user_id", name="uq_feedback_turn_user"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    turn_id: Mapped[str] = mapped_column(String(36), index=True)
    user_id: Mapped[str] = mapped_column(String(255))
    value: Mapped[str] = mapped_column(String(8))
    created_at: Mapped[dt.datetime]


class DocumentRow(Base):
    """The documents registry: what was ingested from where, with its content hash."""

    __tablename__ = "documents"
    __table_args__ = (UniqueConstraint("collection", "source_path", name="uq_document_source"),)

    doc_id: Mapped[str] = mapped_column(String(40), primary_key=True)
    collection: Mapped[str] = mapped_column(String(128), index=True)
    title: Mapped[str] = mapped_column(Text)
    source_path: Mapped[str] = mapped_column(Text)
    relative_path: Mapped[str] = mapped_column(Text)
    url: Mapped[str | None] = mapped_column(Text)
    date: Mapped[dt.date | None] = mapped_column(Date)
    category: Mapped[str | None] = mapped_column(String(16))
    media_type: Mapped[str] = mapped_column(String(64))
    content_hash: Mapped[str] = mapped_column(String(64))
    segment_count: Mapped[int] = mapped_column(Integer, default=0)
    ingested_at: Mapped[dt.datetime]
    facets: Mapped[dict[str, Any] | None] = mapped_column(default=None)


class ResultSetRow(Base):
    """A full result set (every matching row), for "show the rest" and CSV export."""

    __tablename__ = "result_sets"
    __table_args__ = (Index("ix_result_sets_created", "created_at"),)

    id: Mapped[str] = mapped_column(String(36), primary_key=True)
    created_at: Mapped[dt.datetime]
    columns: Mapped[list[Any]] = mapped_column(default=list)
    rows: Mapped[list[Any]] = mapped_column(default=list)
    total: Mapped[int] = mapped_column(Integer)


class ChannelAccessRow(Base):
    """One collection a channel key may read."""

    __tablename__ = "channel_access"

    channel_key: Mapped[str] = mapped_column(String(255), primary_key=True)
    collection: Mapped[str] = mapped_column(String(128), primary_key=True)
