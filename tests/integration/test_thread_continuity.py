"""A question in a thread about someone the last reply named keeps the last question's meeting (real
model, written documents).

Written for the test: the minutes of three meetings of a committee where the same member dissented,
for a different reason each time. "ok and what was Whitlock's reasoning?" after "who voted against
… at the June 2004 meeting?" asks about June: August's reason, the newer one, is the wrong answer;
"and at the next meeting?" asks about August, not every meeting after June.
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bots.bootstrap import App, build_app
from bots.settings import Settings
from tests.asking import ask

pytestmark = pytest.mark.model

NOW = dt.datetime(2005, 1, 10, 9, 0, tzinfo=dt.UTC)
REASONS = {
    "2004-06-30-minutes.txt": ("June 29-30, 2004", "she judged that price pressures in shipping were still contained"),
    "2004-08-10-minutes.txt": ("August 10, 2004", "she preferred to wait for firmer evidence on dockside hiring"),
    "2004-09-21-minutes.txt": ("September 21, 2004", "she saw freight demand cooling faster than staff expected"),
}


@pytest.fixture(scope="module")
async def app(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[App]:
    folder = tmp_path_factory.mktemp("thread-docs")
    for name, (held, reason) in REASONS.items():
        (folder / name).write_text(
            f"Minutes of the Harbour Rates Committee meeting held on {held}. The Committee reviewed "
            "conditions in the port economy and decided to keep its target for the overnight rate "
            "unchanged. Voting for this action were Ana Brandt, Chair; Tomas Reyes; and Lea Novak. "
            f"Voting against this action was Dana Whitlock. Ms. Whitlock dissented because {reason}.\n",
            encoding="utf-8",
        )
    application = await build_app(Settings(data_dir=tmp_path_factory.mktemp("thread-data"), fixed_now=NOW))
    report = await application.ingestor.ingest([folder])
    assert report.ok and len(report.added) == 3
    yield application
    await application.close()


async def test_a_question_about_someone_the_reply_named_keeps_the_meeting(app: App) -> None:
    thread = uuid.uuid4().hex
    first = await ask(app, "Who voted against the action at the June 2004 meeting?", now=NOW, thread=thread)
    assert first.kind == "answer" and "Whitlock" in first.answer, first.answer
    second = await ask(app, "ok and what was Whitlock's reasoning?", now=NOW, thread=thread)
    assert second.kind == "answer", second.answer
    assert "shipping" in second.answer
    assert "dockside hiring" not in second.answer  # August's reason
    records = {r.doc_id: Path(r.source_path).name for r in await app.storage.registry.list_documents()}
    assert {records[c.doc_id] for c in second.citations} == {"2004-06-30-minutes.txt"}


@pytest.mark.parametrize(
    ("first", "then", "cited", "reason"),
    [
        # Before: a question opening with a phrase ("per the minutes of that meeting, …") was a new
        # question, read in the year it names: both meetings' minutes.
        (
            "Who voted against the action at the June 29-30, 2004 meeting?",
            "per the minutes of that meeting, why did she dissent in 2004?",
            "2004-06-30-minutes.txt",
            "shipping",
        ),
        # Before: a month with "late" before it was no period; the follow-up was read in no year.
        (
            "Who voted against the action at the June 29-30, 2004 meeting, and why?",
            "and at the one in early August?",
            "2004-08-10-minutes.txt",
            "dockside hiring",
        ),
        # Before: "the next meeting" was no period; the question was read with no date at all.
        (
            "Who voted against the action at the June 29-30, 2004 meeting, and why?",
            "and at the next meeting?",
            "2004-08-10-minutes.txt",
            "dockside hiring",
        ),
        (
            "Who voted against the action at the September 21, 2004 meeting, and why?",
            "ok and at the meeting before that one?",
            "2004-08-10-minutes.txt",
            "dockside hiring",
        ),
        (
            "Who voted against the action at the June 29-30, 2004 meeting?",
            "did she dissent again at the following meeting? on what grounds?",
            "2004-08-10-minutes.txt",
            "dockside hiring",
        ),
    ],
)
async def test_a_follow_up_reads_the_meeting_it_points_at(
    app: App, first: str, then: str, cited: str, reason: str
) -> None:
    thread = uuid.uuid4().hex
    await ask(app, first, now=NOW, thread=thread)
    second = await ask(app, then, now=NOW, thread=thread)
    assert second.kind == "answer", second.answer
    assert reason in second.answer
    records = {r.doc_id: Path(r.source_path).name for r in await app.storage.registry.list_documents()}
    assert {records[c.doc_id] for c in second.citations} == {cited}
