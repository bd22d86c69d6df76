"""Pure converters between Slack events and the core's models."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from typing import Any

from bots.presentation import source_parts, table_text
from core.contracts import Citation, OrchestrationResult, Turn

_MENTION = re.compile(r"<@[A-Z0-9]+(?:\|[^>]*)?>")
# Subtypes a person writes; every other subtype (edits, deletions, joins, bots) is ignored.
_PERSON_SUBTYPES = {None, "file_share", "thread_broadcast"}


@dataclass(frozen=True)
class SlackTarget:
    """Where a Slack reply goes and which message shows progress."""

    channel: str
    thread_ts: str | None
    message_ts: str


def is_from_person(event: dict[str, Any], bot_user_id: str | None) -> bool:
    """False for bots, the bot itself, edits, deletions and other non-person messages."""
    if event.get("bot_id") or event.get("subtype") not in _PERSON_SUBTYPES:
        return False
    return bool(event.get("user")) and event.get("user") != bot_user_id


def is_direct(event: dict[str, Any]) -> bool:
    """A direct message to the bot."""
    return event.get("channel_type") == "im"


def channel_key(team: str, event: dict[str, Any]) -> str:
    """`slack:<team>:<channel>`, or `slack:<team>:dm:<user>` for a direct message."""
    if is_direct(event):
        return f"slack:{team}:dm:{event['user']}"
    return f"slack:{team}:{event['channel']}"


def thread_of(event: dict[str, Any]) -> str:
    """The conversation thread: the thread root, the message itself, or the whole DM."""
    if is_direct(event):
        return "dm"
    return str(event.get("thread_ts") or event["ts"])


def event_to_turn(event: dict[str, Any], team: str) -> Turn:
    """A Slack message or mention as a `Turn`, with the bot's mention removed."""
    text = " ".join(_MENTION.sub(" ", event.get("text") or "").split())
    return Turn(
        platform="slack",
        tenant=team,
        channel_key=channel_key(team, event),
        thread=thread_of(event),
        user=str(event["user"]),
        message_key=f"slack:{team}:{event['channel']}:{event['ts']}",
        text=text,
        is_direct=is_direct(event),
        received_at=dt.datetime.fromtimestamp(float(event["ts"]), tz=dt.UTC),
    )


def target_of(event: dict[str, Any]) -> SlackTarget:
    """Reply in the mention's thread; in a DM, reply in the DM itself."""
    thread = None if is_direct(event) else str(event.get("thread_ts") or event["ts"])
    return SlackTarget(channel=str(event["channel"]), thread_ts=thread, message_ts=str(event["ts"]))


def _source(citation: Citation) -> str:
    title = f"<{citation.url}|{citation.title}>" if citation.url else citation.title
    return source_parts(citation, title)


def result_to_text(result: OrchestrationResult) -> str:
    """The reply as Slack mrkdwn text: answer, notes, then the Sources list."""
    lines = [result.answer]
    if result.table is not None and result.kind == "answer":
        lines.append("```\n" + table_text(result.table) + "\n```")
    lines.extend(f"_{note}_" for note in (result.applicability_note, result.uncertainty_note) if note)
    if result.citations:
        lines.append("*Sources*")
        lines.extend(_source(c) for c in result.citations)
    return "\n".join(lines)
