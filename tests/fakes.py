"""Deterministic fakes of the core's ports; each passes the same contract suite as the real thing."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import numpy as np

from adapters.annotations.matching import aggregate, match_query_labels, select
from adapters.annotations.units import UnitNormalizer
from core.contracts import SearchFilters
from core.fusion import boost_recent, reciprocal_rank_fusion
from core.knowledge import (
    AggregateFunction,
    AggregateRow,
    Annotation,
    AnnotationMatches,
    AnnotationQuery,
    CollectionStats,
    DocumentRecord,
    SearchHit,
    Segment,
    ToolHealth,
    VectorScope,
)
from core.ports import Embeddings
from core.text import STOPWORDS, normalize_label, stem, words

DIMENSION = 512


def _terms(text: str) -> list[str]:
    return [stem(w) for w in words(text) if w.lower() not in STOPWORDS]


COMMON_WORDS = frozenset(
    ["policy", "leave", "hotel", "limit", "travel", "price", "width", "weight", "report", "year", "rate", "pay"]
)


class HashingEmbedder:
    """Bag-of-words vectors hashed into 512 dimensions: similar words, similar vectors."""

    model_name = "fake-hashing"
    max_seq_length = 64

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        matrix = np.zeros((len(texts), DIMENSION), dtype=np.float32)
        for row, text in enumerate(texts):
            for term in _terms(text):
                slot = int(hashlib.md5(term.encode()).hexdigest()[:8], 16) % DIMENSION
                matrix[row, slot] += 1.0
        norms = np.linalg.norm(matrix, axis=1, keepdims=True)
        return matrix / np.where(norms == 0, 1.0, norms)

    async def embed(self, texts: Sequence[str]) -> np.ndarray:
        return self.encode(list(texts))

    async def similarity(self, query: str, texts: Sequence[str]) -> list[float]:
        vectors = self.encode([query, *texts])
        return [float(x) for x in vectors[1:] @ vectors[0]]

    async def similarities(self, queries: Sequence[str], texts: Sequence[str]) -> list[list[float]]:
        vectors = self.encode([*queries, *texts])
        return [[float(x) for x in vectors[len(queries) :] @ vectors[i]] for i in range(len(queries))]

    async def similarity_alone(self, query: str, texts: Sequence[str]) -> list[float]:
        return await self.similarity(query, texts)  # hashed vectors do not depend on batch-mates

    def count_tokens(self, texts: Sequence[str]) -> list[int]:
        return [len(t.split()) for t in texts]

    def known_words(self, words: Sequence[str]) -> set[str]:
        """A small English vocabulary: function words and a few common ones."""
        return {w for w in words if w.lower() in STOPWORDS or w.lower() in COMMON_WORDS}


def _passes(segment: Segment, filters: SearchFilters) -> bool:
    if filters.collections is not None and segment.collection not in filters.collections:
        return False
    if filters.date_start and (segment.date is None or segment.date < filters.date_start):
        return False
    return not (filters.date_end and (segment.date is None or segment.date > filters.date_end))


class InMemorySearchBackend:
    """Term-overlap "BM25" and exact cosine over a dict, fused with the core's RRF."""

    name = "in-memory"

    def __init__(self) -> None:
        self.segments: dict[str, Segment] = {}
        self.vectors: dict[str, np.ndarray] = {}
        self.categories: dict[str, str | None] = {}
        self.annotations: dict[str, list[Annotation]] = {}
        self.labels: dict[str, np.ndarray] = {}
        self.units = UnitNormalizer()
        self.fail_with: Exception | None = None

    async def upsert_document(
        self,
        document: DocumentRecord,
        segments: Sequence[Segment],
        embeddings: Embeddings,
        annotations: Sequence[Annotation] = (),
    ) -> None:
        await self.delete_document(document.doc_id)
        rows = np.asarray(embeddings.tolist(), dtype=np.float32).reshape(len(segments), -1) if segments else []
        for segment, row in zip(segments, rows, strict=True):
            self.segments[segment.chunk_id] = segment
            self.vectors[segment.chunk_id] = row
        self.categories[document.doc_id] = document.category
        self.annotations[document.doc_id] = list(annotations)

    async def refresh(self) -> None:
        """Writes are visible at once."""

    async def delete_document(self, doc_id: str) -> None:
        for chunk_id in [c for c, s in self.segments.items() if s.doc_id == doc_id]:
            del self.segments[chunk_id]
            del self.vectors[chunk_id]
        self.annotations.pop(doc_id, None)
        self.categories.pop(doc_id, None)

    async def known_labels(self) -> list[str]:
        return sorted(self.labels)

    async def upsert_labels(self, labels: Sequence[str], embeddings: Embeddings) -> None:
        for label, row in zip(labels, np.asarray(embeddings.tolist(), dtype=np.float32), strict=True):
            self.labels[normalize_label(label)] = row

    def _passes(self, segment: Segment, filters: SearchFilters, kind: str = "segment") -> bool:
        category = self.categories.get(segment.doc_id)
        return (
            segment.kind == kind
            and _passes(segment, filters)
            and (not filters.categories or category in filters.categories)
            and (filters.doc_ids is None or segment.doc_id in filters.doc_ids)
        )

    def _matching(
        self, query: AnnotationQuery, filters: SearchFilters, label_vectors: Embeddings | None
    ) -> tuple[list[Annotation], dict[str, set[str]]]:
        known = sorted(self.labels)
        matrix = np.stack([self.labels[k] for k in known]) if known else None
        vectors = np.asarray(label_vectors.tolist(), dtype=np.float32) if label_vectors is not None else None
        labels = match_query_labels(query, known, matrix, vectors)
        candidates = [
            a
            for doc_annotations in self.annotations.values()
            for a in doc_annotations
            if (filters.collections is None or a.collection in filters.collections)
            and (not filters.categories or a.category in filters.categories)
            and (filters.date_start is None or (a.date is not None and a.date >= filters.date_start))
            and (filters.date_end is None or (a.date is not None and a.date <= filters.date_end))
        ]
        return select(candidates, query, labels, self.units), labels

    async def annotations_search(
        self, query: AnnotationQuery, filters: SearchFilters, limit: int, label_vectors: Embeddings | None
    ) -> AnnotationMatches:
        matches, labels = self._matching(query, filters, label_vectors)
        ordered = sorted(matches, key=lambda a: a.date.toordinal() if a.date else 0, reverse=True)
        matched = sorted(set().union(*labels.values()))
        return AnnotationMatches(annotations=ordered[:limit], total=len(matches), matched_labels=matched)

    async def annotations_aggregate(
        self,
        query: AnnotationQuery,
        filters: SearchFilters,
        function: AggregateFunction,
        field: str | None,
        group_by: str | None,
        label_vectors: Embeddings | None,
    ) -> list[AggregateRow]:
        return aggregate(self._matching(query, filters, label_vectors)[0], function, field, group_by)

    async def stats(self, filters: SearchFilters) -> CollectionStats:
        docs = {s.doc_id for s in self.segments.values() if self._passes(s, filters)}
        categories: dict[str, int] = {}
        for doc in docs:
            name = self.categories.get(doc) or "unknown"
            categories[name] = categories.get(name, 0) + 1
        annotated = sum(1 for doc in docs if self.annotations.get(doc))
        dates = [s.date for s in self.segments.values() if s.date is not None and self._passes(s, filters)]
        return CollectionStats(
            documents=len(docs),
            categories=categories,
            annotated_documents=annotated,
            newest=max(dates, default=None),
            oldest=min(dates, default=None),
        )

    def _text_ranking(self, query: str, filters: SearchFilters, limit: int) -> list[str]:
        terms = set(_terms(query))
        scored = [
            (len(terms & set(_terms(s.title + " " + s.text))), chunk_id)
            for chunk_id, s in self.segments.items()
            if self._passes(s, filters)
        ]
        return [c for score, c in sorted(scored, key=lambda p: (-p[0], p[1])) if score > 0][:limit]

    def _vector_ranking(
        self, vector: np.ndarray, filters: SearchFilters, limit: int, kind: str = "segment"
    ) -> list[str]:
        scored = [
            (float(self.vectors[c] @ vector), c) for c, s in self.segments.items() if self._passes(s, filters, kind)
        ]
        return [c for _, c in sorted(scored, key=lambda p: (-p[0], p[1]))][:limit]

    def _hits(
        self, rankings: list[list[str]], vector: np.ndarray, limit: int, recency_boost: float = 0.0
    ) -> list[SearchHit]:
        if self.fail_with is not None:
            raise self.fail_with
        fused = reciprocal_rank_fusion(rankings)
        fused = boost_recent(fused, {c: self.segments[c].date for c in fused}, recency_boost)
        ranks = [{c: i for i, c in enumerate(r, start=1)} for r in rankings]
        return [
            SearchHit(
                segment=self.segments[c],
                bm25_rank=ranks[0].get(c) if len(ranks) > 1 else None,
                vector_rank=ranks[-1].get(c),
                rrf_score=score,
                cosine=max(-1.0, min(1.0, float(self.vectors[c] @ vector))),
            )
            for c, score in list(fused.items())[:limit]
        ]

    async def search_text(
        self, query: str, filters: SearchFilters, limit: int, query_vector: Embeddings
    ) -> list[SearchHit]:
        vector = np.asarray(query_vector.tolist(), dtype=np.float32).reshape(-1)
        return self._hits([self._text_ranking(query, filters, limit), []], vector, limit)

    async def search_vector(
        self, query_vector: Embeddings, filters: SearchFilters, limit: int, scope: VectorScope = "segment"
    ) -> list[SearchHit]:
        vector = np.asarray(query_vector.tolist(), dtype=np.float32).reshape(-1)
        return self._hits([self._vector_ranking(vector, filters, limit, scope)], vector, limit)

    async def search_hybrid(
        self,
        query: str,
        query_vector: Embeddings,
        filters: SearchFilters,
        limit: int,
        recency_boost: float = 0.0,
    ) -> list[SearchHit]:
        vector = np.asarray(query_vector.tolist(), dtype=np.float32).reshape(-1)
        rankings = [self._text_ranking(query, filters, limit), self._vector_ranking(vector, filters, limit)]
        return self._hits(rankings, vector, limit, recency_boost)

    async def segments_at(self, places: Sequence[tuple[str, int]]) -> list[Segment]:
        wanted = set(places)
        return [s for s in self.segments.values() if s.kind == "segment" and (s.doc_id, s.position) in wanted]

    async def health(self) -> ToolHealth:
        docs = {s.doc_id for s in self.segments.values() if s.kind == "segment"}
        return ToolHealth(
            backend=self.name,
            ok=True,
            detail="dict",
            documents=len(docs),
            segments=sum(1 for s in self.segments.values() if s.kind == "segment"),
        )

    async def close(self) -> None:
        return None


# The storage fakes live in their own module; imported here so `tests.fakes` offers every fake.
from tests.storage_fakes import (  # noqa: E402
    InMemoryChannels,
    InMemoryConversations,
    InMemoryDecisions,
    InMemoryLedger,
    InMemoryRegistry,
    InMemoryResultSets,
    fake_turn_service,
)

__all__ = [
    "HashingEmbedder",
    "InMemoryChannels",
    "InMemoryConversations",
    "InMemoryDecisions",
    "InMemoryLedger",
    "InMemoryRegistry",
    "InMemoryResultSets",
    "InMemorySearchBackend",
    "fake_turn_service",
]
