"""CSV, TSV and JSON Lines loaders: every record is a table row and a searchable block."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

from adapters.loaders.common import document_date, opening_text, read_text, row_text, title_from_name
from core.knowledge import LoadedDocument, SourceBlock, SourceTable

_TEXT_FIELDS = ("text", "body", "content")


class DelimitedLoader:
    """Reads `.csv` and `.tsv` files with a header row."""

    suffixes = (".csv", ".tsv")

    def load(self, path: Path) -> LoadedDocument:
        """One table; each row also becomes a block of text."""
        delimiter = "\t" if path.suffix.lower() == ".tsv" else ","
        reader = csv.reader(io.StringIO(read_text(path), newline=""), delimiter=delimiter, strict=True)
        try:
            records = list(reader)
        except csv.Error as exc:
            raise ValueError(
                f"line {reader.line_num}: the quotes do not match ({exc}); close the quoted field or remove the quote"
            ) from exc
        records = [r for r in records if any(cell.strip() for cell in r)]
        if len(records) < 2:
            raise ValueError("no header and data rows")
        columns = [c.strip() for c in records[0]]
        if any(len(r) != len(columns) for r in records[1:]):
            bad = next(i for i, r in enumerate(records[1:], start=2) if len(r) != len(columns))
            raise ValueError(f"row {bad} has a different number of fields than the header")
        table = SourceTable(columns=columns, rows=records[1:])
        blocks = [SourceBlock(text=row_text(columns, r)) for r in table.rows]
        title = title_from_name(path)
        return LoadedDocument(
            title=title,
            blocks=blocks,
            tables=[table],
            date=document_date({}, path, opening=opening_text(b.text for b in blocks), title=title),
            media_type="text/tab-separated-values" if delimiter == "\t" else "text/csv",
        )


class JsonLinesLoader:
    """Reads `.jsonl` files: records with a text field become passages, flat records become rows."""

    suffixes = (".jsonl", ".ndjson")

    def load(self, path: Path) -> LoadedDocument:
        """Parse every line; a malformed line fails the file with its line number."""
        records: list[dict[str, Any]] = []
        for number, line in enumerate(read_text(path).splitlines(), start=1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ValueError(f"line {number}: {exc.msg}") from exc
            if not isinstance(record, dict):
                raise ValueError(f"line {number}: expected a JSON object")
            records.append(record)
        if not records:
            raise ValueError("no records")
        blocks: list[SourceBlock] = []
        flat = [r for r in records if not any(isinstance(r.get(f), str) for f in _TEXT_FIELDS)]
        for record in records:
            text = next((record[f] for f in _TEXT_FIELDS if isinstance(record.get(f), str)), None)
            if text is not None:
                section = record.get("title") or record.get("id")
                blocks.append(SourceBlock(text=text, section=str(section) if section else None))
        tables = []
        if flat:
            columns = list(dict.fromkeys(k for r in flat for k in r))
            rows = [["" if r.get(c) is None else str(r.get(c)) for c in columns] for r in flat]
            tables.append(SourceTable(columns=columns, rows=rows))
            blocks.extend(SourceBlock(text=row_text(columns, r)) for r in rows)
        title = title_from_name(path)
        return LoadedDocument(
            title=title,
            blocks=blocks,
            tables=tables,
            date=document_date({}, path, opening=opening_text(b.text for b in blocks), title=title),
            media_type="application/x-ndjson",
        )
