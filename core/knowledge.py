"""Models of the knowledge layer: loaded documents, segments and search hits (SPEC section 4)."""

from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import Field

from core.contracts import Contract, EvidenceKind

DocumentCategory = Literal["long", "short", "data-heavy", "text-heavy"]
VectorScope = Literal["segment", "summary"]
DEFAULT_COLLECTION = "default"


class SourceBlock(Contract):
    """A run of text of one section (and page) of a loaded document."""

    text: str
    section: str | None = None
    page: int | None = None


class SourceTable(Contract):
    """A table a loader found (a CSV file, a Markdown or HTML table, a DOCX table)."""

    columns: list[str]
    rows: list[list[str]]
    section: str | None = None
    page: int | None = None


class LoadedDocument(Contract):
    """What a loader read from one file, before segmentation."""

    title: str
    blocks: list[SourceBlock]
    tables: list[SourceTable] = Field(default_factory=list)
    date: dt.date | None = None
    url: str | None = None
    media_type: str


FacetSource = str
"""Where a facet was read: "file name", "metadata", "page 3", "text"."""

PeriodKind = Literal["quarter", "fiscal_year", "year", "years", "period_end"]


class EntityFacet(Contract):
    """A name the document is about, with its other forms (an acronym, a ticker, a short name)."""

    name: str
    aliases: list[str] = Field(default_factory=list)
    mentions: int = 0
    source: FacetSource
    aliases_from: list[FacetSource] = Field(default_factory=list)  # "file name" when the file is named by it

    def forms(self) -> list[str]:
        """The name and its aliases, lower-cased, longest first."""
        return sorted({f.lower() for f in [self.name, *self.aliases] if f.strip()}, key=len, reverse=True)


class PeriodFacet(Contract):
    """A period the document covers, in its own words ("Fiscal Year 2016", "2022 Q3").

    `start_year`..`end_year` is the span of years the label names; `quarter` is set for a quarter
    label; `end` is the last day a "period ended …" phrase states.
    """

    label: str
    kind: PeriodKind
    start_year: int
    end_year: int
    quarter: int | None = None
    end: dt.date | None = None
    source: FacetSource


class IdentifierFacet(Contract):
    """A code of letters and digits the document's cover names (a registration, a trial or model id)."""

    value: str
    source: FacetSource


class DocumentFacets(Contract):
    """What a document is, whom it is about and which period it covers, read from itself."""

    title: str
    kind: str | None = None
    kind_from: FacetSource | None = None
    """"index" when the collection's index gave the kind (`core.ingest.index`): a word no title or
    text of the document carries, which a question names to pick that kind ("per the minutes")."""
    entities: list[EntityFacet] = Field(default_factory=list)
    identifiers: list[IdentifierFacet] = Field(default_factory=list)
    periods: list[PeriodFacet] = Field(default_factory=list)
    abbreviations: dict[str, str] | None = None
    """The abbreviations its text defines, with their definitions ("IOER": "interest on excess
    reserves"); None for a document described before they were read."""
    reading: int | None = None
    """The version of the reading that described it (`core.ingest.pipeline.READING`); None for a
    document described before versions were kept."""


class DocumentRecord(Contract):
    """One ingested document as the registry and the search backends know it."""

    doc_id: str
    collection: str = DEFAULT_COLLECTION
    title: str
    source_path: str
    relative_path: str
    url: str | None = None
    date: dt.date | None = None
    category: DocumentCategory | None = None
    media_type: str
    content_hash: str
    segment_count: int = 0
    ingested_at: dt.datetime | None = None
    facets: DocumentFacets | None = None


class Segment(Contract):
    """A section-aware chunk, sized to the embedding model's sequence length."""

    chunk_id: str
    doc_id: str
    collection: str
    kind: EvidenceKind = "segment"
    position: int
    text: str
    title: str
    section: str | None = None
    page: int | None = None
    url: str | None = None
    date: dt.date | None = None

    span_start: int | None = None
    span_end: int | None = None

    def embedding_text(self) -> str:
        """The text that is embedded: the chunk with its title and section for context."""
        heading = " / ".join(part for part in (self.title, self.section) if part)
        return f"{heading}\n{self.text}" if heading else self.text


class SearchHit(Contract):
    """A segment a backend found, with its ranks in each leg and its cosine to the query."""

    segment: Segment
    bm25_rank: int | None = None
    vector_rank: int | None = None
    bm25_score: float | None = None
    rrf_score: float | None = None
    cosine: float = Field(ge=-1.0, le=1.0)


AnnotationKind = Literal["fact", "row"]
Operator = Literal["<", "<=", "=", ">=", ">"]
AggregateFunction = Literal["count", "sum", "min", "max", "avg"]


class Annotation(Contract):
    """A structured fact ("Width: 1,134 mm") or a table row, with provenance."""

    annotation_id: str
    doc_id: str
    collection: str
    kind: AnnotationKind
    label: str
    value: str
    value_num: float | None = None
    unit: str | None = None
    properties: dict[str, str] = Field(default_factory=dict)
    numbers: dict[str, float] = Field(default_factory=dict)
    units: dict[str, str] = Field(default_factory=dict)
    title: str
    section: str | None = None
    page: int | None = None
    chunk_id: str | None = None
    date: dt.date | None = None
    category: DocumentCategory | None = None


class NumericFilter(Contract):
    """A comparison on a fact's normalised value or a row's numeric property."""

    label: str | None = None
    operator: Operator = "="
    value: float
    unit: str | None = None


class AnnotationQuery(Contract):
    """What `annotations_search` matches: labels (lexical or by embedding), numbers, text."""

    labels: list[str] = Field(default_factory=list)
    numeric: list[NumericFilter] = Field(default_factory=list)
    contains: dict[str, str] = Field(default_factory=dict)
    text: list[str] = Field(default_factory=list)
    kind: AnnotationKind | None = None

    def label_terms(self) -> list[str]:
        """Every label the query names, in a fixed order (embedded once, matched by the backend)."""
        named = [*self.labels, *(f.label for f in self.numeric if f.label), *self.contains]
        return list(dict.fromkeys(named))


class AnnotationMatches(Contract):
    """Matching annotations, best first; `total` is exact even when `annotations` is a page."""

    annotations: list[Annotation]
    total: int
    matched_labels: list[str] = Field(default_factory=list)


class AggregateRow(Contract):
    """One group of an aggregate."""

    group: dict[str, str] = Field(default_factory=dict)
    value: float | None
    count: int


class CollectionStats(Contract):
    """What the planner knows of the readable collections."""

    documents: int
    categories: dict[str, int] = Field(default_factory=dict)
    annotated_documents: int = 0
    newest: dt.date | None = None  # the newest document date: where "latest" and "current" look
    oldest: dt.date | None = None  # the oldest document date: no document records an occasion before it

    @property
    def annotation_coverage(self) -> float:
        """Share of documents with at least one annotation."""
        return self.annotated_documents / self.documents if self.documents else 0.0


class ToolHealth(Contract):
    """Whether a backend answers, and what it holds."""

    backend: str
    ok: bool
    detail: str
    documents: int = 0
    segments: int = 0
