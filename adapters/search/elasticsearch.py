"""The Elasticsearch backend (client 8.x; works against 8.x and 9.x servers).

Aliases over versioned indices (`reindex` swaps with no downtime). BM25 (over `terms`, analysed as
the embedded backend's) and kNN run with the same filters, fused by RRF in the client, or by the
node's `rrf` retriever when `rrf_retriever=True` (a licensed feature). Only server-core APIs are
needed, so a minimal node works: no `_delete_by_query` (a document's entries are deleted by id), no
`_reindex` needed (scan and bulk copy). Ingestion refreshes once per run, not per write.
"""

from __future__ import annotations

import datetime as dt
import functools
import logging
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import replace
from typing import Any, ParamSpec, TypeVar

import numpy as np
from elasticsearch import ApiError, AsyncElasticsearch, ConnectionTimeout, NotFoundError, TransportError
from elasticsearch import ConnectionError as ClusterUnreachableError
from elasticsearch.exceptions import HTTP_EXCEPTIONS
from elasticsearch.helpers import async_bulk, async_scan

from adapters.annotations.matching import aggregate, match_query_labels, select
from adapters.annotations.units import UnitNormalizer
from adapters.search import elasticsearch_bodies as bodies
from adapters.search.elasticsearch_indices import IndexLifecycle
from adapters.search.embedded import as_matrix
from core.contracts import SearchFilters
from core.errors import SearchUnavailableError
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
from core.text import normalize_label

MAX_ANNOTATIONS = 10_000
log = logging.getLogger(__name__)


P = ParamSpec("P")
R = TypeVar("R")


