"""What every file loader shares: front matter, titles and dates."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path
from typing import Any

import frontmatter

_DATE_IN_NAME = re.compile(r"(?<!\d)(\d{4})-(\d{2})-(\d{2})(?!\d)")


def read_front_matter(path: Path) -> tuple[dict[str, Any], str]:
    """The YAML front matter (empty when none) and the body of a text file."""
    post = frontmatter.loads(path.read_text(encoding="utf-8-sig"))
    return dict(post.metadata), post.content


def title_from_name(path: Path) -> str:
    """A readable title from a file name: `travel-policy_2024.md` → `Travel policy 2024`."""
    stem = re.sub(r"[-_]+", " ", path.stem).strip()
    return stem[:1].upper() + stem[1:] if stem else path.name


def coerce_date(value: object) -> dt.date | None:
    """A front-matter date (date, datetime or ISO text) as a date; None when it is not one."""
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    if isinstance(value, str):
        try:
            return dt.date.fromisoformat(value.strip()[:10])
        except ValueError:
            return None
    return None


def document_date(meta: dict[str, Any], path: Path) -> dt.date:
    """Front matter `date`, else a YYYY-MM-DD in the file name, else the file's modification date."""
    date = coerce_date(meta.get("date"))
    if date is not None:
        return date
    match = _DATE_IN_NAME.search(path.name)
    if match:
        try:
            return dt.date(int(match.group(1)), int(match.group(2)), int(match.group(3)))
        except ValueError:
            pass
    return dt.datetime.fromtimestamp(path.stat().st_mtime, tz=dt.UTC).date()


def text_value(meta: dict[str, Any], key: str) -> str | None:
    """A front-matter string field, stripped; None when absent or empty."""
    value = meta.get(key)
    return str(value).strip() or None if value is not None else None


def row_text(columns: list[str], row: list[str]) -> str:
    """A table row as searchable text: `item: Winter tire; quantity: 4`."""
    return "; ".join(f"{c}: {v}" for c, v in zip(columns, row, strict=False) if str(v).strip())
