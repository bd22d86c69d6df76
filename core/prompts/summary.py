"""The rolling conversation summary (at most 350 tokens) that later prompts and turns read."""

from __future__ import annotations

from collections.abc import Callable, Sequence

SYSTEM = """You keep a running summary of a conversation between a colleague and a document assistant.
Update the summary with the new exchange. Keep what later questions may refer to: topics, documents, dates, numbers, filters. Plain sentences, no more than 200 words, no preamble."""

USER = """Summary so far:
{summary}

New question: {question}
Answer given: {answer}"""

# Output budget (`max_tokens`): the summary (MAX_TOKENS embedding tokens, with headroom).
OUTPUT_TOKENS = 400

MAX_TOKENS = 350


def messages(*, summary: str, question: str, answer: str) -> list[tuple[str, str]]:
    """The summary prompt."""
    return [("system", SYSTEM), ("human", USER.format(summary=summary or "(empty)", question=question, answer=answer))]


def parse(text: str, count_tokens: Callable[[Sequence[str]], list[int]]) -> str:
    """The summary; invalid when empty or longer than 350 tokens."""
    summary = text.strip()
    if not summary:
        raise ValueError("empty summary")
    tokens = count_tokens([summary])[0]
    if tokens > MAX_TOKENS:
        raise ValueError(f"summary has {tokens} tokens, more than {MAX_TOKENS}")
    return summary
