"""What every platform edge needs from the core, and the background work that answers turns."""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

import structlog

from bots import replies
from bots.admission import Place, QueueFullError, TurnQueue, UserRateLimit
from bots.exports import ALL_ROWS
from bots.metrics import NONE, ServiceMetrics
from core.contracts import TableResult, Turn
from core.orchestrator.service import TurnAnswer, TurnService, apology, refusal
from core.ports import ConversationStore, ProgressCallback, ResultSetStore
from core.records import ConversationKey, FeedbackValue, ReplyTarget

log = logging.getLogger(__name__)
Poster = Callable[[TurnAnswer], Awaitable[str | None]]
Notifier = Callable[[str], Awaitable[None]]
"""Posts a short notice in the asker's thread before the answer (queued, rate-limited)."""
REMEMBERED_DELIVERIES = 10_000


class EdgeService:
    """Answers platform turns in the background: claim, answer, post, mark — never silence.

    In front of the core: a per-person rate limit, then a bounded queue (`max_concurrent` turns
    answer at once, `queue_size` more wait and are told their place); a turn turned away gets a
    polite reply saying why.
    """

    def __init__(
        self,
        *,
        service: TurnService,
        conversations: ConversationStore,
        max_concurrent: int = 4,
        queue_size: int = 32,
        rate_limit_per_minute: int = 0,
        metrics: ServiceMetrics | None = None,
        result_sets: ResultSetStore | None = None,
    ) -> None:
        self._service = service
        self._conversations = conversations
        self._result_sets = result_sets
        self._queue = TurnQueue(workers=max_concurrent, capacity=queue_size)
        self._rate_limit = UserRateLimit(per_minute=rate_limit_per_minute)
        self._per_minute = rate_limit_per_minute
        self._metrics = metrics
        if metrics is not None:
            metrics.watch_queue(lambda: self._queue.depth, lambda: self._queue.running)
        self._turn_log = structlog.get_logger("threadwise.turns")
        # Message keys seen by this process, True when turned away: a redelivery is neither counted
        # against the person's limit nor told its place again, and a turned-away one is not answered twice.
        self._deliveries: OrderedDict[str, bool] = OrderedDict()
        self._tasks: set[asyncio.Task[None]] = set()
        self._in_flight: set[str] = set()

    async def knows_thread(self, key: ConversationKey) -> bool:
        """True when the bot already has a conversation in this thread."""
        return await self._conversations.find(key) is not None

    def spawn(self, work: Coroutine[Any, Any, None]) -> None:
        """Run `work` in the background, keeping a reference until it ends."""
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def drain(self, seconds: float) -> None:
        """Let in-flight answers finish (graceful shutdown)."""
        if self._tasks:
            await asyncio.wait(list(self._tasks), timeout=seconds)

    async def feedback(self, turn_id: str, user: str, value: FeedbackValue) -> bool:
        """A 👍/👎 click from any platform; False when the turn is unknown."""
        stored = await self._service.feedback(turn_id, user, value)
        if stored and self._metrics is not None:
            self._metrics.feedback.labels(value).inc()
        return stored

    async def turn_for_reply(self, platform: str, reply_id: str) -> str | None:
        """The turn whose posted reply has this platform id (Teams feedback names only the message)."""
        return await self._service.turn_for_reply(platform, reply_id)

    async def result_table(self, result_set_id: str) -> TableResult | None:
        """Every row of a stored result set (a CSV export button); None when it is gone."""
        if self._result_sets is None:
            return None
        return await self._result_sets.page(result_set_id, 0, ALL_ROWS)

    def in_flight(self, message_key: str) -> bool:
        """True while this process is answering `message_key` (the sweep leaves it alone)."""
        return message_key in self._in_flight

    async def answer_and_post(
        self,
        turn: Turn,
        post: Poster,
        progress: ProgressCallback | None,
        notify: Notifier | None = None,
        *,
        target: ReplyTarget | None = None,
        sweep: bool = False,
    ) -> None:
        """Answer `turn` and hand the result to `post`; a failure still posts an apology.

        Over the rate limit or with the queue full, `post` gets a short reply saying so; a turn that
        has to wait is told its place through `notify` (when the platform passes one). `target`
        (where the reply goes) is kept with the claim, so the sweep can answer the turn if this
        process dies first; the sweep's own re-answers (`sweep`) skip the person's rate limit and,
        with the queue full, wait for the next sweep instead of replying "busy".
        """
        self._in_flight.add(turn.message_key)
        try:
            await self._admit(turn, post, progress, notify, target, sweep)
        finally:
            self._in_flight.discard(turn.message_key)

    async def _admit(
        self,
        turn: Turn,
        post: Poster,
        progress: ProgressCallback | None,
        notify: Notifier | None,
        target: ReplyTarget | None,
        sweep: bool,
    ) -> None:
        started = time.perf_counter()
        turned_away = self._deliveries.get(turn.message_key)
        if turned_away:
            self._duplicate(turn)
            return
        first = turned_away is None
        if first:
            self._remember(turn.message_key, turned_away=False)
            if not sweep and not await self._rate_limit.allow(f"{turn.platform}:{turn.tenant}:{turn.user}"):
                await self._turn_away(turn, post, replies.RATE_LIMITED.format(limit=self._per_minute), "rate_limited")
                return
        try:
            place = self._queue.enter()
        except QueueFullError as exc:
            if not first or sweep:  # the first delivery holds the claim; a sweep comes back later
                self._duplicate(turn)
                return
            log.warning("turn %s turned away: %s", turn.message_key, exc)
            await self._turn_away(turn, post, replies.TOO_BUSY, "too_busy")
            return
        try:
            if place.position and notify is not None and first:
                await self._notify(turn, notify, replies.QUEUED.format(position=replies.ordinal(place.position)))
            await self._queue.wait(place)
        except BaseException:  # cancelled while waiting (shutdown): the place must not be lost
            self._queue.abandon(place)
            raise
        try:
            await self._answer(turn, post, progress, started, place, target)
        finally:
            self._queue.leave()

    async def _answer(
        self,
        turn: Turn,
        post: Poster,
        progress: ProgressCallback | None,
        started: float,
        place: Place,
        target: ReplyTarget | None,
    ) -> None:
        try:
            answer = await self._service.answer(turn, progress=progress, target=target)
        except Exception as exc:  # storage or anything outside the graph failed
            log.exception("turn %s failed before answering", turn.message_key)
            answer = TurnAnswer(result=apology(turn, f"{type(exc).__name__}: {exc}"), turn_id="", duplicate=False)
        if answer.duplicate or answer.result is None:
            self._duplicate(turn)
            return
        outcome: str = answer.result.kind
        try:
            reply_id = await post(answer)
        except Exception as exc:
            log.exception("posting the reply to %s failed", turn.message_key)
            outcome = "undelivered"
            if self._metrics is not None:
                self._metrics.errors.labels("post").inc()
            if answer.turn_id:
                await self._service.undelivered(answer.turn_id, f"{type(exc).__name__}: {exc}")
        else:
            if answer.turn_id:
                await self._service.delivered(answer.turn_id, reply_id)
        took = time.perf_counter() - started
        if self._metrics is not None:
            self._metrics.answered(turn.platform, answer.result, outcome)
            self._metrics.turn_seconds.labels(turn.platform).observe(took)
        self._turn_log.info(
            "turn",
            reference=turn.message_key,
            turn_id=answer.turn_id or None,
            platform=turn.platform,
            route=answer.result.route.route,
            branch=answer.result.branch,
            outcome=outcome,
            latency_ms=round(took * 1000, 1),
            queued=place.position,
        )

    async def _turn_away(self, turn: Turn, post: Poster, text: str, outcome: str) -> None:
        """Reply without the core; the message is remembered so a redelivery gets no second reply."""
        self._remember(turn.message_key, turned_away=True)
        if self._metrics is not None:
            self._metrics.turned_away(turn.platform, outcome)
        self._turn_log.info(
            "turn", reference=turn.message_key, platform=turn.platform, route=NONE, branch=NONE, outcome=outcome
        )
        try:
            await post(TurnAnswer(result=refusal(turn, text, outcome), turn_id="", duplicate=False))
        except Exception:
            log.exception("posting the %s reply to %s failed", outcome, turn.message_key)
            if self._metrics is not None:
                self._metrics.errors.labels("post").inc()

    async def _notify(self, turn: Turn, notify: Notifier, text: str) -> None:
        try:
            await notify(text)
        except Exception:  # a lost notice must not lose the answer
            log.warning("the queued notice for %s could not be posted", turn.message_key, exc_info=True)

    def _duplicate(self, turn: Turn) -> None:
        if self._metrics is not None:
            self._metrics.duplicates.labels(turn.platform).inc()
        self._turn_log.info("duplicate", reference=turn.message_key, platform=turn.platform)

    def _remember(self, message_key: str, *, turned_away: bool) -> None:
        self._deliveries[message_key] = turned_away
        self._deliveries.move_to_end(message_key)
        while len(self._deliveries) > REMEMBERED_DELIVERIES:
            self._deliveries.popitem(last=False)
