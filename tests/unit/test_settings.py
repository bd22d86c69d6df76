"""Settings are read once; a wrong value names its variable."""

from __future__ import annotations

from pathlib import Path

import pytest

from bots.settings import SettingsError, load_settings


def test_the_encoder_defaults_to_onnx_int8(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("THREADWISE_ENCODER", raising=False)
    assert load_settings().encoder == "onnx-int8"


@pytest.mark.parametrize("value", ["onnx", "onnx-int8", "torch"])
def test_each_encoder_can_be_chosen(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv("THREADWISE_ENCODER", value)
    assert load_settings().encoder == value


def test_a_wrong_encoder_stops_start_up_naming_the_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("THREADWISE_ENCODER", "fast")
    with pytest.raises(SettingsError, match=r"THREADWISE_ENCODER: .*'fast'"):
        load_settings()


def test_the_model_export_lives_in_the_data_dir_unless_a_cache_is_named(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("THREADWISE_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("THREADWISE_MODEL_CACHE", raising=False)
    assert load_settings().models_dir == tmp_path / "data" / "models"
    monkeypatch.setenv("THREADWISE_MODEL_CACHE", str(tmp_path / "shared"))
    assert load_settings().models_dir == tmp_path / "shared"
