"""The embedded search backend: SQLite FTS5 for BM25 and exact vector search with numpy.

One SQLite file in the data directory holds segments, their embeddings and the FTS5 index.
One process writes, many read: a reader notices another connection's commit through
`PRAGMA data_version` and reloads its in-memory vector matrix before the next search.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from adapters.search.embedded_index import VectorIndex, fts_query
from core.concurrency import CpuExecutor
from core.contracts import SearchFilters
from core.fusion import reciprocal_rank_fusion
from core.knowledge import DocumentRecord, SearchHit, Segment, ToolHealth
from core.ports import Embeddings

_SCHEMA = """
CREATE TABLE IF NOT EXISTS segments (
    rowid INTEGER PRIMARY KEY,
    chunk_id TEXT NOT NULL UNIQUE,
    doc_id TEXT NOT NULL,
    collection TEXT NOT NULL,
    category TEXT,
    kind TEXT NOT NULL,
    position INTEGER NOT NULL,
    title TEXT NOT NULL,
    section TEXT,
    page INTEGER,
    url TEXT,
    date TEXT,
    text TEXT NOT NULL,
    embedding BLOB NOT NULL
);
CREATE INDEX IF NOT EXISTS segments_doc ON segments(doc_id);
CREATE VIRTUAL TABLE IF NOT EXISTS segments_fts USING fts5(
    title, section, text, content='segments', content_rowid='rowid',
    tokenize='porter unicode61 remove_diacritics 2'
);
CREATE TRIGGER IF NOT EXISTS segments_ai AFTER INSERT ON segments BEGIN
    INSERT INTO segments_fts(rowid, title, section, text)
    VALUES (new.rowid, new.title, coalesce(new.section, ''), new.text);
END;
CREATE TRIGGER IF NOT EXISTS segments_ad AFTER DELETE ON segments BEGIN
    INSERT INTO segments_fts(segments_fts, rowid, title, section, text)
    VALUES ('delete', old.rowid, old.title, coalesce(old.section, ''), old.text);
END;
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""
_COLUMNS = (
    "s.rowid, s.chunk_id, s.doc_id, s.collection, s.kind, s.position,"
    " s.title, s.section, s.page, s.url, s.date, s.text"
)
# BM25 column weights (title, section, text).
_BM25_WEIGHTS = (2.0, 1.0, 1.0)


