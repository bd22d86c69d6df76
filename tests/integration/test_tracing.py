"""LangSmith tracing: runs reach the configured endpoint only when its environment turns tracing on."""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import AsyncIterator

import pytest
from aiohttp import web

from tests.conftest import REPO
from tests.servers import Call, _Recorder

# One LLM step through the gateway with the scripted model, then the tracer's queue drained.
STEP = """
import asyncio
from core.llm.gateway import LlmGateway
from core.prompts import summary
from tests.llm_fakes import scripted_models
from langchain_core.tracers.langchain import wait_for_all_tracers

async def main():
    gateway = LlmGateway(scripted_models(summary="Asked about leave."))
    value, step = await gateway.run("summary", summary.messages(summary="", question="q", answer="a"), str)
    assert value == "Asked about leave." and step.path == "llm", step

asyncio.run(main())
wait_for_all_tracers()
import langsmith.run_trees, sys
if "on" in sys.argv:
    langsmith.run_trees.get_cached_client().flush()
"""


class LangSmithEndpoint(_Recorder):
    """Records every request a LangSmith client makes."""

    def __init__(self) -> None:
        super().__init__()
        self.bodies: list[bytes] = []

    async def start(self) -> LangSmithEndpoint:
        app = web.Application(client_max_size=64 * 1024**2)
        app.router.add_route("*", "/{tail:.*}", self._any)
        await self._start(app)
        return self

    async def _any(self, request: web.Request) -> web.Response:
        self.bodies.append(await request.read())
        self.calls.append(Call(method=f"{request.method} {request.path}", body={}))
        return web.json_response({})


@pytest.fixture
async def endpoint() -> AsyncIterator[LangSmithEndpoint]:
    server = await LangSmithEndpoint().start()
    yield server
    await server.stop()


async def _run_step(endpoint: LangSmithEndpoint, tracing: bool) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LANGSMITH_", "LANGCHAIN_"))}
    env |= {"LANGSMITH_ENDPOINT": endpoint.url, "LANGSMITH_API_KEY": "lsv2_test_key", "PYTHONPATH": str(REPO)}
    if tracing:
        env["LANGSMITH_TRACING"] = "true"
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-c", STEP, "on" if tracing else "off", env=env, cwd=REPO, stderr=asyncio.subprocess.PIPE
    )
    _, stderr = await asyncio.wait_for(process.communicate(), timeout=120)
    assert process.returncode == 0, stderr.decode()


async def test_nothing_is_sent_unless_tracing_is_on(endpoint: LangSmithEndpoint) -> None:
    await _run_step(endpoint, tracing=False)
    await asyncio.sleep(0.5)
    assert endpoint.calls == []


async def test_with_tracing_on_the_step_is_traced_under_its_stage_name(endpoint: LangSmithEndpoint) -> None:
    await _run_step(endpoint, tracing=True)
    posted = [c.method for c in endpoint.calls if c.method.startswith("POST /runs")]
    assert posted
    assert any(b"threadwise.summary" in body for body in endpoint.bodies)
