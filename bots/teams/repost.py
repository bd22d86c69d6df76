"""Teams' side of the stale-claim sweep: the stored conversation reference, and posting or editing later."""

from __future__ import annotations

from typing import Any

from botbuilder.core import MessageFactory, TurnContext
from botbuilder.schema import Activity, ConversationReference

from bots.teams.convert import result_to_text
from core.contracts import OrchestrationResult
from core.records import ReplyTarget


def teams_reply_target(activity: Activity) -> ReplyTarget:
    """The conversation reference of `activity` (Teams proactive replies), kept with the turn's claim."""
    reference = TurnContext.get_conversation_reference(activity)
    conversation = reference.conversation
    return ReplyTarget(
        platform="teams",
        channel=str(conversation.id if conversation else ""),
        thread=activity.id,
        direct=bool(conversation and conversation.conversation_type == "personal"),
        reference=reference.serialize(),
    )


class TeamsReposter:
    """Posts a re-answered turn proactively (`continue_conversation`), or replaces it (`update_activity`)."""

    def __init__(self, *, adapter: Any, app_id: str) -> None:
        self._adapter = adapter
        self._app_id = app_id

    async def post(self, target: ReplyTarget, result: OrchestrationResult) -> str | None:
        """Send the reply to the conversation exactly as stored; its activity id."""
        sent: list[str | None] = []

        async def callback(context: TurnContext) -> None:
            response = await context.send_activity(MessageFactory.text(result_to_text(result)))
            sent.append(response.id if response else None)

        await self._adapter.continue_conversation(_reference(target), callback, self._app_id)
        return sent[0] if sent else None

    async def edit(self, target: ReplyTarget, reply_id: str, result: OrchestrationResult) -> str | None:
        """Replace the activity posted as `reply_id`."""

        async def callback(context: TurnContext) -> None:
            activity = MessageFactory.text(result_to_text(result))
            activity.id = reply_id
            await context.update_activity(activity)

        await self._adapter.continue_conversation(_reference(target), callback, self._app_id)
        return reply_id


def _reference(target: ReplyTarget) -> ConversationReference:
    return ConversationReference.deserialize(target.reference)
