"""Keeps the embedded backend's BM25 index current: stored tokens, saved indexes, background rebuilds.

bm25s builds a static index, so this decides when to build one: before searching after this
process's own writes (and on its first search), in a background thread after another process's
writes — the old index keeps answering meanwhile, rows deleted since left out — and never when
some process already saved the index for the same state of the segments.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path

import numpy as np

from adapters.search.embedded_lexical import TOKENIZER, LexicalIndex

log = logging.getLogger(__name__)

TOKENS_SQL = "SELECT rowid, tokens FROM segments WHERE kind = 'segment' ORDER BY rowid"
Stamp = tuple[int, int, float]


def stamp_of(db: sqlite3.Connection) -> Stamp:
    """What a BM25 index is built from: (count, max rowid, sum of rowids) of the segments."""
    count, top, total = db.execute(
        "SELECT count(*), coalesce(max(rowid), 0), total(rowid) FROM segments WHERE kind = 'segment'"
    ).fetchone()
    return int(count), int(top), float(total)


class Bm25Keeper:
    """The BM25 index of one index file; every method but the rebuild thread runs under the backend's lock."""

    def __init__(self, *, path: Path, lock: threading.Lock, positions: Callable[[], dict[int, int]]) -> None:
        self._path = path
        self._saved = path.with_name(path.name + ".bm25")
        self._lock = lock
        self._positions = positions  # rowid → row of the backend's vector index, as of now
        self._lexical = LexicalIndex()
        self._rebuild: threading.Thread | None = None

    def missing_tokens(self, db: sqlite3.Connection) -> Callable[[], None] | None:
        """The write that gives segments without tokens (or with another tokenizer's) theirs; None if none."""
        if "tokens" not in {row[1] for row in db.execute("PRAGMA table_info(segments)")}:
            db.execute("ALTER TABLE segments ADD COLUMN tokens TEXT")
        made_by = db.execute("SELECT value FROM meta WHERE key = 'tokenizer'").fetchone()
        current = made_by is not None and made_by[0] == TOKENIZER
        rows = db.execute(
            "SELECT rowid, title, section, text FROM segments WHERE kind = 'segment'"
            + (" AND tokens IS NULL" if current else "")
        ).fetchall()
        if current and not rows:
            return None
        updates = [(self._lexical.stored_tokens(title, section, text), rowid) for rowid, title, section, text in rows]

        def work() -> None:
            db.executemany("UPDATE segments SET tokens = ? WHERE rowid = ?", updates)
            db.execute("INSERT OR REPLACE INTO meta VALUES ('tokenizer', ?)", (TOKENIZER,))

        return work

    def stored_tokens(self, title: str, section: str | None, text: str) -> str:
        """A segment's tokens as stored beside it."""
        return self._lexical.stored_tokens(title, section, text)

    def refresh(self, db: sqlite3.Connection, *, own_writes: bool) -> None:
        """The segments changed (or this is the first search): build now, or in the background."""
        stamp = stamp_of(db)
        if own_writes or self._lexical.stamp is None:
            self._lexical = self._index_for(stamp, db)
        elif self._lexical.stamp != stamp:
            self._start_rebuild()
        self._lexical.align(self._positions())

    def scores(self, query: str, size: int) -> np.ndarray:
        """BM25 of the query for every row of the vector index."""
        return self._lexical.scores(query, size)

    def running(self) -> threading.Thread | None:
        """The background rebuild, if one is running (to wait for before closing)."""
        return self._rebuild

    def _index_for(self, stamp: Stamp, db: sqlite3.Connection) -> LexicalIndex:
        """The index of this state of the segments: saved by some process already, or built and saved."""
        lexical = LexicalIndex()
        if not lexical.load_saved(self._saved, stamp):
            lexical.load(db.execute(TOKENS_SQL), stamp)
            self._saved.mkdir(exist_ok=True)
            lexical.save(self._saved)
        return lexical

    def _start_rebuild(self) -> None:
        if self._rebuild is None:
            self._rebuild = threading.Thread(target=self._rebuild_in_background, name="threadwise-bm25", daemon=True)
            self._rebuild.start()

    def _rebuild_in_background(self) -> None:
        """Build from a connection of its own, then swap the new index in."""
        try:
            db = sqlite3.connect(self._path)
            try:
                db.execute("BEGIN")  # one snapshot: the stamp and the rows agree
                fresh = self._index_for(stamp_of(db), db)
                db.execute("COMMIT")
                with self._lock:
                    fresh.align(self._positions())
                    self._lexical, self._rebuild = fresh, None
                    if fresh.stamp != stamp_of(db):  # written to again meanwhile: once more
                        self._start_rebuild()
            finally:
                db.close()
        except Exception:  # the old index keeps serving; the next change tries again
            log.exception("rebuilding the BM25 index failed")
            with self._lock:
                self._rebuild = None
