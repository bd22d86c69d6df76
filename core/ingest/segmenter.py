"""Section-aware segmentation sized to the embedding model's sequence length (SPEC section 4)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import groupby

from core.knowledge import DocumentRecord, LoadedDocument, Segment, SourceBlock
from core.text import split_sentences

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
        """Greedily join paragraphs, then sentences, then word windows, within `budget` tokens."""
        pieces = self._fit([b.text.strip() for b in blocks], budget)
        sizes = self._count(pieces)
        chunks: list[str] = []
        current: list[str] = []
        used = 0
        for piece, size in zip(pieces, sizes, strict=True):
            if current and used + size > budget:
                chunks.append("\n".join(current))
                current, used = [], 0
            current.append(piece)
            used += size
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
