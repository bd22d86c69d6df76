"""An Elasticsearch server on loopback that a whole product can run a conversation against.

It extends the wire-test server (`tests/integration/test_elasticsearch_wire.py`, which answers
with the fixtures in `tests/fixtures/elasticsearch/`) with what a turn also asks: cluster
health, counts, the statistics aggregations, and empty annotation and label indices. It can
be stopped and started again on the same port, as a cluster that goes away and comes back.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import numpy as np
from aiohttp import web

from adapters.search import elasticsearch_bodies as bodies
from tests import es_fixtures
from tests.integration.test_elasticsearch_wire import HEADERS, FakeElasticsearch


class ConversationElasticsearch(FakeElasticsearch):
    """Enough of Elasticsearch for a conversation: passages from the fixtures, no annotations."""

    def __init__(self, *, embed: Callable[[str], list[float]], port: int = 0) -> None:
        super().__init__()
        self.port = port
        self._embed = embed  # the product's embedder: the fixtures' 4-dimensional vectors re-embedded

    async def start(self) -> ConversationElasticsearch:
        app = web.Application()
        app.router.add_route("*", "/{tail:.*}", self._route)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", self.port)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self.url = f"http://127.0.0.1:{self.port}"
        return self

    async def _route(self, request: web.Request) -> web.Response:
        path = request.path
        if path == "/_cluster/health":
            return web.json_response({"cluster_name": "loopback", "status": "green"}, headers=HEADERS)
        if path.endswith("/_count"):
            return web.json_response({"count": 3}, headers=HEADERS)
        if path.endswith("/_search"):
            raw = await request.text()
            body: Any = json.loads(raw) if raw else {}
            aggregations = body.get("aggs") or body.get("aggregations")
            if aggregations:
                return web.json_response(_aggregated(aggregations), headers=HEADERS)
            if "annotations" in path or "labels" in path:
                return web.json_response(_hits([]), headers=HEADERS)
            self.requests.append((request.method, path, body))
            found = self._search_reply(body)
            return web.json_response(found, status=found.pop("status"), headers=HEADERS)
        return await self._handle(request)

    def _search_reply(self, body: dict[str, Any]) -> dict[str, Any]:
        """The fixture's passages, with their vectors re-embedded by the product's embedder."""
        found = super()._search_reply(body)
        for hit in found["hits"]["hits"]:
            hit["_source"]["vector"] = bodies.packed(np.asarray(self._embed(hit["_source"]["text"]), np.float32))
        return found


def _hits(hits: list[Any]) -> dict[str, Any]:
    return {"took": 1, "timed_out": False, "hits": {"total": {"value": len(hits), "relation": "eq"}, "hits": hits}}


def _aggregated(aggregations: dict[str, Any]) -> dict[str, Any]:
    """Three documents, none in a category and none dated; any other aggregation empty."""
    answer: dict[str, Any] = {}
    for name, spec in aggregations.items():
        if "max" in spec:
            answer[name] = {"value": None}
            continue
        answer[name] = {"buckets": []} if "terms" in spec else {"value": 3 if "annotations" not in name else 0}
    found = _hits([])
    found["aggregations"] = answer
    return found


__all__ = ["ConversationElasticsearch", "es_fixtures"]
