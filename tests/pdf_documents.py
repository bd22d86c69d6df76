"""PDFs as companies publish them, built by the tests: fpdf2 writes them, pypdf protects or enlarges them."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from fpdf import FPDF
from pypdf import PdfWriter, get_configuration
from pypdf.generic import DecodedStreamObject

COVER = (
    "UNITED STATES SECURITIES AND EXCHANGE COMMISSION. FORM 10-Q. "
    "QUARTERLY REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934. "
    "For the quarterly period ended June 30, 2023. Commission file number 001-00000. Acme Turbines Inc."
)
STATEMENT = [
    ["Line item", "Q2 2023", "Q2 2022"],
    ["Net revenue", "12,345", "11,020"],
    ["Operating income", "2,118", "1,874"],
]


def write_filing(
    path: Path,
    *,
    cover: str = COVER,
    title: str | None = "Acme Turbines quarterly report",
    created: dt.datetime | None = None,
    pages: int = 2,
) -> Path:
    """A quarterly filing: a cover page, then pages with prose and an income statement table."""
    pdf = FPDF()
    if title:
        pdf.set_title(title)
    if created:
        pdf.set_creation_date(created)
    pdf.set_font("Helvetica", size=10)
    pdf.add_page()
    pdf.multi_cell(0, 6, cover)
    for number in range(2, pages + 1):
        pdf.add_page()
        pdf.multi_cell(0, 6, f"Page {number}. Gearbox orders rose by {number} percent in the quarter.")
        with pdf.table() as table:
            for cells in STATEMENT:
                row = table.row()
                for cell in cells:
                    row.cell(cell)
    pdf.output(str(path))
    return path


def protect(source: Path, path: Path, *, user_password: str = "") -> Path:
    """A copy with restrictions and an owner password; `user_password` set makes it need one to open."""
    writer = PdfWriter(clone_from=source)
    writer.encrypt(user_password=user_password, owner_password="owner-secret", permissions_flag=0, algorithm="AES-128")
    writer.write(path)
    return path


def with_large_array(source: Path, path: Path, phrase: str) -> Path:
    """A copy whose first page draws `phrase` after a TJ array longer than pypdf's array limit."""
    elements = get_configuration().array_maximum_element_count + 1_000
    writer = PdfWriter(clone_from=source)
    page = writer.pages[0]
    font = next(iter(page["/Resources"]["/Font"]))
    kerning = " ".join("0" for _ in range(elements))
    drawn = f"BT {font} 9 Tf 20 20 Td [(Segment) {kerning} (data)] TJ ET BT {font} 9 Tf 20 40 Td ({phrase}) Tj ET"
    stream = DecodedStreamObject()
    stream.set_data(page.get_contents().get_data() + b"\n" + drawn.encode())
    page.replace_contents(stream)
    writer.write(path)
    return path


def without_metadata(source: Path, path: Path) -> Path:
    """A copy without a document information dictionary: no title, no creation date."""
    writer = PdfWriter(clone_from=source)
    writer.metadata = None
    writer.write(path)
    return path


def write_scan(path: Path) -> Path:
    """A page with drawing and no text, as a scanned page without OCR has."""
    pdf = FPDF()
    pdf.add_page()
    pdf.rect(20, 20, 120, 80, style="F")
    pdf.output(str(path))
    return path


def write_report(path: Path, *, title: str, sections: list[tuple[str, str, list[str]]]) -> Path:
    """A report: for each (heading, prose, lines after it) a page with the heading, the prose as
    wrapped lines and then each of `lines` on a line of its own (a signature block, say)."""
    pdf = FPDF()
    pdf.set_title(title)
    pdf.set_font("Helvetica", size=10)
    for heading, prose, lines in sections:
        pdf.add_page()
        pdf.set_font("Helvetica", style="B", size=14)
        pdf.multi_cell(0, 8, heading, new_x="LMARGIN", new_y="NEXT")
        pdf.set_font("Helvetica", size=10)
        pdf.multi_cell(0, 6, prose, new_x="LMARGIN", new_y="NEXT")
        pdf.ln(4)
        for line in lines:
            pdf.multi_cell(0, 6, line, new_x="LMARGIN", new_y="NEXT")
    pdf.output(str(path))
    return path


def write_apart(path: Path, lines: list[tuple[list[str], float]]) -> Path:
    """A page whose lines are written piece by piece, each piece `gap` millimetres after the one before
    and no space character between them: how layout tools set table cells and justified words."""
    pdf = FPDF()
    pdf.set_font("Helvetica", size=10)
    pdf.add_page()
    for row, (pieces, gap) in enumerate(lines):
        x = 20.0
        for piece in pieces:
            pdf.text(x, 30 + 8 * row, piece)
            x += pdf.get_string_width(piece) + gap
    pdf.output(str(path))
    return path
