"""slack-bolt wiring: listeners hand events and clicks to the core in the background and ack at once.

The same `AsyncApp` serves HTTP (`/slack/events`, signature-checked by bolt) and Socket Mode.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web
from slack_bolt.adapter.aiohttp import to_aiohttp_response, to_bolt_request
from slack_bolt.async_app import AsyncApp
from slack_sdk.errors import SlackApiError
from slack_sdk.http_retry.builtin_async_handlers import AsyncRateLimitErrorRetryHandler, async_default_handlers
from slack_sdk.web.async_client import AsyncWebClient

from bots.edge import EdgeService
from bots.presentation import table_csv
from bots.settings import SettingsError
from bots.slack import render, texts
from bots.slack.convert import (
    SlackTarget,
    action_to_turn,
    channel_key,
    event_to_turn,
    is_assistant_thread,
    is_direct,
    is_from_person,
    target_of,
    thread_of,
)
from bots.slack.progress import Progress
from bots.slack.repost import slack_reply_target
from core.contracts import Turn
from core.orchestrator.service import TurnAnswer
from core.records import ConversationKey

log = logging.getLogger(__name__)
TIMEOUT_S = 15
"""Every Web API call gives up after this long (slack_sdk's per-request timeout)."""
RATE_LIMIT_RETRIES = 3
STREAM_PIECE = 600
Ack = Callable[..., Awaitable[None]]


class SlackEdge:
    """Slack's events and button clicks, answered through `EdgeService`, over HTTP and Socket Mode."""

    EVENTS = ("app_mention", "message", "assistant_thread_started")
    """The Events API types with a listener (`_on_<type>`); the manifest subscribes to exactly these."""

    def __init__(
        self,
        *,
        edge: EdgeService,
        bot_token: str,
        signing_secret: str | None,
        api_url: str | None,
        stream: bool = False,
    ) -> None:
        self._edge = edge
        self._stream = stream
        self._signed = bool(signing_secret)
        retries = [*async_default_handlers(), AsyncRateLimitErrorRetryHandler(max_retry_count=RATE_LIMIT_RETRIES)]
        client = AsyncWebClient(
            token=bot_token,
            base_url=api_url or AsyncWebClient.BASE_URL,
            timeout=TIMEOUT_S,
            retry_handlers=retries,
        )
        # Without a signing secret only Socket Mode delivers requests; `handle` refuses HTTP then.
        self.app = AsyncApp(
            client=client,
            signing_secret=signing_secret or "",
            request_verification_enabled=self._signed,
            process_before_response=False,
        )
        for name in self.EVENTS:
            self.app.event(name)(getattr(self, f"_on_{name}"))
        # Bolt answers 404 to events nobody listens to; every signed request gets its 200.
        self.app.event(re.compile(".*"))(self._ignore)
        self.app.action(re.compile(f"^{render.ACTION_CHOICE}:"))(self._on_choice)
        self.app.action(render.ACTION_SHOW_MORE)(self._on_show_more)
        self.app.action(render.ACTION_EXPORT)(self._on_export)
        self.app.action(render.ACTION_FEEDBACK)(self._on_feedback)
        self._socket: Any = None

    async def handle(self, request: web.Request) -> web.Response:
        """aiohttp handler for `/slack/events`."""
        if not self._signed:
            return web.json_response({"error": "HTTP events need SLACK_SIGNING_SECRET"}, status=404)
        # Bolt reads the body before it verifies the signature, and a body that is not a JSON object
        # (or a `payload` field that is not) escapes its request's constructor as a ValueError or, for
        # a JSON array, an AttributeError: a 500. Refuse those here, in words.
        try:
            received = await to_bolt_request(request)
        except (ValueError, AttributeError):
            return web.json_response(
                {"error": "the body is not a Slack event or interaction (a JSON object)"}, status=400
            )
        response = await self.app.async_dispatch(received)
        return await to_aiohttp_response(response)

    async def connect_socket_mode(self, app_token: str) -> None:
        """Receive the same events and clicks over Socket Mode (`SLACK_APP_TOKEN`)."""
        from slack_bolt.adapter.socket_mode.aiohttp import AsyncSocketModeHandler

        try:  # slack_sdk retries a failed connection forever; a refused token should stop start-up instead
            await self.app.client.apps_connections_open(app_token=app_token)
        except SlackApiError as exc:
            error = exc.response.get("error")
            raise SettingsError(f"SLACK_APP_TOKEN: Slack refused the Socket Mode connection ({error})") from exc
        self._socket = AsyncSocketModeHandler(self.app, app_token)
        await self._socket.connect_async()

    async def close(self) -> None:
        """Disconnect Socket Mode, if connected."""
        if self._socket is not None:
            await self._socket.close_async()

    async def _ignore(self) -> None:
        return None

    async def _on_app_mention(self, event: dict[str, Any], context: dict[str, Any], client: AsyncWebClient) -> None:
        if is_from_person(event, context.get("bot_user_id")):
            self._submit_event(event, context, client)

    async def _on_message(self, event: dict[str, Any], context: dict[str, Any], client: AsyncWebClient) -> None:
        if not is_from_person(event, context.get("bot_user_id")):
            return
        if is_direct(event):
            self._submit_event(event, context, client)
            return
        mention = f"<@{context.get('bot_user_id')}"
        if not event.get("thread_ts") or mention in (event.get("text") or ""):
            return  # channel chatter, or the copy of an @mention that app_mention handles
        team = str(context.get("team_id") or event.get("team"))
        key = ConversationKey(
            platform="slack", tenant=team, channel_key=channel_key(team, event), thread=thread_of(event)
        )
        # Checked before any work: only threads the bot is already part of.
        if await self._edge.knows_thread(key):
            self._submit_event(event, context, client)

    async def _on_assistant_thread_started(self, event: dict[str, Any], client: AsyncWebClient) -> None:
        thread = event.get("assistant_thread") or {}
        await client.assistant_threads_setSuggestedPrompts(
            channel_id=str(thread["channel_id"]),
            thread_ts=str(thread["thread_ts"]),
            title=texts.SUGGESTED_PROMPTS_TITLE,
            prompts=texts.SUGGESTED_PROMPTS,
        )

    async def _on_choice(self, ack: Ack, body: dict[str, Any], action: dict[str, Any], client: AsyncWebClient) -> None:
        await ack()
        turn, target = action_to_turn(body, action, str(action["value"]))
        self._submit(turn, target, client)

    async def _on_show_more(
        self, ack: Ack, body: dict[str, Any], action: dict[str, Any], client: AsyncWebClient
    ) -> None:
        await ack()
        turn, target = action_to_turn(body, action, render.SHOW_MORE_TEXT)
        self._submit(turn, target, client)

    async def _on_export(self, ack: Ack, body: dict[str, Any], action: dict[str, Any], client: AsyncWebClient) -> None:
        await ack()
        _, target = action_to_turn(body, action, "")
        self._edge.spawn(self._upload_csv(str(action["value"]), target, client))

    async def _on_feedback(self, ack: Ack, body: dict[str, Any], action: dict[str, Any]) -> None:
        await ack()
        value, _, turn_id = str(action.get("value") or "").partition(":")
        if value not in ("up", "down") or not turn_id:
            return
        if not await self._edge.feedback(turn_id, str(body["user"]["id"]), "up" if value == "up" else "down"):
            log.warning("feedback for an unknown turn %s", turn_id)

    async def _upload_csv(self, result_set_id: str, target: SlackTarget, client: AsyncWebClient) -> None:
        try:
            table = await self._edge.result_table(result_set_id)
            if table is None:
                gone = texts.EXPORT_GONE
                await client.chat_postMessage(channel=target.channel, thread_ts=target.thread_ts, text=gone)
                return
            await client.files_upload_v2(
                channel=target.channel,
                thread_ts=target.thread_ts,
                content=table_csv(table),
                filename=f"threadwise-{result_set_id[:8]}.csv",
                title=f"threadwise-{result_set_id[:8]}.csv",
                initial_comment=texts.EXPORT_COMMENT.format(total=table.total),
            )
        except Exception:  # a background task: its failure is logged, never lost silently
            log.exception("exporting result set %s to Slack failed", result_set_id)

    def _submit_event(self, event: dict[str, Any], context: dict[str, Any], client: AsyncWebClient) -> None:
        team = str(context.get("team_id") or event.get("team"))
        turn, target = event_to_turn(event, team), target_of(event)
        if is_assistant_thread(event):
            self._edge.spawn(self._title_then_answer(turn, target, client))
        else:
            self._submit(turn, target, client)

    async def _title_then_answer(self, turn: Turn, target: SlackTarget, client: AsyncWebClient) -> None:
        key = ConversationKey(platform="slack", tenant=turn.tenant, channel_key=turn.channel_key, thread=turn.thread)
        if target.thread_ts and not await self._edge.knows_thread(key):
            try:  # the first question names the assistant thread
                await client.assistant_threads_setTitle(
                    channel_id=target.channel, thread_ts=target.thread_ts, title=turn.text[: texts.TITLE_CHARS]
                )
            except Exception:
                log.warning("could not set the assistant thread's title", exc_info=True)
        await self._answer(turn, target, client)

    def _submit(self, turn: Turn, target: SlackTarget, client: AsyncWebClient) -> None:
        self._edge.spawn(self._answer(turn, target, client))

    async def _answer(self, turn: Turn, target: SlackTarget, client: AsyncWebClient) -> None:
        progress = Progress(client, target)

        async def post(answer: TurnAnswer) -> str | None:
            assert answer.result is not None
            try:
                if self._stream and target.thread_ts and answer.result.kind == "answer":
                    return await self._stream_reply(answer, turn, target, client)
                return await self._post_reply(answer, target, client)
            finally:
                await progress.done()

        async def notify(text: str) -> None:  # a short notice before the answer (a queued turn's place)
            await client.chat_postMessage(channel=target.channel, thread_ts=target.thread_ts, text=render.escape(text))

        reply_target = slack_reply_target(target, direct=turn.is_direct)
        await self._edge.answer_and_post(turn, post, progress, notify, target=reply_target)

    async def _post_reply(self, answer: TurnAnswer, target: SlackTarget, client: AsyncWebClient) -> str | None:
        assert answer.result is not None
        first: str | None = None
        for message in render.render(answer.result, turn_id=answer.turn_id):
            reply = await client.chat_postMessage(
                channel=target.channel,
                thread_ts=target.thread_ts,
                text=message.text,
                blocks=message.blocks,
                unfurl_links=False,
            )
            first = first or (str(reply.get("ts")) if reply.get("ts") else None)
        return first

    async def _stream_reply(
        self, answer: TurnAnswer, turn: Turn, target: SlackTarget, client: AsyncWebClient
    ) -> str | None:
        """The answer streamed (chat.startStream / appendStream / stopStream), its blocks added at the end."""
        assert answer.result is not None
        assert target.thread_ts is not None
        streamer = await client.chat_stream(
            channel=target.channel,
            thread_ts=target.thread_ts,
            recipient_team_id=turn.tenant,
            recipient_user_id=turn.user,
        )
        text = render.stream_text(answer.result)
        try:
            for start in range(0, len(text), STREAM_PIECE):
                await streamer.append(markdown_text=text[start : start + STREAM_PIECE])
            await streamer.stop(blocks=render.footer_blocks(answer.result, turn_id=answer.turn_id) or None)
        except SlackApiError as exc:
            if streamer.ts is not None:
                raise
            # Streaming refused before anything showed (e.g. not allowed here): post the blocks instead.
            log.warning("streaming the answer failed (%s); posting it", exc.response.get("error"))
            return await self._post_reply(answer, target, client)
        return streamer.ts
