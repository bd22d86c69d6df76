"""Evaluation commands: behaviour sets (and, later, retrieval benchmarks)."""
