"""An index written by an earlier version, on the live node: still searched, then brought up to date.

The earlier segment mappings had no `terms` (BM25 read `text` through the node's standard
analyzer) and no packed `vector` (the `embedding` numbers were kept in `_source`). A user who
upgrades keeps answers at once, is told to run `threadwise index reindex`, and after it the copy
has both fields and the same cosines.
"""

from __future__ import annotations

import logging
import uuid
from typing import Any

import numpy as np
import pytest
from elasticsearch import AsyncElasticsearch

from adapters.search import elasticsearch_bodies as bodies
from adapters.search.elasticsearch import ElasticsearchBackend
from core.contracts import SearchFilters
from tests.conftest import drop_test_indices, elasticsearch_url

pytestmark = pytest.mark.elasticsearch

PASSAGES = {
    "d1:0": ("Annual leave is 27 days a year.", [0.0, 1.0, 0.0, 0.0]),
    "d2:0": ("Parents get 20 weeks of paid leave.", [0.6, 0.8, 0.0, 0.0]),
}
QUERY = np.asarray([[0.6, 0.8, 0.0, 0.0]], dtype=np.float32)


def earlier_mappings() -> dict[str, Any]:
    """The segment mappings as the version before `terms` and `vector` wrote them."""
    mappings = bodies.segment_mappings(4)
    del mappings["_source"]
    for field in ("terms", "vector"):
        del mappings["properties"][field]
    return mappings


async def test_an_index_from_the_earlier_version_is_searched_then_reindexed(caplog: pytest.LogCaptureFixture) -> None:
    client = AsyncElasticsearch(elasticsearch_url())
    prefix = f"threadwise-test-{uuid.uuid4().hex[:8]}"
    backend = ElasticsearchBackend(client=client, dimension=4, prefix=prefix, replicas=0)
    try:
        await client.indices.create(
            index=f"{backend.segments}-v1",
            mappings=earlier_mappings(),
            settings={"number_of_replicas": 0},
            aliases={backend.segments: {}},
        )
        for chunk_id, (text, embedding) in PASSAGES.items():
            source = {"chunk_id": chunk_id, "doc_id": chunk_id[:2], "collection": "default", "kind": "segment"}
            source |= {"position": 0, "title": "Handbook", "text": text, "embedding": embedding}
            await client.index(index=backend.segments, id=chunk_id, document=source)
        with caplog.at_level(logging.WARNING):
            await backend.ensure_indices()
        assert "lacks terms and vector: run `threadwise index reindex`" in caplog.text
        mapping = await client.indices.get_mapping(index=backend.segments)
        assert {"terms", "vector"} <= set(mapping[f"{backend.segments}-v1"]["mappings"]["properties"])
        await backend.refresh()

        # Before the reindex: kNN still finds both (no `terms` yet, so BM25 finds nothing), and the
        # cosines come from the `embedding` numbers the earlier version kept in `_source`.
        filters = SearchFilters(collections=["default"])
        before = {h.segment.chunk_id: h.cosine for h in await backend.search_hybrid("paid leave", QUERY, filters, 5)}
        assert before == pytest.approx({"d2:0": 1.0, "d1:0": 0.8}, abs=1e-5)

        swapped = await backend.reindex()
        assert swapped[backend.segments] == f"{backend.segments}-v2"
        hits = await backend.search_hybrid("paid leave", QUERY, filters, 5)
        assert {h.segment.chunk_id: h.cosine for h in hits} == pytest.approx(before, abs=1e-5)
        assert hits[0].segment.chunk_id == "d2:0" and hits[0].bm25_rank == 1  # `terms` filled by the copy
        copied = await client.get(index=backend.segments, id="d2:0")
        assert "embedding" not in copied["_source"]  # left out of `_source` by the current mappings
        assert bodies.source_vector(copied["_source"]).tolist() == pytest.approx([0.6, 0.8, 0.0, 0.0])
    finally:
        await drop_test_indices(client, prefix)
        await client.close()


async def test_optimize_merges_the_segments_index_into_one_lucene_segment() -> None:
    client = AsyncElasticsearch(elasticsearch_url())
    prefix = f"threadwise-test-{uuid.uuid4().hex[:8]}"
    backend = ElasticsearchBackend(client=client, dimension=4, prefix=prefix, replicas=0)
    try:
        await backend.ensure_indices()
        for chunk_id, (text, embedding) in PASSAGES.items():  # a refresh each: a Lucene segment each
            source = {"chunk_id": chunk_id, "doc_id": chunk_id[:2], "collection": "default", "kind": "segment"}
            source |= {"position": 0, "title": "Handbook", "text": text, "terms": text.lower()}
            source |= {"vector": bodies.packed(np.asarray(embedding, np.float32)), "embedding": embedding}
            await client.index(index=backend.segments, id=chunk_id, document=source, refresh=True)
        found = await client.indices.segments(index=backend.segments)
        ((shard,),) = next(iter(found["indices"].values()))["shards"].values()
        assert len(shard["segments"]) == 2
        assert await backend.optimize() == 1
        hits = await backend.search_hybrid("paid leave", QUERY, SearchFilters(collections=["default"]), 5)
        assert [h.segment.chunk_id for h in hits] == ["d2:0", "d1:0"]
    finally:
        await drop_test_indices(client, prefix)
        await client.close()
