"""Recovery by reformulation: a better search query and a hypothetical passage (HyDE) to search by meaning."""

from __future__ import annotations

from pydantic import BaseModel, Field

from core.prompts.common import json_object

SYSTEM = """You rewrite search queries for a document search over an organisation's documents. The first searches found little.
Write one better keyword query (synonyms, the terms such documents use, no filler words), and a short hypothetical passage (2-3 sentences) as it might appear in a document that answers the question. Do not invent names or numbers that are not in the question.
Respond with JSON only: {"query": "...", "passage": "..."}"""

USER = """Question: {question}
Queries already searched: {tried}"""

# Output budget (`max_tokens`): a JSON query and a 2-3 sentence passage.
OUTPUT_TOKENS = 200


class Reformulation(BaseModel):
    """The model's new query and hypothetical passage."""

    query: str = Field(min_length=2, max_length=300)
    passage: str = Field(default="", max_length=1500)


def messages(*, question: str, tried: list[str]) -> list[tuple[str, str]]:
    """The reformulation prompt."""
    return [("system", SYSTEM), ("human", USER.format(question=question, tried="; ".join(tried) or "none"))]


def parse(text: str, tried: list[str]) -> Reformulation:
    """A query that was not searched already."""
    found = Reformulation.model_validate(json_object(text))
    query = " ".join(found.query.split())
    if query.casefold() in {t.casefold() for t in tried}:
        raise ValueError("the query was already searched")
    return found.model_copy(update={"query": query, "passage": " ".join(found.passage.split())})
