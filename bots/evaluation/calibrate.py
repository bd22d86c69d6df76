"""`threadwise eval calibrate DIR`: evidence-level thresholds fitted for the configured model.

Method: for every judged query of the split, the product's hybrid search returns its chunks; the
query's score is the mean cosine of its top three (the evidence-level rule of SPEC section 3) and
it counts as answerable when one of those three chunks belongs to a judged-relevant document.
Each threshold is the lowest score above which at least the target share of queries is
answerable: 0.9 for `high`, 0.7 for `medium`, 0.5 for `low` (with at least 10 queries above it).

The support gate's threshold: for every query whose top hit is judged relevant, the support of
that hit (core/orchestrator/support.py: ½ term share + ½ calibrated cosine, with the thresholds just
fitted); `support` is the value that SUPPORT_KEPT of those answerable queries reach, so the gate
withholds at most 1 − SUPPORT_KEPT of the answers the documents do hold. `coverage`, the share of the
query's content words a cited text must carry, is fitted the same way on the same hits.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bots.bootstrap import App
from bots.evaluation.retrieval import load_corpus, load_queries
from core.calibration import Calibration
from core.contracts import SearchFilters
from core.orchestrator.support import content_terms, passages_support, term_share

TARGETS = {"high": 0.9, "medium": 0.7, "low": 0.5}
SUPPORT_KEPT = 0.9
MIN_QUERIES = 10


def fit_threshold(points: list[tuple[float, bool]], precision: float) -> float | None:
    """The lowest score whose queries above it are answerable at `precision` or better."""
    ordered = sorted(points, key=lambda p: -p[0])
    best = None
    hits = 0
    for count, (score, answerable) in enumerate(ordered, start=1):
        hits += answerable
        if count >= MIN_QUERIES and hits / count >= precision:
            best = score
    return best


def _kept(scores: list[float]) -> float | None:
    """The value SUPPORT_KEPT of `scores` reach (None for fewer than MIN_QUERIES)."""
    if len(scores) < MIN_QUERIES:
        return None
    return sorted(scores)[int(round((1.0 - SUPPORT_KEPT) * len(scores), 6))]


def fit_support(answerable: list[tuple[str, str, float]], levels: Calibration) -> float | None:
    """The support that SUPPORT_KEPT of the answerable queries' relevant top hits reach."""
    return _kept([passages_support(query, [text], cosine, levels) for query, text, cosine in answerable])


def fit_coverage(answerable: list[tuple[str, str, float]]) -> float | None:
    """The share of the query's content words that SUPPORT_KEPT of the relevant top hits carry."""
    return _kept([term_share(content_terms(query), text) for query, text, _ in answerable])


async def calibrate(app: App, folder: Path, *, split: str = "dev") -> tuple[Calibration, dict[str, Any]]:
    """Fit thresholds on a BEIR folder's judged queries; the corpus is ingested if it is not yet."""
    await app.ingestor.ingest_documents(load_corpus(folder), collection="eval")
    queries, qrels = load_queries(folder, split)
    filters = SearchFilters(collections=["eval"])
    points: list[tuple[float, bool]] = []
    answerable_tops: list[tuple[str, str, float]] = []  # (query, top hit's text, its cosine)
    for query_id, text in queries.items():
        hits = await app.backend.search_hybrid(text, await app.embedder.embed([text]), filters, 10)
        top = hits[:3]
        if not top:
            continue
        score = sum(max(0.0, h.cosine) for h in top) / len(top)
        relevant = {doc for doc, grade in qrels[query_id].items() if grade > 0}
        points.append((score, any(h.segment.doc_id in relevant for h in top)))
        if top[0].segment.doc_id in relevant:
            answerable_tops.append((text, f"{top[0].segment.title} {top[0].segment.text}", top[0].cosine))
    default = Calibration(model=app.settings.embedding_model)
    fitted = {name: fit_threshold(points, target) for name, target in TARGETS.items()}
    high = fitted["high"] or default.high
    medium = min(fitted["medium"] or default.medium, high - 0.01)
    low = min(fitted["low"] or default.low, medium - 0.01)
    levels = Calibration(
        model=app.settings.embedding_model, high=round(high, 3), medium=round(medium, 3), low=round(low, 3)
    )
    support = fit_support(answerable_tops, levels) or default.support
    coverage = fit_coverage(answerable_tops)
    calibration = levels.model_copy(
        update={
            "support": round(support, 3),
            "coverage": round(default.coverage if coverage is None else coverage, 3),
            "method": f"eval calibrate on {folder.name} ({split}, {len(points)} queries): share answerable in top 3 "
            f"≥ {TARGETS['high']}/{TARGETS['medium']}/{TARGETS['low']}; support and coverage reached by "
            f"{SUPPORT_KEPT:.0%} of {len(answerable_tops)} relevant top hits",
        }
    )
    report = {
        "queries": len(points),
        "answerable": sum(a for _, a in points),
        "fitted": fitted | {"support": calibration.support, "coverage": calibration.coverage},
        # The shipped default: the gate's threshold under the default evidence thresholds.
        "support_at_default_levels": round(fit_support(answerable_tops, default) or default.support, 3),
        "calibration": calibration.model_dump(),
    }
    return calibration, report


def write_calibration(path: Path, calibration: Calibration) -> None:
    """Store the thresholds where the product reads them (one entry per model)."""
    existing = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    existing[calibration.model] = calibration.model_dump()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(existing, indent=2) + "\n", encoding="utf-8")
