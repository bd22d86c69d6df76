"""slack-bolt wiring: listeners hand events to the core in the background and ack at once."""

from __future__ import annotations

import logging
import re
from typing import Any

from aiohttp import web
from slack_bolt.adapter.aiohttp import to_aiohttp_response, to_bolt_request
from slack_bolt.async_app import AsyncApp
from slack_sdk.web.async_client import AsyncWebClient

from bots.edge import EdgeService
from bots.slack.convert import (
    SlackTarget,
    event_to_turn,
    is_direct,
    is_from_person,
    result_to_text,
    target_of,
    thread_of,
)
from bots.slack.repost import slack_reply_target
from core.orchestrator.service import TurnAnswer
from core.records import ConversationKey

log = logging.getLogger(__name__)
PROGRESS_REACTION = "hourglass_flowing_sand"


class SlackEdge:
    """The `/slack/events` endpoint: signature-checked by bolt, answered through `EdgeService`."""

    def __init__(self, *, edge: EdgeService, bot_token: str, signing_secret: str, api_url: str | None) -> None:
        self._edge = edge
        client = AsyncWebClient(token=bot_token, base_url=api_url) if api_url else AsyncWebClient(token=bot_token)
        self.app = AsyncApp(client=client, signing_secret=signing_secret, process_before_response=False)
        self.app.event("app_mention")(self._on_mention)
        self.app.event("message")(self._on_message)
        # Bolt answers 404 to events nobody listens to; every signed request gets its 200.
        self.app.event(re.compile(".*"))(self._ignore)

    async def handle(self, request: web.Request) -> web.Response:
        """aiohttp handler for `/slack/events`."""
        response = await self.app.async_dispatch(await to_bolt_request(request))
        return await to_aiohttp_response(response)

    async def _ignore(self) -> None:
        return None

    async def _on_mention(self, event: dict[str, Any], context: dict[str, Any], client: AsyncWebClient) -> None:
        if is_from_person(event, context.get("bot_user_id")):
            self._submit(event, context, client)

    async def _on_message(self, event: dict[str, Any], context: dict[str, Any], client: AsyncWebClient) -> None:
        if not is_from_person(event, context.get("bot_user_id")):
            return
        if is_direct(event):
            self._submit(event, context, client)
            return
        mention = f"<@{context.get('bot_user_id')}"
        if not event.get("thread_ts") or mention in (event.get("text") or ""):
            return  # channel chatter, or the copy of an @mention that app_mention handles
        team = str(context.get("team_id") or event.get("team"))
        key = ConversationKey(
            platform="slack",
            tenant=team,
            channel_key=f"slack:{team}:{event['channel']}",
            thread=thread_of(event),
        )
        # Checked before any work: only threads the bot is already part of.
        if await self._edge.knows_thread(key):
            self._submit(event, context, client)

    def _submit(self, event: dict[str, Any], context: dict[str, Any], client: AsyncWebClient) -> None:
        team = str(context.get("team_id") or event.get("team"))
        turn = event_to_turn(event, team)
        target = target_of(event)
        progress = _Progress(client, target)

        async def post(answer: TurnAnswer) -> str | None:
            assert answer.result is not None
            try:
                reply = await client.chat_postMessage(
                    channel=target.channel,
                    thread_ts=target.thread_ts,
                    text=result_to_text(answer.result),
                    unfurl_links=False,
                )
            finally:
                await progress.done()
            return str(reply.get("ts")) if reply.get("ts") else None

        self._edge.spawn(self._edge.answer_and_post(turn, post, progress, target=slack_reply_target(event)))


class _Progress:
    """Shows work in progress as a reaction on the asker's message."""

    def __init__(self, client: AsyncWebClient, target: SlackTarget) -> None:
        self._client = client
        self._target = target
        self._shown = False

    async def __call__(self, stage: str) -> None:
        if self._shown:
            return
        self._shown = True
        await self._client.reactions_add(
            channel=self._target.channel, timestamp=self._target.message_ts, name=PROGRESS_REACTION
        )

    async def done(self) -> None:
        if not self._shown:
            return
        try:
            await self._client.reactions_remove(
                channel=self._target.channel, timestamp=self._target.message_ts, name=PROGRESS_REACTION
            )
        except Exception:  # a stale reaction must not lose the answer
            log.warning("could not remove the progress reaction", exc_info=True)
