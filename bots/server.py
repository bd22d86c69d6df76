"""`threadwise serve`: one aiohttp app with `/slack/events`, `/api/messages` and `/healthz`."""

from __future__ import annotations

import asyncio
import logging
import signal
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from bots.edge import EdgeService
from bots.settings import Settings

log = logging.getLogger(__name__)
DRAIN_SECONDS = 60.0


@dataclass
class ServerState:
    """What the routes serve; empty until the model is loaded and the edges are built."""

    ready: bool = False
    detail: str = "starting: loading the embedding model"
    slack: Any = None
    teams: Any = None
    checks: dict[str, Any] = field(default_factory=dict)


def create_web_app(state: ServerState) -> web.Application:
    """The aiohttp application; every route answers 503 until `state.ready`."""

    async def healthz(_: web.Request) -> web.Response:
        body = {"ready": state.ready, "detail": state.detail, **state.checks}
        return web.json_response(body, status=200 if state.ready else 503)

    async def slack_events(request: web.Request) -> web.StreamResponse:
        if not state.ready:
            return web.json_response({"error": state.detail}, status=503)
        if state.slack is None:
            return web.json_response(
                {"error": "Slack is not configured (SLACK_BOT_TOKEN, SLACK_SIGNING_SECRET)"}, status=404
            )
        response: web.StreamResponse = await state.slack.handle(request)
        return response

    async def teams_messages(request: web.Request) -> web.StreamResponse:
        if not state.ready or state.teams is None:
            return web.json_response({"error": state.detail}, status=503)
        response: web.StreamResponse = await state.teams.handle(request)
        return response

    app = web.Application()
    app.router.add_get("/healthz", healthz)
    app.router.add_post("/slack/events", slack_events)
    app.router.add_post("/api/messages", teams_messages)
    return app


def build_edges(settings: Settings, edge: EdgeService) -> tuple[Any, Any]:
    """The Slack edge (when its credentials are set) and the Teams edge."""
    slack = None
    if settings.slack_bot_token and settings.slack_signing_secret:
        from bots.slack.app import SlackEdge

        slack = SlackEdge(
            edge=edge,
            bot_token=settings.slack_bot_token.get_secret_value(),
            signing_secret=settings.slack_signing_secret.get_secret_value(),
            api_url=settings.slack_api_url,
        )
    from bots.teams.bot import TeamsEdge

    if not settings.microsoft_app_id:
        log.warning("MicrosoftAppId is not set: Teams authentication is OFF (local emulator only)")
    teams = TeamsEdge(
        edge=edge,
        app_id=settings.microsoft_app_id,
        app_password=settings.microsoft_app_password.get_secret_value() if settings.microsoft_app_password else None,
        app_type=settings.microsoft_app_type,
        tenant_id=settings.microsoft_app_tenant_id,
    )
    return slack, teams


async def run_server(settings: Settings, host: str, port: int) -> None:
    """Listen at once, load the model, then serve until SIGINT/SIGTERM; drain in-flight answers."""
    from bots.bootstrap import build_app, build_llm
    from bots.maintenance import start_maintenance

    build_llm(settings)  # a wrong LLM setting stops start-up before the port opens
    state = ServerState()
    runner = web.AppRunner(create_web_app(state))
    await runner.setup()
    await web.TCPSite(runner, host, port).start()
    log.warning("threadwise listening on http://%s:%s (loading the model)", host, port)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    components = await build_app(settings)
    edge = EdgeService(service=components.service, conversations=components.storage.conversations)
    state.slack, state.teams = build_edges(settings, edge)
    start_maintenance(settings=settings, app=components, edge=edge, edges=(state.slack, state.teams), stop=stop)
    health = await components.backend.health()
    state.checks = {
        "database": "ok",
        "search_backend": health.model_dump(),
        "model": components.embedder.model_name,
        "slack": state.slack is not None,
        "teams_auth": bool(settings.microsoft_app_id),
    }
    state.ready, state.detail = True, "ready"
    log.warning("threadwise ready: %s documents, %s segments", health.documents, health.segments)
    try:
        await stop.wait()
    finally:
        state.ready, state.detail = False, "shutting down"
        await edge.drain(DRAIN_SECONDS)
        await runner.cleanup()
        await components.close()
