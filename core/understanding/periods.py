"""Years, months and quarters as questions name them: the one year pattern and the quarter forms.

"Q3 2025", "Q3/2025", "2025-Q3", "third quarter of 2025" and "the quarter ended 30 June 2025"
all name (3, 2025) or (2, 2025); documents are matched by the ways they write a quarter
(`quarter_mentions`).
"""

from __future__ import annotations

import calendar
import datetime as dt
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from core.text import STOPWORDS

YEAR = r"(?:19[5-9]\d|20\d{2})"
"""A calendar year as questions write it (1950–2099): the only year pattern of the core."""

MONTHS = (
    {name.lower(): i for i, name in enumerate(calendar.month_name) if name}
    | {name.lower(): i for i, name in enumerate(calendar.month_abbr) if name}
    | {"sept": 9}
)
"""Month names and abbreviations, lower-cased, to their number ("sep", "sept" → 9)."""

MONTH = "|".join(sorted(MONTHS, key=len, reverse=True))
_ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "1st": 1, "2nd": 2, "3rd": 3, "4th": 4}
_ORDINAL_NAMES = {1: "first", 2: "second", 3: "third", 4: "fourth"}
_YEARS = re.compile(rf"\b{YEAR}\b")
_QUARTER_CODE = re.compile(rf"\bQ([1-4])\s*[/-]?\s*(?:FY\s*)?({YEAR})\b|\b({YEAR})\s*[/-]?\s*Q([1-4])\b", re.IGNORECASE)
_QUARTER_WORDS = re.compile(
    rf"\b(first|second|third|fourth|1st|2nd|3rd|4th)\s+(?:fiscal\s+)?quarter\s+(?:of\s+)?(?:FY\s*)?({YEAR})\b",
    re.IGNORECASE,
)
_QUARTER_ENDED = re.compile(
    rf"\bquarter\s+end(?:ed|ing)\s+(?:on\s+)?(?P<date>(?:\d{{1,2}}\s+(?:{MONTH})\.?|(?:{MONTH})\.?\s+\d{{1,2}}),?\s+{YEAR})\b",
    re.IGNORECASE,
)
DATE_PHRASE = re.compile(
    rf"\b(?:in|from|during|for|since|before|after)?\s*(?:q[1-4]\s+)?(?:(?:{MONTH})\s+)?{YEAR}\b"
    r"|\b(?:last|this|previous)\s+(?:year|quarter|month)\b",
    re.IGNORECASE,
)
"""A date phrase a refinement replaces ("in May 2023", "Q3 2024", "last year")."""


_FISCAL = re.compile(
    rf"\b(?:fiscal(?:\s+years?)?|FYs?)\s*'?({YEAR}|\d{{2}})\b"
    rf"(?:\s*(?:-|\u2013|\u2014|to|through)\s*(?:FY\s*)?({YEAR}|\d{{2}})\b)?",
    re.IGNORECASE,
)
_YEAR_SPAN = re.compile(rf"\b({YEAR})\s*(?:-|\u2013|\u2014|to|through)\s*({YEAR})\b")
_ENDED = re.compile(
    rf"\b(?:(?:quarterly|fiscal|financial|reporting)\s+)?(?:period|quarter|year|half[- ]year)\s+end(?:ed|ing)\s*:?\s*"
    rf"(?P<date>(?:\d{{1,2}}\s+(?:{MONTH})\.?|(?:{MONTH})\.?\s+\d{{1,2}}),?\s+{YEAR})\b",
    re.IGNORECASE,
)


PERIOD_CODE = re.compile(r"(?:FY|CY|Q[1-4]|H[12])-?\d*", re.IGNORECASE)
"""A period written as a code ("FY2022", "Q3", "H1", "FY"): never a name or an id."""

PERIOD_WORDS = frozenset({"fiscal", "year", "years", "fy", "fys", "quarter", "quarterly", "period", "ended", "ending"})
"""The words the period patterns above are made of: they name when, never what or whom."""


