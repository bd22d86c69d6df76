"""One contract suite per storage port, run against the in-memory fakes and SQL on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from core.contracts import RetrievalRound, SearchFilters, TableResult, Turn
from core.knowledge import DocumentRecord
from core.records import ConversationKey, DecisionRecord, Feedback, ReplyTarget, ThreadMemory
from storage.repositories import (
    SqlChannelAccess,
    SqlConversationStore,
    SqlDecisionLog,
    SqlDocumentRegistry,
    SqlResultSetStore,
    SqlTurnLedger,
)
from tests.conftest import DATABASES, migrated_database
from tests.fakes import (
    InMemoryChannels,
    InMemoryConversations,
    InMemoryDecisions,
    InMemoryLedger,
    InMemoryRegistry,
    InMemoryResultSets,
)

NOW = dt.datetime(2026, 11, 21, 12, 0, tzinfo=dt.UTC)


@pytest.fixture(params=["fake", *DATABASES])
async def ports(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[dict[str, Any]]:
    """The four storage ports, from fakes or from SQL on SQLite and PostgreSQL."""
    if request.param == "fake":
        yield {
            "conversations": InMemoryConversations(),
            "ledger": InMemoryLedger(),
            "decisions": InMemoryDecisions(),
            "registry": InMemoryRegistry(),
            "result_sets": InMemoryResultSets(),
            "channels": InMemoryChannels(),
        }
        return
    async with migrated_database(request.param, tmp_path, request) as database:
        yield {
            "conversations": SqlConversationStore(database=database),
            "ledger": SqlTurnLedger(database=database),
            "decisions": SqlDecisionLog(database=database),
            "registry": SqlDocumentRegistry(database=database),
            "result_sets": SqlResultSetStore(database=database),
            "channels": SqlChannelAccess(database=database),
        }


def _turn(key: str = "slack:T1:C1:1700000000.000100") -> Turn:
    return Turn(
        platform=key.split(":", 1)[0],  # type: ignore[arg-type]
        tenant="T1",
        channel_key="slack:T1:C1",
        thread="1700000000.000100",
        user="U1",
        message_key=key,
        text="What is the leave policy?",
        received_at=NOW,
    )


KEY = ConversationKey(platform="slack", tenant="T1", channel_key="slack:T1:C1", thread="1700000000.000100")


async def test_conversation_open_is_idempotent_and_saves_state(ports: dict[str, Any]) -> None:
    store = ports["conversations"]
    assert await store.find(KEY) is None
    first = await store.open(KEY, NOW)
    assert (await store.find(KEY)).conversation_id == first.conversation_id  # type: ignore[union-attr]
    again = await store.open(KEY, NOW)
    other = await store.open(KEY.model_copy(update={"thread": "other"}), NOW)
    assert first.conversation_id == again.conversation_id != other.conversation_id
    first.summary, first.last_query, first.last_route = "asked about leave", "leave policy", "hybrid"
    await store.save(first)
    reopened = await store.open(KEY, NOW)
    assert (reopened.summary, reopened.last_query, reopened.last_route) == (
        "asked about leave",
        "leave policy",
        "hybrid",
    )


async def test_ledger_claims_a_message_once(ports: dict[str, Any]) -> None:
    conversation = await ports["conversations"].open(KEY, NOW)
    ledger = ports["ledger"]
    first = await ledger.claim(_turn(), conversation.conversation_id, NOW, 300)
    second = await ledger.claim(_turn(), conversation.conversation_id, NOW, 300)
    assert first.claimed and not second.claimed
    assert second.turn_id == first.turn_id and second.status == "claimed"
    await ledger.mark_answered(first.turn_id, NOW, "1700000001.000200")
    third = await ledger.claim(_turn(), conversation.conversation_id, NOW + dt.timedelta(hours=1), 300)
    assert not third.claimed and third.status == "answered" and third.reply_id == "1700000001.000200"


async def test_ledger_finds_a_turn_by_its_replys_platform_id(ports: dict[str, Any]) -> None:
    conversation = await ports["conversations"].open(KEY, NOW)
    ledger = ports["ledger"]
    first = await ledger.claim(_turn("teams:activity-7"), conversation.conversation_id, NOW, 300)
    other = await ledger.claim(_turn("teams:activity-8"), conversation.conversation_id, NOW, 300)
    await ledger.mark_answered(first.turn_id, NOW, "reply-7")
    await ledger.mark_answered(other.turn_id, NOW, "reply-8")
    assert await ledger.turn_for_reply("teams", "reply-7") == first.turn_id
    assert await ledger.turn_for_reply("teams", "reply-8") == other.turn_id
    assert await ledger.turn_for_reply("teams", "reply-9") is None
    assert await ledger.turn_for_reply("slack", "reply-7") is None


async def test_ledger_concurrent_claims_have_one_winner(ports: dict[str, Any]) -> None:
    conversation = await ports["conversations"].open(KEY, NOW)
    claims = await asyncio.gather(
        *(ports["ledger"].claim(_turn("teams:activity-1"), conversation.conversation_id, NOW, 300) for _ in range(5))
    )
    assert sum(c.claimed for c in claims) == 1
    assert len({c.turn_id for c in claims}) == 1


async def test_ledger_lapsed_lease_or_failure_can_be_reclaimed(ports: dict[str, Any]) -> None:
    conversation = await ports["conversations"].open(KEY, NOW)
    ledger = ports["ledger"]
    first = await ledger.claim(_turn(), conversation.conversation_id, NOW, 60)
    still_leased = await ledger.claim(_turn(), conversation.conversation_id, NOW + dt.timedelta(seconds=30), 60)
    lapsed = await ledger.claim(_turn(), conversation.conversation_id, NOW + dt.timedelta(seconds=61), 60)
    assert first.claimed and not still_leased.claimed and lapsed.claimed
    await ledger.mark_failed(first.turn_id, NOW, "post failed")
    retried = await ledger.claim(_turn(), conversation.conversation_id, NOW + dt.timedelta(seconds=62), 60)
    assert retried.claimed and retried.turn_id == first.turn_id


TARGET = ReplyTarget(platform="slack", channel="C1", thread="1700000000.000100")


async def test_ledger_lists_only_lapsed_claims_with_their_reply_target(ports: dict[str, Any]) -> None:
    conversation = await ports["conversations"].open(KEY, NOW)
    ledger = ports["ledger"]
    lapsing = await ledger.claim(_turn(), conversation.conversation_id, NOW, 60, TARGET)
    answered = await ledger.claim(_turn("slack:T1:C1:2"), conversation.conversation_id, NOW, 60, TARGET)
    await ledger.mark_answered(answered.turn_id, NOW, "1700000002.000300")
    await ledger.claim(_turn("slack:T1:C1:3"), conversation.conversation_id, NOW + dt.timedelta(seconds=50), 60)
    assert await ledger.stale(NOW + dt.timedelta(seconds=30), 10) == []
    (stale,) = await ledger.stale(NOW + dt.timedelta(seconds=61), 10)
    assert stale.turn_id == lapsing.turn_id and stale.message_key == _turn().message_key
    assert (stale.tenant, stale.channel_key, stale.thread, stale.user) == ("T1", "slack:T1:C1", KEY.thread, "U1")
    assert stale.text == "What is the leave policy?" and stale.attempts == 1
    assert stale.target == TARGET and stale.reply_id is None


async def test_ledger_stale_claim_is_retaken_by_one_sweeper_and_keeps_its_reply(ports: dict[str, Any]) -> None:
    conversation = await ports["conversations"].open(KEY, NOW)
    ledger = ports["ledger"]
    first = await ledger.claim(_turn(), conversation.conversation_id, NOW, 60, TARGET)
    await ledger.record_reply(first.turn_id, "1700000001.000200")  # a placeholder was posted, then the worker died
    later = NOW + dt.timedelta(seconds=61)
    (stale,) = await ledger.stale(later, 10)
    assert stale.reply_id == "1700000001.000200"
    # Replicas sweep at once: the turn is re-claimed by one of them, without its target being lost.
    claims = await asyncio.gather(
        *(ledger.claim(_turn(stale.message_key), conversation.conversation_id, later, 60) for _ in range(4))
    )
    assert sum(c.claimed for c in claims) == 1
    assert {c.reply_id for c in claims} == {"1700000001.000200"}
    assert await ledger.stale(later, 10) == []
    (again,) = await ledger.stale(later + dt.timedelta(seconds=61), 10)
    assert again.attempts == 2 and again.target == TARGET
    await ledger.mark_answered(first.turn_id, later, None)
    done = await ledger.claim(_turn(), conversation.conversation_id, later + dt.timedelta(hours=1), 60)
    assert not done.claimed and done.status == "answered" and done.reply_id == "1700000001.000200"


async def test_decision_log_keeps_order_and_fields(ports: dict[str, Any]) -> None:
    log = ports["decisions"]
    attempt = RetrievalRound(
        round_id=1,
        route="hybrid",
        tool="search_hybrid",
        query="leave",
        filters=SearchFilters(),
        matches=7,
        threshold="top 50",
        branch="SUCCESS",
        took_ms=12.5,
    )
    for i in range(3):
        await log.record(
            DecisionRecord(
                turn_id=f"t{i}",
                conversation_id="c",
                created_at=NOW + dt.timedelta(seconds=i),
                query=f"q{i}",
                route="hybrid",
                reason="r",
                intent="conceptual",
                attempts=[attempt],
                branch="SUCCESS",
                evidence_level="high",
                confidence=0.9,
                band="high",
                final_reason="confidence_high",
                timings={"retrieve": 10.0},
            )
        )
    latest = await log.latest(2)
    assert [d.query for d in latest] == ["q1", "q2"]
    assert latest[-1].attempts[0].matches == 7
    assert latest[-1].timings == {"retrieve": 10.0}
    assert latest[-1].created_at == NOW + dt.timedelta(seconds=2)


async def test_feedback_is_kept_per_person_against_the_decision(ports: dict[str, Any]) -> None:
    log = ports["decisions"]
    await log.record(
        DecisionRecord(
            turn_id="t-fb",
            conversation_id="c",
            created_at=NOW,
            query="q",
            route="hybrid",
            reason="r",
            intent="conceptual",
            branch="SUCCESS",
            evidence_level="high",
            confidence=0.9,
            band="high",
            final_reason="confidence_high",
        )
    )
    assert await log.add_feedback("t-fb", Feedback(value="up", user="U1", at=NOW)) is True
    assert await log.add_feedback("t-fb", Feedback(value="up", user="U2", at=NOW + dt.timedelta(seconds=1)))
    # U1 changes their mind: the newer click replaces the older one.
    assert await log.add_feedback("t-fb", Feedback(value="down", user="U1", at=NOW + dt.timedelta(seconds=2)))
    assert await log.add_feedback("unknown-turn", Feedback(value="up", user="U1", at=NOW)) is False
    (decision,) = await log.latest(1)
    assert sorted((f.user, f.value) for f in decision.feedback) == [("U1", "down"), ("U2", "up")]
    assert {f.user: f.at for f in decision.feedback}["U1"] == NOW + dt.timedelta(seconds=2)


async def test_registry_finds_by_collection_and_path(ports: dict[str, Any]) -> None:
    registry = ports["registry"]
    record = DocumentRecord(
        doc_id="d1",
        collection="hr",
        title="Handbook",
        source_path="/docs/handbook.md",
        relative_path="handbook.md",
        date=dt.date(2025, 1, 15),
        media_type="text/markdown",
        content_hash="abc",
        segment_count=3,
        ingested_at=NOW,
    )
    await registry.save(record)
    assert (await registry.find("hr", "/docs/handbook.md")) == record
    assert await registry.find("default", "/docs/handbook.md") is None
    await registry.save(record.model_copy(update={"content_hash": "def"}))
    assert (await registry.find("hr", "/docs/handbook.md")).content_hash == "def"  # type: ignore[union-attr]
    assert [r.doc_id for r in await registry.list_documents("hr")] == ["d1"]
    await registry.remove("d1")
    assert await registry.list_documents() == []


async def test_result_sets_page_with_an_exact_total(ports: dict[str, Any]) -> None:
    store = ports["result_sets"]
    rows = [[f"R-{i:04d}", f"{i * 1.5:.2f}"] for i in range(257)]
    table = TableResult(columns=["receipt_id", "total_eur"], rows=rows[:20], total=257, shown=20)
    result_set_id = await store.save(table, rows, NOW)
    first = await store.page(result_set_id, 0, 20)
    last = await store.page(result_set_id, 240, 20)
    assert (first.total, first.shown, first.rows[0]) == (257, 20, ["R-0000", "0.00"])
    assert (last.total, last.shown, last.rows[-1]) == (257, 17, ["R-0256", "384.00"])
    assert first.columns == ["receipt_id", "total_eur"] and first.result_set_id == result_set_id
    assert await store.page("no-such-set", 0, 20) is None


async def test_channel_access_maps_and_replaces(ports: dict[str, Any]) -> None:
    channels = ports["channels"]
    assert await channels.mapping() == {}
    await channels.set("slack:T1:C1", ["finance", "default", "finance"])
    await channels.set("teams:t:19:x@thread.tacv2", ["products"])
    assert await channels.mapping() == {
        "slack:T1:C1": ["default", "finance"],
        "teams:t:19:x@thread.tacv2": ["products"],
    } or (await channels.mapping()) == {
        "slack:T1:C1": ["finance", "default"],
        "teams:t:19:x@thread.tacv2": ["products"],
    }
    await channels.set("slack:T1:C1", ["hr"])
    assert (await channels.mapping())["slack:T1:C1"] == ["hr"]


async def test_conversation_memory_persists(ports: dict[str, Any]) -> None:
    store = ports["conversations"]
    state = await store.open(KEY, NOW)
    memory = ThreadMemory(
        last_question="List all receipts",
        last_user="U1",
        result_set_id="rs-1",
        result_offset=20,
        result_total=420,
        asked_at=NOW,
    )
    await store.save(state.model_copy(update={"memory": memory}))
    reopened = await store.open(KEY, NOW)
    assert reopened.memory == memory
