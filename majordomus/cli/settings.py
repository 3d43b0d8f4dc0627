"""Options shared by every command and group: accepted before or after the subcommand, the
innermost wins."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from majordomus.capabilities.workspace import Workspace
from majordomus.cli.logs import set_level

if TYPE_CHECKING:
    from majordomus.layer.model import Discovery


@dataclass(slots=True)
class Settings:
    """The shared options as given; click's context holds one per command line."""

    repo: Path | None = None
    discovery: Discovery = "vcs"
    strict: bool = False
    format: str = "text"

    def context(self, *, serving: bool = False) -> Workspace:
        """The workspace of the command; a server's (`serving`) refreshes its index per answer."""
        return Workspace(self.repo, discovery=self.discovery, strict=self.strict, watch=serving)


def settings() -> Settings:
    return click.get_current_context().ensure_object(Settings)


def _store(ctx: click.Context, param: click.Parameter, value: Any) -> None:
    """Keep a value given in the settings field of the option's name."""
    if value is not None and value is not False:
        setattr(ctx.ensure_object(Settings), str(param.name), value)


def _log_level(_ctx: click.Context, _param: click.Parameter, value: Any) -> None:
    """`--log-level NAME`, or `--quiet`: the level `off`."""
    if value:
        set_level("off" if value is True else value)


#: A shared option sets the settings through its callback, never a parameter of the command.
_option = partial(click.Option, expose_value=False)


def shared_params() -> list[click.Parameter]:
    """Fresh parameter objects (click parameters must not be shared between commands)."""
    return [
        _option(
            ["--repo"],
            type=click.Path(path_type=Path),
            callback=_store,
            help="Start the root search here (default: the current directory).",
        ),
        _option(
            ["--discovery"],
            type=click.Choice(["vcs", "filesystem"]),
            callback=_store,
            help="Enumerate tracked files through git (default) or walk the work tree.",
        ),
        _option(
            ["--strict"],
            is_flag=True,
            callback=_store,
            help="Refuse to serve a degraded index (exit 10).",
        ),
        _option(
            ["--format"],
            type=click.Choice(["text", "json"]),
            callback=_store,
            help="Human text (default) or the output JSON exactly as MCP and HTTP return it.",
        ),
        _option(
            ["--log-level"],
            type=click.Choice(["trace", "debug", "info", "warn", "error", "off"]),
            callback=_log_level,
            help="What is logged on stderr (default: warn; info for mcp and serve; the "
            "variable MAJORDOMUS_LOG sets it too). debug lists every diagnostic.",
        ),
        _option(
            ["--quiet", "-q"],
            is_flag=True,
            callback=_log_level,
            help="Log nothing on stderr; an error is still its one line.",
        ),
    ]


def with_shared(command: click.Command) -> click.Command:
    command.params.extend(shared_params())
    return command
