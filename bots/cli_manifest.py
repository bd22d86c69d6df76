"""`threadwise manifest …`: each platform's app manifest, ready to upload."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from bots.cli_common import app, err
from bots.cli_common import load_or_exit as _settings

manifest_app = typer.Typer(help="Print a platform's app manifest.", no_args_is_help=True)
app.add_typer(manifest_app, name="manifest")


@manifest_app.command("teams")
def manifest_teams(
    out: Annotated[Path, typer.Option(help="Where to write the upload package (a .zip).")],
    app_id: Annotated[
        str | None, typer.Option(help="The Azure Bot's Microsoft App ID (default: MicrosoftAppId).")
    ] = None,
    domain: Annotated[
        str | None, typer.Option(help="The bot's public host, for validDomains (default: THREADWISE_PUBLIC_URL).")
    ] = None,
) -> None:
    """Build the Teams app package (manifest.json and both icons) to upload in Teams or the admin center."""
    from bots.teams.manifest import ManifestError, build_package

    settings = _settings()
    bot_id = app_id or settings.microsoft_app_id
    if not bot_id:
        err.print("[red]--app-id (or MicrosoftAppId) is required: the Azure Bot's Microsoft App ID[/red]")
        raise typer.Exit(2)
    try:
        path = build_package(app_id=bot_id, domain=domain or settings.public_url, out=out)
    except ManifestError as exc:
        err.print(f"[red]{escape(str(exc))}[/red]")
        raise typer.Exit(2) from None
    err.print(f"Teams app package written to {path}")


@manifest_app.command("slack")
def manifest_slack(
    url: Annotated[
        str | None,
        typer.Option(help="The public `/slack/events` URL, set for both events and interactivity."),
    ] = None,
    socket_mode: Annotated[
        bool, typer.Option("--socket-mode", help="Socket Mode (SLACK_APP_TOKEN) instead of a public URL.")
    ] = False,
) -> None:
    """Print the Slack app manifest (YAML) for "Create an app from a manifest"."""
    from bots.slack.manifest import slack_manifest

    if url and socket_mode:
        raise typer.BadParameter("--url and --socket-mode exclude each other")
    sys.stdout.write(slack_manifest(url, socket_mode=socket_mode))
