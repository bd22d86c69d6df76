"""Reciprocal rank fusion, shared by every backend that fuses in the client."""

from __future__ import annotations

from collections.abc import Sequence

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
