"""The turn service: exactly-once claim, the graph, the decision log and the conversation."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from core.access import AccessDeniedError, UnmappedPolicy, readable_collections
from core.contracts import (
    ConfidenceSummary,
    ContextPacket,
    ExecutionPlan,
    NextAction,
    OrchestrationResult,
    RouteDecision,
    Turn,
)
from core.llm.gateway import LlmGateway
from core.orchestrator import replies
from core.orchestrator.commands import Commands
from core.orchestrator.conversation import pointed_sources, prepare, remember, reset
from core.orchestrator.guardrails import redact
from core.orchestrator.support import grounded
from core.ports import ChannelAccess, Clock, ConversationStore, DecisionLog, ProgressCallback, TurnLedger
from core.prompts import summary as summary_prompt
from core.records import ConversationKey, DecisionRecord, Feedback, FeedbackValue, ReplyTarget, StaleTurn

LEASE_SECONDS = 300.0
# The terminal without `--channel` asks with the operator's rights: every collection.
OPERATOR_CHANNEL = "cli"
# "those", "them": the documents the last answer cited.
log = logging.getLogger(__name__)


class Answerer(Protocol):
    """What answers a question: the answer graph, or a server's stand-in for it while the model loads."""

    async def run(
        self,
        turn: Turn,
        *,
        collections: list[str] | None,
        progress: ProgressCallback | None = None,
        history: str | None = None,
        focus: list[str] | None = None,
        summary: str = "",
    ) -> OrchestrationResult:
        """Run one turn to completion (`AnswerGraph.run`)."""
        ...


@dataclass(frozen=True)
class TurnAnswer:
    """What a platform posts for a turn; `duplicate` means another delivery already has it."""

    result: OrchestrationResult | None
    turn_id: str
    duplicate: bool
    reply_id: str | None = None
    """A reply already on the platform (posted before a crash): edit it, never post a second one."""


