"""A model that does not stop: every stage sends a `max_tokens` budget, so a runaway costs one timeout.

The loopback server generates like a one-slot llama.cpp server: token by token, one request at
a time, until the request's `max_tokens` (or the context limit when none was sent), and it keeps
generating after the client gave up, as a real server does.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator

import pytest
from aiohttp import web

from adapters.llm.factory import build_chat_models
from core.llm.gateway import LlmGateway
from core.prompts import OUTPUT_TOKENS
from tests.llm_server import ChatCompletionsServer, ChatRequest

CONTEXT_TOKENS = 4096
SECONDS_PER_TOKEN = 0.003
MESSAGES = [("system", "You are a document assistant."), ("human", "Question: hotel limit?")]
RUNAWAY = [("system", "You are a document assistant."), ("human", "Answer at length: hotel limit?")]


class RunawayModelServer(ChatCompletionsServer):
    """One generation slot; asked "at length" the model never emits an end of sequence, else it stops at 20 tokens."""

    def __post_init__(self) -> None:
        super().__post_init__()
        self.slot = asyncio.Lock()
        self.generated: list[int] = []

    async def _complete(self, request: web.Request) -> web.Response:
        chat = ChatRequest(body=await request.json(), path=request.path, headers=dict(request.headers))
        self.requests.append(chat)
        limit = min(int(chat.body.get("max_tokens") or CONTEXT_TOKENS), CONTEXT_TOKENS)
        runaway = "at length" in chat.messages[-1][1]
        wanted = limit if runaway else min(20, limit)
        # Shielded: a client that disconnects does not stop the generation (llama.cpp keeps going).
        await asyncio.shield(self._generate(wanted))
        return web.json_response(
            {
                "id": "runaway",
                "object": "chat.completion",
                "created": int(time.time()),
                "model": "runaway",
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": '{"route": "hybrid"}'},
                        "finish_reason": "length" if wanted == limit else "stop",
                    }
                ],
            }
        )

    async def _generate(self, tokens: int) -> None:
        async with self.slot:
            await asyncio.sleep(tokens * SECONDS_PER_TOKEN)
            self.generated.append(tokens)


@pytest.fixture
async def runaway() -> AsyncIterator[RunawayModelServer]:
    server = await RunawayModelServer().start()
    yield server
    await server.stop()


async def test_every_stage_sends_its_output_budget_on_the_wire(runaway: RunawayModelServer) -> None:
    models = build_chat_models(provider="openai", model="m", base_url=runaway.base_url, max_retries=0)
    gateway = LlmGateway(models, timeout_s=30.0)
    for stage in OUTPUT_TOKENS:
        if stage != "synthesis":
            await gateway.run(stage, MESSAGES, str, strict=stage == "reflection")
    await gateway.run("synthesis", RUNAWAY, str)
    sent = {(request.body.get("max_tokens"), request.body.get("temperature")) for request in runaway.requests}
    assert len(runaway.requests) == len(OUTPUT_TOKENS)
    assert [r.body["max_tokens"] for r in runaway.requests] == [
        OUTPUT_TOKENS[s] for s in OUTPUT_TOKENS if s != "synthesis"
    ] + [OUTPUT_TOKENS["synthesis"]]
    assert all(tokens is not None and tokens <= 700 for tokens, _ in sent)
    assert OUTPUT_TOKENS["route"] <= 200 and OUTPUT_TOKENS["reflection"] <= 200  # route and grade: small
    assert runaway.generated[-1] == OUTPUT_TOKENS["synthesis"]  # the runaway stopped at its budget


async def test_a_model_that_never_stops_costs_one_timeout_not_a_jammed_server(runaway: RunawayModelServer) -> None:
    timeout = 1.5
    assert OUTPUT_TOKENS["synthesis"] * SECONDS_PER_TOKEN > timeout  # the runaway outlives our timeout
    models = build_chat_models(provider="openai", model="m", base_url=runaway.base_url, max_retries=0)
    gateway = LlmGateway(models, timeout_s=timeout, cooldown_s=0.0)

    started = time.monotonic()
    value, step = await gateway.run("synthesis", RUNAWAY, str, continuations=True)
    assert value is None and step.path == "deterministic" and step.reason == f"timed out after {timeout:g} s"
    assert time.monotonic() - started < timeout + 0.5

    # The next request waits only for the rest of a bounded generation, then is answered in time.
    value, step = await gateway.run("route", MESSAGES, str)
    assert step.path == "llm", step.reason
    assert runaway.generated == [OUTPUT_TOKENS["synthesis"], 20]


def test_ollama_models_carry_the_budget_as_num_predict() -> None:
    models = build_chat_models(provider="ollama", model="m", max_retries=0)
    assert models is not None and models.bounded is not None
    strict = models.bounded(OUTPUT_TOKENS["reflection"], True)
    answer = models.bounded(OUTPUT_TOKENS["synthesis"], False)
    assert (strict.num_predict, strict.temperature) == (OUTPUT_TOKENS["reflection"], 0.0)  # type: ignore[attr-defined]
    assert (answer.num_predict, answer.temperature) == (OUTPUT_TOKENS["synthesis"], 0.2)  # type: ignore[attr-defined]
