"""Back-pressure in EdgeService: a bounded queue that tells people their place, a full queue and a
per-person rate limit answered politely, redeliveries never answered twice. Turns are held in
flight by barriers (asyncio.Event), never by sleeping."""

from __future__ import annotations

import asyncio

import pytest
from prometheus_client import CollectorRegistry
from structlog.testing import capture_logs

from bots import replies
from bots.admission import QueueFullError, TurnQueue
from bots.edge import EdgeService
from bots.metrics import ServiceMetrics
from core.contracts import Turn
from core.orchestrator.service import TurnAnswer
from tests.fakes import InMemorySearchBackend
from tests.unit.test_graph import CLOCK, World


def slack_turn(n: int, user: str = "U1") -> Turn:
    return Turn(
        platform="slack",
        tenant="T1",
        channel_key="slack:T1:C1",
        thread=f"17000000{n:02d}.000100",
        user=user,
        message_key=f"slack:T1:C1:17000000{n:02d}.000100",
        text="What is the hotel limit?",
        received_at=CLOCK.now(),
    )


class Platform:
    """Records what the edge posts and notifies, per message key, and lets a test wait for it."""

    def __init__(self) -> None:
        self.posts: dict[str, list[TurnAnswer]] = {}
        self.order: list[str] = []
        self.notices: dict[str, list[str]] = {}
        self.arrived: dict[str, asyncio.Event] = {}

    def _event(self, key: str) -> asyncio.Event:
        return self.arrived.setdefault(key, asyncio.Event())

    def poster(self, turn: Turn):  # type: ignore[no-untyped-def]
        async def post(answer: TurnAnswer) -> str:
            self.posts.setdefault(turn.message_key, []).append(answer)
            self.order.append(turn.message_key)
            self._event(turn.message_key).set()
            return f"reply-{len(self.order)}"

        return post

    def notifier(self, turn: Turn):  # type: ignore[no-untyped-def]
        async def notify(text: str) -> None:
            self.notices.setdefault(turn.message_key, []).append(text)
            self._event(turn.message_key).set()

        return notify

    async def wait(self, turn: Turn) -> None:
        await asyncio.wait_for(self._event(turn.message_key).wait(), 10)
        self._event(turn.message_key).clear()


def edge_with_metrics(**limits: int) -> tuple[EdgeService, CollectorRegistry]:
    registry = CollectorRegistry()
    world = World(InMemorySearchBackend())
    edge = EdgeService(
        service=world.service,
        conversations=world.service._conversations,  # type: ignore[attr-defined]
        metrics=ServiceMetrics(registry=registry),
        **limits,
    )
    return edge, registry


def turns(registry: CollectorRegistry, outcome: str) -> float:
    total = 0.0
    for family in registry.collect():
        if family.name == "threadwise_turns":
            total += sum(
                s.value for s in family.samples if s.name.endswith("_total") and s.labels["outcome"] == outcome
            )
    return total


async def test_queue_positions_are_first_come_first_served_and_bounded() -> None:
    queue = TurnQueue(workers=1, capacity=2)
    running = queue.enter()
    first, second = queue.enter(), queue.enter()
    assert (running.position, first.position, second.position) == (0, 1, 2)
    with pytest.raises(QueueFullError):
        queue.enter()
    queue.leave()  # the running turn ends: the first in line takes its slot
    await asyncio.wait_for(queue.wait(first), 1)
    assert (queue.running, queue.depth) == (1, 1)
    queue.abandon(second)  # a turn cancelled while in line gives its place back
    assert queue.depth == 0
    queue.leave()
    assert (queue.running, queue.depth) == (0, 0)
    granted = queue.enter()
    queue.abandon(granted)  # and one cancelled holding a slot gives the slot back
    assert queue.running == 0


@pytest.mark.parametrize(
    ("n", "word"),
    [
        (1, "1st"),
        (2, "2nd"),
        (3, "3rd"),
        (4, "4th"),
        (11, "11th"),
        (12, "12th"),
        (13, "13th"),
        (21, "21st"),
        (102, "102nd"),
    ],
)
def test_ordinal(n: int, word: str) -> None:
    assert replies.ordinal(n) == word


