"""The embedded backend's BM25 leg: bm25s over stemmed tokens, rebuilt in memory when the index changes.

Scoring every chunk is a sparse-matrix product over the query's postings only, so a query costs
well under a millisecond at 10k chunks, where SQLite FTS5 sorted every OR-match by bm25().
Tokens are computed once, at ingestion, and stored with the segment; a refresh only re-indexes.
Each built index is also saved beside the SQLite file (a folder per state of the segments), so a
new process loads it in milliseconds instead of re-indexing (about 18 s at 100k chunks).
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import re
import shutil
import threading
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path

import bm25s
import numpy as np
import Stemmer

# Titles count twice, as FTS5's column weights (2, 1, 1) did.
TITLE_WEIGHT = 2
# Runs of letters and digits, single characters included ("vitamin d", "b 12"), as FTS5's unicode61.
_WORD = re.compile(r"[^\W_]+")
# Numbers written with dots ("2.2.b", "3.2.1.1", "68.5") are also kept whole: a document's numbered
# items and figures are found by the number a question quotes, not by its digits one by one.
_DOTTED = re.compile(r"(?<![\w.])\d+(?:\.[^\W_]+)+(?!\w)")
# Stored tokens made by another tokenizer are recomputed when an index file is opened.
TOKENIZER = "letters-digits-dotted/en-stopwords/snowball-en/title-x2"


class LexicalIndex:
    """BM25 (Lucene variant, k1 = 1.5, b = 0.75) over segments, aligned with the vector index's rows."""

    def __init__(self) -> None:
        # bm25s sets its own logger to DEBUG: its progress lines would reach any root handler
        # (the server's JSON log, the CLI after a library's logging.warning).
        logging.getLogger("bm25s").setLevel(logging.WARNING)
        self._retriever: bm25s.BM25 | None = None
        self._rowids = np.zeros(0, dtype=np.int64)  # the rows the index was built from
        self._kept = np.zeros(0, dtype=bool)  # which of them still exist
        self._positions = np.zeros(0, dtype=np.int64)  # where the kept ones are in the vector index
        self.stamp: tuple[int, int, float] | None = None  # (count, max rowid, sum of rowids) built from

    @staticmethod
    def tokens(text: str) -> list[str]:
        """Lower-cased runs of letters and digits, English stop words dropped, Snowball-stemmed; and
        numbers written with dots, whole."""
        lowered = text.lower()
        words = [w for w in _WORD.findall(lowered) if w not in _stopwords()]
        return [*_stemmer().stemWords(words), *_DOTTED.findall(lowered)]

    @staticmethod
    def stored_tokens(title: str, section: str | None, text: str) -> str:
        """A segment's tokens as stored beside it: the title twice, then section and text (the
        Elasticsearch backend indexes the same string, so both backends' BM25 read the same terms)."""
        return " ".join(LexicalIndex.tokens(" ".join([title] * TITLE_WEIGHT + [section or "", text])))

    def load(self, rows: Iterable[tuple[int, str | None]], stamp: tuple[int, int, float] | None = None) -> None:
        """Build from (rowid, stored tokens) rows; then `align` places them in the vector index."""
        rowids: list[int] = []
        corpus: list[list[str]] = []
        for rowid, stored in rows:
            rowids.append(rowid)
            # An empty token list would be dropped by bm25s and shift every row after it.
            corpus.append(stored.split(" ") if stored else ["\x00"])
        self._rowids = np.asarray(rowids, dtype=np.int64)
        self._kept = np.zeros(len(rowids), dtype=bool)
        self._positions = np.zeros(0, dtype=np.int64)
        self.stamp = stamp
        if not rowids:
            self._retriever = None
            return
        retriever = bm25s.BM25(k1=1.5, b=0.75)
        retriever.index(corpus, show_progress=False)
        self._retriever = retriever

    def save(self, folder: Path) -> None:
        """Keep this index for other processes, under its stamp; older ones are removed."""
        if self._retriever is None or self.stamp is None:
            return
        final = folder / _stamp_name(self.stamp)
        if final.exists():
            return
        partial = folder / f".{final.name}.{os.getpid()}.{threading.get_ident()}"
        self._retriever.save(str(partial))
        np.save(partial / "rowids.npy", self._rowids)
        (partial / "threadwise.json").write_text(json.dumps({"stamp": self.stamp, "tokenizer": TOKENIZER}))
        try:
            partial.rename(final)  # atomic: a reader sees the whole folder or none
        except OSError:  # another process saved the same state first
            shutil.rmtree(partial, ignore_errors=True)
            return
        for other in folder.iterdir():
            if other != final and not other.name.startswith("."):
                shutil.rmtree(other, ignore_errors=True)

    def load_saved(self, folder: Path, stamp: tuple[int, int, float]) -> bool:
        """Load the index saved for this state of the segments, if there is one."""
        saved = folder / _stamp_name(stamp)
        with contextlib.suppress(OSError, ValueError, KeyError):
            meta = json.loads((saved / "threadwise.json").read_text())
            if meta["tokenizer"] == TOKENIZER and tuple(meta["stamp"]) == stamp:
                self._retriever = bm25s.BM25.load(str(saved), mmap=True)
                self._rowids = np.load(saved / "rowids.npy")
                self._kept = np.zeros(len(self._rowids), dtype=bool)
                self.stamp = stamp
                return True
        return False

    def align(self, positions: dict[int, int]) -> None:
        """Map the indexed rows onto the vector index's rows; rows deleted since are left out."""
        found = np.fromiter((positions.get(int(r), -1) for r in self._rowids), dtype=np.int64, count=len(self._rowids))
        self._kept = found >= 0
        self._positions = found[self._kept]

    def scores(self, query: str, size: int) -> np.ndarray:
        """BM25 of the query for every vector-index row (0 where a row has no segment or no match)."""
        out = np.zeros(size, dtype=np.float32)
        terms = self.tokens(query)
        if self._retriever is None or not terms:
            return out
        out[self._positions] = self._retriever.get_scores(terms)[self._kept]
        return out


_local = threading.local()


def _stamp_name(stamp: tuple[int, int, float]) -> str:
    count, top, total = stamp
    return f"{count}-{top}-{int(total)}"


def _stemmer() -> Stemmer.Stemmer:
    """One stemmer per thread: PyStemmer's objects are not safe to share between threads."""
    stemmer: Stemmer.Stemmer | None = getattr(_local, "stemmer", None)
    if stemmer is None:
        stemmer = _local.stemmer = Stemmer.Stemmer("english")
    return stemmer


@lru_cache(maxsize=1)
def _stopwords() -> frozenset[str]:
    return frozenset(bm25s.stopwords.STOPWORDS_EN)
