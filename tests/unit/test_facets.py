"""Documents describe themselves (facets), and questions are resolved against those descriptions.

The documents here are written for the test: reports that differ only by company and quarter,
where the file name labels a fiscal quarter whose months are not the calendar quarter's, and a
yearly series labelled by fiscal year.
"""

from __future__ import annotations

import datetime as dt

from core.ingest.facets import describe, heading, identifiers, reads_as_words
from core.knowledge import DocumentFacets, DocumentRecord, LoadedDocument, SourceBlock
from core.orchestrator.steering import Vocabulary, asked_periods, kind_words, resolve


def _filing(company: str, ticker: str, ended: str) -> LoadedDocument:
    cover = (
        "UNITED STATES\nSECURITIES AND EXCHANGE COMMISSION\nWashington, D.C. 20549\nFORM 10-Q\n"
        f"QUARTERLY REPORT PURSUANT TO SECTION 13 OR 15(d)\nFor the quarterly period ended {ended}\n"
        f"{company} Inc.\n(Exact name of registrant as specified in its charter)\n"
        f"Common Stock {ticker} The Nasdaq Stock Market LLC\n"
    )
    body = " ".join(
        f"Net sales of {company} rose in the quarter, and {company} kept its outlook. The gross margin of "
        f"{company} was steady."
        for _ in range(4)
    )
    return LoadedDocument(
        title="0000320193-22-000070",
        blocks=[SourceBlock(text=cover, page=1), SourceBlock(text=body, page=2)],
        media_type="application/pdf",
    )


def _annual(year: int, survey: bool = False) -> LoadedDocument:
    text = (
        f"Office of Widget Standards\nAnnual Performance Report\nFiscal Year {year}\n"
        "The Office of Widget Standards (OWS) certifies widgets. In this report OWS states its results; "
        "OWS met most targets, and OWS publishes them each year."
    )
    if survey:
        text += " The Widget Quality Survey (WQS) asks buyers; WQS scores rose, and WQS will run again."
    return LoadedDocument(title="OWS", blocks=[SourceBlock(text=text, page=1)], media_type="application/pdf")


def _record(doc_id: str, loaded: LoadedDocument, name: str) -> DocumentRecord:
    facets = describe(loaded, name)
    return DocumentRecord(
        doc_id=doc_id,
        title=facets.title,
        source_path=name,
        relative_path=name,
        media_type=loaded.media_type,
        content_hash=doc_id,
        facets=facets,
    )


def _vocabulary() -> Vocabulary:
    return Vocabulary(
        [
            _record("orch-q3", _filing("Orchard", "ORCH", "June 25, 2022"), "2022 Q3 ORCH.pdf"),
            _record("orch-q4", _filing("Orchard", "ORCH", "September 24, 2022"), "2022 Q4 ORCH.pdf"),
            _record("brmx-q3", _filing("Bramble", "BRMX", "September 30, 2022"), "2022 Q3 BRMX.pdf"),
            _record("brmx-q4", _filing("Bramble", "BRMX", "December 31, 2022"), "2022 Q4 BRMX.pdf"),
            _record("ows-2019", _annual(2019), "2019-annual-report.pdf"),
            _record("ows-2020", _annual(2020), "2020-annual-report.pdf"),
            _record("ows-2022", _annual(2022), "2022-annual-report.pdf"),
        ]
    )


def test_a_filing_describes_itself_from_its_cover_and_file_name() -> None:
    facets = describe(_filing("Orchard", "ORCH", "June 25, 2022"), "2022 Q3 ORCH.pdf")
    assert "0000320193" not in facets.title  # an accession number is not a title
    assert facets.title.startswith("UNITED STATES SECURITIES AND EXCHANGE COMMISSION")
    assert "ORCH" in facets.title and "2022 Q3" in facets.title
    names = {form for entity in facets.entities for form in entity.forms()}
    assert {"orchard", "orch"} <= names
    labels = {(p.kind, p.label) for p in facets.periods}
    assert ("quarter", "2022 Q3") in labels  # the file name's label, in its own words
    ended = next(p for p in facets.periods if p.kind == "period_end")
    assert ended.end == dt.date(2022, 6, 25) and ended.quarter == 2  # the months are calendar Q2
    assert {p.source for p in facets.periods} == {"file name", "page 1"}


