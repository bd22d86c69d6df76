"""The Teams app package: `manifests/teams/manifest.json` filled in for one bot, zipped with its icons."""

from __future__ import annotations

import json
import re
import zipfile
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

TEMPLATE_DIR = Path(__file__).resolve().parents[2] / "manifests" / "teams"
PLACEHOLDER_ID = "00000000-0000-0000-0000-000000000000"
GUID = re.compile(r"^[0-9a-fA-F]{8}-([0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}$")


class ManifestError(ValueError):
    """The package cannot be built (a wrong app id, a missing template)."""


def domain_of(value: str) -> str:
    """`https://bot.example.com/api/messages` or `bot.example.com` → `bot.example.com`."""
    parsed = urlparse(value if "://" in value else f"https://{value}")
    if not parsed.hostname:
        raise ManifestError(f"not a domain: {value!r}")
    return parsed.hostname if parsed.port is None else f"{parsed.hostname}:{parsed.port}"


def teams_manifest(template: dict[str, Any], *, app_id: str, domain: str | None) -> dict[str, Any]:
    """The manifest for the bot registered as `app_id` (the Azure Bot's Microsoft App ID)."""
    if not GUID.match(app_id):
        raise ManifestError(f"the app id must be the Azure Bot's Microsoft App ID (a GUID), not {app_id!r}")
    manifest: dict[str, Any] = json.loads(json.dumps(template))
    manifest["id"] = app_id
    for bot in manifest["bots"]:
        bot["botId"] = app_id
    # Resource-specific consent (ChannelMessage.Read.Group) is granted to this Entra app.
    manifest["webApplicationInfo"]["id"] = app_id
    if domain:
        manifest["validDomains"] = [domain_of(domain)]
    return manifest


def build_package(*, app_id: str, domain: str | None, out: Path, template_dir: Path = TEMPLATE_DIR) -> Path:
    """Write the upload package (`manifest.json`, `color.png`, `outline.png` at the zip's root)."""
    source = template_dir / "manifest.json"
    if not source.exists():
        raise ManifestError(f"the Teams manifest template is missing: {source}")
    manifest = teams_manifest(json.loads(source.read_text()), app_id=app_id, domain=domain)
    icons = [manifest["icons"]["color"], manifest["icons"]["outline"]]
    out.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as package:
        package.writestr("manifest.json", json.dumps(manifest, indent=2) + "\n")
        for icon in icons:
            package.write(template_dir / icon, arcname=icon)
    return out
