"""A document's date comes from the document: front matter, a stated period, its title or name, metadata."""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path

import docx
import pytest

from adapters.loaders.common import document_date
from adapters.loaders.dates import label_date, pdf_date, period_date
from adapters.loaders.docx import DocxLoader
from adapters.loaders.html import HtmlLoader
from adapters.loaders.markdown import MarkdownLoader
from adapters.loaders.tabular import DelimitedLoader
from tests.documents import write_delimited


@pytest.mark.parametrize(
    ("opening", "date"),
    [
        ("FORM 10-Q ... For the quarterly period ended\nJune 30, 2023\nor ...", dt.date(2023, 6, 30)),
        ("Interim report for the quarter ended 30 September 2025.", dt.date(2025, 9, 30)),
        ("ANNUAL REPORT FOR THE FISCAL YEAR ENDED DECEMBER 31, 2024", dt.date(2024, 12, 31)),
        ("Results for the three months ended Sept. 30, 2023 and 2022", dt.date(2023, 9, 30)),
        ("Statement for the nine-month period ended 30.09.2025", dt.date(2025, 9, 30)),
        ("Update for the half-year ended June 2024", dt.date(2024, 6, 30)),
        ("The gearbox was inspected on 3 May 2024.", None),
    ],
)
def test_a_reporting_period_in_the_opening_text(opening: str, date: dt.date | None) -> None:
    assert period_date(opening) == date


def test_as_of_counts_in_a_title_only() -> None:
    assert period_date("", "Balance sheet as of March 31, 2024") == dt.date(2024, 3, 31)
    assert period_date("Goodwill as of December 31, 2022 was unchanged.") is None


@pytest.mark.parametrize(
    ("label", "date"),
    [
        ("acme 10-Q 2023 Q3", dt.date(2023, 9, 30)),
        ("Q3 2023 results", dt.date(2023, 9, 30)),
        ("acme_2023-q4", dt.date(2023, 12, 31)),
        ("Q2 FY2024", dt.date(2024, 6, 30)),
        ("H1 2024 interim", dt.date(2024, 6, 30)),
        ("board-minutes-2024-02-29", dt.date(2024, 2, 29)),
        ("report-2023-06", dt.date(2023, 6, 30)),
        ("FY2024 annual report", dt.date(2024, 12, 31)),
        ("annual report 2023", dt.date(2023, 12, 31)),
        ("Third quarter 2023 results", dt.date(2023, 9, 30)),
        ("First half of fiscal 2024", dt.date(2024, 6, 30)),
        ("Top 100 customers", None),
        ("Turbine maintenance manual", None),
    ],
)
def test_a_date_in_a_title_or_file_name(label: str, date: dt.date | None) -> None:
    assert label_date(label) == date


def test_the_most_precise_label_wins_then_the_title() -> None:
    assert label_date("Canteen notice 2025", "2025-03-01-canteen") == dt.date(2025, 3, 1)
    assert label_date("Results Q2 2024", "acme-2024") == dt.date(2024, 6, 30)
    assert label_date("Results Q2 2024", "acme-q3-2024") == dt.date(2024, 6, 30)


def test_pdf_metadata_dates() -> None:
    assert pdf_date("D:20230815093000+02'00'") == dt.date(2023, 8, 15)
    assert pdf_date("D:2023") == dt.date(2023, 1, 1)
    assert pdf_date("yesterday") is None and pdf_date(None) is None


def test_the_order_front_matter_period_title_name_metadata(tmp_path: Path) -> None:
    path = tmp_path / "acme 2021 Q1.txt"
    opening = "For the quarterly period ended June 30, 2023."
    embedded = dt.datetime(2020, 5, 5)
    assert document_date({"date": "2024-01-15"}, path, opening=opening, title="Q4 2022", embedded=embedded) == dt.date(
        2024, 1, 15
    )
    assert document_date({}, path, opening=opening, title="Q4 2022", embedded=embedded) == dt.date(2023, 6, 30)
    assert document_date({}, path, opening="", title="Q4 2022", embedded=embedded) == dt.date(2022, 12, 31)
    assert document_date({}, path, opening="", title="Acme", embedded=embedded) == dt.date(2021, 3, 31)
    assert document_date({}, tmp_path / "acme.txt", title="Acme", embedded=embedded) == dt.date(2020, 5, 5)
    assert document_date({}, tmp_path / "acme.txt", title="Acme") is None


def test_files_without_a_stated_date_have_none(tmp_path: Path) -> None:
    note = tmp_path / "parking.md"
    note.write_text("# Parking\n\nVisitors park in lot C.\n", encoding="utf-8")
    table = write_delimited(tmp_path / "stock.csv", [["sku", "qty"], ["A1", "4"]])
    for path in (note, table):
        os.utime(path, (dt.datetime(2021, 3, 3, tzinfo=dt.UTC).timestamp(),) * 2)
    assert MarkdownLoader().load(note).date is None
    assert DelimitedLoader().load(table).date is None


def test_a_markdown_report_is_dated_by_its_stated_period(tmp_path: Path) -> None:
    path = tmp_path / "update.md"
    path.write_text("# Fleet update\n\nFor the quarter ended 30 September 2025, uptime was 98%.\n", encoding="utf-8")
    assert MarkdownLoader().load(path).date == dt.date(2025, 9, 30)


@pytest.mark.parametrize(
    ("paragraph", "date"),
    [("Results for the quarter ended 30 September 2025.", dt.date(2025, 9, 30)), ("Results.", dt.date(2020, 1, 2))],
)
def test_a_docx_is_dated_by_its_period_before_its_creation_date(tmp_path: Path, paragraph: str, date: dt.date) -> None:
    document = docx.Document()
    document.core_properties.created = dt.datetime(2020, 1, 2, 10, 0)
    document.add_paragraph(paragraph)
    document.save(str(tmp_path / "board-update.docx"))
    assert DocxLoader().load(tmp_path / "board-update.docx").date == date


def test_html_meta_date_counts_as_front_matter(tmp_path: Path) -> None:
    path = tmp_path / "2023-q1-update.html"
    path.write_text(
        '<html><head><title>Update</title><meta name="date" content="2024-09-01"></head>'
        "<body><p>For the quarter ended March 31, 2023.</p></body></html>",
        encoding="utf-8",
    )
    assert HtmlLoader().load(path).date == dt.date(2024, 9, 1)
