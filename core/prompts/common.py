"""Helpers the prompt modules share: JSON replies and the evidence block."""

from __future__ import annotations

from typing import Any

from langchain_core.utils.json import parse_json_markdown

from core.contracts import Evidence

MAX_SOURCE_CHARS = 1200


def json_object(text: str) -> dict[str, Any]:
    """The JSON object in a reply, with or without a Markdown code fence; `ValueError` otherwise."""
    value = parse_json_markdown(text)
    if not isinstance(value, dict):
        raise ValueError(f"expected a JSON object, got {type(value).__name__}")
    return value


def source_block(evidence: list[Evidence]) -> str:
    """Numbered sources as the model sees them: `[n] title (date, section)` and the text."""
    blocks = []
    for n, item in enumerate(evidence, start=1):
        where = ", ".join(p for p in (item.date.isoformat() if item.date else None, item.section) if p)
        heading = f"[{n}] {item.title}" + (f" ({where})" if where else "")
        text = item.text if len(item.text) <= MAX_SOURCE_CHARS else item.text[:MAX_SOURCE_CHARS] + " …"
        blocks.append(f"{heading}\n{text}")
    return "\n\n".join(blocks)
