"""The click application: groups from the registry's CLI words plus the process commands.

The tree is lazy: a top-level word's commands are built (and its capability module, views and
command files imported) only when that word is invoked, so `reasoning status` never imports
the context compiler or the HTTP server. Listing the tree (`--help`) builds all of it.
Parsing and rendering only; every answer comes from a capability or a library function.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import click

from majordomus import __version__
from majordomus.cli import errors, logs
from majordomus.cli.commands import PROCESS_COMMANDS, process_commands
from majordomus.cli.entry import is_server
from majordomus.cli.settings import shared_params
from majordomus.cli.views import views_of
from majordomus.pipes import silence

if TYPE_CHECKING:
    from majordomus.capabilities.registry import Route

GROUP_HELP = {
    "objects": "The layer's declarative objects: list, get, search.",
    "capabilities": "The capability registry: list, describe, validate.",
    "reasoning": "The reasoning ledger: advisors, plans, records, status, handover, the current "
    "task, explanations, checks, export.",
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


class Root(Group):
    """The root group: the commands under a top-level word are built when it is asked for."""

    def get_command(self, ctx: click.Context | None, name: str) -> click.Command | None:
        if name not in self.commands and name in top_words():
            _load_word(self, name)
        return self.commands.get(name)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(self.commands) | top_words())

    def invoke(self, ctx: click.Context) -> Any:
        """A reader that closed our output (`| head`) ends the command quietly with exit 0."""
        try:
            return super().invoke(ctx)
        except BrokenPipeError:
            silence(sys.stdout)
            return 0

    def load_all(self) -> Root:
        """Build every word's commands (what listing the tree does anyway)."""
        for word in sorted(top_words()):
            self.get_command(None, word)
        return self


def _routes() -> list[Route]:
    from majordomus.capabilities.builtin import builtin_routes

    return [route for route in builtin_routes() if route.cli]


def top_words() -> set[str]:
    """Every first word: capability words and process commands."""
    return {route.cli[0] for route in _routes() if route.cli} | {w[0] for w in PROCESS_COMMANDS}


def _load_word(root: Root, word: str) -> None:
    """Attach the capabilities whose CLI path starts with `word` (importing only the
    namespaces that declare them and their views), then its process commands."""
    from majordomus.capabilities.builtin import builtin_module
    from majordomus.cli.capability_commands import capability_command

    routes = [r for r in _routes() if r.cli is not None and r.cli[0] == word]
    for module_id in dict.fromkeys(r.module for r in routes):
        views = views_of(module_id)
        for cap in builtin_module(module_id).composed():
            if cap.cli is not None and cap.cli[0] == word:
                _attach(root, cap.cli, capability_command(cap, views.get(cap.id)))
    for words, command in process_commands(word):
        _attach(root, words, command)


def lazy_cli() -> Root:
    """The root with nothing built yet: what a command line runs."""
    root = Root(
        name="majordomus",
        help="A trustworthy memory of a repository for AI coding sessions: the `.ai/` layer, "
        "the reasoning ledger and the context compiler.",
        params=shared_params(),
        no_args_is_help=True,
        context_settings={"help_option_names": ["-h", "--help"]},
    )
    return click.version_option(
        __version__, "-V", "--version", prog_name="majordomus", message="%(prog)s %(version)s"
    )(root)


def build_cli() -> Root:
    """The whole command tree: capabilities with a CLI exposure, then process commands."""
    return lazy_cli().load_all()


def run(args: list[str]) -> int:
    """Parse, dispatch, and turn every failure into one line and an exit code."""
    logs.configure(server=is_server(args))
    try:
        result: Any = lazy_cli().main(args, prog_name="majordomus", standalone_mode=False)
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
