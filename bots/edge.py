"""What every platform edge needs from the core, and the background work that answers turns."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from core.contracts import Turn
from core.orchestrator.service import TurnAnswer, TurnService, apology
from core.ports import ConversationStore, ProgressCallback
from core.records import ConversationKey, FeedbackValue, ReplyTarget

log = logging.getLogger(__name__)
Poster = Callable[[TurnAnswer], Awaitable[str | None]]
Notifier = Callable[[str], Awaitable[None]]
"""Posts a short notice in the asker's thread before the answer (queued, rate-limited)."""


class EdgeService:
    """Answers platform turns in the background: claim, answer, post, mark — never silence."""

    def __init__(
        self,
        *,
        service: TurnService,
        conversations: ConversationStore,
        max_concurrent: int = 4,
    ) -> None:
        self._service = service
        self._conversations = conversations
        self._slots = asyncio.Semaphore(max_concurrent)
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
        return await self._service.feedback(turn_id, user, value)

    def in_flight(self, message_key: str) -> bool:
        """True while this process is answering `message_key` (the sweep leaves it alone)."""
        return message_key in self._in_flight

    async def answer_and_post(
        self,
        turn: Turn,
        post: Poster,
        progress: ProgressCallback | None,
        notify: Notifier | None = None,
        target: ReplyTarget | None = None,
    ) -> None:
        """Answer `turn` and hand the result to `post`; a failure still posts an apology.

        `target` says where the reply goes; it is kept with the claim so the sweep can answer
        the turn if this process dies before posting.
        """
        self._in_flight.add(turn.message_key)
        try:
            await self._answer_and_post(turn, post, progress, target)
        finally:
            self._in_flight.discard(turn.message_key)

    async def _answer_and_post(
        self, turn: Turn, post: Poster, progress: ProgressCallback | None, target: ReplyTarget | None
    ) -> None:
        async with self._slots:
            try:
                answer = await self._service.answer(turn, progress=progress, target=target)
            except Exception as exc:  # storage or anything outside the graph failed
                log.exception("turn %s failed before answering", turn.message_key)
                answer = TurnAnswer(result=apology(turn, f"{type(exc).__name__}: {exc}"), turn_id="", duplicate=False)
            if answer.duplicate or answer.result is None:
                return
            try:
                reply_id = await post(answer)
            except Exception as exc:
                log.exception("posting the reply to %s failed", turn.message_key)
                if answer.turn_id:
                    await self._service.undelivered(answer.turn_id, f"{type(exc).__name__}: {exc}")
                return
            if answer.turn_id:
                await self._service.delivered(answer.turn_id, reply_id)
