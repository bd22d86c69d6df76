"""`threadwise manifest …`: print each platform's app manifest, ready to upload."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from bots.cli_common import app

manifest_app = typer.Typer(help="Print a platform's app manifest.", no_args_is_help=True)
app.add_typer(manifest_app, name="manifest")


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
