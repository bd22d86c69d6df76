"""Inside the one document a date leaves to read, the question's own words find the passage meaning
ranks low (issue 21; the case of `test_confined_words` when a date, not a name, confines the search).

Written for the test: three meetings' minutes of a harbour committee, dated by their file names. The
January minutes speak of the staff's outlook, projections and reports on page after page, and say
once, in a passage about the committee's schedule, how many briefings the staff presented and on
what. Every passage of those minutes is about the meeting, so meaning ranks the staff's outlook first;
the question's own words ("staff briefings") pick the one that answers.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import AsyncIterator

import pytest

from bots.bootstrap import App, build_app
from bots.settings import Settings
from core.contracts import SearchFilters
from core.orchestrator.routes import WORD_PLACES, RouteTools
from tests.asking import ask

pytestmark = pytest.mark.model

NOW = dt.datetime(2025, 6, 2, 9, 0, tzinfo=dt.UTC)
THINGS = [
    "shipping volumes",
    "freight rates",
    "berth utilization",
    "container traffic",
    "fuel costs",
    "dock employment",
    "cargo handled",
    "ferry traffic",
]
MOVES = ["rose a little", "edged down", "held steady", "recovered", "slowed", "picked up", "were mixed"]
# The staff's presentations, passage after passage: what meaning finds nearest to a question about
# the staff's briefings.
OUTLOOK = [
    f"The staff presented its update on {thing}, which {move} over the period." for thing in THINGS for move in MOVES
]
ROUTINE = (
    "Members discussed the figures at some length and asked for updated tables at the next meeting. "
    "The harbour master's office will circulate the revised tables to members a week in advance. "
    "Several members noted that the seasonal pattern made recent readings hard to interpret. "
)
SCHEDULE = (
    "The Committee confirmed its calendar of meetings for the year and the rotation of its chair. "
    "The staff presented three briefings on tidal flood modelling. "
    "Members agreed to hold the spring meeting at the eastern terminal. "
)


def _minutes(leads: list[str]) -> str:
    return "\n\n".join(f"{lead} {ROUTINE * 3}" for lead in leads) + "\n"  # a passage each


@pytest.fixture(scope="module")
async def app(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[App]:
    folder = tmp_path_factory.mktemp("minutes")
    january = [*OUTLOOK[:30], SCHEDULE, *OUTLOOK[30:]]
    (folder / "2025-01-29-minutes.txt").write_text(_minutes(january), encoding="utf-8")
    (folder / "2025-03-19-minutes.txt").write_text(_minutes(OUTLOOK[::5]), encoding="utf-8")
    (folder / "2025-05-07-minutes.txt").write_text(_minutes(OUTLOOK[1::5]), encoding="utf-8")
    application = await build_app(Settings(data_dir=tmp_path_factory.mktemp("minutes-data"), fixed_now=NOW))
    report = await application.ingestor.ingest([folder])
    assert report.ok and len(report.added) == 3
    yield application
    await application.close()


async def test_the_question_s_words_find_the_answer_inside_the_meeting_a_date_names(app: App) -> None:
    result = await ask(app, "jan 2025 minutes: how many staff briefings were there, and on what topic?", now=NOW)
    assert result.kind == "answer", result.answer
    assert "three briefings on tidal flood modelling" in result.answer
    records = {r.doc_id: r.source_path for r in await app.storage.registry.list_documents()}
    assert {records[c.doc_id].rsplit("/", 1)[-1] for c in result.citations} == {"2025-01-29-minutes.txt"}


async def test_a_drill_down_into_the_one_document_a_date_leaves_adds_its_best_word_matches(app: App) -> None:
    # Before: only names that confined the filters to one document added the word matches; a date
    # window that left one document's summary to drill into added none.
    records = {r.source_path.rsplit("/", 1)[-1]: r.doc_id for r in await app.storage.registry.list_documents()}
    january = records["2025-01-29-minutes.txt"]
    question = "how many staff briefings were there, and on what topic?"
    vector = await app.embedder.embed([question])
    window = SearchFilters(
        doc_ids=sorted(records.values()), date_start=dt.date(2025, 1, 22), date_end=dt.date(2025, 2, 5)
    )
    tools = RouteTools(backend=app.backend, embedder=app.embedder)
    found = await tools.long_text(question, vector, window, 50, 1, 0.0)
    assert found.report.filters.doc_ids == [january]
    drilled = [e.chunk_id for e in found.evidence]
    words = await app.backend.search_text(question, SearchFilters(doc_ids=[january]), 5, vector)
    best = [h.segment.chunk_id for h in words if h.segment.chunk_id not in drilled][:WORD_PLACES]
    assert best
    joined = await tools.with_words(found, question, vector, window)
    assert [e.chunk_id for e in joined.evidence] == [*drilled, *best]
