"""Guardrails at intake: prompt-injection phrases refused, personal data redacted (SPEC section 3)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from core.errors import GuardrailsViolationError

SAFE_REPLY = (
    "I can only answer questions about your organisation's documents, and I can't change how I work "
    "or reveal my instructions. Please ask your question directly."
)
_INJECTION = re.compile(
    r"\b(ignore|disregard|forget|override)\b.{0,40}\b(previous|prior|above|earlier|all|your)\b.{0,20}"
    r"\b(instructions?|rules?|prompts?|directions?)\b"
    r"|\b(reveal|show|print|repeat|leak)\b.{0,30}\b(system prompt|your (instructions|prompt|rules))\b"
    r"|\byou are now\b|\bact as (an? )?(unrestricted|jailbroken|dan)\b|\bjailbreak\b|\bdeveloper mode\b"
    r"|\bsystem prompt\b",
    re.IGNORECASE | re.DOTALL,
)
_CARD = re.compile(r"\b\d(?:[ -]?\d){12,18}\b")
_IBAN = re.compile(r"\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){3,7}(?: ?[A-Z0-9]{1,3})?\b")
_SSN = re.compile(r"\b\d{3}-\d{2}-\d{4}\b")
_EMAIL = re.compile(r"\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b")


@dataclass(frozen=True)
class Redaction:
    """Text with personal data replaced, and the kinds that were found."""

    text: str
    found: list[str]


def _luhn(digits: str) -> bool:
    total = 0
    for i, char in enumerate(reversed(digits)):
        value = int(char)
        if i % 2:
            value = value * 2 - 9 if value > 4 else value * 2
        total += value
    return total % 10 == 0


# What `redact` leaves in place of what it removed: no word of the question.
REDACTION_MARK = re.compile(r"\[REDACTED [A-Z]+\]")


def redact(text: str) -> Redaction:
    """Replace card numbers (Luhn-valid), IBANs, US social security numbers and e-mail addresses."""
    found: list[str] = []

    def card(match: re.Match[str]) -> str:
        digits = re.sub(r"\D", "", match.group(0))
        if 13 <= len(digits) <= 19 and _luhn(digits):
            found.append("card_number")
            return "[REDACTED CARD]"
        return match.group(0)

    text = _CARD.sub(card, text)
    for pattern, kind, mask in (
        (_IBAN, "iban", "[REDACTED IBAN]"),
        (_SSN, "national_id", "[REDACTED ID]"),
        (_EMAIL, "email", "[REDACTED EMAIL]"),
    ):
        text, count = pattern.subn(mask, text)
        found.extend([kind] * count)
    return Redaction(text=text, found=sorted(set(found)))


def check_injection(text: str) -> None:
    """Raise `GuardrailsViolationError` for an attempt to change the bot's instructions."""
    match = _INJECTION.search(text)
    if match:
        raise GuardrailsViolationError(
            stage="intake", reason=f"prompt injection: “{match.group(0)[:60]}”", safe_reply=SAFE_REPLY
        )
