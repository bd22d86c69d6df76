"""Each encoder of the embedding model: load time, query embedding latency, batch throughput, agreement.

    python benchmarks/encoder.py [../shared/data/beir-nfcorpus] [torch onnx onnx-int8]

The first load of an ONNX encoder includes its export (in PyTorch, once); `load_s` is a later
load (the export read from disk, as every command after the first does). Queries are NFCorpus
test queries, each encoded cold (the embedder's cache of recent questions is bypassed) through
the executor as the product does; passages are the first 600 NFCorpus documents (title and
text), embedded as one batch through `embed`. Agreement is the cosine of each passage's
embedding with the PyTorch reference's.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from bots.bootstrap import build_embedder
from bots.settings import Settings
from core.concurrency import CpuExecutor


def _read(folder: Path) -> tuple[list[str], list[str]]:
    with (folder / "queries.jsonl").open(encoding="utf-8") as handle:
        queries = [json.loads(line)["text"] for line in handle][:300]
    with (folder / "corpus.jsonl").open(encoding="utf-8") as handle:
        passages = []
        for line in handle:
            record = json.loads(line)
            passages.append(f"{record.get('title', '')}\n{record.get('text', '')}")
            if len(passages) == 600:
                break
    return queries, passages


async def measure(encoder: str, queries: list[str], passages: list[str], models_dir: Path) -> dict[str, object]:
    settings = Settings(data_dir=models_dir.parent, encoder=encoder)
    executor = CpuExecutor(max_workers=settings.cpu_workers)
    try:
        started = time.perf_counter()
        await build_embedder(settings, executor).load()  # the ONNX encoders export here, once
        first_load_s = time.perf_counter() - started
        embedder = build_embedder(settings, executor)
        started = time.perf_counter()
        await embedder.load()
        load_s = time.perf_counter() - started
        timings = []
        for query in queries:
            started = time.perf_counter()
            await executor.run(embedder.encode, [query])
            timings.append(time.perf_counter() - started)
        started = time.perf_counter()
        vectors = await embedder.embed(passages)
        batch_s = time.perf_counter() - started
    finally:
        executor.shutdown()
    timings.sort()
    return {
        "first_load_s": round(first_load_s, 2),
        "load_s": round(load_s, 2),
        "query_p50_ms": round(1000 * statistics.median(timings), 2),
        "query_p95_ms": round(1000 * timings[int(0.95 * len(timings))], 2),
        "passages_per_s": round(len(passages) / batch_s, 1),
        "vectors": vectors,
    }


async def main(folder: Path, encoders: list[str]) -> None:
    queries, passages = _read(folder)
    models_dir = Path(tempfile.mkdtemp(prefix="threadwise-encoder-")) / "models"
    results = {name: await measure(name, queries, passages, models_dir) for name in dict.fromkeys(["torch", *encoders])}
    reference = results["torch"]["vectors"]
    for name, result in results.items():
        vectors = result.pop("vectors")
        cosines = np.sum(vectors * reference, axis=1)  # type: ignore[operator]
        result["cosine_min"], result["cosine_mean"] = round(float(cosines.min()), 4), round(float(cosines.mean()), 4)
        print(name, result)


if __name__ == "__main__":
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("../shared/data/beir-nfcorpus")
    asyncio.run(main(folder, sys.argv[2:] or ["onnx", "onnx-int8"]))
