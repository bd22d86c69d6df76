"""The environment a product subprocess gets in the tests: none of the caller's settings, one model export."""

from __future__ import annotations

import os

# Set for the whole session by tests/conftest.py: every data directory reads one ONNX export.
MODEL_CACHE = "THREADWISE_MODEL_CACHE"
SETTING_PREFIXES = ("THREADWISE_", "SLACK_", "Microsoft")


def product_env(**extra: str) -> dict[str, str]:
    """This process's environment without Threadwise, Slack or Teams settings (a developer's own must
    not leak into a test), keeping the session's model cache, plus `extra`."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(SETTING_PREFIXES)}
    if MODEL_CACHE in os.environ:
        env[MODEL_CACHE] = os.environ[MODEL_CACHE]
    return env | extra
