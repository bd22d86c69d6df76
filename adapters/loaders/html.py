"""HTML loader (selectolax): headings become sections, tables become tables."""

from __future__ import annotations

from pathlib import Path

from selectolax.lexbor import LexborHTMLParser, LexborNode

from adapters.loaders.common import document_date, opening_text, read_text, row_text, title_from_name
from core.knowledge import LoadedDocument, SourceBlock, SourceTable

_BLOCKS = "h1,h2,h3,h4,h5,h6,p,li,pre,blockquote,table,dt,dd"
_HEADINGS = {"h1", "h2", "h3", "h4", "h5", "h6"}


def _text(node: LexborNode) -> str:
    return " ".join((node.text(separator=" ") or "").split())


def _inside_other_block(node: LexborNode) -> bool:
    parent = node.parent
    while parent is not None and parent.tag not in ("body", "html"):
        if parent.tag in ("p", "li", "table", "blockquote", "pre", "dd"):
            return True
        parent = parent.parent
    return False


def _table(node: LexborNode, section: str | None) -> SourceTable | None:
    rows = [[_text(cell) for cell in tr.css("th,td")] for tr in node.css("tr")]
    rows = [r for r in rows if any(r)]
    if len(rows) < 2:
        return None
    return SourceTable(columns=rows[0], rows=rows[1:], section=section)


class HtmlLoader:
    """Reads `.html` files; `<meta name="date">` and `<link rel="canonical">` give date and url."""

    suffixes = (".html", ".htm")

    def load(self, path: Path) -> LoadedDocument:
        """Parse one HTML file."""
        tree = LexborHTMLParser(read_text(path))
        meta_date = tree.css_first('meta[name="date"], meta[property="article:published_time"]')
        canonical = tree.css_first('link[rel="canonical"]')
        title_node = tree.css_first("title") or tree.css_first("h1")
        headings: list[tuple[int, str]] = []
        blocks: list[SourceBlock] = []
        tables: list[SourceTable] = []
        for node in tree.css(_BLOCKS):
            if _inside_other_block(node):
                continue
            if node.tag in _HEADINGS:
                level = int(node.tag[1])
                headings = [h for h in headings if h[0] < level] + [(level, _text(node))]
                continue
            section = " > ".join(h for lvl, h in headings if lvl > 1) or None
            if node.tag == "table":
                table = _table(node, section)
                if table:
                    tables.append(table)
                    blocks.extend(SourceBlock(text=row_text(table.columns, r), section=section) for r in table.rows)
                continue
            text = _text(node)
            if text:
                blocks.append(SourceBlock(text=("- " + text) if node.tag == "li" else text, section=section))
        meta = {"date": meta_date.attributes.get("content")} if meta_date else {}
        title = _text(title_node) if title_node else title_from_name(path)
        opening = opening_text(b.text for b in blocks)
        return LoadedDocument(
            title=title,
            blocks=blocks,
            tables=tables,
            date=document_date(meta, path, opening=opening, title=title),
            url=canonical.attributes.get("href") if canonical else None,
            media_type="text/html",
        )