class TurnService:
    """The one door into the core: access, the conversation, exactly-once claim, the graph, the decision log.

    Every caller (the CLI, the server's edges, `eval behavior`) passes a bare `Turn`, so the rules
    applied to a turn cannot drift apart between them.
    """

    def __init__(
        self,
        *,
        graph: Answerer,
        conversations: ConversationStore,
        ledger: TurnLedger,
        decisions: DecisionLog,
        channels: ChannelAccess,
        unmapped: UnmappedPolicy,
        clock: Clock,
        commands: Commands,
        count_tokens: Callable[[Sequence[str]], list[int]],
        llm: LlmGateway,
        lease_seconds: float = LEASE_SECONDS,
    ) -> None:
        self._llm = llm
        self._lease_seconds = lease_seconds
        self._graph = graph
        self._conversations = conversations
        self._ledger = ledger
        self._decisions = decisions
        self._channels = channels
        self._unmapped = unmapped
        self._clock = clock
        self._commands = commands
        self._count_tokens = count_tokens

    async def collections_for(self, turn: Turn) -> list[str] | None:
        """The collections `turn` may read (None: every one); raises `AccessDeniedError` for a refused channel."""
        if turn.platform == "cli" and turn.channel_key == OPERATOR_CHANNEL:
            return None
        return readable_collections(turn.channel_key, await self._channels.mapping(), self._unmapped)

    async def answer(
        self, turn: Turn, *, progress: ProgressCallback | None = None, target: ReplyTarget | None = None
    ) -> TurnAnswer:
        """Claim the message, check access, run a command or the graph, log the decision, remember the thread.

        Never raises for a failure inside the core: the reply is then an apology with a reference.
        A channel refused by the access policy gets a refusal saying so, claimed like any turn.
        `target` (where the reply goes) is kept with the claim, so a sweep can answer if this worker dies.
        """
        key = ConversationKey(
            platform=turn.platform, tenant=turn.tenant, channel_key=turn.channel_key, thread=turn.thread
        )
        now = self._clock.now()
        conversation = await self._conversations.open(key, now)
        prepared = prepare(turn.text, conversation, turn.user, now, turn.is_direct)
        if prepared.reset:
            conversation = reset(conversation, now)
        # Personal data never reaches storage: the ledger keeps the redacted text.
        stored = turn.model_copy(update={"text": redact(turn.text).text})
        claim = await self._ledger.claim(stored, conversation.conversation_id, now, self._lease_seconds, target)
        if not claim.claimed:
            return TurnAnswer(result=None, turn_id=claim.turn_id, duplicate=True)
        try:
            collections = await self.collections_for(turn)
        except AccessDeniedError as exc:
            log.warning("turn %s refused: %s", turn.message_key, exc)
            result = refusal(turn, replies.CHANNEL_NOT_SET_UP, str(exc)).model_copy(
                update={"conversation_id": conversation.conversation_id, "turn_id": claim.turn_id}
            )
            await self._decisions.record(_decision(result, claim.turn_id, conversation.conversation_id, self._clock))
            return TurnAnswer(result=result, turn_id=claim.turn_id, duplicate=False, reply_id=claim.reply_id)
        # One model budget for the turn: the graph's steps and the summary share it.
        with self._llm.turn_budget():
            offset = conversation.memory.result_offset
            try:
                if prepared.command:
                    result, offset = await self._commands.run(prepared.command, conversation.memory, turn)
                else:
                    asked = turn.model_copy(update={"text": prepared.question})
                    memory = conversation.memory
                    focus = pointed_sources(turn.text, prepared.question, memory)
                    result = await self._graph.run(
                        asked,
                        collections=collections,
                        progress=progress,
                        history=memory.last_question,
                        focus=focus,
                        summary=conversation.summary,
                    )
            except Exception as exc:  # the platform must still get a reply
                log.exception("turn %s failed", turn.message_key)
                result = apology(turn, f"{type(exc).__name__}: {exc}")
            conversation_id = conversation.conversation_id
            result = result.model_copy(update={"conversation_id": conversation_id, "turn_id": claim.turn_id})
            if prepared.command == "new_topic":
                conversation = reset(conversation, self._clock.now())
            elif prepared.command:
                memory = conversation.memory.model_copy(update={"result_offset": offset})
                conversation = conversation.model_copy(update={"memory": memory, "updated_at": self._clock.now()})
            else:
                question = redact(prepared.question).text
                summary = None
                if self._llm.enabled:
                    summary, result = await self._summary(conversation.summary, question, result)
                conversation = remember(
                    conversation, question, turn.user, result, self._clock.now(), self._count_tokens, summary=summary
                )
        await self._decisions.record(_decision(result, claim.turn_id, conversation_id, self._clock))
        await self._conversations.save(conversation)
        return TurnAnswer(result=result, turn_id=claim.turn_id, duplicate=False, reply_id=claim.reply_id)

    async def _summary(
        self, before: str, question: str, result: OrchestrationResult
    ) -> tuple[str | None, OrchestrationResult]:
        """The model's new rolling summary when it is grounded, else None (the extractive one is kept).

        Grounded in the previous summary, the question and a cited answer: a turn that ended in the
        uncertainty reply (or any reply without sources) adds no fact. Its time shows in `timings`.
        """
        started = time.perf_counter()
        answered = result.kind == "answer" and bool(result.citations)
        messages = summary_prompt.messages(summary=before, question=question, answer=result.answer)
        summary, step = await self._llm.run(
            "summary", messages, lambda text: summary_prompt.parse(text, self._count_tokens)
        )
        # What the model was shown that may carry a fact: its instructions, the thread so far, a cited answer.
        told = [summary_prompt.SYSTEM, summary_prompt.USER, before, question, result.answer if answered else ""]
        shown = "\n".join(told)
        if summary is not None and not grounded(summary, shown):
            log.warning("the model's summary states what the thread did not; the extractive summary is kept")
            reason = "ungrounded: states what the thread did not"
            step = step.model_copy(update={"path": "deterministic", "reason": reason})
            summary = None
        timings = {**result.timings, "summary": round((time.perf_counter() - started) * 1000, 3)}
        return summary, result.model_copy(update={"llm_steps": [*result.llm_steps, step], "timings": timings})

    async def feedback(self, turn_id: str, user: str, value: FeedbackValue) -> bool:
        """A person's 👍/👎 on a turn's answer, stored against its decision; False for an unknown turn."""
        return await self._decisions.add_feedback(turn_id, Feedback(value=value, user=user, at=self._clock.now()))

    async def turn_for_reply(self, platform: str, reply_id: str) -> str | None:
        """The turn a posted reply answered, from the reply's platform id."""
        return await self._ledger.turn_for_reply(platform, reply_id)

    async def delivered(self, turn_id: str, reply_id: str | None) -> None:
        """The platform posted the reply: the turn is answered."""
        await self._ledger.mark_answered(turn_id, self._clock.now(), reply_id)

    async def posted(self, turn_id: str, reply_id: str) -> None:
        """A reply (or a placeholder) is on the platform before the turn is done: a re-run edits it."""
        await self._ledger.record_reply(turn_id, reply_id)

    async def stale(self, limit: int) -> list[StaleTurn]:
        """Claimed turns whose lease lapsed (their worker died), for the sweep to re-answer."""
        return await self._ledger.stale(self._clock.now(), limit)

    async def undelivered(self, turn_id: str, error: str) -> None:
        """The platform could not post the reply: a sweep may retry it."""
        await self._ledger.mark_failed(turn_id, self._clock.now(), error)