def _reachable(method: Callable[P, Coroutine[Any, Any, R]]) -> Callable[P, Coroutine[Any, Any, R]]:
    """A cluster that cannot be reached is `SearchUnavailableError`: the core tells the person so."""

    @functools.wraps(method)
    async def call(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return await method(*args, **kwargs)
        except (ClusterUnreachableError, ConnectionTimeout) as exc:
            raise SearchUnavailableError(f"Elasticsearch is unreachable: {exc}") from exc

    return call


class ElasticsearchBackend(IndexLifecycle):
    """Segments, summaries, annotations and label embeddings in three aliased indices."""

    name = "elasticsearch"

    def __init__(
        self,
        *,
        client: AsyncElasticsearch,
        dimension: int,
        prefix: str = "threadwise",
        rrf_retriever: bool = False,
        replicas: int = 1,
        vector_index: str = "int8_hnsw",
    ) -> None:
        self.client = client
        self._vector_index = vector_index
        self._dimension = dimension
        self._rrf_retriever = rrf_retriever
        self._settings = {"number_of_replicas": replicas}
        self.prefix = prefix
        self._units = UnitNormalizer()
        self.segments = f"{prefix}-segments"
        self.annotations = f"{prefix}-annotations"
        self.labels = f"{prefix}-labels"

    def _mappings(self) -> dict[str, dict[str, Any]]:
        return {
            self.segments: bodies.segment_mappings(self._dimension, self._vector_index),
            self.annotations: bodies.annotation_mappings(),
            self.labels: bodies.label_mappings(self._dimension),
        }

    @_reachable
    async def upsert_document(
        self,
        document: DocumentRecord,
        segments: Sequence[Segment],
        embeddings: Embeddings,
        annotations: Sequence[Annotation] = (),
    ) -> None:
        """Replace a document: delete its old entries, then bulk-index (retrying 429s with back-off);
        searches see it after `refresh()`."""
        await self.delete_document(document.doc_id)
        matrix = as_matrix(embeddings) if segments else np.zeros((0, self._dimension), np.float32)
        actions: list[dict[str, Any]] = [
            {
                "_index": self.segments,
                "_id": s.chunk_id,
                "_source": {
                    **s.model_dump(mode="json", exclude={"date"}),
                    "category": document.category,
                    "date": s.date.isoformat() if s.date else None,
                    "terms": bodies.segment_terms(s.title, s.section, s.text),
                    "vector": bodies.packed(matrix[i]),
                    "embedding": matrix[i].tolist(),
                },
            }
            for i, s in enumerate(segments)
        ]
        actions += [
            {
                "_index": self.annotations,
                "_id": a.annotation_id,
                "_source": {
                    "annotation_id": a.annotation_id,
                    "doc_id": a.doc_id,
                    "collection": a.collection,
                    "category": a.category,
                    "kind": a.kind,
                    "label": a.label,
                    "value_num": a.value_num,
                    "unit": a.unit,
                    "date": a.date.isoformat() if a.date else None,
                    "body": a.model_dump(mode="json"),
                },
            }
            for a in annotations
        ]
        await async_bulk(self.client, actions, max_retries=5, initial_backoff=1)

    @_reachable
    async def delete_document(self, doc_id: str) -> None:
        """Remove a document's segments, summaries and annotations, by the ids of what was refreshed."""
        actions: list[dict[str, Any]] = []
        for index in (self.segments, self.annotations):
            query = {"query": {"term": {"doc_id": doc_id}}, "_source": False}
            async for hit in async_scan(self.client, index=index, query=query, size=1000):
                actions.append({"_op_type": "delete", "_index": hit["_index"], "_id": hit["_id"]})
        if actions:
            await async_bulk(self.client, actions, max_retries=5, initial_backoff=1, ignore_status=404)

    @_reachable
    async def refresh(self) -> None:
        """Make every write so far visible to searches (one refresh of the three indices)."""
        await self.client.indices.refresh(index=[self.segments, self.annotations, self.labels])

    @_reachable
    async def known_labels(self) -> list[str]:
        """Labels that have an embedding."""
        found = await self.client.search(index=self.labels, size=MAX_ANNOTATIONS, source_includes=["label"])
        return sorted(hit["_source"]["label"] for hit in found["hits"]["hits"])

    @_reachable
    async def upsert_labels(self, labels: Sequence[str], embeddings: Embeddings) -> None:
        """Store label embeddings."""
        matrix = as_matrix(embeddings)
        actions = [
            {
                "_index": self.labels,
                "_id": normalize_label(label),
                "_source": {"label": normalize_label(label), "embedding": matrix[i].tolist()},
            }
            for i, label in enumerate(labels)
        ]
        await async_bulk(self.client, actions, max_retries=5, initial_backoff=1)

    @_reachable
    async def search_text(
        self, query: str, filters: SearchFilters, limit: int, query_vector: Embeddings
    ) -> list[SearchHit]:
        """BM25 over title, section and text."""
        vector = as_matrix(query_vector).reshape(-1)
        found = await self.client.search(index=self.segments, body=bodies.bm25_body(query, filters, limit))
        return self._hits([_ids(found)], _sources(found), vector, limit, bm25=found)

    @_reachable
    async def search_vector(
        self, query_vector: Embeddings, filters: SearchFilters, limit: int, scope: VectorScope = "segment"
    ) -> list[SearchHit]:
        """kNN over segment or summary embeddings."""
        vector = as_matrix(query_vector).reshape(-1)
        found = await self.client.search(
            index=self.segments, body=bodies.knn_body(vector.tolist(), filters, limit, scope)
        )
        return self._hits([[], _ids(found)], _sources(found), vector, limit)

    @_reachable
    async def search_hybrid(
        self,
        query: str,
        query_vector: Embeddings,
        filters: SearchFilters,
        limit: int,
        recency_boost: float = 0.0,
    ) -> list[SearchHit]:
        """BM25 and kNN with the same filters in one `_msearch` (the node runs them side by side),
        fused by RRF (k = 60) in the client."""
        vector = as_matrix(query_vector).reshape(-1)
        if self._rrf_retriever:
            found = await self.client.search(
                index=self.segments, body=bodies.rrf_retriever_body(query, vector.tolist(), filters, limit)
            )
            return self._hits([_ids(found)], _sources(found), vector, limit)
        text, dense = await self._msearch(
            bodies.bm25_body(query, filters, limit), bodies.knn_body(vector.tolist(), filters, limit)
        )
        sources = {**_sources(text), **_sources(dense)}
        return self._hits([_ids(text), _ids(dense)], sources, vector, limit, bm25=text, boost=recency_boost)

    async def _msearch(self, *searches: dict[str, Any]) -> list[Any]:
        """Several searches of the segments in one request; a search that failed raises, as alone."""
        found = await self.client.msearch(index=self.segments, searches=[p for body in searches for p in ({}, body)])
        for answer in found["responses"]:
            if "error" in answer:
                status = int(answer.get("status", 500))
                kind = HTTP_EXCEPTIONS.get(status, ApiError)
                raise kind(message=str(answer["error"]), meta=replace(found.meta, status=status), body=answer)
        return list(found["responses"])

    def _hits(
        self,
        rankings: list[list[str]],
        sources: dict[str, dict[str, Any]],
        vector: np.ndarray,
        limit: int,
        bm25: Any = None,
        boost: float = 0.0,
    ) -> list[SearchHit]:
        fused = reciprocal_rank_fusion(rankings)
        segments = {key: _segment(source) for key, source in sources.items()}
        if boost:
            fused = boost_recent(fused, {k: s.date for k, s in segments.items()}, boost)
        ranks = [{key: rank for rank, key in enumerate(r, start=1)} for r in rankings]
        scores = {hit["_id"]: float(hit["_score"] or 0.0) for hit in (bm25 or {}).get("hits", {}).get("hits", [])}
        hits = []
        for key, score in list(fused.items())[:limit]:
            stored = bodies.source_vector(sources[key])
            cosine = float(stored @ vector / ((np.linalg.norm(stored) * np.linalg.norm(vector)) or 1.0))
            hits.append(
                SearchHit(
                    segment=segments[key],
                    bm25_rank=ranks[0].get(key) if bm25 is not None else None,
                    vector_rank=ranks[-1].get(key) if len(ranks) > 1 or bm25 is None else None,
                    bm25_score=scores.get(key),
                    rrf_score=round(score, 6),
                    cosine=max(-1.0, min(1.0, cosine)),
                )
            )
        return hits

    async def _annotations(
        self, query: AnnotationQuery, filters: SearchFilters, label_vectors: Embeddings | None
    ) -> tuple[list[Annotation], dict[str, set[str]]]:
        """The matching annotations, and for each label the query names, the stored labels it matched."""
        found = await self.client.search(index=self.annotations, body=bodies.annotations_body(filters, MAX_ANNOTATIONS))
        candidates = [Annotation.model_validate(hit["_source"]["body"]) for hit in found["hits"]["hits"]]
        labels_found = await self.client.search(
            index=self.labels, size=MAX_ANNOTATIONS, source_includes=["label", "embedding"]
        )
        known = [hit["_source"]["label"] for hit in labels_found["hits"]["hits"]]
        matrix = (
            np.asarray([hit["_source"]["embedding"] for hit in labels_found["hits"]["hits"]], dtype=np.float32)
            if known
            else None
        )
        vectors = as_matrix(label_vectors) if label_vectors is not None and len(label_vectors) else None
        labels = match_query_labels(query, known, matrix, vectors)
        return select(candidates, query, labels, self._units), labels

    @_reachable
    async def annotations_search(
        self, query: AnnotationQuery, filters: SearchFilters, limit: int, label_vectors: Embeddings | None
    ) -> AnnotationMatches:
        """Matching facts and rows; the total is exact."""
        matches, labels = await self._annotations(query, filters, label_vectors)
        ordered = sorted(matches, key=lambda a: a.date.toordinal() if a.date else 0, reverse=True)
        # The planner weighs how much of the question the matched labels cover (as on embedded).
        return AnnotationMatches(
            annotations=ordered[:limit], total=len(matches), matched_labels=sorted(set().union(*labels.values()))
        )

    @_reachable
    async def annotations_aggregate(
        self,
        query: AnnotationQuery,
        filters: SearchFilters,
        function: AggregateFunction,
        field: str | None,
        group_by: str | None,
        label_vectors: Embeddings | None,
    ) -> list[AggregateRow]:
        """An exact aggregate over every matching annotation."""
        matches, _ = await self._annotations(query, filters, label_vectors)
        return aggregate(matches, function, field, group_by)

    @_reachable
    async def stats(self, filters: SearchFilters) -> CollectionStats:
        """Documents per category and annotated documents."""
        found = await self.client.search(index=self.segments, body=bodies.stats_body(filters))
        buckets = found["aggregations"]["categories"]["buckets"]
        annotated = await self.client.search(index=self.annotations, body=bodies.annotated_documents_body(filters))
        # A max over no dated document is null; with a `format`, Elasticsearch adds `value_as_string`.
        newest = found["aggregations"].get("newest") or {}
        oldest = found["aggregations"].get("oldest") or {}
        return CollectionStats(
            documents=int(found["aggregations"]["documents"]["value"]),
            categories={b["key"]: int(b["documents"]["value"]) for b in buckets},
            annotated_documents=int(annotated["aggregations"]["documents"]["value"]),
            newest=dt.date.fromisoformat(newest["value_as_string"][:10]) if newest.get("value_as_string") else None,
            oldest=dt.date.fromisoformat(oldest["value_as_string"][:10]) if oldest.get("value_as_string") else None,
        )

    @_reachable
    async def segments_at(self, places: Sequence[tuple[str, int]]) -> list[Segment]:
        """The segments at these (document, position) places: one bool query of term pairs."""
        if not places:
            return []
        wanted = [
            {"bool": {"filter": [{"term": {"doc_id": doc}}, {"term": {"position": position}}]}}
            for doc, position in places
        ]
        query = {"bool": {"filter": [{"term": {"kind": "segment"}}], "should": wanted, "minimum_should_match": 1}}
        found = await self.client.search(
            index=self.segments, query=query, size=len(places), source_excludes=["vector", "embedding", "terms"]
        )
        return [_segment(hit["_source"]) for hit in found["hits"]["hits"]]

    async def health(self) -> ToolHealth:
        """Cluster status and counts."""
        try:
            cluster = await self.client.cluster.health()
            stats = await self.stats(SearchFilters())
            count = await self.client.count(index=self.segments, query={"term": {"kind": "segment"}})
        except (NotFoundError, TransportError, ConnectionError) as exc:  # a cluster that is down is unhealthy
            return ToolHealth(backend=self.name, ok=False, detail=str(exc))
        return ToolHealth(
            backend=self.name,
            ok=cluster["status"] in ("green", "yellow"),
            detail=f"cluster {cluster['status']}",
            documents=stats.documents,
            segments=int(count["count"]),
        )

    async def close(self) -> None:
        """Close the client's connections."""
        await self.client.close()


def _ids(found: Any) -> list[str]:
    return [hit["_id"] for hit in found["hits"]["hits"]]


def _sources(found: Any) -> dict[str, dict[str, Any]]:
    return {hit["_id"]: hit["_source"] for hit in found["hits"]["hits"]}


def _segment(source: dict[str, Any]) -> Segment:
    fields = {k: v for k, v in source.items() if k in Segment.model_fields}
    return Segment.model_validate(fields)
