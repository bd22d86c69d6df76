"""Respond: turn the graph state into the one answer object, by the outcome table (SPEC section 3)."""

from __future__ import annotations

from dataclasses import dataclass

from core.calibration import band_for, reason_for_band
from core.contracts import (
    Assessment,
    Band,
    BranchCode,
    ConfidenceSummary,
    ContextCandidate,
    ContextPacket,
    Coverage,
    ExecutionPlan,
    FinalReason,
    NextAction,
    OrchestrationResult,
    Reading,
    ReplyKind,
    RouteDecision,
    Terminal,
)
from core.errors import SearchUnavailableError
from core.orchestrator import replies
from core.orchestrator.answer import CITATION_MARK, NOT_ABOUT
from core.orchestrator.compose import overflow_question
from core.orchestrator.evidence import after_newest
from core.orchestrator.state import Draft, GraphState
from core.orchestrator.tables import OVERFLOW_CLARIFY_ROWS
from core.ports import Clock
from core.understanding import answer_kind


@dataclass(frozen=True)
class Outcome:
    """One row of the outcome table, filled in."""

    branch: BranchCode
    action: str
    kind: ReplyKind
    terminal: Terminal
    final_reason: FinalReason
    answer: str
    reason: str
    suggestion: str | None = None


def decide(state: GraphState) -> Outcome:
    """The first matching row of the outcome table decides."""
    intake, draft, reflection = state.intake, state.draft, state.reflection
    queries = [r.query for r in state.rounds]
    if state.errors and state.guardrail is None:
        # A search backend that is down is said plainly: the person can act on it (ask again later).
        unavailable = any(f": {SearchUnavailableError.__name__}:" in error for error in state.errors)
        text = replies.SEARCH_UNAVAILABLE if unavailable else replies.INTERNAL_ERROR
        return Outcome(
            "LOW_CONFIDENCE",
            "escalate",
            "uncertainty",
            "fail",
            "confidence_too_low_clarify",
            text.format(reference=state.turn.message_key),
            "error inside a stage: " + state.errors[-1].split(":", 1)[0],
        )
    if state.guardrail is not None:
        reason, safe_reply = state.guardrail
        return Outcome("GUARDRAIL_BLOCKED", "escalate", "refusal", "fail", "guardrail_blocked", safe_reply, reason)
    if intake is None or intake.coherence == "incoherent":
        why = intake.coherence_reason if intake else "intake did not complete"
        return Outcome(
            "INCOHERENT", "clarify", "refusal", "fail", "incoherent", replies.INCOHERENT, why or "incoherent"
        )
    if intake.blocking_ambiguity:
        return Outcome(
            "NEEDS_CLARIFICATION",
            "clarify",
            "clarification",
            "success",
            "needs_clarification",
            intake.blocking_ambiguity,
            "blocking ambiguity at intake",
        )
    if state.route is not None and state.route.route == "direct":
        text = (
            replies.HELP
            if intake.intent == "chit_chat"
            else replies.COMMAND_UNAVAILABLE.format(command=intake.normalized_query.lower().rstrip(".!"))
        )
        if intake.intent == "chit_chat" and not intake.normalized_query.lower().startswith("help"):
            text = replies.GREETING
        return Outcome("SUCCESS", "proceed", "info", "success", "command", text, state.route.reason)
    if state.mismatch_hits:
        return Outcome(
            "CHANNEL_MISMATCH",
            "escalate",
            "uncertainty",
            "success",
            "channel_mismatch",
            replies.CHANNEL_MISMATCH,
            f"{state.mismatch_hits} relevant matches outside this channel's collections",
            "Ask in a channel that can read those documents, or ask an admin to map this channel.",
        )
    if not state.candidates and state.steering.missing:
        return Outcome(
            "EMPTY_SET",
            "fallback",
            "uncertainty",
            "success",
            "empty_set",
            replies.not_covered(state.steering.missing),
            state.steering.missing,
            "Ask about one of the periods the documents cover.",
        )
    if not state.candidates and state.newest is not None and state.plan is not None and after_newest(state):
        return Outcome(
            "EMPTY_SET",
            "fallback",
            "uncertainty",
            "success",
            "empty_set",
            replies.after_newest(state.newest, state.plan.date_start, state.plan.date_end),
            f"the dates asked begin after the newest document ({state.newest.isoformat()})",
            f"Ask about dates up to {state.newest.isoformat()}.",
        )
    if not state.candidates:
        return Outcome(
            "EMPTY_SET",
            "fallback",
            "uncertainty",
            "success",
            "empty_set",
            replies.empty_set(queries),
            "no candidates after recovery",
            "Try other words or a wider date range.",
        )
    if state.evidence_level in ("low", "insufficient") or draft is None or not draft.citations:
        why = f"evidence {state.evidence_level} after {len(state.rounds)} round(s)"
        if draft is not None and not draft.citations:
            why = "no valid citation left in the answer"
        return Outcome(
            "LOW_CONFIDENCE",
            "clarify",
            "uncertainty",
            "success",
            "confidence_too_low_clarify",
            _uncertainty(state, queries),
            why,
            "Name a document, product or date range to narrow the search.",
        )
    if reflection is not None and reflection.unsupported:
        return Outcome(
            "LOW_CONFIDENCE",
            "clarify",
            "uncertainty",
            "success",
            "confidence_too_low_clarify",
            _uncertainty(state, queries),
            "support gate: " + reflection.unsupported,
            "Name a document, product or date range to narrow the search.",
        )
    if state.choices is not None and state.table is not None and state.table.total > OVERFLOW_CLARIFY_ROWS:
        return Outcome(
            "SUCCESS",
            "clarify",
            "clarification",
            "success",
            "overflow_clarify",
            overflow_question(state),
            f"{state.table.total} matching rows > {OVERFLOW_CLARIFY_ROWS}; narrow by {state.choices[0]}",
            f"only {state.choices[1][0][0]}",
        )
    assert reflection is not None
    band = band_for(reflection.confidence)
    branch: BranchCode = "RERANK_BYPASSED" if state.rerank_bypassed else "SUCCESS"
    bypass = "; the configured reranker was unavailable and skipped" if state.rerank_bypassed else ""
    return Outcome(
        branch,
        "proceed",
        "answer",
        "success",
        reason_for_band(band),
        draft.text,
        f"answered with {len(draft.citations)} citation(s), confidence {reflection.confidence:.2f}{bypass}",
    )


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
            outcome=f"{outcome.branch} / {outcome.final_reason}",
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


def _uncertainty(state: GraphState, queries: list[str]) -> str:
    """The uncertainty reply; an answer drafted and withheld by the support gate (perhaps before a
    recovery round found less) is quoted as the closest passage, with what the sources lack."""
    reflection, draft = state.reflection, state.draft
    withheld = reflection if reflection is not None and reflection.unsupported else None
    closest = _closest(draft) if withheld is not None and draft is not None else None
    missing = withheld.coverage.missing if withheld is not None else []
    return replies.uncertainty(queries, state.candidates, state.rounds, closest=closest, missing=missing)


def _closest(draft: Draft) -> tuple[str, str] | None:
    """The withheld answer's first cited passage and its source, shown in the uncertainty reply."""
    marked = CITATION_MARK.search(draft.text)
    if marked is None:
        return None
    cited = next((c for c in draft.citations if c.n == int(marked.group(1))), None)
    passage = draft.text[: marked.start()].strip()
    if cited is None or not passage or "\n" in passage:
        return None  # a table or a list is no passage to quote
    return passage, cited.title + (f", §{cited.section}" if cited.section else "")


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
