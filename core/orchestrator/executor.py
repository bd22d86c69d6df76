"""Executor: retrieval rounds, evidence assembly, evaluation and recovery (SPEC section 3)."""

from __future__ import annotations

import time
from collections import Counter

from core.calibration import Calibration
from core.contracts import Evidence, EvidenceLevel, ExecutionPlan, RetrievalRound, SearchFilters
from core.knowledge import SearchHit
from core.orchestrator.state import GraphState, RecoveryStep
from core.ports import Embedder, SearchBackend
from core.text import key_terms, snippet

MAX_CHUNKS_PER_DOCUMENT = 3


class Executor:
    """Runs the plan's retrieval rounds against a search backend."""

    def __init__(self, *, backend: SearchBackend, embedder: Embedder, calibration: Calibration) -> None:
        self._backend = backend
        self._embedder = embedder
        self._calibration = calibration

    async def retrieve(self, state: GraphState) -> dict[str, object]:
        """One round; with a date window, in-range hits first and out-of-range only to fill in."""
        assert state.plan is not None
        assert state.route is not None
        plan = state.plan
        query = plan.revised_query
        limit = state.budgets.candidates_per_round
        base = SearchFilters(collections=state.collections)
        started = time.perf_counter()
        vector = await self._embedder.embed([query])
        dated = plan.date_start is not None and state.date_filter
        filters = (
            base.model_copy(update={"date_start": plan.date_start, "date_end": plan.date_end})
            if dated
            else base
        )
        hits = await self._backend.search_hybrid(query, vector, filters, limit)
        round_id = len(state.rounds) + 1
        evidence = self._assemble(hits, round_id, query)
        out_of_range = False
        if dated and self._level(evidence, state) in ("low", "insufficient"):
            # Second pass of the same round (seed 000): out-of-range hits only fill in.
            extra = await self._backend.search_hybrid(query, vector, base, limit)
            known = {e.chunk_id for e in evidence}
            filler = [e for e in self._assemble(extra, round_id, query) if e.chunk_id not in known]
            out_of_range = bool(filler)
            evidence = evidence + filler
            hits = hits + [h for h in extra if h.segment.chunk_id not in known]
        took = (time.perf_counter() - started) * 1000
        # Candidates under the score cut-off are kept to show as "best low-relevance matches",
        # but they are not evidence: they would only dilute the evidence level.
        cutoff = self._calibration.low
        relevant = [e for e in evidence if e.relevance >= cutoff]
        report = RetrievalRound(
            round_id=round_id,
            route=state.route.route,
            tool="search_hybrid",
            query=query,
            filters=filters,
            matches=len(hits),
            threshold=f"top {limit}, RRF k=60, relevance >= {cutoff:.2f}",
            took_ms=round(took, 2),
        )
        return {
            "rounds": [report],
            "candidates": evidence,
            "evidence": relevant,
            "out_of_range_used": out_of_range and any(e.date is not None for e in relevant),
        }

    def _assemble(self, hits: list[SearchHit], round_id: int, query: str) -> list[Evidence]:
        """Hits → evidence, deduplicated, at most a few chunks per document, best first."""
        per_doc: Counter[str] = Counter()
        evidence: list[Evidence] = []
        seen: set[str] = set()
        for hit in hits:
            seg = hit.segment
            if seg.chunk_id in seen or per_doc[seg.doc_id] >= MAX_CHUNKS_PER_DOCUMENT:
                continue
            seen.add(seg.chunk_id)
            per_doc[seg.doc_id] += 1
            evidence.append(
                Evidence(
                    doc_id=seg.doc_id,
                    chunk_id=seg.chunk_id,
                    kind=seg.kind,
                    text=seg.text,
                    snippet=snippet(seg.text),
                    title=seg.title,
                    section=seg.section,
                    page=seg.page,
                    url=seg.url,
                    date=seg.date,
                    collection=seg.collection,
                    round_id=round_id,
                    query=query,
                    mode="hybrid",
                    bm25_rank=hit.bm25_rank,
                    vector_rank=hit.vector_rank,
                    rrf_score=hit.rrf_score,
                    relevance=max(0.0, min(1.0, hit.cosine)),
                )
            )
        return evidence

    def _level(self, evidence: list[Evidence], state: GraphState) -> EvidenceLevel:
        if not evidence:
            return "insufficient"
        numeric = state.intake is not None and state.intake.intent == "numeric_lookup"
        top = evidence[: 1 if numeric else 3]
        return self._calibration.level(sum(e.relevance for e in top) / len(top))

    async def evaluate(self, state: GraphState) -> dict[str, object]:
        """Evidence level from the mean relevance of the top min(3, n) (top 1 for lookups)."""
        level = self._level(state.evidence, state)
        if state.rounds:
            last = state.rounds[-1]
            branch = (
                "EMPTY_SET"
                if not state.candidates
                else ("SUCCESS" if level in ("high", "medium") else "LOW_CONFIDENCE")
            )
            updated = last.model_copy(update={"branch": branch})
            # The round's branch is known only now; merge_rounds replaces the report.
            return {"evidence_level": level, "rounds": [updated]}
        return {"evidence_level": level}


def next_recovery(state: GraphState) -> RecoveryStep | None:
    """The next recovery step that can still change the outcome, or None."""
    if len({r.round_id for r in state.rounds}) >= state.budgets.max_rounds:
        return None
    plan = state.plan
    if plan is None:
        return None
    if plan.date_start is not None and state.date_filter and "relax_filters" not in state.recoveries:
        return "relax_filters"
    if state.route and state.route.fallbacks and "next_route" not in state.recoveries:
        return "next_route"
    if "reformulate" not in state.recoveries and _reformulated(plan) != plan.revised_query:
        return "reformulate"
    return None


def recover(state: GraphState) -> dict[str, object]:
    """Relax filters, then the next fallback route, then reformulate the query."""
    step = next_recovery(state)
    assert step is not None
    assert state.plan is not None
    assert state.route is not None
    update: dict[str, object] = {"recoveries": [*state.recoveries, step]}
    if step == "relax_filters":
        update["date_filter"] = False
    elif step == "next_route":
        route = state.route
        update["route"] = route.model_copy(
            update={"route": route.fallbacks[0], "fallbacks": route.fallbacks[1:]}
        )
    else:
        update["plan"] = state.plan.model_copy(update={"revised_query": _reformulated(state.plan)})
    return update


def _reformulated(plan: ExecutionPlan) -> str:
    """Deterministic reformulation: the question's key terms without stop-phrases."""
    return " ".join(key_terms(plan.original_query)) or plan.revised_query
