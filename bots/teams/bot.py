"""botbuilder wiring, in this one module so the Microsoft 365 Agents SDK can replace it."""

from __future__ import annotations

import logging
from types import SimpleNamespace

import jwt
from aiohttp import web
from botbuilder.core import ActivityHandler, MessageFactory, TurnContext
from botbuilder.integration.aiohttp import CloudAdapter, ConfigurationBotFrameworkAuthentication
from botbuilder.schema import Activity, ActivityTypes, ConversationReference

from bots.edge import EdgeService
from bots.teams.convert import activity_to_turn, result_to_text
from bots.teams.repost import teams_reply_target
from core.orchestrator.service import TurnAnswer

log = logging.getLogger(__name__)


class TeamsEdge:
    """The `/api/messages` endpoint: authenticated by the SDK when an app id is set."""

    def __init__(
        self,
        *,
        edge: EdgeService,
        app_id: str | None,
        app_password: str | None,
        app_type: str,
        tenant_id: str | None,
    ) -> None:
        self._edge = edge
        self._app_id = app_id or ""
        config = SimpleNamespace(
            APP_ID=self._app_id, APP_PASSWORD=app_password or "", APP_TYPE=app_type, APP_TENANTID=tenant_id
        )
        self.adapter = CloudAdapter(ConfigurationBotFrameworkAuthentication(config))
        self.adapter.on_turn_error = self._on_error
        self._bot = _Bot(self)

    async def handle(self, request: web.Request) -> web.StreamResponse:
        """aiohttp handler for `/api/messages`; returns at once, the answer follows proactively."""
        try:
            response = await self.adapter.process(request, self._bot)
        except jwt.InvalidTokenError as exc:  # the SDK lets a malformed token escape as a 500
            log.warning("Teams request with an invalid token refused: %s", exc)
            raise web.HTTPUnauthorized() from exc
        return response or web.Response(status=201)

    async def _on_error(self, context: TurnContext, error: Exception) -> None:
        log.error("Teams turn failed: %s", error, exc_info=error)

    def accept(self, context: TurnContext) -> None:
        """Hand a message to the core in the background."""
        turn = activity_to_turn(context.activity.serialize())
        if turn is None or not turn.text:
            return
        reference = TurnContext.get_conversation_reference(context.activity)

        async def post(answer: TurnAnswer) -> str | None:
            assert answer.result is not None
            text = result_to_text(answer.result)
            return await self._send(reference, text)

        target = teams_reply_target(context.activity)
        self._edge.spawn(self._edge.answer_and_post(turn, post, None, target=target))

    async def _send(self, reference: ConversationReference, text: str) -> str | None:
        """Post to the conversation id exactly as received, so replies stay in the reply chain."""
        sent: list[str | None] = []

        async def callback(context: TurnContext) -> None:
            response = await context.send_activity(MessageFactory.text(text))
            sent.append(response.id if response else None)

        await self.adapter.continue_conversation(reference, callback, self._app_id)
        return sent[0] if sent else None


class _Bot(ActivityHandler):  # type: ignore[misc]  # botbuilder ships no type hints
    def __init__(self, edge: TeamsEdge) -> None:
        self._edge = edge

    async def on_message_activity(self, turn_context: TurnContext) -> None:
        self._edge.accept(turn_context)
        try:
            await turn_context.send_activity(Activity(type=ActivityTypes.typing))
        except Exception:  # the indicator is a courtesy; the answer is already on its way
            log.warning("could not send the typing indicator", exc_info=True)
