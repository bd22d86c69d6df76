"""What every file loader shares: front matter, titles and dates."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import charset_normalizer
import frontmatter

from adapters.loaders.dates import OPENING_CHARS, label_date, period_date


class UnreadableText(ValueError):
    """A file that should be text but is in no encoding that can be recognised."""


LIKELY_ENCODINGS = ["utf_16", "utf_32", "cp1252"]
"""Tried first: what Windows tools write when they do not write UTF-8 (Notepad's "Unicode",
Windows-1252). Measured: on a short English line in Windows-1252, charset-normalizer's open detection
picks cp775 ("ōhotelö"); asked about these first, it reads it right, and still rejects Windows-1252
for a Cyrillic file, which the open detection then reads as cp1251."""


def read_text(path: Path) -> str:
    """A text file's content in its own encoding: UTF-8 (with or without a byte-order mark), else
    the encoding charset-normalizer finds among `LIKELY_ENCODINGS`, else among all it knows."""
    data = path.read_bytes()
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    best = (
        charset_normalizer.from_bytes(data, cp_isolation=LIKELY_ENCODINGS).best()
        or charset_normalizer.from_bytes(data).best()
    )
    text = str(best) if best is not None else None
    if text is None or "\x00" in text:
        raise UnreadableText("not text in any encoding that can be recognised (a binary file?); save it as UTF-8")
    return text


def read_front_matter(path: Path) -> tuple[dict[str, Any], str]:
    """The YAML front matter (empty when none) and the body of a text file."""
    post = frontmatter.loads(read_text(path))
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


def document_date(
    meta: dict[str, Any],
    path: Path,
    *,
    opening: str = "",
    title: str = "",
    embedded: object = None,
) -> dt.date | None:
    """The document's own date, None when it states none (order in `adapters.loaders.dates`).

    `meta` is the front matter, `opening` the first page or ~2,000 characters of text, `title` the
    document's title, `embedded` the file's own metadata date (PDF or DOCX creation date).
    """
    return (
        coerce_date(meta.get("date"))
        or period_date(opening, title)
        or label_date(title, path.stem)
        or coerce_date(embedded)
    )


def opening_text(texts: Iterable[str]) -> str:
    """The first ~2,000 characters of a document's text, where a cover page states its period."""
    parts: list[str] = []
    size = 0
    for text in texts:
        parts.append(text)
        size += len(text) + 1
        if size >= OPENING_CHARS:
            break
    return "\n".join(parts)[:OPENING_CHARS]


def text_value(meta: dict[str, Any], key: str) -> str | None:
    """A front-matter string field, stripped; None when absent or empty."""
    value = meta.get(key)
    return str(value).strip() or None if value is not None else None


def row_text(columns: list[str], row: list[str]) -> str:
    """A table row as searchable text: `item: Winter tire; quantity: 4`."""
    return "; ".join(f"{c}: {v}" for c, v in zip(columns, row, strict=False) if str(v).strip())
