"""From a question to an annotation query: labels, values, numbers, aggregates (seed 001 §4)."""

from __future__ import annotations

import re

from pydantic import Field

from core.contracts import Contract, IntakeResult, SearchFilters
from core.knowledge import AggregateFunction, AnnotationKind, AnnotationQuery, NumericFilter
from core.orchestrator.support import content_terms
from core.ports import Embedder, SearchBackend
from core.text import STOPWORDS, normalize_label, stem
from core.understanding import is_date_word, usual_field
from core.understanding.periods import occasions

_AGGREGATES: list[tuple[re.Pattern[str], AggregateFunction]] = [
    (re.compile(r"\bhow many\b|\bnumber of\b|\bcount\b", re.I), "count"),
    (re.compile(r"\b(average|mean)\b", re.I), "avg"),
    (re.compile(r"\b(total|sum|spend|spent|altogether|in all)\b", re.I), "sum"),
    (re.compile(r"\b(cheapest|lowest|minimum|smallest|lightest|narrowest)\b", re.I), "min"),
    (re.compile(r"\b(most expensive|highest|maximum|largest|heaviest|widest)\b", re.I), "max"),
]
_GROUP = re.compile(r"\b(?:per|by|each)\s+([a-z_]+)\b|\b(yearly|annually)\b", re.I)
_MONEY_LABELS = ("total", "amount", "price", "cost")
ABBREVIATION = 4
# Adjectives and verbs that name a field: "how heavy" asks for the weight.
_FIELD_WORDS = {
    "heavy": "weight",
    "weigh": "weight",
    "weighs": "weight",
    "wide": "width",
    "tall": "height",
    "high": "height",
    "deep": "depth",
    "thick": "depth",
    "powerful": "power",
    "efficient": "efficiency",
    "long": "length",
}


class StructuredQuery(Contract):
    """An annotation query and, for "how many / total / average" questions, its aggregate."""

    query: AnnotationQuery
    function: AggregateFunction | None = None
    field: str | None = None
    group_by: str | None = None
    notes: list[str] = Field(default_factory=list)
    named_fields: list[str] = Field(default_factory=list)
    unmatched: list[str] = Field(default_factory=list)

    def coverage(self, question: str) -> float:
        """The share of the question's content words this query understood (as a field, value or number)."""
        terms = content_terms(question)
        if not terms:
            return 1.0
        missed = {stem(t) for t in self.unmatched}
        return sum(stem(t) not in missed for t in terms) / len(terms)


