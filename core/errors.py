"""Errors the core raises on purpose."""

from __future__ import annotations


class GuardrailsViolationError(Exception):
    """A message the bot must not act on (prompt injection, …); ends in a safe reply."""

    def __init__(self, *, stage: str, reason: str, safe_reply: str) -> None:
        super().__init__(f"{stage}: {reason}")
        self.stage = stage
        self.reason = reason
        self.safe_reply = safe_reply


class SearchUnavailableError(ConnectionError):
    """The search backend cannot be reached (a cluster down or restarting); the person is told so."""
