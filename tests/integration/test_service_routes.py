"""`/healthz`, `/readyz` and `/metrics` of the served app, driven over HTTP with signed Slack events
against the loopback Slack Web API (the core on in-memory ports with the scripted LLM)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp import web
from prometheus_client.parser import text_string_to_metric_families

from bots.edge import EdgeService
from bots.health import Readiness, database_check, model_check, search_backend_check
from bots.server import ServerState, build_metrics, create_web_app
from bots.slack.app import SlackEdge
from core.concurrency import CpuExecutor
from core.knowledge import ToolHealth
from core.llm.gateway import LlmGateway
from storage.database import Database
from tests.fakes import InMemorySearchBackend
from tests.llm_fakes import scripted_models
from tests.servers import BOT_USER, SlackApiServer, slack_event, slack_signature_headers
from tests.unit.test_graph import World, sample_world

SECRET = "secret"


class HangingBackend(InMemorySearchBackend):
    """A search backend whose health call never returns while `hang` is set (a stuck cluster)."""

    def __init__(self) -> None:
        super().__init__()
        self.hang = asyncio.Event()
        self.released = asyncio.Event()

    async def health(self) -> ToolHealth:
        if self.hang.is_set():
            await self.released.wait()
        return await super().health()


@dataclass
class Served:
    url: str
    edge: EdgeService
    world: World
    backend: HangingBackend
    slack: SlackApiServer


@pytest.fixture(scope="module")
async def served(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Served]:
    backend = HangingBackend()
    executor = CpuExecutor(max_workers=1)
    world = await sample_world(tmp_path_factory.mktemp("corpus"), backend, executor, LlmGateway(scripted_models()))
    database = Database(url=f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('db') / 'ready.db'}")
    slack = await SlackApiServer().start()
    metrics = build_metrics()
    edge = EdgeService(service=world.service, conversations=world.service._conversations, metrics=metrics)  # type: ignore[attr-defined]
    state = ServerState(ready=True, detail="ready", metrics=metrics)
    state.slack = SlackEdge(edge=edge, bot_token="xoxb-test", signing_secret=SECRET, api_url=slack.api_url)
    state.readiness = Readiness(
        checks={
            "database": database_check(database),
            "search_backend": search_backend_check(backend.health),
            "model": model_check("hashing", lambda: world.embedder),
        },
        timeout_s=0.5,
    )
    state.edges_built.set()  # the edges accept requests
    runner = web.AppRunner(create_web_app(state))
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    url = f"http://127.0.0.1:{site._server.sockets[0].getsockname()[1]}"  # type: ignore[union-attr]
    yield Served(url=url, edge=edge, world=world, backend=backend, slack=slack)
    await runner.cleanup()
    await slack.stop()
    await database.dispose()
    executor.shutdown()


async def _get(url: str) -> tuple[int, Any]:
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        body = await response.json() if response.content_type == "application/json" else await response.text()
        return response.status, body


async def _mention(served: Served, ts: str, text: str, event_id: str) -> None:
    event = {"type": "app_mention", "user": "U1", "text": f"<@{BOT_USER}> {text}", "ts": ts, "channel": "C1"}
    body = slack_event(event, event_id)
    async with (
        aiohttp.ClientSession() as session,
        session.post(
            served.url + "/slack/events", data=body, headers=slack_signature_headers(SECRET, body)
        ) as response,
    ):
        assert response.status == 200


def _samples(text: str) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


async def test_metrics_after_two_turns(served: Served) -> None:
    await _mention(served, "1700000100.000100", "How many weeks of parental leave does a new parent receive?", "Ev1")
    await _mention(served, "1700000200.000100", "What is the hotel limit per night in 2024?", "Ev2")
    await _mention(served, "1700000200.000100", "What is the hotel limit per night in 2024?", "Ev2")  # a redelivery
    await served.slack.wait_for("chat.postMessage", count=2, within=30)
    await served.edge.drain(30)
    decisions = await served.world.decisions.latest(2)
    assert await served.edge.feedback(decisions[0].turn_id, "U1", "up")
    assert await served.edge.feedback(decisions[1].turn_id, "U2", "down")

    status, text = await _get(served.url + "/metrics")
    assert status == 200
    samples = _samples(text)

    def value(name: str, **labels: str) -> float:
        return sum(v for (n, ls), v in samples.items() if n == name and set(labels.items()) <= ls)

    assert value("threadwise_turns_total", platform="slack") == 2
    assert value("threadwise_turns_total", platform="slack", branch="SUCCESS", outcome="answer") == 2
    assert value("threadwise_turns_total", route="hybrid") == 1
    assert value("threadwise_turn_seconds_count", platform="slack") == 2
    assert value("threadwise_stage_seconds_count", stage="retrieve") == 2
    assert value("threadwise_stage_seconds_count", stage="synthesize") == 2
    assert value("threadwise_llm_steps_total", stage="synthesis", path="llm") == 2
    assert value("threadwise_duplicate_deliveries_total", platform="slack") == 1
    assert value("threadwise_feedback_total", value="up") == 1 and value("threadwise_feedback_total", value="down") == 1
    assert value("threadwise_errors_total") == 0
    assert value("threadwise_queue_depth") == 0
    assert value("process_resident_memory_bytes") > 0
    assert len(served.slack.named("chat.postMessage")) == 2


async def test_health_is_liveness_and_readiness_names_the_failing_part(served: Served) -> None:
    status, body = await _get(served.url + "/healthz")
    assert status == 200 and body["alive"] is True
    status, body = await _get(served.url + "/readyz")
    assert status == 200 and body["ready"] is True and body["failing"] == []
    assert body["checks"]["search_backend"]["detail"]["segments"] > 0
    assert set(body["checks"]) == {"database", "search_backend", "model"}

    served.backend.hang.set()  # the search backend stops answering: named within the timeout
    try:
        status, body = await _get(served.url + "/readyz")
        assert status == 503 and body["failing"] == ["search_backend"]
        assert "within 0.5 s" in body["checks"]["search_backend"]["error"]
        assert body["checks"]["database"]["ok"] is True
        status, _ = await _get(served.url + "/healthz")
        assert status == 200  # alive all the same
    finally:
        served.backend.released.set()
        served.backend.hang.clear()
    status, body = await _get(served.url + "/readyz")
    assert status == 200


async def test_readiness_names_a_database_that_does_not_answer(tmp_path: Path) -> None:
    gone = Database(url="postgresql://nobody@127.0.0.1:9/none")
    readiness = Readiness(checks={"database": database_check(gone), "model": model_check("m", lambda: None)})
    report = await readiness.report()
    await gone.dispose()
    assert not report.ready and report.failing == ["database"]
    assert report.checks["database"].error and "nobody" not in (report.checks["database"].detail.get("url") or "")
