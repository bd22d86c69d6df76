"""Section-aware segmentation sized to the embedding model's sequence length (SPEC section 4)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import groupby

from core.knowledge import DocumentRecord, LoadedDocument, Segment, SourceBlock
from core.text import CLOSING_MARKS, split_sentences, unfinished

TokenCounter = Callable[[Sequence[str]], list[int]]

# Room left for [CLS]/[SEP] and the "title / section" line prepended when embedding.
_SPECIAL_TOKENS = 2
_MIN_BUDGET = 48


class Segmenter:
    """Packs a document's blocks into segments that fit the model without truncation."""

    def __init__(self, *, count_tokens: TokenCounter, max_seq_length: int) -> None:
        self._count = count_tokens
        self._max = max_seq_length

    def segment(self, document: LoadedDocument, record: DocumentRecord) -> list[Segment]:
        """Segments of `document`, never crossing a section or page boundary."""
        segments: list[Segment] = []
        for (section, page), group in groupby(document.blocks, key=lambda b: (b.section, b.page)):
            blocks = [b for b in group if b.text.strip()]
            if not blocks:
                continue
            heading = " / ".join(p for p in (record.title, section) if p)
            budget = max(_MIN_BUDGET, self._max - _SPECIAL_TOKENS - self._count([heading])[0] - 1)
            for text in self._pack(blocks, budget):
                segments.append(
                    Segment(
                        chunk_id=f"{record.doc_id}:{len(segments)}",
                        doc_id=record.doc_id,
                        collection=record.collection,
                        position=len(segments),
                        text=text,
                        title=record.title,
                        section=section,
                        page=page,
                        url=record.url,
                        date=record.date,
                    )
                )
        return segments

    def _pack(self, blocks: list[SourceBlock], budget: int) -> list[str]:
        """Greedily join paragraphs, then sentences, then word windows, within `budget` tokens; a
        segment ends where a sentence does, when the sentence fits in the next one (`continues`)."""
        pieces = self._fit([b.text.strip() for b in blocks], budget)
        sizes = self._count(pieces)
        chunks: list[str] = []
        current: list[str] = []
        used: list[int] = []
        for index, (piece, size) in enumerate(zip(pieces, sizes, strict=True)):
            if current and sum(used) + size > budget:
                # Back to where the sentence this piece continues began, if that leaves something.
                first = index - len(current)  # the index in `pieces` of current[0]
                start = len(current)
                while start > 0 and continues(pieces[first + start - 1], pieces[first + start]):
                    start -= 1
                if start == 0 or sum(used[start:]) + size > budget:
                    start = len(current)
                chunks.append("\n".join(current[:start]))
                current, used = current[start:], used[start:]
            current.append(piece)
            used.append(size)
        if current:
            chunks.append("\n".join(current))
        return chunks

    def _fit(self, texts: list[str], budget: int) -> list[str]:
        """Break every text that is too long on its own into pieces that fit."""
        out: list[str] = []
        for text, size in zip(texts, self._count(texts), strict=True):
            if size <= budget:
                out.append(text)
                continue
            sentences = split_sentences(text)
            if len(sentences) > 1:
                out.extend(self._fit(sentences, budget))
            else:
                out.extend(self._windows(text, budget))
        return out

    def _windows(self, text: str, budget: int) -> list[str]:
        """Cut one over-long sentence into word windows that fit (a table row, a run-on line)."""
        tokens = text.split()
        windows: list[str] = []
        start = 0
        while start < len(tokens):
            # Wordpieces per word vary; halve the window until it fits.
            size = min(len(tokens) - start, budget)
            while size > 1 and self._count([" ".join(tokens[start : start + size])])[0] > budget:
                size = max(1, size // 2 if size > 8 else size - 1)
            windows.append(" ".join(tokens[start : start + size]))
            start += size
        return windows


def continues(before: str, piece: str) -> bool:
    """True when `piece` goes on with the sentence `before` left open: `before` ends without a
    sentence's closing mark and `piece` starts in lower case, or `before` ends on a word no sentence
    ends on (`unfinished`: "… the increased sensitivity of" / "_5391… pregnant individuals and …").

    General case: a PDF's text comes line by line ("… online and through virtual consultations to" /
    "improve access for researchers …"); a segment cut between such lines halves a sentence, and
    neither half answers what the whole says."""
    if not before or before.rstrip()[-1:] in CLOSING_MARKS:
        return False
    return piece[:1].islower() or unfinished(before)
