"""Does an answer give the measure its question asks for? Part of the support gate (`answer._gate`).

A passage can be about what a question asks and still not answer it: "how many X" wants a count of
X, "what share of X" a proportion, "on what date did X" a date. Passages about X that give another
figure, or none, say something else about X.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from core.orchestrator.asked_names import NUMBERED
from core.orchestrator.said_of import named_words, proper_terms, said_of, statements, tied
from core.orchestrator.state import GraphState
from core.orchestrator.support import content_terms, found_terms, spelled_out
from core.text import STOPWORDS, stem, stems, without_clitic
from core.text import words as written_words
from core.understanding import is_date_word
from core.understanding.answers import (
    answer_kind,
    asked_nouns,
    asks_money,
    asks_name,
    asks_value,
    name_words,
    states_figure,
    states_money,
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
from core.understanding.shares import asks_share, states_share


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
    given = _given(state, cited) | named_words(question)
    others = [t for t in content_terms(question) if stem(t) not in nouns and t not in given]
    # After a premise, a count not of the noun asked (a unit's, or of something else) is said in the
    # question proper's own words (`said_of.TIED_TERMS`); "how many reservists" is not said by "reserve call-ups".
    own = proper_terms(question, _given(state, cited))
    sentences = statements(body)
    besides = frozenset(stems(others))
    if counts_unit(nouns):
        return any(
            counts(s, nouns) and (not others or bool(found_terms(others, s))) and tied(own, s) for s in sentences
        )
    return any(
        counts(s, nouns)
        or (bool(others) and counts_something(s, besides) and bool(found_terms(others, s)) and tied(own, s))
        for s in sentences
    )


def dates_it(question: str, body: str, given: set[str]) -> bool:
    """True when the answer states a date in a sentence about what "on what date …" asks
    (`said_of`): one that carries the question's words besides its names, the `given` words
    (`_given`) and the date words ("date", "day", "exact").

    General case: the answer to "on what date did X" is a date said of X; a date in a sentence about
    something else ("OPM scheduled one review in February 2020" beside "ES issued the Schedule A
    authority", the next meeting's date beside "the rules announced in October") does not date X.
    A question with no such word is answered by any date (`states_date`)."""
    return said_of(question, body, given | _DATE_WORDS, states_date)


def shares_it(question: str, body: str, given: set[str]) -> bool:
    """True when the answer states a share (`states_share`) in a sentence about what "what share /
    percentage of X" asks (`said_of`): one that carries the question's words besides its names,
    the `given` words (`_given`) and the share words; a percentage asked is a number, not "a majority"
    (`states_percent`).

    General case: as a date must be said of what it dates (`dates_it`), the proportion asked is one
    said of X; a percent in a sentence about something else ("equity prices fell 5 percent" beside
    the bank whose shares were asked about) is another proportion."""
    return said_of(question, body, given | _SHARE_WORDS, states_percent if asks_percent(question) else states_share)


def prices_it(question: str, body: str, given: set[str]) -> bool:
    """True when the answer states an amount of money (`states_money`) in a sentence about what "how
    much did X cost" asks (`said_of`): one that carries the question's words besides its names,
    the `given` words (`_given`) and the words that ask for money.

    General case: as a date must be said of what it dates (`dates_it`), the cost asked is one said of
    X; a passage about X with no amount ("OPM received 180 headcount reports through this system"),
    or one whose amount is said of something else, does not say what X cost."""
    return said_of(question, body, given | _MONEY_WORDS, states_money) or names_which(question, body, given)


def values_it(question: str, body: str, given: set[str]) -> bool:
    """True when the answer states a figure (`states_figure`) in a sentence about what "to what
    level / what rate / how large …" asks (`said_of`): one that carries the question's words
    besides its names, the `given` words (`_given`) and the words that only ask for a value.

    General case: as the cost asked is an amount said of X (`prices_it`), the value asked is a figure
    said of X; a passage that tells of X's move with no figure ("a central bank cut its policy rate in
    late August") says that X moved, not to what. "What N …?" is also answered by N's name
    (`names_which`)."""
    return said_of(question, body, given | _VALUE_WORDS, states_figure) or names_which(question, body, given)


def names_which(question: str, body: str, given: set[str]) -> bool:
    """True when the answer names which N a "what N …" question asks (`asked_nouns`) in a sentence
    about what is asked (`said_of`): N with a word of the answer's own before it, or after it a
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

    return said_of(question, body, given | _VALUE_WORDS | _MONEY_WORDS, named)


def _bare(word: str) -> str:
    """`word`'s stem without a possessive: "Department’s" and "departments" are the question's "department"."""
    return stem(without_clitic(word).lower())


def amounts_it(question: str, body: str, given: set[str]) -> bool:
    """True when the answer states a figure or a degree (`states_amount`) in a sentence about what "how
    much X" asks (`said_of`): as the value asked is a figure said of X (`values_it`), "how much debt
    was Detroit seeking to restructure?" is not answered by "the bankruptcy had only a limited
    effect on the municipal market". What the amount is of is often a name ("how much did the
    CARES Act put into the Higher Education Emergency Relief Fund?"): the question's names count
    (`said_of`'s `by_name`)."""
    return said_of(question, body, given | _VALUE_WORDS, states_amount, by_name=True)


def names_one(question: str, body: str, given: set[str]) -> bool:
    """True when the answer writes a proper name the question does not, in a sentence about what "which
    bank / who …" asks (`said_of`): a capitalised word inside a sentence that the question does not
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
    return said_of(question, body, given | {"else"}, new_name, kind=name_words(question), by_name=True, figure=False)


def _letters(word: str) -> str:
    """A word's letters and digits, without its possessive ending: "OPM's" is "OPM"."""
    return "".join(ch for ch in without_clitic(word) if ch.isalnum())


# Words that only ask for the measure (the nouns of `answers._DATE_ASK` and `answers._SHARE_ASK`, and
# how precisely): a source answers them with a date or a proportion, not by repeating them.
_PRECISELY = frozenset({"exact", "exactly", "specific"})
_DATE_WORDS = _PRECISELY | {"date", "day", "calendar"}
_SHARE_WORDS = _PRECISELY | {"percent", "percentage", "share", "proportion", "fraction"}
_MONEY_WORDS = _PRECISELY | {"cost", "costs", "costing", "budget", "price", "fee", "salary", "dollars", "money"}
_VALUE_WORDS = _PRECISELY | {"level", "value", "figure", "amount", "number", "total", "size", "magnitude"}


def _given(state: GraphState, cited: set[str]) -> set[str]:
    """Words that say nothing of what is asked, lower-cased: the cited passages' titles' (every passage
    of their documents carries them) and the question's own words for the names the reading resolved
    (`Steering.mentions`: "opm", written in lower case, is a name all the same)."""
    titles = {w.lower() for e in state.evidence if e.chunk_id in cited for w in written_words(e.title)}
    return titles | {w.lower() for mention in state.steering.mentions for w in written_words(mention)}