_DATED = (
    rf"(?:fiscal(?:\s+years?)?|FYs?)\s*'?(?:{YEAR}|\d{{2}})(?:\s*[-\u2013]\s*(?:FY\s*)?(?:{YEAR}|\d{{2}}))?"
    rf"|Q[1-4]\s*[/-]?\s*{YEAR}|{YEAR}\s*[/-]?\s*Q[1-4]"
    rf"|(?:(?:{MONTH})\.?\s*[/\u2013-]\s*)?(?:{MONTH})\.?\s+"
    rf"(?:\d{{1,2}}(?:\s*[-\u2013]\s*(?:(?:{MONTH})\.?\s+)?\d{{1,2}})?,?\s+)?{YEAR}"  # "Oct 31-Nov 1, 2017"
    rf"|(?:{MONTH})\.?\s*(?:\d{{1,2}},?\s*)?['\u2019\u2018]\d{{2}}"  # "the July '23 meeting", "jan 31 '96"
    rf"|{YEAR}(?:\s*[-\u2013]\s*{YEAR})?"
)
# "According to the May 2018 minutes" names a source by its date; "to" alone may be a range's bound
# ("from March to the June 2013 meeting", `_BOUNDS`).
_OCCASION = re.compile(
    rf"\b(?P<preposition>according\s+to|at|in|from|during|after|before|since|per|for|of|to)\s+(?:the|its|their|this|that|\w+['\u2019]s)\s+"
    rf"(?P<date>{_DATED})\s+(?P<noun>[a-z][\w-]*)",
    re.IGNORECASE,
)


_DATE_PHRASE = re.compile(rf"\b(?:{_DATED})\b", re.IGNORECASE)


def date_phrases(text: str) -> list[tuple[int, int]]:
    """Where `text` writes a date whole, as (start, end): "May 9, 2007", "June 2013", "FY 2018"."""
    return [m.span() for m in _DATE_PHRASE.finditer(text)]


def occasions(question: str) -> set[str]:
    """Nouns a date picks out as the occasion of the question, lower-cased: "meeting" in "at the July
    2023 meeting", "filing" in "from Orchard's Q3 2022 filing".

    General case: a noun that a date modifies, after a preposition, names the meeting, report or
    filing the date window (or the documents' period labels) has chosen; the passages of that
    document need not repeat it, no more than they repeat the date. The thing asked for is not in such
    a phrase: without the preposition ("what was the Q3 2022 margin?") the noun is what is asked. So
    does a date that names an occasion by its neighbour ("at the meeting after June 2013").
    """
    neighbour = _by_neighbour(question)  # "at the meeting after June 2013" (`nearest_occasion`)
    return {m["noun"].lower() for m in _dated_occasions(question)} | (
        {neighbour["noun"].lower()} if neighbour else set()
    )


# A message headed by its source: up to three words that name it ("opm fy15 apr - …"), neither asking
# nor bounding a stretch of time ("after the March 2020 meeting, …"), a date, then up to four words,
# then a colon, comma or dash.
_NOT_SOURCE_WORDS = (
    r"(?:who|whom|whose|what|which|when|where|why|how|did|does|do|is|are|was|were|can|could|will|would"
    r"|after|before|since|until|to|from|by|between)"
)
_HEADING = re.compile(
    rf"^\s*(?:the\s+)?(?:(?!{_NOT_SOURCE_WORDS}\b)[\w'\u2019.&/-]+\s+){{0,3}}?(?P<date>{_DATED})"
    rf"(?:\s+[\w'\u2019.&/-]+){{1,4}}?\s*(?:[:,]|\s[-\u2013\u2014]+\s)",
    re.IGNORECASE,
)


def source_heading(question: str) -> str | None:
    """The date of the source a message is headed by ("fy15" in "opm fy15 apr - what was enrollment at
    the start of calendar 2016?"), or None.

    General case: chat names the source it asks about in a heading before the question, set off by a
    colon, comma or dash; the heading's period picks the document, and the question's other dates are
    what that document writes about."""
    heading = _HEADING.match(question)
    return heading["date"] if heading else None


