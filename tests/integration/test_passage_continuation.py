"""A passage read on past the end of its segment: the sentence that answers opens the next segment,
which the search did not find (real model, a document written for the test).

Written for the test: an enforcement plan whose first passage, about settlements, ends "… will require
three kinds of compliance terms:", a cut the segmenter makes at the model's length; the terms open
the next segment, which goes on about the laboratory and ranks low for the question.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import AsyncIterator

import pytest

from bots.bootstrap import App
from tests.asking import app_with_document, ask

pytestmark = pytest.mark.model

NOW = dt.datetime(2024, 6, 1, 9, 0, tzinfo=dt.UTC)
PLAN = "\n\n".join(
    [
        "# Riverside Water Authority Enforcement Plan 2024",
        "The Riverside Water Authority enforces the permits of the forty-two treatment plants that discharge into the river. Inspectors visit each plant twice a year, sample its outflow, and check its records against the limits in its permit. When a plant exceeds a limit, the Authority first issues a notice and gives the operator thirty days to correct the problem. Plants that do not correct the problem in time face an enforcement action, which ends in most cases in a negotiated settlement rather than in court. A settlement recovers the penalty the permit sets for each day of violation, but the Authority's enforcement goes beyond recovering penalties. Its settlements seek lasting changes in how a plant is run, so that the same violation does not happen again. Over the last five years the Authority has concluded one hundred and twelve settlements, and repeat violations at settled plants have fallen by half. To make those changes last, every settlement under this plan will require three kinds of compliance terms:",
        "Advanced monitoring, independent third-party verification and electronic reporting of outflow data. The Authority's laboratory moved to a new building on Mill Street in the spring, and its staff of nineteen chemists now run samples six days a week. The laboratory's budget for the year is four million dollars, most of it for staff and equipment. Its new mass spectrometer shortens the time from sampling to result from ten days to three. The building also houses the training centre, where new inspectors spend their first six weeks. The training centre runs courses on sampling, safety and record keeping, and it is open to the operators of the treatment plants as well. Operators who complete the course receive a certificate that their permits recognise. Last year two hundred and forty operators took the course, more than in any earlier year. The centre plans to add an online version of the course next spring.",
        "The Authority's board meets on the first Tuesday of each month in the council chamber. Its seven members are appointed by the county for terms of four years. Meetings are open to the public, and the minutes are posted on the Authority's website within a week. The board approves the annual budget, the enforcement plan and every settlement above one hundred thousand dollars. It also hears appeals from plant operators who dispute a notice. In the last year the board heard nine appeals and upheld the Authority's notice in seven of them. The board's chair, Marta Okafor, has served since 2019. The board publishes an annual report each March that sets out the year's inspections, notices, settlements and appeals.",
        "The river itself is monitored at eleven stations from the reservoir to the estuary. Each station measures temperature, dissolved oxygen and turbidity every fifteen minutes and sends the readings to the Authority's control room. Summer readings of dissolved oxygen have improved at nine of the eleven stations since 2015. Two stations below the paper mill still fall short of the target in dry summers. The Authority works with the mill on a plan to cool its outflow before it reaches the river. Fish surveys in the autumn counted more trout than in any year since the surveys began. Anglers report the same, and the river's fishing season was extended by two weeks.",
    ]
)
TERMS = "Advanced monitoring, independent third-party verification and electronic reporting of outflow data."


@pytest.fixture(scope="module")
async def app(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[App]:
    async with app_with_document(tmp_path_factory, "enforcement-plan-2024.md", PLAN + "\n", now=NOW) as application:
        yield application


async def test_the_sentence_a_colon_announces_is_read_from_the_next_segment(app: App) -> None:
    result = await ask(
        app, "What kinds of compliance terms will every settlement under the enforcement plan require?", now=NOW
    )
    assert result.kind == "answer", result.answer
    announced = result.answer.index("three kinds of compliance terms:")
    assert result.answer.index(TERMS) > announced, result.answer
    # the terms are cited as what they are: the document's next segment, not the one found
    cited = {c.chunk_id.rsplit(":", 1)[1] for c in result.citations}
    assert {"0", "1"} <= cited, result.citations
