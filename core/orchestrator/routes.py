"""The tools each route runs: text/vector search, summaries with drill-down, annotations."""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field

from core.contracts import Evidence, RetrievalRound, RouteName, SearchFilters, TableResult
from core.knowledge import Annotation, AnnotationQuery, SearchHit
from core.orchestrator.structured import StructuredQuery
from core.orchestrator.tables import aggregate_table, annotation_table, narrowing_choices
from core.ports import Embedder, Embeddings, SearchBackend
from core.text import contents_listing, snippet

MAX_CHUNKS_PER_DOCUMENT = 3
WORD_PLACES = 2
"""Places a confined document gives the passages that carry the question's words best (BM25)."""
SUMMARIES_TO_DRILL = 3
PASSAGES_TO_DRILL = 2
"""The documents of this many best passages join the drill-down (`RouteTools.long_text`). Measured with
the passage-level versions of `evidence.newest_versions` on the development sets (session 66): fed
439 → 442, FOMC 381 → 386, no case lost."""
ALL_ROWS = 10_000


@dataclass
class RoundResult:
    """What one tool call found."""

    evidence: list[Evidence]
    report: RetrievalRound
    annotations: list[Annotation] = field(default_factory=list)
    total: int = 0
    table: TableResult | None = None
    choices: tuple[str, list[tuple[str, int]]] | None = None


def hits_to_evidence(hits: list[SearchHit], round_id: int, query: str, mode: str) -> list[Evidence]:
    """Hits → evidence, deduplicated, at most a few chunks per document, in rank order."""
    per_doc: Counter[str] = Counter()
    evidence: list[Evidence] = []
    seen: set[str] = set()
    for hit in hits:
        seg = hit.segment
        if seg.chunk_id in seen or per_doc[seg.doc_id] >= MAX_CHUNKS_PER_DOCUMENT or contents_listing(seg.text):
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
                position=seg.position,
                url=seg.url,
                date=seg.date,
                collection=seg.collection,
                round_id=round_id,
                query=query,
                mode=mode,
                bm25_rank=hit.bm25_rank,
                vector_rank=hit.vector_rank,
                rrf_score=hit.rrf_score,
                relevance=max(0.0, min(1.0, hit.cosine)),
            )
        )
    return evidence


def annotations_to_evidence(annotations: list[Annotation], round_id: int, query: str, limit: int) -> list[Evidence]:
    """Structured hits as evidence; each meets every explicit filter, so its relevance is 1.0."""
    grouped: dict[str, list[Annotation]] = {}
    for annotation in annotations:
        grouped.setdefault(annotation.chunk_id or f"{annotation.doc_id}:rows", []).append(annotation)
    evidence = []
    for chunk_id, group in list(grouped.items())[:limit]:
        first = group[0]
        text = "\n".join(f"{a.label}: {a.value}" if a.kind == "fact" else a.value for a in group[:20])
        evidence.append(
            Evidence(
                doc_id=first.doc_id,
                chunk_id=chunk_id,
                kind=first.kind,
                text=text,
                snippet=snippet(text),
                title=first.title,
                section=first.section,
                page=first.page,
                date=first.date,
                collection=first.collection,
                round_id=round_id,
                query=query,
                mode="structured",
                relevance=1.0,
            )
        )
    return evidence


