"""Shares: whether a question asks for a percentage or a proportion, and whether a text states one."""

from __future__ import annotations

import re

from text_to_num import alpha2digit

from core.understanding.numerals import NUMBER

# "What percentage of …", "what share of …", "by what percent …", "which proportion of …", "what % of …".
_SHARE_ASK = re.compile(
    r"\b(?:what|which)\s+(?:[\w'’-]+\s+){0,3}?(?:(?:percentage|percent|(?:share|proportion|fraction)\s+of)\b|%)"
    r"|\bin\s+(?:percent|per\s+cent|percentage\s+terms)\b(?=\s*[?,.;]|\s*$)", re.I
)  # fmt: skip
_SHARE = re.compile(
    rf"{NUMBER.pattern}\s*(?:%|percent\b|per\s+cent\b|percentage\s+points?\b)"
    rf"|{NUMBER.pattern}\s+(?:out\s+)?of\s+(?:the\s+|all\s+)?(?:[^\W\d_]+\s+)?{NUMBER.pattern}"
    r"|\b(?:\d+|one)\s+in\s+(?:every\s+)?\d+\b|\bmajority\b"
    # "half of the members", "two-thirds", "a quarter of banks" (alpha2digit writes "a third" as "a 3rd"):
    # not a half or a quarter of a year ("the first half of 2015", "the second quarter"), nor a step
    # ("a quarter-point cut").
    r"|\b(?<!first\s)(?<!second\s)(?<!1st\s)(?<!2nd\s)(?:half|halves)\b(?![\s-]*points?\b)"
    r"|\b(?:a|an|one|two|three|four|five|six|seven|eight|nine|\d+)[\s-]+(?:thirds?|3rds?|quarters?|fifths?|5ths?|tenths?|10ths?)\b"
    r"(?![\s-]*points?\b)(?!\s+of\s+(?:the\s+)?(?:fiscal\s+)?(?:year\s+)?\d{4})"
    # "one fourth of costs", "three-eighths": a fourth, sixth or eighth is a share after a count, not
    # after "a" or "the", where it is a place in an order ("a fourth straight month", "the fourth quarter").
    r"|\b(?:one|two|three|five|seven|\d+)[\s-]+(?:fourths?|4ths?|sixths?|6ths?|eighths?|8ths?)\b(?![\s-]*(?:points?|quarter)\b)",
    re.I,
)


def asks_share(question: str) -> bool:
    """True when a question asks for a percentage or a share ("what percent of claims …", "what share
    of leases …", the unit after its noun: "what were the new bands, in percent?", as "… in dollars"
    asks for money), not just for some figure."""
    return _SHARE_ASK.search(question) is not None


def states_share(text: str) -> bool:
    """True when `text` states a share: a percent figure ("57.3%", "sixty-eight percent", "23
    percentage points"), a part of a whole ("8 out of 25", "ten of the eleven", "1 in 5") or a
    fraction word ("half", "two-thirds").

    General case: the answer to "what share of X" is a proportion; a passage about X that gives a
    count, a date or a measure number ("Performance Measure 2.2.2") and no proportion answers
    something else."""
    return _SHARE.search(alpha2digit(text, "en")) is not None
