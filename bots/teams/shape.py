"""The shape of a Bot Framework activity, checked before the SDK or the converters read it.

The SDK's deserialiser and the converters expect the schema's types (an object where the schema has
`ConversationAccount`, a string where it has `type`); an activity with other types would fail deep
inside the turn as a 500. It is refused at the door instead, with the field named.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, StrictStr, ValidationError


class _Account(BaseModel):
    model_config = ConfigDict(extra="allow")
    id: StrictStr | None = None


class _Activity(BaseModel):
    """The fields of an activity the bot reads, with the types of the Bot Framework schema."""

    model_config = ConfigDict(extra="allow", populate_by_name=True)
    type: StrictStr
    id: StrictStr | None = None
    text: StrictStr | None = None
    from_: _Account | None = Field(default=None, alias="from")
    conversation: _Account | None = None
    recipient: _Account | None = None
    serviceUrl: StrictStr | None = None  # the schema's camelCase names
    channelId: StrictStr | None = None
    replyToId: StrictStr | None = None
    entities: list[dict[str, Any]] | None = None
    attachments: list[dict[str, Any]] | None = None
    channelData: dict[str, Any] | None = None


def malformed(received: object) -> str | None:
    """Why `received` is not an activity the bot can read (None when it is)."""
    if not isinstance(received, dict):
        return "the body is not a JSON object (an activity)"
    try:
        _Activity.model_validate(received)
    except ValidationError as exc:
        fields = sorted({".".join(str(p) for p in error["loc"]) for error in exc.errors()})
        return "the activity's fields have the wrong types: " + ", ".join(fields)
    return None
