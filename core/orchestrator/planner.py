"""Planner: choose a route and write the plan the executor runs (SPEC section 3, seed 001)."""

from __future__ import annotations

from core.contracts import ExecutionPlan, IntakeResult, RouteDecision


def plan_route(intake: IntakeResult) -> RouteDecision:
    """Rule-based route selection from the intake's intent."""
    if intake.intent in ("chit_chat", "command"):
        return RouteDecision(
            route="direct", reason=f"{intake.intent}: answered without retrieval", intent=intake.intent
        )
    return RouteDecision(
        route="hybrid",
        fallbacks=[],
        reason=f"{intake.intent} question: hybrid BM25 + vector search over document segments",
        intent=intake.intent,
    )


def build_plan(intake: IntakeResult) -> ExecutionPlan:
    """The executable plan: queries, date window and result size."""
    return ExecutionPlan(
        original_query=intake.original_query,
        revised_query=intake.normalized_query,
        coherence=intake.coherence,
        coherence_reason=intake.coherence_reason,
        year_mode=intake.year_mode,
        requested_years=intake.requested_years,
        date_start=intake.date_start,
        date_end=intake.date_end,
        top_k=intake.top_k,
    )
