"""A detail only an older report of a yearly series records is found and answered from it (issue 21).

Written for the test: six annual reports of a harbour authority, one title but for the year. Every
year's report speaks of the same things (berths, tonnage, dredging, staff), so their summaries are
alike; what the authority delivered in 2019 (a tide-gauge archive and three dashboards) only the
2019 report writes, in one passage among many. A summary tells what a report is about, not every
detail it holds: the drill-down reads the documents of the best passages too, and a newer report
that does not rewrite the 2019 passage does not hide it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import AsyncIterator

import pytest

from bots.bootstrap import App, build_app
from bots.settings import Settings
from core.contracts import SearchFilters
from core.orchestrator.routes import SUMMARIES_TO_DRILL, RouteTools
from tests.asking import ask

pytestmark = pytest.mark.model

NOW = dt.datetime(2025, 6, 2, 9, 0, tzinfo=dt.UTC)
YEARS = range(2019, 2025)
ROUTINE = [
    "The authority handled {tonnage} million tonnes of cargo across its {berths} berths in {year}.",
    "Maintenance dredging kept the main channel at its charted depth throughout {year}.",
    "Staff turnover stayed low, and the authority trained {trained} pilots and tug masters in {year}.",
    "Berth utilization averaged {share} percent, with peaks during the grain export season.",
    "The authority's safety record improved, with fewer reportable incidents than the year before.",
    "Capital spending went to quay wall repairs, fender replacement and the renewal of navigation lights.",
    "Customer surveys rated the booking service and the harbour master's office highly.",
    "The board reviewed the tariff schedule and kept port dues unchanged for the year.",
]
DETAIL = (
    "To help shipping lines plan their calls, the authority delivered a tide-gauge archive, along with "
    "three visualization dashboards. The Berth Window Dashboard shows free berth slots a week ahead. "
    "The Draught Advisory Dashboard shows the depth available at each berth by the hour. "
    "The third, the Pilot Roster Tool, shows which pilots are on duty."
)
QUESTION = (
    "The harbour authority delivered a tide-gauge archive along with three visualization dashboards to "
    "help shipping lines plan their calls. What are the three called?"
)


def _report(year: int) -> str:
    figures = {"tonnage": 40 + year % 7, "berths": 30 + year % 3, "trained": 10 + year % 5, "share": 60 + year % 9}
    passages = [line.format(year=year, **figures) for line in ROUTINE]
    if year == YEARS[0]:
        passages.insert(5, DETAIL)
    return f"Harbour Authority Annual Report {year}\n\n" + "\n\n".join(passages) + "\n"


@pytest.fixture(scope="module")
async def app(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[App]:
    folder = tmp_path_factory.mktemp("series")
    for year in YEARS:
        (folder / f"harbour-annual-report-{year}.md").write_text(_report(year), encoding="utf-8")
    application = await build_app(Settings(data_dir=tmp_path_factory.mktemp("series-data"), fixed_now=NOW))
    report = await application.ingestor.ingest([folder])
    assert report.ok and len(report.added) == len(YEARS)
    yield application
    await application.close()


async def _doc_ids(app: App) -> dict[str, str]:
    return {r.source_path.rsplit("/", 1)[-1]: r.doc_id for r in await app.storage.registry.list_documents()}


async def test_the_drill_down_reads_the_report_whose_passage_matches_best(app: App) -> None:
    oldest = (await _doc_ids(app))[f"harbour-annual-report-{YEARS[0]}.md"]
    vector = await app.embedder.embed([QUESTION])
    tools = RouteTools(backend=app.backend, embedder=app.embedder)
    found = await tools.long_text(QUESTION, vector, SearchFilters(), 50, 1, 0.0)
    summaries = await app.backend.search_vector(vector, SearchFilters(), SUMMARIES_TO_DRILL, scope="summary")
    assert found.report.filters.doc_ids is not None and oldest in found.report.filters.doc_ids
    assert any("Berth Window Dashboard" in e.text for e in found.evidence)
    # What this adds: the 2019 report's summary alone would not have been drilled into.
    assert oldest not in {h.segment.doc_id for h in summaries}


async def test_a_detail_only_an_older_report_records_is_answered_from_it(app: App) -> None:
    result = await ask(app, QUESTION, now=NOW)
    assert result.kind == "answer", result.answer
    assert "Berth Window Dashboard" in result.answer
    names = {v: k for k, v in (await _doc_ids(app)).items()}
    assert {names[c.doc_id] for c in result.citations} == {f"harbour-annual-report-{YEARS[0]}.md"}
