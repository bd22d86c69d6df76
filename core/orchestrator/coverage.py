"""How much of what a message asks the cited text carries: the question proper's words after a premise,
and the names each passage must write (`about_the_names`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from core.contracts import Evidence
from core.orchestrator.asked_names import Name
from core.orchestrator.support import content_terms, found_terms, mentions, writes
from core.text import split_sentences, words
from core.understanding import is_date_word
from core.understanding.premise import PROPER_TERMS, premise


def proper_share(question: str, text: str, free: set[str]) -> float:
    """The share of the question proper's words (`premise`; not the `free` ones) that `text` carries;
    0 when the message states no premise, its question proper names too little of its own
    (`PROPER_TERMS`), or its premise names something (a capitalised word that does not open a
    sentence, not a date) that the text does not write.

    General case: a premise may be in the person's own words ("sept 2013 - the fed surprised everyone
    by not tapering. who dissented and why?"); the documents need not write them, only what is asked.
    A premise that names someone ("markets read statements by BoE governor Carney as signaling earlier
    tightening. at what event did he make them?") points at the passage that writes the name: a
    passage without it answers "at what event" about nothing the person asked."""
    stated, asked = premise(question)
    terms = [t for t in content_terms(asked) if t not in free]
    if not stated or len(terms) < PROPER_TERMS:
        return 0.0
    # A sentence's first word is capitalised whatever it is ("Per the minutes of …", "According to …").
    inner = [w for sentence in split_sentences(stated) for w in words(sentence)[1:]]
    named = [w.lower() for w in inner if w[:1].isupper() and not is_date_word(w) and w.lower() not in free]
    if len(found_terms(named, text)) < len(set(named)):
        return 0.0
    return len(found_terms(terms, text)) / len(terms)


def placed(question: str, names: list[Name]) -> set[str]:
    """The names only the question's premise writes (`premise`), not the question proper.

    General case: "After Hurricane Katrina, the September 2005 minutes said the pace of reconstruction
    was uncertain. What did it depend on?" names the storm to say where to read; the sentence that
    answers ("it depended in part on … how quickly the affected areas could again be made habitable")
    need not repeat it, but its document must write it. A name the question proper asks about
    ("which rate did the Bank of Canada raise?") must be written by the passage that answers. Read
    inside one occasion's documents only (`GraphState.occasion`): across a long report, a premise's
    name ("OPM FY 2015 APR, the TSP participation study: …") tells which of its parts answers."""
    stated, asked = premise(question)
    return {n.text for n in names if stated and mentions(stated, n.variants) and not mentions(asked, n.variants)}


def written_by(
    evidence: list[Evidence], names: list[Name], documents: set[str], shown: Callable[[Evidence], str]
) -> dict[str, set[str]]:
    """For each name, those of the `documents` that some passage of `evidence` writing it belongs to
    (a passage's text as `shown` in its citation)."""
    return {
        n.text: docs
        for n in names
        if (docs := {e.doc_id for e in evidence if e.doc_id in documents and writes(shown(e), n)})
    }


def about_the_names(
    evidence: list[Evidence],
    names: list[Name],
    chosen: set[str],
    in_passing: set[str],
    placing: set[str],
    parts: Sequence[str],
    text: Callable[[Evidence], str],
) -> list[Evidence]:
    """Evidence that mentions every name the question steers by, when there is some; else all of it.
    Of a message that asks several things (`parts`), a passage answers one part: it mentions that
    part's names and those no part writes; a part that writes none asks of what the message's
    other names that are not `in_passing` name (its document, its organisation).

    A document the facets chose (`chosen`) is about the names they resolved where a line of it does
    not write them: OPM's report titled "Annual Performance Report Fiscal Year 2015" is OPM's, and
    so is its signature line. A name only some passages write (`in_passing`, "NTL" in OWS's report)
    must still be written by the passage (its `text`: what a citation shows), unless only the premise
    names it (`placed`): then by its document."""
    documents = written_by(evidence, [n for n in names if n.text in placing], {e.doc_id for e in evidence}, text)

    def about(e: Evidence, name: Name) -> bool:
        resolved = e.doc_id in chosen and name.text not in in_passing
        return resolved or writes(text(e), name) or e.doc_id in documents.get(name.text, set())

    if not names:
        return evidence
    # "KPI 1.3.3 counts WINs - what does WIN stand for? and KPI 1.7.2 tracks what?": 1.7.2's entry
    # need not write "WIN".
    groups = [[n for n in names if mentions(part, n.variants)] for part in parts] if len(parts) > 1 else []
    unplaced = [n for n in names if not any(n in group for group in groups)]
    steering = [n for n in names if n.text not in in_passing]
    groups = [[*(group or steering), *unplaced] for group in groups] or [names]
    full = [e for e in evidence if any(all(about(e, n) for n in group) for group in groups)]
    return full or evidence
