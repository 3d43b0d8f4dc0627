"""The click application: groups from the registry's CLI words plus the process commands.

Parsing and rendering only; every answer comes from a capability or a library function.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import click

from majordomus import __version__
from majordomus.capabilities.builtin import builtin_modules
from majordomus.cli import errors, logs
from majordomus.cli.projection import capability_command
from majordomus.cli.settings import shared_params
from majordomus.cli.views import all_views

GROUP_HELP = {
    "objects": "The layer's declarative objects: list, get, search.",
    "capabilities": "The capability registry: list, describe, validate.",
    "reasoning": "The reasoning ledger: advisors, plans, records, status, explanations, checks.",
    "devcontext": "Compile the context a session needs, and explain any identifier's standing.",
}


class Group(click.Group):
    """A group that names an unknown subcommand the way the contract says."""

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        name = args[0]
        if self.get_command(ctx, name) is None and not name.startswith("-"):
            raise click.UsageError(f"unrecognized subcommand '{name}'", ctx)
        return super().resolve_command(ctx, args)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(self.commands)


def _group(name: str) -> Group:
    return Group(
        name=name,
        help=GROUP_HELP.get(name),
        params=shared_params(),
        no_args_is_help=True,
    )


def _attach(root: Group, words: Sequence[str], command: click.Command) -> None:
    parent: click.Group = root
    for word in words[:-1]:
        child = parent.commands.get(word)
        if child is None:
            child = _group(word)
            parent.add_command(child, word)
        assert isinstance(child, click.Group)
        parent = child
    parent.add_command(command, words[-1])


def build_cli() -> Group:
    """The whole command tree: capabilities with a CLI exposure, then process commands."""
    from majordomus.cli.commands import process_commands

    root = Group(
        name="majordomus",
        help="A trustworthy memory of a repository for AI coding sessions: the `.ai/` layer, "
        "the reasoning ledger and the context compiler.",
        params=shared_params(),
        no_args_is_help=True,
    )
    root = click.version_option(
        __version__, "-V", "--version", prog_name="majordomus", message="%(prog)s %(version)s"
    )(root)
    views = all_views()
    for module in builtin_modules():
        for cap in module.composed():
            if cap.cli is not None:
                _attach(root, cap.cli, capability_command(cap, views.get(cap.id)))
    for words, command in process_commands():
        _attach(root, words, command)
    return root


def run(args: list[str]) -> int:
    """Parse, dispatch, and turn every failure into one line and an exit code."""
    server = bool(args) and args[0] in ("mcp", "serve") and "--inspect" not in args
    logs.configure(server=server)
    try:
        result: Any = build_cli().main(args, prog_name="majordomus", standalone_mode=False)
    except click.exceptions.Exit as exc:
        return exc.exit_code
    except click.exceptions.Abort:
        errors.fail("aborted")
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:
        return errors.exit_code_for(exc)
    return result if isinstance(result, int) else 0
