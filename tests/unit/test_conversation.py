"""Conversations: commands, refinements, resets and the rolling summary."""

from __future__ import annotations

import datetime as dt

import pytest

from core.contracts import Citation, Reading, TableResult, Turn
from core.orchestrator.commands import command_result
from core.orchestrator.conversation import match_command, pointed_sources, prepare, remember
from core.records import ConversationKey, ConversationState, PendingClarification, ThreadMemory
from tests.fakes import InMemorySearchBackend
from tests.unit.test_graph import CLOCK, World

NOW = dt.datetime(2026, 11, 21, 9, 0, tzinfo=dt.UTC)
KEY = ConversationKey(platform="slack", tenant="T", channel_key="slack:T:C", thread="1.0")


def state(**memory: object) -> ConversationState:
    defaults: dict[str, object] = {"last_question": "List all receipts", "last_user": "U1", "asked_at": NOW}
    return ConversationState(
        conversation_id="c", key=KEY, memory=ThreadMemory(**{**defaults, **memory}), updated_at=NOW
    )


@pytest.mark.parametrize(
    ("text", "command"),
    [
        ("show the rest", "more"),
        ("More.", "more"),
        ("export that table", "export"),
        ("Export", "export"),
        ("new topic", "new_topic"),
        ("show the rest of the policy", None),
        ("more about leave?", None),
    ],
)
def test_commands(text: str, command: str | None) -> None:
    assert match_command(text) == command


@pytest.mark.parametrize("text", ["only 2024", "2024", "ACME", "just Leipzig", "what about Q3 2023?"])
def test_constraint_only_messages_refine_the_last_question(text: str) -> None:
    prepared = prepare(text, state(), "U1", NOW + dt.timedelta(hours=1), False)
    assert prepared.refined and prepared.question.startswith("List all receipts")


@pytest.mark.parametrize("text", ["What are the core hours?", "thanks", "tell me about the leave policy please now"])
def test_other_messages_are_new_questions(text: str) -> None:
    assert not prepare(text, state(), "U1", NOW, False).refined


def test_only_the_same_person_within_a_day_refines() -> None:
    assert not prepare("only 2024", state(), "U2", NOW, False).refined
    assert not prepare("only 2024", state(), "U1", NOW + dt.timedelta(hours=25), False).refined


def test_a_choice_the_bot_offered_resumes_the_clarification() -> None:
    pending = PendingClarification(question="Which depot?", user="U1", asked_at=NOW, choices=["Rotterdam", "Leipzig"])
    prepared = prepare("leipzig", state(pending=pending), "U1", NOW, False)
    assert prepared.refined and prepared.question == "List all receipts leipzig"


def test_a_new_date_replaces_the_old_one() -> None:
    memory = state(last_question="How much did we spend on tires in 2024?")
    prepared = prepare("what about 2023?", memory, "U1", NOW, False)
    assert "2024" not in prepared.question and "2023" in prepared.question


def test_a_follow_up_replaces_the_names_the_last_question_used() -> None:
    memory = state(last_question="What was Orchard's gross margin in Q3 2022?", entities=["Orchard"])
    prepared = prepare("same question for Bramble", memory, "U1", NOW, False)
    assert prepared.refined and prepared.question == "What was Bramble's gross margin in Q3 2022?"
    # Without the names the last turn resolved, the message is a question of its own.
    assert not prepare("same question for Bramble", state(entities=[]), "U1", NOW, False).refined
    # Another person's message in the thread is theirs.
    assert not prepare("same question for Bramble", memory, "U2", NOW, False).refined


def test_a_direct_message_thread_resets_after_30_minutes_of_silence() -> None:
    quiet = state().model_copy(update={"updated_at": NOW - dt.timedelta(minutes=31)})
    assert prepare("only 2024", quiet, "U1", NOW, True).reset
    assert not prepare("only 2024", quiet, "U1", NOW, False).reset  # a channel thread does not


async def test_remember_keeps_the_result_set_and_a_bounded_summary() -> None:
    turn = Turn(
        platform="cli",
        tenant="t",
        channel_key="cli",
        thread="t",
        user="U1",
        message_key="cli:1",
        text="x",
        received_at=NOW,
    )
    table = TableResult(columns=["a"], rows=[["1"]] * 20, total=57, shown=20, result_set_id="rs-9")
    result = command_result(turn, "Found 57 matching rows. More words here.", table=table)
    conversation = state()
    for i in range(200):
        conversation = remember(
            conversation, f"question number {i} about hotels", "U1", result, NOW, lambda t: [len(x.split()) for x in t]
        )
    assert sum(len(line.split()) for line in conversation.summary.splitlines()) <= 350
    assert conversation.summary.splitlines()[-1].startswith("Q: question number 199")
    assert conversation.memory.last_question == "question number 199 about hotels"
    memory = conversation.memory
    assert (memory.result_set_id, memory.result_offset, memory.result_total) == ("rs-9", 20, 57)
    # A question the documents could not answer is the last question asked; what was found stays.
    unanswered = result.model_copy(
        update={"kind": "uncertainty", "reading": Reading(intent="numeric_lookup", mentions=["Bramble"])}
    )
    after = remember(conversation, "hotel limt for 2024?", "U1", unanswered, NOW, lambda t: [1] * len(t)).memory
    assert (after.last_question, after.entities) == ("hotel limt for 2024?", ["Bramble"])
    assert (after.result_set_id, after.result_total) == ("rs-9", 57)
    read = result.model_copy(update={"reading": Reading(intent="numeric_lookup", mentions=["Orchard", "Q3"])})
    assert remember(conversation, "q", "U1", read, NOW, lambda t: [1] * len(t)).memory.entities == ["Orchard", "Q3"]


async def test_new_topic_through_the_service_forgets_the_thread() -> None:
    world = World(InMemorySearchBackend())

    def turn(text: str, n: int) -> Turn:
        return Turn(
            platform="slack",
            tenant="T",
            channel_key="slack:T:C",
            thread="9.0",
            user="U1",
            message_key=f"slack:T:C:{n}",
            text=text,
            received_at=CLOCK.now(),
        )

    await world.service.answer(turn("What is the hotel limit?", 1))
    reply = await world.service.answer(turn("new topic", 2))
    assert reply.result is not None and reply.result.final_reason == "command"
    follow = await world.service.answer(turn("What is its limit?", 3))
    assert follow.result is not None and follow.result.branch == "NEEDS_CLARIFICATION"


def test_those_point_at_the_last_sources_unless_another_period_is_asked() -> None:
    sources = [Citation(n=1, chunk_id="aug:1", doc_id="aug", title="August statement", snippet="s", relevance=0.9)]
    memory = ThreadMemory(last_question="What did the August 2018 statement say about investment?", sources=sources)
    assert pointed_sources("what is the rated power of those?", "what is the rated power of those?", memory) == ["aug"]
    assert pointed_sources("what did they say about jobs?", "what did they say about jobs?", memory) == ["aug"]
    # another period is other documents: November's, not the August sources
    november = "how did they describe it by the November meeting? (November 2018)"
    assert pointed_sources("and how did they describe it by the November meeting?", november, memory) is None
    assert pointed_sources("what did the minutes say?", "what did the minutes say?", memory) is None  # no pronoun
