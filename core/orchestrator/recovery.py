"""Recovery: relax the filters, then the next fallback route, then reformulate (SPEC section 3)."""

from __future__ import annotations

from core.contracts import ExecutionPlan
from core.llm.gateway import LlmGateway
from core.orchestrator.evidence import outside_dates
from core.orchestrator.state import GraphState, RecoveryStep
from core.prompts import reformulate as reformulate_prompt
from core.text import key_terms


def next_recovery(state: GraphState, llm: bool = False) -> RecoveryStep | None:
    """The next recovery step that can still change the outcome, or None (`llm`: a model can reformulate)."""
    if len({r.round_id for r in state.rounds}) >= state.budgets.max_rounds or outside_dates(state):
        return None
    plan = state.plan
    if plan is None:
        return None
    # Relaxing drops the date window and title steering; documents chosen by facets stay chosen.
    dated = (plan.date_start is not None or plan.date_end is not None) and not state.steering.period_resolved
    narrowed = dated or (state.steering.doc_ids is not None and not state.steering.by_facets)
    # Filters are relaxed only when nothing inside them matched (see `Executor.retrieve`). A kind of
    # document asked for in a period ("the July 2023 minutes") that none of that kind has is not
    # answered from that kind's documents of other periods.
    kept = not (dated and state.steering.by_kind)
    if narrowed and kept and state.date_filter and not state.candidates and "relax_filters" not in state.recoveries:
        return "relax_filters"
    if state.route and state.route.fallbacks and "next_route" not in state.recoveries:
        return "next_route"
    if "reformulate" not in state.recoveries and (llm or _reformulated(plan) != plan.revised_query):
        return "reformulate"
    return None


class Recovery:
    """Relax filters, then the next fallback route, then reformulate (with an LLM: a new query and HyDE)."""

    def __init__(self, *, llm: LlmGateway) -> None:
        self._llm = llm

    def next_step(self, state: GraphState) -> RecoveryStep | None:
        """The step `recover` will take, or None when none can change the outcome."""
        return next_recovery(state, self._llm.enabled)

    async def recover(self, state: GraphState) -> dict[str, object]:
        """Take the next recovery step."""
        step = self.next_step(state)
        assert step is not None
        assert state.plan is not None
        assert state.route is not None
        update: dict[str, object] = {"recoveries": [*state.recoveries, step]}
        if step == "relax_filters":
            update["date_filter"] = False
        elif step == "next_route":
            route = state.route
            update["route"] = route.model_copy(
                update={
                    "route": route.fallbacks[0],
                    "fallbacks": route.fallbacks[1:],
                    "reason": f"{route.reason}; fell back from {route.route} to {route.fallbacks[0]}",
                }
            )
        else:
            query, hyde = _reformulated(state.plan), None
            if self._llm.enabled:
                tried = list(dict.fromkeys(r.query for r in state.rounds))
                messages = reformulate_prompt.messages(question=state.plan.original_query, tried=tried)
                found, llm_step = await self._llm.run(
                    "reformulate",
                    messages,
                    lambda text: reformulate_prompt.parse(text, tried),
                    schema=reformulate_prompt.Reformulation.model_json_schema(),
                )
                update["llm_steps"] = [llm_step]
                if found is not None:
                    query, hyde = found.query, found.passage or None
            update["plan"] = state.plan.model_copy(update={"revised_query": query})
            update["hyde"] = hyde
        return update


def _reformulated(plan: ExecutionPlan) -> str:
    """Deterministic reformulation: the question's key terms without stop-phrases."""
    return " ".join(key_terms(plan.original_query)) or plan.revised_query
