"""Tables for structured answers, and the overflow rules (SPEC section 3)."""

from __future__ import annotations

from collections import Counter

from core.contracts import TableResult
from core.knowledge import AggregateFunction, AggregateRow, Annotation

OVERFLOW_CLARIFY_ROWS = 200
MAX_CHOICES = 8


def annotation_table(annotations: list[Annotation]) -> tuple[list[str], list[list[str]]]:
    """Columns and every row: facts as (document, field, value), rows as their own columns."""
    if annotations and all(a.kind == "fact" for a in annotations):
        return ["document", "field", "value"], [[a.title, a.label, a.value] for a in annotations]
    columns = list(dict.fromkeys(c for a in annotations if a.kind == "row" for c in a.properties))
    rows = [[a.properties.get(c, "") for c in columns] for a in annotations if a.kind == "row"]
    return columns, rows


def aggregate_table(
    rows: list[AggregateRow], function: AggregateFunction, field: str | None, group_by: str | None
) -> TableResult:
    """An aggregate as a table: one line per group."""
    label = f"{function}({field})" if field and function != "count" else function
    columns = [group_by] if group_by else []
    columns += [label, "rows"]
    body = [([r.group.get(group_by, "")] if group_by else []) + [format_number(r.value), str(r.count)] for r in rows]
    return TableResult(columns=columns, rows=body, total=len(body), shown=len(body))


def format_number(value: float | None) -> str:
    """`4888.0` → `4,888.00`; whole counts without decimals."""
    if value is None:
        return "–"
    return f"{int(value):,}" if float(value).is_integer() else f"{value:,.2f}"


def narrowing_choices(annotations: list[Annotation]) -> tuple[str, list[tuple[str, int]]] | None:
    """A field with 2–8 values to narrow an overflowing result by: the year first, then a column."""
    years = Counter(str(a.date.year) for a in annotations if a.date)
    if len(years) >= 2:
        return "year", sorted(years.items())
    best: tuple[str, list[tuple[str, int]]] | None = None
    columns = {c for a in annotations for c in a.properties}
    for column in sorted(columns):
        values = Counter(a.properties.get(column, "") for a in annotations)
        if 2 <= len(values) <= MAX_CHOICES and (best is None or len(values) < len(best[1])):
            best = (column, sorted(values.items(), key=lambda pair: -pair[1]))
    return best
