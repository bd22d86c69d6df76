"""PDF loader (pypdf): one block per page, page numbers kept for citations."""

from __future__ import annotations

from pathlib import Path

from pypdf import PdfReader

from adapters.loaders.common import coerce_date, document_date, title_from_name
from core.knowledge import LoadedDocument, SourceBlock


class PdfLoader:
    """Reads `.pdf` files; a page without extractable text (a scan) is skipped."""

    suffixes = (".pdf",)

    def load(self, path: Path) -> LoadedDocument:
        """Extract the text of every page."""
        reader = PdfReader(path, strict=False)
        if reader.is_encrypted:
            raise ValueError("the PDF is encrypted")
        blocks = [
            SourceBlock(text=text.strip(), page=number)
            for number, page in enumerate(reader.pages, start=1)
            if (text := page.extract_text() or "").strip()
        ]
        if not blocks:
            raise ValueError("no extractable text (a scanned PDF needs OCR first)")
        info = reader.metadata
        title = (info.title or "").strip() if info else ""
        created = info.creation_date if info else None
        return LoadedDocument(
            title=title or title_from_name(path),
            blocks=blocks,
            date=coerce_date(created) or document_date({}, path),
            media_type="application/pdf",
        )
