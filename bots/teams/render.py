"""The one Teams renderer: an `OrchestrationResult` as Bot Framework activity JSON (pure functions).

Everything here is wire format (text, `entities`, `channelData`, attachments), so either SDK —
botbuilder or the Microsoft 365 Agents SDK — can send what it returns.
"""

from __future__ import annotations

import json
from typing import Any

from markdown_it import MarkdownIt

from bots.presentation import (
    EXPORT_COMMAND,
    SHOW_MORE_COMMAND,
    can_export,
    can_show_more,
    choice_command,
    source_details,
    written_by_llm,
)
from bots.teams import texts
from core.contracts import Citation, OrchestrationResult, TableResult

Activity = dict[str, Any]
NAME_CHARS = 80  # Teams truncates a citation's title beyond this
ABSTRACT_CHARS = 160
KEYWORDS = 3
KEYWORD_CHARS = 28
CELL_CHARS = 200
MESSAGE_BYTES = 28_000  # Teams refuses a message above ~28 KB: the card gets what the rest leaves
CARD_ACTION = "threadwise.type"  # `data.threadwise` of a button that acts like typing `data.text`
MAX_CHOICES = 6
CARD_CONTENT_TYPE = "application/vnd.microsoft.card.adaptive"


def _markdown() -> MarkdownIt:
    # Only paragraphs, lists and line breaks: the core's own structure. Everything else — links,
    # emphasis, raw HTML, `<at>` — comes out as escaped literal text, so a document cannot inject it.
    return MarkdownIt("zero", {"breaks": True}).enable(["list", "newline"])


def safe_html(markdown: str) -> str:
    """Platform-neutral Markdown as the HTML subset Teams renders, every other character escaped."""
    return str(_markdown().render(markdown)).strip()


def message_text(result: OrchestrationResult) -> str:
    """The reply's text: the answer with its `[n]` markers, then the notes in italics."""
    parts = [safe_html(result.answer)]
    parts.extend(f"<p><i>{_markdown().renderInline(note)}</i></p>" for note in _notes(result))
    return "".join(parts)


def _notes(result: OrchestrationResult) -> list[str]:
    return [note for note in (result.applicability_note, result.uncertainty_note) if note]


