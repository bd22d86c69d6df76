"""The Slack edge in-process against the loopback Web API: the agent view's assistant threads
(suggested prompts, title, status), a streamed answer, and a 429 honoured."""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import aiohttp
import pytest
from aiohttp import web

from adapters.loaders.markdown import MarkdownLoader
from bots.edge import EdgeService
from bots.server import ServerState, create_web_app
from bots.settings import SettingsError
from bots.slack import texts
from bots.slack.app import SlackEdge
from core.concurrency import CpuExecutor
from core.ingest.pipeline import Ingestor
from tests.fakes import HashingEmbedder, InMemoryRegistry, InMemorySearchBackend
from tests.servers import TEAM, SlackApiServer, slack_event, slack_signature_headers
from tests.unit.test_graph import CLOCK, DOCS, World

SECRET = "secret"
QUESTION = "How many weeks of parental leave does a new parent receive?"


@pytest.fixture(scope="module")
async def world(tmp_path_factory: pytest.TempPathFactory) -> World:
    folder: Path = tmp_path_factory.mktemp("corpus")
    for name, text in DOCS.items():
        (folder / name).write_text(text, encoding="utf-8")
    backend = InMemorySearchBackend()
    ingestor = Ingestor(
        loaders=[MarkdownLoader()],
        embedder=HashingEmbedder(),
        backend=backend,
        registry=InMemoryRegistry(),
        executor=CpuExecutor(max_workers=1),
        clock=CLOCK,
    )
    assert (await ingestor.ingest([folder])).ok
    return World(backend)


@pytest.fixture
async def slack_api() -> AsyncIterator[SlackApiServer]:
    server = await SlackApiServer().start()
    yield server
    await server.stop()


async def _serve(
    world: World, slack_api: SlackApiServer, *, stream: bool, signing_secret: str | None = SECRET, slots: int = 4
) -> tuple[web.AppRunner, str]:
    edge = EdgeService(service=world.service, conversations=world.service._conversations, max_concurrent=slots)
    state = ServerState(ready=True, detail="ready")
    state.slack = SlackEdge(
        edge=edge, bot_token="xoxb-test", signing_secret=signing_secret, api_url=slack_api.api_url, stream=stream
    )
    state.edges_built.set()  # the edges accept requests
    runner = web.AppRunner(create_web_app(state))
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    return runner, f"http://127.0.0.1:{site._server.sockets[0].getsockname()[1]}"  # type: ignore[union-attr]


async def _send(url: str, event: dict[str, Any], event_id: str) -> float:
    body = slack_event(event, event_id)
    started = time.monotonic()
    async with (
        aiohttp.ClientSession() as session,
        session.post(url + "/slack/events", data=body, headers=slack_signature_headers(SECRET, body)) as response,
    ):
        assert response.status == 200
    return time.monotonic() - started


def _dm(ts: str, text: str, thread_ts: str) -> dict[str, Any]:
    return {
        "type": "message",
        "user": "U1",
        "text": text,
        "ts": ts,
        "thread_ts": thread_ts,
        "channel": "D1",
        "channel_type": "im",
    }


async def test_an_assistant_thread_gets_prompts_a_title_a_status_and_a_streamed_answer(
    world: World, slack_api: SlackApiServer
) -> None:
    runner, url = await _serve(world, slack_api, stream=True)
    try:
        started = {
            "type": "assistant_thread_started",
            "assistant_thread": {"user_id": "U1", "channel_id": "D1", "thread_ts": "100.1", "context": {}},
            "event_ts": "100.2",
        }
        assert await _send(url, started, "EvA1") < 3.0
        prompts = (await slack_api.wait_for("assistant.threads.setSuggestedPrompts"))[0].body
        assert (prompts["channel_id"], prompts["thread_ts"]) == ("D1", "100.1")
        assert [p["message"] for p in prompts["prompts"]] == [p["message"] for p in texts.SUGGESTED_PROMPTS]

        await _send(url, _dm("100.3", QUESTION, "100.1"), "EvA2")
        stop = (await slack_api.wait_for("chat.stopStream"))[0].body
        start = slack_api.named("chat.startStream")[0].body
        assert (start["channel"], start["thread_ts"]) == ("D1", "100.1")
        assert (start["recipient_user_id"], start["recipient_team_id"]) == ("U1", TEAM)
        streamed = "".join(
            chunk["text"]
            for call in (start, *(c.body for c in slack_api.named("chat.appendStream")), stop)
            for chunk in call.get("chunks") or []
        )
        assert "20 weeks" in streamed and "[1]" in streamed
        assert {b["type"] for b in stop["blocks"]} >= {"context", "context_actions"}
        title = slack_api.named("assistant.threads.setTitle")[0].body
        assert (title["thread_ts"], title["title"]) == ("100.1", QUESTION)
        statuses = await slack_api.wait_for("assistant.threads.setStatus", count=2)
        assert statuses[0].body["loading_messages"] == texts.LOADING_MESSAGES and statuses[0].body["status"]
        assert statuses[-1].body["status"] == ""
        order = [c.method for c in slack_api.calls]
        assert order.index("assistant.threads.setStatus") < order.index("chat.startStream")
        assert len(order) - 1 - order[::-1].index("assistant.threads.setStatus") > order.index("chat.stopStream")
        assert not slack_api.named("chat.postMessage") and not slack_api.named("reactions.add")

        # A second question in the same thread: answered again, but the title stays the first question's.
        await _send(url, _dm("100.4", "How can the weeks be split?", "100.1"), "EvA3")
        await slack_api.wait_for("chat.stopStream", count=2)
        assert len(slack_api.named("assistant.threads.setTitle")) == 1
    finally:
        await runner.cleanup()


