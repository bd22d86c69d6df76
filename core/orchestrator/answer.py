"""Answer stages: extractive synthesis, citation validation and reflection (SPEC section 3)."""

from __future__ import annotations

import re

from core.calibration import Calibration
from core.contracts import Coverage, Evidence
from core.llm.gateway import LlmGateway
from core.orchestrator import discourse, extractive
from core.orchestrator.asked_names import Name
from core.orchestrator.compose import structured_draft
from core.orchestrator.continuation import continuations, places_after
from core.orchestrator.coverage import about_the_names, placed, proper_share, written_by
from core.orchestrator.measures import measure_missing
from core.orchestrator.state import Draft, GraphState, Reflection
from core.orchestrator.support import (
    asked_signals,
    checked_missing,
    content_terms,
    found_terms,
    mentions,
    name_forms,
    other_order,
    required_terms,
    states_sources,
    support_score,
    term_share,
    writes,
)
from core.ports import Embedder, SearchBackend
from core.prompts import reflection as reflection_prompt
from core.prompts import synthesis as synthesis_prompt
from core.prompts.common import source_block
from core.text import stem
from core.text import words as written_words
from core.understanding import quarter_just_past, quarter_of, quarter_window, question_parts

NOT_ABOUT = "the sources found are not about "
"""How the support gate says the cited sources miss a name the question steers by."""
CITATION_MARK = synthesis_prompt.MARK
_CLOSING_MARKS = re.compile(rf"(?:\s*{CITATION_MARK.pattern})+\s*(?=[A-Z\d]|$)")
"""Citation marks that close a statement (the next one or the end follows), with the space around them:
every draft, extractive or a model's, marks each statement it cites, so a mark ends a statement
whatever punctuation its source gave it (a form's field, a table row)."""


