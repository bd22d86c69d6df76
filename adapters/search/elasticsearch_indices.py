"""How the Elasticsearch backend's indices are created, brought up to date, and copied.

Each alias (segments, annotations, labels) points at a versioned physical index, `<alias>-vN`.
`reindex` copies into the next version and swaps the alias atomically, with no downtime.
"""

from __future__ import annotations

import logging
import time
import warnings
from collections.abc import Callable
from typing import Any

from elasticsearch import ApiError, AsyncElasticsearch
from elasticsearch.exceptions import GeneralAvailabilityWarning
from elasticsearch.helpers import async_bulk, async_scan

from adapters.search import elasticsearch_bodies as bodies

log = logging.getLogger(__name__)


class IndexLifecycle:
    """Create, migrate and reindex the aliases a backend's `_mappings()` names."""

    client: AsyncElasticsearch
    segments: str
    _settings: dict[str, Any]

    def _mappings(self) -> dict[str, dict[str, Any]]:
        raise NotImplementedError

    async def ensure_indices(self) -> None:
        """Create `<alias>-v1` with explicit mappings for every alias that does not exist yet; segments
        written before BM25 read `terms`, or before vectors were packed, get the fields, and
        `threadwise index reindex` fills them."""
        for alias, mappings in self._mappings().items():
            if not await self.client.indices.exists_alias(name=alias):
                await self.client.indices.create(
                    index=f"{alias}-v1", mappings=mappings, settings=self._settings, aliases={alias: {}}
                )
        added = {"terms": bodies.TERMS_FIELD, "vector": bodies.VECTOR_FIELD}
        mapped = await self._mapped(self.segments)
        missing = {name: field for name, field in added.items() if name not in mapped}
        if missing:
            await self.client.indices.put_mapping(index=self.segments, properties=missing)
            log.warning("%s lacks %s: run `threadwise index reindex`", self.segments, " and ".join(missing))

    async def _mapped(self, index: str) -> set[str]:
        """The fields every physical index behind `index` maps (one request)."""
        found = await self.client.indices.get_mapping(index=index)
        fields = [set(body["mappings"].get("properties", {})) for body in found.values()]
        return set.intersection(*fields) if fields else set()

    async def reindex(self) -> dict[str, str]:
        """Copy every alias into a new physical index and swap the alias atomically."""
        swapped = {}
        for alias, mappings in self._mappings().items():
            current = next(iter(await self.client.indices.get_alias(name=alias)))
            version = int(current.rsplit("-v", 1)[1]) + 1
            target = f"{alias}-v{version}"
            await self.client.indices.create(index=target, mappings=mappings, settings=self._settings)
            if alias == self.segments:  # the copy fills the fields an older version left out
                await self._copy(current, target)
            else:
                await self._server_reindex(current, target)
            await self.client.indices.update_aliases(
                actions=[{"remove": {"index": current, "alias": alias}}, {"add": {"index": target, "alias": alias}}]
            )
            swapped[alias] = target
        return swapped

    async def _server_reindex(self, source: str, target: str) -> None:
        """`_reindex` on the node, or the client-side copy where the node has no such API."""
        try:
            await self.client.reindex(source={"index": source}, dest={"index": target}, refresh=True)
        except ApiError as exc:
            if not bodies.route_missing(exc):
                raise
            await self._copy(source, target)

    async def _copy(self, source: str, target: str) -> None:
        """Copy every entry of `source` into `target` with the client's scan and bulk helpers (its
        `async_reindex` asks for data streams first, a module API a minimal node lacks)."""
        actions = (
            {"_index": target, "_id": hit["_id"], "_source": bodies.upgraded(hit["_source"])}
            async for hit in async_scan(self.client, index=source, query={"query": {"match_all": {}}}, size=500)
        )
        await async_bulk(self.client, actions, max_retries=5, initial_backoff=1)
        await self.client.indices.refresh(index=target)

    async def optimize(self, progress: Callable[[float], None] = lambda _: None) -> int:
        """Force-merge the segments index into one Lucene segment, and return how many remain.

        kNN searches every Lucene segment's HNSW graph in turn, and a bulk ingestion leaves dozens
        (65 at 100k entries; hybrid p50 24 ms before the merge). Elasticsearch's guide to kNN speed
        recommends the merge for an index that is no longer written; later writes add segments
        again. The merge runs as a task on the node (minutes at 1M entries); `progress` hears the
        seconds elapsed every five seconds."""
        started = time.monotonic()
        task = await self.client.indices.forcemerge(index=self.segments, max_num_segments=1, wait_for_completion=False)
        while not await self._finished(task["task"]):
            progress(time.monotonic() - started)
        found = await self.client.indices.segments(index=self.segments)
        return sum(
            len(shard["segments"])
            for index in found["indices"].values()
            for copies in index["shards"].values()
            for shard in copies
        )

    async def _finished(self, task: str) -> bool:
        """Wait up to five seconds on the node for `task`; whether it has completed."""
        try:
            with warnings.catch_warnings():
                # The client marks the task API "technical preview"; the node has served it since 5.x.
                warnings.simplefilter("ignore", GeneralAvailabilityWarning)
                found = await self.client.tasks.get(task_id=task, wait_for_completion=True, timeout="5s")
        except ApiError as exc:
            if exc.error != "timeout_exception":  # 500 when the wait ends with the task still running
                raise
            return False
        if "error" in found:
            raise ApiError(message=str(found["error"]), meta=found.meta, body=found.body)
        return bool(found["completed"])
