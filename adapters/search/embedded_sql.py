"""SQL filter clauses shared by the embedded backend's segment and annotation queries."""

from __future__ import annotations

from core.contracts import SearchFilters


def sql_filters(filters: SearchFilters, alias: str = "s") -> tuple[str, list[object]]:
    """` AND ...` clauses and their parameters for collections, categories, documents and dates."""
    clauses: list[str] = []
    params: list[object] = []
    for column, values in (
        ("collection", filters.collections),
        ("category", filters.categories),
        ("doc_id", filters.doc_ids),
    ):
        if values is None or (column == "category" and not values):
            continue
        clauses.append(f"{alias}.{column} IN ({','.join('?' * len(values))})" if values else "0")
        params.extend(values)
    if filters.date_start is not None:
        clauses.append(f"{alias}.date >= ?")
        params.append(filters.date_start.isoformat())
    if filters.date_end is not None:
        clauses.append(f"{alias}.date <= ?")
        params.append(filters.date_end.isoformat())
    return "".join(f" AND {c}" for c in clauses), params
