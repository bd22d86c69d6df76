"""Date hints in questions, resolved against the injected clock (SPEC section 3)."""

from __future__ import annotations

import calendar
import datetime as dt
import re
from dataclasses import dataclass, field

_MONTHS = {name.lower(): i for i, name in enumerate(calendar.month_name) if name}
_MONTHS.update({name.lower(): i for i, name in enumerate(calendar.month_abbr) if name})
_MONTH = "|".join(sorted(_MONTHS, key=len, reverse=True))
_YEAR = r"(19[5-9]\d|20\d{2})"
_QUARTER = re.compile(rf"\bQ([1-4])\s*{_YEAR}\b", re.IGNORECASE)
_SINCE = re.compile(rf"\b(since|after)\s+(?:({_MONTH})\s+)?{_YEAR}\b", re.IGNORECASE)
_BEFORE = re.compile(rf"\b(before|until|up to)\s+(?:({_MONTH})\s+)?{_YEAR}\b", re.IGNORECASE)
_BETWEEN = re.compile(rf"\b(?:between|from)\s+{_YEAR}\s+(?:and|to|until|through)\s+{_YEAR}\b", re.IGNORECASE)
_MONTH_YEAR = re.compile(rf"\b({_MONTH})\s+{_YEAR}\b", re.IGNORECASE)
_YEARS = re.compile(rf"\b{_YEAR}\b")
_RELATIVE = re.compile(
    r"\b(last|this|previous|past)\s+(year|quarter|month)\b|\b(recent|recently|latest|newest|current|currently|now)\b",
    re.I,
)


@dataclass
class DateHints:
    """What a question says about dates."""

    year_mode: str = "none"
    requested_years: list[int] = field(default_factory=list)
    date_start: dt.date | None = None
    date_end: dt.date | None = None
    recent_year_window: int | None = None


def _month_start(year: int, month: int) -> dt.date:
    return dt.date(year, month, 1)


def _month_end(year: int, month: int) -> dt.date:
    return dt.date(year, month, calendar.monthrange(year, month)[1])


def date_hints(text: str, today: dt.date) -> DateHints:
    """Explicit years, quarters, months, ranges and relative dates → a date window."""
    hints = DateHints()
    if match := _BETWEEN.search(text):
        first, last = sorted((int(match.group(1)), int(match.group(2))))
        return _window(hints, dt.date(first, 1, 1), dt.date(last, 12, 31), list(range(first, last + 1)))
    if match := _QUARTER.search(text):
        quarter, year = int(match.group(1)), int(match.group(2))
        return _window(hints, _month_start(year, 3 * quarter - 2), _month_end(year, 3 * quarter), [year])
    if match := _SINCE.search(text):
        year, month = int(match.group(3)), _MONTHS.get((match.group(2) or "").lower(), 1)
        years = list(range(year, today.year + 1))
        return _window(hints, _month_start(year, month), None, years)
    if match := _BEFORE.search(text):
        year, month = int(match.group(3)), _MONTHS.get((match.group(2) or "").lower(), 1)
        return _window(hints, None, _month_start(year, month) - dt.timedelta(days=1), [])
    if match := _MONTH_YEAR.search(text):
        month, year = _MONTHS[match.group(1).lower()], int(match.group(2))
        return _window(hints, _month_start(year, month), _month_end(year, month), [year])
    years = sorted({int(y) for y in _YEARS.findall(text)})
    if years:
        return _window(hints, dt.date(years[0], 1, 1), dt.date(years[-1], 12, 31), years)
    if match := _RELATIVE.search(text):
        return _relative(hints, match, today)
    return hints


def _window(hints: DateHints, start: dt.date | None, end: dt.date | None, years: list[int]) -> DateHints:
    hints.year_mode = "explicit"
    hints.date_start, hints.date_end, hints.requested_years = start, end, years
    return hints


def _relative(hints: DateHints, match: re.Match[str], today: dt.date) -> DateHints:
    if match.group(3):  # "recent", "latest": prefer new documents, filter nothing
        hints.recent_year_window = 1
        return hints
    which, unit = match.group(1).lower(), match.group(2).lower()
    if unit == "year":
        year = today.year if which == "this" else today.year - 1
        return _window(hints, dt.date(year, 1, 1), dt.date(year, 12, 31), [year])
    if unit == "quarter":
        quarter, year = (today.month - 1) // 3 + 1, today.year
        if which != "this":
            quarter, year = (quarter - 1, year) if quarter > 1 else (4, year - 1)
        return _window(hints, _month_start(year, 3 * quarter - 2), _month_end(year, 3 * quarter), [year])
    month, year = (
        (today.month, today.year)
        if which == "this"
        else ((today.month - 1, today.year) if today.month > 1 else (12, today.year - 1))
    )
    return _window(hints, _month_start(year, month), _month_end(year, month), [year])
