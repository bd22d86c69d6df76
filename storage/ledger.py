"""The turn ledger: exactly-once answering across replicas, and the stale claims a sweep re-answers."""

from __future__ import annotations

import datetime as dt
import uuid

from sqlalchemy import and_, or_, select, update
from sqlalchemy.exc import IntegrityError

from core.contracts import Turn
from core.records import ReplyTarget, StaleTurn, TurnClaim
from storage.database import Database, as_utc
from storage.models import ConversationRow, TurnRow


class SqlTurnLedger:
    """The turn ledger: a unique message key, a status and a lease."""

    def __init__(self, *, database: Database) -> None:
        self._db = database

    async def claim(
        self,
        turn: Turn,
        conversation_id: str,
        now: dt.datetime,
        lease_seconds: float,
        target: ReplyTarget | None = None,
    ) -> TurnClaim:
        """Claim a message; a second delivery gets `claimed=False` unless the first lease lapsed."""
        lease = now + dt.timedelta(seconds=lease_seconds)
        stored_target = target.model_dump(mode="json") if target else None
        async with self._db.sessions() as session:
            row = TurnRow(
                id=str(uuid.uuid4()),
                message_key=turn.message_key,
                conversation_id=conversation_id,
                platform=turn.platform,
                user_id=turn.user,
                text=turn.text,
                status="claimed",
                lease_expires_at=lease,
                reply_target=stored_target,
                attempts=1,
                created_at=now,
                updated_at=now,
            )
            session.add(row)
            try:
                await session.commit()
                return TurnClaim(turn_id=row.id, claimed=True, status="claimed")
            except IntegrityError:
                await session.rollback()
            # Someone has it: take it over only if that attempt failed or its lease ran out.
            # One conditional UPDATE, so of many replicas exactly one sees rowcount 1.
            values: dict[str, object] = {
                "status": "claimed",
                "lease_expires_at": lease,
                "updated_at": now,
                "error": None,
                "attempts": TurnRow.attempts + 1,
            }
            if stored_target is not None:
                values["reply_target"] = stored_target
            taken = await session.execute(
                update(TurnRow)
                .where(
                    TurnRow.message_key == turn.message_key,
                    or_(
                        TurnRow.status == "failed",
                        and_(TurnRow.status == "claimed", TurnRow.lease_expires_at < now),
                    ),
                )
                .values(**values)
            )
            await session.commit()
            existing = (
                await session.execute(select(TurnRow).where(TurnRow.message_key == turn.message_key))
            ).scalar_one()
            return TurnClaim(
                turn_id=existing.id,
                claimed=taken.rowcount == 1,  # type: ignore[attr-defined]
                status=existing.status,
                reply_id=existing.reply_id,
            )

    async def stale(self, now: dt.datetime, limit: int) -> list[StaleTurn]:
        """Claimed turns whose lease lapsed (their worker died), oldest first."""
        query = (
            select(TurnRow, ConversationRow)
            .join(ConversationRow, ConversationRow.id == TurnRow.conversation_id)
            .where(TurnRow.status == "claimed", TurnRow.lease_expires_at < now)
            .order_by(TurnRow.created_at)
            .limit(limit)
        )
        async with self._db.sessions() as session:
            rows = (await session.execute(query)).all()
        return [
            StaleTurn(
                turn_id=turn.id,
                message_key=turn.message_key,
                platform=turn.platform,
                tenant=conversation.tenant,
                channel_key=conversation.channel_key,
                thread=conversation.thread,
                user=turn.user_id,
                text=turn.text,
                received_at=as_utc(turn.created_at),
                attempts=turn.attempts,
                reply_id=turn.reply_id,
                target=ReplyTarget.model_validate(turn.reply_target) if turn.reply_target else None,
            )
            for turn, conversation in rows
        ]

    async def record_reply(self, turn_id: str, reply_id: str) -> None:
        """A reply is on the platform: a re-run edits it instead of posting a second one."""
        await self._set(turn_id, reply_id=reply_id)

    async def mark_answered(self, turn_id: str, now: dt.datetime, reply_id: str | None) -> None:
        """The reply was posted (with its platform id, so a re-run edits instead of posting)."""
        values: dict[str, object] = {"status": "answered", "updated_at": now}
        if reply_id is not None:  # never forget an id recorded earlier
            values["reply_id"] = reply_id
        await self._set(turn_id, **values)

    async def turn_for_reply(self, platform: str, reply_id: str) -> str | None:
        """The newest turn on `platform` whose reply has this id; None when none has."""
        query = (
            select(TurnRow.id)
            .where(TurnRow.platform == platform, TurnRow.reply_id == reply_id)
            .order_by(TurnRow.created_at.desc())
            .limit(1)
        )
        async with self._db.sessions() as session:
            return (await session.execute(query)).scalar_one_or_none()

    async def mark_failed(self, turn_id: str, now: dt.datetime, error: str) -> None:
        """The reply could not be posted."""
        await self._set(turn_id, status="failed", error=error[:2000], updated_at=now)

    async def _set(self, turn_id: str, **values: object) -> None:
        async with self._db.sessions() as session:
            await session.execute(update(TurnRow).where(TurnRow.id == turn_id).values(**values))
            await session.commit()
