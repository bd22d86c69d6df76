"""Planner: choose a route and write the plan the executor runs (SPEC section 3, seed 001)."""

from __future__ import annotations

import time

from core.calibration import Calibration
from core.contracts import ExecutionPlan, IntakeResult, RouteDecision, SearchFilters
from core.llm.gateway import LlmGateway
from core.orchestrator.state import GraphState
from core.orchestrator.steering import Steering, Vocabulary, named_kind, steer
from core.orchestrator.structured import StructuredPlanner, StructuredQuery, aggregate_of
from core.orchestrator.support import TOP_PASSAGES, content_terms, found_terms, passages_support, support_score
from core.ports import DocumentRegistry, Embedder, Embeddings, SearchBackend
from core.prompts import route as route_prompt
from core.understanding.abbreviations import spelled_out
from core.understanding.periods import names_neighbour, neighbour_window

# The structured route answers alone only when its query covers at least this share of the
# question's content words; otherwise rows can only join the text evidence.
STRUCTURED_COVERAGE = 0.5
VOCABULARY_TTL_S = 30.0
"""How long the collection's facet vocabulary is reused before it is read again from the registry
(sooner when the number of documents changes: an ingest that adds or removes documents)."""


def build_plan(intake: IntakeResult) -> ExecutionPlan:
    """The executable plan: queries, date window and result size."""
    return ExecutionPlan(
        original_query=intake.original_query,
        revised_query=intake.normalized_query,
        coherence=intake.coherence,
        coherence_reason=intake.coherence_reason,
        year_mode=intake.year_mode,
        requested_years=intake.requested_years,
        date_start=intake.date_start,
        date_end=intake.date_end,
        top_k=intake.top_k,
    )


class Planner:
    """Route selection from intent, signals, category statistics and annotation coverage.

    Rule-based; with an LLM, seed 001's route prompt chooses among the same routes and the
    rule-based plan stays the fallback.
    """

    def __init__(
        self,
        *,
        backend: SearchBackend,
        embedder: Embedder,
        calibration: Calibration,
        structured: StructuredPlanner,
        llm: LlmGateway,
        documents: DocumentRegistry | None = None,
    ) -> None:
        self._documents = documents
        self._vocabularies: dict[tuple[str, ...] | None, tuple[float, int, Vocabulary]] = {}
        self._backend = backend
        self._calibration = calibration
        self._embedder = embedder
        self._structured = structured
        self._llm = llm

    async def plan(self, state: GraphState) -> dict[str, object]:
        """The route, its ordered fallbacks, the reason, and the structured query if any."""
        intake = state.intake
        assert intake is not None
        plan = build_plan(intake)
        if intake.intent in ("chit_chat", "command"):
            route = RouteDecision(
                route="direct", reason=f"{intake.intent}: answered without retrieval", intent=intake.intent
            )
            return {"route": route, "plan": plan}
        filters = SearchFilters(collections=state.collections, doc_ids=state.focus_doc_ids)
        stats = await self._backend.stats(filters)
        vocabulary = await self._vocabulary(state.collections, stats.documents)
        if vocabulary is not None and names_neighbour(plan.original_query):
            # "The meeting after June 2013": the first date the documents carry after June, not all of them.
            kind = named_kind(plan.original_query, vocabulary)
            kind_dates = sorted({day for d, day in vocabulary.dated.items() if d in kind})
            window = neighbour_window(plan.original_query, plan.date_start, plan.date_end, vocabulary.dates, kind_dates)
            if window is not None:
                years = sorted({window[0].year, window[1].year})
                plan = plan.model_copy(
                    update={"date_start": window[0], "date_end": window[1], "requested_years": years}
                )
        asked = plan.revised_query
        spelled = spelled_out(asked, vocabulary.abbreviations) if vocabulary is not None else asked
        if spelled != asked:
            # Searched, measured and answered in the documents' words: the abbreviations they define,
            # spelled out ("IOER" → "IOER (interest on excess reserves)").
            intake = intake.model_copy(update={"normalized_query": spelled})
            plan = plan.model_copy(update={"revised_query": spelled})
        # The one embedding of the question this turn: every later stage reads it from the state.
        vector = await self._embedder.embed([plan.revised_query])
        steering = await steer(asked, self._backend, filters, vector, vocabulary, self._embedder.known_words)
        if vocabulary is not None:
            steering = spelled_names(steering, vocabulary.abbreviations)
        inventory = ", ".join(f"{n} {c}" for c, n in sorted(stats.categories.items())) or "no documents"
        coverage = f"annotation coverage {stats.annotation_coverage:.0%} of {stats.documents} documents ({inventory})"
        wants_rows = (
            intake.intent in ("enumeration", "numeric_lookup")
            or bool(intake.signals.numbers)
            or aggregate_of(intake.normalized_query)[0] is not None
        )
        structured: StructuredQuery | None = None
        matches = 0
        if stats.annotated_documents:
            structured = await self._structured.build(intake, filters)
            query = structured.query
            # A question about rows, numbers or aggregates, or one that names a field ("rated power").
            if (wants_rows or structured.named_fields) and (query.label_terms() or query.text or query.numeric):
                matches = await self._structured.count(query, filters)
        if structured is not None and matches:
            matches, why = await self._rows_or_text(intake.normalized_query, structured, matches, filters, vector)
            if why:
                coverage = f"{why}; {coverage}"
        route = _rule_route(intake, structured, matches, wants_rows, coverage, bool(stats.annotated_documents))
        update: dict[str, object] = {
            "intake": intake,
            "route": route,
            "plan": plan,
            "structured": structured,
            "query_vector": vector,
            "steering": steering,
            "newest": stats.newest,
            "oldest": stats.oldest,
        }
        if self._llm.enabled:
            offered = (["structured"] if matches else []) + ["hybrid", "long_text"]
            messages = route_prompt.messages(
                question=intake.normalized_query,
                summary=state.summary,
                intent=intake.intent,
                coverage=coverage,
                health=f"{self._backend.name} search: ok; structured matches for this question: {matches}",
                offered=offered,
                suggested=route.route,
                fallbacks=list(route.fallbacks),
            )
            choice, step = await self._llm.run(
                "route",
                messages,
                lambda text: overriding(route_prompt.parse(text, offered), route, intake.normalized_query),
                strict=True,
                schema=route_prompt.RouteChoice.model_json_schema(),
            )
            update["llm_steps"] = [step]
            if choice is not None:
                update["route"] = RouteDecision(
                    route=choice.route,
                    fallbacks=choice.fallbacks,
                    intent=intake.intent,
                    reason=f"LLM router: {choice.reason}; {coverage}",
                )
        return update

    async def _vocabulary(self, collections: list[str] | None, documents: int) -> Vocabulary | None:
        """The facets of the readable collections' documents, read again every `VOCABULARY_TTL_S`
        or when the number of documents changed."""
        if self._documents is None:
            return None
        key = tuple(sorted(collections)) if collections is not None else None
        now = time.monotonic()  # a cache's age, not a date: the injected clock may stand still
        cached = self._vocabularies.get(key)
        if cached and cached[1] == documents and now - cached[0] < VOCABULARY_TTL_S:
            return cached[2]
        records = await self._documents.list_documents()
        readable = [r for r in records if collections is None or r.collection in collections]
        vocabulary = Vocabulary(readable)
        self._vocabularies[key] = (now, documents, vocabulary)
        return vocabulary

    async def _rows_or_text(
        self, question: str, structured: StructuredQuery, matches: int, filters: SearchFilters, vector: Embeddings
    ) -> tuple[int, str | None]:
        """Text evidence is the baseline: rows replace it only when they support the question better."""
        coverage = structured.coverage(question)
        if coverage <= STRUCTURED_COVERAGE:
            return 0, f"{matches} structured matches cover {coverage:.0%} of the question: text evidence instead"
        # Rows meet every explicit filter; what they lack is the share of the question they did not understand.
        rows = support_score(coverage, 1.0)
        hits = await self._backend.search_hybrid(question, vector, filters, 10)
        passages = [f"{h.segment.title} {h.segment.section or ''} {h.segment.text}" for h in hits[:TOP_PASSAGES]]
        text = passages_support(question, passages, hits[0].cosine if hits else 0.0, self._calibration)
        if text > rows:
            return 0, f"text evidence supports the question better than {matches} rows ({text:.2f} > {rows:.2f})"
        return matches, None


