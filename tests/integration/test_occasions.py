"""A date that names an occasion ("at the June 2004 meeting") picks that meeting's documents; the
occasion is no field of a table and no word the answer must repeat; the question's words pick the
passage inside them; an occasion before the oldest document is not answered from later ones (real
model, written documents).

Written for the test: two dated policy statements of a committee that never write "meeting" in the
sentence that answers, and a log of scraped pages as CSV whose columns are `url`, `meeting_date` and
`document_date` — a table about the documents, beside them in the folder, as real folders have.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bots.bootstrap import App, build_app
from bots.settings import Settings
from tests.asking import ask

pytestmark = pytest.mark.model

NOW = dt.datetime(2005, 1, 10, 9, 0, tzinfo=dt.UTC)
STATEMENTS = {
    "2004-06-30-statement.txt": ("raise", "1-1/4 percent", "modest"),
    "2004-08-10-statement.txt": ("raise", "1-1/2 percent", "moderate"),
}


@pytest.fixture(scope="module")
async def app(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[App]:
    folder = tmp_path_factory.mktemp("occasion-docs")
    for name, (verb, level, pace) in STATEMENTS.items():
        (folder / name).write_text(
            f"The Harbour Rates Committee decided today to {verb} its target for the overnight rate by 25 "
            f"basis points to {level}. Output continues to expand at a {pace} pace. The Committee "
            "believes that policy accommodation can be removed at a pace that is likely to be measured.\n",
            encoding="utf-8",
        )
    rows = ["url,meeting_date,document_date"] + [
        f'https://committee.example/minutes/2003{m:02d}15.htm,"{month} 15, 2003","{month} 30, 2003"'
        for m, month in ((3, "March"), (5, "May"), (9, "September"), (11, "November"))
    ]
    (folder / "minutes_scraping_log.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    application = await build_app(Settings(data_dir=tmp_path_factory.mktemp("occasion-data"), fixed_now=NOW))
    report = await application.ingestor.ingest([folder])
    assert report.ok and len(report.added) == 3
    yield application
    await application.close()


async def test_the_meeting_a_date_names_is_no_field_of_a_table(app: App) -> None:
    # Before: "meeting" matched the log's `meeting_date` column and "committee" its URLs, so the
    # log's rows were the answer. The vague question may get a sentence of the statement or the
    # uncertainty reply, but never the log.
    result = await ask(app, "What did the Committee do at the June 2004 meeting?", now=NOW)
    assert result.route.route != "structured" and result.table is None
    records = {r.doc_id: Path(r.source_path).name for r in await app.storage.registry.list_documents()}
    assert {records[c.doc_id] for c in result.citations} <= {"2004-06-30-statement.txt"}
    assert "committee.example" not in result.answer


async def test_the_meeting_after_a_date_is_the_next_one_the_documents_carry(app: App) -> None:
    # Before: "after June 2004" opened a window from June 1 on, and "meeting", no occasion there, matched
    # the log's `meeting_date` column: the log's rows were the answer.
    result = await ask(app, "What did the Committee do at the meeting after June 2004?", now=NOW)
    assert result.route.route != "structured" and result.table is None
    assert result.plan is not None and result.plan.date_start == result.plan.date_end == dt.date(2004, 8, 10)
    assert result.kind == "answer", result.answer
    records = {r.doc_id: Path(r.source_path).name for r in await app.storage.registry.list_documents()}
    assert {records[c.doc_id] for c in result.citations} == {"2004-08-10-statement.txt"}
    assert "1-1/2 percent" in result.answer and "committee.example" not in result.answer


async def test_the_occasion_is_not_required_of_the_answer(app: App) -> None:
    result = await ask(app, "What was the overnight rate target after the August 2004 meeting?", now=NOW)
    assert result.kind == "answer", result.answer
    assert "1-1/2 percent" in result.answer
    assert result.assessment is not None and "meeting" not in result.assessment.missing


async def test_inside_the_occasion_s_documents_the_question_s_words_pick_the_passage(app: App) -> None:
    # The answering sentence's cosine with the casual question is below the calibrated floor; the
    # date picked that meeting's one statement, and its words ("overnight rate") the sentence.
    # Before: the uncertainty reply.
    result = await ask(app, "june 2004 mtg - where'd the overnight rate go?", now=NOW)
    assert result.kind == "answer", result.answer
    assert "1-1/4 percent" in result.answer
    records = {r.doc_id: Path(r.source_path).name for r in await app.storage.registry.list_documents()}
    assert {records[c.doc_id] for c in result.citations} == {"2004-06-30-statement.txt"}


async def test_a_meeting_before_the_oldest_document_is_not_answered_from_later_ones(app: App) -> None:
    # Before: the generic uncertainty reply listing the 2004 statements as low matches (or, with a
    # better cosine, an answer from them with a note that they are from other dates).
    result = await ask(app, "What did the Committee decide at the March 2002 meeting?", now=NOW)
    assert result.kind == "uncertainty" and not result.citations, result.answer
    assert "the oldest document I can read is dated 2004-06-30" in result.answer
    assert result.assessment is not None and "before the oldest document" in result.assessment.outcome


async def test_inside_the_occasion_s_documents_another_institution_s_name_is_not_answered(app: App) -> None:
    # The statement's words carry "overnight rate" and its date the month, but it is the Committee's
    # decision, not the Bank of Canada's: a name of several words must be written by what is cited.
    result = await ask(app, "What did the Bank of Canada do with its overnight rate in June 2004?", now=NOW)
    assert result.kind == "uncertainty" and not result.citations, result.answer
    assert result.assessment is not None and result.assessment.withheld is not None
    assert "Bank of Canada" in result.assessment.withheld