async def test_waiting_turns_are_told_their_place_and_a_full_queue_gets_a_polite_reply() -> None:
    edge, registry = edge_with_metrics(max_concurrent=1, queue_size=2)
    platform = Platform()
    gate, started = asyncio.Event(), asyncio.Event()

    async def held(stage: str) -> None:
        started.set()
        await gate.wait()

    running, first, second, refused = (slack_turn(n) for n in range(1, 5))
    edge.spawn(edge.answer_and_post(running, platform.poster(running), held, platform.notifier(running)))
    await asyncio.wait_for(started.wait(), 10)
    for waiting in (first, second):
        edge.spawn(edge.answer_and_post(waiting, platform.poster(waiting), None, platform.notifier(waiting)))
        await platform.wait(waiting)
    assert platform.notices[first.message_key] == [replies.QUEUED.format(position="1st")]
    assert platform.notices[second.message_key] == [replies.QUEUED.format(position="2nd")]
    assert registry.get_sample_value("threadwise_queue_depth") == 2
    assert registry.get_sample_value("threadwise_turns_in_progress") == 1

    edge.spawn(edge.answer_and_post(refused, platform.poster(refused), None, platform.notifier(refused)))
    await platform.wait(refused)
    [busy] = platform.posts[refused.message_key]
    assert busy.result is not None and busy.result.answer == replies.TOO_BUSY
    assert refused.message_key not in platform.notices
    assert not platform.posts.get(running.message_key)  # still held: nothing answered yet

    gate.set()
    await edge.drain(20)
    assert platform.order == [refused.message_key, running.message_key, first.message_key, second.message_key]
    for turn in (running, first, second):
        [answer] = platform.posts[turn.message_key]
        assert answer.result is not None and answer.result.kind != "refusal" and answer.turn_id
    assert turns(registry, "too_busy") == 1
    assert registry.get_sample_value("threadwise_queue_depth") == 0


async def test_the_rate_limit_is_per_person_and_answered_politely_once() -> None:
    edge, registry = edge_with_metrics(rate_limit_per_minute=2)
    platform = Platform()
    asked = [slack_turn(n) for n in range(10, 13)]
    with capture_logs() as lines:
        for turn in asked:
            await edge.answer_and_post(turn, platform.poster(turn), None)
    [limited] = platform.posts[asked[2].message_key]
    assert limited.result is not None and limited.result.answer == replies.RATE_LIMITED.format(limit=2)
    for turn in asked[:2]:
        [answer] = platform.posts[turn.message_key]
        assert answer.result is not None and answer.result.answer != limited.result.answer
    other = slack_turn(13, user="U2")
    await edge.answer_and_post(other, platform.poster(other), None)
    assert platform.posts[other.message_key][0].result.kind != "refusal"  # type: ignore[union-attr]

    # A redelivery of the limited message and of an answered one: no second reply for either.
    await edge.answer_and_post(asked[2], platform.poster(asked[2]), None)
    await edge.answer_and_post(asked[0], platform.poster(asked[0]), None)
    assert len(platform.posts[asked[2].message_key]) == 1 and len(platform.posts[asked[0].message_key]) == 1
    assert registry.get_sample_value("threadwise_duplicate_deliveries_total", {"platform": "slack"}) == 2
    assert turns(registry, "rate_limited") == 1
    turn_lines = [line for line in lines if line["event"] == "turn"]
    assert [line["outcome"] for line in turn_lines] == ["uncertainty", "uncertainty", "rate_limited"]
    assert turn_lines[0]["reference"] == asked[0].message_key and turn_lines[0]["latency_ms"] >= 0
    assert {"route", "branch", "turn_id"} <= set(turn_lines[0])


async def test_a_turn_cancelled_in_line_does_not_keep_its_place() -> None:
    edge, registry = edge_with_metrics(max_concurrent=1, queue_size=1)
    platform = Platform()
    gate, started, noticed = asyncio.Event(), asyncio.Event(), asyncio.Event()

    async def held(stage: str) -> None:
        started.set()
        await gate.wait()

    async def stuck_notice(text: str) -> None:  # the notice hangs: the turn is cancelled there
        noticed.set()
        await asyncio.Event().wait()

    running, cancelled, later = slack_turn(20), slack_turn(21), slack_turn(22)
    edge.spawn(edge.answer_and_post(running, platform.poster(running), held))
    await asyncio.wait_for(started.wait(), 10)
    task = asyncio.create_task(edge.answer_and_post(cancelled, platform.poster(cancelled), None, stuck_notice))
    await asyncio.wait_for(noticed.wait(), 10)
    assert registry.get_sample_value("threadwise_queue_depth") == 1
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert registry.get_sample_value("threadwise_queue_depth") == 0
    edge.spawn(edge.answer_and_post(later, platform.poster(later), None, platform.notifier(later)))
    await platform.wait(later)  # it took the freed place: told it is 1st in line, not turned away
    assert platform.notices[later.message_key] == [replies.QUEUED.format(position="1st")]
    gate.set()
    await edge.drain(20)
    assert platform.order == [running.message_key, later.message_key]
    assert registry.get_sample_value("threadwise_turns_in_progress") == 0
