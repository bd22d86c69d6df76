"""Intake: normalise the message and extract planning signals, cheaply and deterministically.

Intake never retrieves and never answers (seed 003).
"""

from __future__ import annotations

import datetime as dt
import re

from core.contracts import IntakeResult, Intent, NumericConstraint, Signals
from core.orchestrator.conversation import match_command
from core.orchestrator.dates import date_hints
from core.orchestrator.guardrails import check_injection, redact
from core.text import STOPWORDS, key_terms, normalize_text, words

_YEAR = re.compile(r"\b(19[5-9]\d|20\d{2})\b")
_TOP_K = re.compile(r"\btop\s+(\d{1,3})\b", re.IGNORECASE)
_LIST_ALL = re.compile(r"\b(list|show|give me)\s+(all|every)\b", re.IGNORECASE)
_QUOTED = re.compile(r"[\"“]([^\"”]{2,80})[\"”]")
_ACRONYM = re.compile(r"\b[A-Z][A-Z0-9&]{1,7}\b")
_COMPARATIVES = {
    "lighter than": ("weight", "<"),
    "heavier than": ("weight", ">"),
    "narrower than": ("width", "<"),
    "wider than": ("width", ">"),
    "shorter than": ("height", "<"),
    "taller than": ("height", ">"),
    "cheaper than": ("price", "<"),
    "more expensive than": ("price", ">"),
}
_OPERATORS = {
    "at most": "<=",
    "under": "<",
    "below": "<",
    "less than": "<",
    "at least": ">=",
    "over": ">",
    "above": ">",
    "more than": ">",
    "greater than": ">",
    "up to": "<=",
}
_OPERATOR_WORDS = "|".join(sorted([*_COMPARATIVES, *_OPERATORS], key=len, reverse=True))
_NUMBER = re.compile(
    rf"(?:(?P<label>[a-z]+)\s+)?(?P<op><=|>=|<|>|=|{_OPERATOR_WORDS})?\s*"
    r"(?P<value>\d+(?:[.,]\d+)?)\s*(?P<unit>mm|cm|m|in|kg|g|lb|kw|w|usd|eur|\$|€|%)?(?![\w.])",
    re.IGNORECASE,
)
_VERB_LABELS = {"weigh": "weight", "weighs": "weight", "cost": "price", "costs": "price", "priced": "price"}
UNIT_LABELS = {
    "kg": "weight",
    "g": "weight",
    "lb": "weight",
    "w": "power",
    "kw": "power",
    "eur": "total",
    "usd": "total",
    "$": "total",
    "€": "total",
}
_PRONOUN = re.compile(r"\b(it|its|they|them|their|those|these|that one|this one)\b", re.IGNORECASE)
_GREETING = re.compile(r"^(hi|hello|hey|thanks|thank you|good (morning|afternoon|evening))\b", re.I)
_HELP = re.compile(r"^(help|what can you do|how do i use you)\b", re.I)
_ENUMERATION = re.compile(r"\b(list|which|all|every|enumerate|how many)\b", re.I)
_COMPARISON = re.compile(r"\b(compare|versus|vs\.?|difference between)\b", re.I)
_NUMERIC = re.compile(
    r"\b(how (much|many|long|wide|tall|heavy)|what is the (width|height|weight|price|cost|length))\b", re.I
)


def run_intake(text: str, *, today: dt.date, last_query: str | None = None) -> IntakeResult:
    """Understand one message: guardrails, redaction, intent, signals, dates, top-k, ambiguity.

    Raises `GuardrailsViolationError` for a prompt-injection attempt.
    """
    check_injection(text)
    redaction = redact(normalize_text(text))
    normalized = redaction.text
    coherence, reason = _coherence(normalized)
    hints = date_hints(normalized, today)
    signals = _signals(normalized)
    ambiguity, resolved = _pronouns(normalized, signals, last_query)
    if resolved != normalized:
        signals = _signals(resolved)  # the resolved subject is part of what is searched
    return IntakeResult(
        original_query=redact(text).text,
        normalized_query=resolved,
        intent=_intent(normalized),
        signals=signals,
        coherence=coherence,
        coherence_reason=reason,
        year_mode="explicit" if hints.year_mode == "explicit" else "none",
        requested_years=hints.requested_years,
        date_start=hints.date_start,
        date_end=hints.date_end,
        recent_year_window=hints.recent_year_window,
        top_k=_top_k(normalized),
        pii_found=redaction.found,
        blocking_ambiguity=ambiguity,
    )


def _pronouns(text: str, signals: Signals, last_query: str | None) -> tuple[str | None, str]:
    """A pronoun with nothing to point at blocks; with history it points at the last question."""
    match = _PRONOUN.search(text)
    if not match or signals.entities or signals.literals or signals.acronyms:
        return None, text
    content = [t for t in signals.key_terms if not t.isdigit()]
    if len(content) > 2:
        return None, text
    if last_query:
        return None, f"{text} ({subject_of(last_query)})"
    return (
        f"What does “{match.group(0)}” refer to? Name the product, document or topic, "
        "for example “What is the width of the SunPeak 400?”."
    ), text


def _coherence(text: str) -> tuple[str, str | None]:
    letters = sum(ch.isalpha() for ch in text)
    if not text or not any(len(w) >= 2 and w.isalpha() for w in words(text)):
        return "incoherent", "no words to search for"
    if letters / max(1, len(text.replace(" ", ""))) < 0.4:
        return "incoherent", "mostly symbols, not a question"
    return "coherent", None


def _intent(text: str) -> Intent:
    if match_command(text):
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
    # A bare number ("SunPeak 400", "2024") is a name or a year, not a constraint.
    numbers = [
        _constraint(m) for m in _NUMBER.finditer(text) if (m.group("op") or m.group("unit")) and not _is_year_or_id(m)
    ]
    return Signals(
        entities=list(dict.fromkeys(entities)),
        acronyms=list(dict.fromkeys(_ACRONYM.findall(text))),
        literals=_QUOTED.findall(text),
        numbers=numbers,
        key_terms=key_terms(text),
    )


def subject_of(question: str) -> str:
    """What an earlier question was about: its names and model numbers, else its key terms."""
    tokens = words(question)
    named = [w for i, w in enumerate(tokens) if i > 0 and (w[:1].isupper() or any(c.isdigit() for c in w))]
    return " ".join(dict.fromkeys(named)) or " ".join(key_terms(question))


def _is_year_or_id(match: re.Match[str]) -> bool:
    value = match.group("value")
    return bool(re.fullmatch(r"(19[5-9]\d|20\d{2})", value)) and not match.group("unit")


def _constraint(match: re.Match[str]) -> NumericConstraint:
    """A number with its unit, comparison and the label it constrains ("lighter than 25 kg")."""
    word = (match.group("label") or "").lower()
    op_text = (match.group("op") or "=").lower()
    label, operator = None, _OPERATORS.get(op_text, op_text)
    if op_text in _COMPARATIVES:
        label, operator = _COMPARATIVES[op_text]
    elif word and word not in STOPWORDS:
        label = _VERB_LABELS.get(word, word)
    unit = match.group("unit")
    if label is None and unit:
        label = UNIT_LABELS.get(unit.lower())
    return NumericConstraint(
        label=label,
        operator=operator if operator in ("<", "<=", "=", ">=", ">") else "=",
        value=float(match.group("value").replace(",", ".")),
        unit=unit,
        text=match.group(0).strip(),
    )


def _top_k(text: str) -> int:
    match = _TOP_K.search(text)
    if match:
        return max(1, min(50, int(match.group(1))))
    if _LIST_ALL.search(text):
        return 50
    return 10
