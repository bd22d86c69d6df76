"""Clocks: the real one, and a fixed one for tests and reproducible evaluation."""

from __future__ import annotations

from datetime import UTC, datetime


class SystemClock:
    """The wall clock, in UTC."""

    def now(self) -> datetime:
        """The current time, timezone-aware."""
        return datetime.now(UTC)


class FixedClock:
    """A clock that always says the same time (relative dates become testable)."""

    def __init__(self, *, at: datetime) -> None:
        self._at = at if at.tzinfo else at.replace(tzinfo=UTC)

    def now(self) -> datetime:
        """The fixed time."""
        return self._at
