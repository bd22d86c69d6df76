"""Every text the Teams edge shows people, in one place to review and translate together."""

from __future__ import annotations

SEARCHING = "Searching the documents…"
WRITING = "Writing the answer…"
SHOW_MORE = "Show more"
EXPORT_CSV = "Export CSV"
ROWS_SHOWN = "{shown} of {total} rows"
CHOOSE = "Narrow it down:"
CARD_FALLBACK = "This answer has a table or buttons your Teams client cannot show."
CARD_ACTION_DONE = "On it."
