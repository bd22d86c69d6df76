"""Figures asked beyond a quantity: a percentage, an amount, a point of a measure's series, a date.

"What percentage voted leave?" asks a number ("a majority" is none), "how much debt …?" a figure or
a degree, "what was the baseline?" a figure the report labels so. Each pair reads what a question
asks (`asks_…`, `series_labels`) and whether a sentence gives it (`states_…`, `labels`); the support
gate (`core.orchestrator.measures`) reads them in sentences said of what is asked, without the figures
the question quotes itself (`unasked_figures`).
"""

from __future__ import annotations

import re

from core.understanding.answers import (
    AFTER_HEAD,
    HEADS,
    VALUE_GAP,
    YEAR_ONLY,
    answer_kind,
    figures_only,
    holds,
    states_figure,
)
from core.understanding.numerals import NUMBER
from core.understanding.shares import asks_share, states_share

_PERCENT_ASK = re.compile(r"\b(?:what|which)\s+(?:[\w'’-]+\s+){0,3}?(?:percentage|percent\b|%)", re.I)
_MAJORITY = re.compile(r"\bmajority\b", re.I)


def asks_percent(question: str) -> bool:
    """True when a share is asked as a number ("what percentage voted leave?", "what % of spend"):
    "a majority" is a share ("what share of members …"), not a percentage."""
    return _PERCENT_ASK.search(question) is not None


def states_percent(text: str) -> bool:
    """True when `text` states a share (`states_share`) other than "a majority"."""
    return states_share(_MAJORITY.sub(" ", text))


# "How much debt …", "how much would it save?", "by how much did it rise?"; a part asked with "how much
# of" may be "most".
_AMOUNT_ASK = re.compile(r"\bhow\s+much\b(?!\s+of\b)", re.I)
# English quantifiers of degree, not adjectives that describe ("a limited effect" says of what kind),
# and an amount set by what it takes ("in the amounts needed", "as needed").
_DEGREE = re.compile(
    r"\b(?:little|much|more|most|less|least|considerable|substantial)\b"
    r"|\b(?:amounts?|as)\s+(?:needed|necessary|required)\b",
    re.I,
)


def asks_amount(question: str) -> bool:
    """True when a question asks how much of something there is or was ("how much debt was it seeking
    to restructure?", "how much weight did respondents give it?"): a figure or a degree."""
    return _AMOUNT_ASK.search(question) is not None


def states_amount(text: str) -> bool:
    """True when `text` states a figure (`states_figure`), a degree ("little weight", "a considerable
    amount") or an amount set by what it takes ("purchases in the amounts needed"): the answer to
    "how much …?" written any of these ways."""
    return states_figure(text) or _DEGREE.search(text) is not None


# The points of a measure's series a report gives: where it started, what it aims at, what it reached;
# "what was the FY 2020 baseline" asks a figure of one by its label alone, when the label heads what
# is asked ("what was his actual objection" asks for an objection).
SERIES_LABELS = r"baseline|target|actual"
_SERIES = re.compile(rf"\b({SERIES_LABELS})s?\b", re.IGNORECASE)
_SERIES_ASK = re.compile(rf"\bwhat\s+{VALUE_GAP}(?:{SERIES_LABELS})s?\b{HEADS}", re.IGNORECASE)


def series_labels(question: str) -> list[str]:
    """The points of a measure's series a question asks a figure of ("what was the baseline score",
    "what was the FY 2020 baseline actual, and the FY 2021 target?"), lower-cased; none when it
    asks no figure."""
    if answer_kind(question) != "quantity" and not asks_share(question) and not _SERIES_ASK.search(question):
        return []
    return list(dict.fromkeys(m.lower() for m in _SERIES.findall(question)))


def labels(label: str, sentence: str) -> bool:
    """True when `sentence` gives a figure (`states_figure`) and writes the series `label` ("Actual
    Baseline 2019-10-01 2020-09-30 1,293,673"), or is a row of a table whose header it does not
    carry (`headless_row`): a figure of that point of the series, or a row that may hold it."""
    if not states_figure(sentence):
        return False
    return re.search(rf"\b{label}s?\b", sentence, re.IGNORECASE) is not None or headless_row(sentence)


MIN_ROW_FIGURES = 3


def headless_row(text: str) -> bool:
    """True when `text` reads as a table's row cut from its header: `MIN_ROW_FIGURES` figures or more
    (an item's number and years aside) and no series label at all ("4.04D Number of Folders on eOPF
    created 1,285,137 1,440,000 1,620,000 2,003,377 2,221,648 1,800,000 Met").

    General case: a report's table writes its labels once, in the header row ("FY 2014 Results … FY
    2014 Target"); a passage that starts below the header holds the figures without them, so
    whether it gives the target asked cannot be read from it. A sentence that gives one figure
    ("By 2026, 50% of States have plans") or writes another label is no such row."""
    return len(NUMBER.findall(figures_only(text))) >= MIN_ROW_FIGURES and _SERIES.search(text) is None


def unasked_figures(body: str, question: str) -> str:
    """The answer without the figures its question writes itself, years apart: "of the 1,328 elements,
    how many were payroll elements?" is not answered by "the V1 release included 1,328 elements", nor
    "how many chargers were there when DOT set its 500,000-charger goal?" by the goal.

    General case: a question quotes a figure to say what it asks about, and the passage it was taken
    from repeats it; the figure asked is another one."""
    quoted = {m[0].replace(",", "") for m in NUMBER.finditer(question) if not YEAR_ONLY.fullmatch(m[0])}
    return NUMBER.sub(lambda m: "" if m[0].replace(",", "") in quoted else m[0], body) if quoted else body


# "What date …", "on which day …", "what exact date …": a calendar date by name, not a period or a time.
# "What date guidance" names a kind of guidance: "date" is asked for only when no noun follows it.
_DATE_ASK = re.compile(
    r"\b(?:what|which)\s+(?:(?:exact|calendar|specific)\s+)?(?:date|day)\b"
    rf"(?=\s*(?:[?,.;:]|$|(?:{AFTER_HEAD}|the)\b))",
    re.I,
)


def asks_date(question: str) -> bool:
    """True when a question asks for a calendar date by name ("On what date was the order
    signed?"); "when" may be answered by a year, a quarter or an occasion and is not this."""
    return _DATE_ASK.search(question) is not None


def states_date(text: str) -> bool:
    """True when `text` states a calendar date ("June 14, 2017", "14 June", "2021-01-20", "March
    2020", "Tuesday").

    General case: the answer to "on what date did X happen" is a date; a passage about X that
    gives none says something else about X."""
    return holds(text, "date")
