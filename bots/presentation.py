"""Platform-neutral presentation shared by every edge's renderer (terminal, Slack, Teams).

Each edge has one renderer that turns an `OrchestrationResult` into its platform's format; the
pieces they have in common (how a source is described, how a table is aligned) live here once.
"""

from __future__ import annotations

import csv
import io
import re

from core.contracts import Citation, OrchestrationResult, TableResult


def source_parts(citation: Citation, title: str) -> str:
    """`[1] <title>, 2024-03-01, §Section, p. 3`, the title already formatted for the platform."""
    parts = [f"[{citation.n}] {title}"]
    if citation.date:
        parts.append(citation.date.isoformat())
    if citation.section:
        parts.append(f"§{citation.section}")
    if citation.page:
        parts.append(f"p. {citation.page}")
    return ", ".join(parts)


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


# The core's overflow clarification (core/orchestrator/compose.py `overflow_question`) lists its
# choices as "Which <column> do you mean? <value> (<count>), <value> (<count>). For example…".
_CHOICES = re.compile(r"do you mean\? (?P<listed>.+?)\. For example", re.DOTALL)
_COUNTED = re.compile(r"^(?P<value>.+?) \(\d[\d,]*\)$")
_UNCERTAINTY_DETAIL = ("Searched:", "Rounds:", "Best matches", "- ")


def clarification_choices(result: OrchestrationResult) -> list[str]:
    """The values a clarification offers to narrow by, in its order (none when it offers none)."""
    if result.kind != "clarification":
        return []
    found = _CHOICES.search(result.answer)
    if not found:
        return []
    choices = []
    for listed in found.group("listed").split(", "):
        counted = _COUNTED.match(listed.strip())
        value = counted.group("value") if counted else ""
        if value and value != "(empty)":
            choices.append(value)
    return choices


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
