"""Date hints in questions ("in 2023", "Q3 2024", "since March 2022", "last year", "recent").

Phrases are read by dateparser with the injected clock's day as `RELATIVE_BASE`, so "last year"
and "2 months ago" are testable; quarters, which dateparser does not know, come from `periods`.
"""

from __future__ import annotations

import calendar
import datetime as dt
import re
import threading
from dataclasses import dataclass, field

from dateparser.date import DateDataParser

from core.understanding.periods import MONTH, MONTHS, YEAR, occasion_dates, quarter_of, quarter_window, quarters, years

DATEPARSER_LOCK = threading.Lock()
"""dateparser keeps shared state and is not thread-safe (scrapinghub/dateparser#441): every
caller in the process (questions here, document dates in the loaders) parses under this lock."""

_SETTINGS = {"PREFER_DAY_OF_MONTH": "first", "PREFER_DATES_FROM": "past", "RETURN_AS_TIMEZONE_AWARE": False}
_PERIOD = rf"(?:(?:{MONTH})\.?\s+(?:\d{{1,2}}(?:st|nd|rd|th)?(?:\s*[\u2013-]\s*\d{{1,2}})?,?\s+)?)?{YEAR}"
_BETWEEN = re.compile(rf"\b(?:between|from)\s+({YEAR})\s+(?:and|to|until|through)\s+({YEAR})\b", re.IGNORECASE)
_SINCE = re.compile(rf"\b(since|after)\s+({_PERIOD})\b", re.IGNORECASE)
"""The start of an open window: "since March 2022" counts March, "after March 2022" begins when March
ends (general case: "the meeting after June 2013" is not June's)."""
_BEFORE = re.compile(rf"\b(?:before|until|up to)\s+({_PERIOD})\b", re.IGNORECASE)
_MONTH_YEAR = re.compile(rf"\b(?:{MONTH})\.?\s+{YEAR}\b", re.IGNORECASE)
_MONTH_SPAN = re.compile(rf"\b({MONTH})\.?\s*[/\u2013-]\s*({MONTH})\.?\s+({YEAR})\b", re.IGNORECASE)
"""Two months and a year ("Jan/Feb 2023", "jul/aug 2018"): a meeting held across a month's end."""
_DAY_PHRASE = re.compile(
    rf"\b(?:(?:{MONTH})\.?\s+\d{{1,2}}(?:st|nd|rd|th)?,?|\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:{MONTH})\.?,?)\s+{YEAR}\b",
    re.IGNORECASE,
)
_DAY = r"(\d{1,2})(?:st|nd|rd|th)?"
_DAY_SPAN = re.compile(
    rf"\b(?:({MONTH})\.?\s+{_DAY}\s*[\u2013-]\s*(?:({MONTH})\.?\s+)?{_DAY}"
    rf"|{_DAY}\s*[\u2013-]\s*{_DAY}\s+(?:of\s+)?({MONTH})\.?),?\s+({YEAR})\b",
    re.IGNORECASE,
)
"""A span of days ("September 17-18, 2013", "January 31–February 1, 2023", "30-31 January 2001"):
a meeting, conference or event held over consecutive days."""
DAY_MARGIN = dt.timedelta(days=7)
"""A day named in a question reads the documents dated within a week of it: what happened on a day
is written up on days near it (an action's effective date, its announcement, a meeting's minutes)."""
_RELATIVE = re.compile(
    r"\b(?:last|this|previous|past)\s+(?:year|quarter|month|week)\b|\b(?:\d+|an?|one|two|three)\s+(?:years?|months?|weeks?)\s+ago\b",
    re.IGNORECASE,
)
_DEADLINE = re.compile(
    rf"\b(?:by|(?:through|until|till)(?=\s+the\s+end\b))\s+(?:the\s+end\s+of\s+)?(?:(?:fiscal|calendar)\s+(?:year\s+)?|FY\s*|CY\s*)?"
    rf"(?:(?:{MONTH})\.?\s+(?:\d{{1,2}}(?:st|nd|rd|th)?,?\s+)?)?{YEAR}\b",
    re.IGNORECASE,
)
"""A deadline ("by September 30, 2023", "by FY 2026") is a date a plan sets for a target, and a horizon
("through the end of 2011") the span a forecast runs to, not the time the question is about: neither
narrows which documents are read (a 2022 plan states 2026 goals, 2010 minutes project 2011)."""
_PART_OF_YEAR = re.compile(
    rf"\b(early|mid|middle\s+of|late|beginning\s+of|start\s+of)[\s-]+({YEAR})\b",
    re.IGNORECASE,
)
"""A part of a year ("late 2009", "mid-2013", "the start of 2022"): its first, middle or last third, when
the question names no other year ("the end of 2026" is a plan's horizon, `_DEADLINE`).
General case: people date what they half remember by the part of the year it fell in; the whole
year's documents hold other months' answers to the same question (January's minutes for "late 2009")."""
_THIRDS = {"early": (1, 4), "beginning": (1, 4), "start": (1, 4), "mid": (5, 8), "middle": (5, 8), "late": (9, 12)}
# "Mar '97", or "march 93": two digits after a month are a year when marked so or no day (over 31).
_SHORT_YEAR = re.compile(
    rf"\b((?:{MONTH})\.?)(\s+\d{{1,2}}(?:st|nd|rd|th)?,?)?\s*(?:['\u2019\u2018](\d{{2}})|(?<!\d)\s(3[2-9]|[4-9]\d))\b",
    re.IGNORECASE,
)
_RECENT = re.compile(r"\b(?:recent|recently|latest|newest|current|currently|now)\b", re.IGNORECASE)


