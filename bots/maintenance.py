"""Scheduled work inside `threadwise serve`: the stale-claim sweep and the retention purge."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from bots.edge import EdgeService, Poster
from bots.settings import Settings
from core.contracts import OrchestrationResult, Turn
from core.orchestrator.service import TurnAnswer, TurnService
from core.ports import Clock
from core.records import ReplyTarget, StaleTurn
from storage.database import Database
from storage.retention import purge_expired

if TYPE_CHECKING:
    from bots.bootstrap import App

log = logging.getLogger(__name__)
MAX_ATTEMPTS = 3
"""A turn that killed its worker this often is given up (marked failed), not re-run forever."""
SWEEP_BATCH = 20
PURGE_EVERY_S = 6 * 3600.0


class Reposter(Protocol):
    """Posts or edits a reply from a stored `ReplyTarget`, outside the request that asked (each edge has one)."""

    async def post(self, target: ReplyTarget, result: OrchestrationResult) -> str | None:
        """Post the reply; its platform id (Slack ts, Teams activity id)."""
        ...

    async def edit(self, target: ReplyTarget, reply_id: str, result: OrchestrationResult) -> str | None:
        """Replace the reply already posted as `reply_id`."""
        ...


@dataclass(frozen=True)
class SweepReport:
    """What one sweep did: re-answers started (another replica may have taken a turn first), turns
    left to their live worker, and turns given up."""

    reanswered: int = 0
    skipped: int = 0
    given_up: int = 0


class Sweeper:
    """Re-answers claims whose lease lapsed (a crash mid-turn): edits a posted reply, never posts twice.

    Taking a stale claim over is the ledger's conditional claim, so of many replicas sweeping
    at once exactly one answers; the others see a duplicate and move on.
    """

    def __init__(self, *, service: TurnService, edge: EdgeService, reposters: Mapping[str, Reposter]) -> None:
        self._service = service
        self._edge = edge
        self._reposters = reposters

    async def sweep(self) -> SweepReport:
        """One pass over the stale claims; returns once each has been answered or given up."""
        reanswered = skipped = given_up = 0
        for stale in await self._service.stale(SWEEP_BATCH):
            reposter = self._reposters.get(stale.platform)
            if self._edge.in_flight(stale.message_key):
                skipped += 1  # slow, not dead: this process is still answering it
            elif stale.target is None or reposter is None:
                await self._service.undelivered(stale.turn_id, f"no way to post to {stale.platform} after a restart")
                given_up += 1
            elif stale.attempts >= MAX_ATTEMPTS:
                await self._service.undelivered(stale.turn_id, f"gave up after {stale.attempts} attempts")
                given_up += 1
            else:
                log.warning("re-answering %s (attempt %s)", stale.message_key, stale.attempts + 1)
                await self._edge.answer_and_post(
                    _turn(stale), _poster(reposter, stale.target), None, target=stale.target, sweep=True
                )
                reanswered += 1
        return SweepReport(reanswered=reanswered, skipped=skipped, given_up=given_up)


def _turn(stale: StaleTurn) -> Turn:
    direct = stale.target.direct if stale.target else False
    return Turn(
        platform=stale.platform,
        tenant=stale.tenant,
        channel_key=stale.channel_key,
        thread=stale.thread,
        user=stale.user,
        message_key=stale.message_key,
        text=stale.text,
        is_direct=direct,
        received_at=stale.received_at,
    )


def _poster(reposter: Reposter, target: ReplyTarget) -> Poster:
    async def post(answer: TurnAnswer) -> str | None:
        assert answer.result is not None
        if answer.reply_id:
            await reposter.edit(target, answer.reply_id, answer.result)
            return answer.reply_id
        return await reposter.post(target, answer.result)

    return post


def sweep_interval(lease_seconds: float) -> float:
    """Sweep twice per lease, at least every minute, at most every second."""
    return max(1.0, min(60.0, lease_seconds / 2))


async def run_maintenance(
    *,
    sweeper: Sweeper,
    database: Database,
    clock: Clock,
    retention_days: int,
    sweep_every_s: float,
    stop: asyncio.Event,
) -> None:
    """Sweep stale claims and purge expired data on a schedule until `stop` is set."""
    next_purge = 0.0
    loop = asyncio.get_running_loop()
    while not stop.is_set():
        try:
            report = await sweeper.sweep()
            if report.reanswered or report.given_up:
                log.warning("sweep: %s", report)
            if loop.time() >= next_purge:
                purged = await purge_expired(database, clock.now(), retention_days)
                log.warning("retention purge (%s days): %s", retention_days, purged.as_dict())
                next_purge = loop.time() + PURGE_EVERY_S
        except Exception:  # the database may be restarting: try again next round
            log.exception("maintenance round failed")
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), timeout=sweep_every_s)


def start_maintenance(
    *, settings: Settings, app: App, edge: EdgeService, edges: tuple[Any, Any], stop: asyncio.Event
) -> None:
    """Start the sweep and the purge for `threadwise serve`; they end with `stop` (drained with the answers)."""
    reposters: dict[str, Reposter] = {}
    slack, teams = edges
    if slack is not None and settings.slack_bot_token:
        from slack_sdk.web.async_client import AsyncWebClient

        from bots.slack.repost import SlackReposter

        token = settings.slack_bot_token.get_secret_value()
        client = AsyncWebClient(token=token, base_url=settings.slack_api_url) if settings.slack_api_url else None
        reposters["slack"] = SlackReposter(client=client or AsyncWebClient(token=token))
    if teams is not None:
        from bots.teams.repost import TeamsReposter

        reposters["teams"] = TeamsReposter(edge=teams)
    sweeper = Sweeper(service=app.service, edge=edge, reposters=reposters)
    edge.spawn(
        run_maintenance(
            sweeper=sweeper,
            database=app.storage.database,
            clock=app.clock,
            retention_days=settings.retention_days,
            sweep_every_s=sweep_interval(settings.lease_seconds),
            stop=stop,
        )
    )