def apology(turn: Turn, error: str) -> OrchestrationResult:
    """The safe reply for a turn whose core run raised."""
    result = _direct_reply(turn, replies.INTERNAL_ERROR.format(reference=turn.message_key), "internal error")
    return result.model_copy(update={"errors": [error]})


def refusal(turn: Turn, text: str, reason: str) -> OrchestrationResult:
    """A turn the access policy refuses: one short reply saying so, never silence."""
    result = _direct_reply(turn, text, reason)
    return result.model_copy(
        update={
            "kind": "refusal",
            "branch": "GUARDRAIL_BLOCKED",
            "final_reason": "guardrail_blocked",
            "next_action": NextAction(action="escalate", reason=reason, branch_code="GUARDRAIL_BLOCKED"),
        }
    )


def _direct_reply(turn: Turn, text: str, reason: str) -> OrchestrationResult:
    question = redact(turn.text).text
    plan = ExecutionPlan(original_query=question, revised_query=question)
    return OrchestrationResult(
        answer=text,
        kind="uncertainty",
        terminal="fail",
        next_action=NextAction(action="escalate", reason=reason, branch_code="LOW_CONFIDENCE"),
        branch="LOW_CONFIDENCE",
        evidence_level="insufficient",
        confidence=0.0,
        band="low",
        final_reason="confidence_too_low_clarify",
        route=RouteDecision(route="direct", reason=reason, intent="conceptual"),
        plan=plan,
        context_packet=ContextPacket(
            summary=ConfidenceSummary(
                top_confidence=0.0, candidate_count=0, threshold_met=False, branch="LOW_CONFIDENCE"
            ),
            provider="threadwise",
            timestamp=turn.received_at.isoformat(),
        ),
    )


def _decision(result: OrchestrationResult, turn_id: str, conversation_id: str, clock: Clock) -> DecisionRecord:
    return DecisionRecord(
        turn_id=turn_id,
        conversation_id=conversation_id,
        created_at=clock.now(),
        query=result.plan.revised_query,
        route=result.route.route,
        fallbacks=result.route.fallbacks,
        reason=result.route.reason,
        intent=result.route.intent,
        attempts=result.retrieval_report,
        branch=result.branch,
        evidence_level=result.evidence_level,
        confidence=result.confidence,
        band=result.band,
        final_reason=result.final_reason,
        timings=result.timings,
        errors=result.errors,
        llm_steps=result.llm_steps,
    )
