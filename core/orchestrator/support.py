"""Does the evidence support the question? One measure for every route, and the gate before answering.

support = ½ × the share of the question's content terms the cited text contains
        + ½ × the calibrated cosine between the answer and the question.

An answer is given only when its support reaches the calibrated `support` threshold (fitted by
`threadwise eval calibrate`) and every name the question steers by (a company, a product, a
quarter) is mentioned by what it cites; otherwise the outcome is the uncertainty reply.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from core.calibration import Calibration
from core.text import key_terms, term_root, words

# Words that say how to answer or when, not what about: they are never "missing" from a source.
TOP_PASSAGES = 3
REQUEST_WORDS = frozenset(
    """
    current currently latest newest recent recently now today new old often
    list show find give display name names many much total sum average mean count number spend spent
    which what who whom whose when where how why does did do ever
    please tell explain describe summarise summarize
    """.split()  # noqa: SIM905 - a word list reads better as text
)


def content_terms(question: str) -> list[str]:
    """The words of a question that name its subject (key terms less request words and numbers)."""
    return [t for t in key_terms(question) if t not in REQUEST_WORDS and not t.replace(".", "").isdigit()]


def roots(word: str) -> set[str]:
    """A word's inflection-insensitive forms: "changed" → {"chang", "change"}."""
    root = term_root(word)
    return {root, root + "e"} if root != word.lower() and not root.endswith("e") else {root}


def found_terms(terms: Iterable[str], text: str) -> set[str]:
    """The terms `text` contains, matched inflection-insensitively."""
    known = {r for w in words(text) for r in roots(w)}
    return {t for t in terms if roots(t) & known}


def term_share(terms: list[str], text: str) -> float:
    """The share of `terms` that `text` contains (1.0 for no terms)."""
    if not terms:
        return 1.0
    return len(found_terms(terms, text)) / len(terms)


def support_score(share: float, calibrated_cosine: float) -> float:
    """The one support measure of an answer: lexical coverage and meaning, equally weighted."""
    return 0.5 * share + 0.5 * calibrated_cosine


def mentions(text: str, phrases: Iterable[str]) -> bool:
    """True when `text` contains one of `phrases` (case and spacing insensitive)."""
    flat = " ".join(text.lower().split())
    return any(phrase in flat for phrase in phrases)


def passages_support(question: str, passages: Sequence[str], best_cosine: float, calibration: Calibration) -> float:
    """The support measure of the top passages (title, section and text) before an answer exists."""
    if not passages:
        return 0.0
    share = term_share(content_terms(question), " ".join(passages[:TOP_PASSAGES]))
    return support_score(share, calibration.calibrated(best_cosine))