def occasion_dates(question: str) -> list[str]:
    """The date phrases that date an occasion (`occasions`): "August 1995" in "cited in the minutes of
    the August 1995 meeting", and the date of a message's heading ("jan 2007 minutes: net exports were
    strong in Q4 2006 …", "fy16 opm report - the program started in May 2012 with …").

    General case: chat names the source it asks about in a heading before the question, set off by a
    colon, comma or dash; the other dates of the question are what that source writes about.
    """
    heading = source_heading(question)
    dated = [m["date"] for m in _dated_occasions(question) if m["preposition"].lower() not in _BOUNDS]
    return [heading, *dated] if heading else dated


def _dated_occasions(question: str) -> list[re.Match[str]]:
    """The occasion phrases of `question` whose noun is a word of content: "of the 2022 and 2024
    policies" dates two policies, not an occasion called "and"."""
    return [m for m in _OCCASION.finditer(question) if m["noun"].lower() not in STOPWORDS]


_NEAREST = re.compile(
    r"\bthe\s+(?:(?:next|first|following|subsequent|last|previous|prior|preceding)\s+)?(?P<noun>[a-z][\w-]*)\s+"
    rf"(?P<bound>after|before)\s+(?:the\s+)?(?:{_DATED})\b",
    re.IGNORECASE,
)
_SPANS = frozenset(
    {"year", "years", "quarter", "quarters", "month", "months", "week", "weeks", "day", "days", "time", "calendar"}
)
"""Spans of time: "the year after 2006" is a year, not the next document's occasion."""


def nearest_occasion(
    question: str, start: dt.date | None, end: dt.date | None, dates: Sequence[dt.date]
) -> dt.date | None:
    """The date of the occasion a question names by its neighbour ("the meeting after June 2013",
    "the statement before May 9, 2007", "the one after June 2023"): of the documents' `dates`, the
    first inside the window that opens after the date named (`start`, no `end`), or the last inside
    the one that closes before it. None when the question names no such occasion.

    General case: records of occasions (meetings, filings, reports) are dated by the occasion; the
    one after another is the next date the documents carry, whatever the calendar between them."""
    match = _by_neighbour(question)
    if match is None:
        return None
    if match["bound"].lower() == "after":
        return min((d for d in dates if d >= start), default=None) if start and not end else None
    return max((d for d in dates if d <= end), default=None) if end and not start else None


def neighbour_window(
    question: str, start: dt.date | None, end: dt.date | None, dates: Sequence[dt.date], kind_dates: Sequence[dt.date]
) -> tuple[dt.date, dt.date] | None:
    """The window of an occasion named by its neighbour (`nearest_occasion`): its own date; or, when
    the question names a kind of document (`kind_dates`: the dates that kind carries, empty when it
    names none) and no such document is of that date, the span from the occasion it is named by to it.

    General case: the records of an occasion speak of the next and the last one (minutes state when
    the next meeting is to be held, a statement recalls the last decision); asked "per the minutes"
    of the meeting after June when only the June minutes are kept, those minutes are the evidence."""
    day = nearest_occasion(question, start, end, dates)
    if day is None:
        return None
    if not kind_dates or day in kind_dates:
        return day, day
    if start is not None and end is None:  # "after": the occasion named is the last before the window
        return max((d for d in dates if d < start), default=day), day
    assert end is not None  # "before" (`nearest_occasion` reads no other window)
    return day, min((d for d in dates if d > end), default=day)


def names_neighbour(question: str) -> bool:
    """True when a question names an occasion by its neighbour (`nearest_occasion`)."""
    return _by_neighbour(question) is not None


def occasion_noun(noun: str) -> bool:
    """True for a noun that may name an occasion ("meeting", "statement", "report", "one"); not a span
    of time ("the next fiscal year", "the day after") nor another stop-word."""
    lowered = noun.lower()
    return lowered == "one" or lowered not in _SPANS | PERIOD_WORDS | STOPWORDS


def _by_neighbour(question: str) -> re.Match[str] | None:
    return next((m for m in _NEAREST.finditer(question) if occasion_noun(m["noun"])), None)


_BOUNDS = frozenset({"after", "before", "since", "to"})
"""Prepositions that make an occasion's date the edge of a stretch, not the time asked about."""


