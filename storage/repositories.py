"""SQLAlchemy implementations of the core's storage ports."""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Sequence

from sqlalchemy import ColumnElement, and_, delete, select, update
from sqlalchemy.exc import IntegrityError

from core.contracts import TableResult
from core.knowledge import DocumentRecord
from core.records import (
    ConversationKey,
    ConversationState,
    DecisionRecord,
    Feedback,
    ThreadMemory,
)
from storage.database import Database, as_utc
from storage.ledger import SqlTurnLedger
from storage.models import (
    ChannelAccessRow,
    ConversationRow,
    DocumentRow,
    FeedbackRow,
    ResultSetRow,
    RouterDecisionRow,
)

__all__ = [
    "SqlChannelAccess",
    "SqlConversationStore",
    "SqlDecisionLog",
    "SqlDocumentRegistry",
    "SqlResultSetStore",
    "SqlTurnLedger",
]


def _new_id() -> str:
    return str(uuid.uuid4())


class SqlConversationStore:
    """Conversations keyed by (platform, tenant, channel, thread)."""

    def __init__(self, *, database: Database) -> None:
        self._db = database

    async def find(self, key: ConversationKey) -> ConversationState | None:
        """The conversation for `key` if there is one; never creates it."""
        async with self._db.sessions() as session:
            row = (await session.execute(select(ConversationRow).where(_where(key)))).scalar_one_or_none()
        return _state(row, key) if row else None

    async def open(self, key: ConversationKey, now: dt.datetime) -> ConversationState:
        """The conversation for `key`, created on first use (safe under concurrent creation)."""
        where = _where(key)
        async with self._db.sessions() as session:
            row = (await session.execute(select(ConversationRow).where(where))).scalar_one_or_none()
            if row is None:
                row = ConversationRow(
                    id=_new_id(),
                    platform=key.platform,
                    tenant=key.tenant,
                    channel_key=key.channel_key,
                    thread=key.thread,
                    summary="",
                    state={},
                    created_at=now,
                    updated_at=now,
                )
                session.add(row)
                try:
                    await session.commit()
                except IntegrityError:  # another worker created it first
                    await session.rollback()
                    row = (await session.execute(select(ConversationRow).where(where))).scalar_one()
            return _state(row, key)

    async def save(self, state: ConversationState) -> None:
        """Store the conversation's rolling state."""
        async with self._db.sessions() as session:
            await session.execute(
                update(ConversationRow)
                .where(ConversationRow.id == state.conversation_id)
                .values(
                    summary=state.summary,
                    last_query=state.last_query,
                    last_route=state.last_route,
                    state=state.memory.model_dump(mode="json"),
                    updated_at=state.updated_at,
                )
            )
            await session.commit()


def _where(key: ConversationKey) -> ColumnElement[bool]:
    return and_(
        ConversationRow.platform == key.platform,
        ConversationRow.tenant == key.tenant,
        ConversationRow.channel_key == key.channel_key,
        ConversationRow.thread == key.thread,
    )


def _state(row: ConversationRow, key: ConversationKey) -> ConversationState:
    return ConversationState(
        conversation_id=row.id,
        key=key,
        summary=row.summary,
        last_query=row.last_query,
        last_route=row.last_route,
        memory=ThreadMemory.model_validate(row.state or {}),
        updated_at=as_utc(row.updated_at),
    )


class SqlDecisionLog:
    """Router decisions, newest last."""

    def __init__(self, *, database: Database) -> None:
        self._db = database

    async def record(self, decision: DecisionRecord) -> None:
        """Store one decision."""
        data = decision.model_dump(mode="json", exclude={"feedback"})
        data["created_at"] = decision.created_at
        async with self._db.sessions() as session:
            session.add(RouterDecisionRow(**data))
            await session.commit()

    async def latest(self, limit: int) -> list[DecisionRecord]:
        """The `limit` most recent decisions, oldest first."""
        async with self._db.sessions() as session:
            rows = (
                (await session.execute(select(RouterDecisionRow).order_by(RouterDecisionRow.id.desc()).limit(limit)))
                .scalars()
                .all()
            )
            clicks = (
                (
                    await session.execute(
                        select(FeedbackRow)
                        .where(FeedbackRow.turn_id.in_([row.turn_id for row in rows]))
                        .order_by(FeedbackRow.created_at)
                    )
                )
                .scalars()
                .all()
            )
        feedback: dict[str, list[Feedback]] = {}
        for click in clicks:
            feedback.setdefault(click.turn_id, []).append(
                Feedback(value=click.value, user=click.user_id, at=as_utc(click.created_at))
            )
        hidden = {"created_at", "feedback"}
        return [
            DecisionRecord.model_validate(
                {
                    **{c: getattr(row, c) for c in DecisionRecord.model_fields if c not in hidden},
                    "created_at": as_utc(row.created_at),
                    "feedback": feedback.get(row.turn_id, []),
                }
            )
            for row in reversed(rows)
        ]

    async def add_feedback(self, turn_id: str, feedback: Feedback) -> bool:
        """Store a person's feedback on a turn, replacing their earlier click; False for an unknown turn."""
        async with self._db.sessions() as session:
            known = await session.scalar(select(RouterDecisionRow.id).where(RouterDecisionRow.turn_id == turn_id))
            if known is None:
                return False
            await session.execute(
                delete(FeedbackRow).where(FeedbackRow.turn_id == turn_id, FeedbackRow.user_id == feedback.user)
            )
            row = FeedbackRow(turn_id=turn_id, user_id=feedback.user, value=feedback.value, created_at=feedback.at)
            session.add(row)
            await session.commit()
        return True


