"""The Slack renderer: an `OrchestrationResult` as Block Kit messages (pure functions).

Every piece of text that came from a document or a person is escaped (`&`, `<`, `>`) before its
Markdown is converted to mrkdwn, so a document saying `<!channel>` or `<@U123>` never pings. The
blocks are built with slack_sdk's Block Kit models, whose validation enforces Slack's limits.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from md2mrkdwn import convert
from slack_sdk.models.blocks import (
    ActionsBlock,
    Block,
    ButtonElement,
    ContextActionsBlock,
    ContextBlock,
    FeedbackButtonObject,
    FeedbackButtonsElement,
    MarkdownTextObject,
    PlainTextObject,
    SectionBlock,
)

from bots.presentation import (
    SHOW_MORE_COMMAND,
    can_export,
    can_show_more,
    choice_command,
    source_parts,
    table_text,
    uncertainty_parts,
)
from bots.slack import texts
from core.contracts import Citation, OrchestrationResult, TableResult

SECTION_CHARS = 3000
MAX_BLOCKS = 50
CONTEXT_ELEMENTS = 10
CHOICE_BUTTONS = 10
TABLE_ROWS = 20

ACTION_CHOICE = "threadwise_choice"
ACTION_SHOW_MORE = "threadwise_show_more"
ACTION_EXPORT = "threadwise_export_csv"
ACTION_FEEDBACK = "threadwise_feedback"
SHOW_MORE_TEXT = SHOW_MORE_COMMAND
"""What a "Show more" click says in the thread: the same command a person would type."""

BlockDict = dict[str, Any]


@dataclass(frozen=True)
class SlackMessage:
    """One message to post: its Block Kit blocks and the plain fallback used in notifications."""

    text: str
    blocks: list[BlockDict]


def escape(text: str) -> str:
    """Slack's three control characters escaped, so text can never form a mention or a link."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def mrkdwn(markdown: str) -> str:
    """Neutral Markdown from the core as Slack mrkdwn, escaped first."""
    return str(convert(escape(markdown))).strip()


def render(result: OrchestrationResult, *, turn_id: str | None = None) -> list[SlackMessage]:
    """The reply as one or more messages: the text, then notes, table, buttons, sources and feedback."""
    body = _body(result)
    footer = footer_blocks(result, turn_id=turn_id)
    pages: list[list[BlockDict]] = [[]]
    for block in body:
        if len(pages[-1]) == MAX_BLOCKS:
            pages.append([])
        pages[-1].append(block)
    if len(pages[-1]) + len(footer) > MAX_BLOCKS:
        pages.append([])
    pages[-1].extend(footer)
    return [SlackMessage(text=_fallback(page, first=i == 0), blocks=page) for i, page in enumerate(pages)]


def stream_text(result: OrchestrationResult) -> str:
    """The answer as it is streamed (Slack renders Markdown in streams), escaped like every text."""
    return escape(result.answer)


def footer_blocks(result: OrchestrationResult, *, turn_id: str | None = None) -> list[BlockDict]:
    """What follows the text: notes, the table and its buttons, sources, feedback."""
    blocks: list[Block] = []
    notes = [n for n in (result.applicability_note, result.uncertainty_note) if n]
    if notes:
        blocks.append(ContextBlock(elements=[MarkdownTextObject(text=f"_{mrkdwn(n)}_") for n in notes]))
    table = result.table
    if table is not None and result.kind == "answer":
        blocks.append(SectionBlock(text=MarkdownTextObject(text=table_block_text(table))))
    buttons = _buttons(result)
    if buttons:
        blocks.append(ActionsBlock(elements=buttons))
    blocks.extend(_sources(result.citations))
    if turn_id and result.kind in ("answer", "clarification", "uncertainty"):
        blocks.append(_feedback(turn_id))
    return [block.to_dict() for block in blocks]


