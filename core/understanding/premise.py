"""What a message states before it asks: its premise, and the question proper.

General case: people set up a question with what they already know ("Aug 10, 2004 statement: output
growth had moderated. How did the FOMC see the economy going forward?", "retail data were limited,
but what did they say had hindered sales?", "When the Committee raised the range in June 2017, what
did its statement say about household spending?"). The premise tells which passage to read; the
sentence that restates it is not the answer, its neighbours are.
"""

from __future__ import annotations

import re

_ASKING = r"what|which|who|whom|whose|how|why|when|where|did|does|do|is|are|was|were|has|have|had|can|could|will|would"
# Where the question proper opens: after a sentence's end, a colon, a comma, a dash or "but"; or,
# after a sentence's end, a colon or a dash, with a preposition fronted before its wh-word ("… at
# $22 trillion. By what date …?", "… - in which city …?"). After a comma, "in which …" opens a
# relative clause of the premise ("the programme, under which banks lend, …"), not a question.
_PREPOSITION = (
    r"about|above|after|at|before|below|by|during|for|from|in|into|of|on|over|per|since|to|under|until|with|within"
)
_OPENS = re.compile(
    rf"(?:[.:;,!?]|\s[-\u2013\u2014]+|\bbut)\s+(?:but\s+)?(?=(?:{_ASKING})\b)"
    rf"|(?:[.:;!?]|\s[-\u2013\u2014]+)\s+(?=(?:{_PREPOSITION})\s+(?:what|which|whom|whose|how|when)\b)",
    re.I,
)
# A lead that is itself a question ("anyone dissent? what did they want?") states nothing.
_ASKS = re.compile(rf"^\s*(?:and\s+|so\s+)?(?:{_ASKING})\b", re.I)
_SCENE = re.compile(r"^\s*(?:when|after|before|once|while|since|following)\b", re.I)


PROPER_TERMS = 2
"""A question proper with fewer content words than this names no subject of its own ("… an event on
July 15. What was it?"): its premise's words are what it asks about."""


def premise(question: str) -> tuple[str, str]:
    """(what the message states before it asks, the question proper); ("", question) when it only
    asks. The lead may be a scene-setting clause ("When the Committee raised …,") but not a question
    of its own ("anyone dissent? what did they want?" asks twice)."""
    opened = _OPENS.search(question)
    if opened is None:
        return "", question
    lead, asked = question[: opened.start()], question[opened.end() :]
    if "?" in question[: opened.end()] or (_ASKS.match(lead) and not _SCENE.match(lead)):
        return "", question
    return lead.strip(), asked.strip()
