"""Structured facts and table rows: extraction, units and matching."""
