"""A name one document is about, that other documents mention in passing, steers to that document (issue 21).

Written for the test: three agencies' strategic plans for FY 2022-2026, alike but for whose they are.
Each sets a 2026 target in the same words ("the agency will certify N monitoring stations"), and a
fourth agency's annual plan is labelled "Fiscal Year 2026" alone. The Bureau of Tidal Survey (BTS)
writes its short name on every page of its plan; two other plans mention BTS once, in passing. A
question naming BTS must be answered from BTS's plan, not from the plan whose label is the year the
question names: a name most of whose writers only mention it is still the subject of the one
document that writes it throughout.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from fpdf import FPDF

from bots.bootstrap import App, build_app
from bots.settings import Settings
from core.orchestrator.steering import is_topic
from tests.asking import ask

pytestmark = pytest.mark.model

NOW = dt.datetime(2026, 11, 25, 9, 0, tzinfo=dt.UTC)
# (agency, short name, stations certified by 2026, mentions BTS in passing)
PLANS = [
    ("Bureau of Tidal Survey", "BTS", "250", False),
    ("Office of Grain Standards", "OGS", "410", True),
    ("Agency for Harbor Safety", "AHS", "175", True),
    ("Office of Road Works", "ORW", "90", False),
]
TOPICS = [
    "water levels along the coast",
    "staff training and safety",
    "data quality and public access",
    "equipment maintenance schedules",
    "partnerships with universities",
    "budget planning and oversight",
    "field operations in winter",
    "customer service for mariners",
    "records management and archives",
    "cybersecurity of field systems",
    "hiring and retention of engineers",
    "emergency response after storms",
]


def _plan(path: Path, agency: str, short: str, stations: str, passing: bool) -> None:
    pdf = FPDF()
    pdf.set_font("Helvetica", size=10)
    pdf.add_page()
    period = "Annual Performance Plan\nFiscal Year 2026" if short == "ORW" else "Strategic Plan\nFiscal Years 2022-2026"
    pdf.multi_cell(0, 6, f"{agency} ({short})\n{period}")
    for topic in TOPICS:
        pdf.add_page()
        pdf.multi_cell(0, 6, f"{short} goals for {topic}. {short} will review its work on {topic} each year.")
    pdf.add_page()
    pdf.multi_cell(0, 6, f"By 2026, the agency will certify {stations} monitoring stations across the region.")
    if passing:
        pdf.add_page()
        pdf.multi_cell(0, 6, f"{short} exchanges survey data with BTS twice a year.")
    pdf.output(str(path))


@pytest.fixture(scope="module")
async def app(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[App]:
    folder = tmp_path_factory.mktemp("plans")
    for agency, short, stations, passing in PLANS:
        _plan(folder / f"{short}2022.pdf", agency, short, stations, passing)
    application = await build_app(Settings(data_dir=tmp_path_factory.mktemp("plans-data"), fixed_now=NOW))
    report = await application.ingestor.ingest([folder])
    assert report.ok and len(report.added) == len(PLANS)
    yield application
    await application.close()


@pytest.mark.parametrize(("short", "stations"), [("BTS", "250"), ("OGS", "410"), ("AHS", "175"), ("ORW", "90")])
async def test_a_question_naming_an_agency_cites_its_own_plan(app: App, short: str, stations: str) -> None:
    result = await ask(app, f"How many monitoring stations will {short} certify by 2026?", now=NOW)
    records = {r.doc_id: Path(r.source_path).name for r in await app.storage.registry.list_documents()}
    assert result.kind == "answer", result.answer
    assert {records[c.doc_id] for c in result.citations} == {f"{short}2022.pdf"}
    assert stations in result.answer
    others = {s for _, _, s, _ in PLANS} - {stations}
    assert not any(f"certify {n}" in result.answer for n in others)


def test_a_topic_is_written_throughout_and_a_subject_by_its_own_documents() -> None:
    # Most writers carry no facet and write the name as often as those that do: a topic.
    assert is_topic(
        {"minutes-1": 3, "minutes-2": 3, "statement-1": 1, "statement-2": 1, "statement-3": 1}, {"minutes-1"}
    )
    # One document writes it on page after page, two others once each: that document's subject.
    assert not is_topic({"plan": 40, "report-1": 1, "report-2": 2}, {"plan"})
    # Most writers carry it: never a topic; nobody carries it: always one.
    assert not is_topic({"a": 1, "b": 1}, {"a"})
    assert is_topic({"a": 5, "b": 5}, set())
    assert not is_topic({}, set())
