"""A turn that fails inside the core still ends in a posted reply (never silence)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
from aiohttp import web

from bots.edge import EdgeService
from bots.server import ServerState, create_web_app
from bots.slack.app import SlackEdge
from tests.fakes import (
    InMemoryConversations,
    InMemorySearchBackend,
    fake_turn_service,
)
from tests.servers import BOT_USER, SlackApiServer, slack_event, slack_signature_headers
from tests.unit.test_graph import CLOCK, World

SECRET = "secret"


class BrokenConversations(InMemoryConversations):
    """Storage that fails when a turn opens its conversation."""

    async def open(self, key: Any, now: Any) -> Any:
        raise ConnectionError("database is down")


@pytest.fixture
async def slack_api() -> AsyncIterator[SlackApiServer]:
    server = await SlackApiServer().start()
    yield server
    await server.stop()


async def _serve(edge: EdgeService, slack_api: SlackApiServer) -> tuple[web.AppRunner, str]:
    state = ServerState(ready=True, detail="ready")
    state.slack = SlackEdge(edge=edge, bot_token="xoxb-test", signing_secret=SECRET, api_url=slack_api.api_url)
    state.edges_built.set()  # the edges accept requests
    runner = web.AppRunner(create_web_app(state))
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    return runner, f"http://127.0.0.1:{site._server.sockets[0].getsockname()[1]}"  # type: ignore[union-attr]


async def _mention(url: str, ts: str) -> None:
    event = {
        "type": "app_mention",
        "user": "U1",
        "text": f"<@{BOT_USER}> What is the hotel limit?",
        "ts": ts,
        "channel": "C1",
    }
    body = slack_event(event, f"Ev{ts}")
    async with (
        aiohttp.ClientSession() as session,
        session.post(url + "/slack/events", data=body, headers=slack_signature_headers(SECRET, body)) as response,
    ):
        assert response.status == 200


@pytest.mark.parametrize("failure", ["search backend", "conversation store"])
async def test_a_failing_turn_posts_an_apology_with_a_reference(slack_api: SlackApiServer, failure: str) -> None:
    backend = InMemorySearchBackend()
    conversations = BrokenConversations() if failure == "conversation store" else InMemoryConversations()
    if failure == "search backend":
        backend.fail_with = TimeoutError("search timed out")
    service = fake_turn_service(World(backend).graph, clock=CLOCK, conversations=conversations)
    edge = EdgeService(service=service, conversations=conversations)
    runner, url = await _serve(edge, slack_api)
    try:
        await _mention(url, "1700000000.000500")
        posts = await slack_api.wait_for("chat.postMessage", within=20)
        text = posts[0].body["text"]
        assert "something went wrong" in text and "slack:T0TEAM:C1:1700000000.000500" in text
        assert posts[0].body["thread_ts"] == "1700000000.000500"
    finally:
        await runner.cleanup()
