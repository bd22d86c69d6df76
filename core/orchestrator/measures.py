"""Does an answer give the measure its question asks for? Part of the support gate (`answer._gate`).

A passage can be about what a question asks and still not answer it: "how many X" wants a count of
X, "what share of X" a proportion, "on what date did X" a date. Passages about X that give another
figure, or none, say something else about X.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable

from core.orchestrator.asked_names import NUMBERED, name_runs
from core.orchestrator.state import GraphState
from core.orchestrator.support import content_terms, found_terms, spelled_out
from core.prompts.synthesis import MARK
from core.text import STOPWORDS, split_sentences, stem, stems, without_clitic
from core.text import words as written_words
from core.understanding import is_date_word
from core.understanding.answers import (
    answer_kind,
    asked_nouns,
    asks_money,
    asks_name,
    asks_share,
    asks_value,
    name_words,
    question_parts,
    states_figure,
    states_money,
    states_share,
)
from core.understanding.asked_figures import (
    asks_amount,
    asks_date,
    asks_percent,
    labels,
    series_labels,
    states_amount,
    states_date,
    states_percent,
    unasked_figures,
)
from core.understanding.counting import counted, counts, counts_something, counts_unit
from core.understanding.people_asked import asks_who_after_premise, asks_who_holds
from core.understanding.premise import PROPER_TERMS, premise


def measure_missing(state: GraphState, body: str, cited: set[str]) -> str | None:
    """Why the answer does not give the measure asked (None when it does or none is asked): no count
    of X in the answer for "how many X" (`gives_count`), no share in the answer for "what share
    of X" (`states_share`), no date for "on what date" (`dates_it`), no amount of money for "how much
    did X cost" (`prices_it`), no figure for "to what level was X cut" (`values_it`), no figure or
    degree for "how much X" (`amounts_it`), no new name for "which bank was it" or a "who" after a
    premise (`names_one`), no baseline figure for "what was the baseline" (`labels_it`). Rows a structured
    query counted or filtered are that measure (not checked)."""
    if state.plan is None or (state.route is not None and state.route.route == "structured"):
        return None
    question = state.plan.original_query
    what = counted(question)
    bare = unasked_figures(body, question)
    if what and not gives_count(state, bare, cited, what):
        return f"the sources found give no count of {' '.join(what)}"
    given = _given(state, cited)
    # A model's reformulation is the question as understood: a figure said of its words is said of
    # what is asked ("how much time off comes with a newborn?" → "new parent paid leave").
    reformulated = any(s.stage == "reformulate" and s.path == "llm" for s in state.llm_steps)
    understood = [question, state.plan.revised_query] if reformulated else [question]
    # Figures are read without those the question quotes (`bare`); a date's year and a name may be
    # the question's own (`body`).
    named = asks_name(question) or asks_who_after_premise(question) or asks_who_holds(question)
    checks: list[tuple[bool, Callable[[str, str, set[str]], bool], str, str]] = [
        (asks_share(question), shares_it, bare, "states no percentage or share of what the question asks about"),
        (asks_date(question), dates_it, body, "states no date of what the question asks about"),
        (asks_money(question), prices_it, bare, "states no amount of money for what the question asks about"),
        (asks_value(question), values_it, bare, "states no figure for what the question asks about"),
        (asks_amount(question), amounts_it, bare, "states no amount of what the question asks about"),
        (named, names_one, body, "names nothing the question does not already name"),
    ]
    for asked, gives, said, missing in checks:
        if asked and not any(gives(q, said, given) for q in understood):
            return f"the answer {missing}"
    item = unfilled_item(question, [e.text for e in state.evidence if e.chunk_id in cited])
    if item:
        return f"the sources give no figure for {item}, which the question asks for"
    unlabelled = [label for label in series_labels(question) if label in WRITTEN_LABELS and not labels_it(label, body)]
    if unlabelled:
        return f"the answer states no {unlabelled[0]} figure, which the question asks for"
    return None


WRITTEN_LABELS = ("baseline", "actual")
"""The series labels a report writes beside their figures ("Baseline 2019 … 1,293,673"); a target is
often written as what will be, without the word ("GSA's goal will be … 75 percent of respondents
rating those initiatives as effective", "By 2026, 50% of States …"), so no target asked is judged by
its label."""


def labels_it(label: str, body: str) -> bool:
    """True when a statement of the answer gives a figure (`states_figure`) and writes `label`.

    General case: reports list a measure's baseline, targets and actuals side by side, often only
    some of them ("Target Actual" with no figures, a target set and no baseline); the figure asked
    for one of them is not the figure of another ("By 2026, 50% of States/MPOs have developed
    plans" is a target, not the baseline asked)."""
    return any(labels(label, s) for s in statements(body))


def unfilled_item(question: str, texts: list[str]) -> str | None:
    """The numbered item a question asks a figure of ("what attrition rate under KPI 5.2.4?") when
    the cited texts list it with no figure; None when they give one, or do not show where its entry
    ends.

    General case: reports list numbered items (measures, indicators, goals) one after another, each
    with its values: an item's entry runs from its number to the next item's number. An entry that
    holds no figure besides its number ("KPI 5.2.4 Attrition … Rate Permanent attrition rate Target
    Actual", a target left unset) answers no "what rate" or "how many" about that item, however
    close the rest of the passage is to the question."""
    if answer_kind(question) != "quantity":
        return None
    items: list[str] = NUMBERED.findall(question)
    for item in dict.fromkeys(items):
        at = re.compile(rf"(?<![\w.]){re.escape(item)}(?![\w]|\.\w)", re.IGNORECASE)
        entries: list[str] = []
        for text in texts:
            for match in at.finditer(text):
                following = NUMBERED.search(text, match.end())
                if following is None:
                    return None  # the entry may go on past the passage: not judged
                entries.append(text[match.end() : following.start()])
        if entries and not any(states_figure(entry) for entry in entries):  # "five technologies" too
            return item
    return None


def gives_count(state: GraphState, body: str, cited: set[str], what: list[str]) -> bool:
    """True when the answer (`body`) says how many X: a sentence counts X (`counts`), or counts
    something in words the question also asks with ("will enroll a total of 420 subjects" for "how
    many patients will the trial enroll?": the noun differs, the ask is the same).

    General case: passages about X that count something else, or nothing, do not say how many X
    there are ("the operators and employees of DHS perform difficult work"). The question's names
    (possessive or not: "OPM's") and the cited titles' words are not such words: every passage of
    the document carries them, nor are the words the reading resolved to names, in any case ("opm"
    in "opm fy17 apr - how many attendees …"). Money and time are counted only in their units (`counts_unit`): "how
    many dollars of funding" is not answered by "funding to support 163 FTE staff"; and only in a
    sentence that carries such a word, as a date must be said of what it dates (`dates_it`): "how
    many dollars went to cash-for-clunkers" is not answered by a sum of agency-debt purchases. The
    count is read in the answer, not anywhere in the passages it cites: an answer of sentences about
    a shutdown gives no number of workers furloughed, whatever figure the rest of its passage holds."""
    assert state.plan is not None
    question = state.plan.original_query
    nouns = {stem(w) for w in what}
    given = _given(state, cited) | _named(question)
    others = [t for t in content_terms(question) if stem(t) not in nouns and t not in given]
    # After a premise, a count not of the noun asked (a unit's, or of something else) is said in the
    # question proper's own words (`TIED_TERMS`); "how many reservists" is not said by "reserve call-ups".
    own = _proper_terms(question, _given(state, cited))
    sentences = statements(body)
    besides = frozenset(stems(others))
    if counts_unit(nouns):
        return any(
            counts(s, nouns) and (not others or bool(found_terms(others, s))) and _tied(own, s) for s in sentences
        )
    return any(
        counts(s, nouns)
        or (bool(others) and counts_something(s, besides) and bool(found_terms(others, s)) and _tied(own, s))
        for s in sentences
    )


def dates_it(question: str, body: str, given: set[str]) -> bool:
    """True when the answer states a date in a sentence about what "on what date …" asks
    (`_said_of`): one that carries the question's words besides its names, the `given` words
    (`_given`) and the date words ("date", "day", "exact").

    General case: the answer to "on what date did X" is a date said of X; a date in a sentence about
    something else ("OPM scheduled one review in February 2020" beside "ES issued the Schedule A
    authority", the next meeting's date beside "the rules announced in October") does not date X.
    A question with no such word is answered by any date (`states_date`)."""
    return _said_of(question, body, given | _DATE_WORDS, states_date)


def shares_it(question: str, body: str, given: set[str]) -> bool:
    """True when the answer states a share (`states_share`) in a sentence about what "what share /
    percentage of X" asks (`_said_of`): one that carries the question's words besides its names,
    the `given` words (`_given`) and the share words; a percentage asked is a number, not "a majority"
    (`states_percent`).

    General case: as a date must be said of what it dates (`dates_it`), the proportion asked is one
    said of X; a percent in a sentence about something else ("equity prices fell 5 percent" beside
    the bank whose shares were asked about) is another proportion."""
    return _said_of(question, body, given | _SHARE_WORDS, states_percent if asks_percent(question) else states_share)


def prices_it(question: str, body: str, given: set[str]) -> bool:
    """True when the answer states an amount of money (`states_money`) in a sentence about what "how
    much did X cost" asks (`_said_of`): one that carries the question's words besides its names,
    the `given` words (`_given`) and the words that ask for money.

    General case: as a date must be said of what it dates (`dates_it`), the cost asked is one said of
    X; a passage about X with no amount ("OPM received 180 headcount reports through this system"),
    or one whose amount is said of something else, does not say what X cost."""
    return _said_of(question, body, given | _MONEY_WORDS, states_money) or names_which(question, body, given)


def values_it(question: str, body: str, given: set[str]) -> bool:
    """True when the answer states a figure (`states_figure`) in a sentence about what "to what
    level / what rate / how large …" asks (`_said_of`): one that carries the question's words
    besides its names, the `given` words (`_given`) and the words that only ask for a value.

    General case: as the cost asked is an amount said of X (`prices_it`), the value asked is a figure
    said of X; a passage that tells of X's move with no figure ("a central bank cut its policy rate in
    late August") says that X moved, not to what. "What N …?" is also answered by N's name
    (`names_which`)."""
    return _said_of(question, body, given | _VALUE_WORDS, states_figure) or names_which(question, body, given)


def names_which(question: str, body: str, given: set[str]) -> bool:
    """True when the answer names which N a "what N …" question asks (`asked_nouns`) in a sentence
    about what is asked (`_said_of`): N with a word of the answer's own before it, or after it a
    word of the answer's own that N is "on", "for" or "related to"; not a stop-word, a figure or
    a word of the question, possessive or plural ("the Department’s budget" names no budget, `_bare`).

    General case: "what N" asks for a figure ("what rate did the bank set?") or for which N ("what
    limit did OPM remove?", "down to what level will EPA model emissions?", "what federally mandated
    cost was aggravating shortfalls?"); a level or a limit is often a place in an order or a kind,
    and the answer names it: "the pass-through limit", "down to the county level", "federally
    mandated costs related to homeland security", "the limit on the amount by which holdings can
    change". An answer that writes N only with the question's own words ("the new level") names none."""
    nouns = asked_nouns(question)
    if not nouns:
        return False
    own = {_bare(w) for w in written_words(question)}
    alternatives = "|".join(re.escape(n) for n in sorted(nouns))
    before = re.compile(rf"\b([\w'’-]+)\s+(?:{alternatives})s?\b", re.IGNORECASE)
    after = re.compile(
        rf"\b(?:{alternatives})s?\s+(?:related\s+to|on|for)\s+(?:(?:the|a|an)\s+)?([\w'’-]+)", re.IGNORECASE
    )

    def named(sentence: str) -> bool:
        words = [m[1].lower() for pattern in (before, after) for m in pattern.finditer(sentence)]
        return any(w not in STOPWORDS and _bare(w) not in own and not any(ch.isdigit() for ch in w) for w in words)

    return _said_of(question, body, given | _VALUE_WORDS | _MONEY_WORDS, named)


def _bare(word: str) -> str:
    """`word`'s stem without a possessive: "Department’s" and "departments" are the question's "department"."""
    return stem(without_clitic(word).lower())


def amounts_it(question: str, body: str, given: set[str]) -> bool:
    """True when the answer states a figure or a degree (`states_amount`) in a sentence about what "how
    much X" asks (`_said_of`): as the value asked is a figure said of X (`values_it`), "how much debt
    was Detroit seeking to restructure?" is not answered by "the bankruptcy had only a limited
    effect on the municipal market". What the amount is of is often a name ("how much did the
    CARES Act put into the Higher Education Emergency Relief Fund?"): the question's names count
    (`_said_of`'s `by_name`)."""
    return _said_of(question, body, given | _VALUE_WORDS, states_amount, by_name=True)


def names_one(question: str, body: str, given: set[str]) -> bool:
    """True when the answer writes a proper name the question does not, in a sentence about what "which
    bank / who …" asks (`_said_of`): a capitalised word inside a sentence that the question does not
    write capitalised, and that is not a `given` word (`_given`), a date word or a single letter
    ("U.S." is "U" and "S").

    General case: the answer to "which bank was it?" is that bank's name; a passage that tells of "a
    large trading loss at a major U.S. bank", or of a strike "at a major aircraft manufacturer", names
    the bank's kind, which the question already knew. A word the question writes in lower case is a
    name where the answer capitalises it ("the Workplace 2030 initiative" for "the initiative on the
    federal workplace of the future"); an acronym of the question's own words ("BPA" for "blanket
    purchase agreement") is not. As a date must be said of what it dates (`dates_it`), the name
    asked is one said of what is asked: "which bank acquired Washington Mutual's operations?" is not
    answered by "the deterioration of AIG and Wachovia, along with the closing of Washington
    Mutual"."""
    written = written_words(question)
    asked = {_letters(w) for w in written if w[:1].isupper()}
    known = {_letters(w).lower() for w in given}
    spelled = [w.lower() for w in written]

    def new_name(sentence: str) -> bool:
        words = written_words(sentence)
        # "European Central Bank" for the question's "ECB": the name it wrote, spelled out.
        expanded = spelled_out([w.lower() for w in words], written)
        return any(
            w[:1].isupper()
            and len(_letters(w)) > 1
            and _letters(w) not in asked
            and _letters(w).lower() not in known
            and w.lower() not in expanded
            and not all(is_date_word(part) for part in w.split("-"))  # "January-February" is dates
            and not spelled_out(spelled, [_letters(w)])  # "BPA" for the question's "blanket purchase agreement"
            for w in words[1:]
        )

    # "Who else was on it?": "else" asks for more of the kind, a word no answer repeats.
    return _said_of(question, body, given | {"else"}, new_name, kind=name_words(question), by_name=True, figure=False)


def statements(body: str) -> list[str]:
    """The answer's sentences, each cited piece apart: a citation mark ends what its source says
    (general case: an answer joins passages of different sources, and a table or chart's text has no
    full stop, so "… Target Actual Increased [1] 9.3% 7.9% … FEHB Premium [2]" is two statements;
    the second's percent is not said of the first's words)."""
    return [s for piece in MARK.split(body)[::2] for s in split_sentences(piece)]  # [::2]: not the marks' numbers


def _letters(word: str) -> str:
    """A word's letters and digits, without its possessive ending: "OPM's" is "OPM"."""
    return "".join(ch for ch in without_clitic(word) if ch.isalnum())


def _said_of(
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
    ignored = free | _named(question)
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
    own = _proper_terms(question, free) if figure else []

    def said(sentence: str) -> bool:
        carried = len(found_terms(counted, sentence)) + sum(1 for r in runs if r.search(sentence))
        tied = bool(found_terms(asked, sentence)) or any(r.search(sentence) for r in asked_runs)
        return carried >= least and tied and _tied(own, sentence)

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


def _proper_terms(question: str, free: set[str]) -> list[str]:
    """The question proper's own words (`premise`), names too, besides the `free` words and pro-forms;
    none when the message states no premise, or when a part of the question proper names no subject
    of its own (`PROPER_TERMS`): "the surge of new claims at the start of the year - how big was it,
    how long did it stretch, and why couldn't OPM hire extra staff?" asks its figure of the premise."""
    stated, proper = premise(question)
    if not stated or any(len(content_terms(part)) < PROPER_TERMS for part in question_parts(proper)):
        return []
    return [t for t in content_terms(proper) if t not in free | _PRO_FORMS]


def _tied(own: list[str], sentence: str) -> bool:
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


# Words that only ask for the measure (the nouns of `answers._DATE_ASK` and `answers._SHARE_ASK`, and
# how precisely): a source answers them with a date or a proportion, not by repeating them.
_PRECISELY = frozenset({"exact", "exactly", "specific"})
_DATE_WORDS = _PRECISELY | {"date", "day", "calendar"}
_SHARE_WORDS = _PRECISELY | {"percent", "percentage", "share", "proportion", "fraction"}
_MONEY_WORDS = _PRECISELY | {"cost", "costs", "costing", "budget", "price", "fee", "salary", "dollars", "money"}
_VALUE_WORDS = _PRECISELY | {"level", "value", "figure", "amount", "number", "total", "size", "magnitude"}


def _named(question: str) -> set[str]:
    """The question's names, lower-cased, possessive or not ("OPM's"): its capitalised words after the first."""
    return {without_clitic(w).lower() for w in written_words(question)[1:] if w[:1].isupper()}


def _given(state: GraphState, cited: set[str]) -> set[str]:
    """Words that say nothing of what is asked, lower-cased: the cited passages' titles' (every passage
    of their documents carries them) and the question's own words for the names the reading resolved
    (`Steering.mentions`: "opm", written in lower case, is a name all the same)."""
    titles = {w.lower() for e in state.evidence if e.chunk_id in cited for w in written_words(e.title)}
    return titles | {w.lower() for mention in state.steering.mentions for w in written_words(mention)}