@dataclass
class DateHints:
    """What a question says about dates."""

    year_mode: str = "none"
    requested_years: list[int] = field(default_factory=list)
    date_start: dt.date | None = None
    date_end: dt.date | None = None
    recent_year_window: int | None = None


@dataclass(frozen=True)
class Period:
    """A stretch of calendar a phrase names ("March 2022" → the month of March 2022)."""

    start: dt.date
    end: dt.date


def read_period(phrase: str, today: dt.date) -> Period | None:
    """The day, week, month or year a date phrase names, relative to `today` ("last year", "May 2023")."""
    text = re.sub(r"\b(?:previous|past)\b", "last", " ".join(phrase.split()), flags=re.IGNORECASE)
    settings = {**_SETTINGS, "RELATIVE_BASE": dt.datetime.combine(today, dt.time())}
    with DATEPARSER_LOCK:
        found = DateDataParser(languages=["en"], settings=settings).get_date_data(text)
    if found.date_obj is None:
        return None
    day = found.date_obj.date()
    if found.period == "year":
        return Period(dt.date(day.year, 1, 1), dt.date(day.year, 12, 31))
    if found.period == "month":
        last = calendar.monthrange(day.year, day.month)[1]
        return Period(day.replace(day=1), day.replace(day=last))
    if found.period == "week":
        return Period(day, day + dt.timedelta(days=6))
    return Period(day, day)


def read_date(phrase: str) -> dt.date | None:
    """A date written out in full ("30 June 2025", "June 30, 2025")."""
    period = read_period(phrase, dt.date(2000, 1, 1))  # an absolute date needs no base
    return period.start if period else None


def full_years(text: str, today: dt.date) -> str:
    """A month, or a day, with a two-digit year written with its four ("Mar '97" → "Mar 1997", "dec ’08"
    → "dec 2008", "march 93" → "march 1993": no day is 93; "jan 31 '96" → "jan 31, 1996"): the latest
    year ending in those digits, up to next year.

    General case: chat writes a year short after a month; every reader of dates (the date window,
    the occasion a date names, the documents' period labels) reads four digits.
    """

    def full(match: re.Match[str]) -> str:
        year = today.year // 100 * 100 + int(match[3] or match[4])
        day = f" {match[2].strip(' ,')}," if match[2] else ""
        return f"{match[1]}{day} {year - 100 if year > today.year + 1 else year}"

    return _SHORT_YEAR.sub(full, text)


_NUMERIC_DATE = re.compile(r"(?<![\w/.-])(?:\d{1,2}/\d{1,2}/(?:\d{4}|\d{2})|\d{4}-\d{2}-\d{2})(?![\w/.-])")
"""A day in figures: "1/31/01", "12/16/2015", "2018-01-31" (not inside a file name's "2002-01-30-…")."""


def written_dates(text: str, today: dt.date) -> str:
    """Each day written in figures written out ("the 1/31/01 cut" → "the January 31, 2001 cut"), as
    dateparser reads it: month first where both orders are days (as US English writes them), and a
    two-digit year the latest such year up to `today`.

    General case: chat writes a day in figures; every reader of dates (the date window, the occasion a
    date names, the documents' period labels) reads a month's name.
    """

    def written(match: re.Match[str]) -> str:
        period = read_period(match[0], today)
        return f"{period.start:%B} {period.start.day}, {period.start.year}" if period else match[0]

    return _NUMERIC_DATE.sub(written, text)


def without_deadlines(text: str) -> str:
    """The text without the deadlines it sets (`_DEADLINE`: "by Sept 30, 2026", "by FY 2026"): what is
    left names the time a question is about, for the date window and the documents' period labels.
    Blanked, not cut: every other word keeps its place in the text."""
    return _DEADLINE.sub(lambda match: " " * len(match[0]), text)


