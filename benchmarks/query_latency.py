"""Embedded hybrid search latency (query embedding included) at 10k and 100k chunks.

    python benchmarks/query_latency.py [../shared/data/beir-nfcorpus] [sizes...]

The index holds real NFCorpus passages (repeated with distinct ids to reach the size) for BM25,
with random unit vectors as their embeddings: the cost of exact vector search does not depend on
the values, and encoding 100k passages would take most of an hour on this machine. Queries are
real NFCorpus queries, embedded by the real model inside the timed section.
"""

from __future__ import annotations

import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from es_scale import PER_DOCUMENT, percentile, record_of, segments_of  # the same passages and records

from adapters.search.embedded import EmbeddedSearchBackend
from bots.bootstrap import build_app
from bots.settings import Settings
from core.contracts import SearchFilters

QUERIES = 300


async def measure(folder: Path, size: int) -> dict[str, float]:
    passages = [json.loads(line) for line in (folder / "corpus.jsonl").open(encoding="utf-8")]
    queries = [json.loads(line)["text"] for line in (folder / "queries.jsonl").open(encoding="utf-8")][:QUERIES]
    data = Path(tempfile.mkdtemp(prefix="threadwise-latency-"))
    app = await build_app(Settings(data_dir=data))
    backend = EmbeddedSearchBackend(
        path=data / "latency.sqlite3",
        executor=app.executor,
        model_name=app.embedder.model_name,
        dimension=app.embedder.dimension,
    )
    rng = np.random.default_rng(7)
    for start in range(0, size, PER_DOCUMENT):
        vectors = rng.normal(size=(PER_DOCUMENT, app.embedder.dimension)).astype(np.float32)
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        doc_id = f"bench{start}"
        segments = segments_of(doc_id, start, passages)
        record = record_of(doc_id)
        await backend.upsert_document(record, segments, vectors)
    filters = SearchFilters(collections=["bench"])
    await backend.search_hybrid("warm up", await app.embedder.embed(["warm up"]), filters, 50)
    bm25_only, vector_only = [], []

    async def embed(text: str) -> np.ndarray:
        # The embedder keeps recent single queries; the benchmark times a cold encode every time.
        return await app.executor.run(app.embedder.encode, [text])

    for text in queries[:100]:
        vector = await embed(text)
        started = time.perf_counter()
        await backend.search_text(text, filters, 50, vector)
        middle = time.perf_counter()
        await backend.search_vector(vector, filters, 50)
        bm25_only.append((middle - started) * 1000)
        vector_only.append((time.perf_counter() - middle) * 1000)
    timings, embedding, searching = [], [], []
    for text in queries:
        started = time.perf_counter()
        vector = await embed(text)
        embedded = time.perf_counter()
        await backend.search_hybrid(text, vector, filters, 50)
        done = time.perf_counter()
        timings.append((done - started) * 1000)
        embedding.append((embedded - started) * 1000)
        searching.append((done - embedded) * 1000)
    await backend.close()
    await app.close()
    return {
        "chunks": size,
        "p50_ms": percentile(timings, 0.5),
        "p95_ms": percentile(timings, 0.95),
        "embed_p50_ms": percentile(embedding, 0.5),
        "search_p50_ms": percentile(searching, 0.5),
        "search_p95_ms": percentile(searching, 0.95),
        "bm25_leg_p50_ms": percentile(bm25_only, 0.5),
        "vector_leg_p50_ms": percentile(vector_only, 0.5),
    }


async def main(folder: Path) -> None:
    sizes = [int(a) for a in sys.argv[2:]] or [10_000, 100_000]
    for size in sizes:
        print(await measure(folder, size))


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("../shared/data/beir-nfcorpus")))