class EmbeddedSearchBackend:
    """BM25 (SQLite FTS5) + exact cosine search, fused by RRF, in one file."""

    name = "embedded"

    def __init__(self, *, path: Path, executor: CpuExecutor, model_name: str, dimension: int) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self._executor = executor
        self._lock = threading.Lock()
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA busy_timeout=30000")
        self._db.executescript(_SCHEMA)
        self._check_model(model_name, dimension)
        self._index = VectorIndex(dimension=dimension)
        self._seen_version = -1
        self._dirty = True

    def _check_model(self, model_name: str, dimension: int) -> None:
        rows = dict(self._db.execute("SELECT key, value FROM meta").fetchall())
        if not rows:
            self._db.execute(
                "INSERT INTO meta VALUES ('model', ?), ('dimension', ?)", (model_name, str(dimension))
            )
        elif rows.get("model") != model_name or rows.get("dimension") != str(dimension):
            raise ValueError(
                f"the search index was built with {rows.get('model')} ({rows.get('dimension')} dims), "
                f"not {model_name} ({dimension}): re-ingest into a new THREADWISE_DATA_DIR"
            )

    async def upsert_document(
        self, document: DocumentRecord, segments: Sequence[Segment], embeddings: Embeddings
    ) -> None:
        """Replace a document's segments with these."""
        matrix = np.asarray(
            embeddings.tolist() if not isinstance(embeddings, np.ndarray) else embeddings, dtype=np.float32
        )
        if len(segments) != len(matrix):
            raise ValueError(f"{len(segments)} segments but {len(matrix)} embeddings")
        await self._executor.run(self._write, document, list(segments), matrix)

    def _write(self, document: DocumentRecord, segments: list[Segment], matrix: np.ndarray) -> None:
        rows = [
            (
                s.chunk_id,
                s.doc_id,
                s.collection,
                document.category,
                s.kind,
                s.position,
                s.title,
                s.section,
                s.page,
                s.url,
                s.date.isoformat() if s.date else None,
                s.text,
                matrix[i].tobytes(),
            )
            for i, s in enumerate(segments)
        ]
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.execute("DELETE FROM segments WHERE doc_id = ?", (document.doc_id,))
                self._db.executemany(
                    "INSERT INTO segments (chunk_id, doc_id, collection, category, kind, position, title,"
                    " section, page, url, date, text, embedding) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                    rows,
                )
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._dirty = True

    async def delete_document(self, doc_id: str) -> None:
        """Remove a document's segments."""
        await self._executor.run(self._delete, doc_id)

    def _delete(self, doc_id: str) -> None:
        with self._lock:
            self._db.execute("DELETE FROM segments WHERE doc_id = ?", (doc_id,))
            self._dirty = True

    async def search_text(
        self, query: str, filters: SearchFilters, limit: int, query_vector: Embeddings
    ) -> list[SearchHit]:
        """BM25 over title, section and text."""
        return await self._executor.run(self._hybrid, query, _vector(query_vector), filters, limit, ("bm25",))

    async def search_vector(
        self, query_vector: Embeddings, filters: SearchFilters, limit: int
    ) -> list[SearchHit]:
        """Exact cosine search over segment embeddings."""
        return await self._executor.run(self._hybrid, "", _vector(query_vector), filters, limit, ("vector",))

    async def search_hybrid(
        self, query: str, query_vector: Embeddings, filters: SearchFilters, limit: int
    ) -> list[SearchHit]:
        """BM25 and vector search with the same filters, fused by RRF (k = 60)."""
        return await self._executor.run(
            self._hybrid, query, _vector(query_vector), filters, limit, ("bm25", "vector")
        )

    def _hybrid(
        self, query: str, vector: np.ndarray, filters: SearchFilters, limit: int, legs: tuple[str, ...]
    ) -> list[SearchHit]:
        with self._lock:
            self._refresh()
            bm25 = self._bm25(query, filters, limit) if "bm25" in legs else []
            dense = self._index.search(vector, filters, limit) if "vector" in legs else []
            bm25_rank = {rowid: rank for rank, (rowid, _) in enumerate(bm25, start=1)}
            bm25_score = dict(bm25)
            vector_rank = {rowid: rank for rank, (rowid, _) in enumerate(dense, start=1)}
            fused = reciprocal_rank_fusion([[str(r) for r, _ in bm25], [str(r) for r, _ in dense]])
            rowids = [int(r) for r in list(fused)[:limit]]
            segments = self._segments(rowids)
            cosines = self._index.cosines(vector, rowids)
        return [
            SearchHit(
                segment=segments[rowid],
                bm25_rank=bm25_rank.get(rowid),
                vector_rank=vector_rank.get(rowid),
                bm25_score=bm25_score.get(rowid),
                rrf_score=round(fused[str(rowid)], 6),
                cosine=max(-1.0, min(1.0, cosine)),
            )
            for rowid, cosine in zip(rowids, cosines, strict=True)
            if rowid in segments
        ]

    def _bm25(self, query: str, filters: SearchFilters, limit: int) -> list[tuple[int, float]]:
        match = fts_query(query)
        if not match:
            return []
        where, params = _sql_filters(filters)
        weights = ", ".join(str(w) for w in _BM25_WEIGHTS)
        sql = (
            f"SELECT s.rowid, -bm25(segments_fts, {weights}) AS score FROM segments_fts"
            " JOIN segments s ON s.rowid = segments_fts.rowid"
            f" WHERE segments_fts MATCH ? {where} ORDER BY bm25(segments_fts, {weights}) LIMIT ?"
        )
        return [(int(r), float(s)) for r, s in self._db.execute(sql, [match, *params, limit])]

    def _segments(self, rowids: list[int]) -> dict[int, Segment]:
        if not rowids:
            return {}
        marks = ",".join("?" * len(rowids))
        rows = self._db.execute(f"SELECT {_COLUMNS} FROM segments s WHERE s.rowid IN ({marks})", rowids)
        return {
            int(r[0]): Segment(
                chunk_id=r[1],
                doc_id=r[2],
                collection=r[3],
                kind=r[4],
                position=r[5],
                title=r[6],
                section=r[7],
                page=r[8],
                url=r[9],
                date=r[10],
                text=r[11],
            )
            for r in rows
        }

    def _refresh(self) -> None:
        """Reload the vector matrix if this or another process wrote since the last load."""
        version = int(self._db.execute("PRAGMA data_version").fetchone()[0])
        if self._dirty or version != self._seen_version:
            self._index.load(
                self._db.execute(
                    "SELECT rowid, collection, category, date, embedding FROM segments ORDER BY rowid"
                )
            )
            self._seen_version = version
            self._dirty = False

    async def health(self) -> ToolHealth:
        """Counts of documents and segments; ok when the file answers."""

        def counts() -> tuple[int, int]:
            with self._lock:
                row = self._db.execute("SELECT count(DISTINCT doc_id), count(*) FROM segments").fetchone()
            return int(row[0]), int(row[1])

        try:
            documents, segments = await self._executor.run(counts)
        except sqlite3.Error as exc:
            return ToolHealth(backend=self.name, ok=False, detail=str(exc))
        return ToolHealth(
            backend=self.name,
            ok=True,
            detail="sqlite fts5 + exact vectors",
            documents=documents,
            segments=segments,
        )

    async def close(self) -> None:
        """Close the database file."""
        with self._lock:
            self._db.close()


def _vector(query_vector: Embeddings) -> np.ndarray:
    array = np.asarray(
        query_vector if isinstance(query_vector, np.ndarray) else query_vector.tolist(), dtype=np.float32
    )
    return array.reshape(-1)


def _sql_filters(filters: SearchFilters) -> tuple[str, list[object]]:
    clauses: list[str] = []
    params: list[object] = []
    if filters.collections is not None:
        clauses.append(
            f"s.collection IN ({','.join('?' * len(filters.collections))})" if filters.collections else "0"
        )
        params.extend(filters.collections)
    if filters.categories:
        clauses.append(f"s.category IN ({','.join('?' * len(filters.categories))})")
        params.extend(filters.categories)
    if filters.date_start is not None:
        clauses.append("s.date >= ?")
        params.append(filters.date_start.isoformat())
    if filters.date_end is not None:
        clauses.append("s.date <= ?")
        params.append(filters.date_end.isoformat())
    return "".join(f" AND {c}" for c in clauses), params
