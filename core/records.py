"""What the core asks storage to keep: conversations, the turn ledger and router decisions."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import Field

from core.contracts import (
    BranchCode,
    Citation,
    Contract,
    EvidenceLevel,
    Intent,
    LlmStep,
    Platform,
    RetrievalRound,
    RouteName,
)

TurnStatus = Literal["claimed", "answered", "failed"]


class ConversationKey(Contract):
    """A conversation is (platform, tenant, channel, thread) (SPEC section 5)."""

    platform: Platform
    tenant: str
    channel_key: str
    thread: str


class PendingClarification(Contract):
    """A question the bot asked and is waiting on; the same person's answer resumes it."""

    question: str
    user: str
    asked_at: datetime
    field: str | None = None
    choices: list[str] = Field(default_factory=list)


class ThreadMemory(Contract):
    """The structured state of a conversation: what the last question was and what it found."""

    last_question: str | None = None
    last_answer: str | None = None  # the reply to the last question, when it was answered
    last_user: str | None = None
    last_intent: str | None = None
    entities: list[str] = Field(default_factory=list)
    date_start: str | None = None
    date_end: str | None = None
    result_set_id: str | None = None
    result_offset: int = 0
    result_total: int = 0
    sources: list[Citation] = Field(default_factory=list)
    pending: PendingClarification | None = None
    asked_at: datetime | None = None


class ConversationState(Contract):
    """A stored conversation: its id, rolling summary and structured memory."""

    conversation_id: str
    key: ConversationKey
    summary: str = ""
    last_query: str | None = None
    last_route: RouteName | None = None
    memory: ThreadMemory = Field(default_factory=ThreadMemory)
    updated_at: datetime


class TurnClaim(Contract):
    """The ledger's answer to "may I answer this message?"."""

    turn_id: str
    claimed: bool
    status: TurnStatus
    reply_id: str | None = None


class ReplyTarget(Contract):
    """Where a turn's reply goes, stored with its claim so a sweep can post it after a crash.

    Platform-neutral: `channel` is the Slack channel id or the Teams conversation id, `thread`
    the Slack thread root (None in a DM) or the Teams activity replied to; `direct` marks a one-to-one
    chat (the turn was `is_direct`); `reference` is what a
    platform needs beyond that (the serialized Teams conversation reference for proactive replies).
    """

    platform: Platform
    channel: str
    thread: str | None = None
    direct: bool = False
    reference: dict[str, Any] = Field(default_factory=dict)


class StaleTurn(Contract):
    """A claimed turn whose lease lapsed (its worker died): what a sweep needs to re-answer it."""

    turn_id: str
    message_key: str
    platform: Platform
    tenant: str
    channel_key: str
    thread: str
    user: str
    text: str
    received_at: datetime
    attempts: int
    reply_id: str | None = None
    target: ReplyTarget | None = None


FeedbackValue = Literal["up", "down"]


class Feedback(Contract):
    """One person's 👍/👎 on a turn's answer (Slack `feedback_buttons`, the Teams feedback loop)."""

    value: FeedbackValue
    user: str
    at: datetime


class DecisionRecord(Contract):
    """One router decision, stored for every turn."""

    turn_id: str
    conversation_id: str
    created_at: datetime
    query: str
    route: RouteName
    fallbacks: list[RouteName] = Field(default_factory=list)
    reason: str
    intent: Intent
    attempts: list[RetrievalRound] = Field(default_factory=list)
    branch: BranchCode
    evidence_level: EvidenceLevel
    confidence: float
    band: str
    final_reason: str
    timings: dict[str, float] = Field(default_factory=dict)
    errors: list[str] = Field(default_factory=list)
    llm_steps: list[LlmStep] = Field(default_factory=list)
    feedback: list[Feedback] = Field(default_factory=list)
