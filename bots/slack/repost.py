"""Slack's side of the stale-claim sweep: where a reply goes, and posting or editing it later."""

from __future__ import annotations

from slack_sdk.web.async_client import AsyncWebClient

from bots.slack import render
from bots.slack.convert import SlackTarget
from core.contracts import OrchestrationResult
from core.records import ReplyTarget


def slack_reply_target(target: SlackTarget, *, direct: bool) -> ReplyTarget:
    """Where the reply goes (the asker's thread; a DM itself), kept with the turn's claim."""
    return ReplyTarget(platform="slack", channel=target.channel, thread=target.thread_ts, direct=direct)


class SlackReposter:
    """Posts a re-answered turn with `chat.postMessage`, or replaces the posted one with `chat.update`."""

    def __init__(self, *, client: AsyncWebClient) -> None:
        self._client = client

    async def post(self, target: ReplyTarget, result: OrchestrationResult) -> str | None:
        """Post into the asker's thread, rendered as the edge renders answers; the first message's ts."""
        first: str | None = None
        for message in render.render(result, turn_id=result.turn_id or None):
            reply = await self._client.chat_postMessage(
                channel=target.channel,
                thread_ts=target.thread,
                text=message.text,
                blocks=message.blocks,
                unfurl_links=False,
            )
            first = first or (str(reply.get("ts")) if reply.get("ts") else None)
        return first

    async def edit(self, target: ReplyTarget, reply_id: str, result: OrchestrationResult) -> str | None:
        """Replace the message posted as `reply_id` (its ts); a long answer's further parts follow it."""
        head, *rest = render.render(result, turn_id=result.turn_id or None)
        await self._client.chat_update(channel=target.channel, ts=reply_id, text=head.text, blocks=head.blocks)
        for message in rest:
            await self._client.chat_postMessage(
                channel=target.channel, thread_ts=target.thread, text=message.text, blocks=message.blocks
            )
        return reply_id
