"""Structured JSON logs for `threadwise serve`: one JSON object a line, for structlog and stdlib loggers alike."""

from __future__ import annotations

import logging
import sys
from typing import TextIO

import structlog


def configure_logging(*, level: int = logging.INFO, stream: TextIO | None = None) -> None:
    """Route structlog (the per-turn lines) and the libraries' stdlib logging through one JSON renderer."""
    shared: list[structlog.types.Processor] = [
        structlog.contextvars.merge_contextvars,
        structlog.stdlib.add_log_level,
        structlog.stdlib.add_logger_name,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
    ]
    structlog.configure(
        processors=[*shared, structlog.stdlib.ProcessorFormatter.wrap_for_formatter],
        logger_factory=structlog.stdlib.LoggerFactory(),
        wrapper_class=structlog.stdlib.BoundLogger,
        cache_logger_on_first_use=True,
    )
    formatter = structlog.stdlib.ProcessorFormatter(
        foreign_pre_chain=shared,
        processors=[
            structlog.stdlib.ProcessorFormatter.remove_processors_meta,
            structlog.processors.format_exc_info,
            structlog.processors.JSONRenderer(),
        ],
    )
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(formatter)
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(logging.WARNING)
    # The turn lines are INFO; the libraries stay at WARNING so a busy server logs one line a turn.
    logging.getLogger("threadwise").setLevel(level)
