"""Platform-neutral presentation shared by every edge's renderer (terminal, Slack, Teams).

Each edge has one renderer that turns an `OrchestrationResult` into its platform's format; the
pieces they have in common (how a source is described, how a table is aligned) live here once.
"""

from __future__ import annotations

import csv
import io

from core.contracts import Citation, OrchestrationResult, TableResult
from core.orchestrator.commands import PAGE_ROWS

# The text a typed command would carry; buttons send exactly these, so a click acts like typing.
SHOW_MORE_COMMAND = "show the rest"
EXPORT_COMMAND = "export"


def source_details(citation: Citation) -> list[str]:
    """`2024-03-01`, `§Section`, `p. 3` — whichever a source has."""
    details = []
    if citation.date:
        details.append(citation.date.isoformat())
    if citation.section:
        details.append(f"§{citation.section}")
    if citation.page:
        details.append(f"p. {citation.page}")
    return details


def source_parts(citation: Citation, title: str) -> str:
    """`[1] <title>, 2024-03-01, §Section, p. 3`, the title already formatted for the platform."""
    return ", ".join([f"[{citation.n}] {title}", *source_details(citation)])


def written_by_llm(result: OrchestrationResult) -> bool:
    """True when a language model wrote the reply's text (the AI label), not the extractive path."""
    return any(step.path == "llm" and step.stage in ("synthesis", "clarification") for step in result.llm_steps)


def choice_command(value: str) -> str:
    """What a person types to pick a clarification choice ("only 2024"); a choice button sends it."""
    return f"only {value}"


def can_show_more(result: OrchestrationResult) -> bool:
    """A result set with rows not shown yet: offer "Show more"."""
    table = result.table
    if table is None or not table.result_set_id or len(table.rows) >= table.total:
        return False
    # A first answer knows its overflow; a page of "show the rest" is full unless it was the last.
    return result.overflow > 0 or (result.final_reason == "command" and len(table.rows) >= PAGE_ROWS)


def can_export(result: OrchestrationResult) -> bool:
    """A result set the "export" command can write as CSV."""
    return result.table is not None and bool(result.table.result_set_id)


def source_line(citation: Citation) -> str:
    """`[1] Title, 2024-03-01, §Section, p. 3 — url`."""
    line = source_parts(citation, citation.title)
    return f"{line} — {citation.url}" if citation.url else line


def table_text(table: TableResult, limit: int = 20) -> str:
    """A table as aligned plain text (terminal, Slack code block)."""
    rows = [table.columns, *table.rows[:limit]]
    widths = [max(len(str(row[i])) if i < len(row) else 0 for row in rows) for i in range(len(table.columns))]
    lines = ["  ".join(str(cell).ljust(widths[i]) for i, cell in enumerate(row)).rstrip() for row in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    if table.total > min(limit, len(table.rows)):
        lines.append(f"({table.total - min(limit, len(table.rows))} more rows)")
    return "\n".join(lines)


_UNCERTAINTY_DETAIL = ("Searched:", "Rounds:", "Best matches", "- ")


def uncertainty_parts(result: OrchestrationResult) -> tuple[str, list[str]]:
    """An uncertainty reply split into its message and its details (what was searched, best matches)."""
    message: list[str] = []
    details: list[str] = []
    for line in result.answer.splitlines():
        (details if line.startswith(_UNCERTAINTY_DETAIL) else message).append(line)
    return "\n".join(message), details


def table_csv(table: TableResult) -> str:
    """A table as CSV text, header first."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(table.columns)
    writer.writerows(table.rows)
    return buffer.getvalue()
