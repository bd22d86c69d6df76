"""A meeting held over days ("the September 17-18, 2013 meeting") reads that meeting's documents,
and a person the question names in full is found where the record writes honorific and surname
("Ms. Harper") (real model, written documents).

Written for the test: the minutes of two meetings of one committee in one year, each recording the
same member's dissent with a different reason; the name is written in full only in the vote line.
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

NOW = dt.datetime(2014, 1, 10, 9, 0, tzinfo=dt.UTC)
MINUTES = {
    "2013-09-18-minutes.txt": (
        "September 17-18, 2013",
        "she saw recent information on the economy as sufficiently positive to warrant a smaller pace of purchases",
    ),
    "2013-10-30-minutes.txt": (
        "October 29-30, 2013",
        "she continued to view the policy stance as overly accommodative and as posing risks to stability",
    ),
}


@pytest.fixture(scope="module")
async def app(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[App]:
    folder = tmp_path_factory.mktemp("day-span-docs")
    for name, (days, reason) in MINUTES.items():
        (folder / name).write_text(
            f"Minutes of the Harbour Rates Committee, {days}. The staff reviewed conditions in funding "
            "markets and the outlook for output. Members agreed to keep the target for the overnight "
            "rate unchanged. Voting for this action: Alan Brook and Clara Dunn. Voting against this "
            f"action: Esther L. Harper. Ms. Harper dissented because {reason}.\n",
            encoding="utf-8",
        )
    application = await build_app(Settings(data_dir=tmp_path_factory.mktemp("day-span-data"), fixed_now=NOW))
    report = await application.ingestor.ingest([folder])
    assert report.ok and len(report.added) == 2
    yield application
    await application.close()


@pytest.mark.parametrize(
    ("question", "cited", "reason"),
    [
        ("Per the September 17-18, 2013 minutes, why did Esther Harper dissent?", "2013-09-18-minutes.txt", "positive"),
        ("why did Esther Harper dissent at the Oct 29–30, 2013 meeting?", "2013-10-30-minutes.txt", "accommodative"),
    ],
)
async def test_a_span_of_days_names_one_meeting_and_the_person_is_found_by_surname(
    app: App, question: str, cited: str, reason: str
) -> None:
    # Before: the span was not read as dates (the window was the whole year, both minutes) and
    # "17-18" was a word the source had to repeat; inside the meeting's minutes, "Esther Harper"
    # was not found in "Ms. Harper dissented because …": the uncertainty reply or the other meeting.
    result = await ask(app, question, now=NOW)
    assert result.kind == "answer", result.answer
    records = {r.doc_id: Path(r.source_path).name for r in await app.storage.registry.list_documents()}
    assert {records[c.doc_id] for c in result.citations} == {cited}
    assert reason in result.answer
