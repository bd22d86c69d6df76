"""A passage goes on past the end of its segment: the first sentences of the segment after it.

General case: segments are cut to the embedding model's length, and a cut falls where it falls. "The
agency will pursue three kinds of settlement terms:" ends one segment and the terms open the next;
"… to address emerging threats, such as" ends a page of a PDF. The sentence that answers is read
with the passage it goes on, though its own segment was not among those found. A section's heading
ends a passage, and so does the name of a numbered part that opens the next segment ("Strategy 7.03:
Advance …", "TABLE 7.03E"); a page's end does not.
"""

from __future__ import annotations

from collections.abc import Sequence

from core.contracts import Evidence
from core.knowledge import Segment
from core.text import snippet, split_sentences
from core.understanding.numerals import ITEM

CONTINUED_SENTENCES = 2
"""How much of the next segment reads as the passage's continuation: its first two sentences."""


def places_after(evidence: Sequence[Evidence]) -> list[tuple[str, int]]:
    """The (document, position) of the segment after each passage, unless it was found itself."""
    given = {(e.doc_id, e.position) for e in evidence}
    after = [(e.doc_id, e.position + 1) for e in evidence if e.kind == "segment" and e.position is not None]
    return [place for place in dict.fromkeys(after) if place not in given]


def continuations(evidence: Sequence[Evidence], following: Sequence[Segment]) -> list[Evidence]:
    """Each found passage's continuation, as evidence of the same round and relevance as the
    passage it continues: the first `CONTINUED_SENTENCES` sentences of the next segment."""
    by_place = {(s.doc_id, s.position): s for s in following}
    out: list[Evidence] = []
    for item in evidence:
        if item.kind != "segment" or item.position is None:
            continue
        segment = by_place.pop((item.doc_id, item.position + 1), None)
        if segment is None or segment.section != item.section or opens_part(segment.text):
            continue
        text = "\n".join(split_sentences(segment.text)[:CONTINUED_SENTENCES])
        out.append(
            item.model_copy(
                update={
                    "chunk_id": segment.chunk_id,
                    "text": text,
                    "snippet": snippet(text),
                    "section": segment.section,
                    "page": segment.page,
                    "position": segment.position,
                    "bm25_rank": None,
                    "vector_rank": None,
                    "rrf_score": None,
                    "rerank_score": None,
                }
            )
        )
    return out


def opens_part(text: str) -> bool:
    """True when `text` opens with the name of a numbered part of the document (`ITEM`): a heading."""
    return ITEM.match(text.lstrip()) is not None
