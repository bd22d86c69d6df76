"""Settings, read once from the environment and `.env` (SPEC section 9)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Literal

from pydantic import AliasChoices, Field, SecretStr, ValidationError, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


class SettingsError(Exception):
    """A setting is wrong; the message names it."""


class Settings(BaseSettings):
    """Every knob of Threadwise; names are the environment variables."""

    model_config = SettingsConfigDict(
        env_prefix="THREADWISE_", env_file=".env", env_file_encoding="utf-8", extra="ignore"
    )

    data_dir: Path = Path(".threadwise")
    database_url: str | None = None
    search_backend: Literal["embedded", "elasticsearch"] = "embedded"
    elasticsearch_url: str | None = None
    elasticsearch_rrf_retriever: bool = False
    # Replicas of each new index: 0 keeps a single-node cluster green; production clusters want 1+.
    elasticsearch_replicas: int = Field(default=1, ge=0)
    # How new segment indices hold vectors for kNN: int8_hnsw (a quarter of the memory; SciFact held
    # within 0.002 nDCG@10, BENCHMARKS.md) or float hnsw.
    elasticsearch_vector_index: Literal["hnsw", "int8_hnsw"] = "int8_hnsw"
    # The index names' prefix, so several bots (or test runs) can share one cluster.
    elasticsearch_prefix: str = "threadwise"
    embedding_model: str = "all-MiniLM-L6-v2"
    encoder: Literal["onnx", "onnx-int8", "torch"] = "onnx-int8"
    # Where the ONNX export is cached; several data directories (or servers) may share one.
    model_cache: Path | None = None
    reranker_model: str | None = None
    llm_provider: Literal["none", "openai", "ollama"] = "none"
    llm_base_url: str | None = None
    llm_model: str | None = None
    llm_api_key: SecretStr | None = None
    llm_timeout_s: float = Field(default=30.0, gt=0)
    llm_max_retries: int = Field(default=2, ge=0, le=10)
    llm_turn_budget_s: float = Field(default=20.0, gt=0)
    llm_temperature: float = Field(default=0.2, ge=0.0, le=2.0)
    source_base_url: str | None = None
    public_url: str | None = None
    export_secret: SecretStr | None = None
    export_link_ttl_hours: float = Field(default=24.0, gt=0)
    rate_limit_per_minute: int = Field(default=10, ge=0)
    max_concurrent_turns: int = Field(default=4, ge=1, le=256)
    turn_queue_size: int = Field(default=32, ge=0, le=10_000)
    unmapped_channels: Literal["default", "deny"] = "default"
    retention_days: int = Field(default=90, ge=1)
    # How long a claimed turn is its worker's; after that the sweep re-answers it (a crash mid-turn).
    lease_seconds: float = Field(default=300.0, ge=1.0)
    cpu_workers: int = Field(default=2, ge=1, le=64)
    channel_mismatch_probe: bool = False
    fixed_now: dt.datetime | None = None

    slack_bot_token: SecretStr | None = Field(default=None, validation_alias=AliasChoices("SLACK_BOT_TOKEN"))
    slack_signing_secret: SecretStr | None = Field(default=None, validation_alias=AliasChoices("SLACK_SIGNING_SECRET"))
    slack_app_token: SecretStr | None = Field(default=None, validation_alias=AliasChoices("SLACK_APP_TOKEN"))
    slack_api_url: str | None = None
    microsoft_app_id: str | None = Field(default=None, validation_alias=AliasChoices("MicrosoftAppId"))
    microsoft_app_password: SecretStr | None = Field(
        default=None, validation_alias=AliasChoices("MicrosoftAppPassword")
    )
    microsoft_app_type: Literal["MultiTenant", "SingleTenant", "UserAssignedMSI"] = Field(
        default="MultiTenant", validation_alias=AliasChoices("MicrosoftAppType")
    )
    microsoft_app_tenant_id: str | None = Field(default=None, validation_alias=AliasChoices("MicrosoftAppTenantId"))

    @field_validator(
        "database_url",
        "elasticsearch_url",
        "source_base_url",
        "public_url",
        "slack_api_url",
        "llm_base_url",
        "llm_model",
    )
    @classmethod
    def _blank_is_unset(cls, value: str | None) -> str | None:
        return value.strip() or None if value is not None else None

    @property
    def resolved_database_url(self) -> str:
        """The database URL: the setting, or a SQLite file in the data directory."""
        if self.database_url:
            return self.database_url
        return f"sqlite+aiosqlite:///{(self.data_dir / 'threadwise.db').resolve()}"

    @property
    def search_index_path(self) -> Path:
        """Where the embedded backend keeps its index."""
        return self.data_dir / "search.sqlite3"

    @property
    def models_dir(self) -> Path:
        """Where the ONNX export of the embedding model is cached (made once, on first use)."""
        return self.model_cache or self.data_dir / "models"

    @property
    def calibration_path(self) -> Path:
        """Where `eval calibrate` writes thresholds and the core reads them."""
        return self.data_dir / "calibration.json"


def load_settings() -> Settings:
    """Read the settings once; a wrong value raises `SettingsError` naming the variable."""
    try:
        return Settings()
    except ValidationError as exc:
        problems = []
        for error in exc.errors():
            field = str(error["loc"][0]) if error["loc"] else "?"
            name = _env_name(field)
            problems.append(f"{name}: {error['msg']} (got {error.get('input')!r})")
        raise SettingsError("invalid setting: " + "; ".join(problems)) from None


def _env_name(field: str) -> str:
    info = Settings.model_fields.get(field)
    alias = info.validation_alias if info else None
    if isinstance(alias, AliasChoices):
        return str(alias.choices[0])
    return f"THREADWISE_{field.upper()}" if field in Settings.model_fields else field
