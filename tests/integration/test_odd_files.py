"""Ordinary files in other encodings go in and answer questions; a broken one is reported in words
(issue 22). Through the real product: the embedded index and the real embedding model."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from bots.bootstrap import build_app
from bots.settings import Settings
from tests.asking import ask

pytestmark = pytest.mark.model

NOW = dt.datetime(2026, 11, 25, 9, 0, tzinfo=dt.UTC)


async def test_utf16_and_windows_1252_files_answer_and_a_bad_csv_says_why(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "parking.txt").write_bytes(
        "Parking policy\n\nVisitors park in lot C, next to the café; employees park in lot A.\n".encode("utf-16")
    )
    (folder / "travel.txt").write_bytes(
        "Travel policy\n\nThe “hotel” limit is €180 a night – receipts are required.\n".encode("cp1252")
    )
    (folder / "stock.csv").write_text('sku,qty\nA1,4\nB2,"7\nC3,9\n', encoding="utf-8")
    app = await build_app(Settings(data_dir=tmp_path / "data", fixed_now=NOW))
    try:
        report = await app.ingestor.ingest([folder])
        assert sorted(Path(p).name for p in report.added) == ["parking.txt", "travel.txt"]
        (failed, reason), *_ = report.failed
        assert Path(failed).name == "stock.csv" and "quotes do not match" in reason and "Error" not in reason
        parking = await ask(app, "Where do visitors park?", now=NOW)
        assert parking.kind == "answer" and "lot C" in parking.answer
        hotel = await ask(app, "What is the hotel limit per night?", now=NOW)
        assert hotel.kind == "answer" and "€180" in hotel.answer
    finally:
        await app.close()
