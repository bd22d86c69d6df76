"""Retention on SQLite and PostgreSQL: what is older than the period goes, the rest stays."""

from __future__ import annotations

import datetime as dt
import subprocess
from pathlib import Path

from sqlalchemy import func, select

from core.contracts import TableResult, Turn
from core.records import ConversationKey, DecisionRecord, Feedback
from storage.database import Database
from storage.models import ConversationRow, FeedbackRow, ResultSetRow, RouterDecisionRow, TurnRow
from storage.repositories import SqlConversationStore, SqlDecisionLog, SqlResultSetStore, SqlTurnLedger
from storage.retention import purge_expired
from tests.environment import product_env

NOW = dt.datetime(2026, 11, 21, 12, 0, tzinfo=dt.UTC)
OLD = NOW - dt.timedelta(days=100)
REPO = Path(__file__).resolve().parents[2]


def _turn(key: str, thread: str, at: dt.datetime) -> Turn:
    return Turn(
        platform="slack",
        tenant="T1",
        channel_key="slack:T1:C1",
        thread=thread,
        user="U1",
        message_key=key,
        text="What is the leave policy?",
        received_at=at,
    )


def _decision(turn_id: str, conversation_id: str, at: dt.datetime) -> DecisionRecord:
    return DecisionRecord(
        turn_id=turn_id,
        conversation_id=conversation_id,
        created_at=at,
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


async def _say(database: Database, thread: str, key: str, at: dt.datetime, *, status: str = "answered") -> str:
    """One turn in `thread` at `at`, with its decision, a 👍 and a result set."""
    conversations = SqlConversationStore(database=database)
    ledger = SqlTurnLedger(database=database)
    state = await conversations.open(
        ConversationKey(platform="slack", tenant="T1", channel_key="slack:T1:C1", thread=thread), at
    )
    await conversations.save(state.model_copy(update={"updated_at": at}))
    claim = await ledger.claim(_turn(key, thread, at), state.conversation_id, at, 60)
    if status == "answered":
        await ledger.mark_answered(claim.turn_id, at, "reply")
    decisions = SqlDecisionLog(database=database)
    await decisions.record(_decision(claim.turn_id, state.conversation_id, at))
    await decisions.add_feedback(claim.turn_id, Feedback(value="up", user="U2", at=at))
    table = TableResult(columns=["a"], rows=[["1"]], total=1, shown=1)
    await SqlResultSetStore(database=database).save(table, [["1"]], at)
    return claim.turn_id


async def _counts(database: Database) -> dict[str, int]:
    async with database.sessions() as session:
        return {
            model.__tablename__: int(await session.scalar(select(func.count()).select_from(model)) or 0)
            for model in (ConversationRow, TurnRow, RouterDecisionRow, FeedbackRow, ResultSetRow)
        }


async def test_retention_purges_only_what_is_older_than_the_period(database: Database) -> None:
    await _say(database, "old-thread", "slack:T1:C1:1", OLD)
    await _say(database, "busy-thread", "slack:T1:C1:2", OLD)  # an old turn in a thread still in use
    recent = await _say(database, "busy-thread", "slack:T1:C1:3", NOW - dt.timedelta(days=1))
    await _say(database, "new-thread", "slack:T1:C1:4", NOW - dt.timedelta(days=2))
    assert await _counts(database) == {
        "conversations": 3,
        "turns": 4,
        "router_decisions": 4,
        "feedback": 4,
        "result_sets": 4,
    }

    report = await purge_expired(database, NOW, retention_days=90)

    assert report.as_dict() == {"conversations": 1, "turns": 2, "decisions": 2, "feedback": 2, "result_sets": 2}
    assert await _counts(database) == {
        "conversations": 2,
        "turns": 2,
        "router_decisions": 2,
        "feedback": 2,
        "result_sets": 2,
    }
    async with database.sessions() as session:
        kept = set((await session.execute(select(ConversationRow.thread))).scalars())
        turns = set((await session.execute(select(TurnRow.id))).scalars())
    assert kept == {"busy-thread", "new-thread"} and recent in turns
    # A second run finds nothing more: purging is idempotent.
    again = await purge_expired(database, NOW, retention_days=90)
    assert set(again.as_dict().values()) == {0}


def test_db_purge_command_reports_what_it_deleted(tmp_path: Path) -> None:
    env = product_env()
    env.update(
        COLUMNS="200",
        THREADWISE_DATA_DIR=str(tmp_path / "data"),
        THREADWISE_RETENTION_DAYS="30",
        THREADWISE_FIXED_NOW=NOW.isoformat(),
        PYTHONPATH=str(REPO),
    )

    def threadwise(*args: str) -> subprocess.CompletedProcess[str]:
        command = ["threadwise", *args]
        return subprocess.run(command, env=env, cwd=tmp_path, capture_output=True, text=True, timeout=120, check=False)

    unmigrated = threadwise("db", "purge")
    assert unmigrated.returncode == 2 and "db upgrade" in " ".join(unmigrated.stderr.split())
    assert threadwise("db", "upgrade").returncode == 0

    async def seed() -> None:
        database = Database(url=f"sqlite+aiosqlite:///{tmp_path / 'data' / 'threadwise.db'}")
        try:
            await _say(database, "old", "slack:T1:C1:1", NOW - dt.timedelta(days=31))
            await _say(database, "new", "slack:T1:C1:2", NOW - dt.timedelta(days=29))
        finally:
            await database.dispose()

    import asyncio

    asyncio.run(seed())
    done = threadwise("db", "purge")
    assert done.returncode == 0, done.stderr
    assert '"conversations": 1' in done.stdout and '"turns": 1' in done.stdout and '"retention_days": 30' in done.stdout
    kept = threadwise("db", "purge", "--days", "1")
    assert '"turns": 1' in kept.stdout  # the 29-day-old turn goes with a shorter period
