"""Small text helpers shared by intake, segmentation, synthesis and reflection."""

from __future__ import annotations

import re
import unicodedata

import Stemmer
from nupunkt import sent_tokenize

_WORD = re.compile(r"[^\W_]+(?:[-'][^\W_]+)*", re.UNICODE)
_SPACES = re.compile(r"[ \t\u00a0]+")
# Capitalised words in a row, with the small words names keep ("Board of Governors").
_NAME_RUN = re.compile(r"\b[A-Z][a-z]+(?:\s+(?:(?:of|and|for|the)\s+)?[A-Z][a-z]+)+")

# Function words that carry no topic; kept short on purpose (key terms, not BM25).
STOPWORDS = frozenset(
    """
    a about above after again all also am an and any are as at be because been before being
    below between both but by can could did do does doing down during each few for from further
    had has have having he her here hers him his how i if in into is it its itself just me more
    most my no nor not now of off on once only or other our ours out over own please same she
    should so some such than that the their theirs them then there these they this those through
    to too under until up very was we were what when where which while who whom why will with
    would you your yours tell show give find know list get let want need say says said does
    anything something everything thing things much many
    """.split()  # noqa: SIM905 - a word list reads better as text
)


def normalize_text(text: str) -> str:
    """NFKC-normalise, unify whitespace and strip control characters."""
    text = unicodedata.normalize("NFKC", text)
    text = "".join(ch for ch in text if ch in "\n\t" or unicodedata.category(ch)[0] != "C")
    lines = [_SPACES.sub(" ", line).strip() for line in text.splitlines()]
    return "\n".join(line for line in lines if line)


def words(text: str) -> list[str]:
    """The words of a text, in order, as written."""
    return _WORD.findall(text)


def term_root(word: str) -> str:
    """A crude inflection-insensitive form of a word, for matching key terms in cited text."""
    w = word.lower()
    for suffix in ("ies", "ing", "ed", "es", "s"):
        if len(w) > len(suffix) + 3 and w.endswith(suffix):
            return w[: -len(suffix)] + ("y" if suffix == "ies" else "")
    return w


def stems(tokens: list[str]) -> list[str]:
    """Snowball (Porter 2) stems, lower-cased: "dissenters" and "dissented" are both "dissent"."""
    return list(Stemmer.Stemmer("english").stemWords([t.lower() for t in tokens]))


def initials(text: str) -> set[str]:
    """The acronyms a text's capitalised names spell ("Federal Open Market Committee" → "fomc", "omc", …)."""
    found: set[str] = set()
    for run in _NAME_RUN.findall(text):
        letters = [w[0].lower() for w in run.split() if w[:1].isupper()]
        found.update("".join(letters[i:j]) for i in range(len(letters)) for j in range(i + 2, len(letters) + 1))
    return found


def key_terms(text: str) -> list[str]:
    """Content words of a question, lower-cased and de-duplicated, in order."""
    seen: dict[str, None] = {}
    for word in words(text):
        lowered = word.lower()
        if lowered in STOPWORDS or (len(lowered) < 3 and not lowered.isdigit()):
            continue
        seen.setdefault(lowered, None)
    return list(seen)


_UNIT_START = re.compile(r"^\s*([-*•+|#>]|\d+[.)]\s)")


def split_sentences(text: str) -> list[str]:
    """Split prose into sentences.

    Hard-wrapped lines of a paragraph are joined first; list items, table rows and headings
    stay units of their own. Sentence boundaries come from nupunkt's Punkt model, which knows
    abbreviations and initials ("Mr. Poole", "Thomas M. Hoenig", "e.g.") from its training.
    """
    units: list[str] = []
    for line in text.splitlines():
        if not line.strip():
            units.append("")
        elif units and units[-1] and not _UNIT_START.match(line) and not _UNIT_START.match(units[-1]):
            units[-1] = f"{units[-1]} {line.strip()}"
        else:
            units.append(line.strip())
    sentences: list[str] = []
    for unit in units:
        unit = unit.lstrip("-*•+").strip()
        if unit:
            sentences.extend(part.strip() for part in sent_tokenize(unit) if isinstance(part, str) and part.strip())
    return sentences


def snippet(text: str, limit: int = 160) -> str:
    """A one-line excerpt of at most `limit` characters, cut at a word boundary."""
    flat = " ".join(text.split())
    if len(flat) <= limit:
        return flat
    cut = flat[: limit - 1].rsplit(" ", 1)[0]
    return cut + "…"


def normalize_label(label: str) -> str:
    """`unit_price_eur` and `Unit price (EUR)` compare equal."""
    return " ".join(label.lower().replace("_", " ").replace("(", " ").replace(")", " ").split())
