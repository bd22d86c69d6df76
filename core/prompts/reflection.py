"""Reflection (seed 002): the model grades how well the cited sources support the answer, at temperature 0."""

from __future__ import annotations

from pydantic import BaseModel, Field

from core.prompts.common import json_object

SYSTEM = """You check answers against their sources. For each of the two questions, grade from 0 to 1 how fully the answer answers it using only what the cited sources say (1 = fully supported, 0.5 = partly, 0 = not supported).
List the parts of the original question the sources do not cover (short phrases; an empty list when nothing is missing).
Respond with JSON only: {"support_original": 0.0, "support_revised": 0.0, "missing": ["..."]}"""

USER = """Original question: {original}
Revised query: {revised}

Answer:
{answer}

Cited sources:
{sources}"""

# Output budget (`max_tokens`): a JSON object: two grades and a short list of missing parts.
OUTPUT_TOKENS = 160


class Judgement(BaseModel):
    """The model's graded judgement."""

    support_original: float = Field(ge=0.0, le=1.0)
    support_revised: float = Field(ge=0.0, le=1.0)
    missing: list[str] = Field(default_factory=list, max_length=10)


def messages(*, original: str, revised: str, answer: str, sources: str) -> list[tuple[str, str]]:
    """The reflection prompt."""
    user = USER.format(original=original, revised=revised, answer=answer, sources=sources)
    return [("system", SYSTEM), ("human", user)]


def parse(text: str) -> Judgement:
    """The validated judgement."""
    judgement = Judgement.model_validate(json_object(text))
    missing = [m.strip() for m in judgement.missing if m.strip()]
    return judgement.model_copy(update={"missing": missing})