def sections(text: str) -> list[BlockDict]:
    """mrkdwn text as section blocks of at most 3,000 characters, split at line ends where possible."""
    chunks: list[str] = []
    current = ""
    for line in text.splitlines():
        while len(line) > SECTION_CHARS:
            cut = line.rfind(" ", 0, SECTION_CHARS)
            cut = cut if cut > 0 else SECTION_CHARS
            chunks, current = _flush(chunks, current), ""
            chunks.append(line[:cut])
            line = line[cut:].lstrip()
        joined = f"{current}\n{line}" if current else line
        if len(joined) > SECTION_CHARS:
            chunks, current = _flush(chunks, current), line
        else:
            current = joined
    chunks = _flush(chunks, current)
    return [SectionBlock(text=MarkdownTextObject(text=chunk)).to_dict() for chunk in chunks]


def table_block_text(table: TableResult) -> str:
    """The table as aligned text in a code block, as many rows as fit in one section."""
    limit = TABLE_ROWS
    while True:
        aligned = table_text(table, limit=limit)
        text = f"```\n{escape(aligned)}\n```"
        if len(text) <= SECTION_CHARS or limit <= 1:
            return text[: SECTION_CHARS - 4] + "\n```" if len(text) > SECTION_CHARS else text
        limit //= 2


def source_line(citation: Citation) -> str:
    """One source as mrkdwn: `[n] <url|title>, date, §section, p. n`."""
    title = escape(citation.title)
    linked = f"<{escape(citation.url)}|{title.replace('|', '¦')}>" if citation.url else title
    return source_parts(citation, linked)


def _body(result: OrchestrationResult) -> list[BlockDict]:
    if result.kind != "uncertainty":
        return sections(mrkdwn(result.answer))
    message, details = uncertainty_parts(result)
    blocks = sections(mrkdwn(message))
    if details:
        detail = "\n".join(escape(line) for line in details)[:SECTION_CHARS]
        blocks.append(ContextBlock(elements=[MarkdownTextObject(text=detail)]).to_dict())
    return blocks


def _buttons(result: OrchestrationResult) -> list[ButtonElement]:
    """Choice buttons send what typing the choice sends; Show more and Export CSV carry the result set."""
    choices = result.choices if result.kind == "clarification" else []
    buttons = [
        _button(choice, f"{ACTION_CHOICE}:{i}", choice_command(choice))
        for i, choice in enumerate(choices[:CHOICE_BUTTONS])
    ]
    table = result.table
    if table is None or not table.result_set_id or result.kind not in ("answer", "clarification"):
        return buttons
    if result.kind == "answer" and can_show_more(result):
        buttons.append(_button(texts.SHOW_MORE, ACTION_SHOW_MORE, table.result_set_id))
    if can_export(result):
        buttons.append(_button(texts.EXPORT_CSV, ACTION_EXPORT, table.result_set_id))
    return buttons


def _button(label: str, action_id: str, value: str) -> ButtonElement:
    return ButtonElement(text=PlainTextObject(text=label[:75]), action_id=action_id, value=value)


def _sources(citations: list[Citation]) -> list[Block]:
    if not citations:
        return []
    lines = [texts.SOURCES, *(source_line(c)[:SECTION_CHARS] for c in citations)]
    groups = [lines[i : i + CONTEXT_ELEMENTS] for i in range(0, len(lines), CONTEXT_ELEMENTS)]
    return [ContextBlock(elements=[MarkdownTextObject(text=line) for line in group]) for group in groups]


def _feedback(turn_id: str) -> Block:
    return ContextActionsBlock(
        elements=[
            FeedbackButtonsElement(
                action_id=ACTION_FEEDBACK,
                positive_button=FeedbackButtonObject(
                    text=texts.FEEDBACK_UP, value=f"up:{turn_id}", accessibility_label=texts.FEEDBACK_UP_LABEL
                ),
                negative_button=FeedbackButtonObject(
                    text=texts.FEEDBACK_DOWN, value=f"down:{turn_id}", accessibility_label=texts.FEEDBACK_DOWN_LABEL
                ),
            )
        ]
    )


def _flush(chunks: list[str], current: str) -> list[str]:
    return [*chunks, current] if current.strip() else chunks


def _fallback(blocks: list[BlockDict], *, first: bool) -> str:
    for block in blocks:
        if block.get("type") == "section":
            text = str(block["text"]["text"])
            return text if first else f"{texts.CONTINUED} {text}"[:SECTION_CHARS]
    return texts.CONTINUED
