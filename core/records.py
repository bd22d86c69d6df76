"""What the core asks storage to keep: conversations, the turn ledger and router decisions."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import Field

from core.contracts import (
    BranchCode,
    Contract,
    EvidenceLevel,
    Intent,
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


class ConversationState(Contract):
    """A stored conversation: its id and the rolling summary of what was asked."""

    conversation_id: str
    key: ConversationKey
    summary: str = ""
    last_query: str | None = None
    last_route: RouteName | None = None
    updated_at: datetime


class TurnClaim(Contract):
    """The ledger's answer to "may I answer this message?"."""

    turn_id: str
    claimed: bool
    status: TurnStatus
    reply_id: str | None = None


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
