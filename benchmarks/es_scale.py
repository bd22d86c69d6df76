"""Hybrid query latency and write rate at 100k and 1M segments, Elasticsearch beside embedded (issue 25).

    python benchmarks/es_scale.py BACKEND SIZE [--vector-index hnsw|int8_hnsw] [--optimize] [--nfcorpus DIR]

BACKEND is `elasticsearch` (the node in THREADWISE_ELASTICSEARCH_URL; `bash tests/services.sh start`)
or `embedded`. Segments are real NFCorpus passages, repeated with distinct ids to reach SIZE, written
through the backend's own `upsert_document` in documents of 1,000 segments, then one refresh. Their
vectors are synthetic unit vectors: encoding 1M passages would take most of a day on this machine,
and neither the HNSW graph's cost nor exact search's depends on the values. The write rate is the
backend's alone (the encoder is not in it). Queries are 300 real NFCorpus queries; each is timed
twice: the search alone, and the search with the real model's query encoding. With `--optimize`,
the Elasticsearch index is then force-merged (`threadwise index optimize`) and measured again. The
Elasticsearch indices are deleted afterwards. Prints one JSON line.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from adapters.search.elasticsearch import ElasticsearchBackend
from adapters.search.embedded import EmbeddedSearchBackend
from bots.bootstrap import build_embedder
from bots.settings import Settings
from core.concurrency import CpuExecutor
from core.contracts import SearchFilters
from core.knowledge import DocumentRecord, Segment
from core.ports import SearchBackend

QUERIES = 300
PER_DOCUMENT = 1000
LIMIT = 50


async def build(kind: str, dimension: int, executor: CpuExecutor, vector_index: str, data: Path) -> SearchBackend:
    if kind == "embedded":
        return EmbeddedSearchBackend(
            path=data / "scale.sqlite3", executor=executor, model_name="all-MiniLM-L6-v2", dimension=dimension
        )
    from elasticsearch import AsyncElasticsearch

    url = os.environ["THREADWISE_ELASTICSEARCH_URL"]
    client = AsyncElasticsearch(url, request_timeout=120, retry_on_timeout=True)
    backend = ElasticsearchBackend(
        client=client, dimension=dimension, prefix="threadwise-scale", replicas=0, vector_index=vector_index
    )
    for name in list(await client.indices.get(index="threadwise-scale-*", expand_wildcards="all")):
        await client.indices.delete(index=name)  # a previous run's indices
    await backend.ensure_indices()
    return backend


def segments_of(doc_id: str, start: int, passages: list[dict[str, Any]]) -> list[Segment]:
    return [
        Segment(
            chunk_id=f"{doc_id}:{i}",
            doc_id=doc_id,
            collection="bench",
            position=i,
            text=passages[(start + i) % len(passages)]["text"],
            title=passages[(start + i) % len(passages)]["title"],
        )
        for i in range(PER_DOCUMENT)
    ]


def record_of(doc_id: str) -> DocumentRecord:
    return DocumentRecord(
        doc_id=doc_id,
        collection="bench",
        title=doc_id,
        source_path=doc_id,
        relative_path=doc_id,
        media_type="text/plain",
        content_hash=doc_id,
    )


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return round(ordered[int(q * (len(ordered) - 1))], 1)


async def measure(kind: str, size: int, vector_index: str, folder: Path, optimize: bool) -> dict[str, Any]:
    passages = [json.loads(line) for line in (folder / "corpus.jsonl").open(encoding="utf-8")]
    queries = [json.loads(line)["text"] for line in (folder / "queries.jsonl").open(encoding="utf-8")][:QUERIES]
    data = Path(tempfile.mkdtemp(prefix="threadwise-scale-"))
    executor = CpuExecutor(max_workers=2)
    embedder = build_embedder(Settings(data_dir=data), executor)
    await embedder.load()
    backend = await build(kind, embedder.dimension, executor, vector_index, data)
    rng = np.random.default_rng(7)
    writing = 0.0
    for start in range(0, size, PER_DOCUMENT):
        vectors = rng.normal(size=(PER_DOCUMENT, embedder.dimension)).astype(np.float32)
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        doc_id = f"bench{start}"
        segments = segments_of(doc_id, start, passages)  # built outside the timed section
        began = time.perf_counter()
        await backend.upsert_document(record_of(doc_id), segments, vectors)
        writing += time.perf_counter() - began
        if start and start % 100_000 == 0:
            print(json.dumps({"written": start, "seconds": round(writing, 1)}), flush=True)
    began = time.perf_counter()
    await backend.refresh()
    writing += time.perf_counter() - began
    result: dict[str, Any] = {
        "backend": kind,
        "vector_index": vector_index if kind == "elasticsearch" else "exact",
        "segments": size,
        "write_s": round(writing, 1),
        "write_per_s": round(size / writing),
    }
    result |= await latencies(backend, embedder, executor, queries)
    if optimize and isinstance(backend, ElasticsearchBackend):
        print(json.dumps(result), flush=True)  # the figures so far, should the merge not finish
        began = time.perf_counter()
        left = await backend.optimize(lambda s: print(json.dumps({"merging_s": round(s)}), flush=True))
        result["optimize_s"] = round(time.perf_counter() - began, 1)
        result["lucene_segments_after"] = left
        result["optimized"] = await latencies(backend, embedder, executor, queries)
    if isinstance(backend, ElasticsearchBackend):
        found = await backend.client.count(index=backend.segments, query={"term": {"kind": "segment"}})
        assert found["count"] == size, found
        for name in list(await backend.client.indices.get(index="threadwise-scale-*", expand_wildcards="all")):
            await backend.client.indices.delete(index=name)
    await backend.close()
    executor.shutdown()
    return result


async def latencies(backend: SearchBackend, embedder: Any, executor: CpuExecutor, queries: list[str]) -> dict[str, Any]:
    """Hybrid search p50/p95 over the queries, alone and with each query's encoding."""
    filters = SearchFilters(collections=["bench"])
    for text in queries[:20]:  # warm the caches (and, on Elasticsearch, load the graph)
        await backend.search_hybrid(text, await executor.run(embedder.encode, [text]), filters, LIMIT)
    searching, with_encoding = [], []
    for text in queries:
        started = time.perf_counter()
        vector = await executor.run(embedder.encode, [text])  # a cold encode every time
        encoded = time.perf_counter()
        await backend.search_hybrid(text, vector, filters, LIMIT)
        done = time.perf_counter()
        searching.append((done - encoded) * 1000)
        with_encoding.append((done - started) * 1000)
    return {
        "hybrid_search_p50_ms": percentile(searching, 0.5),
        "hybrid_search_p95_ms": percentile(searching, 0.95),
        "with_encoding_p50_ms": percentile(with_encoding, 0.5),
        "with_encoding_p95_ms": percentile(with_encoding, 0.95),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("backend", choices=["elasticsearch", "embedded"])
    parser.add_argument("size", type=int)
    parser.add_argument("--vector-index", default="int8_hnsw", choices=["hnsw", "int8_hnsw"])
    parser.add_argument("--optimize", action="store_true", help="then force-merge (`index optimize`), measure again")
    parser.add_argument("--nfcorpus", type=Path, default=Path(__file__).parents[2] / "shared/data/beir-nfcorpus")
    args = parser.parse_args()
    print(json.dumps(asyncio.run(measure(args.backend, args.size, args.vector_index, args.nfcorpus, args.optimize))))


if __name__ == "__main__":
    main()
