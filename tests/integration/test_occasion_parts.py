"""Inside the meeting a date names, each part of a two-part question finds its passage by its own
words (issue 21; general case of `Executor._with_words`).

Written for the test: two meetings' minutes of a harbour committee, dated by their file names. The
March minutes report the staff's tidal flood modelling briefings in passage after passage, and
say once, in a passage about the port's works, what the dredging of the north channel cost. The
whole question's words and meaning find the briefings; only the second part's own words ("dredging",
"cost") find the works.
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

NOW = dt.datetime(2025, 6, 2, 9, 0, tzinfo=dt.UTC)
TOPICS = [
    "spring tides",
    "storm surges",
    "river inflows",
    "harbour walls",
    "sea level",
    "wave heights",
    "neap tides",
    "estuary silt",
    "quay drainage",
    "lock gates",
]
BRIEFINGS = [
    f"The staff presented briefings on tidal flood modelling of {topic}; the staff briefings on the tidal "
    f"flood modelling of {topic} were presented in detail to the Committee."
    for topic in TOPICS
]
ROUTINE = (
    "Members discussed the figures at some length and asked for updated tables at the next meeting. "
    "The harbour master's office will circulate the revised tables to members a week in advance. "
)
WORKS = (
    "The port engineer reported on the works programme for the year. The dredging of the north channel "
    "was completed in February at a cost of 4.2 million euros. Members thanked the contractors."
)


def _minutes(leads: list[str]) -> str:
    return "\n\n".join(f"{lead} {ROUTINE * 3}" for lead in leads) + "\n"  # a passage each


@pytest.fixture(scope="module")
async def app(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[App]:
    folder = tmp_path_factory.mktemp("minutes")
    (folder / "2025-03-19-minutes.txt").write_text(_minutes([*BRIEFINGS[:3], WORKS, *BRIEFINGS[3:]]), encoding="utf-8")
    # The May minutes speak of dredging costs too: those words are no rarer than the briefings' words.
    may = [
        f"{lead} The dredging cost estimates for the {topic} were reviewed."
        for lead, topic in zip(BRIEFINGS, TOPICS, strict=True)
    ]
    (folder / "2025-05-07-minutes.txt").write_text(_minutes(may), encoding="utf-8")
    application = await build_app(Settings(data_dir=tmp_path_factory.mktemp("minutes-data"), fixed_now=NOW))
    report = await application.ingestor.ingest([folder])
    assert report.ok and len(report.added) == 2
    yield application
    await application.close()


async def test_each_part_of_the_question_finds_its_passage_inside_the_meeting(app: App) -> None:
    # Before: the whole question's best passages by meaning and words were all briefings; the passage
    # on the dredging was never read.
    question = (
        "mar 2025 minutes: how many staff briefings on tidal flood modelling of spring tides, storm surges, "
        "river inflows and harbour walls were presented, and what did the dredging cost?"
    )
    result = await ask(app, question, now=NOW)
    read = [c.content for c in result.context_packet.candidates]
    assert any("4.2 million euros" in text for text in read), read
    records = {r.doc_id: Path(r.source_path).name for r in await app.storage.registry.list_documents()}
    assert {records[c.doc_id] for c in result.citations} <= {"2025-03-19-minutes.txt"}
