"""A model may override the rule-based route only for a reason drawn from the question (issue 23).

SmolLM2-135M overrode the router on three turns in four, with the reason "no"; every behaviour-set
case it lost followed such an override. The product runs against a scripted chat-completions server.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest

from bots.bootstrap import build_app
from bots.settings import Settings
from core.contracts import OrchestrationResult
from tests.asking import ask
from tests.conftest import SAMPLE_CORPUS
from tests.llm_server import ChatCompletionsServer, ChatRequest, Reply

pytestmark = pytest.mark.model

NOW = dt.datetime(2026, 11, 25, 9, 0, tzinfo=dt.UTC)
LEAVE = "How many weeks of parental leave do new parents get?"


@pytest.fixture(scope="module")
async def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("llm-route")
    app = await build_app(Settings(data_dir=folder, fixed_now=NOW))
    try:
        assert (await app.ingestor.ingest([SAMPLE_CORPUS / "handbook"], collection="default")).ok
    finally:
        await app.close()
    return folder


async def _ask(data_dir: Path, server: ChatCompletionsServer | None, reason: str) -> OrchestrationResult:
    """LEAVE asked with a model that always chooses `long_text` for `reason` (no model: `server=None`)."""
    settings: dict[str, Any] = {"data_dir": data_dir, "fixed_now": NOW}
    if server is not None:

        def script(request: ChatRequest) -> Reply:
            if request.stage == "route":
                return Reply(content=json.dumps({"route": "long_text", "fallbacks": ["hybrid"], "reason": reason}))
            return Reply(content="no")  # every other step falls back: only the route is under test

        server.script = script
        settings |= {"llm_provider": "openai", "llm_base_url": server.base_url, "llm_model": "m", "llm_max_retries": 0}
    app = await build_app(Settings(**settings))
    try:
        return await ask(app, LEAVE, now=NOW)
    finally:
        await app.close()


async def test_an_override_whose_reason_names_nothing_asked_leaves_the_rule_route(
    data_dir: Path, server: ChatCompletionsServer
) -> None:
    rule = await _ask(data_dir, None, "")
    assert rule.route.route == "hybrid"  # the premise: the model's choice is an override
    result = await _ask(data_dir, server, "no")
    step = next(s for s in result.llm_steps if s.stage == "route")
    assert step.path == "deterministic" and "naming none of" in step.reason and "'no'" in step.reason
    assert result.route == rule.route and result.answer == rule.answer and "20 weeks" in result.answer


async def test_an_override_that_says_why_from_the_question_is_followed(
    data_dir: Path, server: ChatCompletionsServer
) -> None:
    result = await _ask(data_dir, server, "parental leave is a policy explained in prose")
    step = next(s for s in result.llm_steps if s.stage == "route")
    assert step.path == "llm" and result.route.route == "long_text"
    assert result.route.reason.startswith("LLM router: parental leave is a policy")