def test_a_yearly_report_names_its_fiscal_year_and_its_defined_acronym() -> None:
    facets = describe(_annual(2020), "2020-annual-report.pdf")
    entity = facets.entities[0]
    assert entity.name == "Office of Widget Standards" and entity.aliases == ["OWS"]
    assert [(p.kind, p.start_year) for p in facets.periods] == [("fiscal_year", 2020)]
    assert facets.title == "Office of Widget Standards (Fiscal Year 2020)"  # the cover's first heading line


def _plan(department: str, code: str) -> tuple[LoadedDocument, str]:
    cover = f"U.S. DEPARTMENT OF {department.upper()}\nFY 2022 - 2026 Strategic Plan\n"
    body = f"The Department sets goals. The Department of {department}'s plan runs to 2026. The Department reports."
    loaded = LoadedDocument(title=code, blocks=[SourceBlock(text=cover + body, page=1)], media_type="application/pdf")
    return loaded, f"{code}2022.pdf"


def test_a_file_names_code_is_known_by_the_name_the_text_spells_it_with() -> None:
    labor, commerce = _plan("Labor", "DOL"), _plan("Commerce", "DOC")
    facets = describe(*labor)
    code = next(e for e in facets.entities if e.source == "file name")
    assert (code.name, code.aliases) == ("DOL", ["Department of Labor"])
    assert facets.title == "U.S. DEPARTMENT OF LABOR — DOL (FY 2022 - 2026)"  # set from the code alone
    vocabulary = Vocabulary(
        [_record("dol", *labor), _record("doc", *commerce), _record("ows-2020", _annual(2020), "a.pdf")]
    )
    assert resolve("What does the Department of Commerce strategic plan say?", vocabulary).doc_ids == ["doc"]
    assert resolve("the Labor Department's goals", vocabulary).doc_ids == ["dol"]


def test_a_title_that_wraps_onto_the_next_lines_is_read_whole() -> None:
    prose = "The FY 2022 Annual Performance Plan is required by law, and guidance for its development is given."
    assert heading(f"U.S. Department of Education FY 2022 Annual Performance\nPlan\n{prose}") == (
        "U.S. Department of Education FY 2022 Annual Performance Plan"
    )
    assert heading(f"JOINT STRATEGIC PLAN FY 2022 - 2026 U.S. Department of\nState U.S. Agency for Aid\n{prose}") == (
        "JOINT STRATEGIC PLAN FY 2022 - 2026 U.S. Department of State U.S. Agency for Aid"
    )
    assert heading(f"Office of Widget Standards Strategic Plan FY\n2022-2026\n{prose}") == (
        "Office of Widget Standards Strategic Plan FY 2022-2026"
    )
    # A complete title keeps its own line: the address under it, a page number, the prose.
    assert heading("UNITED STATES\nSECURITIES AND EXCHANGE COMMISSION\nWashington, D.C. 20549\nFORM 10-Q") == (
        "UNITED STATES SECURITIES AND EXCHANGE COMMISSION"
    )
    assert (
        heading(f"Office of Widget Standards Annual Report\n12\n{prose}") == "Office of Widget Standards Annual Report"
    )
    assert heading(f"Office of Widget Standards Annual Report\n{prose}") == "Office of Widget Standards Annual Report"


