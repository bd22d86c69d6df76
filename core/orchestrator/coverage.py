"""How much of what a message asks the cited text carries, when the message states a premise first."""

from __future__ import annotations

from core.orchestrator.support import content_terms, found_terms
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
