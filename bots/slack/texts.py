"""Every user-facing text the Slack edge writes, in one place for review and translation."""

from __future__ import annotations

SOURCES = "*Sources*"
SHOW_MORE = "Show more"
EXPORT_CSV = "Export CSV"
FEEDBACK_UP = "Helpful"
FEEDBACK_DOWN = "Not helpful"
FEEDBACK_UP_LABEL = "Mark this answer as helpful"
FEEDBACK_DOWN_LABEL = "Mark this answer as not helpful"
CONTINUED = "(continued)"
MORE_ROWS = "({count} more rows)"

STATUS = "is searching the documents…"
LOADING_MESSAGES = [
    "Reading your question…",
    "Searching the documents…",
    "Checking the sources…",
]
SUGGESTED_PROMPTS_TITLE = "Ask about your organisation's documents"
SUGGESTED_PROMPTS = [
    {"title": "What can you do?", "message": "help"},
    {"title": "Find a policy", "message": "What is the parental leave policy?"},
    {"title": "List records", "message": "List all receipts from 2024"},
]
TITLE_CHARS = 80

EXPORT_COMMENT = "All {total} rows of this table as CSV."
EXPORT_GONE = "That table is no longer available to export; ask the question again."
