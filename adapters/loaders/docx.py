"""DOCX loader (python-docx): heading styles become sections, tables become tables."""

from __future__ import annotations

from pathlib import Path
from zipfile import BadZipFile

import docx
from docx.opc.exceptions import PackageNotFoundError

from adapters.loaders.common import document_date, opening_text, row_text, title_from_name
from core.knowledge import LoadedDocument, SourceBlock, SourceTable


def _heading_level(style_name: str) -> int | None:
    if style_name == "Title":
        return 0
    if style_name.startswith("Heading "):
        suffix = style_name.removeprefix("Heading ")
        return int(suffix) if suffix.isdigit() else None
    return None


class DocxLoader:
    """Reads `.docx` files."""

    suffixes = (".docx",)

    def load(self, path: Path) -> LoadedDocument:
        """Paragraphs in order, with their heading path; tables after them."""
        try:
            document = docx.Document(str(path))
        except (BadZipFile, PackageNotFoundError, KeyError) as exc:
            raise ValueError(
                "not a readable Word document (damaged, or not a .docx); open it in Word and save it again"
            ) from exc
        props = document.core_properties
        title = (props.title or "").strip()
        headings: list[tuple[int, str]] = []
        blocks: list[SourceBlock] = []
        for paragraph in document.paragraphs:
            text = paragraph.text.strip()
            if not text:
                continue
            level = _heading_level(paragraph.style.name if paragraph.style else "")
            if level == 0:
                title = title or text
            elif level is not None:
                headings = [h for h in headings if h[0] < level] + [(level, text)]
            else:
                blocks.append(SourceBlock(text=text, section=" > ".join(h for _, h in headings) or None))
        tables: list[SourceTable] = []
        for grid in document.tables:
            rows = [[cell.text.strip() for cell in row.cells] for row in grid.rows]
            if len(rows) >= 2:
                table = SourceTable(columns=rows[0], rows=rows[1:])
                tables.append(table)
                blocks.extend(SourceBlock(text=row_text(table.columns, r)) for r in table.rows)
        title = title or title_from_name(path)
        opening = opening_text(b.text for b in blocks)
        return LoadedDocument(
            title=title,
            blocks=blocks,
            tables=tables,
            date=document_date({}, path, opening=opening, title=title, embedded=props.created),
            media_type="application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        )
