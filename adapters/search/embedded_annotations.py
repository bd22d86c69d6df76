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
        # Parsed once per index version: the planner probes the annotations several times a turn.
        self._all: list[Annotation] | None = None
        self._labels: tuple[list[str], np.ndarray | None] | None = None

    def invalidate(self) -> None:
        """Forget the parsed annotations and labels (a write happened here or elsewhere)."""
        self._all = None
        self._labels = None

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
        if self._labels is None:
            rows = db.execute("SELECT label, embedding FROM labels ORDER BY label").fetchall()
            matrix = (
                np.frombuffer(b"".join(r[1] for r in rows), dtype=np.float32).reshape(len(rows), self._dimension)
                if rows
                else None
            )
            self._labels = ([r[0] for r in rows], matrix)
        known, matrix = self._labels
        return match_query_labels(query, known, matrix, vectors)

    def _matching(
        self,
        db: sqlite3.Connection,
        query: AnnotationQuery,
        filters: SearchFilters,
        vectors: np.ndarray | None,
    ) -> tuple[list[Annotation], dict[str, set[str]]]:
        if self._all is None:
            rows = db.execute("SELECT body FROM annotations ORDER BY rowid")
            self._all = [Annotation.model_validate_json(r[0]) for r in rows]
        candidates = [a for a in self._all if _passes(a, filters)]
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


def _passes(annotation: Annotation, filters: SearchFilters) -> bool:
    """The filters of `sql_filters`, applied to a parsed annotation."""
    if filters.collections is not None and annotation.collection not in filters.collections:
        return False
    if filters.categories and annotation.category not in filters.categories:
        return False
    if filters.doc_ids is not None and annotation.doc_id not in filters.doc_ids:
        return False
    if filters.date_start is not None and (annotation.date is None or annotation.date < filters.date_start):
        return False
    return filters.date_end is None or (annotation.date is not None and annotation.date <= filters.date_end)
