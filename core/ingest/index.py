"""A collection's index: a table beside the documents that lists them, one row per file.

General case: collections come with a manifest (an export's index, a dataset's `metadata.csv`, a
records system's listing): a column holds each file's path and others say what each file is (its
type: "minutes", "statement", "contract"). Its rows describe documents and answer nothing
themselves: "what did the minutes say about X" is answered from the minutes, not from the row that
lists them. So an index is read at ingestion, not searched, and the type it gives a document
becomes that document's kind, written before its title when the title does not say it (a file
name such as "MeetingDate=2013-09-17" says nothing of what the file is).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from pathlib import Path

from core.knowledge import SourceTable

INDEX_SHARE = 0.8
"""The share of a column's values that must be paths of the run's files (and of a type column's rows
that must carry a type) for the table to be an index."""
MIN_LISTED = 2
MAX_KINDS = 12
"""A type column holds a few words repeated over many rows; more distinct values are names or ids."""
_WORDS = re.compile(r"[A-Za-z][A-Za-z _-]{0,40}")


def listed_files(table: SourceTable, folder: Path, roots: Iterable[Path], files: set[Path]) -> dict[Path, str | None]:
    """The files `table` lists, each with the type it gives (None without a type column); empty when
    the table is no index. A path is read relative to the table's folder or to a root of the run."""
    bases = [folder, *roots]
    width = len(table.columns)
    for column in range(width):
        values = [row[column].strip() for row in table.rows]
        resolved = [_resolve(v, bases, files) if v else None for v in values]
        found = [p for p in resolved if p is not None]
        if len(found) < MIN_LISTED or len(found) < INDEX_SHARE * sum(1 for v in values if v):
            continue
        kinds = [c for c in range(width) if c != column and _is_type(table, c)]
        return {
            path: " ".join(row[c].strip() for c in kinds if row[c].strip()) or None
            for path, row in zip(resolved, table.rows, strict=True)
            if path is not None
        }
    return {}


def with_kind(title: str, kind: str) -> str:
    """The title led by the kind an index gives, unless it says it already ("Minutes: MeetingDate=…")."""
    if kind.lower() in title.lower():
        return title
    return f"{kind[:1].upper()}{kind[1:]}: {title}"


def _resolve(value: str, bases: list[Path], files: set[Path]) -> Path | None:
    for base in bases:
        path = Path(os.path.normpath(base / value))
        if path in files:
            return path
    return None


def _is_type(table: SourceTable, column: int) -> bool:
    """True for a column of a few words repeated over the rows ("minutes", "statement")."""
    values = [row[column].strip() for row in table.rows]
    filled = [v for v in values if v]
    distinct = set(filled)
    return (
        len(filled) >= INDEX_SHARE * len(values)
        and 2 <= len(distinct) <= MAX_KINDS
        and all(_WORDS.fullmatch(v) for v in distinct)
    )
