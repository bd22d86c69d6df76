"""The stale-claim sweep on SQLite and PostgreSQL: a dead worker's turns are answered exactly once."""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import AsyncIterator

import pytest
from botbuilder.core import TurnContext
from botbuilder.schema import Activity
from slack_sdk.web.async_client import AsyncWebClient
from sqlalchemy import select

from bots.edge import EdgeService
from bots.maintenance import MAX_ATTEMPTS, Sweeper
from bots.slack.convert import target_of
from bots.slack.repost import SlackReposter, slack_reply_target
from bots.teams.bot import TeamsEdge
from bots.teams.repost import TeamsReposter, teams_reply_target
from core.contracts import Turn
from core.orchestrator.service import TurnService
from core.records import ConversationKey, ReplyTarget
from storage.database import Database
from storage.models import RouterDecisionRow, TurnRow
from storage.repositories import SqlConversationStore, SqlDecisionLog, SqlTurnLedger
from tests.fakes import InMemorySearchBackend, fake_turn_service
from tests.servers import BotConnectorServer, SlackApiServer, teams_activity
from tests.unit.test_graph import World

T0 = dt.datetime(2026, 11, 21, 9, 0, tzinfo=dt.UTC)
LEASE = 300.0


class MovableClock:
    """A clock the test moves forward, so leases lapse without waiting."""

    def __init__(self, at: dt.datetime) -> None:
        self.at = at

    def now(self) -> dt.datetime:
        return self.at


@pytest.fixture
async def remotes() -> AsyncIterator[tuple[SlackApiServer, BotConnectorServer]]:
    slack, connector = await SlackApiServer().start(), await BotConnectorServer().start()
    yield slack, connector
    await slack.stop()
    await connector.stop()


def _slack_turn(ts: str, thread_ts: str | None = None) -> tuple[Turn, ReplyTarget]:
    event = {"type": "app_mention", "user": "U1", "text": "What is the hotel limit?", "ts": ts, "channel": "C1"}
    if thread_ts:
        event["thread_ts"] = thread_ts
    turn = Turn(
        platform="slack",
        tenant="T0TEAM",
        channel_key="slack:T0TEAM:C1",
        thread=thread_ts or ts,
        user="U1",
        message_key=f"slack:T0TEAM:C1:{ts}",
        text="What is the hotel limit?",
        received_at=T0,
    )
    return turn, slack_reply_target(target_of(event), direct=False)


def _teams_turn(service_url: str, activity_id: str = "act-1") -> tuple[Turn, ReplyTarget]:
    raw = teams_activity(
        activity_id=activity_id,
        text="What is the hotel limit?",
        service_url=service_url,
        conversation_id="a:personal-chat",
        conversation_type="personal",
        mention=False,
    )
    turn = Turn(
        platform="teams",
        tenant="tenant-1",
        channel_key="teams:tenant-1:dm:aad-ada",
        thread="a:personal-chat",
        user="aad-ada",
        message_key=f"teams:{activity_id}",
        text="What is the hotel limit?",
        is_direct=True,
        received_at=T0,
    )
    reference = TurnContext.get_conversation_reference(Activity().deserialize(raw))
    return turn, teams_reply_target(reference, direct=True)


async def _claim_and_die(
    service_parts: dict[str, object], turn: Turn, target: ReplyTarget | None, at: dt.datetime
) -> str:
    """What a worker does before it is killed: open the conversation and claim the turn."""
    conversations: SqlConversationStore = service_parts["conversations"]  # type: ignore[assignment]
    ledger: SqlTurnLedger = service_parts["ledger"]  # type: ignore[assignment]
    key = ConversationKey(platform=turn.platform, tenant=turn.tenant, channel_key=turn.channel_key, thread=turn.thread)
    conversation = await conversations.open(key, at)
    claim = await ledger.claim(turn, conversation.conversation_id, at, LEASE, target)
    assert claim.claimed
    return claim.turn_id


def _replica(
    parts: dict[str, object], clock: MovableClock, slack: SlackApiServer, connector: BotConnectorServer
) -> Sweeper:
    service: TurnService = fake_turn_service(
        World(InMemorySearchBackend()).graph,
        clock=clock,  # type: ignore[arg-type]
        conversations=parts["conversations"],  # type: ignore[arg-type]
        ledger=parts["ledger"],  # type: ignore[arg-type]
        decisions=parts["decisions"],  # type: ignore[arg-type]
    )
    edge = EdgeService(service=service, conversations=parts["conversations"])  # type: ignore[arg-type]
    teams = TeamsEdge(edge=edge, app_id=None, app_password=None, app_type="MultiTenant", tenant_id=None)
    reposters = {
        "slack": SlackReposter(client=AsyncWebClient(token="xoxb-test", base_url=slack.api_url)),
        "teams": TeamsReposter(edge=teams),
    }
    return Sweeper(service=service, edge=edge, reposters=reposters)  # type: ignore[arg-type]


async def _statuses(database: Database) -> dict[str, tuple[str, str | None, int]]:
    async with database.sessions() as session:
        rows = (await session.execute(select(TurnRow))).scalars().all()
    return {row.message_key: (row.status, row.reply_id, row.attempts) for row in rows}


