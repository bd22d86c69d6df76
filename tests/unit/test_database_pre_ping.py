"""The pool pings a server database before each checkout, never an embedded SQLite file (issue 16)."""

from __future__ import annotations

from pathlib import Path

from storage.database import Database


def test_sqlite_connections_are_not_pinged(tmp_path: Path) -> None:
    db = Database(url=f"sqlite:///{tmp_path / 'threadwise.db'}")
    assert db.engine.pool._pre_ping is False


def test_postgres_connections_are_pinged_so_a_restart_is_survived() -> None:
    db = Database(url="postgresql://user:secret@127.0.0.1:1/threadwise")  # never connected
    assert db.engine.pool._pre_ping is True
