"""Asking the built product a question as the CLI does, for integration tests."""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest

from bots.bootstrap import App, build_app
from bots.settings import Settings
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


@asynccontextmanager
async def app_with_document(
    tmp_path_factory: pytest.TempPathFactory, name: str, text: str, *, now: dt.datetime
) -> AsyncIterator[App]:
    """The built product (embedded defaults, fixed clock `now`) with one written document ingested
    as `name`, closed on exit; the ingest must add it."""
    folder = tmp_path_factory.mktemp("docs")
    (folder / name).write_text(text, encoding="utf-8")
    application = await build_app(Settings(data_dir=tmp_path_factory.mktemp("data"), fixed_now=now))
    try:
        report = await application.ingestor.ingest([folder])
        assert report.ok and len(report.added) == 1
        yield application
    finally:
        await application.close()
