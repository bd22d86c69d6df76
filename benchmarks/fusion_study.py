"""Which fusion of the BM25 and dense legs ranks best? Tune on NFCorpus; SciFact only reports.

    python benchmarks/fusion_study.py ../shared/data/beir-nfcorpus --data-dir /tmp/nf [--legs legs.json]

Ingests the dataset through the product (or reuses the index in --data-dir), collects each
query's top-100 chunks from both legs with their scores once, then scores fusion functions
offline with the same trec_eval measures as `threadwise eval retrieval`. Prints one line per
variant; nothing here changes the product.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
from collections.abc import Callable
from pathlib import Path

from bots.bootstrap import build_app
from bots.evaluation.retrieval import CHUNKS_PER_QUERY, evaluate_runs, load_corpus, load_queries
from bots.settings import Settings
from core.contracts import SearchFilters

Leg = list[tuple[str, str, float]]  # (chunk id, doc id, score), best first
Fusion = Callable[[Leg, Leg], list[tuple[str, str]]]


async def collect(folder: Path, data_dir: Path) -> dict[str, dict[str, Leg]]:
    """Each judged query's BM25 and dense legs from the product's embedded backend."""
    app = await build_app(Settings(data_dir=data_dir))
    try:
        report = await app.ingestor.ingest_documents(load_corpus(folder), collection="eval")
        assert report.ok, report.failed[:3]
        queries, _ = load_queries(folder, "test")
        filters = SearchFilters(collections=["eval"])
        legs: dict[str, dict[str, Leg]] = {}
        for query_id, text in queries.items():
            vector = await app.embedder.embed([text])
            bm25 = await app.backend.search_text(text, filters, CHUNKS_PER_QUERY, vector)
            dense = await app.backend.search_vector(vector, filters, CHUNKS_PER_QUERY)
            legs[query_id] = {
                "bm25": [(h.segment.chunk_id, h.segment.doc_id, h.bm25_score or 0.0) for h in bm25],
                "dense": [(h.segment.chunk_id, h.segment.doc_id, h.cosine) for h in dense],
            }
        return legs
    finally:
        await app.close()


def rrf(k: float, w_dense: float = 1.0) -> Fusion:
    def fuse(bm25: Leg, dense: Leg) -> list[tuple[str, str]]:
        scores: dict[tuple[str, str], float] = {}
        for weight, leg in ((1.0, bm25), (w_dense, dense)):
            for rank, (chunk, doc, _) in enumerate(leg, start=1):
                scores[(chunk, doc)] = scores.get((chunk, doc), 0.0) + weight / (k + rank)
        return [key for key, _ in sorted(scores.items(), key=lambda pair: -pair[1])]

    return fuse


def convex(alpha: float, normalise: str) -> Fusion:
    """alpha × normalised BM25 + (1 − alpha) × normalised cosine; absent from a leg = that leg's floor."""

    def scale(leg: Leg) -> dict[tuple[str, str], float]:
        if not leg:
            return {}
        values = [s for _, _, s in leg]
        if normalise == "minmax":
            low, high = min(values), max(values)
        else:  # "max": theoretical minimum 0 for both BM25 and (clipped) cosine
            low, high = 0.0, max(values)
        span = (high - low) or 1.0
        return {(c, d): (max(s, low) - low) / span for c, d, s in leg}

    def fuse(bm25: Leg, dense: Leg) -> list[tuple[str, str]]:
        a, b = scale(bm25), scale(dense)
        keys = set(a) | set(b)
        scores = {key: alpha * a.get(key, 0.0) + (1 - alpha) * b.get(key, 0.0) for key in keys}
        return [key for key, _ in sorted(scores.items(), key=lambda pair: -pair[1])]

    return fuse


def zscore(alpha: float) -> Fusion:
    def scale(leg: Leg) -> dict[tuple[str, str], float]:
        values = [s for _, _, s in leg]
        if len(values) < 2:
            return {(c, d): 0.0 for c, d, _ in leg}
        mean = sum(values) / len(values)
        sd = math.sqrt(sum((v - mean) ** 2 for v in values) / len(values)) or 1.0
        return {(c, d): (s - mean) / sd for c, d, s in leg}

    def fuse(bm25: Leg, dense: Leg) -> list[tuple[str, str]]:
        a, b = scale(bm25), scale(dense)
        floor_a, floor_b = min(a.values(), default=0.0), min(b.values(), default=0.0)
        keys = set(a) | set(b)
        scores = {key: alpha * a.get(key, floor_a) + (1 - alpha) * b.get(key, floor_b) for key in keys}
        return [key for key, _ in sorted(scores.items(), key=lambda pair: -pair[1])]

    return fuse


def measure(legs: dict[str, dict[str, Leg]], qrels: dict[str, dict[str, int]], fusion: Fusion) -> dict[str, float]:
    runs: dict[str, dict[str, float]] = {}
    for query_id, both in legs.items():
        ranked = fusion([tuple(x) for x in both["bm25"]], [tuple(x) for x in both["dense"]])[:CHUNKS_PER_QUERY]  # type: ignore[misc]
        run: dict[str, float] = {}
        for rank, (_, doc) in enumerate(ranked):
            run.setdefault(doc, float(len(ranked) - rank))
        runs[query_id] = run
    return evaluate_runs(qrels, runs)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("dataset", type=Path)
    parser.add_argument("--data-dir", type=Path, required=True)
    parser.add_argument("--legs", type=Path, help="cache of the collected legs (JSON)")
    args = parser.parse_args()
    cache = args.legs or args.data_dir / "legs.json"
    if cache.exists():
        legs = json.loads(cache.read_text())
    else:
        legs = asyncio.run(collect(args.dataset, args.data_dir))
        cache.write_text(json.dumps(legs))
    _, qrels = load_queries(args.dataset, "test")
    variants: dict[str, Fusion] = {"rrf k=60": rrf(60)}
    for k in (10, 20, 40, 100):
        variants[f"rrf k={k}"] = rrf(k)
    for w in (0.5, 0.75, 1.25, 1.5, 2.0):
        variants[f"rrf k=60 w_dense={w}"] = rrf(60, w)
    for alpha in (0.2, 0.3, 0.4, 0.5, 0.6, 0.7):
        variants[f"convex minmax a={alpha}"] = convex(alpha, "minmax")
        variants[f"convex max a={alpha}"] = convex(alpha, "max")
        variants[f"zscore a={alpha}"] = zscore(alpha)
    variants["bm25 only"] = lambda bm25, dense: [(c, d) for c, d, _ in bm25]
    variants["dense only"] = lambda bm25, dense: [(c, d) for c, d, _ in dense]
    for name, fusion in variants.items():
        metrics = measure(legs, qrels, fusion)
        ndcg, recall = metrics["ndcg_at_10"], metrics["recall_at_100"]
        print(f"{args.dataset.name:16} {name:28} nDCG@10 {ndcg:.4f}  R@100 {recall:.4f}")


if __name__ == "__main__":
    main()
