"""Inside the one document a question names, its own words find the passage meaning ranks low (issue 21).

Written for the test: two agencies' annual reports. The Office of Lantern Safety's report speaks of
its offices, sites and regional presence on page after page, and states where its field offices
are only once, in a paragraph about its budget. Every passage of the report is about the agency,
so meaning ranks the pages about offices and sites first; the question's own words ("field
offices") pick the one that answers (when written: first by words, eleventh by meaning, fifth of the
fused ranking, where the document's three places end).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from fpdf import FPDF

from bots.bootstrap import App, build_app
from bots.settings import Settings
from tests.asking import ask

pytestmark = pytest.mark.model

NOW = dt.datetime(2026, 11, 25, 9, 0, tzinfo=dt.UTC)
PRESENCE = [
    "OLS staff work from regional hubs in many locations across the country.",
    "The number of OLS offices grew this year: the agency's sites in coastal states host its inspectors.",
    "OLS opened a new regional center this year, adding to the locations where it serves keepers.",
    "Each OLS office reports its inspections to headquarters within thirty days.",
    "Inspectors travel from the agency's many locations to remote lighthouses by boat.",
    "OLS headquarters coordinates the work of its offices across regions.",
    "The agency plans to expand its regional presence to the Great Lakes next year.",
    "OLS sites in several locations share equipment to test lanterns on short notice.",
    "Keepers can visit an OLS office in their region to ask about inspections.",
    "The locations of OLS hubs follow the coastline, with offices near the busiest harbors.",
    "OLS offices in the north close in winter, and their staff work from southern locations.",
    "New OLS offices are planned where lighthouses are far from existing locations.",
]
BUDGET = (
    "Salaries rose 3 percent with the pay raise, and travel costs fell as inspections moved online. "
    "Rent and utilities were flat compared with the year before, and the lamp laboratory's budget "
    "grew with the cost of glass. Appropriations covered the full year without a continuing resolution. "
)
ANSWER = f"Budget and appropriations. {BUDGET}The agency keeps field offices in 14 locations. {BUDGET}"


def _page(lead: str) -> str:
    """A page of its own passage (near the encoder's window): the lead sentence, then the agency's routine."""
    routine = (
        "Inspectors record what they find in the agency's tracking system, and managers review the "
        "records each month. Keepers receive a written summary, and any repair is scheduled within the "
        "quarter. The agency publishes the totals in this report every year. "
    )
    return f"{lead} {routine * 3}"


def _report(path: Path, agency: str, short: str, pages: list[str]) -> None:
    pdf = FPDF()
    pdf.set_font("Helvetica", size=10)
    pdf.add_page()
    pdf.multi_cell(0, 6, f"{agency} ({short})\nAnnual Performance Report\nFiscal Year 2025")
    for text in pages:
        pdf.add_page()
        pdf.multi_cell(0, 6, text)
    pdf.output(str(path))


@pytest.fixture(scope="module")
async def app(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[App]:
    folder = tmp_path_factory.mktemp("reports")
    pages = [_page(lead) for lead in PRESENCE]
    _report(folder / "OLS2025.pdf", "Office of Lantern Safety", "OLS", [*pages[:6], ANSWER, *pages[6:]])
    other = [f"The Bureau of Canal Works (BCW) dredged {n} miles of canal in region {n}." for n in range(1, 6)]
    _report(folder / "BCW2025.pdf", "Bureau of Canal Works", "BCW", other)
    application = await build_app(Settings(data_dir=tmp_path_factory.mktemp("reports-data"), fixed_now=NOW))
    report = await application.ingestor.ingest([folder])
    assert report.ok and len(report.added) == 2
    yield application
    await application.close()


async def test_the_question_s_words_find_the_answer_inside_the_document_it_names(app: App) -> None:
    result = await ask(app, "In how many locations does OLS have field offices?", now=NOW)
    assert result.kind == "answer", result.answer
    assert "14 locations" in result.answer
    assert result.reading is not None and result.reading.documents is not None
    assert len(result.reading.documents) == 1


async def test_another_agency_s_plan_is_not_answered_from_this_one(app: App) -> None:
    # No document is the Bureau of Lighthouse Funding's ("Bureau" is a common word, so the check for
    # names no passage writes leaves it alone); OLS's passage on field offices is not its answer.
    # Before: answered with OLS's "field offices in 14 locations".
    result = await ask(app, "Where does the Bureau of Lighthouse Funding's plan put its field offices?", now=NOW)
    assert result.kind == "uncertainty" and not result.citations, result.answer
    assert result.assessment is not None and "Bureau of Lighthouse Funding" in (result.assessment.withheld or "")
