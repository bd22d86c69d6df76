"""Clarification wording (seed 001's clarification prompt): say what was tried and ask for what would narrow it."""

from __future__ import annotations

SYSTEM = """Retrieval cannot proceed with the current scope (Reason: {reason}). Summarize what was tried and ask for targeted clarification.
Reply to the user directly in at most 4 sentences, ending with a question. Keep every choice, number and example phrase of the draft reply; do not add facts."""

USER = """User question: {question}
Attempts tried:
{attempts}
Draft reply:
{draft}"""

# Output budget (`max_tokens`): at most 4 sentences (MAX_CHARS).
OUTPUT_TOKENS = 400

MAX_CHARS = 1500


def messages(*, reason: str, question: str, attempts: list[str], draft: str) -> list[tuple[str, str]]:
    """The clarification prompt."""
    tried = "\n".join(f"- {a}" for a in attempts) or "- none (asked before searching)"
    return [
        ("system", SYSTEM.format(reason=reason)),
        ("human", USER.format(question=question, attempts=tried, draft=draft)),
    ]


def parse(text: str, required: list[str]) -> str:
    """The reworded question; invalid when it asks nothing, runs long, or drops a choice."""
    reply = text.strip()
    if "?" not in reply:
        raise ValueError("the reply asks no question")
    if len(reply) > MAX_CHARS:
        raise ValueError(f"the reply has {len(reply)} characters, more than {MAX_CHARS}")
    lowered = reply.casefold()
    dropped = [value for value in required if value.casefold() not in lowered]
    if dropped:
        raise ValueError("the reply drops the choices " + ", ".join(dropped))
    return reply
