"""Fixtures shared by the integration tests."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.llm_server import ChatCompletionsServer


@pytest.fixture
async def server() -> AsyncIterator[ChatCompletionsServer]:
    """A scripted OpenAI-compatible chat-completions server on loopback (script it per test)."""
    chat = await ChatCompletionsServer().start()
    yield chat
    await chat.stop()
