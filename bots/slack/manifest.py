"""The Slack app manifest: the scopes each Web API method and event needs, and the printed manifest."""

from __future__ import annotations

from pathlib import Path

import yaml

METHOD_SCOPES: dict[str, str] = {
    "auth.test": "",
    "chat.postMessage": "chat:write",
    "chat.update": "chat:write",
    "chat.startStream": "chat:write",
    "chat.appendStream": "chat:write",
    "chat.stopStream": "chat:write",
    "reactions.add": "reactions:write",
    "reactions.remove": "reactions:write",
    # setStatus takes chat:write since March 2026 (assistant:write is being phased out for it).
    "assistant.threads.setStatus": "chat:write",
    "assistant.threads.setTitle": "assistant:write",
    "assistant.threads.setSuggestedPrompts": "assistant:write",
    "files.getUploadURLExternal": "files:write",
    "files.completeUploadExternal": "files:write",
    "apps.connections.open": "",  # the app-level token (connections:write), not a bot scope
}
"""Every Web API method the Slack edge calls, with the bot scope it needs ("" for none)."""

CLIENT_METHODS: dict[str, tuple[str, ...]] = {
    "chat_postMessage": ("chat.postMessage",),
    "chat_update": ("chat.update",),  # the stale-claim sweep replaces a reply it had posted
    "chat_stream": ("chat.startStream", "chat.appendStream", "chat.stopStream"),
    "reactions_add": ("reactions.add",),
    "reactions_remove": ("reactions.remove",),
    "assistant_threads_setStatus": ("assistant.threads.setStatus",),
    "assistant_threads_setTitle": ("assistant.threads.setTitle",),
    "assistant_threads_setSuggestedPrompts": ("assistant.threads.setSuggestedPrompts",),
    "files_upload_v2": ("files.getUploadURLExternal", "files.completeUploadExternal"),
    "apps_connections_open": ("apps.connections.open",),
}
"""The slack_sdk client methods the code calls and the Web API methods each one uses."""

EVENT_SCOPES: dict[str, str] = {
    "app_mention": "app_mentions:read",
    "message.channels": "channels:history",
    "message.groups": "groups:history",
    "message.im": "im:history",
    "assistant_thread_started": "assistant:write",
}
"""The manifest's bot events (a bolt `message` listener is the three `message.*` subscriptions)."""


def manifest_path() -> Path:
    """`manifests/slack/manifest.yaml` in the source tree."""
    return Path(__file__).resolve().parents[2] / "manifests" / "slack" / "manifest.yaml"


def slack_manifest(url: str | None = None, *, socket_mode: bool = False) -> str:
    """The manifest as YAML: `url` for events and interactivity, or Socket Mode without URLs."""
    manifest = yaml.safe_load(manifest_path().read_text(encoding="utf-8"))
    settings = manifest["settings"]
    settings["socket_mode_enabled"] = socket_mode
    for section in (settings["event_subscriptions"], settings["interactivity"]):
        if socket_mode:
            section.pop("request_url", None)
        elif url:
            section["request_url"] = url
    return str(yaml.safe_dump(manifest, sort_keys=False, allow_unicode=True))
