"""One `AnswerWriter` and one turn for the tests that call its support gate directly."""

from __future__ import annotations

import datetime as dt

from core.calibration import Calibration
from core.contracts import ExecutionPlan, RouteDecision, RouteName, Turn
from core.llm.gateway import LlmGateway
from core.orchestrator.answer import AnswerWriter
from core.orchestrator.state import GraphState
from core.orchestrator.steering import Steering
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


def gate_reason(
    question: str, cited: str, *, route: RouteName = "hybrid", answer: str | None = None, mentions: tuple[str, ...] = ()
) -> str | None:
    """Why the support gate withholds `answer` (else the cited text) to `question`, or None: the
    measures read with full support and coverage."""
    plan = ExecutionPlan(original_query=question, revised_query=question)
    state = GraphState(
        turn=TURN,
        plan=plan,
        route=RouteDecision(route=route, reason="test", intent="numeric_lookup"),
        steering=Steering(mentions=list(mentions)),
    )
    return WRITER._gate(0.9, 0.9, [], state, (cited if answer is None else answer, cited), {"c1"})
