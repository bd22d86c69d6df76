"""Alembic environment: runs on the connection `storage.database.Database.upgrade` hands in."""

from __future__ import annotations

from alembic import context

from storage.models import Base

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("run migrations with `threadwise db upgrade`, which supplies the connection")

context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
