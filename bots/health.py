"""Readiness: the database, the search backend and the model, each checked live with a short timeout."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from pydantic import BaseModel, Field
from sqlalchemy import text

from storage.database import Database

Check = Callable[[], Awaitable[dict[str, Any]]]
"""One dependency's check: returns details when it answers, raises when it does not."""


class PartStatus(BaseModel):
    """How one dependency answered."""

    ok: bool
    took_ms: float
    detail: dict[str, Any] = Field(default_factory=dict)
    error: str | None = None


class ReadinessReport(BaseModel):
    """Every dependency's status; `failing` names the parts that did not answer in time or failed."""

    ready: bool
    failing: list[str]
    checks: dict[str, PartStatus]


class Readiness:
    """Runs every check concurrently, each bounded by `timeout_s`, on each request (nothing cached)."""

    def __init__(self, *, checks: Mapping[str, Check], timeout_s: float = 2.0) -> None:
        self._checks = dict(checks)
        self._timeout_s = timeout_s

    async def report(self) -> ReadinessReport:
        """Check every part now."""
        names = list(self._checks)
        statuses = await asyncio.gather(*(self._run(self._checks[name]) for name in names))
        checks = dict(zip(names, statuses, strict=True))
        failing = [name for name, status in checks.items() if not status.ok]
        return ReadinessReport(ready=not failing, failing=failing, checks=checks)

    async def _run(self, check: Check) -> PartStatus:
        started = time.perf_counter()
        try:
            detail = await asyncio.wait_for(check(), self._timeout_s)
        except TimeoutError:
            error = f"no answer within {self._timeout_s:g} s"
            return PartStatus(ok=False, took_ms=_since(started), error=error)
        except Exception as exc:  # any failure of a dependency is a failing part, never a 500
            return PartStatus(ok=False, took_ms=_since(started), error=f"{type(exc).__name__}: {exc}")
        ok = bool(detail.pop("ok", True))
        return PartStatus(ok=ok, took_ms=_since(started), detail=detail, error=None if ok else "not ok")


def database_check(database: Database) -> Check:
    """`SELECT 1` on a pooled connection."""

    async def check() -> dict[str, Any]:
        async with database.engine.connect() as connection:
            await connection.execute(text("SELECT 1"))
        return {"url": database.url.render_as_string(hide_password=True)}

    return check


def search_backend_check(health: Callable[[], Awaitable[Any]]) -> Check:
    """The backend's own health call (a `ToolHealth`)."""

    async def check() -> dict[str, Any]:
        status = await health()
        return dict(status.model_dump())

    return check


def model_check(model_name: str, loaded: Callable[[], object]) -> Check:
    """The embedding model is loaded (`loaded` raises when it is not)."""

    async def check() -> dict[str, Any]:
        loaded()
        return {"name": model_name}

    return check


def _since(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 3)