def test_the_organisation_a_title_names_stays_among_the_entities_however_rarely_the_text_writes_it() -> None:
    offices = " ".join(
        f"The {office} ({code}) runs programs; {code} reports, and {code} grows."
        for office, code in [
            ("Federal Widget Aid", "FWA"),
            ("Institute of Widget Sciences", "IWS"),
            ("Office of Widget Rights", "OWR"),
            ("Widget Careers Service", "WCS"),
            ("National Widget Board", "NWB"),
            ("Widget Data Center", "WDC"),
        ]
    )
    cover = "U.S. Department of Widgets FY 2022 Annual Performance\nPlan\n"
    text = f"{cover}The plan of the U.S. Department of Widgets (WD) is set out here. {offices}"
    loaded = LoadedDocument(title="WDAPP2022", blocks=[SourceBlock(text=text, page=1)], media_type="application/pdf")
    facets = describe(loaded, "WDAPP2022.pdf")
    assert facets.title.startswith("U.S. Department of Widgets FY 2022 Annual Performance Plan")
    # "WD" spells the name in the order "Widgets Department"; the title keeps it past the six written most.
    department = next(e for e in facets.entities if e.name == "Department of Widgets")
    assert department.aliases == ["WD"]
    vocabulary = Vocabulary([_record("wd", loaded, "WDAPP2022.pdf"), _record("ows-2022", _annual(2022), "a.pdf")])
    assert resolve("What is the Widgets Department's FY 2022 target?", vocabulary).doc_ids == ["wd"]
    assert resolve("WD app indicator for FY 2022", vocabulary).doc_ids == ["wd"]


def test_a_department_is_called_by_what_it_is_of_when_a_title_names_it() -> None:
    mentioned = (
        "Widget Review\nThe Federal Reserve Bank of Widgetville (FRBW) lends. FRBW grew, FRBW hired, and FRBW "
        "opened a branch."
    )
    review = LoadedDocument(
        title="Widget Review", blocks=[SourceBlock(text=mentioned, page=1)], media_type="text/plain"
    )
    vocabulary = Vocabulary(
        [
            _record("dol", *_plan("Labor", "DOL")),
            _record("doc", *_plan("Commerce", "DOC")),
            _record("ows-2020", _annual(2020), "2020-annual-report.pdf"),
            _record("ows-2022", _annual(2022), "2022-annual-report.pdf"),
            _record("review", review, "review.txt"),
        ]
    )
    assert resolve("What does Commerce's plan say about exports?", vocabulary).doc_ids == ["doc"]
    assert resolve("Labor plan: how many goals?", vocabulary).doc_ids == ["dol"]
    assert resolve("What did Widget Standards certify in FY 2020?", vocabulary).doc_ids == ["ows-2020"]
    # A bank the review only writes about is not called by its city.
    assert resolve("How many people does Widgetville employ?", vocabulary).doc_ids is None


def _archives() -> LoadedDocument:
    text = (
        "Archives Strategic Plan\nThe National Archives and Records Administration (NARA) keeps records. "
        "NARA opens them to the public, and NARA digitizes them."
    )
    return LoadedDocument(title="NARA", blocks=[SourceBlock(text=text, page=1)], media_type="application/pdf")


def test_a_name_that_coordinates_two_things_is_known_by_its_head() -> None:
    vocabulary = Vocabulary([_record("nara", _archives(), "NARA2022.pdf"), _record("ows", _annual(2020), "a.pdf")])
    assert resolve("How many pages will the National Archives digitize?", vocabulary).doc_ids == ["nara"]
    # A head of one word is a word: "Widget" is no name of the Office of Widget Standards.
    assert resolve("How many pages will the Widget office digitize?", vocabulary).doc_ids is None


def test_an_acronym_the_documents_define_is_known_in_any_case() -> None:
    vocabulary = Vocabulary([_record("nara", _archives(), "archives-plan.pdf"), _record("ows", _annual(2020), "a.pdf")])
    assert resolve("nara strat plan - how many pages will it digitize?", vocabulary).doc_ids == ["nara"]
    assert resolve("How many pages will NARA digitize?", vocabulary).doc_ids == ["nara"]


def test_a_name_is_whole_words_not_the_letters_before_a_digit() -> None:
    text = "Office of Widget Standards\nAnnual Performance Report\nFiscal Year 2021\n" + " ".join(
        "During the COVID-19 pandemic, the Widget Board kept its K-900 lines open." for _ in range(6)
    )
    facets = describe(
        LoadedDocument(title="OWS", blocks=[SourceBlock(text=text, page=1)], media_type="application/pdf"),
        "ows-2021.pdf",
    )
    names = [form for entity in facets.entities for form in entity.forms()]
    assert "widget board" in names
    assert not any(name.endswith("-") for name in names), names


