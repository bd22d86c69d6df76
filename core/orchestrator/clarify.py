"""Clarification wording: with an LLM, seed 001's clarification prompt rewords the deterministic question."""

from __future__ import annotations

from core.contracts import LlmStep, OrchestrationResult
from core.llm.gateway import LlmGateway
from core.orchestrator.state import GraphState
from core.orchestrator.support import names_known
from core.orchestrator.tables import format_number
from core.prompts import clarification as clarification_prompt


def rewords(reply: str, shown: str) -> str:
    """A model's rewording of a clarification that adds no fact, or `ValueError` (general case: a
    model's output states only what it was shown, as answers and summaries must — SmolLM2-135M gave
    the year choices invented counts, "2025 (160), 2025 (180)")."""
    if not names_known(reply, shown):
        raise ValueError("the reply names a number or name that the draft reply and the question lack")
    return reply


class Clarifier:
    """Rewords clarification replies; the deterministic wording stays when the model fails or drops a choice."""

    def __init__(self, *, llm: LlmGateway) -> None:
        self._llm = llm

    async def word(self, state: GraphState, result: OrchestrationResult) -> tuple[OrchestrationResult, list[LlmStep]]:
        """The result with the model's wording of its clarification, and the step taken."""
        if not self._llm.enabled or result.kind != "clarification":
            return result, []
        required = [value for value, _ in state.choices[1]] if state.choices else []
        if result.final_reason == "overflow_clarify" and result.table is not None:
            required.append(format_number(result.table.total))
        attempts = [
            f'{r.tool} query="{r.query}" (matches: {r.matches}, threshold: {r.threshold})'
            for r in result.retrieval_report
        ]
        messages = clarification_prompt.messages(
            reason=result.next_action.reason,
            question=result.plan.original_query,
            attempts=attempts,
            draft=result.answer,
        )
        shown = f"{result.plan.original_query}\n{result.answer}"
        text, step = await self._llm.run(
            "clarification", messages, lambda reply: rewords(clarification_prompt.parse(reply, required), shown)
        )
        if text is None:
            return result, [step]
        return result.model_copy(update={"answer": text}), [step]
