"""The Slack renderer: every outcome kind as Block Kit, escaped, within Slack's limits."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
from typing import Any

from bots.presentation import table_csv
from bots.slack import render
from core.contracts import (
    Citation,
    ConfidenceSummary,
    ContextPacket,
    ExecutionPlan,
    NextAction,
    OrchestrationResult,
    ReplyKind,
    RouteDecision,
    TableResult,
    Turn,
)
from core.orchestrator.replies import CHANNEL_NOT_SET_UP
from core.orchestrator.service import apology, refusal

TURN = "turn-1"


def _result(kind: ReplyKind, answer: str, **extra: Any) -> OrchestrationResult:
    return OrchestrationResult(
        answer=answer,
        kind=kind,
        terminal="success",
        next_action=NextAction(action="proceed", reason="r", branch_code="SUCCESS"),
        branch="SUCCESS",
        evidence_level="high",
        confidence=0.9,
        band="high",
        final_reason="confidence_high",
        route=RouteDecision(route="hybrid", reason="r", intent="conceptual"),
        plan=ExecutionPlan(original_query="q", revised_query="q"),
        context_packet=ContextPacket(
            summary=ConfidenceSummary(top_confidence=0.9, candidate_count=1, threshold_met=True, branch="SUCCESS"),
            provider="test",
            timestamp="2026-11-21T09:00:00Z",
        ),
        **extra,
    )


def _citation(n: int = 1, url: str | None = "https://docs.example/handbook?a=1&b=2") -> Citation:
    return Citation(
        n=n,
        doc_id="d",
        chunk_id="d:0",
        title="Handbook <b>",
        date=dt.date(2025, 1, 15),
        section="Leave",
        url=url,
        snippet="s",
        relevance=0.7,
    )


def _table(total: int, shown: int, result_set_id: str | None = "rs-1") -> TableResult:
    rows = [[f"R-{i:04d}", f"Tire <{i}>"] for i in range(shown)]
    return TableResult(
        columns=["receipt_id", "item_desc"], rows=rows, total=total, shown=shown, result_set_id=result_set_id
    )


def _blocks(messages: list[render.SlackMessage], kind: str) -> list[dict[str, Any]]:
    return [b for m in messages for b in m.blocks if b["type"] == kind]


def _buttons(messages: list[render.SlackMessage]) -> dict[str, str]:
    return {e["action_id"]: e["value"] for b in _blocks(messages, "actions") for e in b["elements"]}


def _within_limits(messages: list[render.SlackMessage]) -> None:
    for message in messages:
        assert 0 < len(message.blocks) <= render.MAX_BLOCKS
        for block in message.blocks:
            if block["type"] == "section":
                assert len(block["text"]["text"]) <= render.SECTION_CHARS


def test_an_answer_is_escaped_converted_cited_and_has_feedback() -> None:
    answer = (
        "Parental leave is **20 weeks** [1]. See [the form](https://hr.example/form). Hey <!channel> and <@U123> & co."
    )
    messages = render.render(_result("answer", answer, citations=[_citation()]), turn_id=TURN)
    assert len(messages) == 1
    _within_limits(messages)
    text = messages[0].blocks[0]["text"]["text"]
    assert "*20 weeks* [1]" in text and "<https://hr.example/form|the form>" in text
    assert "&lt;!channel&gt;" in text and "&lt;@U123&gt;" in text and "&amp; co." in text
    assert "<!channel>" not in json.dumps(messages[0].blocks) and "<@U123>" not in json.dumps(messages[0].blocks)
    sources = _blocks(messages, "context")[-1]["elements"]
    assert sources[0]["text"] == "*Sources*"
    assert (
        sources[1]["text"] == "[1] <https://docs.example/handbook?a=1&amp;b=2|Handbook &lt;b&gt;>, 2025-01-15, §Leave"
    )
    feedback = _blocks(messages, "context_actions")[0]["elements"][0]
    assert feedback["type"] == "feedback_buttons" and feedback["action_id"] == render.ACTION_FEEDBACK
    assert (feedback["positive_button"]["value"], feedback["negative_button"]["value"]) == (
        f"up:{TURN}",
        f"down:{TURN}",
    )
    assert messages[0].text.startswith("Parental leave is *20 weeks*")


def test_a_table_with_more_rows_gets_aligned_text_show_more_and_export() -> None:
    result = _result(
        "answer",
        "101 tire receipts [1]; the first 20 below.",
        table=_table(101, 20),
        overflow=81,
        citations=[_citation()],
    )
    messages = render.render(result, turn_id=TURN)
    _within_limits(messages)
    code = next(b["text"]["text"] for b in _blocks(messages, "section") if b["text"]["text"].startswith("```"))
    assert "receipt_id  item_desc" in code and "R-0000      Tire &lt;0&gt;" in code and "(81 more rows)" in code
    assert _buttons(messages) == {render.ACTION_SHOW_MORE: "rs-1", render.ACTION_EXPORT: "rs-1"}


def test_an_aggregate_has_its_table_and_export_but_nothing_more_to_show() -> None:
    table = TableResult(
        columns=["year", "total", "rows"], rows=[["2023", "4,888", "20"]], total=1, shown=1, result_set_id="rs-2"
    )
    messages = render.render(
        _result("answer", "Total by year [1]:\n- 2023: 4,888 (20 rows)", table=table), turn_id=TURN
    )
    assert "• 2023: 4,888" in messages[0].blocks[0]["text"]["text"]
    assert _buttons(messages) == {render.ACTION_EXPORT: "rs-2"}


def test_a_table_without_a_result_set_has_no_buttons() -> None:
    messages = render.render(_result("answer", "Two rows [1].", table=_table(2, 2, result_set_id=None)), turn_id=TURN)
    assert _blocks(messages, "actions") == []


def test_a_clarification_offers_its_choices_as_buttons() -> None:
    answer = (
        "I found 420 matching rows — more than I can list here. Which year do you mean? 2021 (86), 2022 (85), "
        "(empty) (3), ACME Tyres (1,042). For example: “only 2021”. The first rows: a | b. "
        "Or say “export” for all of them as a CSV."
    )
    result = _result("clarification", answer, table=_table(420, 5), choices=["2021", "2022", "ACME Tyres"])
    messages = render.render(result, turn_id=TURN)
    _within_limits(messages)
    assert _buttons(messages) == {  # a click sends what typing the choice would
        f"{render.ACTION_CHOICE}:0": "only 2021",
        f"{render.ACTION_CHOICE}:1": "only 2022",
        f"{render.ACTION_CHOICE}:2": "only ACME Tyres",
        render.ACTION_EXPORT: "rs-1",
    }
    labels = [e["text"]["text"] for b in _blocks(messages, "actions") for e in b["elements"]]
    assert labels == ["2021", "2022", "ACME Tyres", "Export CSV"]
    assert not any(b["text"]["text"].startswith("```") for b in _blocks(messages, "section"))
    assert _blocks(messages, "context_actions")


def test_a_clarification_without_choices_is_a_question() -> None:
    messages = render.render(_result("clarification", "Which product do you mean by “it”?"), turn_id=TURN)
    assert _blocks(messages, "actions") == [] and len(_blocks(messages, "section")) == 1


def test_an_uncertainty_keeps_what_was_searched_in_a_compact_context() -> None:
    answer = "\n".join(
        [
            "I couldn't find enough in the documents to answer this confidently.",
            "Searched: “zebra <policy>”",
            "Rounds: 2, candidates seen: 4.",
            "Best matches (low relevance):",
            "- Handbook (score: 0.12)",
            "Try other words, a product or document name, or a date range.",
        ]
    )
    messages = render.render(_result("uncertainty", answer), turn_id=TURN)
    section = _blocks(messages, "section")[0]["text"]["text"]
    assert "Searched" not in section and "Try other words" in section
    detail = _blocks(messages, "context")[0]["elements"][0]["text"]
    assert "Searched: “zebra &lt;policy&gt;”" in detail and "- Handbook (score: 0.12)" in detail


def test_a_refusal_and_an_apology_are_plain_replies() -> None:
    turn = Turn(
        platform="slack",
        tenant="T1",
        channel_key="slack:T1:C1",
        thread="1.0",
        user="U1",
        message_key="slack:T1:C1:<1.0>",
        text="q",
        received_at=dt.datetime(2026, 11, 21, 9, 0, tzinfo=dt.UTC),
    )
    refused = render.render(refusal(turn, CHANNEL_NOT_SET_UP, "unmapped channel"), turn_id=TURN)
    sorry = render.render(apology(turn, "boom"), turn_id=None)
    for messages in (refused, sorry):
        assert len(messages) == 1 and [b["type"] for b in messages[0].blocks] == ["section"]
    assert "not set up" in refused[0].blocks[0]["text"]["text"]
    assert "slack:T1:C1:&lt;1.0&gt;" in sorry[0].blocks[0]["text"]["text"]


def test_a_long_answer_is_split_into_sections_and_messages_within_the_limits() -> None:
    paragraphs = [f"Paragraph {i} " + "word " * 150 for i in range(200)]  # ~150,000 characters
    paragraphs.append("x" * 7000)  # one line longer than a section
    result = _result("answer", "\n".join(paragraphs) + " [1]", citations=[_citation(n) for n in range(1, 13)])
    messages = render.render(result, turn_id=TURN)
    _within_limits(messages)
    assert len(messages) >= 2
    texts = "".join(b["text"]["text"] for b in _blocks(messages, "section"))
    assert texts.replace("\n", "").replace(" ", "") == result.answer.replace("\n", "").replace(" ", "")
    last = messages[-1].blocks
    assert last[-1]["type"] == "context_actions" and len(_blocks(messages, "context")) == 2  # 13 lines → 2 blocks
    assert messages[1].text.startswith("(continued)")


def test_the_stream_text_is_escaped_markdown() -> None:
    assert render.stream_text(_result("answer", "**a** <!here> & b")) == "**a** &lt;!here&gt; &amp; b"


def test_a_table_as_csv_has_its_header_first() -> None:
    rows = list(csv.reader(io.StringIO(table_csv(_table(2, 2)))))
    assert rows == [["receipt_id", "item_desc"], ["R-0000", "Tire <0>"], ["R-0001", "Tire <1>"]]
