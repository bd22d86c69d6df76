"""Route selection (seed 001's route prompt): the model returns JSON, validated against the routes offered."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, field_validator

from core.prompts.common import json_object

SYSTEM = """You are a retrieval router. Choose the best plan for a small question-answering system over an organisation's documents.
Routes:
- structured: facts and table rows extracted from documents (enumerations, numeric lookups, totals). Only when offered.
- hybrid: keyword and vector search over passages, together with structured facts when coverage is uncertain.
- long_text: document summaries first, then passages of the best documents (conceptual and how-to questions).
Pick one route and order the others as fallbacks. Use only the routes offered.
Respond with JSON only: {"route": "...", "fallbacks": ["...", "..."], "reason": "..."}"""

USER = """Conversation summary: {summary}
User question: {question}
Detected intent: {intent}
Annotation coverage: {coverage}
Tool health: {health}
Routes offered: {offered}
Rule-based router's choice: {suggested} (fallbacks: {fallbacks}) — keep it unless the question clearly needs another route."""

# Output budget (`max_tokens`): a JSON object: route, fallbacks, one-line reason.
OUTPUT_TOKENS = 160

Route = Literal["structured", "hybrid", "long_text"]


class RouteChoice(BaseModel):
    """The model's routing decision."""

    route: Route
    fallbacks: list[Route] = Field(default_factory=list, max_length=3)
    reason: str = Field(min_length=1, max_length=400)

    @field_validator("fallbacks")
    @classmethod
    def _distinct(cls, value: list[Route]) -> list[Route]:
        return list(dict.fromkeys(value))


def messages(
    *,
    question: str,
    summary: str,
    intent: str,
    coverage: str,
    health: str,
    offered: list[str],
    suggested: str,
    fallbacks: list[str],
) -> list[tuple[str, str]]:
    """The route-selection prompt."""
    user = USER.format(
        summary=summary or "(new conversation)",
        question=question,
        intent=intent,
        coverage=coverage,
        health=health,
        offered=", ".join(offered),
        suggested=suggested,
        fallbacks=", ".join(fallbacks) or "none",
    )
    return [("system", SYSTEM), ("human", user)]


def parse(text: str, offered: list[str]) -> RouteChoice:
    """The validated choice; a route that was not offered is invalid output."""
    choice = RouteChoice.model_validate(json_object(text))
    if choice.route not in offered:
        raise ValueError(f"route {choice.route!r} was not offered ({', '.join(offered)})")
    fallbacks = [r for r in choice.fallbacks if r in offered and r != choice.route]
    return choice.model_copy(update={"fallbacks": fallbacks})
