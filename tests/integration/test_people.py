"""Who holds a role, through the real product (issue 21: "Name: Role" facts answer "who").

Two agencies' strategic plans, written for this test: each names its head once, on a stakeholder
line, among pages that mention the role in prose.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bots.bootstrap import App, build_app
from bots.settings import Settings
from core.understanding import holds
from tests.asking import ask
from tests.pdf_documents import write_report

pytestmark = pytest.mark.model

NOW = dt.datetime(2026, 11, 25, 9, 0, tzinfo=dt.UTC)
PROSE = (
    "The Secretary sets the agency's priorities each year and reports on them to the board. The office "
    "of the Secretary coordinates the work of the divisions, and the Secretary's staff review every "
    "programme against its goals. Under this plan the divisions report to the Secretary twice a year."
)


def _plan(agency: str, head: str, role: str) -> str:
    leadership = "\n\n".join(f"# Leadership {n}\n\n{PROSE}" for n in range(1, 5))
    partners = " ".join(
        f"Contract {n} covers dredging, buoy upkeep and survey work on channel section {n}." for n in range(1, 30)
    )
    return (
        f"---\ntitle: {agency} Strategic Plan 2025-2029\ndate: 2025-03-01\n---\n\n{leadership}\n\n"
        f"# Contracts\n\n{partners}\nStakeholder(s):\n{head} : {role}\n{partners}\n"
    )


@pytest.fixture(scope="module")
async def app(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[App]:
    """The two plans, ingested once."""
    written = tmp_path_factory.mktemp("plans")
    (written / "harbor-plan.md").write_text(
        _plan("Harbor Agency", "Jane Q. Harlow", "Secretary, Harbor Agency"), encoding="utf-8"
    )
    (written / "river-plan.md").write_text(_plan("River Agency", "Tomas Verhoef", "Secretary"), encoding="utf-8")
    application = await build_app(Settings(data_dir=tmp_path_factory.mktemp("plans-data"), fixed_now=NOW))
    assert (await application.ingestor.ingest([written], collection="default")).ok
    yield application
    await application.close()


async def test_who_holds_a_role_is_answered_by_the_line_naming_them(app: App) -> None:
    result = await ask(app, "Who is the Secretary named in the Harbor Agency Strategic Plan?", now=NOW)
    assert result.kind == "answer", result.answer
    assert "Jane Q. Harlow" in result.answer
    assert "Tomas Verhoef" not in result.answer
    assert {c.title for c in result.citations} == {"Harbor Agency Strategic Plan 2025-2029"}


def test_a_title_in_capitals_is_not_a_name_when_the_text_writes_its_words_in_lower_case() -> None:
    common = frozenset({"acting", "director", "the", "of"})
    assert not holds("Since I became Acting Director of the office, we grew.", "person", common)
    assert holds("The plan was signed by Beth Cobert in March.", "person", common)


def _report(folder: Path, year: int, signature: list[str]) -> None:
    message = " ".join(
        f"In fiscal year {year} the agency's division {n} improved its service to harbour users and reported "
        f"its results to the board, which reviews the director's priorities every quarter."
        for n in range(1, 120)
    )
    results = " ".join(f"Measure {n} met its target of {80 + n % 10} percent in FY {year}." for n in range(1, 30))
    write_report(
        folder / f"report-{year}.pdf",
        title=f"Harbor Agency Annual Report FY {year}",
        sections=[("Message from the Director", message, signature), ("Results", results, [])],
    )


@pytest.mark.parametrize(
    "question",
    [
        "Who signed the director's message in the Harbor Agency FY 2025 annual report?",
        # The role is not named: "signed" finds the block, which says it was signed.
        "Who signed the message in the Harbor Agency FY 2025 annual report, and when?",
    ],
)
async def test_a_signature_block_answers_who_signed_and_when(
    tmp_path_factory: pytest.TempPathFactory, question: str
) -> None:
    """A message ends with its signer's name, title and date on lines of their own
    (`core.ingest.fields`): "who signed it?" is answered by that block, from the year asked."""
    written = tmp_path_factory.mktemp("reports")
    _report(written, 2024, ["Jane Q. Harlow", "Director", "March 3, 2025"])
    _report(written, 2025, ["Tomas Verhoef", "Acting Director", "February 9, 2026"])
    application = await build_app(Settings(data_dir=tmp_path_factory.mktemp("reports-data"), fixed_now=NOW))
    try:
        assert (await application.ingestor.ingest([written], collection="default")).ok
        result = await ask(application, question, now=NOW)
    finally:
        await application.close()
    assert result.kind == "answer", result.answer
    assert "Tomas Verhoef" in result.answer and "February 9, 2026" in result.answer, result.answer
    assert "Harlow" not in result.answer
    assert {c.title for c in result.citations} == {"Harbor Agency Annual Report FY 2025"}
