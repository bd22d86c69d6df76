"""Real filings open: owner-protected and huge PDFs are read, unreadable ones are reported with a reason."""

from __future__ import annotations

import asyncio
import datetime as dt
import os
from pathlib import Path

import pytest
from pypdf import PdfReader
from pypdf.errors import LimitReachedError

from adapters.loaders.pdf import PdfLoader, PdfUnreadable
from core.concurrency import CpuExecutor
from tests.pdf_documents import protect, with_large_array, without_metadata, write_apart, write_filing, write_scan

PLAIN_COVER = "Acme Turbines Inc. Quarterly report to shareholders. Gearbox orders and service revenue."


def _text(path: Path) -> dict[int, str]:
    return {b.page or 0: " ".join(b.text.split()) for b in PdfLoader().load(path).blocks}


def test_an_owner_password_pdf_is_read_with_its_text(tmp_path: Path) -> None:
    owner = protect(write_filing(tmp_path / "plain.pdf"), tmp_path / "restricted.pdf")
    assert PdfReader(owner).is_encrypted  # what the filings carry: restrictions, an empty user password
    doc = PdfLoader().load(owner)
    assert doc.title == "Acme Turbines quarterly report"
    assert [b.page for b in doc.blocks] == [1, 2]
    assert "For the quarterly period ended June 30, 2023" in " ".join(doc.blocks[0].text.split())


def test_an_array_beyond_pypdfs_limit_is_read(tmp_path: Path) -> None:
    large = with_large_array(
        write_filing(tmp_path / "plain.pdf"), tmp_path / "large.pdf", "Backlog reached 4,210 units"
    )
    with pytest.raises(LimitReachedError):  # the failure reported on large filings
        PdfReader(large).pages[0].extract_text()
    pages = _text(large)
    assert "Backlog reached 4,210 units" in pages[1] and "Operating income" in pages[2]


def test_a_table_keeps_each_row_on_its_line(tmp_path: Path) -> None:
    lines = PdfLoader().load(write_filing(tmp_path / "filing.pdf")).blocks[1].text.splitlines()
    assert "Net revenue 12,345 11,020" in [" ".join(line.split()) for line in lines]


def test_words_set_apart_without_a_space_are_read_as_two_words(tmp_path: Path) -> None:
    """A gap of half a millimetre between two pieces, which PDFium's own text runs together."""
    path = write_apart(
        tmp_path / "plan.pdf",
        [
            (["Performance Goal 4.1.2 Employee Viewpoint", "Survey"], 0.5),
            (["customs duties,", "fees and charges"], 0.5),
            (["Kern", "ed pieces of one word"], 0.0),  # no gap: one word in two pieces
        ],
    )
    assert _text(path)[1] == (
        "Performance Goal 4.1.2 Employee Viewpoint Survey customs duties, fees and charges Kerned pieces of one word"
    )


def test_a_user_password_pdf_is_reported_with_a_clear_reason(tmp_path: Path) -> None:
    locked = protect(write_filing(tmp_path / "plain.pdf"), tmp_path / "locked.pdf", user_password="s3cret")
    with pytest.raises(PdfUnreadable, match="needs a password to open"):
        PdfLoader().load(locked)


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"%PDF-1.7\n1 0 obj<<>>\ngarbage without xref or pages", "damaged or not a PDF"),
        (b"", "damaged or not a PDF"),
    ],
)
def test_a_corrupt_file_is_reported_with_a_clear_reason(tmp_path: Path, content: bytes, reason: str) -> None:
    (tmp_path / "broken.pdf").write_bytes(content)
    with pytest.raises(PdfUnreadable, match=reason):
        PdfLoader().load(tmp_path / "broken.pdf")


def test_a_scan_without_text_is_reported(tmp_path: Path) -> None:
    with pytest.raises(PdfUnreadable, match="no extractable text"):
        PdfLoader().load(write_scan(tmp_path / "scan.pdf"))


def test_the_reporting_period_dates_a_filing_before_its_metadata(tmp_path: Path) -> None:
    path = write_filing(tmp_path / "acme.pdf", created=dt.datetime(2023, 8, 4, tzinfo=dt.UTC))
    assert PdfLoader().load(path).date == dt.date(2023, 6, 30)


@pytest.mark.parametrize(
    ("name", "date"), [("acme 2023 Q3.pdf", dt.date(2023, 9, 30)), ("Q1-2024_acme.pdf", dt.date(2024, 3, 31))]
)
def test_a_quarter_in_the_file_name_dates_a_filing(tmp_path: Path, name: str, date: dt.date) -> None:
    path = write_filing(tmp_path / name, cover=PLAIN_COVER, created=dt.datetime(2025, 1, 2, tzinfo=dt.UTC))
    assert PdfLoader().load(path).date == date


def test_a_quarter_in_the_title_dates_a_filing(tmp_path: Path) -> None:
    path = write_filing(tmp_path / "acme.pdf", cover=PLAIN_COVER, title="Acme Turbines Q2 2024 results")
    assert PdfLoader().load(path).date == dt.date(2024, 6, 30)


@pytest.mark.parametrize("placeholder", ["Microsoft Word - q3-final.docx", "Document1", "untitled", "  "])
def test_a_placeholder_title_gives_way_to_the_file_name(tmp_path: Path, placeholder: str) -> None:
    path = write_filing(tmp_path / "acme-10q-2023-q3.pdf", cover=PLAIN_COVER, title=placeholder)
    doc = PdfLoader().load(path)
    assert (doc.title, doc.date) == ("Acme 10q 2023 q3", dt.date(2023, 9, 30))


def test_pdf_metadata_dates_a_filing_that_states_nothing_else(tmp_path: Path) -> None:
    path = write_filing(tmp_path / "acme.pdf", cover=PLAIN_COVER, created=dt.datetime(2022, 5, 4, 9, tzinfo=dt.UTC))
    assert PdfLoader().load(path).date == dt.date(2022, 5, 4)


def test_without_any_stated_date_there_is_none_never_the_modification_time(tmp_path: Path) -> None:
    path = without_metadata(write_filing(tmp_path / "plain.pdf", cover=PLAIN_COVER), tmp_path / "acme.pdf")
    os.utime(path, (dt.datetime(2021, 3, 3, tzinfo=dt.UTC).timestamp(),) * 2)
    doc = PdfLoader().load(path)
    assert (doc.title, doc.date) == ("Acme", None)


async def test_pdfs_load_side_by_side_on_the_executor(tmp_path: Path) -> None:
    """PDFium is not thread-safe; the loader serialises its calls, so parallel loads stay correct."""
    paths = [write_filing(tmp_path / f"q{n}.pdf", pages=n + 2, title=f"Filing {n}") for n in range(6)]
    pool = CpuExecutor(max_workers=4)
    try:
        docs = await asyncio.gather(*(pool.run(PdfLoader().load, p) for _ in range(3) for p in paths))
    finally:
        pool.shutdown()
    assert [(d.title, len(d.blocks)) for d in docs] == [(f"Filing {n}", n + 2) for _ in range(3) for n in range(6)]
