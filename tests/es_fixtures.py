"""Elasticsearch response fixtures: synthetic ones written from the API documentation, or recorded
from a live cluster by `tests/integration/test_elasticsearch_record.py`. The loopback server in
`test_elasticsearch_wire.py` answers with them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

FOLDER = Path(__file__).resolve().parent / "fixtures" / "elasticsearch"
# Every index and alias name in a fixture uses this prefix; a recording's own prefix is rewritten to it.
PREFIX = "threadwise"


def name_of(method: str, path: str, body: Any, status: int = 200, scroll: bool = False) -> str | None:
    """Which fixture answers this request (None: not one the backend makes); `scroll`: the query
    string opens a scroll (`?scroll=…`), as a document's delete does to find its entries."""
    if path.startswith("/_nodes/"):
        return "info"
    if path == "/_search/scroll":
        return "clear_scroll" if method == "DELETE" else "scroll"
    if method == "DELETE":
        return "delete_index"
    if path.endswith("/_refresh"):
        return "refresh"
    if path.startswith("/_alias/"):
        return "get_alias" if status == 200 else "get_alias_missing"
    if path == "/_reindex":
        return "reindex"
    if path == "/_aliases":
        return "update_aliases"
    if path.endswith("/_bulk"):
        return "bulk"
    if path.endswith("/_search") and scroll:
        return "scroll_search"
    if path.endswith("/_search"):
        return "search_knn" if isinstance(body, dict) and "knn" in body else "search_bm25"
    if method == "PUT" and path.count("/") == 1:
        return "create_index"
    return None


def load(name: str) -> tuple[int, Any]:
    """(HTTP status, body) of a fixture."""
    data = json.loads((FOLDER / f"{name}.json").read_text(encoding="utf-8"))
    assert "_fixture" in data, f"{name}.json does not say whether it is synthetic or recorded"
    return int(data["status"]), data["body"]


def provenance(name: str) -> dict[str, Any]:
    """The `_fixture` label: synthetic, or recorded from which cluster and when."""
    return dict(json.loads((FOLDER / f"{name}.json").read_text(encoding="utf-8"))["_fixture"])


def save(name: str, status: int, body: Any, label: dict[str, Any], prefix: str, folder: Path = FOLDER) -> None:
    """Write a recorded response, with the recording's index prefix rewritten to `PREFIX`."""
    text = json.dumps(body).replace(f"{prefix}-", f"{PREFIX}-")
    data = {"_fixture": label, "status": status, "body": json.loads(text)}
    (folder / f"{name}.json").write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
