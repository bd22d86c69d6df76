"""The language of questions, in one place: years, quarters, months, date hints, quantities, pronouns.

Dates are read by dateparser against the injected clock; quantities by the `QuantityReader`
port, the same normaliser the documents' quantities go through. Every other module of the core
asks here rather than keeping its own pattern.
"""

from core.understanding.answers import AnswerKind, answer_kind, holds, measure_words, question_parts
from core.understanding.dates import (
    DATEPARSER_LOCK,
    DateHints,
    Period,
    date_hints,
    full_years,
    read_date,
    read_period,
    written_dates,
)
from core.understanding.periods import (
    DATE_PHRASE,
    MONTHS,
    YEAR,
    is_date_word,
    is_year,
    quarter_just_past,
    quarter_mentions,
    quarter_of,
    quarter_window,
    years,
)
from core.understanding.periods import quarters as _quarters
from core.understanding.pronouns import first_pronoun, points_at_many
from core.understanding.quantities import COMPARATIVES, OPERATORS, constraints, usual_field


def quarters(question: str) -> list[tuple[int, int]]:
    """The quarters a question names ("Q3 2025", "2025-Q3", "third quarter of 2025",
    "the quarter ended 30 June 2025") as (quarter, year), in order."""
    return _quarters(question, read_date)


__all__ = [
    "COMPARATIVES",
    "DATEPARSER_LOCK",
    "DATE_PHRASE",
    "MONTHS",
    "OPERATORS",
    "YEAR",
    "AnswerKind",
    "DateHints",
    "Period",
    "answer_kind",
    "constraints",
    "date_hints",
    "first_pronoun",
    "full_years",
    "holds",
    "is_date_word",
    "is_year",
    "measure_words",
    "points_at_many",
    "quarter_just_past",
    "quarter_mentions",
    "quarter_of",
    "quarter_window",
    "quarters",
    "question_parts",
    "read_date",
    "read_period",
    "usual_field",
    "written_dates",
    "years",
]