def _clip(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def citation_claim(citation: Citation) -> dict[str, Any]:
    """One source as a schema.org `Claim` whose `position` is its `[n]`."""
    appearance: dict[str, Any] = {
        "@type": "DigitalDocument",
        "name": _clip(citation.title, NAME_CHARS),
        "abstract": _clip(citation.snippet, ABSTRACT_CHARS),
    }
    if citation.url:
        appearance["url"] = citation.url
    keywords = [_clip(k, KEYWORD_CHARS) for k in source_details(citation)][:KEYWORDS]
    if keywords:
        appearance["keywords"] = keywords
    return {"@type": "Claim", "position": citation.n, "appearance": appearance}


def message_entity(result: OrchestrationResult) -> dict[str, Any]:
    """The `https://schema.org/Message` entity: citations, and the AI label when a model wrote the text."""
    entity: dict[str, Any] = {
        "type": "https://schema.org/Message",
        "@type": "Message",
        "@context": "https://schema.org",
        "@id": "",
        "citation": [citation_claim(c) for c in result.citations],
    }
    if written_by_llm(result):
        entity["additionalType"] = ["AIGeneratedContent"]
    return entity


def _text_run(text: str, *, bold: bool = False) -> dict[str, Any]:
    # A TextRun is shown literally (no Markdown), unlike a TextBlock: document text stays text.
    run: dict[str, Any] = {"type": "TextRun", "text": _clip(text, CELL_CHARS)}
    if bold:
        run["weight"] = "Bolder"
    return {"type": "RichTextBlock", "inlines": [run]}


def _table(table: TableResult, rows: int) -> dict[str, Any]:
    def row(cells: list[str], header: bool = False) -> dict[str, Any]:
        return {
            "type": "TableRow",
            "cells": [{"type": "TableCell", "items": [_text_run(str(cell), bold=header)]} for cell in cells],
        }

    return {
        "type": "Table",
        "columns": [{"width": 1} for _ in table.columns],
        "firstRowAsHeader": True,
        "rows": [row(table.columns, header=True), *(row(r) for r in table.rows[:rows])],
    }


def _typing_action(title: str, text: str) -> dict[str, Any]:
    return {"type": "Action.Submit", "title": title, "data": {"threadwise": CARD_ACTION, "text": text}}


def answer_card(result: OrchestrationResult, budget: int = MESSAGE_BYTES) -> dict[str, Any] | None:
    """The Adaptive Card (1.5) for a table, its "Show more"/"Export CSV" and clarification choices,
    in at most `budget` bytes of JSON (table rows are dropped from the end to fit)."""
    table = result.table if result.kind in ("answer", "clarification") else None
    choices = result.choices[:MAX_CHOICES] if result.kind == "clarification" else []
    if table is None and not choices:
        return None
    actions = []
    if table is not None and can_show_more(result):
        actions.append(_typing_action(texts.SHOW_MORE, SHOW_MORE_COMMAND))
    if table is not None and can_export(result):
        actions.append(_typing_action(texts.EXPORT_CSV, EXPORT_COMMAND))
    rows = len(table.rows) if table is not None else 0
    while True:
        card = _card(table, rows, choices, actions)
        if _size(card) <= budget or rows == 0:
            return card
        rows -= max(1, rows // 4)  # drop rows until the card fits; the count line says how many show


def _size(wire: dict[str, Any]) -> int:
    return len(json.dumps(wire).encode())


def _card(
    table: TableResult | None,
    rows: int,
    choices: list[str],
    actions: list[dict[str, Any]],
) -> dict[str, Any]:
    body: list[dict[str, Any]] = []
    if choices:
        body.append({"type": "TextBlock", "text": texts.CHOOSE, "wrap": True})
        body.append(
            {"type": "ActionSet", "actions": [_typing_action(_clip(c, 40), choice_command(c)) for c in choices]}
        )
    if table is not None:
        if rows:
            body.append(_table(table, rows))
        shown = texts.ROWS_SHOWN.format(shown=min(rows, len(table.rows)), total=table.total)
        body.append({"type": "TextBlock", "text": shown, "isSubtle": True, "size": "Small", "wrap": True})
    card: dict[str, Any] = {
        "type": "AdaptiveCard",
        "$schema": "http://adaptivecards.io/schemas/adaptive-card.json",
        "version": "1.5",
        "fallbackText": texts.CARD_FALLBACK,
        "body": body,
    }
    if actions:
        card["actions"] = actions
    return card


def answer_activity(result: OrchestrationResult) -> Activity:
    """The reply as one message activity: text with `[n]`, the citation entity, feedback, the card."""
    activity: Activity = {
        "type": "message",
        "text": message_text(result),
        "textFormat": "xml",
        "entities": [message_entity(result)],
        "channelData": {},
    }
    if result.kind != "refusal" and result.turn_id:
        activity["channelData"]["feedbackLoop"] = {"type": "default"}
    # Room for the envelope the SDK adds (ids, addresses, stream fields) besides what is built here.
    budget = MESSAGE_BYTES - _size(activity) - 1_500
    card = answer_card(result, budget)
    if card is not None:
        activity["attachments"] = [{"contentType": CARD_CONTENT_TYPE, "content": card}]
    return activity


def informative_activity(text: str, sequence: int, stream_id: str | None) -> Activity:
    """A streaming informative update (the blue progress line in a personal chat)."""
    info: dict[str, Any] = {"type": "streaminfo", "streamType": "informative", "streamSequence": sequence}
    channel_data: dict[str, Any] = {"streamType": "informative", "streamSequence": sequence}
    if stream_id:
        info["streamId"] = channel_data["streamId"] = stream_id
    return {"type": "typing", "text": text, "entities": [info], "channelData": channel_data}


def final_activity(result: OrchestrationResult, stream_id: str) -> Activity:
    """The answer as the stream's final message (same stream id), replacing the informative updates."""
    activity = answer_activity(result)
    activity["channelData"].update({"streamType": "final", "streamId": stream_id})
    activity["entities"].append({"type": "streaminfo", "streamId": stream_id, "streamType": "final"})
    return activity
