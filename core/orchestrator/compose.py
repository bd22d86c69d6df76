"""Structured answers: facts, rows and aggregates as text with `[n]`, and the overflow question."""

from __future__ import annotations

from core.contracts import Citation, Evidence, TableResult
from core.orchestrator.state import Draft, GraphState
from core.orchestrator.tables import format_number
from core.text import normalize_label, stem

PREVIEW_ROWS = 5
LOOKUP_ROWS = 3


def _citations(evidence: list[Evidence]) -> tuple[dict[str, int], list[Citation]]:
    """One citation per document, numbered in order of appearance."""
    numbers: dict[str, int] = {}
    citations: list[Citation] = []
    for item in evidence:
        if item.doc_id in numbers:
            continue
        numbers[item.doc_id] = len(numbers) + 1
        citations.append(
            Citation(
                n=numbers[item.doc_id],
                doc_id=item.doc_id,
                chunk_id=item.chunk_id,
                title=item.title,
                # A row's own date (a receipt's) is in the table; the source is the whole file.
                date=None if item.kind == "row" else item.date,
                section=item.section,
                page=item.page,
                url=item.url,
                snippet=item.snippet,
                relevance=round(item.relevance, 4),
            )
        )
    return numbers, citations


def structured_draft(state: GraphState) -> Draft:
    """The answer for the structured route; the table itself travels in `OrchestrationResult.table`."""
    table, evidence = state.table, [e for e in state.evidence if e.mode == "structured"]
    assert table is not None
    numbers, citations = _citations(evidence)
    sources = " ".join(f"[{n}]" for n in numbers.values())
    plan = state.structured
    if plan is not None and plan.function:
        return Draft(text=_aggregate_text(table, plan.function, plan.field, sources), citations=citations)
    if table.columns == ["document", "field", "value"] and table.total <= table.shown:
        lines = []
        for row, item in zip(table.rows, evidence, strict=False):
            lines.append(f"{row[1]} of {row[0]}: {row[2]} [{numbers.get(item.doc_id, 1)}]")
        return Draft(text="\n".join(lines), citations=citations)
    asked = _asked_columns(table.columns, plan.named_fields) if plan is not None else []
    if asked and table.total <= min(table.shown, LOOKUP_ROWS):
        # A lookup ("how much does the K-450 weigh"): the asked value, row by row.
        lines = [
            f"{row[0]} — " + "; ".join(f"{table.columns[i]}: {row[i]}" for i in asked) + f" {sources}"
            for row in table.rows
        ]
        return Draft(text="\n".join(lines), citations=citations)
    text = f"Found {table.total} matching {'row' if table.total == 1 else 'rows'} {sources}."
    if table.total <= table.shown:
        names = list(dict.fromkeys(row[0] for row in table.rows if row and row[0]))
        text = text[:-1] + ": " + ", ".join(names) + "."
    if table.total > table.shown:
        text += (
            f" Showing the {table.shown} newest; {table.total - table.shown} more — "
            "say “show the rest” for the next page or “export” for a CSV."
        )
    return Draft(text=text, citations=citations)


def _asked_columns(columns: list[str], fields: list[str]) -> list[int]:
    """The columns a question names ("weigh" → `Weight (kg)`), never the first (the row's name)."""
    wanted = {stem(normalize_label(f)) for f in fields}
    return [
        i for i, column in enumerate(columns) if i > 0 and wanted & {stem(w) for w in normalize_label(column).split()}
    ]


def _aggregate_text(table: TableResult, function: str, field: str | None, sources: str) -> str:
    name = field or "value"
    subject = {
        "count": "Number of matching rows",
        "sum": "Total" if name == "total" else f"Sum of {name}",
        "avg": f"Average {name}",
        "min": f"Lowest {name}",
        "max": f"Highest {name}",
    }.get(function, function)
    if len(table.rows) == 1 and len(table.columns) == 2:
        value, rows = table.rows[0]
        counted = "" if function == "count" else f" (from {rows} rows)"
        return f"{subject}: {value}{counted} {sources}."
    lines = [f"{subject} by {table.columns[0]} {sources}:"]
    lines.extend(f"- {row[0]}: {row[1]} ({row[2]} rows)" for row in table.rows)
    return "\n".join(lines)


def overflow_question(state: GraphState) -> str:
    """Too many rows to show: say how many, offer the values to narrow by, a preview and export."""
    table, choices = state.table, state.choices
    assert table is not None
    assert choices is not None
    column, values = choices
    listed = ", ".join(f"{value or '(empty)'} ({count})" for value, count in values)
    preview = "; ".join(" | ".join(row) for row in table.rows[:PREVIEW_ROWS])
    return (
        f"I found {format_number(table.total)} matching rows — more than I can list here. "
        f"Which {column} do you mean? {listed}. "
        f"For example: “only {values[0][0]}”. The first rows: {preview}. "
        "Or say “export” for all of them as a CSV."
    )
