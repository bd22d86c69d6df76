"""Plain-text loader: optional front matter, paragraphs split on blank lines."""

from __future__ import annotations

import re
from pathlib import Path

from adapters.loaders.common import document_date, opening_text, read_front_matter, text_value, title_from_name
from core.knowledge import LoadedDocument, SourceBlock

_BLANK_LINES = re.compile(r"\n\s*\n")


class TextLoader:
    """Reads `.txt` files; each paragraph is a block."""

    suffixes = (".txt", ".text")

    def load(self, path: Path) -> LoadedDocument:
        """Read one text file."""
        meta, body = read_front_matter(path)
        blocks = [SourceBlock(text=p.strip()) for p in _BLANK_LINES.split(body) if p.strip()]
        title = text_value(meta, "title") or title_from_name(path)
        return LoadedDocument(
            title=title,
            blocks=blocks,
            date=document_date(meta, path, opening=opening_text(b.text for b in blocks), title=title),
            url=text_value(meta, "url"),
            media_type="text/plain",
        )
