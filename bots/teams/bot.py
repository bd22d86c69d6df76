"""botbuilder wiring, in this one module so the Microsoft 365 Agents SDK can replace it.

What goes over the wire is built by the pure converters (`convert.py`, `render.py`) as JSON;
this module only receives activities, sends JSON activities and answers invokes.
"""

from __future__ import annotations

import contextvars
import json
import logging
from types import SimpleNamespace
from typing import Any, ClassVar

import jwt
from aiohttp import web
from botbuilder.core import ActivityHandler, InvokeResponse, TurnContext
from botbuilder.integration.aiohttp import CloudAdapter, ConfigurationBotFrameworkAuthentication
from botbuilder.schema import Activity, ActivityTypes, AdaptiveCardInvokeResponse, ConversationReference, Entity
from msrest.universal_http.requests import ClientRetryPolicy

from bots.edge import EdgeService
from bots.teams import texts
from bots.teams.convert import activity_to_turn, card_action_text, conversation_key, feedback_of, mentions_bot
from bots.teams.render import answer_activity
from bots.teams.repost import teams_reply_target
from bots.teams.shape import malformed
from bots.teams.stream import Stream
from core.orchestrator.service import TurnAnswer

log = logging.getLogger(__name__)


def quick_retry_policies() -> None:
    """Make msrest's retry policy cheap to build: its safe status codes as a set, not a list.

    botbuilder builds new connector and token clients for every activity it receives and every
    proactive send, and each client builds a `ClientRetryPolicy`, whose status list takes 999
    membership tests against a 502-item list (~3 ms). That work runs on the event loop. Under a
    burst of 100 Teams activities, profiled with py-spy, it was half of the loop's time, and every
    Slack and Teams ack waited behind it. A frozenset holds the same codes, and the policy is
    unchanged. msrest is deprecated and will not release the fix (Azure/msrest-for-python#266);
    azure-core made the same change in its own retry policy.
    """
    ClientRetryPolicy.safe_codes = frozenset(ClientRetryPolicy.safe_codes)  # type: ignore[assignment]  # only `in`


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
        quick_retry_policies()
        config = SimpleNamespace(
            APP_ID=self._app_id, APP_PASSWORD=app_password or "", APP_TYPE=app_type, APP_TENANTID=tenant_id
        )
        self.adapter = CloudAdapter(ConfigurationBotFrameworkAuthentication(config))
        self.adapter.on_turn_error = self._on_error
        self._bot = _Bot(self)
        # The activity as Teams sent it: botbuilder's models drop the fields of its entities
        # (mentions), so the converters read the JSON; set per request, read inside its turn.
        self._received: contextvars.ContextVar[dict[str, Any]] = contextvars.ContextVar("teams_activity")

    async def handle(self, request: web.Request) -> web.StreamResponse:
        """aiohttp handler for `/api/messages`; returns at once, the answer follows proactively."""
        try:
            received = await request.json()
        except json.JSONDecodeError as exc:
            raise web.HTTPBadRequest(text="the body is not a JSON activity") from exc
        wrong = malformed(received)
        if wrong is not None:
            log.warning("Teams request refused: %s", wrong)
            raise web.HTTPBadRequest(text=wrong)
        self._received.set(received)
        try:
            response = await self.adapter.process(request, self._bot)
        except jwt.InvalidTokenError as exc:  # the SDK lets a malformed token escape as a 500
            log.warning("Teams request with an invalid token refused: %s", exc)
            raise web.HTTPUnauthorized() from exc
        return response or web.Response(status=201)

    async def _on_error(self, context: TurnContext, error: Exception) -> None:
        log.error("Teams turn failed: %s", error, exc_info=error)

    async def accept(self, context: TurnContext) -> bool:
        """Hand a message or a card click to the core in the background; False when it is not for the bot."""
        activity = self.received(context)
        turn = activity_to_turn(activity)
        if turn is None or not turn.text:
            return False
        kind = (activity.get("conversation") or {}).get("conversationType") or "personal"
        clicked = card_action_text(activity) is not None
        # With the RSC permission Teams sends every channel message: only follow-ups in a thread
        # the bot already answers are for it (group chats have no threads: a mention only).
        addressed = kind == "personal" or clicked or mentions_bot(activity)
        if not addressed and (kind != "channel" or not await self._edge.knows_thread(conversation_key(turn))):
            return False
        reference = TurnContext.get_conversation_reference(context.activity)
        stream = Stream(send=lambda wire: self.send(reference, wire)) if turn.is_direct else None

        async def post(answer: TurnAnswer) -> str | None:
            assert answer.result is not None
            if stream is not None:
                return await stream.finish(answer.result)
            return await self.send(reference, answer_activity(answer.result))

        target = teams_reply_target(reference, direct=turn.is_direct)
        self._edge.spawn(self._edge.answer_and_post(turn, post, stream.progress if stream else None, target=target))
        return True

    async def feedback(self, context: TurnContext) -> None:
        """A 👍/👎 from the Teams feedback loop, stored against the turn whose reply it rates."""
        found = feedback_of(self.received(context))
        if found is None:
            return
        reply_id, user, value = found
        turn_id = await self._edge.turn_for_reply("teams", reply_id)
        if turn_id is None or not await self._edge.feedback(turn_id, user, value):
            log.warning("feedback on an unknown Teams message %s ignored", reply_id)

    def received(self, context: TurnContext) -> dict[str, Any]:
        """The JSON of the activity this turn handles, with every field Teams sent."""
        received = self._received.get({})
        if received.get("id") == context.activity.id:
            return received
        return dict(context.activity.serialize())

    async def send(self, reference: ConversationReference, wire: dict[str, Any]) -> str | None:
        """Post a JSON activity to the conversation id exactly as received (replies stay in the chain)."""
        sent: list[str | None] = []

        async def callback(context: TurnContext) -> None:
            response = await context.send_activity(_sdk_activity(wire))
            sent.append(response.id if response else None)

        await self.adapter.continue_conversation(reference, callback, self._app_id)
        return sent[0] if sent else None

    async def update(self, reference: ConversationReference, reply_id: str, wire: dict[str, Any]) -> None:
        """Replace the activity posted as `reply_id` (the stale-claim sweep edits, never posts twice)."""

        async def callback(context: TurnContext) -> None:
            activity = _sdk_activity(wire)
            activity.id = reply_id
            await context.update_activity(activity)

        await self.adapter.continue_conversation(reference, callback, self._app_id)


