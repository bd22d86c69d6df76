"""Executor: retrieval rounds per route, the date two-pass and evaluation (SPEC section 3)."""

from __future__ import annotations

from core.calibration import Calibration
from core.contracts import Evidence, EvidenceLevel, RetrievalRound, SearchFilters, TableResult
from core.orchestrator.asked_names import NUMBERED
from core.orchestrator.evidence import (
    LEVEL_MARGIN,
    after_newest,
    counting,
    each_named,
    most_recent,
    naming_all,
    newest_versions,
    outside_dates,
    recent_since,
    strength,
    supporting,
    versions_of_years,
)
from core.orchestrator.people import as_evidence, holding_roles, role_terms
from core.orchestrator.routes import RoundResult, RouteTools
from core.orchestrator.state import GraphState
from core.orchestrator.support import TOP_PASSAGES, asked_signals, content_terms, name_forms, passages_support
from core.orchestrator.tables import annotation_table
from core.ports import Clock, Embedder, Embeddings, Reranker, ResultSetStore, SearchBackend
from core.understanding import answer_kind, question_parts

RECENCY_BOOST = 0.3
OCCASION_DOCUMENTS = 2
"""A date window holding this many documents at most is one occasion's record (a meeting's statement
and its minutes; a filing and its amendment): see `Executor._occasion`."""


