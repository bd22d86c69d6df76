"""Names a question uses that no document in reach writes: the documents know nothing of them.

General case: a question about a subject the collection does not have ("Quince's gross margin"
beside Orchard's and Bramble's filings, a drug no protocol names) is answered from the documents
of another subject unless the name is checked. `core.orchestrator.steering` asks this of the
question's names that resolved no facet, whether or not others did.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Protocol

from core.contracts import SearchFilters
from core.orchestrator.support import found_terms
from core.ports import Embeddings, SearchBackend

UNKNOWN_SEARCH_HITS = 20
"""Passages read to tell whether the collection writes a word: a word no passage has gets no lexical hit."""
# A proper name's word: a capital, then lower case ("Quince", "McDonald", "Wi-Fi"); not an acronym
# ("QE", "FFR": jargon the documents spell out) nor a code ("T-bill").
_PROPER_WORD = re.compile(r"[A-Z][a-z][A-Za-z'’-]*")


class AskedName(Protocol):
    """A name the question uses (`steering.Name`)."""

    text: str
    period: bool
    identifier: bool


async def unknown_names(
    names: Sequence[AskedName],
    backend: SearchBackend,
    filters: SearchFilters,
    vector: Embeddings,
    common: Callable[[Sequence[str]], set[str]] | None = None,
) -> list[str]:
    """The question's proper names whose leading word no passage in reach writes (by stem).

    A name is led by its distinctive word ("Quince Inc.", "Eccles Building"). Acronyms and codes are
    not judged so: questions use jargon ("QE", "T-bill") that the documents spell out; nor are
    `common` words (the embedding model's vocabulary), which a question capitalises as a title
    ("what does the Handbook say") where the documents call themselves something else."""
    unknown: list[str] = []
    for name in names:
        lead = (name.text.split() or [""])[0]
        if name.period or name.identifier or _PROPER_WORD.fullmatch(lead) is None:
            continue
        if common is not None and common([lead]):
            continue
        hits = await backend.search_text(lead.replace("-", " "), filters, UNKNOWN_SEARCH_HITS, vector)
        if not any(_written(lead, f"{h.segment.title} {h.segment.text}") for h in hits):
            unknown.append(name.text)
    return unknown


def _written(lead: str, text: str) -> bool:
    """True when `text` writes the word, or each part of a word joined by hyphens: "State-USAID" is
    written where a plan names "State" and "USAID" (general case: a compound made of two names)."""
    parts = [p.lower() for p in lead.split("-") if p]
    return bool(found_terms([lead.lower()], text)) or (len(parts) > 1 and len(found_terms(parts, text)) == len(parts))


def no_document_mentions(unknown: list[str]) -> str:
    """What the reply says of names no document writes."""
    return f"none of the documents I can read mentions {' or '.join(unknown)}"
