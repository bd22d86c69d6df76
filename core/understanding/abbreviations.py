"""Abbreviations the documents define, read at ingestion and spelled out in questions.

General case: a person asks with the short form ("IOER after the June 2018 hike?") where the
documents write the long one ("the interest on excess reserves rate was raised"); both the words a
search matches and the meaning an encoder reads are in the long form. Which abbreviation means what
is read from the documents themselves, where they define it: "interest on excess reserves (IOER)".
No list of abbreviations is written here.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable

from abbreviation_extractor import extract_abbreviation_definition_pairs

from core.text import STOPWORDS

MIN_CAPITALS = 2
"""A short form has at least two capitals ("IOER", "RRPs"): a person types those as abbreviations,
while a capitalised word ("On") is a word."""
MIN_DEFINITION_WORDS = 2
"""A definition spells out at least two words; one word ("EMEs" → "economies") is a mis-read pair."""


def defined_abbreviations(text: str) -> dict[str, str]:
    """The abbreviations `text` defines, each with its most frequent definition.

    Schwartz & Hearst's algorithm (2003): a parenthesised short form after a long form whose words
    spell its letters in order ("mortgage-backed securities (MBS)").
    """
    flat = " ".join(text.split())
    if "(" not in flat:
        return {}
    pairs = extract_abbreviation_definition_pairs(flat, most_common_definition=True, ignore_errors=True)
    return {
        p.abbreviation: " ".join(p.definition.split())
        for p in pairs
        if sum(ch.isupper() for ch in p.abbreviation) >= MIN_CAPITALS
        and len(p.definition.split()) >= MIN_DEFINITION_WORDS
    }


def most_used(per_document: Iterable[dict[str, str]]) -> dict[str, str]:
    """One definition per abbreviation across documents: the one most documents give (case aside),
    as most of them write it."""
    votes: dict[str, Counter[str]] = defaultdict(Counter)
    for defined in per_document:
        for short, long in defined.items():
            votes[short][long] += 1
    chosen: dict[str, str] = {}
    for short, counts in votes.items():
        folded: Counter[str] = Counter()
        for long, n in counts.items():
            folded[long.lower()] += n
        best = folded.most_common(1)[0][0]
        chosen[short] = max((long for long in counts if long.lower() == best), key=lambda long: counts[long])
    return chosen


def is_name(definition: str) -> bool:
    """A definition written as a proper name, every word capitalised but the small ones ("Office of
    Personnel Management"), as against a term ("interest on excess reserves")."""
    significant = [w for w in re.findall(r"[A-Za-z][\w'’-]*", definition) if w.lower() not in STOPWORDS]
    return bool(significant) and all(w[:1].isupper() for w in significant)


def spelled_out(question: str, abbreviations: dict[str, str]) -> str:
    """`question` with each abbreviation the documents define followed by its definition, in
    parentheses, unless the question already writes the definition."""
    if not abbreviations:
        return question
    lowered = " ".join(question.lower().split())
    done: set[str] = set()

    def expand(match: re.Match[str]) -> str:
        short = match.group(0)
        long = abbreviations.get(short)
        if long is None or short in done or long in lowered:
            return short
        done.add(short)
        return f"{short} ({long})"

    return _SHORT_FORM.sub(expand, question)


_SHORT_FORM = re.compile(r"(?<![\w-])[A-Za-z&]*[A-Z][A-Za-z&]*[A-Z][A-Za-z&]*(?![\w-])")
"""A token with two capitals or more, as the short forms are written ("IOER", "RRPs", "C&I")."""