class _WireEntity(Entity):  # type: ignore[misc]  # botbuilder ships no type hints
    """An entity sent as given: botbuilder's `Entity` would drop every field but `type`."""

    # msrest writes a model's `additional_properties` (key "") at the top level of its JSON.
    _attribute_map: ClassVar[dict[str, dict[str, str]]] = {
        "type": {"key": "type", "type": "str"},
        "additional_properties": {"key": "", "type": "{object}"},
    }

    def __init__(self, *, properties: dict[str, Any]) -> None:
        super().__init__(type=properties.get("type"))
        self.additional_properties = {k: v for k, v in properties.items() if k != "type"}


class _CardActionReply(AdaptiveCardInvokeResponse):  # type: ignore[misc]
    """An `Action.Execute` answer with a text `value`, which botbuilder types as an object only."""

    _attribute_map: ClassVar[dict[str, dict[str, str]]] = {
        "status_code": {"key": "statusCode", "type": "int"},
        "type": {"key": "type", "type": "str"},
        "value": {"key": "value", "type": "str"},
    }


def _sdk_activity(wire: dict[str, Any]) -> Activity:
    activity = Activity().deserialize(wire)
    activity.entities = [_WireEntity(properties=e) for e in wire.get("entities") or []] or None
    return activity


class _Bot(ActivityHandler):  # type: ignore[misc]  # botbuilder ships no type hints
    def __init__(self, edge: TeamsEdge) -> None:
        self._edge = edge

    async def on_message_activity(self, turn_context: TurnContext) -> None:
        accepted = await self._edge.accept(turn_context)
        kind = turn_context.activity.conversation.conversation_type if turn_context.activity.conversation else None
        if not accepted or kind in (None, "personal"):
            return  # a personal chat shows streaming progress instead
        try:
            await turn_context.send_activity(Activity(type=ActivityTypes.typing))
        except Exception:  # the indicator is a courtesy; the answer is already on its way
            log.warning("could not send the typing indicator", exc_info=True)

    async def on_invoke_activity(self, turn_context: TurnContext) -> InvokeResponse | None:
        name = turn_context.activity.name
        if name == "message/submitAction":
            await self._edge.feedback(turn_context)
            return InvokeResponse(status=200)  # the SDK serializes only its own models as a body
        if name == "adaptiveCard/action" and card_action_text(self._edge.received(turn_context)):
            await self._edge.accept(turn_context)
            message = "application/vnd.microsoft.activity.message"
            body = _CardActionReply(status_code=200, type=message, value=texts.CARD_ACTION_DONE)
            return InvokeResponse(status=200, body=body)
        return await super().on_invoke_activity(turn_context)
