"""The in-memory vector matrix of the embedded backend, with the filter columns beside it."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

import numpy as np

from core.contracts import SearchFilters

MASKS_KEPT = 64


class VectorIndex:
    """Exact cosine search over unit vectors, with the filter columns beside them."""

    def __init__(self, *, dimension: int) -> None:
        self.dimension = dimension
        self.rowids = np.zeros(0, dtype=np.int64)
        self.matrix = np.zeros((0, dimension), dtype=np.float32)
        self.collections = np.zeros(0, dtype=object)
        self.categories = np.zeros(0, dtype=object)
        self.kinds = np.zeros(0, dtype=object)
        self.doc_ids = np.zeros(0, dtype=object)
        self.dates = np.zeros(0, dtype=np.int64)
        self._masks: dict[tuple[str, str], np.ndarray] = {}

    def load(self, rows: Iterable[tuple[int, str, str | None, str | None, str, str, bytes]]) -> None:
        """Replace the index with (rowid, collection, category, iso date, kind, doc id, embedding) rows."""
        rowids, collections, categories, dates, kinds, doc_ids, blobs = [], [], [], [], [], [], []
        for rowid, collection, category, date, kind, doc_id, blob in rows:
            rowids.append(rowid)
            collections.append(collection)
            categories.append(category)
            dates.append(dt.date.fromisoformat(date).toordinal() if date else -1)
            kinds.append(kind)
            doc_ids.append(doc_id)
            blobs.append(blob)
        self.rowids = np.asarray(rowids, dtype=np.int64)
        self.collections = np.asarray(collections, dtype=object)
        self.categories = np.asarray(categories, dtype=object)
        self.kinds = np.asarray(kinds, dtype=object)
        self.doc_ids = np.asarray(doc_ids, dtype=object)
        self.dates = np.asarray(dates, dtype=np.int64)
        self._masks = {}
        if blobs:
            self.matrix = np.frombuffer(b"".join(blobs), dtype=np.float32).reshape(len(blobs), self.dimension)
        else:
            self.matrix = np.zeros((0, self.dimension), dtype=np.float32)

    def _mask(self, filters: SearchFilters, kind: str) -> np.ndarray:
        """Rows of `kind` passing the filters; kept until the next load (both legs and repeated scopes share it)."""
        key = (filters.model_dump_json(), kind)
        mask = self._masks.get(key)
        if mask is None:
            if len(self._masks) >= MASKS_KEPT:
                self._masks.clear()
            mask = self._masks[key] = self._compute_mask(filters, kind)
        return mask

    def _compute_mask(self, filters: SearchFilters, kind: str) -> np.ndarray:
        mask: np.ndarray = np.asarray(self.kinds == kind)

        def both(m: np.ndarray) -> np.ndarray:
            return np.asarray(mask & m)

        if filters.doc_ids is not None:
            mask = both(np.isin(self.doc_ids, filters.doc_ids))
        if filters.collections is not None:
            mask = both(np.isin(self.collections, filters.collections))
        if filters.categories:
            mask = both(np.isin(self.categories, filters.categories))
        if filters.date_start is not None:
            mask = both(self.dates >= filters.date_start.toordinal())
        if filters.date_end is not None:
            mask = both((self.dates <= filters.date_end.toordinal()) & (self.dates >= 0))
        return mask

    def search(
        self, vector: np.ndarray, filters: SearchFilters, limit: int, kind: str = "segment"
    ) -> list[tuple[int, float]]:
        """The `limit` nearest rows of `kind` that pass the filters, as (rowid, cosine), best first."""
        if not len(self.rowids) or limit <= 0:
            return []
        return self.top(self.matrix @ vector, filters, limit, kind)

    def top(
        self, scores: np.ndarray, filters: SearchFilters, limit: int, kind: str = "segment", floor: float = -np.inf
    ) -> list[tuple[int, float]]:
        """The `limit` best rows of `kind` that pass the filters and score above `floor`, as (rowid, score)."""
        if not len(self.rowids) or limit <= 0:
            return []
        scores = np.where(self._mask(filters, kind) & (scores > floor), scores, -np.inf)
        k = min(limit, len(scores))
        top = np.argpartition(-scores, k - 1)[:k]
        top = top[np.argsort(-scores[top], kind="stable")]
        return [(int(self.rowids[i]), float(scores[i])) for i in top if np.isfinite(scores[i])]

    def positions(self) -> dict[int, int]:
        """rowid → row of the matrix."""
        return {int(rowid): i for i, rowid in enumerate(self.rowids)}

    def cosines(self, vector: np.ndarray, rowids: list[int]) -> list[float]:
        """The cosine of `vector` with each of these rows (0 for a row not loaded)."""
        if not rowids:
            return []
        positions = np.searchsorted(self.rowids, rowids)
        out: list[float] = []
        for rowid, pos in zip(rowids, positions, strict=True):
            if pos < len(self.rowids) and self.rowids[pos] == rowid:
                out.append(float(self.matrix[pos] @ vector))
            else:
                out.append(0.0)
        return out
