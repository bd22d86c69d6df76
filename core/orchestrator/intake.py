"""Intake: normalise the message and extract planning signals, cheaply and deterministically.

Intake never retrieves and never answers (seed 003).
"""

from __future__ import annotations

import datetime as dt
import re

from core.contracts import IntakeResult, Intent, NumericConstraint, Signals
from core.text import key_terms, normalize_text, words

_YEAR = re.compile(r"\b(19[5-9]\d|20\d{2})\b")
_TOP_K = re.compile(r"\btop\s+(\d{1,3})\b", re.IGNORECASE)
_LIST_ALL = re.compile(r"\b(list|show|give me)\s+(all|every)\b", re.IGNORECASE)
_QUOTED = re.compile(r"[\"“]([^\"”]{2,80})[\"”]")
_ACRONYM = re.compile(r"\b[A-Z][A-Z0-9&]{1,7}\b")
_NUMBER = re.compile(
    r"(?P<op><=|>=|<|>|=|at most|at least|under|over|below|above)?\s*"
    r"(?P<value>\d+(?:[.,]\d+)?)\s*(?P<unit>mm|cm|m|in|kg|g|lb|kw|w|usd|eur|\$|€|%)?\b",
    re.IGNORECASE,
)
_OPERATORS = {
    "at most": "<=",
    "under": "<",
    "below": "<",
    "at least": ">=",
    "over": ">",
    "above": ">",
}
_GREETING = re.compile(r"^(hi|hello|hey|thanks|thank you|good (morning|afternoon|evening))\b", re.I)
_HELP = re.compile(r"^(help|what can you do|how do i use you)\b", re.I)
_COMMAND = re.compile(r"^(show the rest|more|export( that table)?|new topic)[.!]?$", re.I)
_ENUMERATION = re.compile(r"\b(list|which|all|every|enumerate|how many)\b", re.I)
_COMPARISON = re.compile(r"\b(compare|versus|vs\.?|difference between)\b", re.I)
_NUMERIC = re.compile(
    r"\b(how (much|many|long|wide|tall|heavy)|what is the (width|height|weight|price|cost|length))\b", re.I
)


def run_intake(text: str) -> IntakeResult:
    """Understand one message: normalised text, intent, signals, dates and top-k."""
    normalized = normalize_text(text)
    coherence, reason = _coherence(normalized)
    years = sorted({int(y) for y in _YEAR.findall(normalized)})
    return IntakeResult(
        original_query=text,
        normalized_query=normalized,
        intent=_intent(normalized),
        signals=_signals(normalized),
        coherence=coherence,
        coherence_reason=reason,
        year_mode="explicit" if years else "none",
        requested_years=years,
        date_start=dt.date(years[0], 1, 1) if years else None,
        date_end=dt.date(years[-1], 12, 31) if years else None,
        top_k=_top_k(normalized),
    )


def _coherence(text: str) -> tuple[str, str | None]:
    letters = sum(ch.isalpha() for ch in text)
    if not text or not any(len(w) >= 2 and w.isalpha() for w in words(text)):
        return "incoherent", "no words to search for"
    if letters / max(1, len(text.replace(" ", ""))) < 0.4:
        return "incoherent", "mostly symbols, not a question"
    return "coherent", None


def _intent(text: str) -> Intent:
    if _COMMAND.match(text):
        return "command"
    if _GREETING.match(text) or _HELP.match(text):
        return "chit_chat"
    if _COMPARISON.search(text):
        return "comparison"
    if _NUMERIC.search(text):
        return "numeric_lookup"
    if _ENUMERATION.search(text):
        return "enumeration"
    return "conceptual"


def _signals(text: str) -> Signals:
    tokens = words(text)
    entities = [w for i, w in enumerate(tokens) if i > 0 and w[:1].isupper() and not w.isupper()]
    numbers = [
        NumericConstraint(
            operator=_OPERATORS.get((m.group("op") or "=").lower(), m.group("op") or "="),
            value=float(m.group("value").replace(",", ".")),
            unit=(m.group("unit") or None),
            text=m.group(0).strip(),
        )
        for m in _NUMBER.finditer(text)
        if not _YEAR.fullmatch(m.group("value"))
    ]
    return Signals(
        entities=list(dict.fromkeys(entities)),
        acronyms=list(dict.fromkeys(_ACRONYM.findall(text))),
        literals=_QUOTED.findall(text),
        numbers=numbers,
        key_terms=key_terms(text),
    )


def _top_k(text: str) -> int:
    match = _TOP_K.search(text)
    if match:
        return max(1, min(50, int(match.group(1))))
    if _LIST_ALL.search(text):
        return 50
    return 10
