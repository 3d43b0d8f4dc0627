"""The click application: groups from the registry's CLI words plus the process commands."""

from __future__ import annotations

import difflib
import sys
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

import click

from majordomus.capabilities.builtin import COMMANDS, declared
from majordomus.cli import errors, logs
from majordomus.cli.commands import PROCESS_COMMANDS, is_server, process_command
from majordomus.cli.settings import shared_params
from majordomus.cli.views import views_of
from majordomus.egress import silence
from majordomus.version import __version__

GROUP_HELP = {
    "objects": "The layer's declarative objects: list, get, search.",
    "capabilities": "The capability registry: list, describe, validate.",
    "reasoning": "The reasoning ledger: advisors, plans, records, status, handover, the current "
    "task, explanations, checks, export.",
    "devcontext": "Compile the context a session needs, and explain any identifier's standing.",
    "task": "The current task: show it, set it, list the tasks that have records.",
}


#: A command's words below the group that holds it, and the function that builds it.
Entry = tuple[tuple[str, ...], Callable[[], click.Command]]


class Word(click.Group):
    """A group whose subcommands are built the first time each is asked for, and which names an
    unknown subcommand the way the contract says."""

    def __init__(self, name: str, entries: Sequence[Entry], **attrs: Any) -> None:
        super().__init__(name=name, params=shared_params(), no_args_is_help=True, **attrs)
        self._entries = entries

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        name = args[0]
        if self.get_command(ctx, name) is None and not name.startswith("-"):
            guesses = self.guess(ctx, name)
            hint = f"; did you mean {' or '.join(f'`{g}`' for g in guesses)}?" if guesses else ""
            raise click.UsageError(f"unrecognized subcommand '{name}'{hint}", ctx)
        return super().resolve_command(ctx, args)

    def guess(self, ctx: click.Context, name: str) -> list[str]:
        """The command `name` was likely meant as: a close spelling here, else a command
        named so one or two words further down (`handover` → `reasoning handover`)."""
        here = difflib.get_close_matches(name, self.list_commands(ctx), n=1)
        if here:
            return [f"{ctx.command_path} {here[0]}"]
        below: list[str] = []
        for word in self.list_commands(ctx):
            group = self.get_command(ctx, word)
            if isinstance(group, Word):
                below += [f"{word} {sub}" for sub in group.list_commands(ctx)]
        exact = [path for path in below if path.rsplit(" ", 1)[-1] == name]
        close = exact or difflib.get_close_matches(name, below, n=1, cutoff=0.8)
        return [f"{ctx.command_path} {path}" for path in close]

    def get_command(self, ctx: click.Context | None, name: str) -> click.Command | None:
        if name not in self.commands:
            below = [(words[1:], build) for words, build in self._entries if words[0] == name]
            # the one command named by `name` alone, else a group of the entries below it
            alone = next((build for words, build in below if not words), None)
            if below:
                built = alone() if alone else Word(name, below, help=GROUP_HELP.get(name))
                self.add_command(built, name)
        return self.commands.get(name)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(self.commands) | {words[0] for words, _ in self._entries})

    def invoke(self, ctx: click.Context) -> Any:
        """A reader that closed our output (`| head`) ends the command quietly with exit 0."""
        try:
            return super().invoke(ctx)
        except BrokenPipeError:
            silence(sys.stdout)
            return 0


def _capability_command(capability_id: str) -> click.Command:
    """The command of one capability, with its views (only its module's views imported)."""
    from majordomus.cli.capability_commands import capability_command

    cap = declared(capability_id)
    return capability_command(cap, views_of(cap.module).get(cap.id))


def lazy_cli() -> Word:
    """The root with nothing built yet (each file imported on use): what a command line runs."""
    entries: list[Entry] = [
        *((words, partial(_capability_command, cap_id)) for words, cap_id in COMMANDS.items()),
        *((words, partial(process_command, words)) for words in PROCESS_COMMANDS),
    ]
    root = Word(
        "majordomus",
        entries,
        help="A trustworthy memory of a repository for AI coding sessions: the `.ai/` layer, "
        "the reasoning ledger and the context compiler.",
        context_settings={"help_option_names": ["-h", "--help"]},
    )
    return click.version_option(
        __version__, "-V", "--version", prog_name="majordomus", message="%(prog)s %(version)s"
    )(root)


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
