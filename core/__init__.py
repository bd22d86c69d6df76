"""Threadwise's platform-neutral core: contracts, ports, ingestion logic and the orchestration graph."""
