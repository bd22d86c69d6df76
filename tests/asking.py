"""Asking the built product a question as the CLI does, for integration tests."""

from __future__ import annotations

import datetime as dt
import uuid

from bots.bootstrap import App
from core.contracts import OrchestrationResult, Turn


async def ask(app: App, text: str, *, now: dt.datetime, thread: str | None = None) -> OrchestrationResult:
    """One CLI turn through the app's `TurnService`; its result (every turn has one)."""
    turn = Turn(
        platform="cli",
        tenant="test",
        channel_key="cli",
        thread=thread or uuid.uuid4().hex,
        user="U1",
        message_key=f"cli:{uuid.uuid4()}",
        text=text,
        received_at=now,
    )
    answer = await app.service.answer(turn)
    assert answer.result is not None
    return answer.result
