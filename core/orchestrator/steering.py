"""Steering by name: a question that names a company, product or quarter reads the documents about it.

Documents that differ only by who and when (quarterly reports, yearly policies, per-customer
contracts) are the normal case. A name from the question steers retrieval when some document's
title carries it: the first pass then reads only those documents. Names no title carries steer
nothing, so topic words ("FOMC", "VAT") never narrow the search.
"""

from __future__ import annotations

import calendar
import datetime as dt
import re

from pydantic import Field

from core.contracts import Contract, SearchFilters
from core.orchestrator.support import mentions
from core.ports import Embeddings, SearchBackend
from core.text import STOPWORDS, words
from core.understanding import MONTHS, quarter_mentions, quarter_window, quarters

NAME_SEARCH_HITS = 50
_DAYS = {d.lower() for d in calendar.day_name}


class Name(Contract):
    """A name the question uses and the lower-cased ways a document may write it."""

    text: str
    variants: list[str]
    period: bool = False
    identifier: bool = False  # a product or code id ("K-450", "E04"): letters and digits together
    start: dt.date | None = None  # a period's first and last day
    end: dt.date | None = None

    def covers(self, date: dt.date | None) -> bool:
        """True when `date` falls in this period (a receipt dated in the quarter asked about)."""
        return date is not None and self.start is not None and self.end is not None and self.start <= date <= self.end


class Steering(Contract):
    """The names a question steers by and the documents whose titles carry them."""

    names: list[Name] = Field(default_factory=list)
    doc_ids: list[str] | None = None
    titled: list[str] = Field(default_factory=list)

    def required(self) -> list[Name]:
        """What cited evidence must mention: names some title carries, and every quarter named."""
        return [n for n in self.names if n.text in self.titled or n.period]


def names_in(question: str) -> list[Name]:
    """Proper names, product ids and quarters a question names."""
    found: list[Name] = []
    for quarter, year in quarters(question):
        start, end = quarter_window(quarter, year)
        found.append(
            Name(text=f"Q{quarter} {year}", variants=quarter_mentions(quarter, year), period=True, start=start, end=end)
        )
    tokens = words(question)
    run: list[str] = []
    for index, token in enumerate([*tokens, ""]):
        bare = re.sub(r"'s?$", "", token)
        lower = bare.lower()
        proper = (
            index > 0
            and bare[:1].isupper()
            and lower not in STOPWORDS
            and lower not in MONTHS
            and lower not in _DAYS
            and not re.fullmatch(r"q[1-4]", lower)
        )
        product = _is_product_id(lower)
        if proper and not product:
            run.append(bare)
            continue
        if run:
            phrase = " ".join(run)
            found.append(Name(text=phrase, variants=[phrase.lower()]))
            run = []
        if product:
            found.append(Name(text=bare, variants=[lower], identifier=True))
    unique: dict[str, Name] = {}
    for name in found:
        unique.setdefault(name.text.lower(), name)
    return list(unique.values())


def _is_product_id(word: str) -> bool:
    """Letters and digits together ("k-450", "e04"), but not a quarter ("q3")."""
    return bool(re.search(r"[a-z]", word)) and bool(re.search(r"\d", word)) and not re.fullmatch(r"q[1-4]", word)


async def steer(question: str, backend: SearchBackend, filters: SearchFilters, vector: Embeddings) -> Steering:
    """The documents whose titles carry the question's names (all of those names that any title carries)."""
    names = names_in(question)
    if not names:
        return Steering()
    per_name: dict[str, set[str]] = {}
    for name in names:
        hits = await backend.search_text(" ".join([name.text, *name.variants]), filters, NAME_SEARCH_HITS, vector)
        titled = {hit.segment.doc_id for hit in hits if mentions(hit.segment.title, name.variants)}
        if titled:
            per_name[name.text] = titled
    if not per_name:
        return Steering(names=names)
    periods = {n.text for n in names if n.period}
    entity_sets = [ids for text, ids in per_name.items() if text not in periods]
    period_sets = [ids for text, ids in per_name.items() if text in periods]
    # "Northwind or Contoso": no document carries both names, so either one's documents are read.
    entity_docs = (set.intersection(*entity_sets) or set.union(*entity_sets)) if entity_sets else set()
    doc_ids = entity_docs
    if period_sets:
        in_period = set.intersection(*period_sets)
        doc_ids = (entity_docs & in_period if entity_docs else in_period) or entity_docs
    return Steering(names=names, doc_ids=sorted(doc_ids) or None, titled=sorted(per_name))
