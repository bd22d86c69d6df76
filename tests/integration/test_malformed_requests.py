"""Malformed platform requests to the served app get a 4xx with a short reason, never a 500 or a
traceback, and the app keeps answering well-formed ones (issue 22). Slack requests are signed with
the real secret, so they pass verification and reach parsing; Teams runs without an app id (the
SDK's local mode, no token needed)."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import aiohttp
import pytest
from aiohttp import web

from bots.edge import EdgeService
from bots.server import ServerState, build_metrics, create_web_app
from bots.slack.app import SlackEdge
from bots.teams.bot import TeamsEdge
from core.concurrency import CpuExecutor
from core.llm.gateway import LlmGateway
from tests.fakes import InMemorySearchBackend
from tests.llm_fakes import scripted_models
from tests.servers import BOT_USER, SlackApiServer, slack_event, slack_signature_headers
from tests.unit.test_graph import sample_world

SECRET = "secret"


@dataclass
class Served:
    url: str
    edge: EdgeService
    slack: SlackApiServer


@pytest.fixture(scope="module")
async def served(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Served]:
    backend = InMemorySearchBackend()
    executor = CpuExecutor(max_workers=1)
    world = await sample_world(tmp_path_factory.mktemp("corpus"), backend, executor, LlmGateway(scripted_models()))
    slack = await SlackApiServer().start()
    metrics = build_metrics()
    edge = EdgeService(service=world.service, conversations=world.service._conversations, metrics=metrics)  # type: ignore[attr-defined]
    state = ServerState(ready=True, detail="ready", metrics=metrics)
    state.slack = SlackEdge(edge=edge, bot_token="xoxb-test", signing_secret=SECRET, api_url=slack.api_url)
    state.teams = TeamsEdge(edge=edge, app_id=None, app_password=None, app_type="MultiTenant", tenant_id=None)
    state.edges_built.set()  # the edges accept requests
    runner = web.AppRunner(create_web_app(state))
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    url = f"http://127.0.0.1:{site._server.sockets[0].getsockname()[1]}"  # type: ignore[union-attr]
    yield Served(url=url, edge=edge, slack=slack)
    await runner.cleanup()
    await slack.stop()
    executor.shutdown()


async def _post(url: str, body: str, headers: dict[str, str]) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session, session.post(url, data=body, headers=headers) as response:
        return response.status, await response.text()


def _signed(body: str, content_type: str = "application/json") -> dict[str, str]:
    return slack_signature_headers(SECRET, body) | {"Content-Type": content_type}


SLACK_MALFORMED = {
    "a signed body that is not JSON": ("{not json", "application/json"),
    "a signed interactivity payload that is not JSON": ("payload=%7Bnot+json", "application/x-www-form-urlencoded"),
    "a signed JSON body that is not an object": ("[1, 2, 3]", "application/json"),
}

TEAMS_MALFORMED: dict[str, Any] = {
    "a body that is not JSON": "{not json",
    "a JSON array": [1, 2],
    "fields of the wrong types": {
        "type": 5,
        "id": ["x"],
        "text": {"a": 1},
        "from": "someone",
        "conversation": "19:abc",
        "recipient": 7,
        "serviceUrl": ["http://x"],
        "channelId": {"msteams": True},
        "entities": "none",
    },
    "a message whose conversation is a string": {
        "type": "message",
        "id": "m1",
        "text": "hello",
        "from": {"id": "u1"},
        "conversation": "19:abc",
        "recipient": {"id": "b1"},
        "serviceUrl": "http://127.0.0.1:9/",
        "channelId": "msteams",
    },
}


@pytest.mark.parametrize("case", sorted(SLACK_MALFORMED))
async def test_a_malformed_slack_request_gets_400_without_a_traceback(
    served: Served, case: str, caplog: pytest.LogCaptureFixture
) -> None:
    body, content_type = SLACK_MALFORMED[case]
    with caplog.at_level(logging.WARNING):
        status, text = await _post(served.url + "/slack/events", body, _signed(body, content_type))
    assert status == 400, (status, text)
    assert text and "Traceback" not in text
    assert not [r for r in caplog.records if r.exc_info], "a traceback was logged"


@pytest.mark.parametrize("case", sorted(TEAMS_MALFORMED))
async def test_a_malformed_teams_activity_gets_400_without_a_traceback(
    served: Served, case: str, caplog: pytest.LogCaptureFixture
) -> None:
    sent = TEAMS_MALFORMED[case]
    body = sent if isinstance(sent, str) else json.dumps(sent)
    with caplog.at_level(logging.WARNING):
        status, text = await _post(served.url + "/api/messages", body, {"Content-Type": "application/json"})
    assert status == 400, (status, text)
    assert text and "Traceback" not in text
    assert not [r for r in caplog.records if r.exc_info], "a traceback was logged"


async def test_after_the_malformed_requests_a_mention_is_still_answered(served: Served) -> None:
    body = slack_event(
        {
            "type": "app_mention",
            "user": "U1",
            "text": f"<@{BOT_USER}> How many weeks of parental leave?",
            "ts": f"{time.time():.6f}",
            "channel": "C1",
        },
        "EvAfterMalformed",
    )
    status, _ = await _post(served.url + "/slack/events", body, _signed(body))
    assert status == 200
    await served.slack.wait_for("chat.postMessage", count=1, within=30)
