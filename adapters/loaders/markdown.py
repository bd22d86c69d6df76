"""Markdown loader: front matter, title, and blocks tagged with their section path."""

from __future__ import annotations

from pathlib import Path

from markdown_it import MarkdownIt
from markdown_it.token import Token

from adapters.loaders.common import document_date, opening_text, read_front_matter, text_value, title_from_name
from core.knowledge import LoadedDocument, SourceBlock, SourceTable

SECTION_SEPARATOR = " > "


class MarkdownLoader:
    """Reads `.md` files with markdown-it-py; headings become section paths."""

    suffixes = (".md", ".markdown")

    def __init__(self) -> None:
        self._parser = MarkdownIt("commonmark").enable("table")

    def load(self, path: Path) -> LoadedDocument:
        """Parse one Markdown file."""
        meta, body = read_front_matter(path)
        lines = body.splitlines()
        headings: list[tuple[int, str]] = []
        blocks: list[SourceBlock] = []
        tables: list[SourceTable] = []
        first_h1: str | None = None
        tokens = self._parser.parse(body)
        for i, token in enumerate(tokens):
            if token.level != 0 or token.map is None or token.nesting == -1:
                continue
            if token.type == "heading_open":
                level = int(token.tag[1])
                text = tokens[i + 1].content.strip()
                if level == 1 and first_h1 is None:
                    first_h1 = text
                    continue
                headings = [h for h in headings if h[0] < level] + [(level, text)]
                continue
            start, end = token.map
            text = "\n".join(lines[start:end]).strip()
            section = SECTION_SEPARATOR.join(h for _, h in headings) or None
            if text:
                blocks.append(SourceBlock(text=text, section=section))
            if token.type == "table_open":
                table = _table(tokens, i, section)
                if table is not None:
                    tables.append(table)
        title = text_value(meta, "title") or first_h1 or title_from_name(path)
        return LoadedDocument(
            title=title,
            blocks=blocks,
            tables=tables,
            date=document_date(meta, path, opening=opening_text(b.text for b in blocks), title=title),
            url=text_value(meta, "url"),
            media_type="text/markdown",
        )


def _table(tokens: list[Token], start: int, section: str | None) -> SourceTable | None:
    """The rows of the table that opens at `tokens[start]`; the first row is the header."""
    rows: list[list[str]] = []
    for token in tokens[start + 1 :]:
        if token.type == "table_close":
            break
        if token.type == "tr_open":
            rows.append([])
        elif token.type == "inline" and rows:
            rows[-1].append(token.content.strip())
    if len(rows) < 2:
        return None
    return SourceTable(columns=rows[0], rows=rows[1:], section=section)
