"""`threadwise serve` killed mid-turn: after a restart the sweep answers that turn exactly once.

The Slack Web API on loopback holds the bot's first `chat.postMessage` until the process is
killed (SIGKILL: no clean-up runs), so the turn is claimed and unanswered. The restarted server
talks to a chat model that hangs: the sweep's answer, and a fresh one, are the deterministic ones
after one LLM timeout. Progress is read from the ledger and the recorded calls, never guessed.
"""

from __future__ import annotations

import asyncio
import json
import socket
import sqlite3
import subprocess
import time
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest
from aiohttp import web

from tests.conftest import SAMPLE_CORPUS
from tests.environment import product_env
from tests.llm_server import ChatCompletionsServer, ChatRequest
from tests.servers import BOT_USER, TEAM, SlackApiServer, slack_event, slack_signature_headers

pytestmark = pytest.mark.e2e
SECRET = "test-signing-secret"
CHANNEL = "C0CRASH"
QUESTION = "How many weeks of parental leave do new parents get?"
LLM_TIMEOUT_S = 2.0


class HoldingSlackApi(SlackApiServer):
    """The Slack Web API, except that the first `chat.postMessage` is held and never answered."""

    def __init__(self) -> None:
        super().__init__()
        self.held = asyncio.Event()
        self.release = asyncio.Event()
        self.hold_next_post = True

    async def _handle(self, request: web.Request) -> web.Response:
        if request.match_info["method"] == "chat.postMessage" and self.hold_next_post:
            self.hold_next_post = False
            self.held.set()
            await self.release.wait()  # the bot is killed while it waits: nothing was posted
            return web.json_response({"ok": False, "error": "request_timeout"})
        return await super()._handle(request)


class HangingChatModel(ChatCompletionsServer):
    """A chat-completions server that accepts every request and never answers."""

    def __post_init__(self) -> None:
        super().__post_init__()
        self.release = asyncio.Event()

    async def _complete(self, request: web.Request) -> web.Response:
        self.requests.append(ChatRequest(body=await request.json(), path=request.path, headers={}))
        await self.release.wait()
        return web.json_response({"error": {"message": "gone"}}, status=500)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _env(**extra: str) -> dict[str, str]:
    return product_env(**extra)


def _serve(env: dict[str, str], port: int, log: Path) -> subprocess.Popen[bytes]:
    handle = log.open("ab")
    command = ["threadwise", "serve", "--host", "127.0.0.1", "--port", str(port)]
    return subprocess.Popen(command, env=env, stdout=handle, stderr=handle)


async def _wait_ready(url: str, process: subprocess.Popen[bytes], log: Path) -> None:
    """Until the server says it is ready (`/readyz` where it exists, else `/healthz`)."""
    deadline = time.monotonic() + 180
    async with aiohttp.ClientSession() as session:
        while time.monotonic() < deadline:
            assert process.poll() is None, log.read_text()
            try:
                async with session.get(url + "/readyz") as ready:
                    if ready.status == 200:
                        return
                if ready.status == 404:
                    async with session.get(url + "/healthz") as health:
                        if health.status == 200 and (await health.json()).get("ready", True):
                            return
            except aiohttp.ClientError:
                pass
            await asyncio.sleep(0.3)
    raise AssertionError("server never became ready:\n" + log.read_text())


async def _mention(url: str, ts: str) -> None:
    event = {"type": "app_mention", "user": "U0ADA", "text": f"<@{BOT_USER}> {QUESTION}", "ts": ts, "channel": CHANNEL}
    body = slack_event(event, f"Ev{ts.replace('.', '')}")
    async with (
        aiohttp.ClientSession() as session,
        session.post(url + "/slack/events", data=body, headers=slack_signature_headers(SECRET, body)) as response,
    ):
        assert response.status == 200


