"""Annotation storage and matching of the embedded backend (called under the backend's lock)."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

import numpy as np

from adapters.annotations.matching import aggregate, match_query_labels, select
from adapters.annotations.units import UnitNormalizer
from adapters.search.embedded_sql import sql_filters
from core.contracts import SearchFilters
from core.knowledge import AggregateFunction, AggregateRow, Annotation, AnnotationMatches, AnnotationQuery
from core.text import normalize_label


class AnnotationIndex:
    """Annotations as JSON rows beside their filter columns; label embeddings in `labels`."""

    def __init__(self, *, units: UnitNormalizer, dimension: int) -> None:
        self._units = units
        self._dimension = dimension

    def write(self, db: sqlite3.Connection, doc_id: str, annotations: Sequence[Annotation]) -> None:
        """Replace a document's annotations (inside the caller's transaction)."""
        db.execute("DELETE FROM annotations WHERE doc_id = ?", (doc_id,))
        db.executemany(
            "INSERT INTO annotations (annotation_id, doc_id, collection, category, date, body) VALUES (?,?,?,?,?,?)",
            [
                (
                    a.annotation_id,
                    a.doc_id,
                    a.collection,
                    a.category,
                    a.date.isoformat() if a.date else None,
                    a.model_dump_json(),
                )
                for a in annotations
            ],
        )

    def known_labels(self, db: sqlite3.Connection) -> list[str]:
        """Labels that already have an embedding."""
        return [row[0] for row in db.execute("SELECT label FROM labels ORDER BY label")]

    def write_labels(self, db: sqlite3.Connection, labels: Sequence[str], matrix: np.ndarray) -> None:
        """Store label embeddings (normalised labels)."""
        db.executemany(
            "INSERT OR REPLACE INTO labels (label, embedding) VALUES (?, ?)",
            [(normalize_label(label), matrix[i].tobytes()) for i, label in enumerate(labels)],
        )

    def _label_matches(
        self, db: sqlite3.Connection, query: AnnotationQuery, vectors: np.ndarray | None
    ) -> dict[str, set[str]]:
        rows = db.execute("SELECT label, embedding FROM labels ORDER BY label").fetchall()
        known = [r[0] for r in rows]
        matrix = (
            np.frombuffer(b"".join(r[1] for r in rows), dtype=np.float32).reshape(len(rows), self._dimension)
            if rows
            else None
        )
        return match_query_labels(query, known, matrix, vectors)

    def _matching(
        self,
        db: sqlite3.Connection,
        query: AnnotationQuery,
        filters: SearchFilters,
        vectors: np.ndarray | None,
    ) -> tuple[list[Annotation], dict[str, set[str]]]:
        where, params = sql_filters(filters, alias="a")
        rows = db.execute(f"SELECT a.body FROM annotations a WHERE 1 = 1 {where} ORDER BY a.rowid", params)
        candidates = [Annotation.model_validate_json(r[0]) for r in rows]
        labels = self._label_matches(db, query, vectors)
        return select(candidates, query, labels, self._units), labels

    def search(
        self,
        db: sqlite3.Connection,
        query: AnnotationQuery,
        filters: SearchFilters,
        limit: int,
        vectors: np.ndarray | None,
    ) -> AnnotationMatches:
        """Every matching annotation counted; the first `limit` returned (newest first for rows)."""
        matches, labels = self._matching(db, query, filters, vectors)
        ordered = sorted(matches, key=lambda a: a.date.toordinal() if a.date else 0, reverse=True)
        return AnnotationMatches(
            annotations=ordered[:limit],
            total=len(matches),
            matched_labels=sorted(set().union(*labels.values())),
        )

    def aggregate(
        self,
        db: sqlite3.Connection,
        query: AnnotationQuery,
        filters: SearchFilters,
        function: AggregateFunction,
        field: str | None,
        group_by: str | None,
        vectors: np.ndarray | None,
    ) -> list[AggregateRow]:
        """An exact aggregate over every matching annotation."""
        matches, _ = self._matching(db, query, filters, vectors)
        return aggregate(matches, function, field, group_by)

    def annotated_documents(self, db: sqlite3.Connection, filters: SearchFilters) -> int:
        """Documents with at least one annotation, within the filters."""
        where, params = sql_filters(filters, alias="a")
        return int(
            db.execute(f"SELECT count(DISTINCT a.doc_id) FROM annotations a WHERE 1 = 1 {where}", params).fetchone()[0]
        )