class AnswerWriter:
    """Writes and checks answers from evidence only: with the LLM when one answers well, else extractively."""

    def __init__(
        self, *, embedder: Embedder, calibration: Calibration, llm: LlmGateway, backend: SearchBackend | None = None
    ) -> None:
        self._embedder = embedder
        self._calibration = calibration
        self._llm = llm
        self._backend = backend

    async def synthesize(self, state: GraphState) -> dict[str, object]:
        """An answer citing `[n]`: the LLM's, or the 2–4 evidence sentences most similar to the question.

        Structured answers (tables, totals) are always composed from the rows, never by a model.
        """
        assert state.intake is not None
        if state.route is not None and state.route.route == "structured" and state.table is not None:
            return {"draft": structured_draft(state)}
        if not self._llm.enabled:
            return await self._extractive(state)
        evidence = state.evidence[: state.budgets.max_evidence]
        messages = synthesis_prompt.messages(question=state.intake.normalized_query, evidence=evidence)
        text, step = await self._llm.run(
            "synthesis",
            messages,
            lambda reply: states_sources(synthesis_prompt.parse(reply, len(evidence)), *_shown(evidence)),
            continuations=True,
            keep_going=lambda partial: synthesis_prompt.cites_validly(partial, len(evidence)),
        )
        if text is None:
            return {**await self._extractive(state), "llm_steps": [step]}
        cited = sorted({int(n) for n in CITATION_MARK.findall(text) if 1 <= int(n) <= len(evidence)})
        citations = [extractive.citation(n, evidence[n - 1]) for n in cited]
        return {"draft": Draft(text=text, citations=citations), "llm_steps": [step]}

    async def _extractive(self, state: GraphState) -> dict[str, object]:
        """The draft of `_sentences`, and the evidence it cites that was read past a passage's end
        (`continuation`) added to the turn's."""
        evidence = [e for e in state.evidence if e.mode != "structured"][: state.budgets.max_evidence]
        if not evidence:
            evidence = state.evidence[: state.budgets.max_evidence]
        continued: list[Evidence] = []
        if self._backend is not None and (places := places_after(evidence)):
            continued = continuations(evidence, await self._backend.segments_at(places))
        draft = await self._sentences(state, [*evidence, *continued])
        cited = {c.chunk_id for c in draft.citations}
        read = [e for e in continued if e.chunk_id in cited]
        return {"draft": draft, **({"evidence": [*state.evidence, *read]} if read else {})}

    async def _sentences(self, state: GraphState, evidence: list[Evidence]) -> Draft:
        """The 2–4 evidence sentences that best answer the question, with the neighbours that read with them
        (`discourse.continued`) or complete them (`discourse.completed`), each with its `[n]`."""
        assert state.intake is not None
        steering = state.steering
        by_facets = set(steering.doc_ids or []) if steering.by_facets else set()
        question = state.intake.normalized_query
        placing = placed(question, steering.required()) if state.occasion else set()
        parts = question_parts(question)
        evidence = about_the_names(
            evidence, steering.required(), by_facets, set(steering.writers), placing, parts, _cited_text
        )
        found = extractive.candidates(evidence, question)
        if not found:
            return Draft(text="")
        contextual = [extractive.in_context(evidence[i], sentence) for i, sentence in found]
        # One batch: the question alone reads as `similarity(question, contextual)` always did.
        asked = [question, *parts] if len(parts) > 1 else [question]
        cosines, *part_cosines = await self._embedder.similarities(asked, contextual)
        ranked = extractive.rank(question, found, contextual, cosines)
        meaning = dict(zip(found, cosines, strict=True))
        chosen, also = extractive.choose(ranked, meaning, self._calibration)
        chosen = extractive.of_the_kind(question, ranked, chosen, meaning, self._calibration.medium)
        following = discourse.successors(found, evidence)
        if part_cosines:
            chosen = extractive.by_part(parts, found, contextual, cosines, part_cosines, chosen, following)
        chosen = extractive.role_first(question, ranked, chosen, evidence)
        chosen = extractive.naming_first(ranked, chosen, [n for n in steering.names if n.identifier])
        chosen = discourse.windowed(chosen, ranked[0][1], following)
        chosen = discourse.continued(chosen, found, question, following)
        said = " ".join(extractive.in_context(evidence[i], sentence) for i, sentence in chosen)
        terms = content_terms(question)
        unsaid = [t for t in terms if t not in found_terms(terms, said)]
        chosen = discourse.completed(chosen, found, unsaid, following)
        # "Northwind or Contoso": every name the question steers by gets its best sentence.
        for name in (n for n in state.steering.required() if n.text not in placing):
            if not any(mentions(_cited_text(evidence[i]), name.variants) for i, _ in chosen):
                chosen += [c for _, c in ranked if mentions(_cited_text(evidence[c[0]]), name.variants)][:1]
        return extractive.compose(chosen, evidence, state.steering.required(), extractive.echoes(chosen, found, also))

    def validate_citations(self, state: GraphState) -> dict[str, object]:
        """Every `[n]` must map to evidence actually given; unknown markers are removed.

        The markers left are renumbered 1, 2, … in order of first appearance.
        """
        draft = state.draft
        if draft is None:
            return {}
        given = {c.chunk_id for c in state.evidence}
        valid = {c.n: c for c in draft.citations if c.chunk_id in given}
        removed: list[int] = []

        def keep(match: re.Match[str]) -> str:
            n = int(match.group(1))
            if n in valid:
                return match.group(0)
            removed.append(n)
            return ""

        # A removed marker leaves a space before the punctuation after it; ".29 percent" keeps its point.
        text = re.sub(r"\s+([.,;:])(?!\d)", r"\1", CITATION_MARK.sub(keep, draft.text)).strip()
        order: dict[int, int] = {}
        for n in CITATION_MARK.findall(text):
            order.setdefault(int(n), len(order) + 1)
        text = CITATION_MARK.sub(lambda m: f"[{order[int(m.group(1))]}]", text)
        citations = [valid[old].model_copy(update={"n": new}) for old, new in order.items()]
        return {"draft": Draft(text=text, citations=citations, removed_citations=removed)}

    async def reflect(self, state: GraphState) -> dict[str, object]:
        """confidence = 0.7 × support(original) + 0.3 × support(revised) (seed 002)."""
        assert state.draft is not None
        assert state.plan is not None
        draft = state.draft
        cited = {c.chunk_id for c in draft.citations}
        cited_text = " ".join(_cited_text(e) for e in state.evidence if e.chunk_id in cited)
        # Each cited statement its own paragraph: a field ("Employee survey: run each spring") ends
        # at its mark, not at the next full stop (`measures`: a count is read in its own sentence).
        body = CITATION_MARK.sub("", _CLOSING_MARKS.sub("\n\n", draft.text)).strip()
        if state.table is not None and state.route is not None and state.route.route == "structured":
            body += "\n" + "\n".join(" ".join(row) for row in state.table.rows[:5])
        original, revised = state.plan.original_query, state.plan.revised_query
        cosines = await self._embedder.similarity_alone(body, [original, revised])
        terms_original = required_terms(original, cited_text)
        terms_revised = required_terms(revised, cited_text, original)
        dates = [e.date for e in state.evidence if e.chunk_id in cited]
        signals = asked_signals(original, body, dates, (state.plan.date_start, state.plan.date_end))
        # A word that named the kind of document ("stmt") is met where the kind is written in full.
        forms = name_forms(state.steering.names) | {w: [k] for w, k in state.steering.kind_words.items()}
        share_original, share_revised = (
            term_share(terms_original, cited_text, signals, forms),
            term_share(terms_revised, cited_text, signals, forms),
        )
        relevance = [self._calibration.calibrated(c) for c in cosines]
        structured = state.route is not None and state.route.route == "structured"
        found = found_terms(terms_original, cited_text, forms)
        if structured and state.structured is not None:
            # Rows meet every explicit filter; what is left to judge is how much of the question
            # the structured query understood (fields, values, numbers).
            share_original = share_revised = state.structured.coverage(original)
            relevance = [max(r, share_original) for r in relevance]
            missed = {stem(t) for t in state.structured.unmatched}
            found |= {t for t in terms_original if stem(t) not in missed}
        support_original = support_score(share_original, relevance[0])
        support_revised = support_score(share_revised, relevance[1])
        missing = [t for t in terms_original if t not in found]
        # The share of the question's own words the cited text carries (the revised query's, when
        # it carries more: a resolved pronoun); signals such as "a figure was asked and given" aside.
        # An id the question names ("K-900") or a word the facets resolved ("commerce": DOC's plan) chose
        # the evidence, so the evidence carrying it says nothing of whether it answers the rest.
        ids = {v for n in state.steering.names if n.identifier for v in n.variants}
        ids |= {w.lower() for mention in state.steering.mentions for w in written_words(mention)}
        judged = [t for t in terms_original if t not in ids]
        words = max(
            len(found & set(judged)) / len(judged) if judged else 1.0,
            term_share([t for t in terms_revised if t not in ids], cited_text),
            proper_share(original, cited_text, ids),
        )
        update: dict[str, object] = {}
        graded = False  # a model graded the support
        # A structured answer is exact by construction (rows meeting every filter): no model grades it.
        if self._llm.enabled and not structured:
            # Numbered as the answer cites them, so the judge reads [n] against the right source.
            by_chunk = {e.chunk_id: e for e in state.evidence}
            sources = source_block([by_chunk[c.chunk_id] for c in draft.citations if c.chunk_id in by_chunk])
            messages = reflection_prompt.messages(
                original=original, revised=revised, answer=draft.text, sources=sources
            )
            judgement, step = await self._llm.run(
                "reflection",
                messages,
                lambda text: checked(reflection_prompt.parse(text), terms_original, cited_text),
                strict=True,
                schema=reflection_prompt.Judgement.model_json_schema(),
            )
            update["llm_steps"] = [step]
            if judgement is not None:
                graded = True
                support_original, support_revised = judgement.support_original, judgement.support_revised
                missing = judgement.missing
                # A word is carried when the text has it or the model does not name it among what
                # the sources lack (the model reads synonyms; a word count cannot).
                lacking = found_terms(terms_original, " ".join(missing))
                words = max(words, 1.0 - len(lacking) / len(terms_original) if terms_original else 1.0)
        confidence = round(min(1.0, 0.7 * support_original + 0.3 * support_revised), 4)
        notes = _notes(confidence, missing, state, cited)
        # The revised query (a resolved pronoun, a reformulation) is the question as understood too.
        unsupported = self._gate(
            max(support_original, support_revised), words, missing, state, (body, cited_text), cited, graded=graded
        )
        return update | {
            "reflection": Reflection(
                confidence=confidence,
                support_original=round(support_original, 4),
                support_revised=round(support_revised, 4),
                applicability_note=notes[0],
                uncertainty_note=notes[1],
                coverage=Coverage(answered=sorted(found, key=terms_original.index), missing=missing),
                unsupported=unsupported,
            )
        }

    def _gate(
        self,
        support: float,
        words: float,
        missing: list[str],
        state: GraphState,
        answer: tuple[str, str],
        cited: set[str],
        *,
        graded: bool = False,
    ) -> str | None:
        """Why the evidence does not support the question (None when it does): the support gate.

        Support below its calibrated threshold (inside one occasion's documents only when a model
        graded it, `graded`: the measure's meaning half is a cosine there), or
        sources that carry less than the calibrated `coverage` share of the question's words (a close
        meaning about something else: "what do we pay for overtime" against "overtime is compensated
        with time off"), or an answer without the measure asked (`measures.measure_missing`: no count
        of X for "how many X", no share for "what share of X") withholds it. `answer`: the answer's
        text and its cited text."""
        body, cited_text = answer
        # A row's own date (a receipt's) places it in a period; a document's date is when it was issued.
        dates = [e.date for e in state.evidence if e.chunk_id in cited and e.kind == "row"]
        names = [*state.steering.required(), *_full_names(state)]
        placing = placed(state.plan.original_query, names) if state.plan and state.occasion else set()
        sources = {e.doc_id for e in state.evidence if e.chunk_id in cited}
        absent = [
            n.text
            for n in names
            if not writes(cited_text, n)
            and not any(n.covers(d) for d in dates)
            and not _just_past(n, state, cited)
            and not (n.text in placing and n.text in written_by(state.evidence, [n], sources, _cited_text))
        ]
        if absent:
            return NOT_ABOUT + " and ".join(absent)
        detail = f"; they do not mention {', '.join(missing[:6])}" if missing else ""
        # Inside one occasion's documents a cosine says nothing of which passage answers
        # (`Executor._occasion`); a model's grade still does.
        if support < self._calibration.support and (graded or not state.occasion):
            threshold = self._calibration.support
            return f"the sources found do not support the question (support {support:.2f} < {threshold:.2f}{detail})"
        if words < self._calibration.coverage:
            threshold = self._calibration.coverage
            return f"the sources found carry too little of the question (words {words:.2f} < {threshold:.2f}{detail})"
        return measure_missing(state, body, cited)


