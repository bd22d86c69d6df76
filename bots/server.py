"""`threadwise serve`: one aiohttp app with the platform endpoints, health, metrics and exports."""

from __future__ import annotations

import asyncio
import logging
import signal
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web
from prometheus_client import CollectorRegistry, GCCollector, PlatformCollector, ProcessCollector

from bots.edge import EdgeService
from bots.exports import CsvExporter, ExportLinks, InvalidExportTokenError, ResultSetNotFoundError
from bots.health import Readiness, database_check, model_check, search_backend_check
from bots.metrics import ServiceMetrics
from bots.settings import Settings
from storage.database import Database

log = logging.getLogger(__name__)
DRAIN_SECONDS = 60.0
READINESS_TIMEOUT_S = 2.0


@dataclass
class ServerState:
    """What the routes serve: the platform edges from the first second (turns wait for the model),
    readiness and exports once the model is loaded."""

    ready: bool = False
    detail: str = "starting: loading the embedding model"
    stopping: bool = False
    edges_built: asyncio.Event = field(default_factory=asyncio.Event)
    """Set once the platform edges accept requests (before the model is warm)."""
    edge_wait_s: float = 10.0
    """How long a platform request that arrives while the edges are being built waits for them."""
    slack: Any = None
    teams: Any = None
    readiness: Readiness | None = None
    metrics: ServiceMetrics | None = None
    exporter: CsvExporter | None = None
    export_links: ExportLinks | None = None


def create_web_app(state: ServerState) -> web.Application:
    """The aiohttp application; the platform routes wait (up to `edge_wait_s`) for the edges, never for the model."""

    async def edges_built() -> bool:
        if not state.edges_built.is_set():
            try:
                await asyncio.wait_for(state.edges_built.wait(), state.edge_wait_s)
            except TimeoutError:
                return False
        return not state.stopping

    async def healthz(_: web.Request) -> web.Response:
        # Liveness: the process serves requests. Whether it can answer is `/readyz`.
        return web.json_response({"alive": True, "ready": state.ready, "detail": state.detail})

    async def readyz(_: web.Request) -> web.Response:
        if not state.ready or state.readiness is None:
            phase = "shutdown" if state.stopping else "startup"
            return web.json_response({"ready": False, "detail": state.detail, "failing": [phase]}, status=503)
        report = await state.readiness.report()
        detail = "ready" if report.ready else "not ready: " + ", ".join(report.failing)
        body = {**report.model_dump(mode="json"), "detail": detail}
        return web.json_response(body, status=200 if report.ready else 503)

    async def metrics(_: web.Request) -> web.Response:
        if state.metrics is None:
            return web.json_response({"error": "metrics are not enabled"}, status=404)
        body, content_type = state.metrics.exposition()
        return web.Response(body=body, headers={"Content-Type": content_type})

    async def export_csv(request: web.Request) -> web.Response:
        if state.exporter is None or state.export_links is None:
            return web.json_response({"error": state.detail}, status=503)
        try:
            result_set_id = state.export_links.result_set_of(request.match_info["token"])
        except InvalidExportTokenError:
            return web.json_response({"error": "this export link is invalid or has expired"}, status=403)
        try:
            text, _ = await state.exporter.csv_text(result_set_id)
        except ResultSetNotFoundError:
            return web.json_response({"error": "this export is no longer kept"}, status=404)
        headers = {
            "Content-Disposition": f'attachment; filename="threadwise-{result_set_id}.csv"',
            "Cache-Control": "private, no-store",  # the link is a bearer token to the rows: keep them out of caches
        }
        return web.Response(text=text, content_type="text/csv", charset="utf-8", headers=headers)

    async def slack_events(request: web.Request) -> web.StreamResponse:
        if not await edges_built():
            return web.json_response({"error": state.detail}, status=503)
        if state.slack is None:
            return web.json_response(
                {"error": "Slack is not configured (SLACK_BOT_TOKEN, SLACK_SIGNING_SECRET)"}, status=404
            )
        response: web.StreamResponse = await state.slack.handle(request)
        return response

    async def teams_messages(request: web.Request) -> web.StreamResponse:
        if not await edges_built() or state.teams is None:
            return web.json_response({"error": state.detail}, status=503)
        response: web.StreamResponse = await state.teams.handle(request)
        return response

    app = web.Application()
    app.router.add_get("/healthz", healthz)
    app.router.add_get("/readyz", readyz)
    app.router.add_get("/metrics", metrics)
    app.router.add_get("/exports/{token}.csv", export_csv)
    app.router.add_post("/slack/events", slack_events)
    app.router.add_post("/api/messages", teams_messages)
    return app


