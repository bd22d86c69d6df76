"""Ingestion time against the raw encoding time of the same texts (target: at most +15%).

    python benchmarks/ingest_overhead.py [../shared/data/beir-nfcorpus] [first N documents]

Ingests the corpus through the product's pipeline into a fresh data directory (segmentation,
summaries, annotations, encoding, the embedded backend, the registry), then encodes exactly the
texts the pipeline embedded (segments and summaries) with the model alone, and compares.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
import time
from pathlib import Path

from bots.bootstrap import build_app
from bots.evaluation.retrieval import load_corpus
from bots.settings import Settings
from core.ingest.shape import summarize


async def main(folder: Path, limit: int) -> None:
    documents = load_corpus(folder)[:limit]
    settings = Settings(data_dir=Path(tempfile.mkdtemp(prefix="threadwise-bench-")))
    app = await build_app(settings)
    try:
        started = time.perf_counter()
        report = await app.ingestor.ingest_documents(documents, collection="bench")
        ingest_s = time.perf_counter() - started
        segmenter = app.ingestor._segmenter  # the same segmentation, to rebuild the embedded texts
        texts = []
        for source_id, loaded in documents:
            record = await app.storage.registry.find("bench", source_id)
            assert record is not None
            segments = segmenter.segment(loaded, record)
            texts += [s.embedding_text() for s in segments + summarize(record, segments, app.embedder.count_tokens)]
        started = time.perf_counter()
        await app.embedder.embed(texts)
        encode_s = time.perf_counter() - started
    finally:
        await app.close()
    print(f"documents {len(documents)}, segments {report.segments}, texts embedded {len(texts)}")
    print(f"ingest {ingest_s:.1f} s, raw encode {encode_s:.1f} s, overhead {100 * (ingest_s / encode_s - 1):+.1f}%")


if __name__ == "__main__":
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("../shared/data/beir-nfcorpus")
    asyncio.run(main(folder, int(sys.argv[2]) if len(sys.argv) > 2 else 1_000_000))
