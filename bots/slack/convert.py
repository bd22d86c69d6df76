"""Pure converters between Slack events and the core's models."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from typing import Any

from core.contracts import Turn

_MENTION = re.compile(r"<@[A-Z0-9]+(?:\|[^>]*)?>")
# Subtypes a person writes; every other subtype (edits, deletions, joins, bots) is ignored.
_PERSON_SUBTYPES = {None, "file_share", "thread_broadcast"}


@dataclass(frozen=True)
class SlackTarget:
    """Where a Slack reply goes and which message shows progress."""

    channel: str
    thread_ts: str | None
    message_ts: str
    assistant: bool = False


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
    return _channel_key(team, str(event["channel"]), str(event.get("user")), direct=is_direct(event))


def _channel_key(team: str, channel: str, user: str, *, direct: bool) -> str:
    return f"slack:{team}:dm:{user}" if direct else f"slack:{team}:{channel}"


def is_assistant_thread(event: dict[str, Any]) -> bool:
    """A thread in the bot's DM: the agent view's assistant threads (status, title, prompts)."""
    return is_direct(event) and bool(event.get("thread_ts"))


def thread_of(event: dict[str, Any]) -> str:
    """The conversation thread: the thread root, the message itself, or the whole DM."""
    if is_direct(event) and not is_assistant_thread(event):
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
    """Reply in the mention's thread; in a DM, reply in the DM itself (or in its assistant thread)."""
    thread = None if thread_of(event) == "dm" else str(event.get("thread_ts") or event["ts"])
    return SlackTarget(
        channel=str(event["channel"]),
        thread_ts=thread,
        message_ts=str(event["ts"]),
        assistant=is_assistant_thread(event),
    )


def action_to_turn(body: dict[str, Any], action: dict[str, Any], text: str) -> tuple[Turn, SlackTarget]:
    """A button click as the `Turn` typing `text` in the clicked message's thread would make."""
    user = str(body["user"]["id"])
    team = str((body.get("team") or {}).get("id") or body["user"].get("team_id"))
    channel = str(body["channel"]["id"])
    message = body.get("message") or {}
    direct = channel.startswith("D")
    root = message.get("thread_ts")
    thread = str(root) if root else ("dm" if direct else str(message.get("ts") or body["container"]["message_ts"]))
    action_ts = str(action["action_ts"])
    turn = Turn(
        platform="slack",
        tenant=team,
        channel_key=_channel_key(team, channel, user, direct=direct),
        thread=thread,
        user=user,
        message_key=f"slack:{team}:{channel}:action:{action_ts}",
        text=text,
        is_direct=direct,
        received_at=dt.datetime.fromtimestamp(float(action_ts), tz=dt.UTC),
    )
    target = SlackTarget(
        channel=channel,
        thread_ts=None if thread == "dm" else thread,
        message_ts=str(message.get("ts") or body["container"]["message_ts"]),
        assistant=direct and thread != "dm",
    )
    return turn, target