async def test_replicas_sweeping_at_once_answer_each_dead_turn_exactly_once(
    database: Database, remotes: tuple[SlackApiServer, BotConnectorServer]
) -> None:
    slack, connector = remotes
    parts: dict[str, object] = {
        "conversations": SqlConversationStore(database=database),
        "ledger": SqlTurnLedger(database=database),
        "decisions": SqlDecisionLog(database=database),
    }
    clock = MovableClock(T0)
    fresh, fresh_target = _slack_turn("1700000000.000100")
    placeheld, placeheld_target = _slack_turn("1700000000.000200", thread_ts="1700000000.000150")
    teams, teams_target = _teams_turn(connector.url)
    alive, alive_target = _slack_turn("1700000000.000300")
    cli = Turn(
        platform="cli", tenant="local", channel_key="cli", thread="t", user="op",
        message_key="cli:1", text="hotel limit?", received_at=T0,
    )  # fmt: skip
    await _claim_and_die(parts, fresh, fresh_target, T0)
    placeholder = await _claim_and_die(parts, placeheld, placeheld_target, T0)
    await parts["ledger"].record_reply(placeholder, "1700000000.000999")  # type: ignore[attr-defined]
    await _claim_and_die(parts, teams, teams_target, T0)
    teams_held, teams_held_target = _teams_turn(connector.url, "act-2")
    teams_placeholder = await _claim_and_die(parts, teams_held, teams_held_target, T0)
    await parts["ledger"].record_reply(teams_placeholder, "reply-informative-1")  # type: ignore[attr-defined]
    await _claim_and_die(parts, cli, None, T0)
    await _claim_and_die(parts, alive, alive_target, T0 + dt.timedelta(seconds=LEASE - 10))

    clock.at = T0 + dt.timedelta(seconds=LEASE + 1)
    replicas = [_replica(parts, clock, slack, connector) for _ in range(3)]
    reports = await asyncio.gather(*(r.sweep() for r in replicas))

    # Each dead turn is answered by exactly one replica; the others see it taken.
    posts = slack.named("chat.postMessage")
    assert [(p.body["channel"], p.body.get("thread_ts")) for p in posts] == [("C1", "1700000000.000100")]
    (update,) = slack.named("chat.update")
    assert update.body["ts"] == "1700000000.000999" and update.body["channel"] == "C1"
    (teams_post,) = [c for c in connector.calls if c.method == "message"]
    assert teams_post.path == "a:personal-chat"  # the conversation id as received keeps the reply chain
    (teams_update,) = [c for c in connector.calls if c.method == "update"]
    assert teams_update.path == "reply-informative-1" and teams_update.body["type"] == "message"
    statuses = await _statuses(database)
    assert statuses[fresh.message_key][0] == statuses[teams.message_key][0] == "answered"
    assert statuses[teams_held.message_key] == ("answered", "reply-informative-1", 2)
    assert statuses[placeheld.message_key] == ("answered", "1700000000.000999", 2)
    assert statuses[alive.message_key] == ("claimed", None, 1)  # its lease has not lapsed
    assert statuses["cli:1"][0] == "failed"  # nowhere to post it
    async with database.sessions() as session:
        decisions = (await session.execute(select(RouterDecisionRow.turn_id))).scalars().all()
    assert len(decisions) == len(set(decisions)) == 4
    assert sum(r.reanswered for r in reports) >= 4

    # Sweeping again finds nothing: no second post, ever.
    again = await replicas[0].sweep()
    assert (again.reanswered, len(slack.named("chat.postMessage")), len(slack.named("chat.update"))) == (0, 1, 1)


async def test_a_turn_that_keeps_killing_its_worker_is_given_up(
    database: Database, remotes: tuple[SlackApiServer, BotConnectorServer]
) -> None:
    slack, connector = remotes
    parts: dict[str, object] = {
        "conversations": SqlConversationStore(database=database),
        "ledger": SqlTurnLedger(database=database),
        "decisions": SqlDecisionLog(database=database),
    }
    turn, target = _slack_turn("1700000000.000400")
    await _claim_and_die(parts, turn, target, T0)
    ledger: SqlTurnLedger = parts["ledger"]  # type: ignore[assignment]
    conversation = await parts["conversations"].open(  # type: ignore[attr-defined]
        ConversationKey(platform="slack", tenant=turn.tenant, channel_key=turn.channel_key, thread=turn.thread), T0
    )
    at = T0
    for _ in range(MAX_ATTEMPTS - 1):  # every re-run dies as well
        at += dt.timedelta(seconds=LEASE + 1)
        assert (await ledger.claim(turn, conversation.conversation_id, at, LEASE)).claimed
    clock = MovableClock(at + dt.timedelta(seconds=LEASE + 1))
    report = await _replica(parts, clock, slack, connector).sweep()
    assert (report.reanswered, report.given_up) == (0, 1)
    assert (await _statuses(database))[turn.message_key][0] == "failed"
    assert slack.named("chat.postMessage") == []
