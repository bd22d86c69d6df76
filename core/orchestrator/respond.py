"""Respond: turn the graph state into the one answer object, by the outcome table (`outcomes`)."""

from __future__ import annotations

from core.calibration import band_for
from core.contracts import (
    Assessment,
    Band,
    BranchCode,
    ConfidenceSummary,
    ContextCandidate,
    ContextPacket,
    Coverage,
    ExecutionPlan,
    NextAction,
    OrchestrationResult,
    Reading,
    RouteDecision,
)
from core.orchestrator.answer import NOT_ABOUT
from core.orchestrator.outcomes import decide
from core.orchestrator.state import GraphState
from core.ports import Clock
from core.understanding import answer_kind


def build_result(state: GraphState, clock: Clock) -> OrchestrationResult:
    """The `OrchestrationResult` for the decided outcome."""
    outcome = decide(state)
    reflection = state.reflection if outcome.kind == "answer" else None
    if outcome.final_reason == "overflow_clarify":
        reflection = state.reflection
    confidence = reflection.confidence if reflection else _fallback_confidence(state)
    band: Band = band_for(confidence)
    answered = outcome.kind == "answer" and state.draft is not None
    intake = state.intake
    plan = state.plan or ExecutionPlan(
        original_query=state.turn.text,
        revised_query=intake.normalized_query if intake else state.turn.text,
        coherence=intake.coherence if intake else "incoherent",
        coherence_reason=intake.coherence_reason if intake else None,
    )
    if state.route is None and intake is not None and intake.blocking_ambiguity:
        state = state.model_copy(
            update={
                "route": RouteDecision(route="clarify", reason="blocking ambiguity at intake", intent=intake.intent)
            }
        )
    route = state.route or RouteDecision(
        route="direct",
        reason="ended at intake: " + outcome.reason,
        intent=intake.intent if intake else "conceptual",
    )
    return OrchestrationResult(
        answer=outcome.answer,
        kind=outcome.kind,
        terminal=outcome.terminal,
        next_action=NextAction(
            action=outcome.action,
            reason=outcome.reason,
            branch_code=outcome.branch,
            suggestion=outcome.suggestion,
        ),
        branch=outcome.branch,
        evidence_level=state.evidence_level,
        confidence=round(confidence, 4),
        band=band,
        final_reason=outcome.final_reason,
        applicability_note=reflection.applicability_note if reflection else None,
        uncertainty_note=reflection.uncertainty_note if reflection else None,
        citations=state.draft.citations if answered and state.draft else [],
        route=route,
        plan=plan,
        context_packet=_packet(state, outcome.branch, clock),
        retrieval_report=state.rounds,
        coverage=reflection.coverage if reflection else Coverage(),
        table=state.table if outcome.kind in ("answer", "clarification") else None,
        overflow=state.overflow if outcome.kind in ("answer", "clarification") else 0,
        choices=_choices(state) if outcome.final_reason == "overflow_clarify" else [],
        errors=state.errors,
        timings=state.timings,
        reading=_reading(state),
        assessment=Assessment(
            evidence_level=state.evidence_level,
            confidence=round(confidence, 4),
            support=round(state.reflection.support_revised, 4) if state.reflection else None,
            covered=state.reflection.coverage.answered if state.reflection else [],
            missing=state.reflection.coverage.missing if state.reflection else [],
            names_cited=_names_cited(state),
            withheld=state.reflection.unsupported if state.reflection else None,
            occasion=state.occasion,
            outcome=f"{outcome.branch} / {outcome.final_reason} ({outcome.row})",
        ),
    )


def _reading(state: GraphState) -> Reading | None:
    """The turn's reading of the question, from intake and the names and periods steering resolved."""
    intake = state.intake
    if intake is None:
        return None
    plan = state.plan
    window = None
    if plan is not None and (plan.date_start or plan.date_end):
        window = f"{plan.date_start or '…'} to {plan.date_end or '…'}"
    return Reading(
        content_terms=intake.signals.key_terms,
        intent=intake.intent,
        answer_kind=answer_kind(intake.normalized_query),
        names=state.steering.resolved or [n.text for n in state.steering.names],
        mentions=state.steering.mentions,
        documents=state.steering.doc_ids,
        not_covered=state.steering.missing,
        constraints=[c.text for c in intake.signals.numbers],
        date_window=window,
    )


def _names_cited(state: GraphState) -> bool | None:
    """Whether every name the question steers by is in the cited sources (None: it names none)."""
    if not state.steering.required():
        return None
    withheld = state.reflection.unsupported if state.reflection else None
    return not (withheld or "").startswith(NOT_ABOUT)


def _choices(state: GraphState) -> list[str]:
    return [value for value, _ in state.choices[1] if value] if state.choices else []


def _fallback_confidence(state: GraphState) -> float:
    """Without a reflected answer, confidence is the top evidence's relevance (0 when none)."""
    return max((c.relevance for c in state.candidates), default=0.0)


def _packet(state: GraphState, branch: BranchCode, clock: Clock) -> ContextPacket:
    candidates = [
        ContextCandidate(
            id=e.chunk_id,
            content=e.snippet,
            source=e.title,
            confidence=e.relevance,
            metadata={"doc_id": e.doc_id, "section": e.section, "round_id": e.round_id},
        )
        for e in (state.evidence or state.candidates)[: state.budgets.max_evidence]
    ]
    top = max((c.confidence for c in candidates), default=0.0)
    return ContextPacket(
        candidates=candidates,
        summary=ConfidenceSummary(
            top_confidence=top,
            candidate_count=len(candidates),
            threshold_met=state.evidence_level in ("high", "medium"),
            branch=branch,
        ),
        provider="threadwise",
        rerank_applied=False,
        timestamp=clock.now().isoformat(),
    )
