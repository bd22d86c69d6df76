"""What the service says to people on its own (queue and rate-limit notices), in one place for review."""

from __future__ import annotations

QUEUED = "I'm busy answering other questions right now: you are {position} in line, I'll answer here shortly."
TOO_BUSY = "Sorry, I'm too busy to take another question right now. Please try again in a minute."
RATE_LIMITED = (
    "You've asked {limit} questions in the last minute, which is as many as I take from one person. "
    "Please wait a moment and ask again."
)


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th … 11th, 12th, 13th … 21st."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
