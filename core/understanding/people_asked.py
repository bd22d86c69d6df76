"""Questions that ask for a person by name: the support gate holds their answers to a name said of
what is asked (`core.orchestrator.measures.names_one`)."""

from __future__ import annotations

import re

from core.text import split_sentences
from core.understanding.answers import answer_kind, question_parts

_WHO = re.compile(r"\bwho(?:m)?\b", re.IGNORECASE)


def asks_who_after_premise(question: str) -> bool:
    """True when "who" asks after a sentence that states what the documents say ("… the current
    president was defeated in the primary election. Who was that president?"): the premise gives
    the documents' words, so the name asked is one said of them (`measures.names_one`). A "who"
    question of one sentence asks in its own words ("Aug 2006 the Fed paused - who wanted to keep hiking?" for
    "Mr. Lacker dissented … preferred an increase"), which its answer need not share; "what did
    members say" asks for what was said, not for a name."""
    sentences = split_sentences(question)
    return len(sentences) > 1 and answer_kind(question) == "person" and _WHO.search(sentences[-1]) is not None


# "Who is the new Chief Learning Officer?", "who was the acting chair": "who" with a form of "be" and
# a determiner asks who holds a role the question names.
_WHO_HOLDS = re.compile(r"\bwho(?:['’]s|\s+(?:is|was|are|were|will\s+be))\s+(?:the|a|an|its|their|our)\b", re.I)


def asks_who_holds(question: str) -> bool:
    """True when a question asks who holds a role it names ("who is the new Chief Learning
    Officer?").

    General case: the answer to "who is the X" is a person's name written with X's words ("Kiran
    Ahuja, OPM Director"); a passage about X that names no one ("OPM is recruiting a new Chief
    Learning Officer") does not say who it is. Unlike a "who" asked with a verb in the asker's own
    words (`asks_who_after_premise`), the role is the documents' word for what is asked. Each part
    of the message is read apart (`question_parts`: "…, and who was its president?" asks), and a
    "who" after another question word is relative and asks no one (`answer_kind`: "what did the
    members who were the most worried say?")."""
    return any(
        answer_kind(part) == "person" and _WHO_HOLDS.search(part) is not None for part in question_parts(question)
    )