def _full_names(state: GraphState) -> list[Name]:
    """Names of several words the cited text must write, beyond those steering requires (`_gate`),
    in either order (`support.other_order`: "the Labor Department" is written "Department of
    Labor"). Single words and acronyms stay free: "Fed", "FOMC", "Treasuries" are the question's
    shorthand for what the documents spell out.

    General cases: inside one occasion's documents (`GraphState.occasion`) every name of several
    words ("Bank of Canada" in a question dated to a meeting whose documents do not write it: the
    words gate alone would let the occasion's passages about "bank" and "rate" answer it); anywhere,
    a name the question gives as the owner of what it asks ("the Department of Energy's strategic
    plan": a passage of another organisation's plan that does not write it is not its answer,
    however close its words). A name the facets resolved chose its documents already
    (`coverage.about_the_names`)."""
    question = state.plan.original_query if state.plan is not None else ""
    required = {n.text for n in state.steering.required()}
    return [
        n.model_copy(update={"variants": [*n.variants, other_order(n.text).lower()]})
        for n in state.steering.names
        if len(n.text.split()) > 1
        and not (n.period or n.identifier)
        and n.text not in required
        and (state.occasion or re.search(rf"(?<!\w){re.escape(n.text)}['\u2019]s\b", question) is not None)
    ]


