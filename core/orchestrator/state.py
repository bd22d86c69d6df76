"""The typed state of the orchestration graph; each node writes only the fields it owns."""

from __future__ import annotations

import datetime as dt
import operator
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from core.contracts import (
    Budgets,
    Citation,
    Coverage,
    Evidence,
    EvidenceLevel,
    ExecutionPlan,
    IntakeResult,
    LlmStep,
    OrchestrationResult,
    RetrievalRound,
    RouteDecision,
    TableResult,
    Turn,
)
from core.orchestrator.steering import Steering
from core.orchestrator.structured import StructuredQuery


def merge_timings(left: dict[str, float], right: dict[str, float]) -> dict[str, float]:
    """Reducer: stages that run more than once (retrieve, evaluate) add up their time."""
    merged = dict(left)
    for stage, ms in right.items():
        merged[stage] = round(merged.get(stage, 0.0) + ms, 3)
    return merged


def merge_rounds(left: list[RetrievalRound], right: list[RetrievalRound]) -> list[RetrievalRound]:
    """Reducer: a round reported again (evaluate adds its branch) replaces the earlier report."""
    merged = {r.round_id: r for r in left}
    for report in right:
        merged[report.round_id] = report
    return sorted(merged.values(), key=lambda r: r.round_id)


class Draft(BaseModel):
    """An answer before reflection: text with `[n]` markers and the citations behind them."""

    text: str
    citations: list[Citation] = Field(default_factory=list)
    removed_citations: list[int] = Field(default_factory=list)


class Reflection(BaseModel):
    """Reflect's verdict on a draft (seed 002)."""

    confidence: float
    support_original: float
    support_revised: float
    applicability_note: str | None = None
    uncertainty_note: str | None = None
    coverage: Coverage = Field(default_factory=Coverage)
    unsupported: str | None = None  # why the support gate withholds the answer


RecoveryStep = Literal["relax_filters", "next_route", "reformulate"]


class GraphState(BaseModel):
    """Everything one turn accumulates on its way through the graph."""

    turn: Turn
    collections: list[str] | None = None
    history: str | None = None
    summary: str = ""
    focus_doc_ids: list[str] | None = None
    budgets: Budgets = Field(default_factory=Budgets)
    # intake
    intake: IntakeResult | None = None
    guardrail: tuple[str, str] | None = None  # (reason, safe reply)
    # plan / recover
    route: RouteDecision | None = None
    plan: ExecutionPlan | None = None
    structured: StructuredQuery | None = None
    query_vector: Any = None  # `Embeddings` of the revised query, embedded once per turn (plan)
    steering: Steering = Field(default_factory=Steering)
    newest: dt.date | None = None  # the newest document date the channel can read (plan)
    oldest: dt.date | None = None  # the oldest one (plan)
    date_filter: bool = True
    recoveries: list[RecoveryStep] = Field(default_factory=list)
    hyde: str | None = None  # a hypothetical passage the vector leg searches by (reformulation)
    # retrieve
    rounds: Annotated[list[RetrievalRound], merge_rounds] = Field(default_factory=list)
    candidates: list[Evidence] = Field(default_factory=list)
    evidence: list[Evidence] = Field(default_factory=list)
    out_of_range_used: bool = False
    occasion: bool = False  # the date window picked one occasion's documents (`Executor._occasion`)
    table: TableResult | None = None
    overflow: int = 0
    choices: tuple[str, list[tuple[str, int]]] | None = None
    rerank_bypassed: bool = False
    mismatch_hits: int = 0
    # evaluate
    evidence_level: EvidenceLevel = "insufficient"
    # synthesize / validate / reflect
    draft: Draft | None = None
    reflection: Reflection | None = None
    # respond
    result: OrchestrationResult | None = None
    # shared, append-only
    errors: Annotated[list[str], operator.add] = Field(default_factory=list)
    timings: Annotated[dict[str, float], merge_timings] = Field(default_factory=dict)
    llm_steps: Annotated[list[LlmStep], operator.add] = Field(default_factory=list)
