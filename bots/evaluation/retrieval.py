"""`threadwise eval retrieval DIR`: BEIR-layout retrieval quality through the product's own code.

Documents go in through the ingestion pipeline (segments, summaries, embeddings, the configured
backend); each query runs `search_text` (bm25), `search_vector` (dense) and `search_hybrid`;
a document scores as its best chunk. Metrics come from trec_eval (pytrec_eval).
"""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytrec_eval

from bots.bootstrap import App
from core.contracts import SearchFilters
from core.ingest.pipeline import IngestProgress
from core.knowledge import LoadedDocument, SearchHit, SourceBlock

CHUNKS_PER_QUERY = 100
MEASURES = {"ndcg_cut.10", "recall.100", "recip_rank"}


def load_corpus(folder: Path) -> list[tuple[str, LoadedDocument]]:
    """`corpus.jsonl` as loaded documents (title + text)."""
    documents = []
    with (folder / "corpus.jsonl").open(encoding="utf-8") as handle:
        for line in handle:
            record = json.loads(line)
            title = (record.get("title") or "").strip() or str(record["_id"])
            documents.append(
                (
                    str(record["_id"]),
                    LoadedDocument(
                        title=title,
                        blocks=[SourceBlock(text=record.get("text") or title)],
                        media_type="application/x-ndjson",
                    ),
                )
            )
    return documents


def load_queries(folder: Path, split: str) -> tuple[dict[str, str], dict[str, dict[str, int]]]:
    """Queries that have judgements in `qrels/<split>.tsv`, and those judgements."""
    qrels: dict[str, dict[str, int]] = {}
    with (folder / "qrels" / f"{split}.tsv").open(encoding="utf-8") as handle:
        next(handle)
        for line in handle:
            query_id, doc_id, score = line.rstrip("\n").split("\t")
            qrels.setdefault(query_id, {})[doc_id] = int(score)
    queries = {}
    with (folder / "queries.jsonl").open(encoding="utf-8") as handle:
        for line in handle:
            record = json.loads(line)
            if str(record["_id"]) in qrels:
                queries[str(record["_id"])] = record["text"]
    return queries, {q: qrels[q] for q in queries}


def documents_by_best_chunk(hits: list[SearchHit]) -> dict[str, float]:
    """A document scores as its best chunk: rank order becomes a descending score."""
    run: dict[str, float] = {}
    for rank, hit in enumerate(hits):
        run.setdefault(hit.segment.doc_id, float(len(hits) - rank))
    return run


def evaluate_runs(qrels: dict[str, dict[str, int]], runs: dict[str, dict[str, float]]) -> dict[str, float]:
    """Mean nDCG@10, Recall@100 and MRR@10 over the judged queries."""
    cut = {q: dict(sorted(run.items(), key=lambda pair: -pair[1])[:CHUNKS_PER_QUERY]) for q, run in runs.items()}
    per_query = pytrec_eval.RelevanceEvaluator(qrels, MEASURES).evaluate(cut)
    top10 = {q: dict(sorted(run.items(), key=lambda pair: -pair[1])[:10]) for q, run in runs.items()}
    mrr = pytrec_eval.RelevanceEvaluator(qrels, {"recip_rank"}).evaluate(top10)

    def mean(values: list[float]) -> float:
        return round(statistics.fmean(values), 4) if values else 0.0

    return {
        "ndcg_at_10": mean([m["ndcg_cut_10"] for m in per_query.values()]),
        "recall_at_100": mean([m["recall_100"] for m in per_query.values()]),
        "mrr_at_10": mean([m["recip_rank"] for m in mrr.values()]),
    }


async def evaluate_retrieval(
    app: App,
    folder: Path,
    *,
    split: str = "test",
    progress: IngestProgress | None = None,
    on_query: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Ingest the corpus, run every judged query in the three modes, and measure."""
    documents = load_corpus(folder)
    started = time.perf_counter()
    report = await app.ingestor.ingest_documents(documents, collection="eval", progress=progress)
    index_s = time.perf_counter() - started
    if not report.ok:
        raise RuntimeError(f"{len(report.failed)} documents failed to ingest: {report.failed[:3]}")
    queries, qrels = load_queries(folder, split)
    filters = SearchFilters(collections=["eval"])
    runs: dict[str, dict[str, dict[str, float]]] = {"bm25": {}, "dense": {}, "hybrid": {}}
    latencies: list[float] = []
    for number, (query_id, text) in enumerate(queries.items(), start=1):
        began = time.perf_counter()
        vector = await app.embedder.embed([text])
        hybrid = await app.backend.search_hybrid(text, vector, filters, CHUNKS_PER_QUERY)
        latencies.append((time.perf_counter() - began) * 1000)
        runs["hybrid"][query_id] = documents_by_best_chunk(hybrid)
        runs["bm25"][query_id] = documents_by_best_chunk(
            await app.backend.search_text(text, filters, CHUNKS_PER_QUERY, vector)
        )
        runs["dense"][query_id] = documents_by_best_chunk(
            await app.backend.search_vector(vector, filters, CHUNKS_PER_QUERY)
        )
        if on_query:
            on_query(number, len(queries))
    ordered = sorted(latencies)
    return {
        "dataset": folder.name,
        "documents": len(documents),
        "queries": len(queries),
        "modes": {mode: evaluate_runs(qrels, run) for mode, run in runs.items()},
        "timings": {
            "index_s": round(index_s, 2),
            "query_ms_p50": round(statistics.median(ordered), 2) if ordered else 0.0,
            "query_ms_p95": round(ordered[int(0.95 * (len(ordered) - 1))], 2) if ordered else 0.0,
        },
        "segments": report.segments,
    }
