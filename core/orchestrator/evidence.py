"""Which retrieved passages count as evidence: relevance margins, versions of a document, named ids."""

from __future__ import annotations

import datetime as dt
import re

from core.contracts import Evidence
from core.orchestrator.asked_names import Name
from core.orchestrator.state import GraphState
from core.orchestrator.support import content_terms, mentions, term_share
from core.text import stem
from core.understanding.counting import counted, counts
from core.understanding.periods import occasions

SUPPORT_MARGIN = 0.2
# For "latest": passages whose share of the question's words is this close to the best share
# are about the same thing; the newest of them answers.
RECENT_SHARE_MARGIN = 0.2
# The evidence level is the mean of the best relevances within this margin of the best one.
LEVEL_MARGIN = 0.1
# Dates (2024-01-10, 2024 01 10, 20240110), years, and quarters or halves in a title.
_DATED = re.compile(
    r"\b(?:19|20)\d{2}[-_ /.]\d{1,2}[-_ /.]\d{1,2}\b|\b(?:19|20)\d{6}\b|\b(?:19|20)\d{2}\b|\b(?:q[1-4]|h[12]|fy)\b"
)


def most_recent(evidence: list[Evidence], terms: list[str]) -> list[Evidence]:
    """For "latest"/"current" questions: the evidence of the newest date among the passages that
    carry the question's words best ("the most recent minutes" is the newest *minutes*, not the
    newest document). An undated passage stays only when it carries them better than every dated one.
    """
    dated = [e for e in evidence if e.date is not None]
    if not dated:
        return evidence
    shares = {e.chunk_id: term_share(terms, _text(e)) for e in evidence}
    best = max(shares[e.chunk_id] for e in dated)
    newest = max(e.date for e in dated if e.date is not None and shares[e.chunk_id] >= best - RECENT_SHARE_MARGIN)
    return [e for e in evidence if e.date == newest or (e.date is None and shares[e.chunk_id] > best)]


def naming_all(evidence: list[Evidence], identifiers: list[Name], floor: float) -> list[Evidence]:
    """Passages that name every id the question names ("E04") are relevant at least at `floor`, and
    only the documents that write those ids somewhere in the evidence are kept, when some do; when
    no passage names them all, those that name one of them (each numbered item has its own entry).

    An embedding hardly tells "E04" from "E05", or one aircraft's accident report from another's;
    the literal id is the stronger evidence. An id names one thing, so a document that does not
    write it is about another thing ("Aircraft Damage: Minor" in N7712K's report does not answer
    for N5921D), while every document that writes it (a spec sheet and the service manual that
    names the same model) stays.
    """
    named = [all(mentions(f"{e.title} {e.text}", n.variants) for n in identifiers) for e in evidence]
    if not any(named):  # "objectives 2.3.3 and 4.3.4": one entry each, no passage writes both
        named = [any(mentions(f"{e.title} {e.text}", n.variants) for n in identifiers) for e in evidence]
    naming = {e.doc_id for e, names in zip(evidence, named, strict=True) if names}
    raised = [
        e.model_copy(update={"relevance": max(e.relevance, floor)}) if names else e
        for e, names in zip(evidence, named, strict=True)
        if not naming or e.doc_id in naming
    ]
    return sorted(raised, key=lambda e: -e.relevance)


def each_named(candidates: list[Evidence], relevant: list[Evidence], identifiers: list[Name]) -> list[Evidence]:
    """`relevant`, with the best candidate that writes each asked id no relevant passage writes.

    General case: "what does objective 2.1.1 deploy, and what does 4.1.3 want?" asks of two
    entries of one plan, each in its own passage. The passage nearest the whole question holds
    one entry; the other entry's passage, though it writes its id, lies further in meaning than
    the relevance margin allows (`supporting`), and the answer would speak of one item only.
    """
    kept = list(relevant)
    for name in identifiers:
        if any(mentions(f"{e.title} {e.text}", name.variants) for e in kept):
            continue
        own = next((e for e in candidates if mentions(f"{e.title} {e.text}", name.variants)), None)
        if own is not None:
            kept.append(own)
    return kept


def newest_versions(evidence: list[Evidence]) -> list[Evidence]:
    """Evidence without the passages a newer dated version of their document rewrites (`rewrites`;
    versions: titles equal but for their dates).

    General case: a policy's new version restates the old one's passage with new figures ("the
    allowance is 15.75" for "12.50"): the newest answers a question that asks no date. A yearly
    series of reports, or a committee's minutes, are versions of one title too, but each records
    what happened that year or at that meeting: a passage no newer version rewrites ("USAJOBS
    delivered a data warehouse, along with three dashboards", FY 2015) is still the record of it."""
    families = [version_family(e.title) for e in evidence]
    return [e for e, family in zip(evidence, families, strict=True) if not _rewritten(e, family, evidence, families)]


def _rewritten(item: Evidence, family: str, evidence: list[Evidence], families: list[str]) -> bool:
    """True when a passage of a newer dated version of `item`'s document (its `family`, `version_family`;
    `families` those of `evidence`) rewrites it (`rewrites`)."""
    if item.date is None:
        return False
    dated = item.date
    newer = [n.text for n, f in zip(evidence, families, strict=True) if f == family and n.date and n.date > dated]
    if not newer:
        return False
    terms = content_terms(item.text)
    return any(rewrites(text, terms) for text in newer)


