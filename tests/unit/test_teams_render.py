"""The Teams renderer, converters and stream pacing: pure functions on activity JSON."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

from bots.teams import convert, render, texts
from bots.teams.stream import Stream
from core.contracts import Citation, LlmStep, OrchestrationResult, TableResult, Turn
from core.orchestrator.commands import command_result
from tests.schemas import CARD_SCHEMA, shared_schema
from tests.servers import teams_activity

NOW = dt.datetime(2026, 11, 21, 9, 0, tzinfo=dt.UTC)


def _turn() -> Turn:
    return Turn(
        platform="teams",
        tenant="t",
        channel_key="teams:t:c",
        thread="c",
        user="u",
        message_key="teams:1",
        text="q",
        received_at=NOW,
    )


def _citation(n: int, title: str = "Handbook", snippet: str = "New parents get 20 weeks.") -> Citation:
    return Citation(
        n=n,
        doc_id=f"d{n}",
        chunk_id=f"d{n}:0",
        title=title,
        date=dt.date(2025, 1, 15),
        section="Leave",
        page=3,
        url=f"https://docs.example/{n}",
        snippet=snippet,
        relevance=0.8,
    )


def _answer(text: str = "New parents get 20 weeks [1], paid [2].", **update: Any) -> OrchestrationResult:
    result = command_result(_turn(), text).model_copy(
        update={"kind": "answer", "turn_id": "turn-1", "citations": [_citation(1), _citation(2, "Policy")]}
    )
    return result.model_copy(update=update)


def _table(rows: int, total: int, cell: str = "x") -> TableResult:
    return TableResult(
        columns=["receipt_id", "item"],
        rows=[[f"R-{i}", cell] for i in range(rows)],
        total=total,
        shown=rows,
        result_set_id="rs-1",
    )


def test_answer_has_markers_citations_and_the_feedback_loop() -> None:
    activity = render.answer_activity(_answer())
    assert "[1]" in activity["text"] and "[2]" in activity["text"]
    entity = activity["entities"][0]
    assert entity["type"] == "https://schema.org/Message" and entity["@type"] == "Message"
    assert [c["position"] for c in entity["citation"]] == [1, 2]
    first = entity["citation"][0]["appearance"]
    assert first == {
        "@type": "DigitalDocument",
        "name": "Handbook",
        "abstract": "New parents get 20 weeks.",
        "url": "https://docs.example/1",
        "keywords": ["2025-01-15", "§Leave", "p. 3"],
    }
    assert "additionalType" not in entity  # the extractive path wrote it, not a model
    assert activity["channelData"]["feedbackLoop"] == {"type": "default"}
    assert "attachments" not in activity


def test_the_ai_label_only_when_a_model_wrote_the_text() -> None:
    written = _answer(llm_steps=[LlmStep(stage="synthesis", path="llm", reason="ok")])
    assert render.message_entity(written)["additionalType"] == ["AIGeneratedContent"]
    fell_back = _answer(
        llm_steps=[
            LlmStep(stage="route", path="llm", reason="ok"),
            LlmStep(stage="synthesis", path="deterministic", reason="timeout"),
        ]
    )
    assert "additionalType" not in render.message_entity(fell_back)


def test_names_and_abstracts_are_clipped_for_teams() -> None:
    result = _answer(citations=[_citation(1, title="T" * 200, snippet="word " * 100)])
    appearance = render.citation_claim(result.citations[0])["appearance"]
    assert len(appearance["name"]) == 80 and appearance["name"].endswith("…")
    assert len(appearance["abstract"]) <= 160 and len(appearance["keywords"]) <= 3


def test_document_text_cannot_inject_html_markdown_or_mentions() -> None:
    hostile = "See <at>Everyone</at> and <b>x</b> **bold** [click](https://evil.example) & more [1].\n\n- kept list"
    html = render.message_text(_answer(hostile))
    assert "<at>" not in html and "&lt;at&gt;Everyone&lt;/at&gt;" in html
    assert "<b>" not in html and "**bold**" in html and "<a " not in html and "[click](https://evil.example)" in html
    assert "<li>kept list</li>" in html  # the core's own list still renders as a list
    assert render.answer_activity(_answer(hostile))["textFormat"] == "xml"


def test_a_refusal_is_one_plain_message_without_feedback() -> None:
    activity = render.answer_activity(_answer("This channel is not set up.", kind="refusal", citations=[]))
    assert "feedbackLoop" not in activity["channelData"] and "attachments" not in activity


def test_table_card_has_show_more_and_export_that_type_the_commands() -> None:
    card = render.answer_card(_answer(table=_table(20, 101), overflow=81))
    assert card is not None and card["version"] == "1.5"
    table = next(item for item in card["body"] if item["type"] == "Table")
    assert len(table["rows"]) == 21 and table["firstRowAsHeader"]
    assert [(a["title"], a["data"]["text"]) for a in card["actions"]] == [
        (texts.SHOW_MORE, "show the rest"),
        (texts.EXPORT_CSV, "export"),
    ]
    last_page = render.answer_card(_answer(table=_table(1, 101), final_reason="command"))
    assert last_page is not None and [a["title"] for a in last_page["actions"]] == [texts.EXPORT_CSV]


def test_cells_are_literal_text_runs() -> None:
    card = render.answer_card(_answer(table=_table(2, 2, cell="**<at>x</at>**")))
    assert card is not None
    cell = next(item for item in card["body"] if item["type"] == "Table")["rows"][1]["cells"][1]
    assert cell["items"][0] == {"type": "RichTextBlock", "inlines": [{"type": "TextRun", "text": "**<at>x</at>**"}]}


def test_a_huge_table_is_cut_to_fit_28_kb() -> None:
    long_answer = "A long answer [1]. " * 200
    activity = render.answer_activity(_answer(long_answer, table=_table(20, 500, cell="é" * 400), overflow=480))
    assert len(json.dumps(activity).encode()) <= 28_000 - 1_000
    card = activity["attachments"][0]["content"]
    table = next(item for item in card["body"] if item["type"] == "Table")
    assert 1 < len(table["rows"]) < 21
    assert f"{len(table['rows']) - 1} of 500 rows" in json.dumps(card)


def test_clarification_choices_are_buttons_that_type_the_choice() -> None:
    result = _answer("Which year do you mean?", kind="clarification", choices=["2023", "2024"], citations=[])
    card = render.answer_card(result)
    assert card is not None
    buttons = next(item for item in card["body"] if item["type"] == "ActionSet")["actions"]
    assert [(b["title"], b["data"]) for b in buttons] == [
        ("2023", {"threadwise": render.CARD_ACTION, "text": "only 2023"}),
        ("2024", {"threadwise": render.CARD_ACTION, "text": "only 2024"}),
    ]


def test_cards_validate_against_the_adaptive_card_schema() -> None:
    import jsonschema

    schema = shared_schema(CARD_SCHEMA)
    cards = [
        render.answer_card(_answer(table=_table(20, 101), overflow=81)),
        render.answer_card(_answer("Which?", kind="clarification", choices=["2023", "2024"], table=_table(5, 420))),
    ]
    for card in cards:
        assert card is not None
        jsonschema.validate(card, schema)


def test_a_card_click_is_a_turn_with_the_buttons_text() -> None:
    base = teams_activity(
        activity_id="click-1",
        text="",
        service_url="http://x",
        conversation_id="19:c@thread.tacv2;messageid=100",
        conversation_type="channel",
        mention=False,
    )
    submit = {**base, "text": None, "value": {"threadwise": render.CARD_ACTION, "text": "only 2024"}}
    turn = convert.activity_to_turn(submit)
    assert turn is not None and turn.text == "only 2024" and turn.thread == "100"
    assert turn.message_key == "teams:click-1"
    execute = {
        **base,
        "type": "invoke",
        "name": "adaptiveCard/action",
        "id": "click-2",
        "value": {"action": {"type": "Action.Execute", "verb": render.CARD_ACTION, "data": {"text": "show the rest"}}},
    }
    turn = convert.activity_to_turn(execute)
    assert turn is not None and turn.text == "show the rest" and turn.message_key == "teams:click-2"
    assert convert.activity_to_turn({**submit, "value": {"other": "x"}}) is not None  # a plain message
    assert convert.card_action_text({**submit, "value": {"threadwise": "other", "text": "x"}}) is None


def test_feedback_invoke_names_the_message_and_the_reaction() -> None:
    invoke = {
        "type": "invoke",
        "name": "message/submitAction",
        "replyToId": "reply-9",
        "from": {"id": "29:u", "aadObjectId": "aad-ada"},
        "value": {
            "actionName": "feedback",
            "actionValue": {"reaction": "dislike", "feedback": '{"feedbackText":"no"}'},
        },
    }
    assert convert.feedback_of(invoke) == ("reply-9", "aad-ada", "down")
    like = {**invoke, "value": {"actionName": "feedback", "actionValue": {"reaction": "like"}}}
    assert convert.feedback_of(like) == ("reply-9", "aad-ada", "up")
    assert convert.feedback_of({**invoke, "name": "composeExtension/query"}) is None


class _Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


async def test_stream_informative_then_final_at_least_a_second_apart() -> None:
    sent: list[dict[str, Any]] = []
    clock = _Clock()

    async def send(activity: dict[str, Any]) -> str | None:
        sent.append(activity)
        return f"id-{len(sent)}"

    stream = Stream(send=send, clock=clock)
    await stream.progress("intake")
    clock.now += 0.2
    await stream.progress("synthesize")  # too soon: skipped
    clock.now += 1.0
    await stream.progress("synthesize")
    await stream.progress("reflect")  # no text of its own: skipped
    clock.now += 1.5
    reply_id = await stream.finish(_answer())
    assert [a["channelData"]["streamType"] for a in sent] == ["informative", "informative", "final"]
    assert [a["text"] for a in sent[:2]] == [texts.SEARCHING, texts.WRITING]
    assert [a["channelData"].get("streamSequence") for a in sent[:2]] == [1, 2]
    assert sent[1]["channelData"]["streamId"] == "id-1" and sent[2]["channelData"]["streamId"] == "id-1"
    final_info = [e for e in sent[2]["entities"] if e["type"] == "streaminfo"]
    assert final_info == [{"type": "streaminfo", "streamId": "id-1", "streamType": "final"}]
    assert sent[2]["type"] == "message" and reply_id == "id-3"


async def test_a_reply_without_stages_is_a_plain_message() -> None:
    sent: list[dict[str, Any]] = []

    async def send(activity: dict[str, Any]) -> str | None:
        sent.append(activity)
        return "only"

    await Stream(send=send).finish(_answer())
    assert len(sent) == 1 and "streamType" not in sent[0]["channelData"]
