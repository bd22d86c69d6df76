"""Golden request bodies of the Elasticsearch backend: every request it sends is pinned.

Set THREADWISE_RECORD_GOLDEN=1 to rewrite the golden files after a deliberate change, then
review the diff like code.
"""

from __future__ import annotations

import datetime as dt
import json
import os
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from adapters.search import elasticsearch_bodies as bodies
from core.contracts import SearchFilters

GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "elasticsearch"
FILTERS = SearchFilters(
    collections=["finance", "default"],
    categories=["data-heavy"],
    doc_ids=None,
    date_start=dt.date(2024, 1, 1),
    date_end=dt.date(2024, 12, 31),
)
VECTOR = [0.5, -0.5, 0.5, -0.5]

CASES: dict[str, Any] = {
    "segment_mappings": lambda: bodies.segment_mappings(384),
    "annotation_mappings": bodies.annotation_mappings,
    "label_mappings": lambda: bodies.label_mappings(384),
    "search_text": lambda: bodies.bm25_body("tire receipts", FILTERS, 50),
    "search_vector_segment": lambda: bodies.knn_body(VECTOR, FILTERS, 50),
    "search_vector_summary": lambda: bodies.knn_body(VECTOR, SearchFilters(doc_ids=["d1"]), 3, "summary"),
    "search_hybrid_rrf_retriever": lambda: bodies.rrf_retriever_body("tire receipts", VECTOR, FILTERS, 50),
    "annotations": lambda: bodies.annotations_body(FILTERS, 10_000),
    "stats": lambda: bodies.stats_body(SearchFilters(collections=["default"])),
    "annotated_documents": lambda: bodies.annotated_documents_body(SearchFilters(collections=["default"])),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_request_body_matches_its_golden_file(name: str) -> None:
    body = CASES[name]()
    path = GOLDEN / f"{name}.json"
    if os.environ.get("THREADWISE_RECORD_GOLDEN") == "1":
        path.write_text(json.dumps(body, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    assert body == json.loads(path.read_text(encoding="utf-8"))


def test_filters_are_the_same_for_bm25_and_knn() -> None:
    bm25 = bodies.bm25_body("q", FILTERS, 10)["query"]["bool"]["filter"]
    knn = bodies.knn_body(VECTOR, FILTERS, 10)["knn"]["filter"]["bool"]["filter"]
    assert bm25 == knn
    assert {"terms": {"collection": ["finance", "default"]}} in bm25
    assert {"range": {"date": {"gte": "2024-01-01", "lte": "2024-12-31"}}} in bm25


def test_dense_vector_sets_index_options_and_cosine() -> None:
    embedding = bodies.segment_mappings(384)["properties"]["embedding"]
    assert (embedding["similarity"], embedding["dims"], embedding["index_options"]["type"]) == (
        "cosine",
        384,
        "int8_hnsw",
    )
    floats = bodies.segment_mappings(384, "hnsw")["properties"]["embedding"]
    assert floats["index_options"] == {"type": "hnsw", "m": 16, "ef_construction": 100}


def test_no_collection_may_read_nothing() -> None:
    assert {"terms": {"collection": []}} in bodies.filter_clauses(SearchFilters(collections=[]))


def test_a_packed_vector_decodes_to_the_same_floats() -> None:
    vector = np.asarray([0.1, -2.5, 3.25e-7, 1.0], dtype=np.float32)
    decoded = bodies.source_vector({"vector": bodies.packed(vector)})
    assert decoded.dtype == np.float32 and decoded.tolist() == vector.tolist()
    # An index written before vectors were packed returns the number list instead.
    assert bodies.source_vector({"embedding": [0.5, 0.25]}).tolist() == [0.5, 0.25]


def test_the_indexed_embedding_is_left_out_of_source_and_kept_packed() -> None:
    mappings = bodies.segment_mappings(384)
    assert mappings["_source"] == {"excludes": ["embedding"]}
    assert mappings["properties"]["vector"] == {"type": "binary"}
    assert "vector" in bodies.SEGMENT_FIELDS


def test_a_copied_segment_gets_the_fields_its_version_lacked() -> None:
    old = {"title": "Handbook", "section": None, "text": "Annual leave is 25 days.", "embedding": [0.6, 0.8]}
    copy = bodies.upgraded(old)
    assert copy["terms"] == bodies.segment_terms("Handbook", None, "Annual leave is 25 days.")
    assert bodies.source_vector({"vector": copy["vector"]}).tolist() == pytest.approx([0.6, 0.8])
    # A current segment's `_source` has no `embedding` (excluded): the copy indexes it from `vector`.
    current = {k: v for k, v in copy.items() if k != "embedding"}
    assert bodies.upgraded(current)["embedding"] == pytest.approx([0.6, 0.8])
    assert bodies.upgraded({"label": "x"}) == {"label": "x"}  # not a segment: as it was
    # Terms an older tokenizer wrote are read again: a numbered item becomes a whole token.
    stale = {**current, "text": "Measure 2.2.B rose.", "terms": "measur 2 2 b rose"}
    assert "2.2.b" in bodies.upgraded(stale)["terms"].split()
