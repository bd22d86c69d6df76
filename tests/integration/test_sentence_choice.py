"""Which sentence of the right document answers a "how many" question: the one that counts what it
asks about (real model, written documents).

Written for the test: a strategic plan whose title the question repeats, with a performance table's
column labels left on their own lines by the PDF, and sentences about the agency's pilots, of
which only one counts them; two others hold other figures (ships a year, a share of boardings).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import AsyncIterator

import pytest

from bots.bootstrap import App
from tests.asking import app_with_document, ask

pytestmark = pytest.mark.model

NOW = dt.datetime(2023, 8, 1, 9, 0, tzinfo=dt.UTC)
LABELS = "Performance Indicators Description Type Start Date End Date Target [To be determined] Actual"
PLAN = "\n\n".join(
    [
        "# Harbour Authority Strategic Plan Fiscal Years 2022-2026",
        "The Harbour Authority keeps the port's channels open and its piers safe for shipping.",
        "Dana Whitfield, Administrator, leads the Harbour Authority and its four regional offices.",
        *(f"{LABELS} {goal}.{n}." for goal in (1, 2, 3, 4) for n in (1, 2, 3)),
        "Dredging contracts are awarded each spring after a survey of the channels.",
        "The Authority will give its harbour pilots new simulators and more hours of training.",
        "Harbour pilots guide about 4,000 ships a year through the channels.",
        "The Authority's harbour pilots handled 96 percent of boardings within an hour of request.",
        "Across its four offices the workforce numbers 52 harbour pilots, 14 dredge crews and 310 other staff.",
    ]
)


@pytest.fixture(scope="module")
async def app(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[App]:
    async with app_with_document(tmp_path_factory, "harbour-plan-2022.md", PLAN + "\n", now=NOW) as application:
        yield application


async def test_how_many_is_answered_by_a_figure_of_what_it_counts(app: App) -> None:
    # Without the count, a sentence about the pilots that holds another figure ("96 percent of
    # boardings") led the answer: nearest in meaning, and a figure as "how many" asks.
    result = await ask(app, "How many harbour pilots does the Harbour Authority have?", now=NOW)
    assert result.kind == "answer", result.answer
    assert "52 harbour pilots" in result.answer.split("[1]", 1)[0], result.answer
