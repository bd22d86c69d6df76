"""A question asked with an abbreviation the documents define elsewhere (issue 21).

Written for the test: a water utility's glossary defines "non-revenue water (NRW)" and "district
metered area (DMA)"; its two yearly reports state the figures in the long form only, never the
short one. A reader who knows the glossary finds the figure from the short form; so must the search.
The reports also define the authority's own name, "Riverside Water Authority (RWA)": a name is
the facets' to resolve (every document about it writes it), and is not spelled out.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import AsyncIterator

import pytest

from bots.bootstrap import App, build_app
from bots.settings import Settings
from tests.asking import ask

pytestmark = pytest.mark.model

NOW = dt.datetime(2026, 11, 25, 9, 0, tzinfo=dt.UTC)
GLOSSARY = """# Network glossary

Terms used in our reports and plans.

## Losses

Water that is produced but never billed is non-revenue water (NRW). It includes leaks, bursts,
meter error and theft. The network is divided into district metered areas (DMAs), each a zone
whose inflow is measured at its boundary.
"""
REPORTS = {
    2023: ("21 percent", "112", "a burst main under Station Road"),
    2024: ("17 percent", "138", "the replacement of 40 km of cast-iron pipe"),
}


def _report(year: int) -> str:
    share, zones, cause = REPORTS[year]
    return f"""---
title: Annual Network Report {year}
date: {year}-12-31
---
# Annual Network Report {year}

The Riverside Water Authority (RWA) reports on its network every year.

## Performance

Non-revenue water was {share} of the water put into supply in {year}. The change from the year
before is mostly owed to {cause}. Pressure management now covers {zones} district metered areas.

## Customers

Billing complaints fell for the third year running, and the call centre answered most calls within
two minutes.
"""


@pytest.fixture(scope="module")
async def app(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[App]:
    folder = tmp_path_factory.mktemp("utility")
    (folder / "glossary.md").write_text(GLOSSARY, encoding="utf-8")
    for year in REPORTS:
        (folder / f"network-report-{year}.md").write_text(_report(year), encoding="utf-8")
    application = await build_app(Settings(data_dir=tmp_path_factory.mktemp("utility-data"), fixed_now=NOW))
    report = await application.ingestor.ingest([folder])
    assert report.ok and len(report.added) == 3
    yield application
    await application.close()


async def test_the_glossary_s_abbreviations_are_read_at_ingestion(app: App) -> None:
    documents = {d.title: d for d in await app.storage.registry.list_documents()}
    glossary = documents["Network glossary"].facets
    assert glossary is not None and glossary.abbreviations is not None
    assert glossary.abbreviations["NRW"] == "non-revenue water"
    assert glossary.abbreviations["DMAs"] == "district metered areas"
    report = documents["Annual Network Report 2024"].facets
    assert report is not None and report.abbreviations == {"RWA": "Riverside Water Authority"}


@pytest.mark.parametrize("year", sorted(REPORTS))
async def test_a_figure_asked_by_its_abbreviation_is_answered_from_the_long_form(app: App, year: int) -> None:
    share, _, _ = REPORTS[year]
    other = next(s for y, (s, *_) in REPORTS.items() if y != year)
    result = await ask(app, f"What was NRW in {year}?", now=NOW)
    assert result.kind == "answer", result.answer
    assert share in result.answer and other not in result.answer
    assert {c.title for c in result.citations} == {f"Annual Network Report {year}"}
    assert result.retrieval_report[0].query == f"What was NRW (non-revenue water) in {year}?"


async def test_a_name_the_documents_define_is_not_spelled_out(app: App) -> None:
    result = await ask(app, "What did RWA say about billing complaints in 2024?", now=NOW)
    assert result.retrieval_report[0].query == "What did RWA say about billing complaints in 2024?"


async def test_an_abbreviation_no_document_defines_is_left_as_asked(app: App) -> None:
    result = await ask(app, "How many PRVs were installed in 2024?", now=NOW)
    assert result.retrieval_report[0].query == "How many PRVs were installed in 2024?"
