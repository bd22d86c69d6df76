"""The LLM prompts, one module per stage, each with the parser that validates the model's reply.

Each module holds its prompt as plain text (reviewed as text), a `messages(...)` builder and a
`parse(text)` that raises `ValueError` on anything the stage cannot use.
"""

from __future__ import annotations

from core.contracts import LlmStage
from core.prompts import clarification, reflection, reformulate, route, summary, synthesis

OUTPUT_TOKENS: dict[LlmStage, int] = {
    "route": route.OUTPUT_TOKENS,
    "reformulate": reformulate.OUTPUT_TOKENS,
    "synthesis": synthesis.OUTPUT_TOKENS,
    "reflection": reflection.OUTPUT_TOKENS,
    "summary": summary.OUTPUT_TOKENS,
    "clarification": clarification.OUTPUT_TOKENS,
}
"""Every LLM stage's output budget, sent on the wire as `max_tokens` (route and grade small, answer bounded)."""
