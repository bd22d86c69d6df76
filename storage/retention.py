"""Retention: forget conversations and what was said in them after `THREADWISE_RETENTION_DAYS`."""

from __future__ import annotations

import datetime as dt
from dataclasses import asdict, dataclass

from sqlalchemy import delete, exists, select

from storage.database import Database
from storage.models import ConversationRow, FeedbackRow, ResultSetRow, RouterDecisionRow, TurnRow


@dataclass(frozen=True)
class PurgeReport:
    """How many rows of each kind a purge removed."""

    conversations: int
    turns: int
    decisions: int
    feedback: int
    result_sets: int

    def as_dict(self) -> dict[str, int]:
        """The counts by table, for the CLI and logs."""
        return asdict(self)


async def purge_older_than(database: Database, cutoff: dt.datetime) -> PurgeReport:
    """Delete turns, decisions, feedback and result sets made before `cutoff`, and conversations idle since.

    A conversation still in use keeps its row (its rolling state), but its old turns go; a
    claim still being worked on is never deleted; feedback goes with its decision.
    """
    async with database.sessions() as session:
        turns = await session.execute(
            delete(TurnRow).where(
                TurnRow.created_at < cutoff,
                (TurnRow.status != "claimed") | (TurnRow.lease_expires_at < cutoff),
            )
        )
        decisions = await session.execute(delete(RouterDecisionRow).where(RouterDecisionRow.created_at < cutoff))
        orphaned = ~exists(select(RouterDecisionRow.id).where(RouterDecisionRow.turn_id == FeedbackRow.turn_id))
        feedback = await session.execute(delete(FeedbackRow).where((FeedbackRow.created_at < cutoff) | orphaned))
        result_sets = await session.execute(delete(ResultSetRow).where(ResultSetRow.created_at < cutoff))
        idle = ~exists(select(TurnRow.id).where(TurnRow.conversation_id == ConversationRow.id))
        conversations = await session.execute(delete(ConversationRow).where(ConversationRow.updated_at < cutoff, idle))
        await session.commit()
    return PurgeReport(
        conversations=conversations.rowcount,  # type: ignore[attr-defined]
        turns=turns.rowcount,  # type: ignore[attr-defined]
        decisions=decisions.rowcount,  # type: ignore[attr-defined]
        feedback=feedback.rowcount,  # type: ignore[attr-defined]
        result_sets=result_sets.rowcount,  # type: ignore[attr-defined]
    )


async def purge_expired(database: Database, now: dt.datetime, retention_days: int) -> PurgeReport:
    """Purge everything older than `retention_days` before `now`."""
    return await purge_older_than(database, now - dt.timedelta(days=retention_days))