def build_edges(settings: Settings, edge: EdgeService) -> tuple[Any, Any]:
    """The Slack edge (when its credentials are set) and the Teams edge."""
    slack = None
    if settings.slack_bot_token and (settings.slack_signing_secret or settings.slack_app_token):
        from bots.slack.app import SlackEdge

        slack = SlackEdge(
            edge=edge,
            bot_token=settings.slack_bot_token.get_secret_value(),
            signing_secret=settings.slack_signing_secret.get_secret_value() if settings.slack_signing_secret else None,
            api_url=settings.slack_api_url,
            stream=settings.llm_provider != "none",
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


async def refuse_unmigrated(settings: Settings) -> None:
    """Raise `NotMigratedError` (naming `threadwise db upgrade`) for a configured database behind the code.

    The embedded SQLite default migrates itself when it opens.
    """
    if settings.database_url is None:
        return
    database = Database(url=settings.resolved_database_url)
    try:
        await database.ensure_migrated()
    finally:
        await database.dispose()


def build_metrics() -> ServiceMetrics:
    """The service's series and the process's own (memory, CPU, file descriptors), on one registry."""
    registry = CollectorRegistry()
    ProcessCollector(registry=registry)
    PlatformCollector(registry=registry)
    GCCollector(registry=registry)
    return ServiceMetrics(registry=registry)


async def run_server(settings: Settings, host: str, port: int) -> None:
    """Listen at once; accept platform requests as soon as storage is open; load the model; serve until
    SIGINT/SIGTERM; drain in-flight answers.

    Requests that arrive while the model loads are acknowledged and claimed at once and answered
    when it is warm (`WarmingGraph`); `/readyz` says 503 until then.
    """
    from bots.bootstrap import build_front, build_llm, warm
    from bots.maintenance import start_maintenance

    build_llm(settings)  # a wrong LLM setting stops start-up before the port opens
    await refuse_unmigrated(settings)  # so does an unmigrated database
    metrics = build_metrics()
    state = ServerState(metrics=metrics)
    runner = web.AppRunner(create_web_app(state))
    await runner.setup()
    await web.TCPSite(runner, host, port).start()
    log.warning("threadwise listening on http://%s:%s (loading the model)", host, port)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    lag = loop.create_task(metrics.watch_loop(stop))
    front = await build_front(settings)
    edge = EdgeService(
        service=front.service,
        conversations=front.storage.conversations,
        max_concurrent=settings.max_concurrent_turns,
        queue_size=settings.turn_queue_size,
        rate_limit_per_minute=settings.rate_limit_per_minute,
        metrics=state.metrics,
        result_sets=front.storage.result_sets,
    )
    state.slack, state.teams = build_edges(settings, edge)
    state.edges_built.set()
    if state.slack is not None and settings.slack_app_token:
        await state.slack.connect_socket_mode(settings.slack_app_token.get_secret_value())
    log.warning("threadwise accepting platform requests (answers wait for the model)")
    try:
        components = await warm(front)
    except BaseException:
        state.stopping, state.detail = True, "start-up failed"
        lag.cancel()
        await runner.cleanup()
        await front.storage.close()
        raise
    start_maintenance(settings=settings, app=components, edge=edge, edges=(state.slack, state.teams), stop=stop)
    embedder = components.embedder
    state.readiness = Readiness(
        checks={
            "database": database_check(components.storage.database),
            "search_backend": search_backend_check(components.backend.health),
            "model": model_check(embedder.model_name, lambda: embedder.count_tokens(["ready"])),
        },
        timeout_s=READINESS_TIMEOUT_S,
    )
    state.exporter, state.export_links = components.exporter, components.export_links
    health = await components.backend.health()
    state.ready, state.detail = True, "ready"
    log.warning("threadwise ready: %s documents, %s segments", health.documents, health.segments)
    try:
        await stop.wait()
    finally:
        state.ready, state.stopping, state.detail = False, True, "shutting down"
        await edge.drain(DRAIN_SECONDS)
        lag.cancel()
        if state.slack is not None:
            await state.slack.close()
        await runner.cleanup()
        await components.close()
