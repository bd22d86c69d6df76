"""Real documents of every supported type, written by the tests with the formats' own libraries."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import docx
from fpdf import FPDF

TURBINES = ["Aster", "Birch", "Cedar", "Dahlia", "Elm", "Fern", "Gorse", "Hazel", "Iris", "Juniper"]


def write_pdf(path: Path, pages: int) -> Path:
    """A PDF whose page N describes turbine model N with a distinct inspection interval."""
    pdf = FPDF()
    pdf.set_title("Turbine maintenance manual")
    pdf.set_font("Helvetica", size=11)
    for number in range(1, pages + 1):
        pdf.add_page()
        name = f"{TURBINES[number % len(TURBINES)]}-{number}"
        pdf.multi_cell(
            0,
            6,
            f"Chapter {number}. Maintenance of the {name} turbine. "
            f"The {name} gearbox must be inspected every {100 * number} operating hours. "
            f"Replace the {name} brake pads after {number * 3} months of service.",
        )
    pdf.output(str(path))
    return path


def write_docx(path: Path) -> Path:
    """A DOCX with a title, headings, paragraphs and a table."""
    document = docx.Document()
    document.core_properties.title = "Warehouse safety guide"
    document.add_heading("Warehouse safety guide", level=0)
    document.add_heading("Forklifts", level=1)
    document.add_paragraph("Only certified drivers may operate a forklift; certification is renewed every two years.")
    document.add_heading("Loading docks", level=2)
    document.add_paragraph("Dock doors stay closed when no truck is docked.")
    table = document.add_table(rows=3, cols=3)
    for r, row in enumerate(
        [["Item", "Quantity", "Location"], ["Helmet", "40", "Rack A"], ["Gloves", "120", "Rack B"]]
    ):
        for c, value in enumerate(row):
            table.cell(r, c).text = value
    document.save(str(path))
    return path


def write_html(path: Path) -> Path:
    """An HTML page with a date, a canonical link, headings, a list and a table."""
    path.write_text(
        """<!doctype html><html><head><title>Office locations</title>
<meta name="date" content="2024-09-01"><link rel="canonical" href="https://intranet.example/offices">
</head><body><h1>Office locations</h1><h2>Rotterdam</h2><p>The Rotterdam office is at Wilhelminakade 12.</p>
<ul><li>Reception opens at 08:00.</li></ul><h2>Contacts</h2>
<table><tr><th>Office</th><th>Phone</th><th>Staff</th></tr><tr><td>Rotterdam</td><td>+31 10 555 0100</td><td>85</td></tr>
<tr><td>Leipzig</td><td>+49 341 555 0100</td><td>42</td></tr></table></body></html>""",
        encoding="utf-8",
    )
    return path


def write_delimited(path: Path, rows: list[list[str]], delimiter: str = ",") -> Path:
    """A CSV or TSV file."""
    with path.open("w", newline="", encoding="utf-8") as handle:
        csv.writer(handle, delimiter=delimiter).writerows(rows)
    return path


def write_jsonl(path: Path, records: list[dict[str, object]]) -> Path:
    """A JSON Lines file."""
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def write_corrupt(folder: Path) -> dict[str, Path]:
    """One broken file of every type, as users' folders contain them."""
    folder.mkdir(parents=True, exist_ok=True)
    files = {
        "pdf": folder / "broken.pdf",
        "docx": folder / "broken.docx",
        "csv": folder / "ragged.csv",
        "jsonl": folder / "bad.jsonl",
        "html": folder / "binary.html",
        "md": folder / "binary.md",
    }
    files["pdf"].write_bytes(b"%PDF-1.7\n1 0 obj<<>>\ngarbage without xref or pages")
    files["docx"].write_bytes(b"PK\x03\x04 this is not a zip archive")
    files["csv"].write_text("a,b,c\n1,2,3\n4,5\n", encoding="utf-8")
    files["jsonl"].write_text('{"id": 1, "text": "fine"}\n{"id": 2, "text": \n', encoding="utf-8")
    files["html"].write_bytes(b"<html><body>\x00\x00\xff\xfe\x81\x8d\x00</body></html>")
    files["md"].write_bytes(b"# Title\n\n\xff\xfe\x00\x00")
    return files
