"""Answer synthesis (seed 001's answer prompt): evidence only, every statement cited as `[n]`."""

from __future__ import annotations

import re

from core.contracts import Evidence
from core.prompts.common import source_block

SYSTEM = """You must answer only with the evidence provided below. Cite every statement with the number of its source in square brackets, like [1] or [2][3]. Never cite a number that is not listed.
If the evidence is insufficient, say so and say what is missing.
Output: 2-4 concise sentences or a short bullet list. Do not add a list of sources; it is added for you."""

USER = """Sources:
{sources}

Question: {question}"""

# Output budget (`max_tokens`): a few cited paragraphs (a longer answer continues, at most twice).
OUTPUT_TOKENS = 700

MARK = re.compile(r"\[(\d+)\]")
TRAILING_SOURCES = re.compile(r"\n+\s*(?:\*\*)?sources?(?:\*\*)?:?\s*\n.*\Z", re.IGNORECASE | re.DOTALL)


def messages(*, question: str, evidence: list[Evidence]) -> list[tuple[str, str]]:
    """The answer prompt over numbered evidence."""
    return [("system", SYSTEM), ("human", USER.format(sources=source_block(evidence), question=question))]


def parse(text: str, sources: int) -> str:
    """The answer text; invalid when it cites none of the `sources` given (unknown markers stay for validation)."""
    answer = TRAILING_SOURCES.sub("", text).strip()
    if not answer:
        raise ValueError("empty answer")
    cited = {int(n) for n in MARK.findall(answer)}
    if not cited & set(range(1, sources + 1)):
        raise ValueError(f"no valid citation (cited {sorted(cited) or 'nothing'} of {sources} sources)")
    return answer


def cites_validly(text: str, sources: int) -> bool:
    """A partial answer worth continuing: it cites, and only the `sources` given."""
    cited = {int(n) for n in MARK.findall(text)}
    return bool(cited) and cited <= set(range(1, sources + 1))
