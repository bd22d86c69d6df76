"""Conversations: commands, follow-ups that refine or vary the last question, and the thread's memory."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from core.contracts import OrchestrationResult
from core.orchestrator.followups import follow_up
from core.records import ConversationState, PendingClarification, ThreadMemory
from core.text import STOPWORDS, split_sentences, words
from core.understanding import DATE_PHRASE, is_date_word, points_at_many
from core.understanding.periods import names_neighbour, period_mentions

Command = Literal["more", "export", "new_topic"]
DM_SILENCE = dt.timedelta(minutes=30)
RESUME_WINDOW = dt.timedelta(hours=24)
SUMMARY_TOKENS = 350

_COMMANDS: list[tuple[re.Pattern[str], Command]] = [
    (re.compile(r"^(show (me )?the rest|(show )?more|next( page)?|show more)[.!]?$", re.I), "more"),
    (re.compile(r"^(export|download)( (that|the|this) (table|list|result))?( as csv)?[.!]?$", re.I), "export"),
    (re.compile(r"^(new topic|start over|reset)[.!]?$", re.I), "new_topic"),
]


@dataclass(frozen=True)
class Prepared:
    """What to do with a message in its conversation."""

    command: Command | None
    question: str
    refined: bool
    reset: bool


def match_command(text: str) -> Command | None:
    """ "show the rest" / "more", "export", "new topic"."""
    stripped = " ".join(text.split())
    return next((command for pattern, command in _COMMANDS if pattern.match(stripped)), None)


def prepare(text: str, state: ConversationState, user: str, now: dt.datetime, is_direct: bool) -> Prepared:
    """Commands first; then a constraint-only message from the same person refines the last question."""
    memory = state.memory
    reset = is_direct and now - state.updated_at > DM_SILENCE and memory.last_question is not None
    if reset:
        memory = ThreadMemory()
    command = match_command(text)
    if command:
        return Prepared(command=command, question=text, refined=False, reset=reset)
    recent = memory.asked_at is not None and now - memory.asked_at <= RESUME_WINDOW
    if memory.last_question and memory.last_user == user and recent and not _offered(text, memory.pending):
        written = follow_up(text, memory.last_question, memory.entities, memory.last_answer or "")
        if written is not None:
            return Prepared(command=None, question=written, refined=True, reset=reset)
    if memory.last_question and memory.last_user == user and recent and _constraint_only(text, memory.pending):
        base = memory.last_question
        if any(is_date_word(w) for w in words(text)):
            base = DATE_PHRASE.sub(" ", base)  # a new date replaces the old one
        merged = " ".join(f"{base.rstrip(' ?.!')} {text.strip()}".split())
        return Prepared(command=None, question=merged, refined=True, reset=reset)
    return Prepared(command=None, question=text, refined=False, reset=reset)


def pointed_sources(text: str, question: str, memory: ThreadMemory) -> list[str] | None:
    """The documents "those", "them" or "they" point at: the last answer's sources, unless the
    question (as written out from a follow-up) asks about a period the last question did not.

    General case: "and how did they describe it by the November meeting?" after a question about the
    August statement asks about November's documents; the August sources are not "they" there, and
    searching only them would call November "after the newest document". So does a question about the
    occasion next to the last one (`periods.names_neighbour`)."""
    if not (points_at_many(text) and memory.sources) or names_neighbour(question):
        return None  # "the meeting after that one they held": not the last sources
    before = {p.written.lower() for p in period_mentions(memory.last_question or "")}
    if any(p.written.lower() not in before for p in period_mentions(question)):
        return None
    return [c.doc_id for c in memory.sources]


def _offered(text: str, pending: PendingClarification | None) -> bool:
    """True when the message is one of the choices the bot's clarifying question offered."""
    stripped = text.strip().rstrip("?.!").strip()
    return pending is not None and any(choice.lower() == stripped.lower() for choice in pending.choices)


def _constraint_only(text: str, pending: PendingClarification | None) -> bool:
    """ "only 2024", "2024", "ACME", "just Leipzig", a choice the bot offered."""
    stripped = text.strip().rstrip("?.!").strip()
    if _offered(text, pending):
        return True
    tokens = [w for w in words(stripped) if w.lower() not in STOPWORDS]
    if not 1 <= len(tokens) <= 3:
        return False
    starts = stripped.lower().split(" ", 1)[0] in ("only", "just")
    dated = any(is_date_word(t) for t in tokens)
    named = all(t[:1].isupper() or t.isupper() for t in tokens)
    return starts or dated or (named and pending is not None) or (named and len(tokens) <= 2)


def remember(
    state: ConversationState,
    question: str,
    user: str,
    result: OrchestrationResult,
    now: dt.datetime,
    count_tokens: Callable[[Sequence[str]], list[int]],
    summary: str | None = None,
) -> ConversationState:
    """The conversation after this turn: memory of what was asked and found, and the summary.

    `summary` is the new rolling summary when an LLM wrote it; otherwise it is built extractively.
    """
    memory = state.memory.model_copy()
    if result.kind in ("answer", "clarification"):
        table = result.table
        memory = ThreadMemory(
            last_question=question,
            last_answer=result.answer if result.kind == "answer" else None,
            last_user=user,
            last_intent=result.route.intent,
            entities=result.reading.mentions if result.reading is not None else [],
            date_start=result.plan.date_start.isoformat() if result.plan.date_start else None,
            date_end=result.plan.date_end.isoformat() if result.plan.date_end else None,
            result_set_id=table.result_set_id if table else None,
            result_offset=table.shown if table else 0,
            result_total=table.total if table else 0,
            sources=result.citations or memory.sources,
            pending=PendingClarification(question=result.answer, user=user, asked_at=now)
            if result.kind == "clarification"
            else None,
            asked_at=now,
        )
    elif result.kind == "uncertainty" and result.reading is not None:
        # A question the documents could not answer is still what the person asked last: "and the
        # year before that?" after it counts from it. What was found before (sources, a result set)
        # stays for "those" and "show the rest".
        memory = memory.model_copy(
            update={
                "last_question": question,
                "last_answer": None,
                "last_user": user,
                "last_intent": result.route.intent,
                "entities": result.reading.mentions,
                "date_start": result.plan.date_start.isoformat() if result.plan.date_start else None,
                "date_end": result.plan.date_end.isoformat() if result.plan.date_end else None,
                "pending": None,
                "asked_at": now,
            }
        )
    summary = summary or _summarize(state.summary, question, result.answer, count_tokens)
    return state.model_copy(
        update={
            "memory": memory,
            "summary": summary,
            "last_query": memory.last_question,
            "last_route": result.route.route,
            "updated_at": now,
        }
    )


def reset(state: ConversationState, now: dt.datetime) -> ConversationState:
    """Forget the thread ("new topic", or a DM after 30 minutes of silence)."""
    return state.model_copy(
        update={"memory": ThreadMemory(), "summary": "", "last_query": None, "last_route": None, "updated_at": now}
    )


def _summarize(summary: str, question: str, answer: str, count_tokens: Callable[[Sequence[str]], list[int]]) -> str:
    """An extractive rolling summary: each turn's question and the first sentence of its reply."""
    first = next(iter(split_sentences(answer)), "")
    lines = [line for line in summary.splitlines() if line] + [f"Q: {question} A: {first}"]
    sizes = count_tokens(lines)
    while len(lines) > 1 and sum(sizes) > SUMMARY_TOKENS:
        lines, sizes = lines[1:], sizes[1:]
    return "\n".join(lines)