async def test_a_rate_limited_post_is_retried_after_its_retry_after(world: World, slack_api: SlackApiServer) -> None:
    runner, url = await _serve(world, slack_api, stream=False)
    slack_api.rate_limited["chat.postMessage"] = 1
    try:
        event = {"type": "app_mention", "user": "U1", "text": f"<@UBOT> {QUESTION}", "ts": "200.1", "channel": "C1"}
        await _send(url, event, "EvR1")
        posts = await slack_api.wait_for("chat.postMessage", count=2, within=30)
        assert len(posts) == 2 and posts[0].body == posts[1].body
        assert "20 weeks" in json.dumps(posts[1].body["blocks"])
        assert slack_api.rate_limited["chat.postMessage"] == 0
    finally:
        await runner.cleanup()


async def test_a_refused_stream_falls_back_to_posting_the_blocks(world: World, slack_api: SlackApiServer) -> None:
    runner, url = await _serve(world, slack_api, stream=True)
    slack_api.refused["chat.startStream"] = "streaming_not_allowed"
    try:
        event = {"type": "app_mention", "user": "U1", "text": f"<@UBOT> {QUESTION}", "ts": "300.1", "channel": "C1"}
        await _send(url, event, "EvS1")
        post = (await slack_api.wait_for("chat.postMessage"))[0].body
        assert post["thread_ts"] == "300.1" and "20 weeks" in json.dumps(post["blocks"])
        assert len(slack_api.named("chat.startStream")) == 1 and not slack_api.named("chat.stopStream")
    finally:
        await runner.cleanup()


async def test_without_a_signing_secret_http_events_are_refused(world: World, slack_api: SlackApiServer) -> None:
    # Socket Mode only (SLACK_APP_TOKEN without SLACK_SIGNING_SECRET): nothing unsigned gets in over HTTP.
    runner, url = await _serve(world, slack_api, stream=False, signing_secret=None)
    try:
        event = {"type": "app_mention", "user": "U1", "text": f"<@UBOT> {QUESTION}", "ts": "400.1", "channel": "C1"}
        body = slack_event(event, "EvU1")
        async with aiohttp.ClientSession() as session, session.post(url + "/slack/events", data=body) as response:
            assert response.status == 404
        assert slack_api.calls == []
    finally:
        await runner.cleanup()


async def test_a_refused_app_token_stops_socket_mode_with_a_message_naming_it(
    world: World, slack_api: SlackApiServer
) -> None:
    edge = EdgeService(service=world.service, conversations=world.service._conversations)
    slack = SlackEdge(edge=edge, bot_token="xoxb-test", signing_secret=None, api_url=slack_api.api_url)
    with pytest.raises(SettingsError, match="SLACK_APP_TOKEN"):
        await slack.connect_socket_mode("xoxb-not-an-app-token")
    await slack.close()
    assert [c.method for c in slack_api.calls] == ["apps.connections.open"]


async def test_exporting_a_table_that_is_gone_says_so_in_the_thread(world: World, slack_api: SlackApiServer) -> None:
    runner, url = await _serve(world, slack_api, stream=False)
    click = {
        "type": "block_actions",
        "user": {"id": "U1", "team_id": TEAM},
        "team": {"id": TEAM},
        "channel": {"id": "C1"},
        "container": {"type": "message", "message_ts": "500.2", "channel_id": "C1"},
        "message": {"ts": "500.2", "thread_ts": "500.1"},
        "actions": [{"type": "button", "action_id": "threadwise_export_csv", "value": "gone", "action_ts": "500.3"}],
    }
    body = urlencode({"payload": json.dumps(click)})
    headers = {**slack_signature_headers(SECRET, body), "Content-Type": "application/x-www-form-urlencoded"}
    try:
        async with (
            aiohttp.ClientSession() as session,
            session.post(url + "/slack/events", data=body, headers=headers) as response,
        ):
            assert response.status == 200
        post = (await slack_api.wait_for("chat.postMessage"))[0].body
        assert (post["thread_ts"], post["text"]) == ("500.1", texts.EXPORT_GONE)
        assert not slack_api.named("files.getUploadURLExternal")
    finally:
        await runner.cleanup()


async def test_a_queued_question_is_told_its_place_then_answered(world: World, slack_api: SlackApiServer) -> None:
    runner, url = await _serve(world, slack_api, stream=False, slots=1)
    slack_api.delayed["reactions.add"] = 2.0  # the first turn holds the only slot while its progress shows
    try:
        for ts in ("600.1", "600.2"):
            event = {"type": "app_mention", "user": "U1", "text": f"<@UBOT> {QUESTION}", "ts": ts, "channel": "C1"}
            await _send(url, event, f"Ev{ts}")
            await slack_api.wait_for("reactions.add")  # the first turn has its slot before the second arrives
        posts = await slack_api.wait_for("chat.postMessage", count=3)
        notice = next(p.body for p in posts if "blocks" not in p.body)
        assert notice["thread_ts"] == "600.2" and "1st in line" in notice["text"]
        answered = [p.body["thread_ts"] for p in posts if "blocks" in p.body]
        assert sorted(answered) == ["600.1", "600.2"]
    finally:
        await runner.cleanup()
