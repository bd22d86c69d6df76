"""Every user-facing text the core writes, in one place for review and translation."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from core.contracts import Evidence, RetrievalRound

HELP = (
    "I answer questions from your organisation's documents, with numbered sources. "
    "Ask me something like “What is the parental leave policy?”. "
    "In a thread you can also say “show the rest”, “export” or “new topic”."
)
GREETING = "Hello! " + HELP
INCOHERENT = (
    "Sorry, I couldn't make out a question in that message. "
    "Could you rephrase it in a sentence, for example “What is our travel policy?”"
)
COMMAND_UNAVAILABLE = "There is no earlier result in this conversation to {command} yet."
NEW_TOPIC = "Okay — new topic. What would you like to know?"
PAGE = "Rows {first}–{last} of {total}."
LAST_PAGE = "That is the last page."
NO_MORE_ROWS = "There are no more rows; that was everything."
EXPORTED = "The full table ({total} rows) is exported as CSV: {where}"
EXPORT_UNAVAILABLE = "Export is not available here."
CHANNEL_NOT_SET_UP = (
    "This channel is not set up for Threadwise yet, so I can't answer here. "
    "A Threadwise admin can connect it to a document collection with "
    "`threadwise channels set <channel key> <collection>`."
)
INTERNAL_ERROR = "Sorry, something went wrong while answering. The team can trace it with reference {reference}."
SEARCH_UNAVAILABLE = (
    "I can't reach the document search right now, so I can't answer this yet. Please ask again in a few "
    "minutes (reference {reference})."
)
CHANNEL_MISMATCH = (
    "The documents this channel can read don't answer this, but documents this channel can't read "
    "might. I can't show those here; ask in a channel that has access, or ask an admin."
)


def uncertainty(
    queries: list[str],
    best: list[Evidence],
    searched_rounds: list[RetrievalRound],
    *,
    closest: tuple[str, str] | None = None,
    missing: Sequence[str] = (),
) -> str:
    """Seed 000's uncertainty reply: what was searched and the best low-relevance matches; when an
    answer was drafted and withheld, its `closest` passage (text, source) and what the sources lack."""
    lines = [
        "I couldn't find enough in the documents to answer this confidently. The documents I can read may not cover it."
    ]
    if closest is not None:
        passage, source = closest
        gap = f"it does not mention {_listed(missing[:6])}" if missing else "it may not answer the question"
        lines.append(f"The closest passage, from {source} ({gap}): “{passage}”")
    tried = list(dict.fromkeys(queries))
    if tried:
        lines.append("Searched: " + "; ".join(f"“{q}”" for q in tried))
    matches = sum(r.matches for r in searched_rounds)
    lines.append(f"Rounds: {len(searched_rounds)}, candidates seen: {matches}.")
    if best:
        lines.append("Best matches (low relevance):")
        ranked = sorted(best, key=lambda e: -e.relevance)
        lines.extend(f"- {e.title} (score: {e.relevance:.2f})" for e in ranked[:3])
    lines.append("Try other words, a product or document name, or a date range.")
    return "\n".join(lines)


def _listed(words: Sequence[str]) -> str:
    """“a”, “a or b”, “a, b or c”."""
    quoted = [f"“{w}”" for w in words]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " or " + quoted[-1]


def after_newest(newest: dt.date, start: dt.date | None, end: dt.date | None) -> str:
    """The dates asked come after every document: say so rather than answer from older ones."""
    asked = f"{start.isoformat()} to {end.isoformat()}" if start and end else f"{start or newest} onwards"
    return (
        f"I can't answer for {asked}: the newest document I can read is dated {newest.isoformat()}, "
        "so none of them can say what happened then."
    )


def before_oldest(oldest: dt.date, start: dt.date | None, end: dt.date | None) -> str:
    """The occasion asked comes before every document: say so rather than answer from later ones."""
    asked = f"{start.isoformat()} to {end.isoformat()}" if start and end else f"up to {end or oldest}"
    return (
        f"I can't answer for {asked}: the oldest document I can read is dated {oldest.isoformat()}, "
        "so none of them records what happened then."
    )


def not_covered(missing: str) -> str:
    """A period asked that the documents named do not cover: say what they do cover."""
    return f"I can't answer that from the documents: {missing}."


def empty_set(queries: list[str]) -> str:
    """Nothing matched at all."""
    tried = "; ".join(f"“{q}”" for q in dict.fromkeys(queries))
    return (
        "I found nothing in the documents matching this question"
        + (f" (searched: {tried})" if tried else "")
        + ". Try other words, or ask an admin whether the documents are ingested."
    )