class StructuredPlanner:
    """Classifies the question's words against what the annotations hold, with cheap probes."""

    def __init__(self, *, backend: SearchBackend, embedder: Embedder) -> None:
        self._backend = backend
        self._embedder = embedder

    async def count(self, query: AnnotationQuery, filters: SearchFilters) -> int:
        """How many annotations match `query` (a probe; nothing is fetched)."""
        return (await self._count(query, filters))[0]

    async def _count(self, query: AnnotationQuery, filters: SearchFilters) -> tuple[int, list[str]]:
        terms = query.label_terms()
        vectors = await self._embedder.embed(terms) if terms else None
        found = await self._backend.annotations_search(query, filters, 0, vectors)
        return found.total, found.matched_labels

    async def build(self, intake: IntakeResult, filters: SearchFilters) -> StructuredQuery:
        """Labels (named fields), text terms (values), numeric filters and an aggregate."""
        labels: list[str] = []
        text: list[str] = []
        notes: list[str] = []
        unmatched: list[str] = []
        constraint_words = {w.lower() for n in intake.signals.numbers for w in re.findall(r"[\w$€£%]+", n.text)}
        occasion = occasions(intake.normalized_query)
        for word in intake.signals.key_terms:
            if word in occasion:
                # "At the June 2004 meeting" names which documents, not a field or value asked for
                # (general case: a table with a "meeting_date" column is no answer to it).
                notes.append(f"“{word}” is the occasion the date names, not a field")
                unmatched.append(word)
                continue
            term = _FIELD_WORDS.get(word, word)
            # Dates belong to the date window, not to field values ("the December 2007 meeting").
            if (
                is_date_word(term)
                or (term.isdigit() and len(term) == 4)
                or term in STOPWORDS
                or word in constraint_words
            ):
                continue
            _, matched = await self._count(AnnotationQuery(labels=[term]), filters)
            lexical = any(_lexically(term, label) for label in matched)
            values, _ = await self._count(AnnotationQuery(text=[term]), filters)
            if lexical:
                labels.append(term)
            elif values:
                text.append(term)
            elif matched and len(term) <= ABBREVIATION and not self._embedder.known_words([term]):
                labels.append(term)  # "qty": an abbreviation (no word of its own) matched by meaning
            else:
                notes.append(f"“{term}” matches no field or value")
                unmatched.append(word)
        numeric = [await self._numeric(n.label, n.operator, n.value, n.unit, filters) for n in intake.signals.numbers]
        numeric_labels = {normalize_label(f.label) for f in numeric if f.label}
        labels = [label for label in labels if normalize_label(label) not in numeric_labels]
        function, group_by = aggregate_of(intake.normalized_query)
        if group_by and group_by != "year" and not await self._is_field(group_by, filters):
            notes.append(f"“{group_by}” is no field to group by")
            group_by = None
        aggregate_field = None
        if function and function != "count":
            numeric_labels_found = [label for label in labels if await self._has_numbers(label, filters)]
            aggregate_field = numeric_labels_found[0] if numeric_labels_found else await self._money_field(filters)
        named_fields = list(labels)
        # An aggregate counts rows; naming fields only narrows them to rows that have the field.
        query = AnnotationQuery(
            labels=[] if function else labels, numeric=numeric, text=text, kind=counted_kind(function)
        )
        return StructuredQuery(
            query=query,
            function=function,
            field=aggregate_field,
            group_by=group_by,
            notes=notes,
            named_fields=named_fields + [n.label for n in numeric if n.label],
            unmatched=unmatched,
        )

    async def _numeric(
        self, label: str | None, operator: str, value: float, unit: str | None, filters: SearchFilters
    ) -> NumericFilter:
        """A numeric filter on the named field if it has such numbers; else the unit's usual field."""
        candidates = [label, usual_field(unit), None]
        for candidate in dict.fromkeys(candidates):
            wanted = NumericFilter(label=candidate, operator=operator, value=value, unit=unit)
            if candidate is None or (await self._count(AnnotationQuery(numeric=[wanted]), filters))[0]:
                return wanted
        return NumericFilter(label=label, operator=operator, value=value, unit=unit)

    async def _is_field(self, word: str, filters: SearchFilters) -> bool:
        """True when `word` is one of the annotations' field labels ("per depot"), not any word
        that follows "per" or "by" ("per its strategic plan")."""
        _, matched = await self._count(AnnotationQuery(labels=[word]), filters)
        return any(_lexically(word, label) for label in matched)

    async def _has_numbers(self, label: str, filters: SearchFilters) -> bool:
        anything = NumericFilter(label=label, operator=">=", value=-1e18)
        return (await self._count(AnnotationQuery(numeric=[anything]), filters))[0] > 0

    async def _money_field(self, filters: SearchFilters) -> str | None:
        for candidate in _MONEY_LABELS:
            _, matched = await self._count(AnnotationQuery(labels=[candidate]), filters)
            if any(_lexically(candidate, label) for label in matched):
                return candidate
        return None


def _lexically(term: str, label: str) -> bool:
    """The term is one of the label's words ("weight" in "weight kg"), not just letters inside one."""
    target = normalize_label(term)
    return target == label or stem(target) in {stem(word) for word in label.split()}


def counted_kind(function: AggregateFunction | None) -> AnnotationKind | None:
    """What a count counts: records (a table's rows), never facts.

    General case: facts are a text's "label: value" lines, so counting those that mention a word
    counts sentences — "how many employees does the agency have" is not the number of lines that
    say "employees", but a figure the text states. "How many tire receipts" counts the rows of a
    receipts table.
    """
    return "row" if function == "count" else None


def aggregate_of(text: str) -> tuple[AggregateFunction | None, str | None]:
    """The aggregate a question asks for ("how many" → count, "total" → sum) and its grouping."""
    function = next((f for pattern, f in _AGGREGATES if pattern.search(text)), None)
    group = _GROUP.search(text)
    group_by = None
    if group:
        group_by = "year" if group.group(2) else group.group(1).lower()
    return function, group_by
