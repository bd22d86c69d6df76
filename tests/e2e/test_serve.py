"""`threadwise serve` as a subprocess, against a local Slack Web API and Bot Framework connector."""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path

import aiohttp
import pytest

from tests.conftest import SAMPLE_CORPUS
from tests.environment import product_env
from tests.serve_process import free_port, start_serve, wait_ready
from tests.servers import (
    BOT_USER,
    BotConnectorServer,
    SlackApiServer,
    slack_event,
    slack_signature_headers,
    teams_activity,
)

pytestmark = pytest.mark.e2e
SECRET = "test-signing-secret"
CHANNEL = "C0GENERAL"
QUESTION = "How many weeks of parental leave do new parents get?"


@dataclass
class Served:
    """A running `threadwise serve` and the fake platforms it talks to."""

    url: str
    slack: SlackApiServer
    connector: BotConnectorServer
    secured_url: str


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    folder = tmp_path_factory.mktemp("serve")
    env = {**product_env(), "THREADWISE_DATA_DIR": str(folder / "data")}
    done = subprocess.run(
        ["threadwise", "ingest", str(SAMPLE_CORPUS)], env=env, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    return folder


@pytest.fixture(scope="module")
async def served(data_dir: Path) -> AsyncIterator[Served]:
    slack = await SlackApiServer().start()
    connector = await BotConnectorServer().start()
    port, secured_port = free_port(), free_port()
    env = {
        **product_env(),
        "THREADWISE_DATA_DIR": str(data_dir / "data"),
        "SLACK_BOT_TOKEN": "xoxb-test-token",
        "SLACK_SIGNING_SECRET": SECRET,
        "THREADWISE_SLACK_API_URL": slack.api_url,
        "THREADWISE_PUBLIC_URL": f"http://127.0.0.1:{port}",
    }
    # A second server with a Teams app id: authentication enforced (own data dir, nothing ingested).
    secured_env = {
        **product_env(),
        "THREADWISE_DATA_DIR": str(data_dir / "secured"),
        "MicrosoftAppId": "00000000-aaaa-bbbb-cccc-000000000001",
        "MicrosoftAppPassword": "not-a-real-secret",
    }
    logs = data_dir / "serve.log", data_dir / "secured.log"
    processes = [start_serve(env, port, logs[0]), start_serve(secured_env, secured_port, logs[1])]
    try:
        url, secured_url = f"http://127.0.0.1:{port}", f"http://127.0.0.1:{secured_port}"
        await wait_ready(url, processes[0], logs[0])
        await wait_ready(secured_url, processes[1], logs[1])
        yield Served(url=url, slack=slack, connector=connector, secured_url=secured_url)
    finally:
        for process in processes:
            process.terminate()
            process.wait(timeout=60)
        await slack.stop()
        await connector.stop()


async def _post_slack(served: Served, body: str, *, headers: dict[str, str] | None = None) -> tuple[int, float]:
    started = time.monotonic()
    async with (
        aiohttp.ClientSession() as session,
        session.post(
            served.url + "/slack/events", data=body, headers=headers or slack_signature_headers(SECRET, body)
        ) as response,
    ):
        await response.read()
        return response.status, time.monotonic() - started


def _mention(ts: str, text: str = QUESTION, **extra: str) -> dict[str, str]:
    return {
        "type": "app_mention",
        "user": "U0ADA",
        "text": f"<@{BOT_USER}> {text}",
        "ts": ts,
        "channel": CHANNEL,
        "event_ts": ts,
        **extra,
    }


async def _settle(seconds: float = 4.0) -> None:
    await asyncio.sleep(seconds)


async def test_slack_mention_is_acked_fast_and_answered_in_its_thread_once(served: Served) -> None:
    ts = "1763715600.000100"
    status, took = await _post_slack(served, slack_event(_mention(ts), "Ev001"))
    assert status == 200 and took < 3.0
    posts = await served.slack.wait_for("chat.postMessage")
    reply = posts[-1].body
    assert reply["channel"] == CHANNEL and reply["thread_ts"] == ts
    assert "20 weeks" in reply["text"] and "[1]" in reply["text"]
    assert "*Sources*" in [e.get("text") for b in reply["blocks"] if b["type"] == "context" for e in b["elements"]]
    # Progress shown while working: a reaction added and removed on the asker's message.
    assert [c.body["timestamp"] for c in served.slack.named("reactions.add")][-1] == ts
    await served.slack.wait_for("reactions.remove")

    # The same mention again: a Slack retry, and the `message` copy every @mention also produces.
    retry_headers = {
        **slack_signature_headers(SECRET, slack_event(_mention(ts), "Ev001")),
        "X-Slack-Retry-Num": "1",
        "X-Slack-Retry-Reason": "http_timeout",
    }
    status, _ = await _post_slack(served, slack_event(_mention(ts), "Ev001"), headers=retry_headers)
    assert status == 200
    copy = {
        "type": "message",
        "user": "U0ADA",
        "text": f"<@{BOT_USER}> {QUESTION}",
        "ts": ts,
        "channel": CHANNEL,
        "channel_type": "channel",
    }
    status, _ = await _post_slack(served, slack_event(copy, "Ev002"))
    assert status == 200
    await _settle()
    assert len([c for c in served.slack.named("chat.postMessage") if c.body.get("thread_ts") == ts]) == 1


async def test_slack_thread_follow_up_without_mention(served: Served) -> None:
    root = "1763715700.000100"
    await _post_slack(served, slack_event(_mention(root, "What are the core hours?"), "Ev010"))
    await served.slack.wait_for("chat.postMessage", count=len(served.slack.named("chat.postMessage")) + 1)
    before = len(served.slack.named("chat.postMessage"))
    follow_up = {
        "type": "message",
        "user": "U0ADA",
        "text": "And how long must passwords be?",
        "ts": "1763715760.000200",
        "thread_ts": root,
        "channel": CHANNEL,
        "channel_type": "channel",
    }
    status, took = await _post_slack(served, slack_event(follow_up, "Ev011"))
    assert status == 200 and took < 3.0
    posts = await served.slack.wait_for("chat.postMessage", count=before + 1)
    assert posts[-1].body["thread_ts"] == root and "14 characters" in posts[-1].body["text"]


async def test_slack_ignores_unknown_threads_bots_and_edits(served: Served) -> None:
    before = len(served.slack.named("chat.postMessage"))
    stranger = {
        "type": "message",
        "user": "U0BOB",
        "text": "lunch?",
        "ts": "1763715800.000300",
        "thread_ts": "1763715000.000001",
        "channel": CHANNEL,
        "channel_type": "channel",
    }
    bot = {
        "type": "message",
        "bot_id": "B0OTHER",
        "user": "U0OTHERBOT",
        "text": "How long must passwords be?",
        "ts": "1763715801.000100",
        "channel": "D0DM",
        "channel_type": "im",
    }
    own = {
        "type": "message",
        "user": BOT_USER,
        "text": "How long must passwords be?",
        "ts": "1763715802.000100",
        "channel": "D0DM",
        "channel_type": "im",
    }
    edit = {
        "type": "message",
        "subtype": "message_changed",
        "channel": "D0DM",
        "channel_type": "im",
        "ts": "1763715803.000100",
        "message": {"user": "U0ADA", "text": "edited"},
    }
    reaction = {
        "type": "reaction_added",
        "user": "U0ADA",
        "reaction": "thumbsup",
        "item": {"type": "message", "channel": CHANNEL, "ts": "1"},
        "event_ts": "1763715804.000100",
    }
    for i, event in enumerate((stranger, bot, own, edit, reaction)):
        status, took = await _post_slack(served, slack_event(event, f"Ev02{i}"))
        assert status == 200 and took < 3.0
    await _settle()
    assert len(served.slack.named("chat.postMessage")) == before


async def test_slack_direct_message_is_answered_in_the_dm(served: Served) -> None:
    before = len(served.slack.named("chat.postMessage"))
    dm = {
        "type": "message",
        "user": "U0ADA",
        "text": "What is the home office allowance?",
        "ts": "1763715900.000100",
        "channel": "D0DM",
        "channel_type": "im",
    }
    status, _ = await _post_slack(served, slack_event(dm, "Ev030"))
    assert status == 200
    posts = await served.slack.wait_for("chat.postMessage", count=before + 1)
    assert posts[-1].body["channel"] == "D0DM" and not posts[-1].body.get("thread_ts")
    assert "EUR 400" in posts[-1].body["text"]


async def test_slack_rejects_bad_and_stale_signatures(served: Served) -> None:
    body = slack_event(_mention("1763716000.000100"), "Ev040")
    status, _ = await _post_slack(served, body, headers=slack_signature_headers("wrong-secret", body))
    assert status == 401
    stale = slack_signature_headers(SECRET, body, timestamp=int(time.time()) - 600)
    status, _ = await _post_slack(served, body, headers=stale)
    assert status == 401


async def _post_teams(
    url: str, activity: dict[str, object], headers: dict[str, str] | None = None
) -> tuple[int, float]:
    started = time.monotonic()
    async with (
        aiohttp.ClientSession() as session,
        session.post(url + "/api/messages", json=activity, headers=headers or {}) as response,
    ):
        await response.read()
        return response.status, time.monotonic() - started


async def test_teams_channel_mention_is_answered_in_its_reply_chain_once(served: Served) -> None:
    conversation = "19:general@thread.tacv2;messageid=1763716100000"
    activity = teams_activity(
        activity_id="1763716100000",
        text=QUESTION,
        service_url=served.connector.url,
        conversation_id=conversation,
        conversation_type="channel",
    )
    status, took = await _post_teams(served.url, activity)
    assert status in (200, 201) and took < 15.0
    replies = await served.connector.wait_for("message")
    reply = replies[-1]
    assert reply.path == conversation
    assert "20 weeks" in reply.body["text"] and "[1]" in reply.body["text"]
    assert "<at>" not in reply.body["text"] and "Threadwise" not in reply.body["text"].split("\n")[0]
    assert any(c.path == conversation for c in served.connector.named("typing"))

    status, _ = await _post_teams(served.url, activity)  # the same activity delivered twice
    assert status in (200, 201)
    await _settle()
    assert len([c for c in served.connector.named("message") if c.path == conversation]) == 1


async def test_teams_personal_chat_is_answered_in_the_chat(served: Served) -> None:
    conversation = "a:1personal-chat-id"
    activity = teams_activity(
        activity_id="1763716200000",
        text="What is the home office allowance?",
        service_url=served.connector.url,
        conversation_id=conversation,
        conversation_type="personal",
        mention=False,
    )
    status, _ = await _post_teams(served.url, activity)
    assert status in (200, 201)
    replies = [
        c
        for c in await served.connector.wait_for("message", count=len(served.connector.named("message")) + 1)
        if c.path == conversation
    ]
    assert replies and "EUR 400" in replies[-1].body["text"]


async def test_teams_requires_a_token_when_an_app_id_is_set(served: Served) -> None:
    activity = teams_activity(
        activity_id="1763716300000",
        text=QUESTION,
        service_url=served.connector.url,
        conversation_id="a:1x",
        conversation_type="personal",
    )
    status, _ = await _post_teams(served.secured_url, activity)
    assert status == 401
    status, _ = await _post_teams(served.secured_url, activity, {"Authorization": "Bearer not-a-jwt"})
    assert status == 401


async def test_readyz_reports_the_loaded_model(served: Served) -> None:
    async with aiohttp.ClientSession() as session, session.get(served.url + "/readyz") as response:
        body = json.loads(await response.text())
    assert response.status == 200 and body["ready"] is True
    checks = body["checks"]
    assert checks["model"]["detail"]["name"] == "all-MiniLM-L6-v2"
    assert checks["search_backend"]["detail"]["segments"] > 0 and checks["database"]["ok"]


async def test_export_in_a_thread_answers_with_a_signed_link_that_curl_opens(served: Served) -> None:
    root = "1763716400.000100"
    before = len(served.slack.named("chat.postMessage"))
    await _post_slack(served, slack_event(_mention(root, "List all tire receipts"), "Ev050"))
    posts = await served.slack.wait_for("chat.postMessage", count=before + 1)
    assert "101" in posts[-1].body["text"]
    export = {
        "type": "message",
        "user": "U0ADA",
        "text": "export",
        "ts": "1763716460.000200",
        "thread_ts": root,
        "channel": CHANNEL,
        "channel_type": "channel",
    }
    await _post_slack(served, slack_event(export, "Ev051"))
    posts = await served.slack.wait_for("chat.postMessage", count=before + 2)
    reply = posts[-1].body["text"]
    link = re.search(re.escape(served.url) + r"/exports/[^\s>|]+\.csv", reply)
    assert link, reply
    code, body = await _curl(link.group(0))
    assert code == 200
    lines = body.splitlines()
    assert lines[0].startswith("receipt_id,") and len(lines) == 102
    code, _ = await _curl(link.group(0).replace("/exports/", "/exports/x"))  # a forged token
    assert code == 403


async def _curl(url: str) -> tuple[int, str]:
    """GET with the real `curl` command: the status and the body."""
    process = await asyncio.create_subprocess_exec(
        "curl", "-s", "-w", "\n%{http_code}", url, stdout=asyncio.subprocess.PIPE
    )
    out, _ = await process.communicate()
    body, _, code = out.decode("utf-8").rpartition("\n")
    return int(code), body


async def test_metrics_count_the_served_turns(served: Served) -> None:
    async with aiohttp.ClientSession() as session, session.get(served.url + "/metrics") as response:
        text = await response.text()
    assert response.status == 200
    turns = [line for line in text.splitlines() if line.startswith("threadwise_turns_total{")]
    assert any('platform="slack"' in line and 'outcome="answer"' in line for line in turns), turns
    assert "threadwise_queue_depth 0.0" in text
