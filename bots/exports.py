"""CSV exports of stored result sets: a file for the terminal, a signed expiring link when served."""

from __future__ import annotations

import asyncio
import csv
import io
import os
import secrets
from pathlib import Path
from typing import Any

from itsdangerous import BadSignature, TimestampSigner, URLSafeTimedSerializer

from core.contracts import TableResult
from core.ports import Clock, ResultSetStore

ALL_ROWS = 1_000_000
SECRET_FILE = "export-secret"


class ResultSetNotFoundError(LookupError):
    """No stored result set has this id."""


class InvalidExportTokenError(Exception):
    """An export token that was forged, altered or has expired."""


class _ClockSigner(TimestampSigner):
    """itsdangerous' timestamp signer on the injected clock, so expiry is testable without waiting."""

    def __init__(self, *args: Any, clock: Clock, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clock = clock

    def get_timestamp(self) -> int:
        return int(self._clock.now().timestamp())


class ExportLinks:
    """Links `<public url>/exports/<token>.csv` whose token signs one result set id and expires."""

    def __init__(self, *, secret: bytes, public_url: str, ttl_s: float, clock: Clock) -> None:
        self._serializer = URLSafeTimedSerializer(
            secret, salt="threadwise.export", signer=_ClockSigner, signer_kwargs={"clock": clock}
        )
        self._public_url = public_url.rstrip("/")
        self._ttl_s = ttl_s

    def link(self, result_set_id: str) -> str:
        """A link to the CSV of `result_set_id`, valid for the configured time."""
        return f"{self._public_url}/exports/{self._serializer.dumps(result_set_id)}.csv"

    def result_set_of(self, token: str) -> str:
        """The result set id a token was signed for; raises `InvalidExportTokenError` otherwise."""
        try:
            value = self._serializer.loads(token, max_age=int(self._ttl_s))
        except BadSignature as exc:  # SignatureExpired is one too
            raise InvalidExportTokenError(str(exc)) from None
        if not isinstance(value, str):
            raise InvalidExportTokenError("not an export token")
        return value


def export_secret(configured: str | None, data_dir: Path) -> bytes:
    """`THREADWISE_EXPORT_SECRET`, or a random secret made once in the data directory and kept there."""
    if configured:
        return configured.encode("utf-8")
    path = data_dir / SECRET_FILE
    data_dir.mkdir(parents=True, exist_ok=True)
    try:
        handle = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return path.read_bytes().strip()
    with os.fdopen(handle, "w", encoding="utf-8") as file:
        file.write(secrets.token_urlsafe(48))
    return path.read_bytes().strip()


class CsvExporter:
    """Writes `<data dir>/exports/<id>.csv`; with signed links, replies carry a link instead of a path."""

    def __init__(self, *, result_sets: ResultSetStore, folder: Path, links: ExportLinks | None = None) -> None:
        self._result_sets = result_sets
        self._folder = folder
        self._links = links

    async def csv_text(self, result_set_id: str) -> tuple[str, int]:
        """Every row of a result set as CSV text with its header, and the number of rows."""
        table = await self._table(result_set_id)
        return await asyncio.to_thread(_render, table), table.total

    async def write(self, result_set_id: str, target: Path) -> int:
        """Write every row of a result set to `target`; returns the number of rows."""
        text, total = await self.csv_text(result_set_id)

        def dump() -> None:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8", newline="")

        await asyncio.to_thread(dump)
        return total

    async def export(self, result_set_id: str) -> str:
        """Where the CSV of a result set is: a signed link (served from the database), or a written file's path."""
        if self._links is not None:
            await self._table(result_set_id, rows=1)
            return self._links.link(result_set_id)
        target = self._folder / f"{result_set_id}.csv"
        await self.write(result_set_id, target)
        return str(target.resolve())

    async def _table(self, result_set_id: str, rows: int = ALL_ROWS) -> TableResult:
        table = await self._result_sets.page(result_set_id, 0, rows)
        if table is None:
            raise ResultSetNotFoundError(f"no result set {result_set_id!r}")
        return table


def _render(table: TableResult) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(table.columns)
    writer.writerows(table.rows)
    return buffer.getvalue()