async def _wait_for_reply(slack: SlackApiServer, thread_ts: str, within: float) -> str:
    """The text of the finished reply in `thread_ts` (a posted message, or a stream once stopped)."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        calls = [c for c in slack.calls if c.body.get("thread_ts") == thread_ts or c.method == "chat.appendStream"]
        posted = [c.body.get("text", "") for c in calls if c.method == "chat.postMessage"]
        if posted:
            return str(posted[0])
        if any(c.method == "chat.stopStream" for c in slack.calls) and any(
            c.method == "chat.startStream" and c.body.get("thread_ts") == thread_ts for c in calls
        ):
            # Streamed text travels in `chunks` (markdown pieces), whatever their encoding.
            return " ".join(json.dumps(c.body) for c in slack.calls if "Stream" in c.method)
        await asyncio.sleep(0.1)
    raise AssertionError(f"no reply in {thread_ts}: {[c.method for c in slack.calls]}")


def _ledger(database: Path, message_key: str) -> tuple[str, str | None, int, dict[str, object] | None]:
    with sqlite3.connect(database) as connection:
        row = connection.execute(
            "SELECT status, reply_id, attempts, reply_target FROM turns WHERE message_key = ?", (message_key,)
        ).fetchone()
    assert row is not None, f"no ledger row for {message_key}"
    return row[0], row[1], row[2], json.loads(row[3]) if row[3] else None


async def _ledger_settled(database: Path, message_key: str, within: float) -> tuple[str, str | None, int]:
    """The ledger row once the turn left `claimed`: the reply is recorded after Slack answers the post.

    Another process writes the row, so there is no event to wait on: the row is read until it moves.
    """
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        row = _ledger(database, message_key)
        if row[0] != "claimed":
            return row[:3]
        await asyncio.sleep(0.05)
    return _ledger(database, message_key)[:3]


def _decisions(database: Path, message_key: str) -> list[list[dict[str, object]]]:
    with sqlite3.connect(database) as connection:
        rows = connection.execute(
            "SELECT d.llm_steps FROM router_decisions d JOIN turns t ON t.id = d.turn_id WHERE t.message_key = ?",
            (message_key,),
        ).fetchall()
    return [json.loads(row[0]) for row in rows]


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("crash")
    env = _env(THREADWISE_DATA_DIR=str(folder / "data"))
    done = subprocess.run(
        ["threadwise", "ingest", str(SAMPLE_CORPUS / "handbook")], env=env, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    return folder


@pytest.fixture
async def remotes() -> AsyncIterator[tuple[HoldingSlackApi, HangingChatModel]]:
    slack, llm = HoldingSlackApi(), HangingChatModel()
    await slack.start()
    await llm.start()
    yield slack, llm
    slack.release.set()
    llm.release.set()
    await slack.stop()
    await llm.stop()


async def test_a_turn_killed_mid_post_is_answered_once_after_restart(
    data_dir: Path, remotes: tuple[HoldingSlackApi, HangingChatModel]
) -> None:
    slack, llm = remotes
    database, log = data_dir / "data" / "threadwise.db", data_dir / "serve.log"
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    base = {
        "THREADWISE_DATA_DIR": str(data_dir / "data"),
        "THREADWISE_LEASE_SECONDS": "4",
        "SLACK_BOT_TOKEN": "xoxb-test-token",
        "SLACK_SIGNING_SECRET": SECRET,
        "THREADWISE_SLACK_API_URL": slack.api_url,
    }
    ts, key = "1763900000.000100", f"slack:{TEAM}:{CHANNEL}:1763900000.000100"

    first = _serve(_env(**base), port, log)
    try:
        await _wait_ready(url, first, log)
        await _mention(url, ts)
        await asyncio.wait_for(slack.held.wait(), timeout=120)  # answered, and stuck posting it
        # The process's own sweep leaves an in-flight turn alone, even after its lease lapsed.
        assert _ledger(database, key)[:3] == ("claimed", None, 1)
    finally:
        first.kill()  # SIGKILL: no drain, no clean-up
        first.wait(timeout=30)
    status, reply_id, attempts, target = _ledger(database, key)
    assert (status, reply_id, attempts) == ("claimed", None, 1)
    assert target == {"platform": "slack", "channel": CHANNEL, "thread": ts, "direct": False, "reference": {}}
    assert slack.named("chat.postMessage") == []

    hanging_llm = {
        "THREADWISE_LLM_PROVIDER": "openai",
        "THREADWISE_LLM_BASE_URL": llm.base_url,
        "THREADWISE_LLM_MODEL": "hangs",
        "THREADWISE_LLM_TIMEOUT_S": str(LLM_TIMEOUT_S),
        "THREADWISE_LLM_MAX_RETRIES": "0",
    }
    second = _serve(_env(**base, **hanging_llm), port, log)
    try:
        await _wait_ready(url, second, log)
        (post,) = await slack.wait_for("chat.postMessage", within=120)
        assert (post.body["channel"], post.body["thread_ts"]) == (CHANNEL, ts)
        assert "20 weeks" in post.body["text"]  # the deterministic answer: the model never replied
        status, reply_id, attempts = await _ledger_settled(database, key, within=30)
        assert status == "answered" and attempts == 2 and reply_id
        # Each run logs its decision (the dead one had logged its own before posting).
        dead, steps = _decisions(database, key)
        assert all(step["reason"] == "no LLM configured" for step in dead)
        assert steps[0]["path"] == "deterministic" and steps[0]["reason"] == f"timed out after {LLM_TIMEOUT_S:g} s"

        # A fresh question while the model hangs: one timeout at most, then the deterministic answer
        # (posted, or streamed as the Slack edge does when an LLM is configured).
        started, fresh = time.monotonic(), "1763900000.000200"
        await _mention(url, fresh)
        finished = await _wait_for_reply(slack, fresh, within=60)
        assert "20 weeks" in finished
        assert time.monotonic() - started < LLM_TIMEOUT_S + 30  # never the model's (infinite) time
        # The recovered turn was posted once; nothing was posted again into its thread.
        assert [p.body["thread_ts"] for p in slack.named("chat.postMessage")].count(ts) == 1
        assert _ledger(database, key)[:3] == ("answered", reply_id, 2)
    finally:
        second.terminate()
        second.wait(timeout=90)
