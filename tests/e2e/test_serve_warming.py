"""`threadwise serve` acknowledges platform requests that arrive before its model is warm, and answers them once.

The server's start-up is held at a known point without sleeps: it reaches Elasticsearch through a
loopback proxy that holds every request until the test releases it, so the answer graph cannot be
built while the test sends its requests.
"""

from __future__ import annotations

import asyncio
import subprocess
import time
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest
from aiohttp import web

from tests.conftest import SAMPLE_CORPUS, drop_test_indices, elasticsearch_url
from tests.e2e.test_serve import SECRET, _mention
from tests.environment import product_env
from tests.es_recorder import RecordingProxy
from tests.serve_process import free_port, start_serve
from tests.servers import BotConnectorServer, SlackApiServer, slack_event, slack_signature_headers, teams_activity

pytestmark = pytest.mark.e2e
QUESTION = "How many weeks of parental leave do new parents get?"


class HeldProxy(RecordingProxy):
    """Forwards to the node only once `release()` was called; until then every request waits."""

    def __init__(self, target: str) -> None:
        super().__init__(target)
        self.released = asyncio.Event()
        self.held = 0

    def release(self) -> None:
        self.released.set()

    async def wait_held(self, within: float = 120.0) -> None:
        """Return once a request is being held (polled: the proxy has no other signal to give)."""
        deadline = time.monotonic() + within
        while not self.held:
            assert time.monotonic() < deadline, "the server never reached Elasticsearch"
            await asyncio.sleep(0.05)

    async def _forward(self, request: web.Request) -> web.Response:
        if not self.released.is_set():
            self.held += 1
            await self.released.wait()
        return await super()._forward(request)


@pytest.fixture
async def es_prefix() -> AsyncIterator[tuple[str, str]]:
    from elasticsearch import AsyncElasticsearch

    url = elasticsearch_url()
    prefix = f"threadwise-test-{uuid.uuid4().hex[:8]}"
    yield url, prefix
    client = AsyncElasticsearch(url)
    try:
        await drop_test_indices(client, prefix)
    finally:
        await client.close()


async def _wait_alive(url: str, process: subprocess.Popen[bytes], log: Path) -> dict[str, object]:
    """Poll `/healthz` until the port answers (the server listens before it builds anything)."""
    deadline = time.monotonic() + 120
    async with aiohttp.ClientSession() as session:
        while time.monotonic() < deadline:
            assert process.poll() is None, log.read_text()
            try:
                async with session.get(url + "/healthz") as response:
                    body: dict[str, object] = await response.json()
                    return body
            except aiohttp.ClientError:
                await asyncio.sleep(0.05)
    raise AssertionError("the port never opened:\n" + log.read_text())


async def test_requests_before_the_model_is_warm_are_acked_then_answered_once(
    tmp_path: Path, es_prefix: tuple[str, str]
) -> None:
    es_url, prefix = es_prefix
    search = {
        "THREADWISE_SEARCH_BACKEND": "elasticsearch",
        "THREADWISE_ELASTICSEARCH_PREFIX": prefix,
        "THREADWISE_ELASTICSEARCH_REPLICAS": "0",
    }
    data = {"THREADWISE_DATA_DIR": str(tmp_path / "data")}
    ingest_env = product_env(**search, **data, THREADWISE_ELASTICSEARCH_URL=es_url)
    ingest = await asyncio.create_subprocess_exec(
        "threadwise", "ingest", str(SAMPLE_CORPUS), env=ingest_env, stderr=asyncio.subprocess.PIPE
    )
    _, errors = await ingest.communicate()
    assert ingest.returncode == 0, errors.decode()

    proxy = await HeldProxy(es_url).start()
    slack = await SlackApiServer().start()
    connector = await BotConnectorServer().start()
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = product_env(
        **search,
        **data,
        THREADWISE_ELASTICSEARCH_URL=proxy.url,
        SLACK_BOT_TOKEN="xoxb-test-token",
        SLACK_SIGNING_SECRET=SECRET,
        THREADWISE_SLACK_API_URL=slack.api_url,
    )
    log = tmp_path / "serve.log"
    process = start_serve(env, port, log)
    try:
        health = await _wait_alive(url, process, log)
        assert health["ready"] is False

        ts = "1763800000.000100"
        body = slack_event(_mention(ts), "EvWarm1")
        conversation = "19:general@thread.tacv2;messageid=1763800000000"
        activity = teams_activity(
            activity_id="1763800000000",
            text=QUESTION,
            service_url=connector.url,
            conversation_id=conversation,
            conversation_type="channel",
        )
        async with aiohttp.ClientSession() as session:
            started = time.monotonic()
            async with session.post(
                url + "/slack/events", data=body, headers=slack_signature_headers(SECRET, body)
            ) as response:
                assert response.status == 200, await response.text()
            async with session.post(url + "/api/messages", json=activity) as response:
                assert response.status in (200, 201), await response.text()
            assert time.monotonic() - started < 3.0
            challenge = '{"type": "url_verification", "token": "t", "challenge": "warm-challenge"}'
            async with session.post(
                url + "/slack/events", data=challenge, headers=slack_signature_headers(SECRET, challenge)
            ) as response:
                assert response.status == 200 and "warm-challenge" in await response.text()
            await proxy.wait_held()  # start-up has loaded the model and now waits for the index
            async with session.get(url + "/readyz") as response:
                assert response.status == 503
            assert not slack.named("chat.postMessage") and not connector.named("message")

            proxy.release()
            posts = await slack.wait_for("chat.postMessage")
            replies = await connector.wait_for("message")
            assert posts[0].body["thread_ts"] == ts and "20 weeks" in posts[0].body["text"]
            assert replies[0].path == conversation and "20 weeks" in replies[0].body["text"]
    finally:
        proxy.release()
        process.terminate()
        await asyncio.to_thread(process.wait, 60)  # SIGTERM drains in-flight answers: nothing is posted after this
        await proxy.stop()
        await slack.stop()
        await connector.stop()
    assert len([c for c in slack.named("chat.postMessage") if c.body.get("thread_ts") == ts]) == 1
    assert len([c for c in connector.named("message") if c.path == conversation]) == 1
