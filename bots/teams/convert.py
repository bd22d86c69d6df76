"""Pure converters between Bot Framework activities (as JSON) and the core's models."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from bots.teams.render import CARD_ACTION
from core.contracts import Turn
from core.records import ConversationKey, FeedbackValue

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


def mentions_bot(activity: dict[str, Any]) -> bool:
    """True when the message @mentions the bot (the recipient)."""
    bot_id = (activity.get("recipient") or {}).get("id")
    return any(
        e.get("type") == "mention" and (e.get("mentioned") or {}).get("id") == bot_id
        for e in activity.get("entities") or []
    )


def card_action_text(activity: dict[str, Any]) -> str | None:
    """The text a card button stands for: `Action.Submit` (a message whose `value` is the button's
    data) or `Action.Execute` (an `adaptiveCard/action` invoke); None for anything else."""
    value = activity.get("value")
    if not isinstance(value, dict):
        return None
    if activity.get("type") == "invoke":
        action = value.get("action") or {}
        data = action.get("data") or {}
        if activity.get("name") != "adaptiveCard/action" or action.get("verb") != CARD_ACTION:
            return None
    else:
        data = value
        if data.get("threadwise") != CARD_ACTION:
            return None
    text = data.get("text")
    return " ".join(text.split()) if isinstance(text, str) and text.strip() else None


def feedback_of(activity: dict[str, Any]) -> tuple[str, str, FeedbackValue] | None:
    """A `message/submitAction` feedback invoke as (the bot message's id, the person, up|down)."""
    value = activity.get("value") or {}
    if activity.get("name") != "message/submitAction" or value.get("actionName") != "feedback":
        return None
    reaction = (value.get("actionValue") or {}).get("reaction")
    reply_id = activity.get("replyToId")
    if reaction not in ("like", "dislike") or not reply_id:
        return None
    return str(reply_id), _person(activity), "up" if reaction == "like" else "down"


def _person(activity: dict[str, Any]) -> str:
    sender = activity.get("from") or {}
    return str(sender.get("aadObjectId") or sender.get("id") or "unknown")


def conversation_key(turn: Turn) -> ConversationKey:
    """The conversation a turn belongs to."""
    return ConversationKey(platform=turn.platform, tenant=turn.tenant, channel_key=turn.channel_key, thread=turn.thread)


def activity_to_turn(activity: dict[str, Any]) -> Turn | None:
    """A person's message — or a card button, which acts exactly like typing its text — as a `Turn`.

    None for activities that are neither. Each click is its own activity, so its own message key.
    """
    clicked = card_action_text(activity)
    if (activity.get("type") != "message" and clicked is None) or not activity.get("id"):
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
        user=_person(activity),
        message_key=f"teams:{activity['id']}",
        text=clicked or without_bot_mention(activity),
        is_direct=kind == "personal",
        received_at=received,
    )
