"""Reciprocal rank fusion, shared by every backend that fuses in the client."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence

RRF_K = 60


def reciprocal_rank_fusion(rankings: Sequence[Sequence[str]], k: int = RRF_K) -> dict[str, float]:
    """Fuse ranked id lists: score(id) = Σ 1 / (k + rank), ranks starting at 1.

    Returns the fused scores, insertion-ordered from best to worst (ties keep first-seen order).
    """
    scores: dict[str, float] = {}
    for ranking in rankings:
        seen: set[str] = set()
        for rank, item in enumerate(ranking, start=1):
            if item in seen:
                continue
            seen.add(item)
            scores[item] = scores.get(item, 0.0) + 1.0 / (k + rank)
    ordered = sorted(scores.items(), key=lambda pair: -pair[1])
    return dict(ordered)


def boost_recent(fused: Mapping[str, float], dates: Mapping[str, dt.date | None], boost: float) -> dict[str, float]:
    """Add a bonus of up to `boost` × the best score for newer dates; order only, never relevance."""
    known = [d.toordinal() for d in dates.values() if d is not None]
    if not fused or not known or max(known) == min(known) or boost <= 0:
        return dict(fused)
    low, high = min(known), max(known)
    top = max(fused.values())

    def bonus(key: str) -> float:
        date = dates.get(key)
        return boost * top * (date.toordinal() - low) / (high - low) if date else 0.0

    boosted = {key: score + bonus(key) for key, score in fused.items()}
    return dict(sorted(boosted.items(), key=lambda pair: -pair[1]))
