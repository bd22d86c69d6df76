"""PDF text extraction: pages per second, table rows kept on their line, and which filings open.

    PYTHONPATH=. python benchmarks/pdf_extraction.py [pages] [runs]

Builds a filing-like PDF with fpdf2 (dense prose and a 12-row statement table on every page; on
every fourth page a table drawn column by column, as some generators do), then extracts it with
pypdf as the loader used it before (`PdfReader(strict=False)`, `extract_text()` per page) and with
the shipped loader (pypdfium2), best of `runs`. Quality: the share of table rows that come out as
one line ("Net revenue 12,345 11,020 12.0%") and of prose sentences found intact. Robustness: the
PDFs the tests build (owner-password-only, an array beyond pypdf's limit, a user password, a
corrupt file, a scan) opened by each.
"""

from __future__ import annotations

import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from fpdf import FPDF
from pypdf import PdfReader, apply_configuration

from adapters.loaders.pdf import PdfLoader
from tests.pdf_documents import protect, with_large_array, write_filing, write_scan

ITEMS = ["Net revenue", "Cost of revenue", "Gross margin", "Research and development", "Selling and marketing"]
ITEMS += ["General and administrative", "Operating income", "Interest expense", "Other income", "Pre-tax income"]
ITEMS += ["Income tax", "Net income"]


def _row(page: int, item: int) -> list[str]:
    return [ITEMS[item], f"{page * 97 + item * 13:,}", f"{page * 89 + item * 11:,}", f"{(page + item) % 17}.{item}%"]


def _sentences(page: int) -> list[str]:
    return [
        f"In the quarter, segment {page} shipped {page * 31} gearboxes to utility customers in twelve countries.",
        f"Service revenue of segment {page} grew on longer maintenance contracts and a lower cancellation rate.",
        f"Management expects the backlog of segment {page} to convert to revenue over the next six quarters.",
    ]


def build(path: Path, pages: int) -> Path:
    pdf = FPDF()
    pdf.set_font("Helvetica", size=9)
    for page in range(1, pages + 1):
        pdf.add_page()
        pdf.multi_cell(0, 5, " ".join(_sentences(page) * 6))
        with pdf.table(col_widths=(50, 25, 25, 20)) as table:
            for cells in [["Line item", "Q3 2023", "Q3 2022", "Change"]] + [_row(page, i) for i in range(12)]:
                row = table.row()
                for cell in cells:
                    row.cell(cell)
        if page % 4 == 0:  # a table drawn column by column
            for column, x in enumerate((20, 90, 130, 170)):
                for item in range(4):
                    pdf.text(x, 250 + 7 * item, _row(page + 1000, item)[column])
    pdf.output(str(path))
    return path


def pypdf_pages(path: Path) -> list[str]:
    """The loader before: pypdf, refusing any encrypted file."""
    reader = PdfReader(path, strict=False)
    if reader.is_encrypted:
        raise ValueError("the PDF is encrypted")
    return [page.extract_text() or "" for page in reader.pages]


def pypdf_raised_pages(path: Path) -> list[str]:
    """The alternative: pypdf with its array limit raised 100-fold, opening owner-password-only files."""
    with apply_configuration(array_maximum_element_count=10_000_000):
        reader = PdfReader(path, strict=False)
        if reader.is_encrypted and not reader.decrypt(""):
            raise ValueError("the PDF needs a password")
        return [page.extract_text() or "" for page in reader.pages]


def pdfium_pages(path: Path) -> list[str]:
    pages: dict[int, str] = {b.page or 0: b.text for b in PdfLoader().load(path).blocks}
    return [pages.get(n, "") for n in range(1, max(pages) + 1)]


def quality(pages: list[str]) -> tuple[float, float, float]:
    """Shares of table rows on one line (row-drawn, column-drawn) and prose sentences intact."""
    rows = drawn = sentences = 0
    total_drawn = 0
    for number, text in enumerate(pages, start=1):
        lines = {" ".join(line.split()) for line in text.splitlines()}
        flat = " ".join(text.split())
        rows += sum(" ".join(_row(number, i)) in lines for i in range(12))
        sentences += sum(s in flat for s in _sentences(number))
        if number % 4 == 0:
            total_drawn += 4
            drawn += sum(" ".join(_row(number + 1000, i)) in lines for i in range(4))
    return rows / (12 * len(pages)), drawn / max(total_drawn, 1), sentences / (3 * len(pages))


def opens(extract: Callable[[Path], list[str]], path: Path) -> str:
    try:
        return "text" if any(t.strip() for t in extract(path)) else "no text"
    except Exception as exc:
        return type(exc).__name__


def main(pages: int, runs: int) -> None:
    folder = Path(tempfile.mkdtemp(prefix="threadwise-pdf-bench-"))
    path = build(folder / "filing.pdf", pages)
    print(f"{pages} pages, {path.stat().st_size / 1e6:.1f} MB")
    extractors = {"pypdf (before)": pypdf_pages, "pypdf, limit raised": pypdf_raised_pages}
    extractors["pypdfium2 (after, the shipped loader)"] = pdfium_pages
    for name, extract in extractors.items():
        best = min(_timed(extract, path) for _ in range(runs))
        rows, drawn, sentences = quality(extract(path))
        print(
            f"{name}: {pages / best:.1f} pages/s ({best:.2f} s); table rows on one line {rows:.0%}, "
            f"column-drawn rows {drawn:.0%}, sentences intact {sentences:.0%}"
        )
    source = write_filing(folder / "source.pdf", pages=3)
    cases = {
        "owner password only": protect(source, folder / "owner.pdf"),
        "array beyond pypdf's limit": with_large_array(source, folder / "large.pdf", "Backlog"),
        "user password": protect(source, folder / "locked.pdf", user_password="x"),
        "corrupt": _write(folder / "broken.pdf", b"%PDF-1.7\n1 0 obj<<>>\ngarbage"),
        "scan": write_scan(folder / "scan.pdf"),
    }
    for case, file in cases.items():
        print(f"{case}: " + ", ".join(f"{name} {opens(extract, file)}" for name, extract in extractors.items()))


def _timed(extract: Callable[[Path], list[str]], path: Path) -> float:
    started = time.perf_counter()
    extract(path)
    return time.perf_counter() - started


def _write(path: Path, content: bytes) -> Path:
    path.write_bytes(content)
    return path


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 80, int(sys.argv[2]) if len(sys.argv) > 2 else 3)
