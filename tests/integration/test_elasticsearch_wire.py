"""The Elasticsearch backend against a loopback server that speaks the Elasticsearch REST API.

Response bodies are SYNTHETIC: written by hand from the shapes in Elasticsearch's API
documentation (search, bulk, create index, delete by query), not recorded from a cluster. The
server records every request so the bodies the backend sends can be compared with the goldens.
A live cluster runs the shared contract suite instead when THREADWISE_ELASTICSEARCH_URL is set.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import numpy as np
import pytest
from aiohttp import web
from elasticsearch import AsyncElasticsearch

from adapters.search import elasticsearch_bodies as bodies
from adapters.search.elasticsearch import ElasticsearchBackend
from core.contracts import SearchFilters
from core.knowledge import DocumentRecord, Segment

HEADERS = {"X-Elastic-Product": "Elasticsearch"}
VECTOR = np.asarray([[0.6, 0.8, 0.0, 0.0]], dtype=np.float32)


def _hit(index: str, chunk: str, score: float, embedding: list[float], text: str) -> dict[str, Any]:
    return {
        "_index": f"{index}-v1",
        "_id": chunk,
        "_score": score,
        "_source": {
            "chunk_id": chunk,
            "doc_id": chunk.split(":")[0],
            "collection": "default",
            "category": None,
            "kind": "segment",
            "position": 0,
            "span_start": None,
            "span_end": None,
            "title": "Handbook",
            "section": "Leave",
            "page": None,
            "url": None,
            "date": "2025-01-15",
            "text": text,
            "embedding": embedding,
        },
    }


class FakeElasticsearch:
    """Just enough of the REST API for the backend's calls, recording each request."""

    def __init__(self) -> None:
        self.requests: list[tuple[str, str, Any]] = []
        self.aliases: set[str] = set()
        self.url = ""
        self._runner: web.AppRunner | None = None

    async def start(self) -> FakeElasticsearch:
        app = web.Application()
        app.router.add_route("*", "/{tail:.*}", self._handle)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.url = f"http://127.0.0.1:{site._server.sockets[0].getsockname()[1]}"  # type: ignore[union-attr]
        return self

    async def stop(self) -> None:
        if self._runner:
            await self._runner.cleanup()

    async def _handle(self, request: web.Request) -> web.Response:
        raw = await request.text()
        path = request.path
        body: Any = raw
        if raw and "_bulk" not in path:
            body = json.loads(raw)
        self.requests.append((request.method, path, body))
        if path.startswith("/_alias/"):
            alias = path.removeprefix("/_alias/")
            found = alias in self.aliases
            reply = {f"{alias}-v1": {"aliases": {alias: {}}}} if found else {"error": "alias missing", "status": 404}
            return web.json_response(reply, status=200 if found else 404, headers=HEADERS)
        if path in ("/_reindex", "/_aliases"):
            done = (
                {"took": 5, "total": 0, "created": 0, "failures": []} if path == "/_reindex" else {"acknowledged": True}
            )
            return web.json_response(done, headers=HEADERS)
        if path.endswith("/_bulk"):
            items = [json.loads(line) for line in raw.splitlines() if line.strip()][::2]
            return web.json_response(
                {
                    "took": 3,
                    "errors": False,
                    "items": [
                        {
                            "index": {
                                "_index": next(iter(i.values()))["_index"],
                                "_id": next(iter(i.values()))["_id"],
                                "status": 201,
                                "result": "created",
                            }
                        }
                        for i in items
                    ],
                },
                headers=HEADERS,
            )
        if request.method == "PUT":
            index = path.strip("/")
            self.aliases.update((body or {}).get("aliases", {}))
            return web.json_response(
                {"acknowledged": True, "shards_acknowledged": True, "index": index}, headers=HEADERS
            )
        if path.endswith("/_delete_by_query"):
            return web.json_response(
                {"took": 1, "timed_out": False, "total": 0, "deleted": 0, "failures": []}, headers=HEADERS
            )
        if path.endswith("/_search"):
            index = path.strip("/").split("/")[0]
            if "knn" in body:
                hits = [
                    _hit(index, "d2:0", 0.95, [0.6, 0.8, 0.0, 0.0], "Parents get 20 weeks of leave."),
                    _hit(index, "d1:0", 0.70, [0.0, 1.0, 0.0, 0.0], "Annual leave is 27 days."),
                ]
            else:
                hits = [
                    _hit(index, "d1:0", 7.2, [0.0, 1.0, 0.0, 0.0], "Annual leave is 27 days."),
                    _hit(index, "d3:0", 5.1, [0.0, 0.0, 1.0, 0.0], "Sick leave needs a note."),
                ]
            return web.json_response(
                {
                    "took": 2,
                    "timed_out": False,
                    "_shards": {"total": 1, "successful": 1, "skipped": 0, "failed": 0},
                    "hits": {
                        "total": {"value": len(hits), "relation": "eq"},
                        "max_score": hits[0]["_score"],
                        "hits": hits,
                    },
                },
                headers=HEADERS,
            )
        return web.json_response({"error": f"unexpected {request.method} {path}"}, status=400, headers=HEADERS)


