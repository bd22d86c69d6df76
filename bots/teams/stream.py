"""Teams streaming in a personal chat: informative updates while the core works, then the final message."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

from bots.teams import texts
from bots.teams.render import answer_activity, final_activity, informative_activity
from core.contracts import OrchestrationResult

Sender = Callable[[dict[str, Any]], Awaitable[str | None]]
MIN_GAP_SECONDS = 1.0  # Teams throttles a stream updated more often than once a second
# What the person sees while a stage runs; stages not listed keep the previous line.
STAGE_TEXTS = {"synthesize": texts.WRITING}


class Stream:
    """One reply streamed in a personal chat; informative updates start at the core's first stage.

    Nothing is sent before the core claims the turn (its first stage reports progress), so a
    duplicate delivery opens no stream; a reply without stages (a command, a refusal) is posted
    as a plain message.
    """

    def __init__(self, *, send: Sender, clock: Callable[[], float] = time.monotonic) -> None:
        self._send = send
        self._clock = clock
        self.stream_id: str | None = None
        self._sequence = 0
        self._shown: str | None = None
        self._last = 0.0

    async def progress(self, stage: str) -> None:
        """A core stage started: the first shows "Searching the documents…", later ones may update it."""
        text = texts.SEARCHING if self._sequence == 0 else STAGE_TEXTS.get(stage)
        if text is None or text == self._shown or (self._sequence and self._since_last() < MIN_GAP_SECONDS):
            return
        self._sequence += 1
        sent = await self._send(informative_activity(text, self._sequence, self.stream_id))
        self.stream_id = self.stream_id or sent
        self._shown, self._last = text, self._clock()

    async def finish(self, result: OrchestrationResult) -> str | None:
        """Send the answer: as the stream's final message when one was opened; its id is the reply's."""
        if self.stream_id is None:
            return await self._send(answer_activity(result))
        wait = MIN_GAP_SECONDS - self._since_last()
        if wait > 0:
            await asyncio.sleep(wait)
        return await self._send(final_activity(result, self.stream_id)) or self.stream_id

    def _since_last(self) -> float:
        return self._clock() - self._last
