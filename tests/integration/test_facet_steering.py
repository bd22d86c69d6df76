"""Documents that differ only by entity and period, through the real product (issue 21).

Written for the test: two companies' quarterly filings as PDFs whose metadata title is an SEC
accession number and whose file names carry the quarter and ticker ("2022 Q3 ORCH.pdf"); one
company's fiscal quarters end in June, September and December, so its "Q3 2022" is not the calendar
third quarter. And a yearly series of an agency's reports labelled by fiscal year, with one year
missing. Every question names one entity and one period.
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
# (company, ticker): {file label: (period ended, gross margin)}
FILINGS = {
    ("Orchard", "ORCH"): {"2022 Q3": ("June 25, 2022", "43.3"), "2022 Q4": ("September 24, 2022", "42.3")},
    ("Bramble", "BRMX"): {"2022 Q3": ("September 30, 2022", "27.1"), "2022 Q4": ("December 31, 2022", "25.8")},
}
CERTIFIED = {2019: "1,204", 2020: "1,377", 2022: "1,512"}


def _pdf(path: Path, title: str, pages: list[str]) -> None:
    pdf = FPDF()
    pdf.set_title(title)
    pdf.set_font("Helvetica", size=10)
    for text in pages:
        pdf.add_page()
        pdf.multi_cell(0, 6, text)
    pdf.output(str(path))


def _filing(path: Path, company: str, ticker: str, ended: str, margin: str) -> None:
    cover = (
        "UNITED STATES\nSECURITIES AND EXCHANGE COMMISSION\nWashington, D.C. 20549\nFORM 10-Q\n"
        f"QUARTERLY REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934\n"
        f"For the quarterly period ended {ended}\nCommission File Number: 001-36743\n{company} Inc.\n"
        f"(Exact name of Registrant as specified in its charter)\nCommon Stock {ticker} The Nasdaq Stock Market LLC"
    )
    results = (
        f"Management's discussion. Net sales of {company} increased in the quarter. The gross margin "
        f"percentage of {company} was {margin} percent for the quarter, compared with the prior quarter. "
        f"Operating expenses of {company} were in line with the outlook that {company} gave."
    )
    _pdf(path, "0000320193-22-000070", [cover, results])


def _annual(path: Path, year: int, certified: str) -> None:
    cover = f"Office of Widget Standards\nAnnual Performance Report\nFiscal Year {year}"
    body = (
        "The Office of Widget Standards (OWS) certifies the widgets sold to federal agencies. "
        f"In this fiscal year OWS certified {certified} widget models, and OWS met its timeliness target. "
        "OWS publishes these results each year."
    )
    # One report mentions another organisation in passing, on a page of its own.
    partners = f"In fiscal year {year} OWS shared its test data with NTL each spring."
    _pdf(path, "OWS", [cover, body, partners] if year == 2020 else [cover, body])


@pytest.fixture(scope="module")
async def app(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[App]:
    folder = tmp_path_factory.mktemp("facet-docs")
    for (company, ticker), quarters in FILINGS.items():
        for label, (ended, margin) in quarters.items():
            _filing(folder / f"{label} {ticker}.pdf", company, ticker, ended, margin)
    for year, certified in CERTIFIED.items():
        _annual(folder / f"{year}-annual-performance-report.pdf", year, certified)
    application = await build_app(Settings(data_dir=tmp_path_factory.mktemp("facet-data"), fixed_now=NOW))
    report = await application.ingestor.ingest([folder])
    assert report.ok and len(report.added) == 7
    yield application
    await application.close()


async def test_every_document_says_whom_and_when_it_is_about(app: App) -> None:
    records = {Path(r.source_path).name: r for r in await app.storage.registry.list_documents()}
    filing = records["2022 Q3 ORCH.pdf"]
    assert filing.facets is not None
    assert "0000320193" not in filing.title and "ORCH" in filing.title and "2022 Q3" in filing.title
    assert {"orchard", "orch"} <= {f for e in filing.facets.entities for f in e.forms()}
    annual = records["2020-annual-performance-report.pdf"]
    assert annual.facets is not None
    assert [p.label for p in annual.facets.periods if p.kind == "fiscal_year"] == ["Fiscal Year 2020"]


@pytest.mark.parametrize(
    ("question", "file", "figure"),
    [
        ("What was Orchard's gross margin in Q3 2022?", "2022 Q3 ORCH.pdf", "43.3"),
        ("What was Orchard's gross margin in Q4 2022?", "2022 Q4 ORCH.pdf", "42.3"),
        ("What was the gross margin of Bramble in the third quarter of 2022?", "2022 Q3 BRMX.pdf", "27.1"),
        ("BRMX gross margin Q4 2022?", "2022 Q4 BRMX.pdf", "25.8"),
        ("How many widget models did OWS certify in FY 2020?", "2020-annual-performance-report.pdf", "1,377"),
        (
            "How many widget models did the Office of Widget Standards certify in FY19?",
            "2019-annual-performance-report.pdf",
            "1,204",
        ),
    ],
)
async def test_one_entity_and_one_period_cite_that_document(app: App, question: str, file: str, figure: str) -> None:
    result = await ask(app, question, now=NOW)
    assert result.kind == "answer", result.answer
    records = {r.doc_id: Path(r.source_path).name for r in await app.storage.registry.list_documents()}
    assert {records[c.doc_id] for c in result.citations} == {file}
    assert figure in result.answer
    assert result.reading is not None and result.reading.documents is not None
    assert result.assessment is not None and result.assessment.outcome.startswith("SUCCESS")


async def test_a_period_no_document_has_says_which_exist(app: App) -> None:
    result = await ask(app, "How many widget models did OWS certify in FY 2021?", now=NOW)
    assert result.kind == "uncertainty" and not result.citations
    for label in ("Fiscal Year 2019", "Fiscal Year 2020", "Fiscal Year 2022"):
        assert label in result.answer
    assert "FY 2021" in result.answer
    quarter = await ask(app, "What was Orchard's gross margin in Q1 2021?", now=NOW)
    assert quarter.kind == "uncertainty" and "2022 Q3" in quarter.answer and "2022 Q4" in quarter.answer
    assert quarter.reading is not None and quarter.reading.not_covered is not None


async def test_a_name_only_mentioned_in_passing_is_not_answered_from_other_documents(app: App) -> None:
    # No document is about NTL: OWS's figure is not its answer; only what mentions it is cited.
    result = await ask(app, "How many widget models did NTL certify in 2020?", now=NOW)
    assert "1,377" not in result.answer
    assert result.kind == "uncertainty" or "NTL" in result.answer
    assert result.assessment is not None and result.assessment.names_cited is not None


async def test_one_name_of_several_periods_is_answered_from_the_latest_and_says_which(app: App) -> None:
    result = await ask(app, "What was Orchard's gross margin?", now=NOW)
    assert result.kind == "answer" and "42.3" in result.answer, result.answer
    note = result.applicability_note or ""
    assert "2022 Q4" in note and "2022 Q3" in note, note
    yearly = await ask(app, "How many widget models did OWS certify?", now=NOW)
    assert "1,512" in yearly.answer
    assert all(f"Fiscal Year {y}" in (yearly.applicability_note or "") for y in CERTIFIED)
    # A period named is the one answered: nothing to say.
    named = await ask(app, "What was Orchard's gross margin in Q3 2022?", now=NOW)
    assert "43.3" in named.answer and named.applicability_note is None


@pytest.mark.parametrize(
    "question",
    [
        "What was Quince's gross margin in Q3 2022?",
        "What was the gross margin of Quince Inc. in Q4 2022?",
        # Beside a name that picks a filing, a name nothing writes is still nothing the filing covers.
        "What was the Quince Widget margin in Orchard's Q3 2022 filing?",
    ],
)
async def test_a_name_no_document_mentions_is_not_answered_from_another(app: App, question: str) -> None:
    # No filing is Quince's and no passage writes the name: Orchard's or Bramble's margin is no answer.
    result = await ask(app, question, now=NOW)
    assert result.kind == "uncertainty" and not result.citations, result.answer
    assert "Quince" in result.answer
    assert result.reading is not None and result.reading.not_covered is not None
    # A name the documents write is still answered ("Orchard"), and so is a period of a known name.
    known = await ask(app, "What was the gross margin of Orchard Inc. in Q4 2022?", now=NOW)
    assert known.kind == "answer" and "42.3" in known.answer
    # A common word capitalised as a title names nothing, though no document writes it.
    titled = await ask(app, "What does the Handbook say about the gross margin in Q3 2022?", now=NOW)
    assert titled.reading is not None and titled.reading.not_covered is None


@pytest.mark.parametrize(
    ("first", "follow_up", "file", "figure"),
    [
        ("What was Orchard's gross margin in Q3 2022?", "and in Q4 2022?", "2022 Q4 ORCH.pdf", "42.3"),
        ("What was Orchard's gross margin in Q3 2022?", "same question for Bramble", "2022 Q3 BRMX.pdf", "27.1"),
        ("What was Bramble's gross margin in Q3 2022?", "ok, and the quarter after that?", "2022 Q4 BRMX.pdf", "25.8"),
        (
            "How many widget models did OWS certify in FY 2019?",
            "and the year after that?",
            "2020-annual-performance-report.pdf",
            "1,377",
        ),
        (
            "How many widget models did OWS certify in FY 2020?",
            "What about FY19?",
            "2019-annual-performance-report.pdf",
            "1,204",
        ),
    ],
)
async def test_a_follow_up_in_the_thread_names_only_what_changes(
    app: App, first: str, follow_up: str, file: str, figure: str
) -> None:
    thread = f"thread-{first}-{follow_up}"
    await ask(app, first, now=NOW, thread=thread)
    result = await ask(app, follow_up, now=NOW, thread=thread)
    assert result.kind == "answer", result.answer
    records = {r.doc_id: Path(r.source_path).name for r in await app.storage.registry.list_documents()}
    assert {records[c.doc_id] for c in result.citations} == {file}
    assert figure in result.answer


async def test_a_follow_up_to_a_period_no_document_has_says_which_exist(app: App) -> None:
    thread = "thread-ows-2022-before"
    await ask(app, "How many widget models did OWS certify in FY 2022?", now=NOW, thread=thread)
    result = await ask(app, "and the year before?", now=NOW, thread=thread)
    assert result.kind == "uncertainty" and not result.citations
    assert "FY 2021" in result.answer and "Fiscal Year 2022" in result.answer