def test_titles_codes_and_headings() -> None:
    assert not reads_as_words("DHS2020") and not reads_as_words("0000320193-22-000070")
    assert reads_as_words("Annual Performance Report Fiscal Year 2016") and reads_as_words("Fleet")
    assert not reads_as_words("OWS")
    assert heading("2023\nTHE DHS STRATEGIC PLAN Fiscal Years 2020-2024\nprose follows") == (
        "THE DHS STRATEGIC PLAN Fiscal Years 2020-2024"
    )
    assert identifiers("Aircraft Registration: N5921D  Trial NCT04280705  FY2022 Q3-2022") == ["N5921D", "NCT04280705"]


def test_a_company_and_a_quarter_pick_the_filing_labelled_with_them() -> None:
    vocabulary = _vocabulary()
    steering = resolve("What was Orchard's gross margin in Q3 2022?", vocabulary)
    assert steering.doc_ids == ["orch-q3"]  # labelled 2022 Q3 though its quarter ended in June
    assert steering.period_resolved and steering.missing is None
    # "bramble" in lower case is a word, not the name: only the quarter picks.
    assert resolve("bramble q4 2022 net sales", vocabulary).doc_ids == ["brmx-q4", "orch-q4"]
    assert resolve("What were Bramble's net sales in Q4 2022?", vocabulary).doc_ids == ["brmx-q4"]
    assert resolve("What did ORCH report for the fourth quarter of 2022?", vocabulary).doc_ids == ["orch-q4"]


def test_a_fiscal_year_picks_that_years_report_by_any_form_of_the_name() -> None:
    vocabulary = _vocabulary()
    assert resolve("How many widgets did OWS certify in FY 2020?", vocabulary).doc_ids == ["ows-2020"]
    assert resolve("ows results fy19", vocabulary).doc_ids == ["ows-2019"]
    assert resolve("What did the Office of Widget Standards meet in fiscal 2022?", vocabulary).doc_ids == ["ows-2022"]


def test_a_name_of_the_form_y_of_x_is_found_written_x_y() -> None:
    vocabulary = _vocabulary()
    steering = resolve("How many widgets did the Widget Standards Office certify in FY 2020?", vocabulary)
    assert steering.doc_ids == ["ows-2020"]
    assert steering.resolved[0].startswith("Office of Widget Standards →")
    # Its words in another order, all of them: "Widget Office" is no name of it.
    assert not any("Widget" in r for r in resolve("What did the Widget Office certify?", vocabulary).resolved)


def test_a_period_no_document_of_that_name_carries_is_said_with_what_exists() -> None:
    vocabulary = _vocabulary()
    steering = resolve("How many widgets did OWS certify in FY 2021?", vocabulary)
    assert steering.doc_ids is not None and set(steering.doc_ids) == {"ows-2019", "ows-2020", "ows-2022"}
    assert steering.missing is not None
    assert "FY 2021" in steering.missing
    assert "Fiscal Year 2019, Fiscal Year 2020, Fiscal Year 2022" in steering.missing
    missing = resolve("What was Orchard's gross margin in Q1 2021?", vocabulary).missing
    assert missing is not None and "2022 Q3" in missing and "2022 Q4" in missing


def test_names_that_together_leave_no_document_of_the_period_narrow_no_further_than_it() -> None:
    # Only the 2019 and 2022 reports define the survey, yet the FY 2020 report is still OWS's.
    records = [
        _record("ows-2019", _annual(2019, survey=True), "2019-annual-report.pdf"),
        _record("ows-2020", _annual(2020), "2020-annual-report.pdf"),
        _record("ows-2022", _annual(2022, survey=True), "2022-annual-report.pdf"),
        _record("orch-q3", _filing("Orchard", "ORCH", "June 25, 2022"), "2022 Q3 ORCH.pdf"),
        _record("orch-q4", _filing("Orchard", "ORCH", "September 24, 2022"), "2022 Q4 ORCH.pdf"),
        _record("brmx-q3", _filing("Bramble", "BRMX", "September 30, 2022"), "2022 Q3 BRMX.pdf"),
    ]
    steering = resolve("What was the OWS WQS score in FY 2020?", Vocabulary(records))
    assert steering.doc_ids == ["ows-2020"]
    assert steering.missing is None
    assert steering.titled == ["Office of Widget Standards"]  # the survey is not what it is about
    assert resolve("What was the OWS WQS score in FY 2022?", Vocabulary(records)).doc_ids == ["ows-2022"]
    missing = resolve("What was the OWS WQS score in FY 2021?", Vocabulary(records)).missing
    assert missing is not None and "FY 2021" in missing


