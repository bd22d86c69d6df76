"""Re-records the Elasticsearch response fixtures from a cluster through a recording proxy on loopback.

The backend runs its real calls (create indices, bulk, refresh, a delete by scroll-and-bulk, both
searches, reindex and alias swap) against the cluster under a throw-away index prefix; the proxy
keeps the first answer of each kind, and the indices are deleted afterwards.
"""

from __future__ import annotations

import datetime as dt
import json
import uuid
from pathlib import Path
from typing import Any

import aiohttp
import numpy as np
from aiohttp import web
from elasticsearch import AsyncElasticsearch

from adapters.search.elasticsearch import ElasticsearchBackend
from core.contracts import SearchFilters
from core.knowledge import DocumentRecord, Segment
from tests import es_fixtures
from tests.servers import _Recorder

# The three passages every fixture is about, with 4-dimensional unit embeddings.
PASSAGES = {
    "d1": ("Annual leave is 27 days.", [0.0, 1.0, 0.0, 0.0]),
    "d2": ("Parents get 20 weeks of leave.", [0.6, 0.8, 0.0, 0.0]),
    "d3": ("Sick leave needs a note.", [0.0, 0.0, 1.0, 0.0]),
}
QUERY_VECTOR = np.asarray([[0.6, 0.8, 0.0, 0.0]], dtype=np.float32)


class RecordingProxy(_Recorder):
    """Forwards every request to `target` and keeps (method, path, request body, status, response body)."""

    def __init__(self, target: str) -> None:
        super().__init__()
        self.target = target.rstrip("/")
        self.exchanges: list[tuple[str, str, Any, int, Any, bool]] = []
        self._session: aiohttp.ClientSession | None = None

    async def start(self) -> RecordingProxy:
        self._session = aiohttp.ClientSession()
        app = web.Application(client_max_size=64 * 1024**2)
        app.router.add_route("*", "/{tail:.*}", self._forward)
        await self._start(app)
        return self

    async def stop(self) -> None:
        await super().stop()
        if self._session is not None:
            await self._session.close()

    async def _forward(self, request: web.Request) -> web.Response:
        assert self._session is not None
        raw = await request.read()
        headers = {k: v for k, v in request.headers.items() if k.lower() not in ("host", "content-length")}
        async with self._session.request(
            request.method, self.target + request.path_qs, data=raw, headers=headers
        ) as answer:
            payload = await answer.read()
            status, content_type = answer.status, answer.headers.get("Content-Type", "application/json")
            product = answer.headers.get("X-Elastic-Product")
        text = raw.decode() if raw else ""
        answer_body = json.loads(payload or b"null")
        if request.path.endswith("/_msearch"):  # NDJSON; kept as the lone searches it holds
            lines = [json.loads(line) for line in text.splitlines() if line.strip()]
            path = request.path.removesuffix("/_msearch") + "/_search"
            for search, found in zip(lines[1::2], answer_body["responses"], strict=True):
                reply = {k: v for k, v in found.items() if k != "status"}
                self.exchanges.append((request.method, path, search, found.get("status", status), reply, False))
            return web.Response(body=payload, status=status, headers={"Content-Type": content_type} | _product(product))
        body: Any = json.loads(text) if text and "_bulk" not in request.path else text
        self.exchanges.append((request.method, request.path, body, status, answer_body, "scroll" in request.query))
        return web.Response(body=payload, status=status, headers={"Content-Type": content_type} | _product(product))


def _product(product: str | None) -> dict[str, str]:
    return {"X-Elastic-Product": product} if product else {}


async def record_fixtures(cluster_url: str, folder: Path = es_fixtures.FOLDER) -> list[str]:
    """Drive the backend against the cluster through the proxy; write one fixture per kind of answer."""
    proxy = await RecordingProxy(cluster_url).start()
    prefix = f"threadwise-fixture-{uuid.uuid4().hex[:8]}"
    client = AsyncElasticsearch(proxy.url)
    backend = ElasticsearchBackend(client=client, dimension=4, prefix=prefix)
    try:
        # Not `GET /`: the minimal distribution has no such route; the node info API is core.
        nodes = await client.nodes.info(node_id="_local", metric="_none", filter_path="nodes.*.version")
        version = next(iter(nodes["nodes"].values()))["version"]
        await backend.ensure_indices()
        for doc_id, (text, embedding) in PASSAGES.items():
            record = DocumentRecord(
                doc_id=doc_id,
                title="Handbook",
                source_path=f"/{doc_id}.md",
                relative_path=f"{doc_id}.md",
                media_type="text/markdown",
                content_hash=doc_id,
            )
            segment = Segment(
                chunk_id=f"{doc_id}:0",
                doc_id=doc_id,
                collection="default",
                position=0,
                text=text,
                title="Handbook",
                section="Leave",
                date=dt.date(2025, 1, 15),
            )
            await backend.upsert_document(record, [segment], np.asarray([embedding], dtype=np.float32))
        await backend.refresh()
        await backend.delete_document("d3")
        await backend.refresh()
        await backend.search_hybrid("parental leave", QUERY_VECTOR, SearchFilters(collections=["default"]), 10)
        await backend.reindex()
    finally:
        # Named, not a wildcard: clusters refuse wildcard deletes by default (action.destructive_requires_name).
        names = [f"{prefix}-{kind}-v{n}" for kind in ("segments", "annotations", "labels") for n in (1, 2)]
        await client.indices.delete(index=",".join(names), ignore_unavailable=True)
        await backend.close()
        await proxy.stop()
    label = {
        "synthetic": False,
        "recorded_from": f"Elasticsearch {version} at {cluster_url}",
        "recorded_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
    }
    written: list[str] = []
    for method, path, body, status, answer, scroll in proxy.exchanges:
        name = es_fixtures.name_of(method, path, body, status, scroll)
        if name is not None and name not in written:
            es_fixtures.save(name, status, answer, label, prefix, folder)
            written.append(name)
    return written
