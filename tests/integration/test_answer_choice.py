"""Which sentence answers, and from which dated document (issue 12), through the real product.

Three dated statements of a fictitious rate committee, written for this test: a vote with a
dissent, a rate that changes over time, and nothing after July 2025.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import AsyncIterator

import pytest

from bots.bootstrap import App, build_app
from bots.settings import Settings
from core.contracts import OrchestrationResult
from tests.asking import ask

pytestmark = pytest.mark.model

NOW = dt.datetime(2026, 11, 21, 9, 0, tzinfo=dt.UTC)
STATEMENTS = {
    "2025-03-12": (
        "The Rate Committee decided today to raise the deposit rate to 2.25 percent. Inflation has stayed above "
        "the target for a year, and wages are rising quickly. Voting for the decision were: Anna K. Berg, Chair; "
        "Tomas J. Lind; and Mia R. Holm. Voting against was Per Nystrom, who preferred to keep the rate "
        "unchanged. The next meeting will be held on 14 May 2025."
    ),
    "2025-05-14": (
        "The Rate Committee decided today to keep the deposit rate at 2.25 percent. Inflation is easing slowly. "
        "All members voted for the decision. The next meeting will be held on 9 July 2025."
    ),
    "2025-07-09": (
        "The Rate Committee decided today to lower the deposit rate to 2.00 percent. Inflation is close to the "
        "target and demand has weakened. Voting for the decision were: Anna K. Berg, Chair; Tomas J. Lind; and "
        "Per Nystrom. Voting against was Mia R. Holm, who preferred a cut to 1.75 percent."
    ),
}


@pytest.fixture(scope="module")
async def app(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[App]:
    """The three statements, ingested once."""
    written = tmp_path_factory.mktemp("statements")
    for day, text in STATEMENTS.items():
        front = f"---\ntitle: Rate Committee statement {day}\ndate: {day}\n---\n\n"
        (written / f"statement-{day}.md").write_text(front + text + "\n", encoding="utf-8")
    application = await build_app(Settings(data_dir=tmp_path_factory.mktemp("statements-data"), fixed_now=NOW))
    assert (await application.ingestor.ingest([written], collection="default")).ok
    yield application
    await application.close()


async def _ask(app: App, text: str) -> OrchestrationResult:
    return await ask(app, text, now=NOW)


async def test_who_voted_against_is_answered_by_the_sentence_naming_the_dissenter(app: App) -> None:
    result = await _ask(app, "Who voted against the decision on 12 March 2025?")
    assert result.kind == "answer", result.answer
    assert "Per Nystrom" in result.answer
    assert {c.title for c in result.citations} == {"Rate Committee statement 2025-03-12"}


async def test_the_current_figure_comes_from_the_newest_statement_only(app: App) -> None:
    result = await _ask(app, "What is the current deposit rate?")
    assert result.kind == "answer", result.answer
    assert "2.00 percent" in result.answer and "2.25 percent" not in result.answer
    assert {c.title for c in result.citations} == {"Rate Committee statement 2025-07-09"}


async def test_dates_after_the_newest_document_are_not_answered_from_older_ones(app: App) -> None:
    result = await _ask(app, "What did the Rate Committee decide in September 2025?")
    assert (result.kind, result.branch, result.citations) == ("uncertainty", "EMPTY_SET", [])
    assert "2025-07-09" in result.answer
    assert [r.tool for r in result.retrieval_report] == ["none"]


async def test_current_reads_the_newest_of_differently_titled_documents(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """Not versions of one title (those the newest-version rule already settles): press releases."""
    written = tmp_path_factory.mktemp("releases")
    releases = {
        "2025-03-12": ("Committee raises the deposit rate", "2.25"),
        "2025-07-09": ("Deposit rate lowered after a weak quarter", "2.00"),
    }
    for day, (title, rate) in releases.items():
        text = f"---\ntitle: {title}\ndate: {day}\n---\n\nThe Rate Committee set the deposit rate at {rate} percent.\n"
        (written / f"release-{day}.md").write_text(text, encoding="utf-8")
    application = await build_app(Settings(data_dir=tmp_path_factory.mktemp("releases-data"), fixed_now=NOW))
    try:
        assert (await application.ingestor.ingest([written], collection="default")).ok
        result = await _ask(application, "What is the current deposit rate?")
    finally:
        await application.close()
    assert result.kind == "answer", result.answer
    assert "2.00 percent" in result.answer and "2.25 percent" not in result.answer


MINUTES = (
    "The Monetary Council met on 14 October 2025 to review the economy and set the policy rate. "
    "In October 2025 the Council also voted to cut the number of its regular meetings from eight to six. "
    "Members noted that household spending had slowed over the summer and that exports had weakened. "
    "The Council voted unanimously to keep the swap lines with neighbouring central banks open. "
    "The vote on the minutes of the September meeting was unanimous. "
    "Several members voted earlier in the year for a faster cut in the reserve requirement. "
    "After a long discussion of the outlook, the decision was to lower the policy rate by 50 basis points "
    "to 3.25 percent. "
    "Members expected inflation to return to the target within two years. "
    "Voting for the decision to cut were: Ada Lund, Chair; Bo Ekman; Cleo Sand; and Dag Holt. "
    "Voting against was Lena Fors, who preferred a smaller move. "
    "The Council will publish its next forecast in December."
)


async def test_each_part_of_a_two_part_question_gets_its_sentence(tmp_path_factory: pytest.TempPathFactory) -> None:
    """ "How far did they cut, and who voted against?" asks two things. The sentences nearest the
    whole question are the votes and the other things the Council voted to cut; the rate decision
    is not among them (`core.understanding.question_parts`)."""
    written = tmp_path_factory.mktemp("council")
    front = "---\ntitle: Monetary Council minutes October 2025\ndate: 2025-10-14\n---\n\n"
    (written / "minutes-2025-10.md").write_text(front + MINUTES + "\n", encoding="utf-8")
    application = await build_app(Settings(data_dir=tmp_path_factory.mktemp("council-data"), fixed_now=NOW))
    try:
        assert (await application.ingestor.ingest([written], collection="default")).ok
        result = await _ask(application, "How far did the Council cut the rate in October 2025, and who voted against?")
    finally:
        await application.close()
    assert result.kind == "answer", result.answer
    assert "3.25 percent" in result.answer and "Lena Fors" in result.answer, result.answer