REWRITE_SHARE = 0.8
"""A passage rewrites another when it carries this share of the other's content words. A policy's
restated passage carries all of them; at 0.6 a newer report's routine passage "rewrote" an older
passage that joined the same routine to a detail only it records (tests/integration/test_series_detail.py)."""


def rewrites(newer: str, older_terms: list[str]) -> bool:
    """True when `newer` carries `REWRITE_SHARE` of an older passage's content words (`older_terms`,
    `term_share`): the same passage, restated with other figures or dates."""
    return term_share(older_terms, newer) >= REWRITE_SHARE


def versions_of_years(evidence: list[Evidence], years: list[int]) -> list[Evidence]:
    """Of a document's dated versions, those of the years asked, when the evidence has one."""
    wanted = {version_family(e.title) for e in evidence if e.date is not None and e.date.year in years}
    return [e for e in evidence if e.date is None or e.date.year in years or version_family(e.title) not in wanted]


def version_family(title: str) -> str:
    """A title without its dates, years and quarters: what the versions of one document share."""
    return " ".join(_DATED.sub(" ", title.lower()).split())


def strength(evidence: list[Evidence]) -> float:
    top = sorted((e.relevance for e in evidence), reverse=True)[:3]
    return sum(top) / len(top) if top else 0.0


def supporting(candidates: list[Evidence], floor: float, *terms: list[str]) -> list[Evidence]:
    """The candidates that support an answer: above the floor and near the best one; with `terms`
    (the question's words, inside one occasion's documents), also those that carry more of them
    than the best one does. Each further list of `terms` (a part of a message that asks several
    things, `understanding.question_parts`) is weighed the same way, on its own.

    Unrelated neighbours of one strong passage are kept as candidates (shown as "best
    low-relevance matches") but are not evidence, so they do not drag the evidence level down.
    Inside an occasion every passage is about it and meaning does not tell which one answers
    (`Executor._occasion`): "who was elected Vice Chairman at the December 2003 meeting?" is
    nearest in meaning to the statement's vote ("Timothy F. Geithner, Vice Chairman"), while the
    minutes' passage that says "was elected to serve as Vice Chairman" carries more of its words.
    General case of the parts: "where did they put the rate, and how did they hedge on further
    firming?" is answered by two passages of the statement; the one nearest the whole question
    answers the first part, and only the second part's words ("further", "firming") find the other.
    """
    if not candidates:
        return []
    top = max(candidates, key=lambda e: e.relevance)
    cut = max(floor, top.relevance - SUPPORT_MARGIN)
    bars = [(listed, term_share(listed, _text(top))) for listed in terms if listed]
    return [
        e for e in candidates if e.relevance >= cut or any(term_share(listed, _text(e)) > bar for listed, bar in bars)
    ]


def counting(candidates: list[Evidence], relevant: list[Evidence], question: str) -> list[Evidence]:
    """`relevant`, and for a "how many X" question the candidates that write a figure of X ("8,961
    patent examiners"), however far their meaning is from the question's.

    General case: the answer to "how many X" is a number followed by X (`understanding.counts`),
    often inside a passage about something else (a department's workforce listed beside its
    offices), whose meaning the rest of the passage sets."""
    nouns = {stem(w) for w in counted(question)}
    if not nouns:
        return relevant
    known = {e.chunk_id for e in relevant}
    return relevant + [e for e in candidates if e.chunk_id not in known and counts(e.text, nouns)]


def _text(evidence: Evidence) -> str:
    return f"{evidence.title} {evidence.section or ''} {evidence.text}"


def recent_since(state: GraphState) -> dt.date | None:
    """For "latest"/"current" questions without a date: where the newest documents' window starts.

    Measured from the newest document the channel can read, not from today: a collection last
    updated a year ago still has a latest version.
    """
    intake, newest = state.intake, state.newest
    if intake is None or not intake.recent_year_window or intake.year_mode == "explicit" or newest is None:
        return None
    return newest.replace(year=newest.year - intake.recent_year_window, day=min(newest.day, 28))


def before_oldest(state: GraphState) -> bool:
    """The question dates an occasion ("at the December 1990 meeting", "in its FY 2010 report") that
    ends before the oldest document: no document records it, and a later one must not stand in for
    it. Only an occasion: a later document may well report on earlier dates ("the program started in
    May 2012" in a 2016 report). A period the documents' own labels cover is not before them."""
    plan = state.plan
    if plan is None or plan.date_end is None or state.oldest is None or state.steering.period_resolved:
        return False
    return plan.date_end < state.oldest and bool(occasions(plan.original_query))


def outside_dates(state: GraphState) -> bool:
    """The dates asked lie where no document can answer for them (`after_newest`, `before_oldest`)."""
    return after_newest(state) or before_oldest(state)


def after_newest(state: GraphState) -> bool:
    """The dates asked begin after the newest document: no document can report them, and no
    older one may stand in for them ("the September meeting" when the newest is from July). A period
    the documents' own labels cover is not after them, whatever their dates: a strategic plan for
    FY 2022–2026, dated 2022, covers 2026 ("USAID's 2026 target", a year no label names alone)."""
    start = state.plan.date_start if state.plan is not None else None
    covered = state.steering.period_resolved or state.steering.period_covered
    return start is not None and state.newest is not None and start > state.newest and not covered