def _just_past(name: Name, state: GraphState, cited: set[str]) -> bool:
    """True when a quarter asked with its year is written without it by a cited document of the year
    after it (`core.understanding.quarter_just_past`)."""
    start, end = name.start, name.end
    if not name.period or start is None or end is None:
        return False
    quarter, year = quarter_of(start)
    if (start, end) != quarter_window(quarter, year):
        return False  # not a calendar quarter
    evidence = [e for e in state.evidence if e.chunk_id in cited]
    return any(quarter_just_past(quarter, end, e.date, _cited_text(e)) for e in evidence)


def checked(judgement: reflection_prompt.Judgement, terms: list[str], cited_text: str) -> reflection_prompt.Judgement:
    """The model's judgement with only the missing parts that hold up against the text (`checked_missing`)."""
    kept = checked_missing(judgement.missing, judgement.support_original, terms, cited_text)
    return judgement.model_copy(update={"missing": kept})


def _shown(evidence: list[Evidence]) -> tuple[list[str], list[str]]:
    """The headings (titles, sections, dates) and the texts of the sources a model was given."""
    headings = [h for e in evidence for h in (e.title, e.section or "", e.date.isoformat() if e.date else "")]
    return headings, [e.text for e in evidence]


def _cited_text(evidence: Evidence) -> str:
    """What a citation shows: its title, section, date and text."""
    date = evidence.date.isoformat() if evidence.date else ""
    return " ".join(p for p in (evidence.title, evidence.section or "", date, evidence.text) if p)


