"""Elasticsearch stops mid-conversation: the person is told plainly, and answers resume when it is back.

The product's Elasticsearch backend talks to a loopback cluster (`tests/es_product_server.py`)
that is stopped and started again on the same port; replies go through the Slack edge to a
loopback Slack Web API.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import aiohttp
import pytest
from aiohttp import web
from elasticsearch import AsyncElasticsearch

from adapters.search.elasticsearch import ElasticsearchBackend
from bots.edge import EdgeService
from bots.server import ServerState, create_web_app
from bots.slack.app import SlackEdge
from tests.es_product_server import ConversationElasticsearch
from tests.fakes import DIMENSION, HashingEmbedder, InMemoryConversations, fake_turn_service
from tests.servers import BOT_USER, SlackApiServer, slack_event, slack_signature_headers
from tests.unit.test_graph import CLOCK, World

SECRET = "secret"
THREAD = "1700000000.000100"


def _embed(text: str) -> list[float]:
    return [float(x) for x in HashingEmbedder().encode([text])[0]]


@pytest.fixture
async def slack_api() -> AsyncIterator[SlackApiServer]:
    server = await SlackApiServer().start()
    yield server
    await server.stop()


async def _say(url: str, ts: str, text: str) -> None:
    event = {"type": "app_mention", "user": "U1", "text": f"<@{BOT_USER}> {text}", "ts": ts, "channel": "C1"}
    if ts != THREAD:
        event["thread_ts"] = THREAD
    body = slack_event(event, f"Ev{ts}")
    async with (
        aiohttp.ClientSession() as session,
        session.post(url + "/slack/events", data=body, headers=slack_signature_headers(SECRET, body)) as response,
    ):
        assert response.status == 200


async def test_a_stopped_cluster_gets_a_plain_reply_and_answers_resume(slack_api: SlackApiServer) -> None:
    cluster = await ConversationElasticsearch(embed=_embed).start()
    backend = ElasticsearchBackend(client=AsyncElasticsearch(cluster.url), dimension=DIMENSION)
    await backend.ensure_indices()
    conversations = InMemoryConversations()
    service = fake_turn_service(World(backend).graph, clock=CLOCK, conversations=conversations)  # type: ignore[arg-type]
    state = ServerState(ready=True, detail="ready")
    state.slack = SlackEdge(
        edge=EdgeService(service=service, conversations=conversations),
        bot_token="xoxb-test",
        signing_secret=SECRET,
        api_url=slack_api.api_url,
    )
    state.edges_built.set()  # the edges accept requests
    runner = web.AppRunner(create_web_app(state))
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    url = f"http://127.0.0.1:{site._server.sockets[0].getsockname()[1]}"  # type: ignore[union-attr]
    try:
        await _say(url, THREAD, "How many weeks of parental leave do new parents get?")
        (answered,) = await slack_api.wait_for("chat.postMessage", 1, within=30)
        assert "20 weeks" in answered.body["text"]
        assert (await backend.health()).ok

        await cluster.stop()  # the cluster goes away mid-conversation
        health = await backend.health()
        assert not health.ok and "Connection" in health.detail
        await _say(url, "1700000000.000200", "And how long is annual leave?")
        posts = await slack_api.wait_for("chat.postMessage", 2, within=30)
        told = posts[1].body["text"]
        assert "can't reach the document search" in told and "slack:T0TEAM:C1:1700000000.000200" in told
        assert "Traceback" not in told and "ConnectionError" not in told

        cluster = ConversationElasticsearch(embed=_embed, port=cluster.port)
        cluster.aliases = {"threadwise-segments", "threadwise-annotations", "threadwise-labels"}
        await cluster.start()  # back on the same address
        assert (await backend.health()).ok
        await _say(url, "1700000000.000300", "And how long is annual leave?")
        posts = await slack_api.wait_for("chat.postMessage", 3, within=30)
        assert "27 days" in posts[2].body["text"]
        assert [p.body["thread_ts"] for p in posts] == [THREAD] * 3
    finally:
        await runner.cleanup()
        await backend.close()
        await cluster.stop()
