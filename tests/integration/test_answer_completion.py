"""An answer completed from its own passage: the sentence next to one the answer chose, which writes
what else the question asks, though read alone it ranks low (real model, a document written for the
test).

Written for the test: a harbour board's minutes where tenants cut excess capacity "notably in container
storage and passenger-related services", and the short sentence after it gives the exceptions; the
question states the first and asks for the second.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import AsyncIterator

import pytest

from bots.bootstrap import App
from tests.asking import app_with_document, ask

pytestmark = pytest.mark.model

NOW = dt.datetime(2023, 6, 1, 9, 0, tzinfo=dt.UTC)
MINUTES = "\n\n".join(
    [
        "# Harbour Board Minutes, March 2023",
        "## Business conditions",
        "According to reports from shipping agents, confidence among the port's tenants had worsened considerably since late summer in the context of a deteriorating outlook for cargo and earnings. Tenants were continuing to cut back their warehouse space to adjust to faltering demand and to pare excess stocks. In these circumstances, tenants were likely to persist in their efforts to reduce what they viewed as excess capacity, notably in container storage and passenger-related services. Some exceptions related to the expansion of cold-storage sheds and ferry terminals. Rents for warehouse space fell for the third quarter in a row, and vacancy rates rose at both of the port's industrial estates. Spending by tenants on new equipment was expected to decline further in coming quarters, though at a slower pace than in the autumn.",
        "The board's staff expected cargo volumes to fall slightly in the first half of the year and to recover gradually thereafter. Container traffic had declined for five months, reflecting weaker demand for imported goods and the loss of two shipping lines to a rival port. Bulk cargo held up better, supported by grain exports and by the steady flow of building materials for the new bypass. Passenger traffic on the ferries was little changed from a year earlier. The staff noted that the outlook was unusually uncertain, and that a further loss of shipping lines would weigh on the port's revenue for several years.",
        "## Finances",
        "Revenue from berth fees fell 4 percent in the year to February, and revenue from warehouse rents fell 6 percent. Operating costs rose 3 percent, largely because of higher fuel prices for the tugs and pilot boats and higher insurance premiums. The board's reserves remained ample, and its credit rating was unchanged. Members agreed that the budget for the coming year should hold spending on maintenance steady while deferring the new office building.",
        "## Decision",
        "Members agreed to leave berth fees unchanged for the coming season. Most members judged that a fee increase would risk losing further shipping lines at a time when tenants were reducing capacity. One member preferred a small increase to protect the board's reserves. The board will review fees again in September.",
    ]
)
EXCEPTIONS = "Some exceptions related to the expansion of cold-storage sheds and ferry terminals."


@pytest.fixture(scope="module")
async def app(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[App]:
    async with app_with_document(
        tmp_path_factory, "harbour-board-minutes-2023-03.md", MINUTES + "\n", now=NOW
    ) as application:
        yield application


async def test_the_sentence_next_to_a_chosen_one_that_writes_what_else_is_asked_completes_the_answer(app: App) -> None:
    result = await ask(
        app,
        "March 2023 harbour board minutes - tenants were trimming excess capacity in container storage and "
        "passenger services. what were the exceptions?",
        now=NOW,
    )
    assert result.kind == "answer", result.answer
    assert EXCEPTIONS in result.answer, result.answer
    # read in the document's order, after the sentence it completes
    assert result.answer.index(EXCEPTIONS) > result.answer.index("notably in container storage"), result.answer
