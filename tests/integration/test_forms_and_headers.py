"""Forms and paged reports through the real product: running headers are not content, and a field
whose label and value stand on separate lines is a fact (issue 21).

Written for the test: two accident reports of three pages each, laid out as a form ("Registration:"
on one line, "N5921D" on the next), every page headed "Page n of 3 / National Transportation Safety
Board / Aviation Accident Factual Report". They differ only by aircraft, damage and place.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from fpdf import FPDF

from bots.bootstrap import App, build_app
from bots.settings import Settings
from core.contracts import SearchFilters
from tests.asking import ask

pytestmark = pytest.mark.model

NOW = dt.datetime(2026, 11, 25, 9, 0, tzinfo=dt.UTC)
# registration: (damage, city, engine, narrative)
REPORTS = {
    "N5921D": ("Substantial", "Plainville, CT", "Lycoming O-320", "lost engine power during the initial climb"),
    "N7712K": ("Minor", "Tulsa, OK", "Continental IO-550", "struck a runway light during the landing roll"),
}


def _report(path: Path, registration: str) -> None:
    damage, city, engine, narrative = REPORTS[registration]
    fields = [
        f"Location:\n{city}\nRegistration:\n{registration}\nAircraft Damage:\n{damage}\nInjuries:\n1 Minor",
        f"Engine Model:\n{engine}\nFlight Conducted Under:\nPart 91: General aviation - Personal\n"
        f"Pilot Certificate:\nPrivate",
        f"Narrative:\nThe pilot reported that the airplane {narrative}. He reported no mechanical malfunctions "
        "before the flight, and the weather was clear with light winds at the time of the accident.",
    ]
    pdf = FPDF()
    pdf.set_title("Aviation Accident Factual Report")
    pdf.set_font("Helvetica", size=10)
    for number, text in enumerate(fields, start=1):
        pdf.add_page()
        header = f"Page {number} of 3\nNational Transportation Safety Board\nAviation Accident Factual Report\n"
        pdf.multi_cell(0, 6, header + text)
    pdf.output(str(path))


@pytest.fixture(scope="module")
async def app(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[App]:
    folder = tmp_path_factory.mktemp("forms")
    for registration in REPORTS:
        _report(folder / f"ERA23LA{registration[1:4]}.pdf", registration)
    application = await build_app(Settings(data_dir=tmp_path_factory.mktemp("forms-data"), fixed_now=NOW))
    report = await application.ingestor.ingest([folder])
    assert report.ok and len(report.added) == 2
    yield application
    await application.close()


@pytest.mark.parametrize("registration", sorted(REPORTS))
async def test_a_field_asked_by_the_aircraft_is_answered_from_its_report(app: App, registration: str) -> None:
    damage, _, _, _ = REPORTS[registration]
    other = next(d for r, (d, *_) in REPORTS.items() if r != registration)
    result = await ask(app, f"How badly was {registration} damaged?", now=NOW)
    assert result.kind == "answer", result.answer
    assert f"Aircraft Damage: {damage}" in result.answer and other not in result.answer
    cited = {c.doc_id for c in result.citations}
    assert len(cited) == 1
    # The running header of every page is neither in the answer nor in what is cited.
    assert "Page 1 of 3" not in result.answer and "National Transportation Safety Board" not in result.answer


async def test_the_headers_are_gone_from_the_index_and_the_fields_are_facts(app: App) -> None:
    documents = await app.storage.registry.list_documents()
    assert len(documents) == 2
    for record in documents:
        # The title and facets were read from the page as printed, header included.
        assert record.title.startswith("Aviation Accident Factual Report")
        assert record.facets is not None
        assert {i.value for i in record.facets.identifiers} & set(REPORTS)
    query = "Registration N5921D aircraft damage"
    hits = await app.backend.search_text(query, SearchFilters(), 20, await app.embedder.embed([query]))
    assert hits
    assert not any("Page 2 of 3" in hit.segment.text for hit in hits)
    assert any("Registration: N5921D" in hit.segment.text for hit in hits)
