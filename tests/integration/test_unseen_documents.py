"""Answers that hold on documents the project never saw (issue 12), through the real product.

The sample corpus gives the questions it cannot answer; the documents written below give
reports that differ only by company and quarter, a datasheet whose units sit in the column
headers, and two dated versions of one policy.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import AsyncIterator

import pytest

from bots.bootstrap import App, build_app
from bots.settings import Settings
from core.contracts import OrchestrationResult
from tests.asking import ask
from tests.conftest import SAMPLE_CORPUS

pytestmark = pytest.mark.model

NOW = dt.datetime(2026, 11, 21, 9, 0, tzinfo=dt.UTC)
COMPANIES = {"Alder Freight": (61.2, 64.8, 58.9, 66.3), "Brook Ceramics": (12.4, 13.9, 11.7, 14.6)}
QUARTERS = {(2, 2025): "30 June 2025", (3, 2025): "30 September 2025"}


def _report(company: str, quarter: int, year: int, revenue: float) -> str:
    slug = company.lower().replace(" ", "-")
    ended = QUARTERS[(quarter, year)]
    return (
        f"---\ntitle: {company} — Interim Report Q{quarter} {year}\ndate: {year}-{3 * quarter + 1:02d}-20\n---\n\n"
        f"# {company}: interim report for the quarter ended {ended}\n\n"
        f"{company} presents its unaudited results for the quarter ended {ended}.\n\n"
        f"## Results\n\nRevenue for the quarter was EUR {revenue} million. Orders on hand rose, and the "
        f"company kept its guidance for the full year unchanged.\n\n<!-- {slug} -->\n"
    )


DATASHEET = """---
title: Vela V-Series Dehumidifiers — Datasheet
date: 2025-02-01
---

# Vela V-Series dehumidifiers

| Model | Width (mm) | Weight (kg) | Power (W) |
|---|---|---|---|
| V-10 | 310 | 9.8 | 180 |
| V-20 | 350 | 12.5 | 240 |
| V-40 | 420 | 18.9 | 390 |
| V-60 | 480 | 26.0 | 610 |
"""

POLICY = """---
title: Cycle to Work Policy ({year})
date: {year}-01-01
---

# Cycling to work

Staff who cycle to work on at least ten days a month receive a bicycle allowance of EUR {rate} per month.
The allowance is paid with the salary of the following month.
"""


@pytest.fixture(scope="module")
async def app(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[App]:
    """The sample corpus plus the documents above, ingested once."""
    written = tmp_path_factory.mktemp("unseen-docs")
    for company, figures in COMPANIES.items():
        for (quarter, year), revenue in zip(QUARTERS, figures[:2], strict=True):
            name = f"{company.lower().replace(' ', '-')}-{year}-q{quarter}.md"
            (written / name).write_text(_report(company, quarter, year, revenue), encoding="utf-8")
    (written / "vela-datasheet.md").write_text(DATASHEET, encoding="utf-8")
    for year, rate in ((2024, "12.50"), (2025, "15.75")):
        (written / f"cycle-to-work-{year}.md").write_text(POLICY.format(year=year, rate=rate), encoding="utf-8")
    application = await build_app(Settings(data_dir=tmp_path_factory.mktemp("unseen-data"), fixed_now=NOW))
    for path in (SAMPLE_CORPUS / "handbook", SAMPLE_CORPUS / "policies", SAMPLE_CORPUS / "specs", written):
        assert (await application.ingestor.ingest([path], collection="default")).ok
    yield application
    await application.close()


async def _ask(app: App, text: str) -> OrchestrationResult:
    return await ask(app, text, now=NOW)


@pytest.mark.parametrize("question", ["What rate do we pay for overtime?", "What is the current mileage rate?"])
async def test_what_the_documents_do_not_say_gets_the_uncertainty_reply(app: App, question: str) -> None:
    result = await _ask(app, question)
    assert result.kind == "uncertainty" and result.branch == "LOW_CONFIDENCE"
    assert result.citations == [] and "Searched:" in result.answer


async def test_keyboard_mash_is_incoherent_without_retrieval(app: App) -> None:
    result = await _ask(app, "asdf qwer zxcv ;;;")
    assert (result.branch, result.kind) == ("INCOHERENT", "refusal")
    assert result.retrieval_report == [] and "retrieve" not in result.timings


@pytest.mark.parametrize(
    ("company", "quarter", "revenue", "others"),
    [
        ("Alder Freight", 3, "64.8", {"61.2", "13.9", "12.4"}),
        ("Brook Ceramics", 2, "12.4", {"13.9", "61.2", "64.8"}),
    ],
)
async def test_a_company_and_a_quarter_cite_that_report(
    app: App, company: str, quarter: int, revenue: str, others: set[str]
) -> None:
    result = await _ask(app, f"What was {company}'s revenue in Q{quarter} 2025?")
    assert result.kind == "answer", result.answer
    assert {c.title for c in result.citations} == {f"{company} — Interim Report Q{quarter} 2025"}
    assert revenue in result.answer and not any(figure in result.answer for figure in others)


async def test_a_quarter_no_report_covers_is_not_answered_from_another(app: App) -> None:
    result = await _ask(app, "What was Alder Freight's revenue in Q4 2025?")
    assert result.kind == "uncertainty", result.answer


async def test_a_wide_table_compares_with_the_unit_in_the_header(app: App) -> None:
    narrow = await _ask(app, "Which dehumidifiers are narrower than 0.4 m?")
    assert narrow.kind == "answer" and narrow.table is not None
    assert sorted(row[0] for row in narrow.table.rows) == ["V-10", "V-20"]
    light = await _ask(app, "Which dehumidifiers weigh less than 30 lb?")  # 13.6 kg
    assert light.table is not None and sorted(row[0] for row in light.table.rows) == ["V-10", "V-20"]
    lookup = await _ask(app, "How much does the V-40 weigh?")
    assert "18.9" in lookup.answer and "26.0" not in lookup.answer


async def test_a_year_reads_that_version_and_no_date_reads_the_newest(app: App) -> None:
    then = await _ask(app, "What was the bicycle allowance in 2024?")
    assert "12.50" in then.answer and "15.75" not in then.answer
    assert {c.date.year for c in then.citations if c.date} == {2024}
    now = await _ask(app, "How much is the bicycle allowance for cycling to work?")
    assert "15.75" in now.answer and "12.50" not in now.answer
