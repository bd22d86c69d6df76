"""Models of the knowledge layer: loaded documents, segments and search hits (SPEC section 4)."""

from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import Field

from core.contracts import Contract, EvidenceKind

DocumentCategory = Literal["long", "short", "data-heavy", "text-heavy"]
DEFAULT_COLLECTION = "default"


class SourceBlock(Contract):
    """A run of text of one section (and page) of a loaded document."""

    text: str
    section: str | None = None
    page: int | None = None


class LoadedDocument(Contract):
    """What a loader read from one file, before segmentation."""

    title: str
    blocks: list[SourceBlock]
    date: dt.date | None = None
    url: str | None = None
    media_type: str


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


class ToolHealth(Contract):
    """Whether a backend answers, and what it holds."""

    backend: str
    ok: bool
    detail: str
    documents: int = 0
    segments: int = 0