class RouteTools:
    """Runs one round of a route's tools and reports it."""

    def __init__(self, *, backend: SearchBackend, embedder: Embedder) -> None:
        self._backend = backend
        self._embedder = embedder

    async def text(
        self,
        route: RouteName,
        query: str,
        vector: Embeddings,
        filters: SearchFilters,
        limit: int,
        round_id: int,
        recency_boost: float,
    ) -> RoundResult:
        """Hybrid BM25 + vector search over segments."""
        started = time.perf_counter()
        hits = await self._backend.search_hybrid(query, vector, filters, limit, recency_boost)
        return RoundResult(
            evidence=hits_to_evidence(hits, round_id, query, "hybrid"),
            report=_report(
                round_id, route, "search_hybrid", query, filters, len(hits), f"top {limit}, RRF k=60", started
            ),
        )

    async def long_text(
        self,
        query: str,
        vector: Embeddings,
        filters: SearchFilters,
        limit: int,
        round_id: int,
        recency_boost: float,
    ) -> RoundResult:
        """Summaries first, then segments inside the best documents (drill-down): those whose summaries
        match the question best, and those of the passages that match it best (`PASSAGES_TO_DRILL`).

        General case: a summary tells what a document is about, not every detail it writes; where
        several documents are about the same things (a yearly series of reports, a committee's
        minutes), the one that writes the detail asked ("three data visualization dashboards") is
        found by its passage, not by its summary."""
        started = time.perf_counter()
        summaries = await self._backend.search_vector(vector, filters, SUMMARIES_TO_DRILL, scope="summary")
        if not summaries:
            return await self.text("long_text", query, vector, filters, limit, round_id, recency_boost)
        passages = await self._backend.search_hybrid(query, vector, filters, PASSAGES_TO_DRILL, recency_boost)
        documents = [h.segment.doc_id for h in summaries] + [h.segment.doc_id for h in passages]
        inside = filters.model_copy(update={"doc_ids": list(dict.fromkeys(documents))})
        hits = await self._backend.search_hybrid(query, vector, inside, limit, recency_boost)
        tool = (
            f"search_vector(scope=summary, top {SUMMARIES_TO_DRILL}) + search_hybrid(top {PASSAGES_TO_DRILL})"
            " → search_hybrid(drill-down)"
        )
        return RoundResult(
            evidence=hits_to_evidence(hits, round_id, query, "summary"),
            report=_report(round_id, "long_text", tool, query, inside, len(hits), f"top {limit}", started),
        )

    async def with_words(
        self, result: RoundResult, query: str, vector: Embeddings, filters: SearchFilters
    ) -> RoundResult:
        """When the search is confined to one document — by the question's names, or by the date that
        left one document's summary to drill into (a meeting's minutes) — the passages that carry its
        words best join the evidence too (general case: inside one document every passage is about
        its subject, so meaning separates them less than the question's own words: "field offices"
        is the best word match of OPM's report and its 36th by meaning; "three briefings" is the
        third word match of the January 2018 minutes and none of its first ten by meaning)."""
        scope = result.report.filters if result.report.filters.doc_ids else filters  # what the round searched
        if not scope.doc_ids or len(scope.doc_ids) != 1:
            return result
        return await self.words_in(result, query, vector, scope)

    async def words_in(self, result: RoundResult, query: str, vector: Embeddings, scope: SearchFilters) -> RoundResult:
        """`result`, with the passages of `scope` that carry the query's words best (`WORD_PLACES`)."""
        evidence = result.evidence
        if not evidence:
            return result
        hits = await self._backend.search_text(query, scope, WORD_PLACES + MAX_CHUNKS_PER_DOCUMENT, vector)
        known = {e.chunk_id for e in evidence}
        fresh = [h for h in hits if h.segment.chunk_id not in known and not contents_listing(h.segment.text)]
        round_id, mode = evidence[0].round_id, evidence[0].mode
        result.evidence = evidence + hits_to_evidence(fresh[:WORD_PLACES], round_id, query, mode)
        return result

    async def facts(self, filters: SearchFilters) -> list[Annotation]:
        """Every "label: value" fact within the filters."""
        found = await self._backend.annotations_search(AnnotationQuery(kind="fact"), filters, ALL_ROWS, None)
        return found.annotations

    async def structured(
        self,
        route: RouteName,
        plan: StructuredQuery,
        filters: SearchFilters,
        round_id: int,
        max_rows: int,
        max_evidence: int,
    ) -> RoundResult:
        """Every matching annotation (exact total), the shown rows, and an aggregate when asked."""
        started = time.perf_counter()
        terms = plan.query.label_terms()
        vectors = await self._embedder.embed(terms) if terms else None
        found = await self._backend.annotations_search(plan.query, filters, ALL_ROWS, vectors)
        query_text = plan.query.model_dump_json(exclude_defaults=True)
        evidence = annotations_to_evidence(found.annotations, round_id, query_text, max_evidence)
        table: TableResult | None = None
        if plan.function and found.total:
            groups = await self._backend.annotations_aggregate(
                plan.query, filters, plan.function, plan.field, plan.group_by, vectors
            )
            if plan.function != "count" and all(g.value is None for g in groups):
                # No matching row holds a figure to add up: "Sum of value: –" answers nothing, and
                # the question goes on to the text (general case: "the total budget" over fields
                # whose values are names and dates).
                threshold = f"no figure to {plan.function} in {found.total} matching rows"
                report = _report(round_id, route, "annotations_aggregate", query_text, filters, 0, threshold, started)
                return RoundResult(evidence=[], report=report)
            table = aggregate_table(groups, plan.function, plan.field, plan.group_by)
        elif found.total:
            columns, rows = annotation_table(found.annotations)
            table = TableResult(
                columns=columns, rows=rows[:max_rows], total=found.total, shown=min(max_rows, len(rows))
            )
        choices = narrowing_choices(found.annotations) if found.total > max_rows and not plan.function else None
        threshold = "every explicit filter met (relevance 1.0)"
        return RoundResult(
            evidence=evidence,
            report=_report(round_id, route, "annotations_search", query_text, filters, found.total, threshold, started),
            annotations=found.annotations,
            total=found.total,
            table=table,
            choices=choices,
        )


def _report(
    round_id: int,
    route: RouteName,
    tool: str,
    query: str,
    filters: SearchFilters,
    matches: int,
    threshold: str,
    started: float,
) -> RetrievalRound:
    return RetrievalRound(
        round_id=round_id,
        route=route,
        tool=tool,
        query=query,
        filters=filters,
        matches=matches,
        threshold=threshold,
        took_ms=round((time.perf_counter() - started) * 1000, 2),
    )
