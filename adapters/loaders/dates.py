"""A document's date from what the document says: a reporting period, its title or name, its metadata.

Order (README "Documents"): front matter `date` → a reporting period stated in the opening text
("for the quarterly period ended June 30, 2023", "for the quarter ended 30 September 2025") or an
"as of …" in the title → the most precise date in the title or file name → the file's own metadata
(PDF and DOCX creation date) → no date. Never the file's modification time: a copied or
re-downloaded file would otherwise look new. Labels without a day stand for the period's last day:
`2023 Q3` → 2023-09-30 (calendar quarters), `H1 2024` → 2024-06-30, `2023-06` → 2023-06-30,
`FY2024` or a bare year → 2024-12-31 (the fiscal year's own end is not known from its name).
"""

from __future__ import annotations

import calendar
import datetime as dt
import re

import dateparser

from core.understanding import DATEPARSER_LOCK

OPENING_CHARS = 2000
"""How much of a document's opening text is searched for a reporting period."""

_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?"
_DAY = r"\d{1,2}(?:st|nd|rd|th)?"
_DATE_PHRASE = (
    rf"(?P<date>{_MONTH}\s+{_DAY},?\s+\d{{4}}|{_DAY}\s+(?:of\s+)?{_MONTH},?\s+\d{{4}}|{_MONTH},?\s+\d{{4}}"
    r"|\d{4}-\d{2}-\d{2}|\d{1,2}[./]\d{1,2}[./]\d{4})"
)
_PERIOD_WORDS = (
    r"(?:quarterly\s+period|(?:fiscal\s+|financial\s+)?(?:quarter|year|half[-\s]?year|period)"
    r"|[a-z0-9-]+\s+(?:months?|weeks?)(?:\s+period)?)"
)
_PERIOD = re.compile(rf"\b{_PERIOD_WORDS}\s+(?:ended|ending)\s*:?\s*{_DATE_PHRASE}(?![\d])", re.IGNORECASE)
_AS_OF = re.compile(rf"\bas\s+(?:of|at)\s+{_DATE_PHRASE}(?![\d])", re.IGNORECASE)

_ISO = re.compile(r"(?<!\d)(\d{4})[-_.](\d{2})[-_.](\d{2})(?!\d)")
_YEAR = r"((?:19|20)\d{2})"
_YEAR_MONTH = re.compile(rf"(?<!\d){_YEAR}[-_.](0[1-9]|1[0-2])(?![\d])")
_FISCAL_OR_BARE_YEAR = re.compile(rf"(?<![a-z\d])(?:fy[\s_-]?)?{_YEAR}(?![a-z\d])", re.I)


def _numbered_period(letter: str, numbers: str) -> re.Pattern[str]:
    """`2023 Q3`, `2023-q3`, `Q3 2023`, `Q3 FY2023` (letter "q"); `H1 2024` (letter "h")."""
    before = rf"(?<![a-z\d]){_YEAR}[\s_-]*{letter}([{numbers}])(?![a-z\d])"
    after = rf"(?<![a-z\d]){letter}([{numbers}])[\s_-]*(?:fy)?{_YEAR}(?!\d)"
    return re.compile(f"{before}|{after}", re.IGNORECASE)


_PERIODS_OF_YEAR = ((_numbered_period("q", "1-4"), 3), (_numbered_period("h", "12"), 6))
_ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4}
_PERIOD_IN_WORDS = re.compile(
    rf"\b(first|second|third|fourth)[\s-]+(quarter|half)(?:[\s-]+(?:of|fiscal|year))*[\s-]+{_YEAR}(?!\d)", re.I
)
_PDF_DATE = re.compile(r"^(?:D:)?(\d{4})(\d{2})?(\d{2})?")

# dateparser is not thread-safe (scrapinghub/dateparser#441); loaders run on the executor's
# threads while questions are read on the event loop: one lock for the process, the core's.
_SETTINGS = {"PREFER_DAY_OF_MONTH": "last", "REQUIRE_PARTS": ["month", "year"], "RETURN_AS_TIMEZONE_AWARE": False}


def _month_end(year: int, month: int) -> dt.date:
    return dt.date(year, month, calendar.monthrange(year, month)[1])


def parse_phrase(phrase: str) -> dt.date | None:
    """A date phrase ("June 30, 2023", "30 September 2025", "Sept. 2025") read by dateparser."""
    with DATEPARSER_LOCK:
        parsed = dateparser.parse(" ".join(phrase.split()), languages=["en"], settings=_SETTINGS)
    return parsed.date() if parsed else None


def period_date(opening: str, title: str = "") -> dt.date | None:
    """The end of the reporting period the opening text states, or an "as of …" date in the title."""
    text = " ".join(opening[:OPENING_CHARS].split())
    for found in (_PERIOD.search(text), _AS_OF.search(" ".join(title.split()))):
        if found and (date := parse_phrase(found.group("date"))):
            return date
    return None


def _day(label: str) -> dt.date | None:
    match = _ISO.search(label)
    try:
        return dt.date(int(match[1]), int(match[2]), int(match[3])) if match else None
    except ValueError:
        return None


def _month(label: str) -> dt.date | None:
    match = _YEAR_MONTH.search(label)
    return _month_end(int(match[1]), int(match[2])) if match else None


def _quarter_or_half(label: str) -> dt.date | None:
    for pattern, months in _PERIODS_OF_YEAR:
        if match := pattern.search(label):
            year, number = (match[1], match[2]) if match[1] else (match[4], match[3])
            return _month_end(int(year), months * int(number))
    match = _PERIOD_IN_WORDS.search(label)  # "Third quarter 2023", "first half of fiscal 2024"
    if match and (match[2].lower() == "quarter" or _ORDINALS[match[1].lower()] <= 2):
        months = 3 if match[2].lower() == "quarter" else 6
        return _month_end(int(match[3]), months * _ORDINALS[match[1].lower()])
    return None


def _year(label: str) -> dt.date | None:
    match = _FISCAL_OR_BARE_YEAR.search(label)
    return dt.date(int(match[1]), 12, 31) if match else None


def label_date(*labels: str) -> dt.date | None:
    """The most precise date the labels (a title, a file name) carry, the first label winning ties.

    `2023-06-30` before `2023-06` before `2023 Q3`, `Q3-2023`, `H1 2024` before `FY2024` or a bare
    year: "Canteen notice 2025" in a file named `2025-03-01-canteen.md` is dated 2025-03-01.
    """
    for read in (_day, _month, _quarter_or_half, _year):
        for label in labels:
            if date := read(label):
                return date
    return None


def pdf_date(value: object) -> dt.date | None:
    """A PDF date string (`D:20230815093000+02'00'`) as a date; None when it is not one."""
    match = _PDF_DATE.match(value.strip()) if isinstance(value, str) else None
    if not match:
        return None
    try:
        return dt.date(int(match[1]), int(match[2] or 1), int(match[3] or 1))
    except ValueError:
        return None