def is_period_phrase(text: str) -> bool:
    """True when every word of `text` is a period word ("Fiscal Year", "FY"): an acronym a document
    defines for a period is not a name of whom it is about."""
    tokens = text.lower().split()
    return bool(tokens) and all(t in PERIOD_WORDS for t in tokens)


def _full_year(digits: str) -> int:
    """A year written with two or four digits ("FY19" → 2019, "FY98" → 1998)."""
    number = int(digits)
    if len(digits) == 4:
        return number
    return 2000 + number if number < 50 else 1900 + number


def fiscal_years(text: str) -> list[tuple[str, int, int]]:
    """Fiscal years a text names, as (words, first year, last year): "FY 2016" → ("FY 2016", 2016, 2016),
    "Fiscal Years 2020-2024" → (…, 2020, 2024), "fy19" → (…, 2019, 2019). The standard fiscal-year
    forms (two- or four-digit years after "FY" or "fiscal [year]"); which months a fiscal year spans
    is the document's business, so a fiscal year is matched by its label, never by a date window."""
    found: list[tuple[str, int, int]] = []
    for match in _FISCAL.finditer(text):
        first = _full_year(match[1])
        last = _full_year(match[2]) if match[2] else first
        if first <= last <= first + 10:
            found.append((" ".join(match[0].split()), first, last))
    return found


def year_spans(text: str) -> list[tuple[str, int, int]]:
    """Spans of years written out ("2022 – 2026", "2020-2024"), as (words, first year, last year)."""
    return [
        (" ".join(m[0].split()), int(m[1]), int(m[2]))
        for m in _YEAR_SPAN.finditer(text)
        if int(m[1]) < int(m[2]) <= int(m[1]) + 10
    ]


def periods_ended(text: str) -> list[tuple[str, str]]:
    """ "… period ended June 25, 2022" phrases, as (words, the date's words), for a reader of dates."""
    return [(" ".join(m[0].split()), m["date"]) for m in _ENDED.finditer(text)]


_MONTH_YEAR = re.compile(rf"\b(?:{MONTH})\.?\s+({YEAR})\b(?!\s*[-\u2013]\s*\d)", re.IGNORECASE)
_LONE_YEAR = re.compile(rf"(?<![-\u2013/\d])\b({YEAR})\b(?!\s*[-\u2013/]\s*\d)")


@dataclass(frozen=True)
class PeriodMention:
    """A period a text writes, where, and what it is."""

    start: int
    end: int
    kind: str  # "fiscal", "quarter", "month", "year"
    year: int
    quarter: int = 0
    written: str = ""


def period_mentions(text: str) -> list[PeriodMention]:
    """The single periods a text writes, in order, longest form first (a fiscal year is not also a
    year): a fiscal year, a quarter, a month of a year, a year. A span of years ("FY 2022-2026", a
    plan's name) is none of them."""
    found: list[PeriodMention] = []
    spans = [(m.start(), m.end()) for m in _FISCAL.finditer(text) if m[2]] + [
        (m.start(), m.end()) for m in _YEAR_SPAN.finditer(text)
    ]
    for m in _FISCAL.finditer(text):
        if not m[2]:
            found.append(PeriodMention(m.start(), m.end(), "fiscal", _full_year(m[1]), written=m[0]))
    for m in _QUARTER_CODE.finditer(text):
        quarter, year = (m[1], m[2]) if m[1] else (m[4], m[3])
        found.append(PeriodMention(m.start(), m.end(), "quarter", int(year), int(quarter), m[0]))
    for m in _MONTH_YEAR.finditer(text):
        found.append(PeriodMention(m.start(), m.end(), "month", int(m[1]), written=m[0]))
    for m in _LONE_YEAR.finditer(text):
        found.append(PeriodMention(m.start(), m.end(), "year", int(m[1]), written=m[0]))
    kept: list[PeriodMention] = []
    for mention in sorted(found, key=lambda p: (p.start, p.start - p.end)):
        taken = [(p.start, p.end) for p in kept] + spans
        if not any(start < mention.end and mention.start < end for start, end in taken):
            kept.append(mention)
    return kept


