"""An aggregate over rows that hold no figure is no answer (issue 21), through the real product.

Written for the test: a plan whose "label: value" lines give goals, owners and start dates, and no
amount. "What is the total budget in the plan?" matches those rows by their words; summing them
gives nothing, and "Sum of value: – (from 18 rows)" is not an answer.
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
GOALS = [
    ("Secure borders", "CBP"),
    ("Protect cyberspace", "CISA"),
    ("Respond to disasters", "FEMA"),
    ("Train officers", "FLETC"),
    ("Guard ports", "USCG"),
    ("Screen travellers", "TSA"),
]


@pytest.fixture(scope="module")
async def app(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[App]:
    folder = tmp_path_factory.mktemp("plan")
    lines = ["# Homeland plan FY 2020", ""]
    for n, (goal, owner) in enumerate(GOALS, 1):
        lines += [f"Strategic Goal: {goal}", f"Owner: {owner}", f"Start Date: 2020-10-0{n}", ""]
    (folder / "plan.md").write_text("\n".join(lines), encoding="utf-8")
    application = await build_app(Settings(data_dir=tmp_path_factory.mktemp("plan-data"), fixed_now=NOW))
    report = await application.ingestor.ingest([folder])
    assert report.ok and len(report.added) == 1
    yield application
    await application.close()


@pytest.mark.parametrize(
    "question", ["What is the total budget in the homeland plan?", "What's the total strategic budget for FY 2020?"]
)
async def test_a_sum_of_rows_without_figures_is_not_an_answer(app: App, question: str) -> None:
    result = await ask(app, question, now=NOW)
    assert "Sum of" not in result.answer and "–" not in result.answer, result.answer
    assert result.kind == "uncertainty"
    # What was searched is said in words, not as the structured round's JSON filter.
    assert "Searched:" in result.answer and '{"' not in result.answer, result.answer
