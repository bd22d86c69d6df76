"""Each stage's parser accepts what it can use and rejects the rest with a reason (SPEC section 8)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from adapters.llm.factory import LlmConfigError, build_chat_models
from bots.settings import Settings, SettingsError
from core.contracts import Evidence
from core.prompts import clarification, reflection, reformulate, route, summary, synthesis
from core.prompts.common import source_block


def _evidence(n: int) -> Evidence:
    return Evidence(
        doc_id=f"d{n}",
        chunk_id=f"c{n}",
        text=f"Passage number {n}.",
        snippet=f"Passage number {n}.",
        title=f"Doc {n}",
        section="Rules",
        date=dt.date(2024, 1, n),
        collection="default",
        round_id=1,
        query="q",
        mode="hybrid",
        relevance=0.5,
    )


def test_route_json_in_a_code_fence_is_read_and_foreign_fallbacks_dropped() -> None:
    text = '```json\n{"route": "long_text", "fallbacks": ["structured", "hybrid", "hybrid"], "reason": "concept"}\n```'
    choice = route.parse(text, ["hybrid", "long_text"])
    assert (choice.route, choice.fallbacks, choice.reason) == ("long_text", ["hybrid"], "concept")


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("hybrid, because", "Expecting value"),
        ('["hybrid"]', "expected a JSON object"),
        ('{"route": "web", "reason": "x"}', "route"),
        ('{"route": "hybrid", "reason": ""}', "reason"),
        ('{"route": "structured", "reason": "rows"}', "was not offered"),
    ],
)
def test_route_replies_that_cannot_be_used_are_invalid(text: str, problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        route.parse(text, ["hybrid", "long_text"])


def test_route_prompt_carries_the_seed_fields() -> None:
    messages = route.messages(
        question="List receipts",
        summary="",
        intent="enumeration",
        coverage="annotation coverage 40%",
        health="embedded search: ok",
        offered=["structured", "hybrid"],
        suggested="structured",
        fallbacks=["hybrid"],
    )
    user = messages[1][1]
    assert messages[0] == ("system", route.SYSTEM)
    for line in (
        "Conversation summary: (new conversation)",
        "User question: List receipts",
        "Detected intent: enumeration",
        "Annotation coverage: annotation coverage 40%",
        "Tool health: embedded search: ok",
        "Routes offered: structured, hybrid",
    ):
        assert line in user


def test_synthesis_needs_one_citation_of_a_given_source() -> None:
    assert synthesis.parse("It is 20 weeks [2] and more [9].", 3) == "It is 20 weeks [2] and more [9]."
    with pytest.raises(ValueError, match="no valid citation"):
        synthesis.parse("It is 20 weeks [4].", 3)
    with pytest.raises(ValueError, match="no valid citation"):
        synthesis.parse("It is 20 weeks.", 3)
    with pytest.raises(ValueError, match="empty"):
        synthesis.parse("  ", 3)


def test_synthesis_drops_a_sources_list_the_model_adds() -> None:
    assert synthesis.parse("It is 20 weeks [1].\n\nSources:\n[1] Handbook", 1) == "It is 20 weeks [1]."


def test_sources_are_numbered_with_title_date_and_section() -> None:
    block = source_block([_evidence(1), _evidence(2)])
    assert block.startswith("[1] Doc 1 (2024-01-01, Rules)\nPassage number 1.")
    assert "\n\n[2] Doc 2 (2024-01-02, Rules)\nPassage number 2." in block
    prompt = synthesis.messages(question="What?", evidence=[_evidence(1)])[1][1]
    assert prompt.endswith("Question: What?")


def test_reflection_grades_must_lie_between_0_and_1() -> None:
    judged = reflection.parse('{"support_original": 0.8, "support_revised": 0.6, "missing": [" cost ", ""]}')
    assert (judged.support_original, judged.support_revised, judged.missing) == (0.8, 0.6, ["cost"])
    with pytest.raises(ValueError, match="less than or equal to 1"):
        reflection.parse('{"support_original": 1.5, "support_revised": 0.6}')
    with pytest.raises(ValueError, match="support_revised"):
        reflection.parse('{"support_original": 0.5}')


def test_a_reformulation_must_be_new() -> None:
    found = reformulate.parse('{"query": "  parental   leave ", "passage": "Parents get leave."}', ["leave weeks"])
    assert (found.query, found.passage) == ("parental leave", "Parents get leave.")
    with pytest.raises(ValueError, match="already searched"):
        reformulate.parse('{"query": "Leave Weeks"}', ["leave weeks"])


def test_a_summary_over_350_tokens_is_invalid() -> None:
    def count(texts: object) -> list[int]:
        return [len(str(t).split()) for t in texts]  # type: ignore[attr-defined]

    assert summary.parse(" Asked about leave. ", count) == "Asked about leave."
    with pytest.raises(ValueError, match="351 tokens"):
        summary.parse(" ".join(["word"] * 351), count)


def test_a_clarification_must_ask_and_keep_the_choices() -> None:
    assert clarification.parse("Which year: 2024 or 2025?", ["2024", "2025"]) == "Which year: 2024 or 2025?"
    with pytest.raises(ValueError, match="asks no question"):
        clarification.parse("Pick a year.", [])
    with pytest.raises(ValueError, match="drops the choices 2025"):
        clarification.parse("Which year, 2024?", ["2024", "2025"])


def test_the_factory_names_the_missing_setting() -> None:
    assert build_chat_models(provider="none", model=None) is None
    with pytest.raises(LlmConfigError, match="THREADWISE_LLM_MODEL"):
        build_chat_models(provider="openai", model=None, base_url="http://127.0.0.1:1/v1")
    with pytest.raises(LlmConfigError, match="THREADWISE_LLM_API_KEY"):
        build_chat_models(provider="openai", model="gpt-4o-mini")
    models = build_chat_models(provider="ollama", model="llama3.2", max_retries=0)
    assert models is not None and models.name == "ollama:llama3.2"


def test_a_wrong_llm_setting_stops_start_up_naming_it(tmp_path: Path) -> None:
    from bots.bootstrap import build_llm

    with pytest.raises(SettingsError, match="THREADWISE_LLM_MODEL: required when THREADWISE_LLM_PROVIDER=ollama"):
        build_llm(Settings(data_dir=tmp_path, llm_provider="ollama"))
