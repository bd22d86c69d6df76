"""Teams' side of the stale-claim sweep: the stored conversation reference, and posting or editing later."""

from __future__ import annotations

from typing import TYPE_CHECKING

from botbuilder.schema import ConversationReference

from bots.teams.render import answer_activity
from core.contracts import OrchestrationResult
from core.records import ReplyTarget

if TYPE_CHECKING:
    from bots.teams.bot import TeamsEdge


def teams_reply_target(reference: ConversationReference, *, direct: bool) -> ReplyTarget:
    """The conversation reference a reply is sent to (Teams proactive replies), kept with the turn's claim."""
    conversation = reference.conversation
    return ReplyTarget(
        platform="teams",
        channel=str(conversation.id if conversation else ""),
        thread=reference.activity_id,
        direct=direct,
        reference=reference.serialize(),
    )


class TeamsReposter:
    """Posts a re-answered turn proactively, or replaces the posted one (`update_activity`)."""

    def __init__(self, *, edge: TeamsEdge) -> None:
        self._edge = edge

    async def post(self, target: ReplyTarget, result: OrchestrationResult) -> str | None:
        """Send the reply to the conversation exactly as stored; its activity id."""
        return await self._edge.send(_reference(target), dict(answer_activity(result)))

    async def edit(self, target: ReplyTarget, reply_id: str, result: OrchestrationResult) -> str | None:
        """Replace the activity posted as `reply_id`."""
        await self._edge.update(_reference(target), reply_id, dict(answer_activity(result)))
        return reply_id


def _reference(target: ReplyTarget) -> ConversationReference:
    return ConversationReference.deserialize(target.reference)
