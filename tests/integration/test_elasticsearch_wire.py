"""The Elasticsearch backend against a loopback server that speaks the Elasticsearch REST API.

The server answers with the response fixtures in `tests/fixtures/elasticsearch/`: SYNTHETIC ones,
written by hand from the shapes in Elasticsearch's API documentation, until they are re-recorded
from a live cluster (`test_elasticsearch_record.py`); each file's `_fixture` label says which.
The server records every request so the bodies the backend sends can be compared with the goldens.
A live cluster runs the shared contract suite too when THREADWISE_ELASTICSEARCH_URL is set.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from typing import Any

import numpy as np
import pytest
from aiohttp import web
from elasticsearch import AsyncElasticsearch, NotFoundError

from adapters.search import elasticsearch_bodies as bodies
from adapters.search.elasticsearch import ElasticsearchBackend
from core.contracts import SearchFilters
from core.fusion import reciprocal_rank_fusion
from core.knowledge import DocumentRecord, Segment
from tests import es_fixtures

HEADERS = {"X-Elastic-Product": "Elasticsearch"}
VECTOR = np.asarray([[0.6, 0.8, 0.0, 0.0]], dtype=np.float32)


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
        if raw and path.endswith("/_msearch"):  # NDJSON: a header line, then a search body, for each
            body = [json.loads(line) for line in raw.splitlines() if line.strip()]
        elif raw and "_bulk" not in path:
            body = json.loads(raw)
        self.requests.append((request.method, path, body))
        if path.endswith("/_msearch"):
            return web.json_response(msearch_reply(body, self._search_reply), headers=HEADERS)
        if request.method == "GET" and path.endswith("/_mapping"):
            # The mappings each index was created with, for the indices behind the alias asked about.
            alias = path.strip("/").removesuffix("/_mapping")
            reply = {
                p.strip("/"): {"mappings": b["mappings"]}
                for m, p, b in self.requests
                if m == "PUT" and alias in (b.get("aliases") or {}) | {p.strip("/"): {}}
            }
            return web.json_response(reply, headers=HEADERS)
        if path.startswith("/_alias/"):
            alias = path.removeprefix("/_alias/")
            if alias not in self.aliases:
                status, reply = es_fixtures.load("get_alias_missing")
                return web.json_response(reply, status=status, headers=HEADERS)
            status, reply = es_fixtures.load("get_alias")
            # The fixture answers for one alias; the same shape names the alias asked about.
            ((_, entry),) = reply.items()
            settings = next(iter(entry["aliases"].values()))
            reply = {f"{alias}-v1": {"aliases": {alias: settings}}}
            return web.json_response(reply, status=status, headers=HEADERS)
        name = es_fixtures.name_of(request.method, path, body, scroll="scroll" in request.query)
        if name is None:
            return web.json_response({"error": f"unexpected {request.method} {path}"}, status=400, headers=HEADERS)
        status, reply = es_fixtures.load(name)
        if name == "create_index":
            self.aliases.update((body or {}).get("aliases", {}))
            reply = reply | {"index": path.strip("/")}
        if name == "bulk":
            actions = [json.loads(line) for line in raw.splitlines() if line.strip()][::2]
            template = reply["items"][0]["index"]
            reply = reply | {
                "items": [
                    {"index": template | {"_index": a["index"]["_index"], "_id": a["index"]["_id"]}} for a in actions
                ]
            }
        return web.json_response(reply, status=status, headers=HEADERS)

    def _search_reply(self, body: dict[str, Any]) -> dict[str, Any]:
        """One search of an `_msearch`: the fixture a lone search with this body gets."""
        status, reply = es_fixtures.load("search_knn" if "knn" in body else "search_bm25")
        return reply | {"status": status}


def msearch_reply(lines: list[Any], answer: Callable[[dict[str, Any]], dict[str, Any]]) -> dict[str, Any]:
    """An `_msearch` answer: each search's own answer, in order (the lines alternate header, body)."""
    return {"took": 1, "responses": [answer(body) for body in lines[1::2]]}


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


