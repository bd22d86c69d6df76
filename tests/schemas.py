"""Public JSON schemas kept beside the repository in `../shared/schemas` (never copied into it).

CI has `../shared/`; a worktree one level deeper finds it one folder further up. Tests that need a
schema are skipped, with this reason, where it is absent.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[1]
CARD_SCHEMA = "adaptive-card-1.5.schema.json"
MANIFEST_SCHEMA = "teams-manifest-v1.29.schema.json"


def optional_schema(name: str) -> dict[str, Any] | None:
    """The schema `name` from `../shared/schemas`, or None where it is absent."""
    for folder in (REPO.parent, REPO.parent.parent):
        path = folder / "shared" / "schemas" / name
        if path.exists():
            loaded: dict[str, Any] = json.loads(path.read_text())
            return loaded
    return None


def shared_schema(name: str) -> dict[str, Any]:
    """The schema `name` from `../shared/schemas`; skips the calling test, with the reason, where it is absent."""
    schema = optional_schema(name)
    if schema is None:
        pytest.skip(f"../shared/schemas/{name} is absent (public schema kept outside the repository)")
    return schema
