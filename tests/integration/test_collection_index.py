"""A collection's index (a manifest listing its files with their type) is read at ingestion: its rows
are not searched, the type it gives each document becomes the document's kind and leads its title,
and a question that names the kind ("per the minutes") reads that kind (real model, written documents).

Written for the test: one meeting's statement and minutes, in folders as real collections keep them,
both about container volumes with different figures, named only by date-coded file names; and a
`manifest.csv` with each file's id, type, meeting dates and path, as dataset exports ship.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bots.bootstrap import App, build_app
from bots.settings import Settings
from bots.terminal import report_lines
from tests.asking import ask

pytestmark = pytest.mark.model

NOW = dt.datetime(2005, 1, 10, 9, 0, tzinfo=dt.UTC)
FILES = {
    "minutes/2004/Meeting=2004-06-30_Release=20040720.txt": (
        "A meeting of the Harbour Rates Committee was held on June 29-30, 2004. The staff projected that "
        "container volumes would rise 4 percent in 2005, led by trans-Pacific routes. Participants saw "
        "risks to the outlook for freight as balanced. It was agreed that the next meeting would be held "
        "on August 10, 2004."
    ),
    "statements/2004/Meeting=2004-06-30_Release=20040630.txt": (
        "The Harbour Rates Committee decided today to raise its target for the overnight rate by 25 "
        "basis points to 1-1/4 percent. Container volumes have been rising at a moderate pace."
    ),
    "statements/2004/Meeting=2004-08-10_Release=20040810.txt": (
        "The Harbour Rates Committee decided today to raise its target for the overnight rate by 25 "
        "basis points to 1-1/2 percent. Container volumes have firmed."
    ),
}
MANIFEST = "doc_id,doc_type,meeting_start,meeting_end,release_date,path,words\n" + "".join(
    f"{kind}-2004-06-30,{kind},2004-06-29,2004-06-30,{release},{path},{len(text.split())}\n"
    for (path, text), kind, release in zip(
        FILES.items(), ("minutes", "statement", "statement"), ("2004-07-20", "2004-06-30", "2004-08-10"), strict=True
    )
)


@pytest.fixture(scope="module")
async def app(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[App]:
    folder = tmp_path_factory.mktemp("indexed-docs")
    for path, text in FILES.items():
        (folder / path).parent.mkdir(parents=True, exist_ok=True)
        (folder / path).write_text(text + "\n", encoding="utf-8")
    (folder / "manifest.csv").write_text(MANIFEST, encoding="utf-8")
    application = await build_app(Settings(data_dir=tmp_path_factory.mktemp("indexed-data"), fixed_now=NOW))
    # The manifest alone is a table like any other; beside the files it lists, it is their index.
    alone = await application.ingestor.ingest([folder / "manifest.csv"])
    assert alone.ok and len(alone.added) == 1 and not alone.indexes
    report = await application.ingestor.ingest([folder])
    assert report.ok and len(report.added) == 3
    assert report.indexes == [(str(folder / "manifest.csv"), 3)]
    assert f"  index of 3 documents (read for their kinds, not searched): {folder / 'manifest.csv'}" in report_lines(
        report
    )
    yield application
    await application.close()


async def test_the_index_is_read_for_kinds_and_is_no_document(app: App) -> None:
    records = {Path(r.source_path).name: r for r in await app.storage.registry.list_documents()}
    assert "manifest.csv" not in records  # the copy ingested while it stood alone is gone
    minutes = records["Meeting=2004-06-30_Release=20040720.txt"]
    statement = records["Meeting=2004-06-30_Release=20040630.txt"]
    assert minutes.facets is not None and minutes.facets.kind == "minutes"
    assert statement.facets is not None and statement.facets.kind == "statement"
    assert minutes.title.startswith("Minutes: ") and statement.title.startswith("Statement: ")


@pytest.mark.parametrize(
    ("question", "cited", "said"),
    [
        # Before: the manifest's row (meeting_start, meeting_end, release_date) was the answer.
        ("When was the meeting after June 2004 to be held, per the minutes?", "20040720", "August 10, 2004"),
        # Before: both documents' container sentences, the statement's first.
        ("What did the minutes of June 2004 say about container volumes?", "20040720", "4 percent"),
        ("What did the June 2004 statement say about container volumes?", "20040630", "moderate pace"),
        # Before: the kind contracted as chat writes it was no kind, and the minutes' figure led.
        ("june 2004 stmt - what did it say about container volumes?", "20040630", "moderate pace"),
    ],
)
async def test_a_question_naming_the_kind_reads_that_kind(app: App, question: str, cited: str, said: str) -> None:
    result = await ask(app, question, now=NOW)
    assert result.kind == "answer", result.answer
    assert result.route.route != "structured" and result.table is None
    records = {r.doc_id: Path(r.source_path).name for r in await app.storage.registry.list_documents()}
    assert {records[c.doc_id] for c in result.citations} == {f"Meeting=2004-06-30_Release={cited}.txt"}
    assert said in result.answer
    # The words that named the kind chose the documents: no passage must write them ("stmt").
    assert result.assessment is not None and not {"stmt", "minutes", "statement"} & set(result.assessment.missing)


async def test_a_kind_asked_in_a_period_it_lacks_is_not_answered_from_another_period(app: App) -> None:
    # Before: no minutes of August 2004 (its statement only), so the June minutes filled in as
    # "out of range".
    result = await ask(app, "What did the minutes of August 2004 say about container volumes?", now=NOW)
    assert result.kind != "answer" and not result.citations, result.answer