@pytest.fixture
async def cluster() -> AsyncIterator[tuple[FakeElasticsearch, ElasticsearchBackend]]:
    server = await FakeElasticsearch().start()
    backend = ElasticsearchBackend(client=AsyncElasticsearch(server.url), dimension=4)
    yield server, backend
    await backend.close()
    await server.stop()


async def test_indices_are_created_behind_aliases_with_explicit_mappings(
    cluster: tuple[FakeElasticsearch, ElasticsearchBackend],
) -> None:
    server, backend = cluster
    await backend.ensure_indices()
    created = {path: body for method, path, body in server.requests if method == "PUT"}
    assert set(created) == {"/threadwise-segments-v1", "/threadwise-annotations-v1", "/threadwise-labels-v1"}
    assert created["/threadwise-segments-v1"]["mappings"] == bodies.segment_mappings(4)
    assert created["/threadwise-segments-v1"]["aliases"] == {"threadwise-segments": {}}
    await backend.ensure_indices()  # the aliases exist now: nothing is created twice
    assert sum(1 for method, _, _ in server.requests if method == "PUT") == 3


async def test_upsert_deletes_then_bulk_indexes(cluster: tuple[FakeElasticsearch, ElasticsearchBackend]) -> None:
    server, backend = cluster
    record = DocumentRecord(
        doc_id="d1",
        title="Handbook",
        source_path="/h.md",
        relative_path="h.md",
        media_type="text/markdown",
        content_hash="x",
    )
    segment = Segment(
        chunk_id="d1:0", doc_id="d1", collection="default", position=0, text="Annual leave.", title="Handbook"
    )
    await backend.upsert_document(record, [segment], VECTOR)
    paths = [path for _, path, _ in server.requests]
    assert paths[:2] == ["/threadwise-segments/_delete_by_query", "/threadwise-annotations/_delete_by_query"]
    assert server.requests[0][2] == {"query": {"term": {"doc_id": "d1"}}}
    bulk = next(body for _, path, body in server.requests if path.endswith("/_bulk"))
    action, source = [json.loads(line) for line in bulk.splitlines()][:2]
    assert action == {"index": {"_index": "threadwise-segments", "_id": "d1:0"}}
    assert source["embedding"] == pytest.approx([0.6, 0.8, 0.0, 0.0]) and source["kind"] == "segment"


async def test_hybrid_sends_the_pinned_bodies_and_fuses_in_the_client(
    cluster: tuple[FakeElasticsearch, ElasticsearchBackend],
) -> None:
    server, backend = cluster
    filters = SearchFilters(collections=["default"])
    hits = await backend.search_hybrid("parental leave", VECTOR, filters, 10)
    searches = [body for _, path, body in server.requests if path.endswith("/_search")]
    assert searches == [
        bodies.bm25_body("parental leave", filters, 10),
        bodies.knn_body(VECTOR[0].tolist(), filters, 10),
    ]
    assert [h.segment.chunk_id for h in hits] == ["d1:0", "d2:0", "d3:0"]  # RRF: in both lists first
    assert hits[0].bm25_rank == 1 and hits[0].vector_rank == 2
    assert hits[1].cosine == pytest.approx(1.0) and hits[0].cosine == pytest.approx(0.8)


async def test_reindex_copies_into_the_next_version_and_swaps_the_alias(
    cluster: tuple[FakeElasticsearch, ElasticsearchBackend],
) -> None:
    server, backend = cluster
    await backend.ensure_indices()
    swapped = await backend.reindex()
    assert swapped["threadwise-segments"] == "threadwise-segments-v2"
    reindex = next(body for _, path, body in server.requests if path == "/_reindex")
    assert reindex == {"source": {"index": "threadwise-segments-v1"}, "dest": {"index": "threadwise-segments-v2"}}
    aliases = next(body for _, path, body in server.requests if path == "/_aliases")
    assert aliases == {
        "actions": [
            {"remove": {"index": "threadwise-segments-v1", "alias": "threadwise-segments"}},
            {"add": {"index": "threadwise-segments-v2", "alias": "threadwise-segments"}},
        ]
    }
    created = [path for method, path, _ in server.requests if method == "PUT"]
    assert "/threadwise-segments-v2" in created
