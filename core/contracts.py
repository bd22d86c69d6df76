"""The models every stage takes and returns (SPEC section 2, contract 1.1.0)."""

from __future__ import annotations

import datetime as dt
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

CONTRACT_VERSION = "1.1.0"

Platform = Literal["slack", "teams", "cli", "api"]
Intent = Literal["enumeration", "numeric_lookup", "conceptual", "comparison", "follow_up", "chit_chat", "command"]
RouteName = Literal["structured", "hybrid", "long_text", "direct", "clarify"]
EvidenceKind = Literal["segment", "summary", "fact", "row"]
EvidenceLevel = Literal["high", "medium", "low", "insufficient"]
Band = Literal["high", "caveated", "partial", "low"]
ReplyKind = Literal["answer", "clarification", "uncertainty", "refusal", "info"]
Terminal = Literal["success", "fail"]
Action = Literal["proceed", "clarify", "fallback", "escalate"]
BranchCode = Literal[
    "SUCCESS",
    "LOW_CONFIDENCE",
    "EMPTY_SET",
    "CHANNEL_MISMATCH",
    "RERANK_BYPASSED",
    "GUARDRAIL_BLOCKED",
    "INCOHERENT",
    "NEEDS_CLARIFICATION",
]
FinalReason = Literal[
    "confidence_high",
    "confidence_medium_caveated",
    "confidence_low_partial",
    "confidence_too_low_clarify",
    "empty_set",
    "channel_mismatch",
    "overflow_clarify",
    "needs_clarification",
    "guardrail_blocked",
    "incoherent",
    "command",
]
SearchMode = Literal["bm25", "vector", "hybrid", "summary", "structured"]
LlmStage = Literal["route", "reformulate", "synthesis", "reflection", "summary", "clarification"]


class Contract(BaseModel):
    """Base for every contract model: unknown fields are errors, not silently dropped."""

    model_config = ConfigDict(extra="forbid")


class Turn(Contract):
    """One addressed message, as every platform adapter hands it to the core."""

    platform: Platform
    tenant: str
    channel_key: str
    thread: str
    user: str
    message_key: str
    text: str
    is_direct: bool = False
    received_at: dt.datetime


class SearchFilters(Contract):
    """Filters every search tool takes; `collections=None` means every collection."""

    collections: list[str] | None = None
    categories: list[str] | None = None
    doc_ids: list[str] | None = None
    date_start: dt.date | None = None
    date_end: dt.date | None = None


class Evidence(Contract):
    """A retrieved piece of a document with where it came from and how it ranked."""

    doc_id: str
    chunk_id: str
    kind: EvidenceKind = "segment"
    text: str
    snippet: str = Field(max_length=160)
    title: str
    section: str | None = None
    page: int | None = None
    position: int | None = None  # the segment's place in its document, for reading on past its end
    url: str | None = None
    date: dt.date | None = None
    collection: str
    round_id: int
    query: str
    mode: SearchMode
    bm25_rank: int | None = None
    vector_rank: int | None = None
    rrf_score: float | None = None
    rerank_score: float | None = None
    relevance: float = Field(ge=0.0, le=1.0)


class Citation(Contract):
    """A numbered source of an answer; `n` matches an `[n]` in the answer text."""

    n: int = Field(ge=1)
    doc_id: str
    chunk_id: str
    title: str
    date: dt.date | None = None
    section: str | None = None
    page: int | None = None
    url: str | None = None
    snippet: str
    relevance: float


class ContextCandidate(Contract):
    """Seed 004's provider-neutral candidate; provider extras only in `metadata`."""

    id: str
    content: str
    source: str
    confidence: float = Field(ge=0.0, le=1.0)
    metadata: dict[str, Any] = Field(default_factory=dict)


class ConfidenceSummary(Contract):
    """Aggregate confidence of the candidates and the branch it implies."""

    top_confidence: float
    candidate_count: int
    threshold_met: bool
    branch: BranchCode


class ContextPacket(Contract):
    """Seed 004's retrieval envelope."""

    candidates: list[ContextCandidate] = Field(default_factory=list)
    summary: ConfidenceSummary
    provider: str
    rerank_applied: bool = False
    timestamp: str


class NextAction(Contract):
    """What should happen next, as a stable branch code."""

    action: Action
    reason: str
    branch_code: BranchCode
    suggestion: str | None = None


class NumericConstraint(Contract):
    """A number in the question, with its unit and comparison (`width <= 1.2 m`)."""

    label: str | None = None
    operator: Literal["<", "<=", "=", ">=", ">"] = "="
    value: float
    unit: str | None = None
    text: str


class Signals(Contract):
    """Planning signals extracted at intake."""

    entities: list[str] = Field(default_factory=list)
    acronyms: list[str] = Field(default_factory=list)
    literals: list[str] = Field(default_factory=list)
    numbers: list[NumericConstraint] = Field(default_factory=list)
    key_terms: list[str] = Field(default_factory=list)


