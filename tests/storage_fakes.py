"""In-memory fakes of the storage ports and the turn service built on them; each storage fake passes
the same contract suite as the SQL repositories."""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Sequence
from dataclasses import dataclass

from core.access import UnmappedPolicy
from core.contracts import TableResult, Turn
from core.knowledge import DocumentRecord
from core.llm.gateway import LlmGateway
from core.orchestrator.commands import Commands
from core.orchestrator.graph import AnswerGraph
from core.orchestrator.service import TurnService
from core.ports import Clock, ConversationStore, DecisionLog, TurnLedger
from core.records import (
    ConversationKey,
    ConversationState,
    DecisionRecord,
    Feedback,
    ReplyTarget,
    StaleTurn,
    TurnClaim,
    TurnStatus,
)


class InMemoryConversations:
    """Conversations in a dict."""

    def __init__(self) -> None:
        self.states: dict[tuple[str, ...], ConversationState] = {}

    async def open(self, key: ConversationKey, now: dt.datetime) -> ConversationState:
        ident = (key.platform, key.tenant, key.channel_key, key.thread)
        if ident not in self.states:
            self.states[ident] = ConversationState(conversation_id=str(uuid.uuid4()), key=key, updated_at=now)
        return self.states[ident].model_copy()

    async def find(self, key: ConversationKey) -> ConversationState | None:
        state = self.states.get((key.platform, key.tenant, key.channel_key, key.thread))
        return state.model_copy() if state else None

    async def save(self, state: ConversationState) -> None:
        key = state.key
        self.states[(key.platform, key.tenant, key.channel_key, key.thread)] = state.model_copy()


@dataclass
class _LedgerRow:
    turn_id: str
    turn: Turn
    status: TurnStatus
    lease: dt.datetime
    attempts: int = 1
    reply_id: str | None = None
    target: ReplyTarget | None = None


class InMemoryLedger:
    """The turn ledger in a dict keyed by message key."""

    def __init__(self) -> None:
        self.rows: dict[str, _LedgerRow] = {}

    async def claim(
        self,
        turn: Turn,
        conversation_id: str,
        now: dt.datetime,
        lease_seconds: float,
        target: ReplyTarget | None = None,
    ) -> TurnClaim:
        lease = now + dt.timedelta(seconds=lease_seconds)
        row = self.rows.get(turn.message_key)
        if row is None:
            row = _LedgerRow(turn_id=str(uuid.uuid4()), turn=turn, status="claimed", lease=lease, target=target)
            self.rows[turn.message_key] = row
            return TurnClaim(turn_id=row.turn_id, claimed=True, status="claimed")
        takeover = row.status == "failed" or (row.status == "claimed" and row.lease < now)
        if takeover:
            row.status, row.lease, row.attempts = "claimed", lease, row.attempts + 1
            row.target = target or row.target
        return TurnClaim(turn_id=row.turn_id, claimed=takeover, status=row.status, reply_id=row.reply_id)

    async def stale(self, now: dt.datetime, limit: int) -> list[StaleTurn]:
        lapsed = [r for r in self.rows.values() if r.status == "claimed" and r.lease < now]
        return [
            StaleTurn(
                turn_id=r.turn_id,
                message_key=r.turn.message_key,
                platform=r.turn.platform,
                tenant=r.turn.tenant,
                channel_key=r.turn.channel_key,
                thread=r.turn.thread,
                user=r.turn.user,
                text=r.turn.text,
                received_at=r.turn.received_at,
                attempts=r.attempts,
                reply_id=r.reply_id,
                target=r.target,
            )
            for r in sorted(lapsed, key=lambda r: r.turn.received_at)[:limit]
        ]

    def _row(self, turn_id: str) -> _LedgerRow:
        return next(r for r in self.rows.values() if r.turn_id == turn_id)

    async def record_reply(self, turn_id: str, reply_id: str) -> None:
        self._row(turn_id).reply_id = reply_id

    async def mark_answered(self, turn_id: str, now: dt.datetime, reply_id: str | None) -> None:
        row = self._row(turn_id)
        row.status, row.reply_id = "answered", reply_id or row.reply_id

    async def mark_failed(self, turn_id: str, now: dt.datetime, error: str) -> None:
        self._row(turn_id).status = "failed"

    async def turn_for_reply(self, platform: str, reply_id: str) -> str | None:
        found = [r.turn_id for r in self.rows.values() if r.turn.platform == platform and r.reply_id == reply_id]
        return found[-1] if found else None


