"""Intake: normalise the message and extract planning signals, cheaply and deterministically.

Intake never retrieves and never answers (seed 003).
"""

from __future__ import annotations

import datetime as dt
import re

from core.contracts import IntakeResult, Intent, Signals
from core.orchestrator.conversation import match_command
from core.orchestrator.guardrails import check_injection, redact
from core.ports import QuantityReader
from core.text import key_terms, normalize_text, words
from core.understanding import constraints, date_hints, first_pronoun, full_years, is_date_word, written_dates

_TOP_K = re.compile(r"\btop\s+(\d{1,3})\b", re.IGNORECASE)
_LIST_ALL = re.compile(r"\b(list|show|give me)\s+(all|every)\b", re.IGNORECASE)
_QUOTED = re.compile(r"[\"“]([^\"”]{2,80})[\"”]")
_ACRONYM = re.compile(r"\b[A-Z][A-Z0-9&]{1,7}\b")
_GREETING = re.compile(r"^(hi|hello|hey|thanks|thank you|good (morning|afternoon|evening))\b[\s\W]*", re.I)
# What opens a question: a question word or an auxiliary ("hey, what was …", "thanks! is there …").
_QUESTION = re.compile(
    r"^(who|whom|whose|what|which|when|where|why|how|is|are|was|were|do|does|did|can|could|should|will|would)\b",
    re.I,
)
_HELP = re.compile(r"^(help|what can you do|how do i use you)\b", re.I)
_ENUMERATION = re.compile(r"\b(list|which|all|every|enumerate|how many)\b", re.I)
_COMPARISON = re.compile(r"\b(compare|versus|vs\.?|difference between)\b", re.I)
_NUMERIC = re.compile(
    r"\b(how (much|many|long|wide|tall|heavy)|what is the (width|height|weight|price|cost|length))\b", re.I
)


def run_intake(text: str, *, today: dt.date, quantities: QuantityReader, last_query: str | None = None) -> IntakeResult:
    """Understand one message: guardrails, redaction, intent, signals, dates, top-k, ambiguity.

    `today` anchors relative dates ("last year"); `quantities` reads numbers and units as the
    documents' are normalised.

    Raises `GuardrailsViolationError` for a prompt-injection attempt.
    """
    check_injection(text)
    redaction = redact(normalize_text(text))
    normalized = written_dates(full_years(redaction.text, today), today)
    coherence, reason = _coherence(normalized)
    hints = date_hints(normalized, today)
    signals = _signals(normalized, quantities)
    ambiguity, resolved = _pronouns(normalized, signals, last_query)
    if resolved != normalized:
        signals = _signals(resolved, quantities)  # the resolved subject is part of what is searched
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
    pronoun = first_pronoun(text)
    if not pronoun or signals.entities or signals.literals or signals.acronyms:
        return None, text
    content = [t for t in signals.key_terms if not t.isdigit()]
    if len(content) > 2:
        return None, text
    if last_query:
        return None, f"{text} ({subject_of(last_query)})"
    if _before(pronoun, text):
        return None, text
    return (
        f"What does “{pronoun}” refer to? Name the product, document or topic, "
        "for example “What is the width of the SunPeak 400?”."
    ), text


def _before(pronoun: str, text: str) -> bool:
    """True when a content word stands before the pronoun in the message: what it points back at.

    General case: a pronoun points back ("sept 2007 fomc - what did they do?": the FOMC), so one
    the message opens with ("what did they do?") points at something said before it."""
    match = re.search(rf"\b{re.escape(pronoun)}\b", text, re.IGNORECASE)
    ahead = text[: match.start()] if match else ""
    return any(t.isalpha() and not is_date_word(t) for t in key_terms(ahead))


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
    greeting = _GREETING.match(text)
    if greeting is not None:
        # A greeting that opens a question is a courtesy, not the message (general case: chat
        # messages start "hey," or "thanks!" and then ask).
        rest = text[greeting.end() :]
        if not (_QUESTION.match(rest) or rest.rstrip().endswith("?")):
            return "chit_chat"
        text = rest
    if _HELP.match(text):
        return "chit_chat"
    if _COMPARISON.search(text):
        return "comparison"
    if _NUMERIC.search(text):
        return "numeric_lookup"
    if _ENUMERATION.search(text):
        return "enumeration"
    return "conceptual"


def _signals(text: str, quantities: QuantityReader) -> Signals:
    tokens = words(text)
    entities = [w for i, w in enumerate(tokens) if i > 0 and w[:1].isupper() and not w.isupper()]
    numbers = constraints(text, quantities)
    return Signals(
        entities=list(dict.fromkeys(entities)),
        acronyms=list(dict.fromkeys(_ACRONYM.findall(text))),
        literals=_QUOTED.findall(text),
        numbers=numbers,
        key_terms=key_terms(text),
    )


def subject_of(question: str) -> str:
    """What an earlier question was about: its names and model numbers, else its key terms; never its
    dates, which name when ("may 2006 minutes - who chaired the new subcommittee?" is about the
    subcommittee: a follow-up's "it" keeps the period by other means, `followups`)."""
    tokens = [w for w in words(question) if not is_date_word(w)]
    named = [w for i, w in enumerate(tokens) if i > 0 and (w[:1].isupper() or any(c.isdigit() for c in w))]
    return " ".join(dict.fromkeys(named)) or " ".join(t for t in key_terms(question) if not is_date_word(t))


def _top_k(text: str) -> int:
    match = _TOP_K.search(text)
    if match:
        return max(1, min(50, int(match.group(1))))
    if _LIST_ALL.search(text):
        return 50
    return 10
