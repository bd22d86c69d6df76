"""Request bodies of the Elasticsearch backend, as pure functions (pinned by golden tests)."""

from __future__ import annotations

import base64
from typing import Any

import numpy as np
from elasticsearch import ApiError

from adapters.search.embedded_lexical import LexicalIndex
from core.contracts import SearchFilters

# BM25 reads `terms`: the segment's words analysed in Python exactly as the embedded backend's BM25
# reads them (stop words dropped, Snowball-stemmed, title twice), split on whitespace by the node.
# The node's own English analysis needs the analysis-common module, which a minimal node lacks.
TERMS_FIELD = {"type": "text", "analyzer": "whitespace"}
VECTOR_FIELD = {"type": "binary"}


def segment_terms(title: str, section: str | None, text: str) -> str:
    """What a segment's `terms` field holds."""
    return LexicalIndex.stored_tokens(title, section, text)


def query_terms(query: str) -> str:
    """A question's words analysed as a segment's `terms` are."""
    return " ".join(LexicalIndex.tokens(query))


SEGMENT_FIELDS = [
    "chunk_id",
    "doc_id",
    "collection",
    "category",
    "kind",
    "position",
    "span_start",
    "span_end",
    "title",
    "section",
    "page",
    "url",
    "date",
    "text",
    "vector",
    "embedding",  # only an index written before `vector` existed still keeps it in `_source`
]


def packed(vector: np.ndarray) -> str:
    """A segment's vector as its `_source` keeps it: base64 of little-endian float32. Returned with
    every hit to measure its cosine, it is a quarter of the JSON number list's size and decodes
    without parsing (the list cost about 20 ms a hybrid search of 50 + 50 hits at 100k segments)."""
    return base64.b64encode(np.asarray(vector, dtype="<f4").tobytes()).decode("ascii")


def source_vector(source: dict[str, Any]) -> np.ndarray:
    """The vector of a returned segment: `vector`, or the `embedding` list of an older index."""
    if "vector" in source:
        return np.frombuffer(base64.b64decode(source["vector"]), dtype="<f4")
    return np.asarray(source["embedding"], dtype=np.float32)


def segment_mappings(dimension: int, vector_index: str = "int8_hnsw") -> dict[str, Any]:
    """Explicit mappings: keywords for filters, BM25 text fields, a cosine `dense_vector` with HNSW
    (`vector_index`: "hnsw" keeps float vectors in the graph, "int8_hnsw" quantizes them). The
    indexed `embedding` is left out of `_source`, which keeps the same vector packed in `vector`."""
    keyword = {"type": "keyword"}
    return {
        "dynamic": "strict",
        "_source": {"excludes": ["embedding"]},
        "properties": {
            "chunk_id": keyword,
            "doc_id": keyword,
            "collection": keyword,
            "category": keyword,
            "kind": keyword,
            "position": {"type": "integer"},
            "span_start": {"type": "integer"},
            "span_end": {"type": "integer"},
            "title": {"type": "text"},
            "section": {"type": "text"},
            "page": {"type": "integer"},
            "url": {"type": "keyword", "index": False},
            "date": {"type": "date", "format": "strict_date"},
            "text": {"type": "text"},
            "terms": TERMS_FIELD,
            "vector": VECTOR_FIELD,
            "embedding": {
                "type": "dense_vector",
                "dims": dimension,
                "index": True,
                "similarity": "cosine",
                "index_options": {"type": vector_index, "m": 16, "ef_construction": 100},
            },
        },
    }


def annotation_mappings() -> dict[str, Any]:
    """Annotations: filter fields, the label, the normalised number, and the full record unindexed."""
    keyword = {"type": "keyword"}
    return {
        "dynamic": "strict",
        "properties": {
            "annotation_id": keyword,
            "doc_id": keyword,
            "collection": keyword,
            "category": keyword,
            "kind": keyword,
            "label": keyword,
            "value_num": {"type": "double"},
            "unit": keyword,
            "date": {"type": "date", "format": "strict_date"},
            "body": {"type": "object", "enabled": False},
        },
    }


def label_mappings(dimension: int) -> dict[str, Any]:
    """Label embeddings for fuzzy label matching."""
    return {
        "dynamic": "strict",
        "properties": {
            "label": {"type": "keyword"},
            "embedding": {"type": "dense_vector", "dims": dimension, "index": False},
        },
    }