def shifted(mention: PeriodMention, unit: str, step: int) -> str | None:
    """The period `step` units ("year", "quarter") from `mention`, written the way it was written."""
    if unit == "year":
        year = mention.year + step
        if mention.kind == "fiscal":
            return f"FY {year}"
        if mention.kind == "quarter":
            return f"Q{mention.quarter} {year}"
        if mention.kind == "month":
            return mention.written.replace(str(mention.year), str(year))
        return str(year)
    if mention.kind != "quarter":
        return None  # "the quarter after FY 2018" names nothing the documents label
    index = mention.year * 4 + mention.quarter - 1 + step
    return f"Q{index % 4 + 1} {index // 4}"


def years(text: str) -> list[int]:
    """The years a text names, in order, each once ("in 2022 and 2024" → [2022, 2024])."""
    return list(dict.fromkeys(int(y) for y in _YEARS.findall(text)))


def is_year(word: str) -> bool:
    """True for a word that is a year ("2024")."""
    return bool(re.fullmatch(YEAR, word))


def is_date_word(word: str) -> bool:
    """A year, a period code or a month name ("2024", "Q3", "FY22", "FY2016", "May", "sept").

    General case: a period written as one word ("per ED's FY22 plan") names when, like "FY 2022";
    a source need not repeat it (the date window and steering see to periods)."""
    lower = word.lower()
    coded = PERIOD_CODE.fullmatch(word) is not None and any(ch.isdigit() for ch in word)
    return is_year(word) or coded or lower in MONTHS


def quarter_of(date: dt.date) -> tuple[int, int]:
    """The calendar quarter a day falls in, as (quarter, year)."""
    return (date.month - 1) // 3 + 1, date.year


def quarter_window(quarter: int, year: int) -> tuple[dt.date, dt.date]:
    """A calendar quarter's first and last day."""
    month = 3 * quarter
    return dt.date(year, month - 2, 1), dt.date(year, month, calendar.monthrange(year, month)[1])


def quarters(question: str, read_date: Callable[[str], dt.date | None]) -> list[tuple[int, int]]:
    """The quarters a question names, in order, as (quarter, year).

    `read_date` reads the date of "the quarter ended 30 June 2025" (dateparser, see `dates`).
    """
    found: list[tuple[int, int, int]] = []
    for match in _QUARTER_CODE.finditer(question):
        quarter, year = (match[1], match[2]) if match[1] else (match[4], match[3])
        found.append((match.start(), int(quarter), int(year)))
    for match in _QUARTER_WORDS.finditer(question):
        found.append((match.start(), _ORDINALS[match[1].lower()], int(match[2])))
    for match in _QUARTER_ENDED.finditer(question):
        if date := read_date(match["date"]):
            found.append((match.start(), *quarter_of(date)))
    return list(dict.fromkeys((quarter, year) for _, quarter, year in sorted(found)))


def quarter_just_past(quarter: int, end: dt.date, written: dt.date | None, text: str) -> bool:
    """True when `text`, of a document dated `written` within the year after a quarter `end`s, names
    that quarter by its ordinal without a year ("a strong fourth-quarter pace" in May 2018 is 2017's;
    "the fourth quarter of 2016" is not).

    General case: reports and minutes discuss the quarters just past by their ordinal alone; the
    latest fourth quarter before a document is the one it means."""
    if written is None or not end < written <= end + dt.timedelta(days=365):
        return False
    unyeared = rf"\b{_ORDINAL_NAMES[quarter]}[\s-]+quarter\b(?!\s*(?:of\s+)?(?:{YEAR}|\d{{2}}\b))"
    return re.search(unyeared, text, re.IGNORECASE) is not None


def quarter_mentions(quarter: int, year: int) -> list[str]:
    """Ways a document says which quarter it covers, lower-cased."""
    month = 3 * quarter
    last = calendar.monthrange(year, month)[1]
    name = calendar.month_name[month].lower()
    return [
        f"q{quarter} {year}",
        f"q{quarter}/{year}",
        f"{year} q{quarter}",
        f"{_ORDINAL_NAMES[quarter]} quarter of {year}",
        f"{_ORDINAL_NAMES[quarter]} quarter {year}",
        f"{last} {name} {year}",
        f"{name} {last}, {year}",
    ]