class SqlDocumentRegistry:
    """The documents registry."""

    def __init__(self, *, database: Database) -> None:
        self._db = database

    async def find(self, collection: str, source_path: str) -> DocumentRecord | None:
        """The registered document for a file in a collection."""
        async with self._db.sessions() as session:
            row = (
                await session.execute(
                    select(DocumentRow).where(
                        DocumentRow.collection == collection, DocumentRow.source_path == source_path
                    )
                )
            ).scalar_one_or_none()
        return _record(row) if row else None

    async def save(self, record: DocumentRecord) -> None:
        """Insert or replace a document's registry entry."""
        values = record.model_dump()
        values["facets"] = record.facets.model_dump(mode="json") if record.facets else None  # dates as text
        async with self._db.sessions() as session:
            await session.execute(delete(DocumentRow).where(DocumentRow.doc_id == record.doc_id))
            session.add(DocumentRow(**values))
            await session.commit()

    async def remove(self, doc_id: str) -> None:
        """Forget a document."""
        async with self._db.sessions() as session:
            await session.execute(delete(DocumentRow).where(DocumentRow.doc_id == doc_id))
            await session.commit()

    async def list_documents(self, collection: str | None = None) -> list[DocumentRecord]:
        """Every registered document, optionally of one collection."""
        query = select(DocumentRow).order_by(DocumentRow.collection, DocumentRow.relative_path)
        if collection is not None:
            query = query.where(DocumentRow.collection == collection)
        async with self._db.sessions() as session:
            rows = (await session.execute(query)).scalars().all()
        return [_record(row) for row in rows]


def _record(row: DocumentRow) -> DocumentRecord:
    data = {c: getattr(row, c) for c in DocumentRecord.model_fields}
    data["ingested_at"] = as_utc(row.ingested_at)
    return DocumentRecord.model_validate(data)


class SqlResultSetStore:
    """Full result sets; pages are cut from the stored rows, the total is exact."""

    def __init__(self, *, database: Database) -> None:
        self._db = database

    async def save(self, table: TableResult, rows: Sequence[Sequence[str]], now: dt.datetime) -> str:
        """Store every row of a result and return its id."""
        result_set_id = _new_id()
        async with self._db.sessions() as session:
            session.add(
                ResultSetRow(
                    id=result_set_id,
                    created_at=now,
                    columns=list(table.columns),
                    rows=[list(r) for r in rows],
                    total=len(rows),
                )
            )
            await session.commit()
        return result_set_id

    async def page(self, result_set_id: str, offset: int, limit: int) -> TableResult | None:
        """Rows `offset` to `offset + limit` of a stored result."""
        async with self._db.sessions() as session:
            row = await session.get(ResultSetRow, result_set_id)
        if row is None:
            return None
        shown = row.rows[offset : offset + limit]
        return TableResult(
            columns=row.columns, rows=shown, total=row.total, shown=len(shown), result_set_id=result_set_id
        )


class SqlChannelAccess:
    """Which collections a channel key may read (`threadwise channels set`)."""

    def __init__(self, *, database: Database) -> None:
        self._db = database

    async def set(self, channel_key: str, collections: Sequence[str]) -> None:
        """Replace a channel's collections."""
        async with self._db.sessions() as session:
            await session.execute(delete(ChannelAccessRow).where(ChannelAccessRow.channel_key == channel_key))
            session.add_all(ChannelAccessRow(channel_key=channel_key, collection=c) for c in dict.fromkeys(collections))
            await session.commit()

    async def mapping(self) -> dict[str, list[str]]:
        """Every mapped channel and its collections."""
        async with self._db.sessions() as session:
            rows = (await session.execute(select(ChannelAccessRow).order_by(ChannelAccessRow.channel_key))).scalars()
            mapping: dict[str, list[str]] = {}
            for row in rows:
                mapping.setdefault(row.channel_key, []).append(row.collection)
        return mapping
