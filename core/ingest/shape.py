"""A document's category and its summaries (macro-chunks), both derived without an LLM."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from core.knowledge import Annotation, DocumentCategory, DocumentRecord, LoadedDocument, Segment
from core.text import split_sentences

MACRO_CHUNK_TOKENS = 12_000
SUMMARY_TOKENS = 220
LONG_SEGMENTS = 40
SHORT_SEGMENTS = 2
DATA_ROWS = 10
DATA_FACTS = 5


def detect_category(
    document: LoadedDocument, segments: Sequence[Segment], annotations: Sequence[Annotation]
) -> DocumentCategory:
    """data-heavy (tables, many facts), long, short or text-heavy."""
    rows = sum(len(t.rows) for t in document.tables)
    facts = sum(1 for a in annotations if a.kind == "fact")
    if rows >= DATA_ROWS or (facts >= DATA_FACTS and facts >= len(segments)):
        return "data-heavy"
    if len(segments) >= LONG_SEGMENTS:
        return "long"
    if len(segments) <= SHORT_SEGMENTS:
        return "short"
    return "text-heavy"


def summarize(
    record: DocumentRecord, segments: Sequence[Segment], count_tokens: Callable[[Sequence[str]], list[int]]
) -> list[Segment]:
    """Macro-chunks of about 12k tokens, each with an extractive summary that fits the model.

    The summary names the title and the sections the chunk covers, then takes the first
    sentence of each section until the model's window is full.
    """
    if not segments:
        return []
    sizes = count_tokens([s.text for s in segments])
    groups: list[list[Segment]] = [[]]
    used = 0
    for segment, size in zip(segments, sizes, strict=True):
        if groups[-1] and used + size > MACRO_CHUNK_TOKENS:
            groups.append([])
            used = 0
        groups[-1].append(segment)
        used += size
    return [_summary(record, i, group, count_tokens) for i, group in enumerate(groups)]


def _summary(
    record: DocumentRecord,
    number: int,
    group: list[Segment],
    count_tokens: Callable[[Sequence[str]], list[int]],
) -> Segment:
    sections = list(dict.fromkeys(s.section for s in group if s.section))
    parts = [record.title + "."]
    if sections:
        parts.append("Sections: " + "; ".join(sections) + ".")
    seen: set[str | None] = set()
    for segment in group:
        if segment.section in seen:
            continue
        seen.add(segment.section)
        sentences = split_sentences(segment.text)
        if sentences:
            parts.append(sentences[0])
    text = _fit(parts, count_tokens)
    first, last = group[0], group[-1]
    return Segment(
        chunk_id=f"{record.doc_id}:s{number}",
        doc_id=record.doc_id,
        collection=record.collection,
        kind="summary",
        position=number,
        span_start=first.position,
        span_end=last.position,
        text=text,
        title=record.title,
        page=first.page,
        url=record.url,
        date=record.date,
    )


def _fit(parts: list[str], count_tokens: Callable[[Sequence[str]], list[int]]) -> str:
    sizes = count_tokens(parts)
    kept: list[str] = []
    used = 0
    for part, size in zip(parts, sizes, strict=True):
        if kept and used + size > SUMMARY_TOKENS:
            break
        kept.append(part)
        used += size
    return " ".join(kept)
