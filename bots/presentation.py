"""Platform-neutral presentation shared by every edge's renderer (terminal, Slack, Teams).

Each edge has one renderer that turns an `OrchestrationResult` into its platform's format; the
pieces they have in common (how a source is described, how a table is aligned) live here once.
"""

from __future__ import annotations

from core.contracts import Citation, TableResult


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