async def test_upsert_deletes_by_id_then_bulk_indexes_without_waiting_for_a_refresh(
    cluster: tuple[FakeElasticsearch, ElasticsearchBackend],
) -> None:
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
    paths = [path for _, path, _ in server.requests if path != "/_search/scroll"]
    # The old entries are found by a scroll over the doc_id (no _delete_by_query: a module) and
    # deleted by id; the recorded answer has none, so only the new entries are bulk-indexed.
    assert paths[:2] == ["/threadwise-segments/_search", "/threadwise-annotations/_search"]
    assert server.requests[0][2] == {
        "query": {"term": {"doc_id": "d1"}},
        "_source": False,
        "size": 1000,
        "sort": "_doc",
    }
    assert not any(path.endswith(("/_delete_by_query", "/_refresh")) for path in paths)
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
    # One request to the segments alias: both searches, side by side on the node.
    ((path, lines),) = [(path, body) for _, path, body in server.requests if path.endswith(("_search", "_msearch"))]
    assert path == "/threadwise-segments/_msearch"
    assert lines == [
        {},
        bodies.bm25_body("parental leave", filters, 10),
        {},
        bodies.knn_body(VECTOR[0].tolist(), filters, 10),
    ]
    # The client fuses the two answers by RRF, and measures cosine from the returned embeddings.
    lexical = [h["_id"] for h in es_fixtures.load("search_bm25")[1]["hits"]["hits"]]
    nearest = es_fixtures.load("search_knn")[1]["hits"]["hits"]
    expected = list(reciprocal_rank_fusion([lexical, [h["_id"] for h in nearest]]))
    assert [h.segment.chunk_id for h in hits] == expected[:10]
    for hit in hits:
        assert hit.bm25_rank == (lexical.index(hit.segment.chunk_id) + 1 if hit.segment.chunk_id in lexical else None)
        source = next((h["_source"] for h in nearest if h["_id"] == hit.segment.chunk_id), None)
        if source is not None:
            assert hit.cosine == pytest.approx(float(np.dot(VECTOR[0], bodies.source_vector(source))), abs=1e-5)


def test_every_fixture_says_whether_it_is_synthetic_or_recorded() -> None:
    for path in sorted(es_fixtures.FOLDER.glob("*.json")):
        label = es_fixtures.provenance(path.stem)
        assert (label["synthetic"] is True and "SYNTHETIC" in label["note"]) or label.get("recorded_from")


async def test_reindex_copies_into_the_next_version_and_swaps_the_alias(
    cluster: tuple[FakeElasticsearch, ElasticsearchBackend],
) -> None:
    server, backend = cluster
    await backend.ensure_indices()
    swapped = await backend.reindex()
    assert swapped["threadwise-segments"] == "threadwise-segments-v2"
    # Segments are copied by the client (a scroll of the old version), so `terms` can be filled in.
    paths = [path for _, path, _ in server.requests]
    assert "/threadwise-segments-v1/_search" in paths and "/threadwise-segments-v2/_refresh" in paths
    # The other indices try the node's _reindex first; the recorded node has none (405): a copy too.
    reindex = next(body for _, path, body in server.requests if path == "/_reindex")
    assert reindex == {
        "source": {"index": "threadwise-annotations-v1"},
        "dest": {"index": "threadwise-annotations-v2"},
    }
    assert es_fixtures.load("reindex")[0] == 405
    assert "/threadwise-annotations-v1/_search" in paths
    aliases = next(body for _, path, body in server.requests if path == "/_aliases")
    assert aliases == {
        "actions": [
            {"remove": {"index": "threadwise-segments-v1", "alias": "threadwise-segments"}},
            {"add": {"index": "threadwise-segments-v2", "alias": "threadwise-segments"}},
        ]
    }
    created = [path for method, path, _ in server.requests if method == "PUT"]
    assert "/threadwise-segments-v2" in created


class MissingIndexForKnn(FakeElasticsearch):
    """Answers an `_msearch` whose kNN search failed on the node (its index is gone)."""

    def _search_reply(self, body: dict[str, Any]) -> dict[str, Any]:
        if "knn" not in body:
            return super()._search_reply(body)
        return {"error": {"type": "index_not_found_exception", "reason": "no such index"}, "status": 404}


async def test_a_failed_search_inside_the_msearch_raises_as_it_would_alone() -> None:
    server = await MissingIndexForKnn().start()
    backend = ElasticsearchBackend(client=AsyncElasticsearch(server.url), dimension=4)
    try:
        with pytest.raises(NotFoundError, match="index_not_found_exception"):
            await backend.search_hybrid("parental leave", VECTOR, SearchFilters(), 10)
    finally:
        await backend.close()
        await server.stop()
