"""The embedded backend's BM25 leg: bm25s over stemmed tokens, rebuilt in memory when the index changes.

Scoring every chunk is a sparse-matrix product over the query's postings only, so a query costs
well under a millisecond at 10k chunks, where SQLite FTS5 sorted every OR-match by bm25().
Tokens are cached per row, so a refresh after an ingestion tokenizes only the new rows.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import bm25s
import numpy as np
import Stemmer

# Titles count twice, as FTS5's column weights (2, 1, 1) did.
TITLE_WEIGHT = 2
_WORD = re.compile(r"(?u)\b\w\w+\b")


class LexicalIndex:
    """BM25 (Lucene variant, k1 = 1.2, b = 0.75) over segments, aligned with the vector index's rows."""

    def __init__(self) -> None:
        self._stemmer = Stemmer.Stemmer("english")
        self._stopwords = frozenset(bm25s.stopwords.STOPWORDS_EN)
        self._tokens: dict[int, list[str]] = {}
        self._retriever: bm25s.BM25 | None = None
        self._positions = np.zeros(0, dtype=np.int64)  # index row → position in the vector index

    def tokens(self, text: str) -> list[str]:
        """Lower-cased words of two or more characters, English stop words dropped, Snowball-stemmed."""
        words = [w for w in _WORD.findall(text.lower()) if w not in self._stopwords]
        return list(self._stemmer.stemWords(words))

    def load(self, rows: Iterable[tuple[int, str, str | None, str]], positions: dict[int, int]) -> None:
        """Rebuild from (rowid, title, section, text) segment rows; `positions` maps rowid → vector row."""
        tokens: dict[int, list[str]] = {}
        for rowid, title, section, text in rows:
            cached = self._tokens.get(rowid)
            if cached is None:
                cached = self.tokens(" ".join([title] * TITLE_WEIGHT + [section or "", text]))
            tokens[rowid] = cached
        self._tokens = tokens
        rowids = list(tokens)
        self._positions = np.asarray([positions[r] for r in rowids], dtype=np.int64)
        if not rowids:
            self._retriever = None
            return
        retriever = bm25s.BM25(k1=1.2, b=0.75)
        # An empty token list would be dropped by bm25s and shift every row after it.
        retriever.index([tokens[r] or ["\x00"] for r in rowids], show_progress=False)
        self._retriever = retriever

    def scores(self, query: str, size: int) -> np.ndarray:
        """BM25 of the query for every vector-index row (0 where a row has no segment or no match)."""
        out = np.zeros(size, dtype=np.float32)
        terms = self.tokens(query)
        if self._retriever is None or not terms:
            return out
        out[self._positions] = self._retriever.get_scores(terms)
        return out
