"""Work in progress, shown while a turn is answered and always cleared at the end."""

from __future__ import annotations

import logging

from slack_sdk.web.async_client import AsyncWebClient

from bots.slack import texts
from bots.slack.convert import SlackTarget

log = logging.getLogger(__name__)
PROGRESS_REACTION = "hourglass_flowing_sand"


class Progress:
    """An assistant thread's status (`assistant.threads.setStatus`), elsewhere a reaction on the asker's message."""

    def __init__(self, client: AsyncWebClient, target: SlackTarget) -> None:
        self._client = client
        self._target = target
        self._shown = False

    @property
    def _status(self) -> bool:
        return self._target.assistant and self._target.thread_ts is not None

    async def __call__(self, stage: str) -> None:
        if self._shown:
            return
        self._shown = True
        if self._status:
            assert self._target.thread_ts is not None
            await self._client.assistant_threads_setStatus(
                channel_id=self._target.channel,
                thread_ts=self._target.thread_ts,
                status=texts.STATUS,
                loading_messages=texts.LOADING_MESSAGES,
            )
            return
        await self._client.reactions_add(
            channel=self._target.channel, timestamp=self._target.message_ts, name=PROGRESS_REACTION
        )

    async def done(self) -> None:
        """Clear the status or remove the reaction; a failure here never loses the answer."""
        if not self._shown:
            return
        try:
            if self._status:
                assert self._target.thread_ts is not None
                await self._client.assistant_threads_setStatus(
                    channel_id=self._target.channel, thread_ts=self._target.thread_ts, status=""
                )
            else:
                await self._client.reactions_remove(
                    channel=self._target.channel, timestamp=self._target.message_ts, name=PROGRESS_REACTION
                )
        except Exception:
            log.warning("could not clear the progress indicator", exc_info=True)
