"""Follow-ups over the sample corpus's spec sheets, whose names no facet resolves (the product is in
the title): "same question for the SunPeak 550" is the last question about that product."""

from __future__ import annotations

import datetime as dt
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bots.bootstrap import App, build_app
from bots.settings import Settings
from tests.asking import ask
from tests.conftest import SAMPLE_CORPUS

pytestmark = pytest.mark.model

NOW = dt.datetime(2026, 11, 25, 9, 0, tzinfo=dt.UTC)


@pytest.fixture(scope="module")
async def app(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[App]:
    application = await build_app(Settings(data_dir=tmp_path_factory.mktemp("specs-data"), fixed_now=NOW))
    assert (await application.ingestor.ingest([SAMPLE_CORPUS / "specs"])).ok
    yield application
    await application.close()


@pytest.mark.parametrize(
    ("follow_up", "file", "figure"),
    [
        ("same question for the SunPeak 550", "sunpeak-550-spec-sheet.md", "32.6 kg"),
        ("and the BrightRoof Compact?", "brightroof-compact-spec-sheet.md", "39.7 lb"),
    ],
)
async def test_same_question_for_another_product(app: App, follow_up: str, file: str, figure: str) -> None:
    thread = f"specs-{follow_up}"
    first = await ask(app, "How much does the SunPeak 400 weigh?", now=NOW, thread=thread)
    assert "21.5 kg" in first.answer
    result = await ask(app, follow_up, now=NOW, thread=thread)
    assert result.kind == "answer", result.answer
    records = {r.doc_id: Path(r.source_path).name for r in await app.storage.registry.list_documents()}
    assert file in {records[c.doc_id] for c in result.citations}
    assert figure in result.answer and "21.5 kg" not in result.answer
