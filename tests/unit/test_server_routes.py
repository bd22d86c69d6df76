"""The server's routes before the edges are built, before the model is loaded, and without Slack credentials."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import aiohttp
import pytest
from aiohttp import web

from bots.server import ServerState, create_web_app


@pytest.fixture
async def started() -> AsyncIterator[tuple[ServerState, str]]:
    state = ServerState()
    runner = web.AppRunner(create_web_app(state))
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    yield state, f"http://127.0.0.1:{site._server.sockets[0].getsockname()[1]}"  # type: ignore[union-attr]
    await runner.cleanup()


async def test_not_ready_until_the_model_is_loaded(started: tuple[ServerState, str]) -> None:
    state, url = started
    async with aiohttp.ClientSession() as session:
        async with session.get(url + "/healthz") as response:
            assert response.status == 200  # alive while loading
            assert (await response.json())["detail"].startswith("starting")
        async with session.get(url + "/readyz") as response:
            assert response.status == 503
            assert (await response.json())["failing"] == ["startup"]
        async with session.get(url + "/exports/anything.csv") as response:
            assert response.status == 503
        state.edge_wait_s = 0.05  # edges that never come: the platform routes give up with 503
        async with session.post(url + "/slack/events", data="{}") as response:
            assert response.status == 503
        async with session.post(url + "/api/messages", json={}) as response:
            assert response.status == 503


async def test_platform_requests_wait_for_the_edges_not_the_model(started: tuple[ServerState, str]) -> None:
    state, url = started
    async with aiohttp.ClientSession() as session:
        waiting = asyncio.create_task(session.post(url + "/slack/events", data="{}"))
        done, _ = await asyncio.wait({waiting}, timeout=0.2)
        assert not done  # held while the edges are built, not refused
        state.edges_built.set()  # edges built; the model is still loading (state.ready stays False)
        async with await waiting as response:
            assert response.status == 404
            assert "SLACK_BOT_TOKEN" in (await response.json())["error"]
        async with session.get(url + "/readyz") as response:
            assert response.status == 503


async def test_readyz_says_shutting_down_while_draining(started: tuple[ServerState, str]) -> None:
    state, url = started
    state.ready, state.stopping, state.detail = False, True, "shutting down"
    async with aiohttp.ClientSession() as session, session.get(url + "/readyz") as response:
        assert response.status == 503
        assert (await response.json())["failing"] == ["shutdown"]
