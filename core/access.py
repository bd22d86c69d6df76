"""Which collections a channel may read (SPEC section 5)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from core.knowledge import DEFAULT_COLLECTION

UnmappedPolicy = Literal["default", "deny"]


class AccessDeniedError(Exception):
    """The channel is not mapped and unmapped channels are denied."""


def readable_collections(
    channel_key: str | None,
    mapping: Mapping[str, list[str]],
    unmapped: UnmappedPolicy,
) -> list[str] | None:
    """The collections a channel reads; None (every collection) for the CLI operator."""
    if channel_key is None:
        return None
    if channel_key in mapping:
        return list(mapping[channel_key])
    if unmapped == "deny":
        raise AccessDeniedError(f"channel {channel_key} is not mapped to any collection")
    return [DEFAULT_COLLECTION]