def test_a_heading_s_period_picks_the_document_the_question_s_other_dates_do_not() -> None:
    # A message headed by its source: the calendar year asked about is written up in the FY 2019 report.
    records = [_record(f"ows-{y}", _annual(y), f"{y}-annual-report.pdf") for y in (2019, 2020, 2022)]
    asked = "ows fy19 apr - how many widgets were certified as of the start of calendar year 2020?"
    assert resolve(asked, Vocabulary(records)).doc_ids == ["ows-2019"]
    # Without a heading, every period the question names may pick a document.
    both = resolve("How many widgets were certified in FY19 and in 2020?", Vocabulary(records)).doc_ids
    assert both == ["ows-2019", "ows-2020"]


def test_a_name_every_document_carries_is_a_topic_and_steers_nothing() -> None:
    records = [_record(f"ows-{y}", _annual(y), f"{y}-annual-report.pdf") for y in (2019, 2020, 2022)]
    steering = resolve("What did OWS certify in FY 2020?", Vocabulary(records))
    assert steering.doc_ids == ["ows-2020"]  # the period still picks; the name alone would pick all
    assert not steering.titled


def test_periods_a_question_names() -> None:
    assert [(a.first, a.last, a.quarter) for a in asked_periods("Q3 2022 vs FY19 and 2016")] == [
        (2022, 2022, 3),
        (2019, 2019, None),
        (2016, 2016, None),
    ]


def test_a_deadline_picks_among_a_named_organisations_documents_only() -> None:
    assert asked_periods("How many pages will NARA digitize by FY 2026?", deadlines=False) == []
    assert asked_periods("in how many countries by Sept 30, 2026, per the plan?", deadlines=False) == []
    assert [a.label for a in asked_periods("promised in FY 2020 for delivery by 2026?", deadlines=False)] == ["FY 2020"]
    vocabulary = _vocabulary()
    # With the organisation named, the report whose period holds the deadline is the one asked.
    assert resolve("How many widgets had OWS certified by the end of FY 2022?", vocabulary).doc_ids == ["ows-2022"]
    # Alone, a target's date picks no document labelled with that year.
    assert resolve("How many widgets will be certified by fiscal year 2022?", vocabulary).doc_ids is None


def test_a_year_a_plans_span_holds_is_covered_though_it_picks_no_document() -> None:
    vocabulary = Vocabulary([_record("dol", *_plan("Labor", "DOL")), _record("ows-2020", _annual(2020), "a.pdf")])
    target = resolve("What is the Labor Department's 2026 target for apprenticeships?", vocabulary)
    assert not target.period_resolved and target.period_covered  # FY 2022 - 2026 holds 2026
    assert not resolve("What will the Labor Department report in 2030?", vocabulary).period_covered


def test_the_words_that_name_a_kind_are_the_question_s_own() -> None:
    """A contracted kind ("stmt") chose the statements by the index: their titles write it in full."""

    def indexed(doc_id: str, kind: str) -> DocumentRecord:
        facets = DocumentFacets(title=f"{kind.title()} {doc_id}", kind=kind, kind_from="index")
        return DocumentRecord(
            doc_id=doc_id, title=facets.title, source_path=doc_id, relative_path=doc_id,
            media_type="text/plain", content_hash=doc_id, facets=facets,
        )  # fmt: skip

    vocabulary = Vocabulary([indexed("a", "statement"), indexed("b", "minutes")])
    assert kind_words("may 4 2004 stmt: what did it say about hiring?", vocabulary) == {"stmt": "statement"}
    assert kind_words("Per the minutes, who dissented?", vocabulary) == {"minutes": "minutes"}
    assert kind_words("What did the committee say about hiring?", vocabulary) == {}