class InMemoryDecisions:
    """Router decisions in a list."""

    def __init__(self) -> None:
        self.items: list[DecisionRecord] = []

    async def record(self, decision: DecisionRecord) -> None:
        self.items.append(decision)

    async def latest(self, limit: int) -> list[DecisionRecord]:
        return self.items[-limit:]

    async def add_feedback(self, turn_id: str, feedback: Feedback) -> bool:
        for i, item in enumerate(self.items):
            if item.turn_id == turn_id:
                kept = [f for f in item.feedback if f.user != feedback.user]
                self.items[i] = item.model_copy(update={"feedback": [*kept, feedback]})
                return True
        return False


class InMemoryRegistry:
    """The documents registry in a dict."""

    def __init__(self) -> None:
        self.records: dict[str, DocumentRecord] = {}

    async def find(self, collection: str, source_path: str) -> DocumentRecord | None:
        return next(
            (r for r in self.records.values() if r.collection == collection and r.source_path == source_path),
            None,
        )

    async def save(self, record: DocumentRecord) -> None:
        self.records[record.doc_id] = record.model_copy()

    async def remove(self, doc_id: str) -> None:
        self.records.pop(doc_id, None)

    async def list_documents(self, collection: str | None = None) -> list[DocumentRecord]:
        return [r for r in self.records.values() if collection is None or r.collection == collection]


class InMemoryResultSets:
    """Result sets in a dict."""

    def __init__(self) -> None:
        self.sets: dict[str, tuple[list[str], list[list[str]]]] = {}

    async def save(self, table: TableResult, rows: Sequence[Sequence[str]], now: dt.datetime) -> str:
        result_set_id = str(uuid.uuid4())
        self.sets[result_set_id] = (list(table.columns), [list(r) for r in rows])
        return result_set_id

    async def page(self, result_set_id: str, offset: int, limit: int) -> TableResult | None:
        if result_set_id not in self.sets:
            return None
        columns, rows = self.sets[result_set_id]
        shown = rows[offset : offset + limit]
        return TableResult(columns=columns, rows=shown, total=len(rows), shown=len(shown), result_set_id=result_set_id)


class InMemoryChannels:
    """Channel access in a dict."""

    def __init__(self, mapping: dict[str, list[str]] | None = None) -> None:
        self.map: dict[str, list[str]] = dict(mapping or {})

    async def set(self, channel_key: str, collections: Sequence[str]) -> None:
        self.map[channel_key] = list(dict.fromkeys(collections))

    async def mapping(self) -> dict[str, list[str]]:
        return {k: list(v) for k, v in sorted(self.map.items())}


def fake_turn_service(
    graph: AnswerGraph,
    *,
    clock: Clock,
    conversations: ConversationStore | None = None,
    ledger: TurnLedger | None = None,
    decisions: DecisionLog | None = None,
    channels: dict[str, list[str]] | None = None,
    unmapped: UnmappedPolicy = "default",
    llm: LlmGateway | None = None,
) -> TurnService:
    """The turn service on in-memory ports (`channels` pre-maps channel keys to collections)."""
    return TurnService(
        graph=graph,
        conversations=conversations or InMemoryConversations(),
        ledger=ledger or InMemoryLedger(),
        decisions=decisions or InMemoryDecisions(),
        channels=InMemoryChannels(channels),
        unmapped=unmapped,
        clock=clock,
        commands=Commands(result_sets=None, exporter=None),
        count_tokens=lambda texts: [len(t.split()) for t in texts],
        llm=llm or LlmGateway(),
    )
