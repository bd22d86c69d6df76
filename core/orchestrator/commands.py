"""Thread commands: "show the rest" pages the last result set, "export" writes it, "new topic" resets."""

from __future__ import annotations

from core.contracts import (
    ConfidenceSummary,
    ContextPacket,
    ExecutionPlan,
    NextAction,
    OrchestrationResult,
    RouteDecision,
    TableResult,
    Turn,
)
from core.orchestrator import replies
from core.orchestrator.conversation import Command
from core.ports import Exporter, ResultSetStore
from core.records import ThreadMemory

PAGE_ROWS = 20


class Commands:
    """Runs a command against the conversation's memory."""

    def __init__(self, *, result_sets: ResultSetStore | None, exporter: Exporter | None) -> None:
        self._result_sets = result_sets
        self._exporter = exporter

    async def run(self, command: Command, memory: ThreadMemory, turn: Turn) -> tuple[OrchestrationResult, int]:
        """The reply, and the result offset the memory moves to."""
        if command == "new_topic":
            return command_result(turn, replies.NEW_TOPIC), 0
        if not memory.result_set_id or self._result_sets is None:
            verb = "show more of" if command == "more" else "export"
            return command_result(turn, replies.COMMAND_UNAVAILABLE.format(command=verb)), memory.result_offset
        if command == "export":
            if self._exporter is None:
                return command_result(turn, replies.EXPORT_UNAVAILABLE), memory.result_offset
            where = await self._exporter.export(memory.result_set_id)
            text = replies.EXPORTED.format(total=memory.result_total, where=where)
            return command_result(turn, text, sources=memory), memory.result_offset
        page = await self._result_sets.page(memory.result_set_id, memory.result_offset, PAGE_ROWS)
        if page is None or not page.rows:
            return command_result(turn, replies.NO_MORE_ROWS), memory.result_offset
        end = memory.result_offset + page.shown
        text = replies.PAGE.format(first=memory.result_offset + 1, last=end, total=page.total)
        if end >= page.total:
            text += " " + replies.LAST_PAGE
        return command_result(turn, text, table=page, sources=memory), end


def command_result(
    turn: Turn, text: str, *, table: TableResult | None = None, sources: ThreadMemory | None = None
) -> OrchestrationResult:
    """An `OrchestrationResult` for a command (route direct, final reason `command`)."""
    citations = sources.sources[:1] if sources and sources.sources else []
    if citations:
        citations = [citations[0].model_copy(update={"n": 1})]
        text = f"{text} [1]"
    return OrchestrationResult(
        answer=text,
        kind="answer" if table is not None else "info",
        terminal="success",
        next_action=NextAction(action="proceed", reason="command", branch_code="SUCCESS"),
        branch="SUCCESS",
        evidence_level="high" if table is not None else "insufficient",
        confidence=1.0 if table is not None else 0.0,
        band="high" if table is not None else "low",
        final_reason="command",
        citations=citations,
        route=RouteDecision(route="direct", reason="thread command", intent="command"),
        plan=ExecutionPlan(original_query=turn.text, revised_query=turn.text),
        context_packet=ContextPacket(
            summary=ConfidenceSummary(top_confidence=0.0, candidate_count=0, threshold_met=True, branch="SUCCESS"),
            provider="threadwise",
            timestamp=turn.received_at.isoformat(),
        ),
        table=table,
    )
