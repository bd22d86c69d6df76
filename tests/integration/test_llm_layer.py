"""The LLM layer against a real chat-completions server on loopback (SPEC section 8, issue 8).

The product is built as a user configures it (`THREADWISE_LLM_PROVIDER=openai` with a base URL);
the server is scripted per test. Every failure of the model must leave a correct turn.
"""

from __future__ import annotations

import datetime as dt
import json
import time
import uuid
from pathlib import Path
from typing import Any

import pytest

from bots.bootstrap import App, build_app
from bots.settings import Settings
from core.contracts import LlmStep, OrchestrationResult
from core.llm.gateway import CONTINUE
from tests.asking import ask
from tests.conftest import SAMPLE_CORPUS
from tests.llm_script import SOURCE
from tests.llm_server import ChatCompletionsServer, ChatRequest, Reply, following, overriding

pytestmark = pytest.mark.model

NOW = dt.datetime(2026, 11, 21, 9, 0, tzinfo=dt.UTC)
LEAVE = "How many weeks of parental leave do new parents get?"


@pytest.fixture(scope="module")
async def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample corpus, ingested once for the module (without an LLM: ingestion never uses one)."""
    folder = tmp_path_factory.mktemp("llm-layer")
    app = await build_app(Settings(data_dir=folder, fixed_now=NOW))
    try:
        for part, collection in (("handbook", "default"), ("policies", "default"), ("receipts", "finance")):
            report = await app.ingestor.ingest([SAMPLE_CORPUS / part], collection=collection)
            assert report.ok
    finally:
        await app.close()
    return folder


async def _app(data_dir: Path, server: ChatCompletionsServer | None = None, **llm: Any) -> App:
    settings: dict[str, Any] = {"data_dir": data_dir, "fixed_now": NOW}
    if server is not None:
        settings |= {
            "llm_provider": "openai",
            "llm_base_url": server.base_url,
            "llm_model": "scripted-model",
            "llm_timeout_s": 10.0,
            "llm_max_retries": 0,
        } | llm
    return await build_app(Settings(**settings))


async def _ask(app: App, text: str, thread: str | None = None) -> OrchestrationResult:
    return await ask(app, text, now=NOW, thread=thread)


async def _ask_once(
    data_dir: Path, server: ChatCompletionsServer | None, text: str = LEAVE, **llm: Any
) -> OrchestrationResult:
    """One question through a product built for it (`server=None`: no LLM, the deterministic path)."""
    app = await _app(data_dir, server, **llm)
    try:
        return await _ask(app, text)
    finally:
        await app.close()


def _step(result: OrchestrationResult, stage: str) -> LlmStep:
    return next(s for s in result.llm_steps if s.stage == stage)


def _paths(result: OrchestrationResult) -> dict[str, str]:
    return {step.stage: step.path for step in result.llm_steps}


async def test_routing_synthesis_and_reflection_go_through_the_model(
    data_dir: Path, server: ChatCompletionsServer
) -> None:
    def script(request: ChatRequest) -> Reply:
        replies = {
            "route": json.dumps({"route": "hybrid", "fallbacks": ["long_text"], "reason": "scripted router"}),
            "synthesis": "New parents get 20 weeks of paid parental leave [1].",
            "reflection": json.dumps({"support_original": 0.9, "support_revised": 0.8, "missing": []}),
            "summary": "The colleague asked about parental leave; the answer was 20 weeks.",
        }
        return Reply(content=replies[request.stage])

    server.script = script
    app = await _app(data_dir, server)
    try:
        result = await _ask(app, LEAVE)
        decisions = await app.storage.decisions.latest(1)
    finally:
        await app.close()
    assert result.route.route == "hybrid" and result.route.reason.startswith("LLM router: scripted router")
    assert result.answer.startswith("New parents get 20 weeks of paid parental leave [1].")
    assert [c.n for c in result.citations] == [1] and "Employee Handbook" in result.citations[0].title
    assert result.confidence == pytest.approx(0.7 * 0.9 + 0.3 * 0.8) and result.band == "high"
    assert _paths(result) == {"route": "llm", "synthesis": "llm", "reflection": "llm", "summary": "llm"}
    assert server.stages() == ["route", "synthesis", "reflection", "summary"]
    temperatures = {r.stage: r.body["temperature"] for r in server.requests}
    assert temperatures["route"] == 0 and temperatures["reflection"] == 0 and temperatures["synthesis"] == 0.2
    assert all(r.body["model"] == "scripted-model" for r in server.requests)
    assert decisions[-1].llm_steps == result.llm_steps
    # The JSON steps ask the server for JSON following their schema; prose steps do not.
    formats = {r.stage: r.body.get("response_format") for r in server.requests}
    assert formats["synthesis"] is None and formats["summary"] is None
    assert formats["route"]["json_schema"]["schema"]["properties"]["route"]["enum"] == [
        "structured",
        "hybrid",
        "long_text",
    ]
    assert formats["reflection"]["json_schema"]["schema"]["required"] == ["support_original", "support_revised"]


async def test_a_model_that_times_out_leaves_the_deterministic_answer(
    data_dir: Path, server: ChatCompletionsServer
) -> None:
    server.script = lambda request: Reply(content="too late", delay_s=3.0)
    expected = await _ask_once(data_dir, None)
    result = await _ask_once(data_dir, server, llm_timeout_s=0.3)
    assert result.answer == expected.answer and result.route == expected.route
    assert [c.chunk_id for c in result.citations] == [c.chunk_id for c in expected.citations]
    assert result.confidence == expected.confidence and "20 weeks" in result.answer
    assert [s.stage for s in result.llm_steps] == ["route", "synthesis", "reflection", "summary"]
    assert all(s.path == "deterministic" for s in result.llm_steps)
    # One timeout, then the model is skipped for the cool-down instead of timing out at every step.
    assert result.llm_steps[0].reason == "timed out after 0.3 s" and len(server.requests) == 1
    assert all(s.reason.startswith("skipped: the model failed") for s in result.llm_steps[1:])
    assert all("(timed out after 0.3 s)" in s.reason for s in result.llm_steps[1:])


async def test_invalid_json_from_the_router_falls_back_to_the_rules(
    data_dir: Path, server: ChatCompletionsServer
) -> None:
    server.script = overriding("route", Reply(content="I would pick the hybrid route, it seems best."))
    expected = await _ask_once(data_dir, None)
    result = await _ask_once(data_dir, server)
    route_step = _step(result, "route")
    assert route_step.path == "deterministic" and route_step.reason.startswith("invalid output")
    assert result.route == expected.route
    assert _paths(result)["synthesis"] == "llm" and result.kind == "answer"


async def test_a_route_that_was_not_offered_is_invalid(data_dir: Path, server: ChatCompletionsServer) -> None:
    server.script = overriding("route", Reply(content='{"route": "structured", "fallbacks": [], "reason": "rows"}'))
    result = await _ask_once(data_dir, server, "Why must laptops use full-disk encryption?")
    route_step = _step(result, "route")
    assert route_step.path == "deterministic" and "'structured' was not offered" in route_step.reason
    assert result.route.route != "structured"


async def test_a_citation_of_a_source_not_given_is_removed(data_dir: Path, server: ChatCompletionsServer) -> None:
    server.script = overriding(
        "synthesis", Reply(content="New parents get 20 weeks of leave [1]. A further 12 weeks are unpaid [7].")
    )
    result = await _ask_once(data_dir, server)
    assert result.kind == "answer" and "[7]" not in result.answer
    assert result.answer.startswith("New parents get 20 weeks of leave [1].")
    assert [c.n for c in result.citations] == [1]


async def test_an_answer_that_states_nothing_its_sources_say_falls_back_to_the_extract(
    data_dir: Path, server: ChatCompletionsServer
) -> None:
    """SmolLM2-135M wrote the source list back, or a figure no source has, with valid markers."""
    expected = await _ask_once(data_dir, None)
    for written in (
        "Grandparents get 52 weeks [1].",
        "The source is: [1] Brightfield Energy Employee Handbook (2025-01-15, Leave > Parental leave)",
    ):
        server.script = overriding("synthesis", Reply(content=written))
        result = await _ask_once(data_dir, server)
        step = _step(result, "synthesis")
        assert step.path == "deterministic" and step.reason.startswith("invalid output"), step.reason
        assert result.answer == expected.answer


async def test_an_answer_with_no_valid_citation_falls_back_to_the_extract(
    data_dir: Path, server: ChatCompletionsServer
) -> None:
    server.script = overriding("synthesis", Reply(content="New parents get 20 weeks of leave [9]."))
    expected = await _ask_once(data_dir, None)
    result = await _ask_once(data_dir, server)
    step = _step(result, "synthesis")
    assert step.path == "deterministic" and "no valid citation" in step.reason
    assert result.answer.split("\n")[0] == expected.answer.split("\n")[0]
    assert result.citations and "[9]" not in result.answer


async def test_an_answer_cut_for_length_is_continued(data_dir: Path, server: ChatCompletionsServer) -> None:
    partial = "New parents get 20 weeks of paid parental leave [1]. After that"

    def script(request: ChatRequest) -> Reply:
        if request.stage == "synthesis" and request.messages[-1][1] == CONTINUE:
            assert request.messages[-2] == ("ai", partial)
            return Reply(content=" 12 more weeks may be unpaid [1].")
        if request.stage == "synthesis":
            return Reply(content=partial, finish_reason="length")
        return following(request)

    server.script = script
    result = await _ask_once(data_dir, server)
    assert result.answer.startswith("New parents get 20 weeks of paid parental leave [1]. After that 12 more weeks")
    assert server.stages().count("synthesis") == 2


async def test_a_cut_answer_that_cites_nothing_is_not_continued(data_dir: Path, server: ChatCompletionsServer) -> None:
    server.script = overriding("synthesis", Reply(content="New parents get 20 weeks", finish_reason="length"))
    expected = await _ask_once(data_dir, None)
    result = await _ask_once(data_dir, server)
    assert server.stages().count("synthesis") == 1  # no second generation for an answer that would be rejected
    step = _step(result, "synthesis")
    assert step.path == "deterministic" and "no valid citation" in step.reason
    assert result.answer.split("\n")[0] == expected.answer.split("\n")[0]


async def test_server_errors_are_retried_then_fall_back(data_dir: Path, server: ChatCompletionsServer) -> None:
    server.script = lambda request: Reply(status=503)
    expected = await _ask_once(data_dir, None)
    result = await _ask_once(data_dir, server, llm_max_retries=1)
    assert result.answer == expected.answer
    # The first step asked twice (the attempt and one retry); the rest skip the failing model.
    assert len(server.requests) == 2
    assert all(s.path == "deterministic" and "Error code: 503" in s.reason for s in result.llm_steps)
    assert all(s.reason.startswith("skipped") for s in result.llm_steps[1:])


async def test_an_overflow_clarification_is_worded_by_the_model_only_when_it_keeps_the_choices_and_adds_nothing(
    data_dir: Path, server: ChatCompletionsServer
) -> None:
    worded: list[str] = []

    def script(request: ChatRequest) -> Reply:
        if request.stage != "clarification":
            return following(request)
        draft = request.messages[1][1].split("Draft reply:\n", 1)[1]
        worded.append(draft)
        if len(worded) == 1:
            return Reply(content="There are too many receipts. Which one do you mean?")
        if len(worded) == 2:  # the choices kept, and counts added that the draft does not have
            return Reply(content="I found 420 receipts. Which year? 2021 (86), 2025 (160), 2025 (180)? " + draft)
        return Reply(content="I found 420 receipts, more than fit here. " + draft.split(". ", 1)[1])

    server.script = script
    app = await _app(data_dir, server)
    try:
        dropped = await _ask(app, "List all receipts")
        added = await _ask(app, "List all receipts")
        kept = await _ask(app, "List all receipts")
    finally:
        await app.close()
    assert dropped.kind == "clarification" and dropped.answer == worded[0]
    step = _step(dropped, "clarification")
    assert step.path == "deterministic" and "drops the choices" in step.reason
    assert added.answer == worded[1] and "a number or name" in _step(added, "clarification").reason
    assert kept.answer.startswith("I found 420 receipts, more than fit here.") and "2024" in kept.answer
    assert _paths(kept)["clarification"] == "llm"


async def test_the_summary_is_the_models_and_the_router_reads_it(data_dir: Path, server: ChatCompletionsServer) -> None:
    app = await _app(data_dir, server)
    thread = uuid.uuid4().hex
    try:
        await _ask(app, LEAVE, thread)
        await _ask(app, "What are the core hours?", thread)
    finally:
        await app.close()
    routes = [r for r in server.requests if r.stage == "route"]
    assert "Conversation summary: (new conversation)" in routes[0].messages[1][1]
    assert f"Asked: {LEAVE}" in routes[1].messages[1][1]


async def test_the_judge_reads_the_sources_numbered_as_the_answer_cites_them(
    data_dir: Path, server: ChatCompletionsServer
) -> None:
    sources: dict[int, str] = {}

    def script(request: ChatRequest) -> Reply:
        if request.stage != "synthesis":
            return following(request)
        for match in SOURCE.finditer(request.messages[1][1].split("\n\nQuestion: ")[0].removeprefix("Sources:\n")):
            sources[int(match.group(1))] = match.group(2).strip()
        # Cites the second source first: validation renumbers it [1].
        return Reply(content=f"{sources[2].split('.')[0]} [2]. {sources[1].split('.')[0]} [1].")

    server.script = script
    result = await _ask_once(data_dir, server, "Compare the hotel limits of the 2022 and 2024 travel policies")
    assert result.answer.startswith(sources[2].split(".")[0] + " [1].")
    judged = next(r for r in server.requests if r.stage == "reflection").messages[1][1]
    cited = judged.split("Cited sources:\n", 1)[1]
    assert cited.split("\n", 1)[1].startswith(sources[2][:60])
    assert "\n\n[2] " in cited and cited.split("\n\n[2] ", 1)[1].split("\n", 1)[1].startswith(sources[1][:60])


async def test_the_model_never_sees_personal_data(data_dir: Path, server: ChatCompletionsServer) -> None:
    result = await _ask_once(
        data_dir, server, "My card 4111 1111 1111 1111 was declined: what is the hotel limit in 2024?"
    )
    assert result.kind == "answer" and {"route", "synthesis", "summary"} <= {s.stage for s in result.llm_steps}
    sent = json.dumps([r.body for r in server.requests])
    assert server.requests and "4111" not in sent and "1111 1111" not in sent


async def test_a_slow_model_finishes_the_turn_within_its_budget(data_dir: Path, server: ChatCompletionsServer) -> None:
    # Each call takes 3 s: route and synthesis fit in the 9 s budget with up to 3 s left for the turn's
    # own work between them (retrieval, on two loaded cores); reflection does not.
    server.script = lambda request: Reply(content=following(request).content, delay_s=3.0)
    app = await _app(data_dir, server, llm_timeout_s=5.0, llm_turn_budget_s=9.0)
    try:
        started = time.monotonic()
        result = await _ask(app, LEAVE)
        took = time.monotonic() - started
    finally:
        await app.close()
    assert took < 9.0 + 2.0  # the budget, plus the turn's own work
    assert result.kind == "answer" and "[1]" in result.answer and result.citations
    assert _paths(result) == {
        "route": "llm",
        "synthesis": "llm",
        "reflection": "deterministic",
        "summary": "deterministic",
    }
    assert _step(result, "reflection").reason.startswith("the turn's model budget (9 s) ran out")
    assert _step(result, "summary").reason == "skipped: the turn's model budget (9 s) is spent"
    assert server.stages() == ["route", "synthesis", "reflection"]


async def test_a_summary_that_invents_a_fact_is_not_kept(data_dir: Path, server: ChatCompletionsServer) -> None:
    invented = "The 1998 World Cup was won by the United States."
    server.script = overriding("summary", Reply(content=invented))
    app = await _app(data_dir, server)
    try:
        first = await _ask(app, "Who won the 1998 World Cup?", thread="t-cup")
        assert first.kind in ("uncertainty", "refusal")
        step = _step(first, "summary")
        assert step.path == "deterministic" and step.reason.startswith("ungrounded")
        assert "summary" in first.timings  # the summary step's time is in the turn's timings
        stored = (await app.storage.decisions.latest(1))[-1]
        assert stored.timings["summary"] == first.timings["summary"]
        asked_before = len(server.requests)
        await _ask(app, LEAVE, thread="t-cup")
    finally:
        await app.close()
    later = server.requests[asked_before:]
    assert later and not any("United States" in text for r in later for _, text in r.messages)


async def test_a_judgement_that_names_nothing_the_sources_lack_is_not_taken(
    data_dir: Path, server: ChatCompletionsServer
) -> None:
    """SmolLM2-135M echoed the prompt's example: support 0, missing ["..."] — for an answered question."""
    echo = json.dumps({"support_original": 0.0, "support_revised": 0.0, "missing": ["..."]})
    server.script = overriding("reflection", Reply(content=echo))
    result = await _ask_once(data_dir, server)
    step = _step(result, "reflection")
    assert step.path == "deterministic" and "without naming a part of the question" in step.reason
    assert result.kind == "answer" and "20 weeks" in result.answer

    # Naming as missing what the cited text says ("parental leave") is not a judgement either.
    said = json.dumps({"support_original": 0.1, "support_revised": 0.1, "missing": ["parental leave"]})
    server.script = overriding("reflection", Reply(content=said))
    result = await _ask_once(data_dir, server)
    assert _step(result, "reflection").path == "deterministic" and result.kind == "answer"

    # A part of the question the sources do lack stands, and lowers the grade as the model says.
    lacking = json.dumps({"support_original": 0.1, "support_revised": 0.1, "missing": ["paid by the state"]})
    server.script = overriding("reflection", Reply(content=lacking))
    result = await _ask_once(data_dir, server, text="Are new parents paid by the state during parental leave?")
    assert _step(result, "reflection").path == "llm" and result.kind == "uncertainty"