def filter_clauses(filters: SearchFilters, kind: str | None = "segment") -> list[dict[str, Any]]:
    """The same filters for `bool.filter` and `knn.filter`."""
    clauses: list[dict[str, Any]] = []
    if kind:
        clauses.append({"term": {"kind": kind}})
    if filters.collections is not None:
        clauses.append({"terms": {"collection": list(filters.collections)}})
    if filters.categories:
        clauses.append({"terms": {"category": list(filters.categories)}})
    if filters.doc_ids is not None:
        clauses.append({"terms": {"doc_id": list(filters.doc_ids)}})
    if filters.date_start or filters.date_end:
        window: dict[str, str] = {}
        if filters.date_start:
            window["gte"] = filters.date_start.isoformat()
        if filters.date_end:
            window["lte"] = filters.date_end.isoformat()
        clauses.append({"range": {"date": window}})
    return clauses


def bm25_body(query: str, filters: SearchFilters, limit: int) -> dict[str, Any]:
    """BM25 over the analysed `terms` (title twice, section, text), with the filters in `bool.filter`."""
    return {
        "size": limit,
        "_source": SEGMENT_FIELDS,
        "query": {
            "bool": {
                "must": [{"match": {"terms": query_terms(query)}}],
                "filter": filter_clauses(filters),
            }
        },
    }


def knn_body(vector: list[float], filters: SearchFilters, limit: int, kind: str = "segment") -> dict[str, Any]:
    """Approximate kNN on the cosine vector, with the same filters inside `knn.filter`."""
    return {
        "size": limit,
        "_source": SEGMENT_FIELDS,
        "knn": {
            "field": "embedding",
            "query_vector": vector,
            "k": limit,
            "num_candidates": max(100, 2 * limit),
            "filter": {"bool": {"filter": filter_clauses(filters, kind)}},
        },
    }


def rrf_retriever_body(query: str, vector: list[float], filters: SearchFilters, limit: int) -> dict[str, Any]:
    """Elasticsearch's own `rrf` retriever (needs a licence that includes it; off unless configured)."""
    bm25 = bm25_body(query, filters, limit)
    knn = knn_body(vector, filters, limit)["knn"]
    return {
        "size": limit,
        "_source": SEGMENT_FIELDS,
        "retriever": {
            "rrf": {
                "retrievers": [{"standard": {"query": bm25["query"]}}, {"knn": knn}],
                "rank_constant": 60,
                "rank_window_size": max(100, limit),
            }
        },
    }


def annotations_body(filters: SearchFilters, limit: int) -> dict[str, Any]:
    """Every annotation within the filters (matching on labels, numbers and text is done by the client)."""
    return {
        "size": limit,
        "_source": ["body"],
        "query": {"bool": {"filter": filter_clauses(filters, kind=None)}},
        "sort": [{"annotation_id": "asc"}],
    }


def stats_body(filters: SearchFilters) -> dict[str, Any]:
    """Documents per category and the newest and oldest document dates, within the filters."""
    return {
        "size": 0,
        "query": {"bool": {"filter": filter_clauses(filters)}},
        "aggs": {
            "documents": {"cardinality": {"field": "doc_id"}},
            "newest": {"max": {"field": "date", "format": "strict_date"}},
            "oldest": {"min": {"field": "date", "format": "strict_date"}},
            "categories": {
                "terms": {"field": "category", "missing": "unknown", "size": 10},
                "aggs": {"documents": {"cardinality": {"field": "doc_id"}}},
            },
        },
    }


def annotated_documents_body(filters: SearchFilters) -> dict[str, Any]:
    """Documents with at least one annotation, within the filters."""
    return {
        "size": 0,
        "query": {"bool": {"filter": filter_clauses(filters, kind=None)}},
        "aggs": {"documents": {"cardinality": {"field": "doc_id"}}},
    }


def upgraded(source: dict[str, Any]) -> dict[str, Any]:
    """A copied segment with the fields the current mappings expect: its BM25 `terms` as the current
    tokenizer reads its text (an older version's may lack them or read numbers otherwise), its packed
    `vector` where an older version left it out, its indexed `embedding` from the packed one."""
    if "text" not in source:
        return source
    copy = dict(source)
    copy["terms"] = segment_terms(copy["title"], copy.get("section"), copy["text"])
    if "vector" not in copy:
        copy["vector"] = packed(np.asarray(copy["embedding"], dtype=np.float32))
    if "embedding" not in copy:
        copy["embedding"] = source_vector(copy).tolist()
    return copy


def route_missing(exc: ApiError) -> bool:
    """The node has no such API (its module is not installed): "no handler found for uri" (400), or
    the path read as an index name, "Incorrect HTTP method for uri" (405)."""
    text = str(exc)
    return exc.meta.status in (400, 405) and ("no handler found" in text or "Incorrect HTTP method" in text)
