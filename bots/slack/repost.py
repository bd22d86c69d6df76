"""Slack's side of the stale-claim sweep: where a reply goes, and posting or editing it later."""

from __future__ import annotations

from typing import Any

from slack_sdk.web.async_client import AsyncWebClient

from bots.slack.convert import is_direct, result_to_text, target_of
from core.contracts import OrchestrationResult
from core.records import ReplyTarget


def slack_reply_target(event: dict[str, Any]) -> ReplyTarget:
    """Where the reply to `event` goes (its thread; a DM itself), kept with the turn's claim."""
    target = target_of(event)
    return ReplyTarget(platform="slack", channel=target.channel, thread=target.thread_ts, direct=is_direct(event))


class SlackReposter:
    """Posts a re-answered turn with `chat.postMessage`, or replaces the posted one with `chat.update`."""

    def __init__(self, *, client: AsyncWebClient) -> None:
        self._client = client

    async def post(self, target: ReplyTarget, result: OrchestrationResult) -> str | None:
        """Post into the asker's thread; the message ts."""
        reply = await self._client.chat_postMessage(
            channel=target.channel, thread_ts=target.thread, text=result_to_text(result), unfurl_links=False
        )
        return str(reply.get("ts")) if reply.get("ts") else None

    async def edit(self, target: ReplyTarget, reply_id: str, result: OrchestrationResult) -> str | None:
        """Replace the message posted as `reply_id` (its ts)."""
        reply = await self._client.chat_update(channel=target.channel, ts=reply_id, text=result_to_text(result))
        return str(reply.get("ts") or reply_id)
