"""`serve` logs JSON lines: the per-turn structlog line and the libraries' stdlib warnings alike."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator

import pytest
import structlog

from bots.logs import configure_logging


@pytest.fixture
def restored() -> Iterator[None]:
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    yield
    root.handlers[:] = handlers
    root.setLevel(level)
    logging.getLogger("threadwise").setLevel(logging.NOTSET)
    structlog.reset_defaults()


def test_turn_lines_and_library_warnings_are_json(restored: None) -> None:
    stream = io.StringIO()
    configure_logging(stream=stream)
    structlog.get_logger("threadwise.turns").info("turn", reference="slack:T1:C1:1.0", outcome="answer")
    logging.getLogger("slack_bolt").warning("a %s warning", "library")
    logging.getLogger("slack_bolt").info("chatter that stays out")
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    assert [line["event"] for line in lines] == ["turn", "a library warning"]
    assert lines[0]["reference"] == "slack:T1:C1:1.0" and lines[0]["level"] == "info"
    assert lines[0]["logger"] == "threadwise.turns" and lines[0]["timestamp"].endswith("Z")
    assert lines[1]["level"] == "warning" and lines[1]["logger"] == "slack_bolt"