def spelled_names(steering: Steering, abbreviations: dict[str, str]) -> Steering:
    """The names the question steers by, also as the documents spell them out: evidence that writes
    "non-revenue water" mentions the "NRW" asked about (general case: an abbreviation the documents
    define, see `core.understanding.abbreviations`)."""
    names = [
        n.model_copy(update={"variants": [*n.variants, abbreviations[n.text]]})
        if n.text in abbreviations and not n.period
        else n
        for n in steering.names
    ]
    return steering.model_copy(update={"names": names})


def overriding(choice: route_prompt.RouteChoice, rule: RouteDecision, question: str) -> route_prompt.RouteChoice:
    """The model's route, when it keeps the rule-based one or says why this question needs another
    (general case: a model's claim is checked where it can be — a weak model overrides the router
    by habit, with a reason such as "no" or "better" that names nothing of the question).

    An override stands when its reason carries a content word of the question (or the question has
    none to carry); otherwise it is invalid output (`ValueError`) and the rule-based route runs.
    """
    if choice.route == rule.route:
        return choice
    terms = content_terms(question)
    if terms and not found_terms(terms, choice.reason):
        asked = ", ".join(terms)
        raise ValueError(
            f"chose {choice.route} over {rule.route} for a reason naming none of {asked}: {choice.reason!r}"
        )
    return choice


def _rule_route(
    intake: IntakeResult,
    structured: StructuredQuery | None,
    matches: int,
    wants_rows: bool,
    coverage: str,
    annotated: bool,
) -> RouteDecision:
    """The rule-based route (seed 001): structured when it matches, long_text for concepts, else hybrid."""
    if matches and structured is not None:
        return RouteDecision(
            route="structured",
            fallbacks=["hybrid", "long_text"],
            intent=intake.intent,
            reason=f"{intake.intent}: {matches} structured matches; {coverage}",
        )
    if wants_rows and annotated:
        reason = f"{intake.intent}: no structured match, annotations and text together; {coverage}"
        return RouteDecision(route="hybrid", fallbacks=["long_text"], intent=intake.intent, reason=reason)
    if intake.intent == "conceptual":
        return RouteDecision(
            route="long_text",
            fallbacks=["hybrid"],
            intent=intake.intent,
            reason=f"conceptual: summaries then segments; {coverage}",
        )
    return RouteDecision(
        route="hybrid",
        fallbacks=["long_text"],
        intent=intake.intent,
        reason=f"{intake.intent}: hybrid text and vector search; {coverage}",
    )
