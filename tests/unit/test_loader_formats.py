"""Every loader on a real file of its type, and on a broken one."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from adapters.loaders.common import UnreadableText
from adapters.loaders.docx import DocxLoader
from adapters.loaders.html import HtmlLoader
from adapters.loaders.markdown import MarkdownLoader
from adapters.loaders.pdf import PdfLoader, PdfUnreadable
from adapters.loaders.tabular import DelimitedLoader, JsonLinesLoader
from bots.bootstrap import all_loaders
from tests.documents import write_corrupt, write_delimited, write_docx, write_html, write_jsonl, write_pdf


def test_pdf_keeps_page_numbers(tmp_path: Path) -> None:
    doc = PdfLoader().load(write_pdf(tmp_path / "manual.pdf", pages=3))
    assert doc.title == "Turbine maintenance manual"
    assert [b.page for b in doc.blocks] == [1, 2, 3]
    assert "every 200 operating hours" in " ".join(doc.blocks[1].text.split())


def test_docx_headings_paragraphs_and_table(tmp_path: Path) -> None:
    doc = DocxLoader().load(write_docx(tmp_path / "guide.docx"))
    assert doc.title == "Warehouse safety guide"
    sections = {b.section for b in doc.blocks if "forklift" in b.text or "Dock doors" in b.text}
    assert sections == {"Forklifts", "Forklifts > Loading docks"}
    assert doc.tables[0].columns == ["Item", "Quantity", "Location"]
    assert doc.tables[0].rows == [["Helmet", "40", "Rack A"], ["Gloves", "120", "Rack B"]]


def test_html_meta_sections_and_table(tmp_path: Path) -> None:
    doc = HtmlLoader().load(write_html(tmp_path / "offices.html"))
    assert (doc.title, doc.date, doc.url) == (
        "Office locations",
        dt.date(2024, 9, 1),
        "https://intranet.example/offices",
    )
    assert ("Rotterdam", "The Rotterdam office is at Wilhelminakade 12.") in [(b.section, b.text) for b in doc.blocks]
    assert "- Reception opens at 08:00." in [b.text for b in doc.blocks]
    assert doc.tables[0].rows[1] == ["Leipzig", "+49 341 555 0100", "42"]


@pytest.mark.parametrize(("name", "delimiter"), [("stock.csv", ","), ("stock.tsv", "\t")])
def test_delimited_rows_become_table_and_blocks(tmp_path: Path, name: str, delimiter: str) -> None:
    rows = [["sku", "name", "qty"], ["A1", "Helmet", "40"], ["B2", "Gloves, nitrile", "120"]]
    doc = DelimitedLoader().load(write_delimited(tmp_path / name, rows, delimiter))
    assert doc.tables[0].columns == ["sku", "name", "qty"] and doc.tables[0].rows == rows[1:]
    assert doc.blocks[1].text == "sku: B2; name: Gloves, nitrile; qty: 120"


def test_jsonl_passages_and_flat_records(tmp_path: Path) -> None:
    records: list[dict[str, object]] = [
        {"id": "faq-1", "title": "Parking", "text": "Visitors park in lot C."},
        {"sku": "A1", "price": 12.5},
        {"sku": "B2", "price": 3},
    ]
    doc = JsonLinesLoader().load(write_jsonl(tmp_path / "mixed.jsonl", records))
    assert (doc.blocks[0].section, doc.blocks[0].text) == ("Parking", "Visitors park in lot C.")
    assert doc.tables[0].columns == ["sku", "price"] and doc.tables[0].rows == [["A1", "12.5"], ["B2", "3"]]


def test_markdown_tables_are_tables(tmp_path: Path) -> None:
    path = tmp_path / "spec.md"
    path.write_text("# Panel\n\n## Size\n\n| Property | Value |\n|---|---|\n| Width | 1,134 mm |\n", encoding="utf-8")
    doc = MarkdownLoader().load(path)
    assert doc.tables[0].section == "Size" and doc.tables[0].rows == [["Width", "1,134 mm"]]


BROKEN = {
    "pdf": PdfUnreadable,
    "docx": ValueError,
    "csv": ValueError,
    "jsonl": ValueError,
    "html": UnreadableText,
    "md": UnreadableText,
}


@pytest.mark.parametrize("kind", sorted(BROKEN))
def test_a_broken_file_raises_a_clear_error(tmp_path: Path, kind: str) -> None:
    loaders = {suffix: loader for loader in all_loaders() for suffix in loader.suffixes}
    path = write_corrupt(tmp_path)[kind]
    with pytest.raises(BROKEN[kind]) as caught:
        loaders[path.suffix].load(path)
    # In words, without a Python exception's name: the ingest report shows this text as it is.
    assert str(caught.value) and "Error" not in str(caught.value) and "codec" not in str(caught.value)


@pytest.mark.parametrize(
    ("name", "encoding"), [("notepad.txt", "utf-16"), ("office.txt", "cp1252"), ("page.html", "cp1252")]
)
def test_text_files_are_read_in_their_own_encoding(tmp_path: Path, name: str, encoding: str) -> None:
    text = "The “hotel” limit is €150 a night – the café receipt is kept."
    body = f"<html><body><p>{text}</p></body></html>" if name.endswith(".html") else text
    path = tmp_path / name
    path.write_bytes(body.encode(encoding))
    loaders = {suffix: loader for loader in all_loaders() for suffix in loader.suffixes}
    assert text in "\n".join(b.text for b in loaders[path.suffix].load(path).blocks)


def test_a_csv_with_an_unterminated_quote_says_where_and_what_to_do(tmp_path: Path) -> None:
    path = tmp_path / "stock.csv"
    path.write_text('sku,qty\nA1,4\nB2,"7\nC3,9\n', encoding="utf-8")
    with pytest.raises(ValueError, match=r"line \d+: the quotes do not match") as caught:
        DelimitedLoader().load(path)
    assert "close the quoted field" in str(caught.value)
