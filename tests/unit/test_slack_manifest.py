"""The Slack manifest lists exactly the events the code listens to and the scopes its calls need."""

from __future__ import annotations

import re
from pathlib import Path

import yaml
from typer.testing import CliRunner

from bots.cli import app
from bots.slack import manifest as slack_manifest
from bots.slack import texts
from bots.slack.app import SlackEdge

SLACK_CODE = Path(slack_manifest.__file__).parent


def _manifest() -> dict:  # type: ignore[type-arg]
    return dict(yaml.safe_load(slack_manifest.manifest_path().read_text(encoding="utf-8")))


def _client_calls() -> set[str]:
    """Every `client.<method>(` the Slack edge's code makes."""
    return {m for f in SLACK_CODE.glob("*.py") for m in re.findall(r"client\.(\w+)\(", f.read_text(encoding="utf-8"))}


def test_the_manifest_subscribes_to_exactly_the_events_with_a_listener() -> None:
    events = set(_manifest()["settings"]["event_subscriptions"]["bot_events"])
    assert events == set(slack_manifest.EVENT_SCOPES)
    assert {e.split(".")[0] for e in events} == set(SlackEdge.EVENTS)
    assert all(callable(getattr(SlackEdge, f"_on_{name}", None)) for name in SlackEdge.EVENTS)


def test_the_manifest_has_exactly_the_scopes_the_code_needs() -> None:
    calls = _client_calls()
    assert calls == set(slack_manifest.CLIENT_METHODS), (
        "a client call is missing from CLIENT_METHODS (or listed unused)"
    )
    methods = {m for call in calls for m in slack_manifest.CLIENT_METHODS[call]}
    assert methods <= set(slack_manifest.METHOD_SCOPES)
    needed = {slack_manifest.METHOD_SCOPES[m] for m in methods} | set(slack_manifest.EVENT_SCOPES.values())
    assert set(_manifest()["oauth_config"]["scopes"]["bot"]) == needed - {""}


def test_the_manifest_has_the_agent_view_interactivity_and_socket_mode_off() -> None:
    manifest = _manifest()
    assert manifest["features"]["agent_view"]["suggested_prompts"] == texts.SUGGESTED_PROMPTS  # one wording
    assert manifest["settings"]["interactivity"]["is_enabled"] is True
    assert manifest["settings"]["socket_mode_enabled"] is False


def test_manifest_slack_prints_it_with_the_url_or_for_socket_mode() -> None:
    runner = CliRunner()
    done = runner.invoke(app, ["manifest", "slack", "--url", "https://tw.example.org/slack/events"])
    assert done.exit_code == 0, done.output
    printed = yaml.safe_load(done.stdout)
    settings = printed["settings"]
    assert settings["event_subscriptions"]["request_url"] == "https://tw.example.org/slack/events"
    assert settings["interactivity"]["request_url"] == "https://tw.example.org/slack/events"
    done = runner.invoke(app, ["manifest", "slack", "--socket-mode"])
    settings = yaml.safe_load(done.stdout)["settings"]
    assert settings["socket_mode_enabled"] is True and "request_url" not in settings["event_subscriptions"]
