"""Whether a sentence of an answer says something of what the question asks: a figure, a date or a
name said in the words of what is asked, not beside something else (`said_of`), and, after a
premise, in the question proper's own words (`proper_terms`, `tied`)."""

from __future__ import annotations

import math
from collections.abc import Callable

from core.orchestrator.asked_names import name_runs
from core.orchestrator.support import content_terms, found_terms
from core.prompts.synthesis import MARK
from core.text import split_sentences, without_clitic
from core.text import words as written_words
from core.understanding.answers import question_parts
from core.understanding.premise import PROPER_TERMS, premise


def statements(body: str) -> list[str]:
    """The answer's sentences, each cited piece apart: a citation mark ends what its source says
    (general case: an answer joins passages of different sources, and a table or chart's text has no
    full stop, so "… Target Actual Increased [1] 9.3% 7.9% … FEHB Premium [2]" is two statements;
    the second's percent is not said of the first's words)."""
    return [s for piece in MARK.split(body)[::2] for s in split_sentences(piece)]  # [::2]: not the marks' numbers


def said_of(
    question: str,
    body: str,
    free: set[str],
    states: Callable[[str], bool],
    kind: frozenset[str] = frozenset(),
    *,
    by_name: bool = False,
    figure: bool = True,
) -> bool:
    """True when a sentence of `body` `states` what is asked and carries the question's words besides
    its names and the `free` words (`SAID_OF_SHARE` of them, one from the sentences that ask: those
    with a question mark, "… 60-day window? Target was 90%, right?" asks in both); any sentence that
    states it, when the question has none, or when the sentences that ask have none: "… enlarged
    the swap lines with the ECB and the SNB. How big did each get?" points back, and so may the
    answer ("These arrangements will now provide up to $30 billion …"). `kind`: the noun of the kind
    asked ("bank" in "which bank acquired it?"): a name carries it ("the Harbour Workers Union"), so
    it ties a sentence to the sentence that asks, but any name of that kind carries it too ("the
    Bank of Korea"), so it is not counted among the words that say what is asked. `by_name`: each
    of the question's names that is not `free` is one more such word, written whole (`name_runs`):
    a person is asked by the role the documents write beside the name ("The plan lists an Acting
    Secretary. Who is it?" is answered by "Kevin K. McAleenan: Acting Secretary"), and "Washington
    Mutual" is not "money market mutual funds". `figure`: after a premise, a figure asked is one
    said in the question proper's own words (`TIED_TERMS`); a name asked is not held to that (the
    name's own sentence may share only its kind with the question: "which union was party to it?")."""
    ignored = free | named_words(question)
    terms = [t for t in content_terms(question) if t not in ignored]
    counted = [t for t in terms if t not in kind]
    sentences = split_sentences(question)
    asking = " ".join(s for s in sentences if "?" in s) or question
    asked = [t for t in content_terms(asking) if t not in ignored]
    runs = name_runs(question, free) if by_name else []
    asked_runs = [r for r in runs if r.search(asking)]
    if not (counted or runs) or not (asked or asked_runs):
        return states(body)
    least = max(1, math.ceil(SAID_OF_SHARE * (len(counted) + len(runs))))
    own = proper_terms(question, free) if figure else []

    def said(sentence: str) -> bool:
        carried = len(found_terms(counted, sentence)) + sum(1 for r in runs if r.search(sentence))
        asking_too = bool(found_terms(asked, sentence)) or any(r.search(sentence) for r in asked_runs)
        return carried >= least and asking_too and tied(own, sentence)

    return any(states(s) and said(s) for s in statements(body))


SAID_OF_SHARE = 0.2
"""A figure is said of what a question asks when its sentence carries this share of the question's
words (besides names and the words that ask), one of them from the sentences that ask: "the ECB
raised its main refinancing rate to 4.75 percent" is said of "what level did the ECB raise its main
refinancing rate to"; "an unchanged federal funds rate of about 6-1/2 percent" shares one word of
nine ("rate") and is said of another rate, and after "… the yen hit an all-time high. What was that
exchange rate?", "the dollar declined 2 percent" says nothing of an exchange rate. Measured on the
development sets fresh21-27: the answers that pass carry a quarter or more, the unanswerable
questions answered with another figure a sixth or less."""


def proper_terms(question: str, free: set[str]) -> list[str]:
    """The question proper's own words (`premise`), names too, besides the `free` words and pro-forms;
    none when the message states no premise, or when a part of the question proper names no subject
    of its own (`PROPER_TERMS`): "the surge of new claims at the start of the year - how big was it,
    how long did it stretch, and why couldn't OPM hire extra staff?" asks its figure of the premise."""
    stated, proper = premise(question)
    if not stated or any(len(content_terms(part)) < PROPER_TERMS for part in question_parts(proper)):
        return []
    return [t for t in content_terms(proper) if t not in free | _PRO_FORMS]


def tied(own: list[str], sentence: str) -> bool:
    """True when `sentence` carries `TIED_TERMS` of the question proper's `own` words (all, when it has fewer)."""
    return len(found_terms(own, sentence)) >= min(TIED_TERMS, len(own))


TIED_TERMS = 2
"""How many words of the question proper (all, when it has fewer; `premise`) a sentence carries to be
said of what is asked, when the message states a premise first. General case: the premise names the
passage, so its echo shares the premise's words, and a figure beside it may be said of something
else: after "… were concerned about the newly imposed tariffs on steel. What tariff rate was put on
each?", "a March rate hike … 2 percent" shares "rate" alone with the question proper and is said of
another rate. Measured on the development sets fresh21-31 (990 cases): four unanswerable near misses
fewer answered, two answers withheld (a table row, an acronym the passage spells out in lower case)."""
_PRO_FORMS = frozenset({"one", "ones"})
"""Words that stand for a noun said before them ("which one, and from which government?")."""


def named_words(question: str) -> set[str]:
    """The question's names, lower-cased, possessive or not ("OPM's"): its capitalised words after the first."""
    return {without_clitic(w).lower() for w in written_words(question)[1:] if w[:1].isupper()}
