"""Pure converters between Bot Framework activities (as JSON) and the core's models."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from bots.presentation import source_parts
from core.contracts import Citation, OrchestrationResult, TableResult, Turn

_AT_TAG = re.compile(r"<at>[^<]*</at>", re.IGNORECASE)


def tenant_of(activity: dict[str, Any]) -> str:
    """The Entra tenant of an activity."""
    tenant = (activity.get("channelData") or {}).get("tenant") or {}
    return str(tenant.get("id") or (activity.get("conversation") or {}).get("tenantId") or "unknown")


def without_bot_mention(activity: dict[str, Any]) -> str:
    """The message text with the bot's mention removed (never echoed back)."""
    text = activity.get("text") or ""
    bot_id = (activity.get("recipient") or {}).get("id")
    for entity in activity.get("entities") or []:
        if entity.get("type") == "mention" and (entity.get("mentioned") or {}).get("id") == bot_id:
            text = text.replace(entity.get("text") or "", " ")
    return " ".join(_AT_TAG.sub(" ", text).split())


def activity_to_turn(activity: dict[str, Any]) -> Turn | None:
    """A message activity as a `Turn`; None for activities that are not a person's message."""
    if activity.get("type") != "message" or not activity.get("id"):
        return None
    conversation = activity.get("conversation") or {}
    sender = activity.get("from") or {}
    tenant = tenant_of(activity)
    conversation_id = str(conversation.get("id") or "")
    kind = conversation.get("conversationType") or "personal"
    if kind == "personal":
        person = sender.get("aadObjectId") or sender.get("id")
        channel_key, thread = f"teams:{tenant}:dm:{person}", "dm"
    else:
        root, _, message_id = conversation_id.partition(";messageid=")
        channel_key, thread = f"teams:{tenant}:{root}", message_id or root
    stamp = activity.get("timestamp")
    received = dt.datetime.fromisoformat(stamp.replace("Z", "+00:00")) if stamp else dt.datetime.now(dt.UTC)
    return Turn(
        platform="teams",
        tenant=tenant,
        channel_key=channel_key,
        thread=thread,
        user=str(sender.get("aadObjectId") or sender.get("id") or "unknown"),
        message_key=f"teams:{activity['id']}",
        text=without_bot_mention(activity),
        is_direct=kind == "personal",
        received_at=received,
    )


def markdown_table(table: TableResult, limit: int = 20) -> str:
    """A table as Markdown, which Teams renders."""

    def row(cells: list[str]) -> str:
        return "| " + " | ".join(str(c).replace("|", "\\|") for c in cells) + " |"

    lines = [row(table.columns), "|" + "---|" * len(table.columns)]
    lines.extend(row(r) for r in table.rows[:limit])
    return "\n".join(lines)


def _source(citation: Citation) -> str:
    title = f"[{citation.title}]({citation.url})" if citation.url else citation.title
    return source_parts(citation, title)


def result_to_text(result: OrchestrationResult) -> str:
    """The reply as Teams markdown: answer, notes, then the Sources list."""
    lines = [result.answer]
    if result.table is not None and result.kind == "answer":
        lines.append(markdown_table(result.table))
    lines.extend(f"*{note}*" for note in (result.applicability_note, result.uncertainty_note) if note)
    if result.citations:
        lines.append("**Sources**")
        lines.extend(_source(c) for c in result.citations)
    return "\n\n".join(lines)
