"""Which sentences of a passage read together: an answer's chosen sentences with the neighbours that
say what they are about, or go on with what they begin.

General case: writers spread one point over a few sentences. "Ms. George dissented because she
viewed policy as too accommodative. In particular, the current stance could lead to a mispricing of
risk." The first names the point, the second holds its detail; read alone, the second ranks low and
the first answers only half the question.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import pairwise

from core.contracts import Evidence
from core.orchestrator.extractive import MAX_SENTENCES, Candidate
from core.orchestrator.support import content_terms, found_terms

# A sentence that opens by pointing back: with a demonstrative ("This reflected …", "In part, this
# development …"), with an opening phrase built on one or on a possessive pronoun ("For these reasons,
# …", "Views differed on this issue, but …", "In his view, …"), with a personal pronoun for whom the
# sentence before named ("He judged …", "However, they agreed …"), or with a connective that details
# or draws the consequence of the sentence before ("In particular, …", "Accordingly, …").
_POINTS_BACK = re.compile(
    r"^(?:(?:[\w-]+(?:\s+[\w-]+)?,\s+)?(?:this|these|that|those|such|he|she|they)\b"
    r"|(?:[\w-]+\s+){0,4}(?:this|these|those|such|his|her|their)\s+[\w-]+(?:\s+[\w-]+)?,"
    r"|(?:in\s+particular|specifically|accordingly|as\s+a\s+result|consequently|for\s+example|for\s+instance),)",
    re.IGNORECASE,
)

# A sentence that goes on from the one before, though it can be read alone: it sets itself against it
# ("However, …", "In contrast, …") or its subject "also" does something besides ("The agency also
# updated …").
_GOES_ON = re.compile(
    r"^(?:(?:however|nevertheless|nonetheless|in\s+contrast|by\s+contrast),"
    r"|(?:[\w/'’-]+\s+){0,4}(?:will\s+|would\s+|had\s+|has\s+|have\s+|was\s+|were\s+)?also\b(?![-'’]))",
    re.IGNORECASE,
)

QUESTION_ECHO = 0.75
"""A sentence at least this share of whose content words the question writes says what is asked about,
not the answer ("In contrast, the European Central Bank took some initial steps toward scaling back
emergency lending." for "what initial steps did the ECB take toward scaling back emergency lending?"):
the sentence after it, which says what they were ("It announced that the one-year refinancing
operation … would be its last"), joins it."""
MIN_ECHO_TERMS = 3  # a heading of a word or two ("Table 7.02E") echoes nothing


def points_back(sentence: str) -> bool:
    """True when the sentence says what it is about only through the one before it (`_POINTS_BACK`)."""
    return _POINTS_BACK.match(sentence) is not None


def echoes(question: str, sentence: str) -> bool:
    """True when the sentence's content words are mostly the question's own (`QUESTION_ECHO`)."""
    own = content_terms(sentence)
    return len(own) >= MIN_ECHO_TERMS and len(found_terms(own, question)) >= QUESTION_ECHO * len(own)


def announces(sentence: str) -> bool:
    """True when the sentence ends on a colon.

    General case: a colon announces what follows ("… will require three kinds of terms:", a form's
    "Registration:"); the sentence after it is what the first one says, and read alone the first
    says nothing."""
    return sentence.rstrip().endswith(":")


def continued(
    chosen: Sequence[Candidate],
    found: Sequence[Candidate],
    question: str = "",
    following: dict[Candidate, Candidate] | None = None,
) -> list[Candidate]:
    """The chosen sentences, each with the neighbours of its passage that read with it: the sentence
    before it when it opens by pointing back; the sentences after it, one by one, while each opens so,
    and the first after one that only echoes the question (`echoes`); a sentence of the passage
    that lies between two of the answer's. All while the answer has room (MAX_SENTENCES), and one even
    when it has none: none of the chosen makes way, and a sentence that cannot be read without its
    neighbour ("Views differed on this issue, but most supported …" after the issue) may take the
    answer one past MAX_SENTENCES. Last, with what room is left, the sentences that go on from one of
    the answer's (`_going_on`: "However, …", "The Committee also …"). Reading on follows the
    document (`following`, from `successors`): past a passage's end into the next segment's first
    sentence, and after a sentence that `announces` what comes next.

    General case: "Net exports were unexpectedly strong in the fourth quarter. In part, this development
    could be attributed to …": what a sentence reports is often explained, qualified or dated by the
    next one, which says what it is about only through "this" or "these"; read alone, the first names
    the event and the second, which holds the why or the how much, ranks low. The other way round,
    "These purchases … resulted in a retracement" chosen alone does not say which purchases: the
    sentence before it does. A point made over three sentences ("Mr. Kashkari dissented … In his view,
    … He preferred to await …") is read whole."""
    out: list[Candidate] = []
    room = max(MAX_SENTENCES - len(chosen), 1)
    nexts = following if following is not None else {a: b for a, b in pairwise(found) if a[0] == b[0]}

    def free(neighbour: Candidate, candidate: Candidate) -> bool:
        """A sentence of the candidate's own passage, not already in the answer."""
        return neighbour[0] == candidate[0] and neighbour not in [*chosen, *out]

    for candidate in chosen:
        at = found.index(candidate) if candidate in found else -1
        before = found[at - 1] if at > 0 else None
        if room > 0 and before is not None and free(before, candidate) and points_back(candidate[1]):
            out.append(before)
            room -= 1
        if candidate not in out:
            out.append(candidate)
        told = (bool(question) and echoes(question, candidate[1])) or announces(candidate[1])
        current = candidate
        while room > 0 and (after := nexts.get(current)) is not None and after not in [*chosen, *out]:
            if not (told or points_back(after[1])):
                break
            out.append(after)
            room, current, told = room - 1, after, announces(after[1])
    out = _between(out, found) if len(out) <= MAX_SENTENCES else out
    return _going_on(out, found)


def windowed(chosen: list[Candidate], best: Candidate, following: dict[Candidate, Candidate]) -> list[Candidate]:
    """`chosen` with the sentence after the best one in its document (`following`) right after it,
    while the answer has room (fewer than MAX_SENTENCES); a full answer stays as it is, since what
    ranked into it is near the best score and a neighbour that did not may say less.

    General case: a document says one thing after another; the sentence nearest the question is
    often followed by the one that holds its detail, which shares few of the question's words and
    ranks low alone ("After the meeting, open market operations were directed … . Operations were
    complicated by large swings in reserve demands … severe winter weather on check clearings." for
    "what made open market operations harder after the December meeting?")."""
    after = following.get(best)
    if after is None or after in chosen or best not in chosen or len(chosen) >= MAX_SENTENCES:
        return chosen
    out = list(chosen)
    out.insert(out.index(best) + 1, after)
    return out


def completed(
    out: list[Candidate], found: Sequence[Candidate], unsaid: Sequence[str], following: dict[Candidate, Candidate]
) -> list[Candidate]:
    """`out` with the neighbour of one of its sentences (the one before it in its passage, or the one
    after it in the document) that writes a word of the question no sentence of the answer writes
    (`unsaid`), each such word brought once; the answer may grow to MAX_SENTENCES + 2 by it, since a
    sentence that completes one of its own says what was asked, where the others were chosen by rank.

    General case: the answer reads the right passage, and what the question asks lies in the sentence
    next to one it chose, which read alone ranked low. "Firms were trimming excess capacity in
    high-tech and travel. What were the exceptions?" is nearest to "… to reduce excess capacity,
    notably in high-tech and travel-related industries"; the next sentence, "Some exceptions related to
    the expansion of healthcare and security-enhancing facilities.", is short and says little alone,
    as a form's field, a list's item or a figure given after its measure's name does."""
    out, left = list(out), list(unsaid)
    before = {b: a for a, b in following.items()}
    for candidate in list(out):
        for neighbour, offset in ((before.get(candidate), 0), (following.get(candidate), 1)):
            if not left or len(out) > MAX_SENTENCES + 1:
                return out
            if neighbour is None or neighbour in out or (neighbour[0] != candidate[0] and offset == 0):
                continue
            if said := found_terms(left, neighbour[1]):
                out.insert(out.index(candidate) + offset, neighbour)
                left = [t for t in left if t not in said]
    return out


def _going_on(out: list[Candidate], found: Sequence[Candidate]) -> list[Candidate]:
    """`out` with the sentence after each of its sentences that goes on from it (`_GOES_ON`), while it
    has no more than MAX_SENTENCES + 1: such a sentence can be read alone, so it comes after those
    that cannot (`continued`) and takes no room they need."""
    for i in range(len(found) - 1):
        sentence, after = found[i], found[i + 1]
        if len(out) > MAX_SENTENCES:
            break
        if sentence in out and after not in out and after[0] == sentence[0] and _GOES_ON.match(after[1]):
            out.insert(out.index(sentence) + 1, after)
    return out


def _between(out: list[Candidate], found: Sequence[Candidate]) -> list[Candidate]:
    """`out` with each sentence that lies alone between two of its sentences of one passage, after
    the first of them, while it has no more than MAX_SENTENCES + 1."""
    for i in range(1, len(found) - 1):
        gap, before, after = found[i], found[i - 1], found[i + 1]
        if len(out) > MAX_SENTENCES or gap in out or not (before in out and after in out):
            continue
        if before[0] == gap[0] == after[0]:
            out.insert(out.index(before) + 1, gap)
    return out


def successors(found: Sequence[Candidate], evidence: Sequence[Evidence]) -> dict[Candidate, Candidate]:
    """Each sentence's next one in its document: the next of its passage, or after a passage's last
    sentence the first of the passage that follows it in the document (the next segment), when that
    one is evidence too (read past its end, `core.orchestrator.continuation`, or found itself)."""
    out: dict[Candidate, Candidate] = {}
    first: dict[tuple[str, int], Candidate] = {}
    for candidate in found:
        if (place := _place(evidence[candidate[0]])) is not None:
            first.setdefault(place, candidate)
    for candidate, after in pairwise(found):
        if after[0] == candidate[0]:
            out[candidate] = after
    for candidate in found:
        place = _place(evidence[candidate[0]])
        if candidate not in out and place is not None and (nxt := first.get((place[0], place[1] + 1))) is not None:
            out[candidate] = nxt
    return out


def _place(item: Evidence) -> tuple[str, int] | None:
    """A segment's (document, position); None for a fact, a row or a summary."""
    return (item.doc_id, item.position) if item.kind == "segment" and item.position is not None else None
