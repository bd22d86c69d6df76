"""The embedded search backend: SQLite FTS5 for BM25 and exact vector search with numpy.

One SQLite file in the data directory holds segments, summaries, their embeddings, the FTS5
index and the annotations. One process writes, many read: a reader notices another
connection's commit through `PRAGMA data_version` and reloads its vector matrix before the next
search.
"""

from __future__ import annotations

import datetime as dt
import logging
import sqlite3
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

import numpy as np

from adapters.annotations.units import UnitNormalizer
from adapters.search.embedded_annotations import AnnotationIndex
from adapters.search.embedded_bm25 import Bm25Keeper
from adapters.search.embedded_index import VectorIndex
from adapters.search.embedded_schema import SCHEMA, SEGMENT_COLUMNS
from adapters.search.embedded_sql import sql_filters
from core.concurrency import CpuExecutor
from core.contracts import SearchFilters
from core.fusion import boost_recent, reciprocal_rank_fusion
from core.knowledge import (
    AggregateFunction,
    AggregateRow,
    Annotation,
    AnnotationMatches,
    AnnotationQuery,
    CollectionStats,
    DocumentRecord,
    SearchHit,
    Segment,
    ToolHealth,
    VectorScope,
)
from core.ports import Embeddings

R = TypeVar("R")

# BM25 column weights (title, section, text).

log = logging.getLogger(__name__)


def as_matrix(embeddings: Embeddings) -> np.ndarray:
    """An `Embeddings` value as a float32 matrix (no copy for numpy input)."""
    source = embeddings if isinstance(embeddings, np.ndarray) else embeddings.tolist()
    matrix = np.asarray(source, dtype=np.float32)
    return matrix.reshape(1, -1) if matrix.ndim == 1 else matrix


