"""What every `threadwise` command shares: the Typer apps, consoles, settings and the async runner."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TypeVar

import typer
from rich.console import Console
from rich.markup import escape

from bots.settings import Settings, SettingsError, load_settings

T = TypeVar("T")

app = typer.Typer(help="Threadwise: answers from your documents, with citations.", no_args_is_help=True)
db_app = typer.Typer(help="Database migrations.", no_args_is_help=True)
app.add_typer(db_app, name="db")
eval_app = typer.Typer(help="Evaluate retrieval quality and behaviour.", no_args_is_help=True)
app.add_typer(eval_app, name="eval")
channels_app = typer.Typer(help="Which collections each channel may read.", no_args_is_help=True)
app.add_typer(channels_app, name="channels")
index_app = typer.Typer(help="Search index maintenance.", no_args_is_help=True)
app.add_typer(index_app, name="index")
out = Console()
# Messages on stderr are not wrapped at the terminal's width: a line break inside a path or a command
# ("run `threadwise db\nupgrade`") breaks what people copy and what logs are searched for.
err = Console(stderr=True, soft_wrap=True)


def load_or_exit() -> Settings:
    """The settings; a wrong one ends the command with exit status 2 and its name."""
    try:
        return load_settings()
    except SettingsError as exc:
        err.print(f"[red]{escape(str(exc))}[/red]")
        raise typer.Exit(2) from None


def run(coro_factory: Callable[[], Awaitable[T]]) -> T:
    """Run one async command; expected failures become a message and exit status 2."""
    from adapters.embedders.base import ModelNotAvailableError
    from storage.database import NotMigratedError

    try:
        return asyncio.run(coro_factory())  # type: ignore[arg-type]
    except SettingsError as exc:  # found while building (an LLM setting): the message names it
        err.print(f"[red]{escape(str(exc))}[/red]")
        raise typer.Exit(2) from None
    except (NotMigratedError, NotImplementedError, FileNotFoundError, ValueError, ModelNotAvailableError) as exc:
        err.print(f"[red]error:[/red] {escape(str(exc))}")
        raise typer.Exit(2) from None