class IntakeResult(Contract):
    """What intake understood of the message; intake never retrieves or answers."""

    original_query: str
    normalized_query: str
    intent: Intent
    signals: Signals = Field(default_factory=Signals)
    coherence: Literal["coherent", "incoherent"] = "coherent"
    coherence_reason: str | None = None
    year_mode: Literal["explicit", "none"] = "none"
    requested_years: list[int] = Field(default_factory=list)
    date_start: dt.date | None = None
    date_end: dt.date | None = None
    recent_year_window: int | None = None
    top_k: int = Field(default=10, ge=1, le=50)
    pii_found: list[str] = Field(default_factory=list)
    blocking_ambiguity: str | None = None


class RouteDecision(Contract):
    """The chosen route, its ordered fallbacks and why."""

    route: RouteName
    fallbacks: list[RouteName] = Field(default_factory=list)
    reason: str
    intent: Intent


class Budgets(Contract):
    """The executor's hard caps (SPEC section 3)."""

    max_rounds: int = 3
    candidates_per_round: int = 50
    rerank_pool: int = 50
    max_evidence: int = 8
    max_rows_per_answer: int = 20


class ExecutionPlan(Contract):
    """The plan the executor runs."""

    original_query: str
    revised_query: str
    coherence: Literal["coherent", "incoherent"] = "coherent"
    coherence_reason: str | None = None
    year_mode: Literal["explicit", "none"] = "none"
    requested_years: list[int] = Field(default_factory=list)
    date_start: dt.date | None = None
    date_end: dt.date | None = None
    top_k: int = 10


class RetrievalRound(Contract):
    """Telemetry of one retrieval round."""

    round_id: int
    route: RouteName
    tool: str
    query: str
    filters: SearchFilters
    matches: int
    threshold: str
    branch: BranchCode | None = None
    took_ms: float


class TableResult(Contract):
    """Rows for structured answers; `total` is exact, never capped."""

    columns: list[str]
    rows: list[list[str]]
    total: int
    shown: int
    result_set_id: str | None = None


class Coverage(Contract):
    """Which parts of the question the answer covers (seed 003)."""

    answered: list[str] = Field(default_factory=list)
    missing: list[str] = Field(default_factory=list)


class LlmStep(Contract):
    """One place an LLM could be used in a turn: which path ran and why (SPEC section 8)."""

    stage: LlmStage
    path: Literal["llm", "deterministic"]
    reason: str
    took_ms: float = 0.0


class Reading(Contract):
    """What the turn understood of the question: its words, what kind of answer it wants, and the
    names and periods it was resolved to among the documents' own facets."""

    content_terms: list[str] = Field(default_factory=list)
    intent: Intent
    answer_kind: str | None = None  # "person", "date", "number", … (None: a description)
    names: list[str] = Field(default_factory=list)  # "OPM → 9 documents", "FY 2018 → 1 document"
    mentions: list[str] = Field(default_factory=list)  # how the question wrote those names ("DOL")
    documents: list[str] | None = None  # the documents those names and periods chose
    not_covered: str | None = None  # a period asked that the documents named do not cover
    constraints: list[str] = Field(default_factory=list)  # "price <= 50 EUR"
    date_window: str | None = None


class Assessment(Contract):
    """What the evidence was judged to be worth, by the one calibration, and the outcome it led to."""

    evidence_level: EvidenceLevel
    confidence: float
    support: float | None = None
    covered: list[str] = Field(default_factory=list)
    missing: list[str] = Field(default_factory=list)
    names_cited: bool | None = None  # every name the question steers by is in the cited sources
    withheld: str | None = None  # why the support gate withheld an answer
    occasion: bool = False  # the dates asked picked one occasion's documents: its words judged the passages
    outcome: str  # the row of `respond`'s table: "LOW_CONFIDENCE / confidence_too_low_clarify"


class OrchestrationResult(Contract):
    """The one answer object every platform renders."""

    contract_version: str = CONTRACT_VERSION
    answer: str
    kind: ReplyKind
    terminal: Terminal
    next_action: NextAction
    branch: BranchCode
    evidence_level: EvidenceLevel
    confidence: float = Field(ge=0.0, le=1.0)
    band: Band
    final_reason: FinalReason
    applicability_note: str | None = None
    uncertainty_note: str | None = None
    citations: list[Citation] = Field(default_factory=list)
    route: RouteDecision
    plan: ExecutionPlan
    context_packet: ContextPacket
    retrieval_report: list[RetrievalRound] = Field(default_factory=list)
    coverage: Coverage = Field(default_factory=Coverage)
    table: TableResult | None = None
    overflow: int = 0
    # The values a clarification offers to narrow by; platforms show them as buttons.
    choices: list[str] = Field(default_factory=list)
    conversation_id: str | None = None
    turn_id: str | None = None
    errors: list[str] = Field(default_factory=list)
    timings: dict[str, float] = Field(default_factory=dict)
    llm_steps: list[LlmStep] = Field(default_factory=list)
    reading: Reading | None = None
    assessment: Assessment | None = None
