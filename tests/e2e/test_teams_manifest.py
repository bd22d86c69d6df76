"""`threadwise manifest teams`: the upload package, validated against the Teams manifest schema."""

from __future__ import annotations

import io
import json
import subprocess
import zipfile
from pathlib import Path

import jsonschema
import numpy as np
import pytest
from PIL import Image

from tests.environment import product_env
from tests.schemas import MANIFEST_SCHEMA, shared_schema

pytestmark = pytest.mark.e2e
APP_ID = "5c1b7c61-0f3e-4d4e-9a57-3f0d8b1e2a90"


def _run(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = product_env()
    env["THREADWISE_DATA_DIR"] = str(tmp_path / "data")
    return subprocess.run(
        ["threadwise", "manifest", "teams", *args], env=env, capture_output=True, text=True, check=False
    )


def _package(tmp_path: Path) -> zipfile.ZipFile:
    out = tmp_path / "app.zip"
    done = _run(tmp_path, "--app-id", APP_ID, "--domain", "https://bot.example.com/api/messages", "--out", str(out))
    assert done.returncode == 0, done.stderr
    return zipfile.ZipFile(out)


def test_the_package_holds_the_manifest_and_both_icons(tmp_path: Path) -> None:
    with _package(tmp_path) as package:
        assert sorted(package.namelist()) == ["color.png", "manifest.json", "outline.png"]
        manifest = json.loads(package.read("manifest.json"))
        colour = Image.open(io.BytesIO(package.read("color.png")))
        outline = Image.open(io.BytesIO(package.read("outline.png")))
    assert manifest["manifestVersion"] == "1.29" and manifest["id"] == APP_ID
    bot = manifest["bots"][0]
    assert bot["botId"] == APP_ID and sorted(bot["scopes"]) == ["groupChat", "personal", "team"]
    assert {"name": "ChannelMessage.Read.Group", "type": "Application"} in manifest["authorization"]["permissions"][
        "resourceSpecific"
    ]
    assert manifest["webApplicationInfo"]["id"] == APP_ID and manifest["validDomains"] == ["bot.example.com"]
    assert colour.size == (192, 192) and outline.size == (32, 32)
    # The outline icon is white on transparency only (Teams tints it).
    pixels = np.asarray(outline.convert("RGBA"))
    visible = pixels[pixels[:, :, 3] > 0][:, :3]
    assert len(visible) > 50 and (visible == 255).all()


def test_the_packaged_manifest_validates_against_the_v1_29_schema(tmp_path: Path) -> None:
    schema = shared_schema(MANIFEST_SCHEMA)
    with _package(tmp_path) as package:
        manifest = json.loads(package.read("manifest.json"))
    # Not `jsonschema.validate`: its check of the schema itself trips on `\p{L}` patterns Python's `re`
    # cannot compile (in parts of the schema this manifest does not use).
    jsonschema.validators.validator_for(schema)(schema).validate(manifest)
    broken = {**manifest, "bots": [{**manifest["bots"][0], "scopes": ["everywhere"]}]}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validators.validator_for(schema)(schema).validate(broken)


def test_a_wrong_or_missing_app_id_stops_with_a_message(tmp_path: Path) -> None:
    wrong = _run(tmp_path, "--app-id", "my-bot", "--out", str(tmp_path / "a.zip"))
    assert wrong.returncode == 2 and "GUID" in wrong.stderr
    missing = _run(tmp_path, "--out", str(tmp_path / "b.zip"))
    assert missing.returncode == 2 and "--app-id" in missing.stderr
    assert not (tmp_path / "a.zip").exists() and not (tmp_path / "b.zip").exists()
