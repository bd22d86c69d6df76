"""The pronoun rule: words that point at something said before ("its width", "compare those")."""

from __future__ import annotations

import re

_PRONOUN = re.compile(r"\b(?:(?P<many>they|them|their|those|these)|(?P<one>it|its|that one|this one))\b", re.IGNORECASE)


def first_pronoun(text: str) -> str | None:
    """The first pronoun in `text` as written, or None."""
    match = _PRONOUN.search(text)
    return match.group(0) if match else None


def points_at_many(text: str) -> bool:
    """True when `text` points at several things said before ("those", "them"): the last sources."""
    return any(match.group("many") for match in _PRONOUN.finditer(text))
