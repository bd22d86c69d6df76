"""Pure converters at the Slack and Teams edges."""

from __future__ import annotations

import datetime as dt

from bots.presentation import source_parts
from bots.slack import convert as slack
from bots.slack import render
from bots.teams import convert as teams
from core.contracts import Citation
from tests.servers import teams_activity
from tests.unit.test_graph import CLOCK


def test_slack_mention_becomes_a_turn_in_its_thread() -> None:
    event = {
        "type": "app_mention",
        "user": "U1",
        "text": "<@UBOT> What is   the policy?",
        "ts": "1700000000.000100",
        "channel": "C1",
    }
    turn = slack.event_to_turn(event, "T1")
    assert (turn.platform, turn.tenant, turn.channel_key, turn.thread) == (
        "slack",
        "T1",
        "slack:T1:C1",
        "1700000000.000100",
    )
    assert turn.message_key == "slack:T1:C1:1700000000.000100"
    assert turn.text == "What is the policy?" and not turn.is_direct
    assert turn.received_at == dt.datetime.fromtimestamp(1700000000.0001, tz=dt.UTC)
    assert slack.target_of(event) == slack.SlackTarget(
        channel="C1", thread_ts="1700000000.000100", message_ts="1700000000.000100"
    )


def test_slack_reply_in_thread_and_dm_keys() -> None:
    reply = {"user": "U1", "text": "more", "ts": "2.0", "thread_ts": "1.0", "channel": "C1"}
    assert slack.event_to_turn(reply, "T1").thread == "1.0"
    assert slack.target_of(reply).thread_ts == "1.0"
    dm = {"user": "U1", "text": "hi", "ts": "3.0", "channel": "D1", "channel_type": "im"}
    turn = slack.event_to_turn(dm, "T1")
    assert (turn.channel_key, turn.thread, turn.is_direct) == ("slack:T1:dm:U1", "dm", True)
    assert slack.target_of(dm).thread_ts is None
    assistant = {**dm, "ts": "4.0", "thread_ts": "3.0"}  # a thread in the agent view
    assert slack.event_to_turn(assistant, "T1").thread == "3.0"
    assert slack.target_of(assistant) == slack.SlackTarget(
        channel="D1", thread_ts="3.0", message_ts="4.0", assistant=True
    )


def test_slack_button_click_is_the_turn_typing_it_would_make() -> None:
    body = {
        "type": "block_actions",
        "user": {"id": "U1", "team_id": "T1"},
        "team": {"id": "T1"},
        "channel": {"id": "C1"},
        "container": {"type": "message", "message_ts": "5.0", "channel_id": "C1"},
        "message": {"ts": "5.0", "thread_ts": "1.0"},
    }
    action = {"action_id": "threadwise_choice:0", "value": "2024", "action_ts": "1700000001.5"}
    turn, target = slack.action_to_turn(body, action, "2024")
    typed = slack.event_to_turn({"user": "U1", "text": "2024", "ts": "6.0", "thread_ts": "1.0", "channel": "C1"}, "T1")
    assert (turn.channel_key, turn.thread, turn.user, turn.text) == (typed.channel_key, typed.thread, "U1", "2024")
    assert turn.message_key == "slack:T1:C1:action:1700000001.5"
    assert target == slack.SlackTarget(channel="C1", thread_ts="1.0", message_ts="5.0")


def test_slack_only_people_are_answered() -> None:
    person = {"user": "U1", "text": "q"}
    assert slack.is_from_person(person, "UBOT")
    assert not slack.is_from_person({"user": "UBOT", "text": "q"}, "UBOT")
    assert not slack.is_from_person({"user": "U2", "bot_id": "B2", "text": "q"}, "UBOT")
    assert not slack.is_from_person({"subtype": "message_changed", "message": {}}, "UBOT")
    assert slack.is_from_person({"user": "U1", "subtype": "file_share"}, "UBOT")


def _citation(url: str | None) -> Citation:
    return Citation(
        n=1,
        doc_id="d",
        chunk_id="d:0",
        title="Handbook",
        date=dt.date(2025, 1, 15),
        section="Leave",
        url=url,
        snippet="s",
        relevance=0.7,
    )


def test_slack_sources_link_to_the_document() -> None:
    assert (
        render.source_line(_citation("https://x.example/h")) == "[1] <https://x.example/h|Handbook>, 2025-01-15, §Leave"
    )
    assert source_parts(_citation(None), "Handbook") == "[1] Handbook, 2025-01-15, §Leave"


def test_teams_channel_mention_is_removed_and_keys_are_canonical() -> None:
    activity = teams_activity(
        activity_id="A1",
        text="What is the policy?",
        service_url="http://x",
        conversation_id="19:c@thread.tacv2;messageid=111",
        conversation_type="channel",
    )
    turn = teams.activity_to_turn(activity)
    assert turn is not None
    assert turn.text == "What is the policy?"
    assert (turn.channel_key, turn.thread, turn.message_key) == (
        "teams:tenant-1:19:c@thread.tacv2",
        "111",
        "teams:A1",
    )
    assert turn.received_at == dt.datetime(2026, 11, 21, 9, 0, tzinfo=dt.UTC) == CLOCK.now()


def test_teams_personal_chat_and_non_messages() -> None:
    activity = teams_activity(
        activity_id="A2",
        text="hi",
        service_url="http://x",
        conversation_id="a:1",
        conversation_type="personal",
        mention=False,
    )
    turn = teams.activity_to_turn(activity)
    assert turn is not None and (turn.channel_key, turn.thread, turn.is_direct) == (
        "teams:tenant-1:dm:aad-ada",
        "dm",
        True,
    )
    assert teams.activity_to_turn({**activity, "type": "conversationUpdate"}) is None
