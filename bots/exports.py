"""CSV exports of stored result sets: a file in the data directory, linked when served."""

from __future__ import annotations

import asyncio
import csv
from pathlib import Path

from core.ports import ResultSetStore

ALL_ROWS = 1_000_000


class ResultSetNotFoundError(LookupError):
    """No stored result set has this id."""


class CsvExporter:
    """Writes `<data dir>/exports/<id>.csv`; with a public URL, replies carry a link instead of a path."""

    def __init__(self, *, result_sets: ResultSetStore, folder: Path, public_url: str | None = None) -> None:
        self._result_sets = result_sets
        self._folder = folder
        self._public_url = public_url.rstrip("/") if public_url else None

    async def write(self, result_set_id: str, target: Path) -> int:
        """Write every row of a result set to `target`; returns the number of rows."""
        table = await self._result_sets.page(result_set_id, 0, ALL_ROWS)
        if table is None:
            raise ResultSetNotFoundError(f"no result set {result_set_id!r}")

        def dump() -> None:
            target.parent.mkdir(parents=True, exist_ok=True)
            with target.open("w", newline="", encoding="utf-8") as handle:
                writer = csv.writer(handle)
                writer.writerow(table.columns)
                writer.writerows(table.rows)

        await asyncio.to_thread(dump)
        return table.total

    async def export(self, result_set_id: str) -> str:
        """Where the CSV of a result set is: a path, or a link under `THREADWISE_PUBLIC_URL`."""
        target = self._folder / f"{result_set_id}.csv"
        await self.write(result_set_id, target)
        if self._public_url:
            return f"{self._public_url}/exports/{result_set_id}.csv"
        return str(target.resolve())