class EmbeddedSearchBackend:
    """BM25 (bm25s) + exact cosine search, fused by RRF, and annotations, over one SQLite file."""

    name = "embedded"

    def __init__(self, *, path: Path, executor: CpuExecutor, model_name: str, dimension: int) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self._executor = executor
        self._lock = threading.Lock()
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA busy_timeout=30000")
        self._db.executescript(SCHEMA)
        self._check_model(model_name, dimension)
        self._index = VectorIndex(dimension=dimension)
        self._lexical = Bm25Keeper(path=path, lock=self._lock, positions=self._index.positions)
        self._annotations = AnnotationIndex(units=UnitNormalizer(), dimension=dimension)
        self._seen_version = -1
        self._dirty = True  # reload before the next search
        self._wrote = False  # this process wrote since the last reload
        backfill = self._lexical.missing_tokens(self._db)
        if backfill is not None:
            self._transaction(backfill)

    def _check_model(self, model_name: str, dimension: int) -> None:
        rows = dict(self._db.execute("SELECT key, value FROM meta").fetchall())
        if not rows:
            self._db.execute("INSERT INTO meta VALUES ('model', ?), ('dimension', ?)", (model_name, str(dimension)))
        elif rows.get("model") != model_name or rows.get("dimension") != str(dimension):
            raise ValueError(
                f"the search index was built with {rows.get('model')} ({rows.get('dimension')} dims), "
                f"not {model_name} ({dimension}): re-ingest into a new THREADWISE_DATA_DIR"
            )

    def _transaction(self, work: Callable[[], None]) -> None:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                work()
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._dirty = self._wrote = True

    async def upsert_document(
        self,
        document: DocumentRecord,
        segments: Sequence[Segment],
        embeddings: Embeddings,
        annotations: Sequence[Annotation] = (),
    ) -> None:
        """Replace a document's segments, summaries and annotations with these."""
        matrix = as_matrix(embeddings) if len(segments) else np.zeros((0, self._index.dimension), np.float32)
        if len(segments) != len(matrix):
            raise ValueError(f"{len(segments)} segments but {len(matrix)} embeddings")
        rows = [
            (
                s.chunk_id,
                s.doc_id,
                s.collection,
                document.category,
                s.kind,
                s.position,
                s.span_start,
                s.span_end,
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

        def work() -> None:
            # BM25 tokens are stored with the segment, so no later process tokenizes the corpus again.
            tokens = [
                self._lexical.stored_tokens(s.title, s.section, s.text) if s.kind == "segment" else None
                for s in segments
            ]
            self._db.execute("DELETE FROM segments WHERE doc_id = ?", (document.doc_id,))
            self._db.executemany(
                "INSERT INTO segments (chunk_id, doc_id, collection, category, kind, position, span_start,"
                " span_end, title, section, page, url, date, text, embedding, tokens)"
                " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                [(*row, token) for row, token in zip(rows, tokens, strict=True)],
            )
            self._annotations.write(self._db, document.doc_id, annotations)

        await self._executor.run(self._transaction, work)

    async def delete_document(self, doc_id: str) -> None:
        """Remove everything of a document."""

        def work() -> None:
            self._db.execute("DELETE FROM segments WHERE doc_id = ?", (doc_id,))
            self._db.execute("DELETE FROM annotations WHERE doc_id = ?", (doc_id,))

        await self._executor.run(self._transaction, work)

    async def refresh(self) -> None:
        """Nothing to do: a committed write is visible to the next search (BM25 is rebuilt lazily)."""

    async def known_labels(self) -> list[str]:
        """Annotation labels that already have an embedding."""
        return await self._read(self._annotations.known_labels)

    async def upsert_labels(self, labels: Sequence[str], embeddings: Embeddings) -> None:
        """Store embeddings of annotation labels, for fuzzy label matching."""
        matrix = as_matrix(embeddings) if labels else None
        if matrix is not None:
            await self._executor.run(
                self._transaction, lambda: self._annotations.write_labels(self._db, labels, matrix)
            )

    async def _read(self, fn: Callable[[sqlite3.Connection], R], *, refresh: bool = False) -> R:
        """Run `fn(connection)` on the executor, holding the lock; `refresh` first picks up new writes."""

        def locked() -> R:
            with self._lock:
                if refresh:
                    self._refresh()
                return fn(self._db)

        return await self._executor.run(locked)

    async def search_text(
        self, query: str, filters: SearchFilters, limit: int, query_vector: Embeddings
    ) -> list[SearchHit]:
        """BM25 over title, section and text of segments."""
        return await self._executor.run(self._search, query, _vector(query_vector), filters, limit, ("bm25",))

    async def search_vector(
        self, query_vector: Embeddings, filters: SearchFilters, limit: int, scope: VectorScope = "segment"
    ) -> list[SearchHit]:
        """Exact cosine search over segment or summary embeddings."""
        return await self._executor.run(self._search, "", _vector(query_vector), filters, limit, ("vector",), scope)

    async def search_hybrid(
        self,
        query: str,
        query_vector: Embeddings,
        filters: SearchFilters,
        limit: int,
        recency_boost: float = 0.0,
    ) -> list[SearchHit]:
        """BM25 and vector search with the same filters, fused by RRF (k = 60)."""
        return await self._executor.run(
            self._search,
            query,
            _vector(query_vector),
            filters,
            limit,
            ("bm25", "vector"),
            "segment",
            recency_boost,
        )

    def _search(
        self,
        query: str,
        vector: np.ndarray,
        filters: SearchFilters,
        limit: int,
        legs: tuple[str, ...],
        scope: str = "segment",
        recency_boost: float = 0.0,
    ) -> list[SearchHit]:
        with self._lock:
            self._refresh()
            bm25 = self._bm25(query, filters, limit) if "bm25" in legs else []
            dense = self._index.search(vector, filters, limit, scope) if "vector" in legs else []
            fused = reciprocal_rank_fusion([[str(r) for r, _ in bm25], [str(r) for r, _ in dense]])
            segments = self._segments([int(r) for r in fused])
            if recency_boost:
                dates = {str(rowid): segment.date for rowid, segment in segments.items()}
                fused = boost_recent(fused, dates, recency_boost)
            rowids = [int(r) for r in list(fused)[:limit]]
            cosines = self._index.cosines(vector, rowids)
        bm25_rank = {rowid: rank for rank, (rowid, _) in enumerate(bm25, start=1)}
        vector_rank = {rowid: rank for rank, (rowid, _) in enumerate(dense, start=1)}
        bm25_score = dict(bm25)
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
        scores = self._lexical.scores(query, len(self._index.rowids))
        return self._index.top(scores, filters, limit, "segment", floor=0.0)

    def _segments(self, rowids: list[int]) -> dict[int, Segment]:
        if not rowids:
            return {}
        marks = ",".join("?" * len(rowids))
        rows = self._db.execute(f"SELECT {SEGMENT_COLUMNS} FROM segments s WHERE s.rowid IN ({marks})", rowids)
        return {
            int(r[0]): Segment(
                chunk_id=r[1],
                doc_id=r[2],
                collection=r[3],
                kind=r[4],
                position=r[5],
                span_start=r[6],
                span_end=r[7],
                title=r[8],
                section=r[9],
                page=r[10],
                url=r[11],
                date=r[12],
                text=r[13],
            )
            for r in rows
        }

    def _refresh(self) -> None:
        """Pick up writes since the last load: the vector matrix now, BM25 as `Bm25Keeper` decides."""
        version = int(self._db.execute("PRAGMA data_version").fetchone()[0])
        if not (self._dirty or version != self._seen_version):
            return
        self._index.load(
            self._db.execute(
                "SELECT rowid, collection, category, date, kind, doc_id, embedding FROM segments ORDER BY rowid"
            )
        )
        self._lexical.refresh(self._db, own_writes=self._dirty)
        self._annotations.invalidate()
        self._seen_version = version
        self._dirty = self._wrote = False

    async def annotations_search(
        self, query: AnnotationQuery, filters: SearchFilters, limit: int, label_vectors: Embeddings | None
    ) -> AnnotationMatches:
        """Facts and rows matching the query; the total is exact."""
        vectors = as_matrix(label_vectors) if label_vectors is not None and len(label_vectors) else None
        return await self._read(lambda db: self._annotations.search(db, query, filters, limit, vectors), refresh=True)

    async def annotations_aggregate(
        self,
        query: AnnotationQuery,
        filters: SearchFilters,
        function: AggregateFunction,
        field: str | None,
        group_by: str | None,
        label_vectors: Embeddings | None,
    ) -> list[AggregateRow]:
        """count/sum/min/max/avg over every matching annotation, grouped."""
        vectors = as_matrix(label_vectors) if label_vectors is not None and len(label_vectors) else None
        return await self._read(
            lambda db: self._annotations.aggregate(db, query, filters, function, field, group_by, vectors),
            refresh=True,
        )

    async def stats(self, filters: SearchFilters) -> CollectionStats:
        """Documents per category and annotated documents, within the filters."""

        def count(db: sqlite3.Connection) -> CollectionStats:
            where, params = sql_filters(filters)
            rows = db.execute(
                f"SELECT coalesce(s.category, 'unknown'), count(DISTINCT s.doc_id) FROM segments s"
                f" WHERE s.kind = 'segment' {where} GROUP BY 1",
                params,
            ).fetchall()
            categories = {str(c): int(n) for c, n in rows}
            newest, oldest = db.execute(
                f"SELECT max(s.date), min(s.date) FROM segments s WHERE s.kind = 'segment' {where}", params
            ).fetchone() or (None, None)
            return CollectionStats(
                documents=sum(categories.values()),
                categories=categories,
                annotated_documents=self._annotations.annotated_documents(db, filters),
                newest=dt.date.fromisoformat(newest) if newest else None,
                oldest=dt.date.fromisoformat(oldest) if oldest else None,
            )

        return await self._read(count)

    async def segments_at(self, places: Sequence[tuple[str, int]]) -> list[Segment]:
        """The segments at these (document, position) places: one query by row values."""
        marks = ",".join("(?, ?)" for _ in places)
        sql = f"SELECT rowid FROM segments WHERE kind = 'segment' AND (doc_id, position) IN (VALUES {marks})"
        values = [value for place in places for value in place]

        def read(db: sqlite3.Connection) -> list[Segment]:
            return list(self._segments([int(r[0]) for r in db.execute(sql, values)]).values())

        return await self._read(read) if places else []

    async def health(self) -> ToolHealth:
        """Counts of documents and segments; ok when the file answers."""

        def counts(db: sqlite3.Connection) -> tuple[int, int]:
            row = db.execute("SELECT count(DISTINCT doc_id), count(*) FROM segments WHERE kind = 'segment'").fetchone()
            return int(row[0]), int(row[1])

        try:
            documents, segments = await self._read(counts)
        except sqlite3.Error as exc:
            return ToolHealth(backend=self.name, ok=False, detail=str(exc))
        return ToolHealth(
            backend=self.name,
            ok=True,
            detail="bm25s + exact vectors over sqlite",
            documents=documents,
            segments=segments,
        )

    async def close(self) -> None:
        """Close the database file; a process that wrote leaves the BM25 index saved for the next one."""
        rebuild = self._lexical.running()
        if rebuild is not None:
            await self._executor.run(rebuild.join)

        def finish() -> None:
            with self._lock:
                try:
                    if self._wrote:
                        self._refresh()
                except (sqlite3.Error, OSError):
                    log.exception("could not save the BM25 index on close; the next process builds it")
                finally:
                    self._db.close()

        await self._executor.run(finish)


def _vector(query_vector: Embeddings) -> np.ndarray:
    return as_matrix(query_vector).reshape(-1)