class Executor:
    """Runs the plan's retrieval rounds."""

    def __init__(
        self,
        *,
        backend: SearchBackend,
        embedder: Embedder,
        calibration: Calibration,
        clock: Clock,
        result_sets: ResultSetStore | None = None,
        reranker: Reranker | None = None,
        reranker_configured: bool = False,
    ) -> None:
        self._tools = RouteTools(backend=backend, embedder=embedder)
        self._backend = backend
        self._embedder = embedder
        self._calibration = calibration
        self._clock = clock
        self._result_sets = result_sets
        self._reranker = reranker
        self._reranker_configured = reranker_configured

    async def retrieve(self, state: GraphState) -> dict[str, object]:
        """One round of the route's tools; with a date window, in-range first, out-of-range to fill."""
        assert state.plan is not None
        assert state.route is not None
        plan = state.plan
        if outside_dates(state):
            # No document can report dates after the newest one, nor record an occasion before the
            # oldest; nothing is searched.
            return {"rounds": [_nothing_outside(state)], "candidates": [], "evidence": [], "table": None}
        if state.steering.missing:
            # The documents named do not cover the period asked: another period's figure is not an answer.
            return {
                "rounds": [_not_searched(state, state.steering.missing)],
                "candidates": [],
                "evidence": [],
                "table": None,
            }
        # Names from the question steer the first rounds to the documents titled with them.
        # Documents chosen by their facets stay chosen when recovery relaxes the date filter.
        keep = state.date_filter or state.steering.by_facets
        steered = state.steering.doc_ids if keep and state.focus_doc_ids is None else None
        base = SearchFilters(collections=state.collections, doc_ids=state.focus_doc_ids or steered)
        # A period the documents' own labels resolved is not searched again by dates: "Q3 2022" is the
        # filing labelled 2022 Q3, whatever months that quarter spans.
        dated = (
            (plan.date_start is not None or plan.date_end is not None)
            and state.date_filter
            and not state.steering.period_resolved
        )
        window = base.model_copy(update={"date_start": plan.date_start, "date_end": plan.date_end})
        round_id = len({r.round_id for r in state.rounds}) + 1
        occasion = dated and await self._occasion(window)
        result = await self._round(state, window if dated else base, round_id)
        since = recent_since(state)
        if since is not None and not dated and state.route.route != "structured":
            # "Latest": the newest documents are searched on their own too, so that they compete
            # even where older ones outrank them on words and meaning.
            recent = await self._recent(state, base.model_copy(update={"date_start": since}), round_id)
            known = {e.chunk_id for e in result.evidence}
            result.evidence = sorted(
                result.evidence + [e for e in recent.evidence if e.chunk_id not in known], key=lambda e: -e.relevance
            )
            result.report.matches += recent.report.matches
        out_of_range = False
        if dated and not result.evidence and not state.steering.by_kind:
            # Second pass of the same round (seed 000): out-of-range hits only fill in, and only when
            # no document of the asked dates matched at all — a date asked about that the documents
            # cover is answered from those documents or not at all; a kind asked in a period ("the
            # July 2023 minutes") is not answered from that kind's documents of other periods.
            extra = await self._round(state, base, round_id)
            known = {e.chunk_id for e in result.evidence}
            filler = [e for e in extra.evidence if e.chunk_id not in known]
            out_of_range = bool(filler)
            if not result.total and extra.total:
                result.table, result.choices, result.total = extra.table, extra.choices, extra.total
                result.annotations = extra.annotations
            result.evidence = result.evidence + filler
            result.report.matches += extra.report.matches
        bypassed = False
        if self._reranker_configured and state.route.route != "structured":
            if self._reranker is None:
                bypassed = True  # configured but unavailable: answer without it, and say so
            else:
                result.evidence = await self._rerank(plan.revised_query, result.evidence, state.budgets.rerank_pool)
        identifiers = [n for n in state.steering.names if n.identifier]
        if identifiers:
            result.evidence = naming_all(result.evidence, identifiers, self._calibration.medium)
        # Documents of other dates filled in: the occasion's own matched nothing, and the floor holds.
        occasion = occasion and bool(result.evidence) and not out_of_range
        if occasion:
            parts = question_parts(plan.original_query)
            asked = [plan.original_query, *parts] if len(parts) > 1 else [plan.original_query]
            relevant = supporting(result.evidence, 0.0, *map(content_terms, asked))
        else:
            relevant = supporting(result.evidence, self._calibration.low)
        relevant = counting(result.evidence, relevant, plan.original_query)
        if identifiers:
            relevant = each_named(result.evidence, relevant, identifiers)
        if state.intake is not None and state.intake.recent_year_window:
            relevant = most_recent(relevant, content_terms(plan.original_query))
        if plan.year_mode == "explicit" and plan.requested_years and not state.steering.period_resolved:
            # A year asked: of several versions of a document, that year's answers (never another's figure).
            relevant = versions_of_years(relevant, plan.requested_years)
        elif not any(n.period for n in state.steering.names):
            # No date asked: of several dated versions of a document, the newest answers.
            relevant = newest_versions(relevant)
        report = result.report.model_copy(
            update={"threshold": f"{result.report.threshold}; relevance >= {self._calibration.low:.2f}"}
        )
        table = await self._store(result, state)
        rejected = state.reflection is not None and state.reflection.unsupported is not None
        if state.evidence and not rejected and strength(state.evidence) > strength(relevant):
            # A recovery round that found less keeps the earlier, better evidence.
            relevant, result.evidence = state.evidence, state.candidates
        return {
            "rounds": [report],
            "candidates": result.evidence,
            "evidence": relevant,
            "out_of_range_used": out_of_range and any(e.date is not None for e in relevant),
            "occasion": occasion,
            "table": table,
            "overflow": max(0, table.total - table.shown) if table else 0,
            "choices": result.choices,
            "rerank_bypassed": bypassed,
        }

    async def _occasion(self, window: SearchFilters) -> bool:
        """True when the question's dates pick one occasion's documents (at most `OCCASION_DOCUMENTS`).

        General case: a date names an occasion ("at the Dec 2015 meeting", "what did they do on
        March 3, 2020") as a name picks a company's filing. Every passage of those documents is about
        the occasion, so the relevance floor and the meaning half of the support measure, calibrated
        for passages found anywhere in a collection, do not tell which passage answers; the
        question's own words (the support gate's word share) and names do. A casual question ("liftoff
        in dec 2015 - what range did they move the FFR to") meets the answering sentence at a cosine
        of 0.2, far under the floor, while its words and its date are all there.
        """
        return 0 < (await self._backend.stats(window)).documents <= OCCASION_DOCUMENTS

    async def _rerank(self, query: str, evidence: list[Evidence], pool: int) -> list[Evidence]:
        """Cross-encoder probabilities become relevance; the pool is reordered by them."""
        assert self._reranker is not None
        head, tail = evidence[:pool], evidence[pool:]
        scores = await self._reranker.rerank(query, [e.text for e in head])
        rescored = [
            e.model_copy(update={"rerank_score": round(p, 6), "relevance": max(0.0, min(1.0, p))})
            for e, p in zip(head, scores, strict=True)
        ]
        return sorted(rescored, key=lambda e: -(e.rerank_score or 0.0)) + tail

    async def _round(self, state: GraphState, filters: SearchFilters, round_id: int) -> RoundResult:
        assert state.plan is not None
        assert state.route is not None
        budgets, route, query = state.budgets, state.route.route, state.plan.revised_query
        boost = RECENCY_BOOST if state.intake and state.intake.recent_year_window else 0.0
        limit = budgets.candidates_per_round
        if route == "structured" and state.structured is not None:
            return await self._tools.structured(
                route, state.structured, filters, round_id, budgets.max_rows_per_answer, budgets.max_evidence
            )
        # After an LLM reformulation the vector leg searches by the hypothetical passage (HyDE).
        reformulated = state.hyde is not None or "reformulate" in state.recoveries
        vector = state.query_vector if not reformulated and state.query_vector is not None else None
        if vector is None:
            vector = await self._embedder.embed([state.hyde or query])
        if route == "long_text":
            found = await self._tools.long_text(query, vector, filters, limit, round_id, boost)
            found = await self._measured(found, query) if state.hyde else found
            # After the role facts, which stand for their passages (`people.as_evidence`).
            return await self._with_words(state, await self._with_people(state, filters, found), vector, filters)
        text = await self._tools.text(route, query, vector, filters, limit, round_id, boost)
        text = await self._with_words(state, await self._with_people(state, filters, text), vector, filters)
        if state.hyde:
            text = await self._measured(text, query)
        named = state.structured is not None and (state.structured.named_fields or state.structured.query.numeric)
        if state.structured is not None and named:
            rows = await self._tools.structured(
                route, state.structured, filters, round_id, budgets.max_rows_per_answer, 3
            )
            if rows.total:
                # Joined rows compete with the text on relevance to the question, not as exact matches.
                joined = await self._measured(
                    RoundResult(evidence=rows.evidence, report=rows.report), state.plan.original_query
                )
                text.evidence = sorted(joined.evidence + text.evidence, key=lambda e: -e.relevance)
                text.report.tool = "annotations_search + search_hybrid"
                text.report.matches += rows.total
        return text

    async def _with_words(
        self, state: GraphState, result: RoundResult, vector: Embeddings, filters: SearchFilters
    ) -> RoundResult:
        """`RouteTools.with_words` for the query, then for each part of a message that asks several
        things (`understanding.question_parts`).

        General case: inside one document (a meeting's minutes), "what was the May unemployment
        rate, and how did the staff describe consumer sentiment?" is answered by two passages; the
        whole question's best passages by meaning and words can all serve one part, and only the
        other part's own words ("unemployment rate", "May") find its passage. So with several
        numbered items quoted ("what do objectives 2.3.3 and 4.3.4 each cover?"): each item's entry
        is found by its number."""
        assert state.plan is not None
        result = await self._tools.with_words(result, state.plan.revised_query, vector, filters)
        parts = question_parts(state.plan.original_query)
        items = [n.text for n in state.steering.names if n.identifier and NUMBERED.fullmatch(n.text)]
        parts = (parts if len(parts) > 1 else []) + (items if len(items) > 1 else [])
        if not parts:
            return result
        scope = result.report.filters if result.report.filters.doc_ids else filters
        if filters.date_start or filters.date_end:
            # A date window's documents are the ones it found: an occasion's, when there are few.
            scope = filters.model_copy(update={"doc_ids": list(dict.fromkeys(e.doc_id for e in result.evidence))})
        if not scope.doc_ids or len(scope.doc_ids) > OCCASION_DOCUMENTS:
            return result
        for part in parts:
            result = await self._tools.words_in(result, part, vector, scope)
        return result

    async def _with_people(self, state: GraphState, filters: SearchFilters, result: RoundResult) -> RoundResult:
        """For a question asking for a person, the "Name: Role" facts of the role it asks for join the
        passages, measured against the question (`core.orchestrator.people`)."""
        assert state.plan is not None
        question = state.plan.original_query
        roles = role_terms(question, state.steering.resolved) if answer_kind(question) == "person" else []
        if not roles:
            return result
        facts = holding_roles(await self._tools.facts(filters), roles)
        known = {e.chunk_id for e in result.evidence}
        extra = as_evidence(facts, result.report.round_id, question, known)
        if extra:
            # A fact says whose role it is through its document's title, as a sentence does in an answer.
            scores = await self._embedder.similarity(question, [f"{e.title}: {e.text}" for e in extra])
            measured = [
                e.model_copy(update={"relevance": max(0.0, min(1.0, s))}) for e, s in zip(extra, scores, strict=True)
            ]
            result.evidence = sorted(measured + result.evidence, key=lambda e: -e.relevance)
        return result

    async def _recent(self, state: GraphState, filters: SearchFilters, round_id: int) -> RoundResult:
        """Passages of the newest documents, whatever the route: summaries would pass over a short one."""
        assert state.plan is not None
        vector = (
            state.query_vector
            if state.query_vector is not None
            else await self._embedder.embed([state.plan.revised_query])
        )
        limit = state.budgets.candidates_per_round
        return await self._tools.text("hybrid", state.plan.revised_query, vector, filters, limit, round_id, 0.0)

    async def _measured(self, result: RoundResult, query: str) -> RoundResult:
        """Relevance is measured against the query, never against the hypothetical passage."""
        if result.evidence:
            scores = await self._embedder.similarity(query, [e.text for e in result.evidence])
            rescored = [
                e.model_copy(update={"relevance": max(0.0, min(1.0, score))})
                for e, score in zip(result.evidence, scores, strict=True)
            ]
            result.evidence = sorted(rescored, key=lambda e: -e.relevance)
        return result

    async def _store(self, result: RoundResult, state: GraphState) -> TableResult | None:
        """Keep the full result set when it does not fit in one answer."""
        table = result.table
        if table is None or self._result_sets is None or table.total <= table.shown or not result.annotations:
            return table
        _, rows = annotation_table(result.annotations)
        result_set_id = await self._result_sets.save(table, rows, self._clock.now())
        return table.model_copy(update={"result_set_id": result_set_id})

    def _calibration_level(self, relevances: list[float], state: GraphState) -> EvidenceLevel:
        relevant = sorted((r for r in relevances if r >= self._calibration.low), reverse=True)
        if not relevant:
            return "insufficient" if not relevances or max(relevances) < self._calibration.low else "low"
        numeric = state.intake is not None and state.intake.intent == "numeric_lookup"
        # Weaker neighbours of the best passages do not drag the level down.
        relevant = [r for r in relevant if r >= relevant[0] - LEVEL_MARGIN]
        top = relevant[: 1 if numeric else 3]
        return self._calibration.level(sum(top) / len(top))

    def _supported(self, state: GraphState) -> bool:
        """Low cosines, but the best passages carry the question's words and meaning: the support measure decides."""
        if not state.evidence or state.plan is None:
            return False
        best = max(e.relevance for e in state.evidence)
        top = state.evidence[:TOP_PASSAGES]
        passages = [f"{e.title} {e.section or ''} {e.text}" for e in top]
        question, window = state.plan.original_query, (state.plan.date_start, state.plan.date_end)
        signals = asked_signals(question, " ".join(passages), [e.date for e in top], window)
        forms = name_forms(state.steering.names)
        support = passages_support(question, passages, best, self._calibration, signals, forms)
        return support >= self._calibration.support

    async def evaluate(self, state: GraphState) -> dict[str, object]:
        """Evidence level from the mean relevance of the top min(3, n) (top 1 for lookups)."""
        level = self._calibration_level([e.relevance for e in state.evidence], state)
        if level == "low" and self._supported(state):
            level = "medium"
        if level in ("low", "insufficient") and state.occasion and state.evidence:
            # The occasion's documents cover the question; the support gate's words judge the passage.
            level = "medium"
        if not state.evidence and state.candidates:
            level = "low" if max(e.relevance for e in state.candidates) >= self._calibration.low else "insufficient"
        update: dict[str, object] = {"evidence_level": level}
        if state.rounds:
            branch = (
                "EMPTY_SET" if not state.candidates else "SUCCESS" if level in ("high", "medium") else "LOW_CONFIDENCE"
            )
            # The round's branch is known only now; merge_rounds replaces the report.
            update["rounds"] = [state.rounds[-1].model_copy(update={"branch": branch})]
        return update


def _not_searched(state: GraphState, why: str, filters: SearchFilters | None = None) -> RetrievalRound:
    """A round that did not search, and why."""
    assert state.plan is not None
    assert state.route is not None
    return RetrievalRound(
        round_id=len({r.round_id for r in state.rounds}) + 1,
        route=state.route.route,
        tool="none",
        query=state.plan.revised_query,
        filters=filters or SearchFilters(collections=state.collections),
        matches=0,
        threshold=f"not searched: {why}",
        took_ms=0.0,
    )


def _nothing_outside(state: GraphState) -> RetrievalRound:
    assert state.plan is not None
    filters = SearchFilters(
        collections=state.collections, date_start=state.plan.date_start, date_end=state.plan.date_end
    )
    if after_newest(state):
        newest = state.newest.isoformat() if state.newest else "unknown"
        return _not_searched(state, f"the dates asked begin after the newest document ({newest})", filters)
    oldest = state.oldest.isoformat() if state.oldest else "unknown"
    return _not_searched(state, f"the occasion asked ends before the oldest document ({oldest})", filters)
