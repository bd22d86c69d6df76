"""The async engine, sessions and migrations (SQLite by default, PostgreSQL by URL)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, event
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker, create_async_engine

MIGRATIONS = Path(__file__).resolve().parent / "migrations"


class NotMigratedError(RuntimeError):
    """The database schema is behind the code: run `threadwise db upgrade`."""


def as_utc(value: dt.datetime) -> dt.datetime:
    """SQLite returns naive datetimes; every stored time is UTC."""
    return value.replace(tzinfo=dt.UTC) if value.tzinfo is None else value.astimezone(dt.UTC)


class Database:
    """One engine and its session factory."""

    def __init__(self, *, url: str, search_path: str | None = None, echo: bool = False) -> None:
        parsed = make_url(url)
        if parsed.drivername == "sqlite":
            parsed = parsed.set(drivername="sqlite+aiosqlite")
        elif parsed.drivername in ("postgresql", "postgres"):
            parsed = parsed.set(drivername="postgresql+asyncpg")
        if parsed.drivername.startswith("sqlite") and parsed.database:
            Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
        self.url = parsed
        connect_args: dict[str, object] = {}
        if search_path and parsed.drivername.startswith("postgresql"):
            # A private schema per test run (or per tenant deployment) on a shared server.
            connect_args["server_settings"] = {"search_path": search_path}
        # pre-ping: a connection left dead by a database server restart is replaced, not handed to a turn.
        # An embedded SQLite file has no server to restart, so there the ping is only an extra round trip
        # through aiosqlite's thread on every session (four or five per turn).
        pre_ping = not parsed.drivername.startswith("sqlite")
        self.engine: AsyncEngine = create_async_engine(
            parsed, echo=echo, connect_args=connect_args, pool_pre_ping=pre_ping
        )
        if parsed.drivername.startswith("sqlite"):
            event.listen(self.engine.sync_engine, "connect", _sqlite_pragmas)
        self.sessions = async_sessionmaker(self.engine, expire_on_commit=False, class_=AsyncSession)

    @property
    def is_sqlite(self) -> bool:
        """True for the embedded default."""
        return self.url.drivername.startswith("sqlite")

    async def upgrade(self) -> None:
        """Apply every pending Alembic migration."""
        async with self.engine.begin() as connection:
            await connection.run_sync(_run_upgrade)

    async def current_revision(self) -> str | None:
        """The revision the database is at (None when never migrated)."""
        async with self.engine.connect() as connection:
            return await connection.run_sync(lambda c: MigrationContext.configure(c).get_current_revision())

    @staticmethod
    def head_revision() -> str | None:
        """The newest migration the code has."""
        return ScriptDirectory.from_config(_alembic_config()).get_current_head()

    async def ensure_migrated(self) -> None:
        """Raise `NotMigratedError` unless the database is at the code's head revision."""
        head = self.head_revision()
        current = await self.current_revision()
        if current != head:
            raise NotMigratedError(
                f"the database at {self.url.render_as_string(hide_password=True)} is at revision "
                f"{current or 'none'}, the code needs {head}: run `threadwise db upgrade`"
            )

    async def dispose(self) -> None:
        """Close every pooled connection."""
        await self.engine.dispose()


def _alembic_config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


def _run_upgrade(connection: Connection) -> None:
    config = _alembic_config()
    config.attributes["connection"] = connection
    command.upgrade(config, "head")


def _sqlite_pragmas(dbapi_connection: object, _record: object) -> None:
    cursor = dbapi_connection.cursor()  # type: ignore[attr-defined]
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()
