"""What "how many" counts and "on what date" dates, through the real product (issue 21: no count of
unrelated lines, no answer without the date asked).

Two agencies' annual reports, written for this test, in which "label: value" lines mention staff
and one of them states its headcount and a sum spent, and an inspection log whose rows are records.
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
HARBOR = """---
title: Harbor Agency Annual Report 2025
date: 2025-12-15
---

# About the Harbor Agency

The Harbor Agency keeps the port's channels open and its berths safe.

Headquarters: Quay Street 4, Porthaven
Workforce: As of June 2025, the Harbor Agency had about 1,240 employees.
Employee training: every pilot completes forty hours a year
Employee survey: run each spring by an outside firm
Budget: the agency spent $3.1 million on dredging in 2025.

# Dredging

The north channel was dredged to a depth of 14 metres in 2025.
The pilot station at North Quay opened on 3 March 2025.
"""
RIVER = """---
title: River Agency Annual Report 2025
date: 2025-11-30
---

# About the River Agency

The River Agency manages the locks and weirs along the upper river.

Headquarters: Mill Lane 9, Weirford
Employee training: lock keepers renew their licence every two years
Employee survey: results are shared with every team
Employee awards: given at the winter meeting

# Locks

Lock 3 was rebuilt in 2025 and reopened in October.
"""
INSPECTIONS = """inspection_id,date,site,result
I-001,2025-01-14,Lock 3,passed
I-002,2025-02-03,North Quay,failed
I-003,2025-02-20,Lock 3,failed
I-004,2025-03-11,North Quay,passed
I-005,2025-04-08,Weir 2,failed
"""


@pytest.fixture(scope="module")
async def app(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[App]:
    """The two reports and the inspection log, ingested once."""
    written = tmp_path_factory.mktemp("agencies")
    (written / "harbor-agency-2025.md").write_text(HARBOR, encoding="utf-8")
    (written / "river-agency-2025.md").write_text(RIVER, encoding="utf-8")
    (written / "inspections.csv").write_text(INSPECTIONS, encoding="utf-8")
    application = await build_app(Settings(data_dir=tmp_path_factory.mktemp("agencies-data"), fixed_now=NOW))
    assert (await application.ingestor.ingest([written], collection="default")).ok
    yield application
    await application.close()


async def test_how_many_employees_is_the_figure_the_report_states_not_a_count_of_lines(app: App) -> None:
    result = await ask(app, "How many employees does the Harbor Agency have, per its 2025 annual report?", now=NOW)
    assert result.kind == "answer", result.answer
    assert "1,240" in result.answer
    assert "matching rows" not in result.answer
    assert {c.title for c in result.citations} == {"Harbor Agency Annual Report 2025"}


async def test_a_headcount_no_report_states_is_not_answered_with_a_count(app: App) -> None:
    result = await ask(app, "How many employees does the River Agency have, per its 2025 annual report?", now=NOW)
    assert "matching rows" not in result.answer
    assert "1,240" not in result.answer
    # Its lines about employees count nothing: no answer, not an answer about employee training.
    assert result.kind == "uncertainty", result.answer
    assert result.assessment is not None and "count of employees" in (result.assessment.withheld or "")


async def test_how_many_dollars_is_a_sum_said_of_what_is_asked(app: App) -> None:
    spent = await ask(app, "How many dollars did the Harbor Agency spend on dredging in 2025?", now=NOW)
    assert spent.kind == "answer", spent.answer
    assert "$3.1 million" in spent.answer
    # The report's one sum is of dredging, on the line after the survey's: no sum of the survey.
    # Before: any sum in the cited passage counted dollars, and the dredging sum was the answer.
    survey = await ask(app, "How many dollars did the Harbor Agency spend on its employee survey?", now=NOW)
    assert survey.kind == "uncertainty", survey.answer
    assert survey.assessment is not None and "count of dollars" in (survey.assessment.withheld or "")


async def test_records_are_counted_and_grouped_by_a_field_they_have(app: App) -> None:
    counted = await ask(app, "How many failed inspections are there?", now=NOW)
    assert counted.kind == "answer", counted.answer
    assert counted.table is not None and counted.table.rows == [["3", "3"]], counted.table

    grouped = await ask(app, "How many inspections failed per site?", now=NOW)
    assert grouped.table is not None, grouped.answer
    assert sorted(row[0] for row in grouped.table.rows) == ["Lock 3", "North Quay", "Weir 2"]


async def test_a_word_after_per_that_is_no_field_does_not_group(app: App) -> None:
    result = await ask(app, "How many failed inspections are there, per the log?", now=NOW)
    assert result.table is not None, result.answer
    assert result.table.columns[0] != "the", result.table
    assert result.table.rows == [["3", "3"]], result.table


async def test_on_what_date_is_answered_with_the_date(app: App) -> None:
    result = await ask(app, "On what date did the pilot station at North Quay open?", now=NOW)
    assert result.kind == "answer", result.answer
    assert "3 March 2025" in result.answer


async def test_on_what_date_is_not_answered_by_a_passage_that_gives_no_date(app: App) -> None:
    # The River report says Lock 3 reopened "in October": a month, no date.
    result = await ask(app, "On what date did Lock 3 reopen after it was rebuilt?", now=NOW)
    assert result.kind == "uncertainty", result.answer
    assert result.assessment is not None and "no date" in (result.assessment.withheld or "")
