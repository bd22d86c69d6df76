"""One `AnswerWriter` and one turn for the tests that call its support gate directly."""

from __future__ import annotations

import datetime as dt

from core.calibration import Calibration
from core.contracts import Turn
from core.llm.gateway import LlmGateway
from core.orchestrator.answer import AnswerWriter
from tests.fakes import HashingEmbedder

WRITER = AnswerWriter(embedder=HashingEmbedder(), calibration=Calibration(model="test"), llm=LlmGateway())
TURN = Turn(
    platform="cli",
    tenant="t",
    channel_key="c",
    thread="th",
    message_key="m1",
    user="u",
    text="liftoff in dec 2015 - what range did they move the FFR to",
    received_at=dt.datetime(2026, 1, 1, tzinfo=dt.UTC),
)
