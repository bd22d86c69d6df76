"""People the documents name with their role, as evidence for questions asking for a person.

General case: "Who is the HHS Secretary?" or "Which director signed the report?" is answered by a
"Name: Role" fact (a stakeholder list, a signature line "Gina Raimondo : U.S. Secretary of
Commerce") that text search ranks low: a few words among pages that mention the role. A fact
answers when its label is a person's name and its value, a short role, carries a word of the
question beyond the names the documents resolved (the role asked for, not the agency). It then
competes with the passages on relevance to the question like any evidence."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from core.contracts import Evidence
from core.knowledge import Annotation
from core.orchestrator.support import content_terms, found_terms
from core.text import snippet, words

MAX_ROLE_WORDS = 8
_NAME_WORD = r"(?:[A-Z][a-z]+(?:[A-Z][a-z]+)?|[A-Z]{2,})"  # Becerra, McAleenan, WALSH
_PERSON_NAME = re.compile(rf"{_NAME_WORD}(?:\s+[A-Z]\.)*\s+{_NAME_WORD}")  # Xavier Becerra, Antony J. Blinken


def role_terms(question: str, resolved: Iterable[str]) -> list[str]:
    """The question's content words less those of the names the documents resolved ("OPM → 9
    documents"): the role it asks for ("director"), not the organisation or the period."""
    named = {w.lower() for r in resolved for w in words(r.split(" → ", 1)[0])}
    return [t for t in content_terms(question) if t not in named]


def is_person(label: str) -> bool:
    """True when a fact's label is a person's name ("Xavier Becerra", "Antony J. Blinken")."""
    return _PERSON_NAME.fullmatch(label.strip()) is not None


def holding_roles(annotations: Iterable[Annotation], roles: list[str]) -> list[Annotation]:
    """The facts that name a person (the label) in one of the roles asked for (the value)."""
    return [
        a
        for a in annotations
        if a.kind == "fact"
        and a.chunk_id is not None
        and is_person(a.label)
        and len(a.value.split()) <= MAX_ROLE_WORDS
        and found_terms(roles, a.value)
    ]


def as_evidence(facts: Sequence[Annotation], round_id: int, query: str, known: set[str]) -> list[Evidence]:
    """Each fact as a passage of its own segment ("Xavier Becerra: Secretary, …"), once per segment
    and only for segments not already in the evidence (`known`); relevance is measured later."""
    out: dict[str, Evidence] = {}
    for fact in facts:
        assert fact.chunk_id is not None
        if fact.chunk_id in known or fact.chunk_id in out:
            continue
        text = f"{fact.label}: {fact.value}"
        out[fact.chunk_id] = Evidence(
            doc_id=fact.doc_id,
            chunk_id=fact.chunk_id,
            kind="fact",
            text=text,
            snippet=snippet(text),
            title=fact.title,
            section=fact.section,
            page=fact.page,
            date=fact.date,
            collection=fact.collection,
            round_id=round_id,
            query=query,
            mode="hybrid",
            relevance=0.0,
        )
    return list(out.values())
