"""How a message in a thread points back at the last turn: "that meeting", "by then", "those
engagements", "the same minutes", "it", a name the last reply wrote.

General case: English refers to what was just said with demonstratives, pronouns, "the same" and
time adverbs; a message that does so asks in the last question's scope (`followups.follow_up`).
"""

from __future__ import annotations

import re

from core.orchestrator.support import mentions
from core.text import STOPWORDS, stem, word_spans, words
from core.understanding.periods import PERIOD_CODE, is_date_word, occasions

# Units of time a message may point back at ("in that year", "at the same time", "then").
_TIME = ("year", "quarter", "month", "period", "time")
# "That" or "this" as the subject of a question, after its auxiliary and before a participle, a
# preposition or the end ("what baseline is that compared against?", "how big was that?", "what was
# this for?"): a pronoun, not a determiner ("was that meeting …").
THAT_SUBJECT = (
    r"\b(?:is|was|are|were|has|had|will|would)\s+(?:that|this)\b"
    r"(?=\s*(?:[?.!,]|$|[a-z]+ed\b|(?:with|against|to|for|from|by|on|in|of|about)\b))"
)
# Pronouns that stand for the last question's subject, or the person its reply named, in a question
# of its own ("how many meetings had he attended?" after "which officer announced he was retiring?").
# "Those" and "these" stand alone too ("how many of those were repeats?"), not before a noun of their own.
BACK_PRONOUN = re.compile(
    r"\b(?:it|its|that\s+one|this\s+one|them|he|she|him|his)\b"
    r"|\b(?:those|these)\b(?=\s*(?:[?.!,]|$|(?:were|was|are|is|did|do|does|had|have|that|which|who)\b))"
    rf"|{THAT_SUBJECT}",
    re.IGNORECASE,
)

# "It", "its", or "that" as a question's subject: the thing the last question asked for. ("That one" is
# as often the occasion, "anyone dissent on that one?", as the thing asked for.)
IT = re.compile(rf"\b(?:it|its)\b|{THAT_SUBJECT}", re.IGNORECASE)


def _is_name(token: str, after_name: bool) -> bool:
    """A word of a name: capitalised ("Bramble", "HHS"), an id of letters and digits ("K-450"), or a
    model number after a name ("SunPeak 550"); never a stop-word, a period code or a date."""
    if token.lower() in STOPWORDS or PERIOD_CODE.fullmatch(token) or is_date_word(token):
        return False
    letters, digits = any(c.isalpha() for c in token), any(c.isdigit() for c in token)
    return token[:1].isupper() or (letters and digits) or (after_name and digits and not letters)


# "That steepening", "those engagements", "these cuts": a demonstrative before a noun.
DEMONSTRATIVE = re.compile(r"\b(?:that|those|these|this)\s+([a-z][\w-]+)", re.IGNORECASE)
_STOP_STEMS = frozenset(stem(w) for w in STOPWORDS)


def _demonstrative(text: str, said: str) -> bool:
    """True when `text` points with "that", "those", "these" or "this" at a noun the last question or
    its reply (`said`) wrote, in any form: "those engagements" after "how many times did users engage
    …?", "that steepening" after a reply on how the yield curve steepened (general case: English
    points back at what was just said with a demonstrative and the noun)."""
    written = {stem(w) for w in words(said)} - _STOP_STEMS
    return any(stem(m[1]) in written for m in DEMONSTRATIVE.finditer(text) if m[1].lower() not in STOPWORDS)


def points_back(text: str, last_question: str, last_answer: str = "") -> bool:
    """True when `text` points back at the last question's period: "that" or "the same" before a unit
    of time or before the occasion the last question's date named, perhaps with a word between ("at
    that meeting" after "… at its March 2023 meeting?", `occasions`; "over that intermeeting period"),
    a closing "then" or one after a preposition of time ("how big had it got by then"), or a pronoun
    standing for what the last question asked about ("who voted against it?" after "what did they do
    in October 2019?": the decision of that date); a closing "that" is such a pronoun ("what cap went
    with that?"), and "that same", "the same" or "those same" points back at whatever it names ("at
    that same meeting" after a question about "the June 2014 FOMC minutes")."""
    nouns = "|".join(map(re.escape, (*_TIME, *occasions(last_question))))
    back = (
        rf"\b(?:that|the\s+same)\s+(?:[a-z][\w-]*\s+)?(?:{nouns})\b|\b(?:then|that)\s*[?.!]*\s*$"
        r"|\b(?:by|until|till|since|before|back)\s+then\b"
    )
    return (
        re.search(back, text, re.IGNORECASE) is not None
        or any(p.search(text) for p in (SAME, BACK_PRONOUN))
        or _demonstrative(text, f"{last_question} {last_answer}")
    )


# "That same meeting", "the same minutes", "those same minutes": the last question's documents.
SAME = re.compile(r"\b(?:that|the|those|these)\s+same\s+\w+", re.IGNORECASE)


def name_phrases(text: str) -> list[tuple[int, int]]:
    """Where a text writes names, as (start, end): runs of name words ("SunPeak 550", "BrightRoof
    Compact", "HHS"), the possessive left outside."""
    phrases: list[tuple[int, int]] = []
    previous_end = -2
    for start, stop in word_spans(text):
        token = re.sub(r"['\u2019]s$", "", text[start:stop])
        joined = phrases and start - previous_end <= 1
        if not _is_name(token, bool(joined)):
            previous_end = -2
            continue
        end = start + len(token)
        if joined:
            phrases[-1] = (phrases[-1][0], end)
        else:
            phrases.append((start, end))
        previous_end = end
    return phrases


def about_the_reply(text: str, last_question: str, last_answer: str) -> bool:
    """True when `text` names someone or something the last question or its reply wrote: "what was
    Bullard's reasoning?" after a reply that named Bullard among the dissenters asks about that
    meeting's Bullard."""
    said = f"{last_question} {last_answer}"
    return any(mentions(said, [text[a:b]]) for a, b in name_phrases(text))
