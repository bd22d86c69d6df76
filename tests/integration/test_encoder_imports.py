"""The question path does not import PyTorch when the ONNX encoder is configured and its export exists."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REPO, require_torch
from tests.environment import product_env

pytestmark = pytest.mark.model
HEAVY = ("torch", "transformers", "sentence_transformers")

# `threadwise ask` as the console script runs it; the modules loaded are listed when it exits.
ASK = """
import atexit, sys
atexit.register(lambda: print("HEAVY", *sorted(m for m in {heavy!r} if m in sys.modules)))
sys.argv = ["threadwise", "ask", "How many vacation days do employees get?"]
from bots.cli import main
main()
"""


def _ask(data_dir: Path, encoder: str) -> list[str]:
    env = product_env(PYTHONPATH=str(REPO), THREADWISE_DATA_DIR=str(data_dir), THREADWISE_ENCODER=encoder)
    done = subprocess.run(
        [sys.executable, "-c", ASK.format(heavy=HEAVY)],
        env=env,
        cwd=data_dir,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    heavy = [line for line in done.stdout.splitlines() if line.startswith("HEAVY")]
    assert heavy, done.stdout
    return heavy[-1].split()[1:]


@pytest.mark.parametrize("encoder", ["onnx", "onnx-int8"])
def test_ask_with_the_onnx_encoder_never_imports_pytorch(tmp_path: Path, onnx_int8_embedder: Any, encoder: str) -> None:
    # The session's embedders made both exports in the shared model cache (a process without one
    # builds the ONNX graph first, with the onnx library).
    assert _ask(tmp_path, encoder) == []


def test_ask_with_the_torch_encoder_does_import_it(tmp_path: Path) -> None:
    """The check above can see PyTorch when it is there."""
    require_torch()
    assert "torch" in _ask(tmp_path, "torch")