def _which_period(periods: dict[str, str], cited: set[str]) -> str | None:
    """Which period an answer is from, when the question named none and its documents cover several
    (general case: "Orchard's gross margin" read from the newest of its quarterly filings must say
    which quarter, and which others there are)."""
    own = list(dict.fromkeys(label for doc, label in periods.items() if doc in cited))
    others = list(dict.fromkeys(label for doc, label in periods.items() if doc not in cited and label not in own))
    if not own or not others:
        return None
    return f"No period was named: this is from {'; '.join(own)}. The documents also cover {'; '.join(others)}."


def _notes(confidence: float, missing: list[str], state: GraphState, cited: set[str]) -> tuple[str | None, str | None]:
    """Applicability note (dates) and uncertainty note (what the sources do not cover)."""
    applicability = None
    plan = state.plan
    if state.out_of_range_used and plan is not None and plan.requested_years:
        years = ", ".join(str(y) for y in plan.requested_years)
        in_range = any(
            e.date is not None and e.date.year in plan.requested_years for e in state.evidence if e.chunk_id in cited
        )
        applicability = (
            f"Few sources from {years} matched; some cited sources are from other dates."
            if in_range
            else f"No sources from {years} matched; the cited sources are from other dates."
        )
    elif not state.date_filter and plan is not None and plan.requested_years:
        applicability = "No sources from the requested dates matched; the answer uses other dates."
    elif state.steering.periods:
        applicability = _which_period(state.steering.periods, {e.doc_id for e in state.evidence if e.chunk_id in cited})
    uncertainty = None
    if missing and confidence < 0.8:
        uncertainty = "The sources do not mention: " + ", ".join(missing[:6]) + "."
    return applicability, uncertainty