def date_hints(text: str, today: dt.date) -> DateHints:
    """Explicit years, quarters, days, months, ranges and relative dates → a date window.

    A question that dates an occasion and names other dates too ("what rate for July 1995 is cited in
    the minutes of the August 1995 meeting?", "at the Jan/Feb 2023 meeting, who was named effective
    Feb 21, 2023?", "jan 2007 minutes: … strong in Q4 2006 …") reads the occasion's date: the other
    dates are what its documents write about.
    """
    text = without_deadlines(text)
    # An occasion's date phrase names no occasion itself: the recursion is one level deep. One the
    # calendar cannot place ("fy16 opm report: … in May 2012 …") is matched by the documents' labels,
    # so no other date of the question narrows the window either.
    if dated := occasion_dates(text):
        hints = date_hints(dated[0], today)
        return hints if hints.year_mode == "explicit" else DateHints()
    if match := _BETWEEN.search(text):
        first, last = sorted((int(match[1]), int(match[2])))
        return _window(dt.date(first, 1, 1), dt.date(last, 12, 31), list(range(first, last + 1)))
    if named := quarters(text, read_date):
        quarter, year = named[0]
        return _window(*quarter_window(quarter, year), [year])
    if (match := _SINCE.search(text)) and (period := _day_span(match[2]) or read_period(match[2], today)):
        start = period.end + dt.timedelta(days=1) if match[1].lower() == "after" else period.start
        return _window(start, None, list(range(start.year, today.year + 1)))
    if (match := _BEFORE.search(text)) and (period := _day_span(match[1]) or read_period(match[1], today)):
        return _window(None, period.start - dt.timedelta(days=1), [])
    if span := _day_span(text):
        return _window(span.start - DAY_MARGIN, span.end + DAY_MARGIN, [span.start.year])
    if (match := _DAY_PHRASE.search(text)) and (period := read_period(match[0], today)):
        return _window(period.start - DAY_MARGIN, period.end + DAY_MARGIN, [period.start.year])
    if match := _MONTH_SPAN.search(text):
        first, last, year = MONTHS[match[1].lower()], MONTHS[match[2].lower()], int(match[3])
        start = dt.date(year - (first > last), first, 1)
        return _window(start, dt.date(year, last, calendar.monthrange(year, last)[1]), sorted({start.year, year}))
    if (match := _MONTH_YEAR.search(text)) and (period := read_period(match[0], today)):
        return _window(period.start, period.end, [period.start.year])
    if (match := _PART_OF_YEAR.search(text)) and len(years(text)) == 1:
        year, (first, last) = int(match[2]), _THIRDS[match[1].split()[0].lower()]
        return _window(dt.date(year, first, 1), dt.date(year, last, calendar.monthrange(year, last)[1]), [year])
    if named_years := sorted(years(text)):
        return _window(dt.date(named_years[0], 1, 1), dt.date(named_years[-1], 12, 31), named_years)
    if match := _RELATIVE.search(text):
        return _relative(match[0], today)
    if _RECENT.search(text):  # "latest", "current": prefer new documents, filter nothing
        return DateHints(recent_year_window=1)
    return DateHints()


def _day_span(text: str) -> Period | None:
    """The first and last day of the first span of days in `text` (`_DAY_SPAN`), if they exist."""
    if not (match := _DAY_SPAN.search(text)):
        return None
    year = int(match[8])
    if match[1]:
        first_month = MONTHS[match[1].lower()]
        first_day, last_month, last_day = int(match[2]), MONTHS[(match[3] or match[1]).lower()], int(match[4])
    else:
        first_month = last_month = MONTHS[match[7].lower()]
        first_day, last_day = int(match[5]), int(match[6])
    try:
        start = dt.date(year - (first_month > last_month), first_month, first_day)
        end = dt.date(year, last_month, last_day)
    except ValueError:  # "Feb 30-31": not a calendar day
        return None
    return Period(start, end) if start <= end else None


def _window(start: dt.date | None, end: dt.date | None, requested: list[int]) -> DateHints:
    return DateHints(year_mode="explicit", requested_years=requested, date_start=start, date_end=end)


def _relative(phrase: str, today: dt.date) -> DateHints:
    if phrase.lower().endswith("quarter"):  # dateparser has no quarters
        quarter, year = quarter_of(today)
        if not phrase.lower().startswith("this"):
            quarter, year = (quarter - 1, year) if quarter > 1 else (4, year - 1)
        return _window(*quarter_window(quarter, year), [year])
    period = read_period(phrase, today)
    if period is None:
        return DateHints()
    return _window(period.start, period.end, list(range(period.start.year, period.end.year + 1)))
