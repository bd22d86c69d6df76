"""The one door into the core: access is decided inside `TurnService`, for every caller alike."""

from __future__ import annotations

import datetime as dt

from core.access import UnmappedPolicy
from core.contracts import Turn
from core.orchestrator.service import TurnService
from tests.fakes import InMemoryDecisions, InMemorySearchBackend, fake_turn_service
from tests.unit.test_graph import CLOCK, World


def _turn(channel_key: str, key: str, platform: str = "slack") -> Turn:
    return Turn(
        platform=platform,  # type: ignore[arg-type]
        tenant="T",
        channel_key=channel_key,
        thread="1.1",
        user="U1",
        message_key=key,
        text="How many weeks of parental leave do new parents get?",
        received_at=dt.datetime(2026, 11, 21, 9, 0, tzinfo=dt.UTC),
    )


def _service(world: World, decisions: InMemoryDecisions, unmapped: UnmappedPolicy) -> TurnService:
    channels = {"slack:T:C-mapped": ["default"]}
    return fake_turn_service(world.graph, clock=CLOCK, decisions=decisions, channels=channels, unmapped=unmapped)


async def test_a_refused_channel_gets_one_refusal_and_a_decision() -> None:
    world, decisions = World(InMemorySearchBackend()), InMemoryDecisions()
    service = _service(world, decisions, "deny")
    first = await service.answer(_turn("slack:T:C-unmapped", "slack:T:C-unmapped:1.1"))
    again = await service.answer(_turn("slack:T:C-unmapped", "slack:T:C-unmapped:1.1"))
    assert first.result is not None and first.result.kind == "refusal"
    assert "not set up" in first.result.answer and "threadwise channels set" in first.result.answer
    assert again.duplicate and again.result is None
    assert [d.reason for d in decisions.items] == ["channel slack:T:C-unmapped is not mapped to any collection"]


async def test_mapped_channels_and_the_operator_are_not_refused() -> None:
    world, decisions = World(InMemorySearchBackend()), InMemoryDecisions()
    service = _service(world, decisions, "deny")
    assert await service.collections_for(_turn("slack:T:C-mapped", "k1")) == ["default"]
    assert await service.collections_for(_turn("cli", "k2", platform="cli")) is None
    # A Slack channel that happens to be called "cli" has no operator rights.
    mapped = await _service(world, decisions, "default").collections_for(_turn("cli", "k3"))
    assert mapped == ["default"]


async def test_feedback_lands_on_the_turns_decision() -> None:
    world, decisions = World(InMemorySearchBackend()), InMemoryDecisions()
    service = _service(world, decisions, "default")
    answered = await service.answer(_turn("slack:T:C-mapped", "slack:T:C-mapped:2.2"))
    assert await service.feedback(answered.turn_id, "U7", "down") is True
    assert await service.feedback("no-such-turn", "U7", "up") is False
    (decision,) = decisions.items
    assert [(f.user, f.value, f.at) for f in decision.feedback] == [("U7", "down", CLOCK.now())]
